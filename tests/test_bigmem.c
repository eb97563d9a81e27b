/*
 * test_bigmem.c - the large tables and pools (models/bigmem.c): pieces
 * zeroed, apart and carved in order from slabs, their cost as
 * bigmem_pool_bytes() says, and FTLSIM_TOUCH_ALLOC backing every page as
 * it is mapped (so a table mapped but unused shows in the RSS anywhere).
 */
#include "models/bigmem.h"
#include "tests/cutest.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The resident set, bytes (/proc/self/statm). */
static uint64_t rss_bytes(void)
{
    unsigned long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void test_pool_pieces(void)
{
    BigmemPool p;
    bigmem_pool_init(&p, 16384);
    enum { N = 300 }; /* more than two slabs of 128 */
    char *piece[N];
    for (int i = 0; i < N; i++) {
        piece[i] = bigmem_pool_take(&p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(piece[i]);
        for (size_t k = 0; k < 16384; k += 512)
            CU_ASSERT_EQUAL(piece[i][k], 0);
        memset(piece[i], i & 0xff, 16384);
    }
    /* no piece overlaps another: each still holds what was written */
    for (int i = 0; i < N; i++) {
        CU_ASSERT_EQUAL((unsigned char)piece[i][0], (unsigned)(i & 0xff));
        CU_ASSERT_EQUAL((unsigned char)piece[i][16383], (unsigned)(i & 0xff));
    }
    CU_ASSERT_EQUAL(p.taken, N);
    CU_ASSERT_EQUAL(p.nslab, 3);
    CU_ASSERT_EQUAL((uint64_t)p.nslab * p.slab_bytes, bigmem_pool_bytes(16384, N));
    bigmem_pool_release(&p);
    CU_ASSERT_EQUAL(p.nslab, 0);
    CU_ASSERT_EQUAL(p.taken, 0);
    CU_ASSERT_PTR_NOT_NULL(bigmem_pool_take(&p)); /* usable again */
    bigmem_pool_release(&p);
}

static void test_pool_large_piece(void)
{
    /* a piece above a slab gets a slab of its own, rounded to 2 MiB */
    BigmemPool p;
    bigmem_pool_init(&p, 3u << 20);
    CU_ASSERT_PTR_NOT_NULL(bigmem_pool_take(&p));
    CU_ASSERT_PTR_NOT_NULL(bigmem_pool_take(&p));
    CU_ASSERT_EQUAL(p.nslab, 2);
    CU_ASSERT_EQUAL(p.slab_bytes, 4u << 20);
    CU_ASSERT_EQUAL(bigmem_pool_bytes(3u << 20, 2), 8u << 20);
    bigmem_pool_release(&p);
}

/* Mapped and never touched, 64 MiB costs nothing resident on any kernel;
 * with FTLSIM_TOUCH_ALLOC it costs all of it, at once. */
static void test_touch_mode(void)
{
    const size_t bytes = 64u << 20;
    g_unsetenv("FTLSIM_TOUCH_ALLOC");
    CU_ASSERT_FALSE(bigmem_touch_all());
    uint64_t r0 = rss_bytes();
    char *a = bigmem_alloc(bytes, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    uint64_t r1 = rss_bytes();
    CU_ASSERT_TRUE(r1 < r0 + bytes / 8);

    g_setenv("FTLSIM_TOUCH_ALLOC", "1", TRUE);
    CU_ASSERT_TRUE(bigmem_touch_all());
    char *b = bigmem_alloc(bytes, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    uint64_t r2 = rss_bytes();
    CU_ASSERT_TRUE(r2 >= r1 + bytes - (1u << 20));
    CU_ASSERT_EQUAL(b[bytes - 1], 0);
    g_unsetenv("FTLSIM_TOUCH_ALLOC");
    bigmem_free(a, bytes);
    bigmem_free(b, bytes);
    bigmem_free(NULL, bytes);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"pool pieces zeroed, apart, in slabs", test_pool_pieces},
        {"pool piece larger than a slab", test_pool_large_piece},
        {"touch mode backs what is mapped", test_touch_mode},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("bigmem", tests);
}
