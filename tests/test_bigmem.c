/*
 * test_bigmem.c - the large tables (models/bigmem.c): backed ahead by a
 * thread of their own without their contents changing, and a stop ends
 * that work early.
 */
#include "models/bigmem.h"
#include "tests/cutest.h"

#include <glib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Whether this kernel backs ranges ahead (Linux 5.14). */
static gboolean kernel_populates(void)
{
    void *p = bigmem_alloc_zeroed(1);
    gboolean ok = p && madvise(p, 2u << 20, MADV_POPULATE_WRITE) == 0;
    bigmem_free(p, 1);
    return ok;
}

/* Pages of [p, p + bytes) the kernel has backed. */
static size_t resident_pages(void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (bytes + page - 1) / page, got = 0;
    g_autofree unsigned char *v = g_malloc(n);
    if (mincore(p, bytes, v) != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        got += v[i] & 1;
    return got;
}

#define STRIDE ((2u << 20) + 3)

/* Two tables backed whole while the test writes into them: what it wrote
 * stays, the rest reads zero. */
static void test_warm_backs_whole(void)
{
    if (!kernel_populates()) {
        cutest_skip("the kernel has no MADV_POPULATE_WRITE");
        return;
    }
    size_t bytes[2] = {48u << 20, (20u << 20) + 4096};
    uint32_t *t[2] = {bigmem_alloc_zeroed(bytes[0]), bigmem_alloc_zeroed(bytes[1])};
    CUTEST_REQUIRE(t[0] && t[1]);
    void *p[2] = {t[0], t[1]};
    BigmemWarm *w = bigmem_warm(p, bytes, 2);
    CUTEST_REQUIRE_PTR(w);
    /* a write every 8 MiB: the writes alone back a few of the pages */
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < bytes[k] / 4; i += STRIDE)
            t[k][i] = (uint32_t)(i * 2654435761u) | 1;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t want = bytes[0] / page + (bytes[1] + page - 1) / page;
    for (int tries = 0; tries < 1000; tries++) {
        if (resident_pages(t[0], bytes[0]) + resident_pages(t[1], bytes[1]) == want)
            break;
        g_usleep(10000);
    }
    bigmem_warm_stop(w);
    CUTEST_EQ(resident_pages(t[0], bytes[0]) + resident_pages(t[1], bytes[1]), want);
    size_t wrong = 0;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < bytes[k] / 4; i++)
            wrong += t[k][i] != (i % STRIDE ? 0 : ((uint32_t)(i * 2654435761u) | 1));
    CUTEST_EQ(wrong, 0);
    bigmem_free(t[0], bytes[0]);
    bigmem_free(t[1], bytes[1]);
}

/* A stop made at once returns with most of a large table never backed:
 * the thread backs a piece at a time and looks for the stop in between. */
static void test_warm_stops(void)
{
    if (!kernel_populates()) {
        cutest_skip("the kernel has no MADV_POPULATE_WRITE");
        return;
    }
    size_t bytes = (size_t)4 << 30;
    void *t = bigmem_alloc_zeroed(bytes);
    CUTEST_REQUIRE_PTR(t);
    BigmemWarm *w = bigmem_warm(&t, &bytes, 1);
    CUTEST_REQUIRE_PTR(w);
    bigmem_warm_stop(w);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CU_ASSERT(resident_pages(t, bytes) * page <= (size_t)256 << 20);
    bigmem_free(t, bytes);
    bigmem_warm_stop(NULL);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"warm backs tables whole, contents kept", test_warm_backs_whole},
        {"warm stops early", test_warm_stops},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("bigmem", tests);
}
