/*
 * bigmem.c - the drive's large tables and the pools their chunks come from.
 *
 * Anonymous memory from mmap() reads as zero, which Linux promises; what it
 * costs before it is written does not hold from one kernel to the next (a
 * kernel may back a page on its first read). So memory is mapped here only
 * for what will be written: a table its user fills whole, or a pool whose
 * pieces are handed out one after another as chunks are first written.
 * Random access to a large table misses the TLB on 4 KiB pages, and a page
 * walk costs several memory accesses (more inside a virtual machine):
 * tables and slabs ask for 2 MiB pages where the kernel allows it, a
 * speed-up only.
 */
#include "models/bigmem.h"

#include <glib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE (2u << 20)

static size_t rounded(size_t bytes, size_t to) { return (bytes + to - 1) / to * to; }

/* Read at each mapping (rare: a table, a slab), so a test may set it. */
bool bigmem_touch_all(void)
{
    const char *v = g_getenv("FTLSIM_TOUCH_ALLOC");
    return v && *v && strcmp(v, "0") != 0;
}

void *bigmem_alloc(size_t bytes, bool huge)
{
    size_t len = rounded(bytes ? bytes : 1, (size_t)sysconf(_SC_PAGESIZE));
    /* a huge page must be aligned to its size: map a huge page more and
     * give back what lies outside the aligned range */
    size_t extra = huge && len >= HUGE_PAGE ? HUGE_PAGE : 0;
    char *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (extra) {
        size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
        if (head)
            munmap(p, head);
        if (extra - head)
            munmap(p + head + len, extra - head);
        p += head;
#if defined(MADV_HUGEPAGE)
        madvise(p, len, MADV_HUGEPAGE);
#endif
    }
    if (bigmem_touch_all())
        memset(p, 0, len);
    return p;
}

void bigmem_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, rounded(bytes ? bytes : 1, (size_t)sysconf(_SC_PAGESIZE)));
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
/* Backed a piece at a time, so that a stop waits for one piece at most. */
#define WARM_PIECE (32u << 20)

struct BigmemWarm {
    GThread *thread;
    gint stop;
    size_t n;
    char *p[BIGMEM_WARM_RANGES];
    size_t len[BIGMEM_WARM_RANGES];
};

static gpointer warm_main(gpointer arg)
{
    BigmemWarm *w = arg;
    for (size_t i = 0; i < w->n; i++)
        for (size_t off = 0; off < w->len[i]; off += WARM_PIECE)
            if (g_atomic_int_get(&w->stop) ||
                madvise(w->p[i] + off, MIN(WARM_PIECE, w->len[i] - off), MADV_POPULATE_WRITE) != 0)
                return NULL; /* stopped, an older kernel or no memory left: the writes fault */
    return NULL;
}

BigmemWarm *bigmem_warm_start(void *const *p, const size_t *bytes, size_t n)
{
    g_return_val_if_fail(n <= BIGMEM_WARM_RANGES, NULL);
    if (bigmem_touch_all())
        return NULL;
    BigmemWarm *w = g_new0(BigmemWarm, 1);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < n; i++)
        if (p[i] && bytes[i] > 0) {
            w->p[w->n] = p[i];
            w->len[w->n++] = rounded(bytes[i], page);
        }
    w->thread = w->n ? g_thread_try_new("bigmem-warm", warm_main, w, NULL) : NULL;
    if (!w->thread) {
        g_free(w);
        return NULL;
    }
    return w;
}

void bigmem_warm_stop(BigmemWarm *w)
{
    if (!w)
        return;
    g_atomic_int_set(&w->stop, 1);
    g_thread_join(w->thread);
    g_free(w);
}

void bigmem_pool_init(BigmemPool *p, size_t piece)
{
    memset(p, 0, sizeof *p);
    p->piece = piece;
    p->slab_bytes = MAX(rounded(piece, HUGE_PAGE), BIGMEM_SLAB);
}

/* A slab is mapped when the last is used up: rarely (every slab_bytes /
 * piece pieces), so a chunk's first write allocates only that often. */
void *bigmem_pool_take(BigmemPool *p)
{
    if (p->given) {
        void *piece = p->given;
        memcpy(&p->given, piece, sizeof(void *));
        memset(piece, 0, p->piece);
        p->taken++;
        return piece;
    }
    if (p->next == NULL || (size_t)(p->end - p->next) < p->piece) {
        char *s = bigmem_alloc(p->slab_bytes, true);
        if (!s)
            return NULL;
        if (p->nslab == p->cap) {
            p->cap = MAX(p->cap * 2, 16u);
            p->slab = g_renew(void *, p->slab, p->cap);
        }
        p->slab[p->nslab++] = s;
        p->next = s;
        p->end = s + p->slab_bytes;
    }
    void *piece = p->next;
    p->next += p->piece;
    p->taken++;
    return piece;
}

void bigmem_pool_give(BigmemPool *p, void *piece)
{
    memcpy(piece, &p->given, sizeof(void *));
    p->given = piece;
    p->taken--;
}

void bigmem_pool_release(BigmemPool *p)
{
    for (uint32_t i = 0; i < p->nslab; i++)
        bigmem_free(p->slab[i], p->slab_bytes);
    g_free(p->slab);
    bigmem_pool_init(p, p->piece);
}

uint64_t bigmem_pool_bytes(size_t piece, uint64_t n)
{
    size_t slab = MAX(rounded(piece, HUGE_PAGE), BIGMEM_SLAB);
    uint64_t per = slab / piece;
    return (n + per - 1) / per * slab;
}
