/*
 * bigmem.c - the drive's large per-page tables (L2P, P2L) in huge pages.
 *
 * Random writes touch these tables at random; with 4 KiB pages almost every
 * access misses the TLB, and a page walk costs several memory accesses (many
 * more inside a virtual machine). Backing them with 2 MiB pages, where the
 * kernel allows it (transparent huge pages in madvise mode), keeps the walk
 * short. The memory is not touched here: anonymous pages read as zero until
 * written, so the tables store values such that zero means empty (the L2P
 * and P2L hold them complemented, models/map_tab.h) and a run that writes a
 * few GB of a 4 TB drive backs only the few MB of table it used.
 */
#include "models/bigmem.h"

#include <glib.h>
#include <stdbool.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define HUGE_PAGE (2u << 20)

static size_t rounded(size_t bytes) { return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

static void *map_zeroed(size_t bytes, bool huge)
{
    size_t len = rounded(bytes ? bytes : 1);
    /* no reservation: most of a large drive's table may never be written */
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
    madvise(p, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
    (void)huge;
#endif
    return p;
}

void *bigmem_alloc_zeroed(size_t bytes) { return map_zeroed(bytes, true); }
void *bigmem_alloc_sparse(size_t bytes) { return map_zeroed(bytes, false); }

void bigmem_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, rounded(bytes ? bytes : 1));
}

/* Backed a piece at a time, so that a stop waits for one piece at most. */
#define WARM_PIECE (32u << 20)
#define WARM_RANGES 4

struct BigmemWarm {
    GThread *thread;
    gint stop;
    size_t n;
    char *p[WARM_RANGES];
    size_t len[WARM_RANGES];
};

static gpointer warm_main(gpointer arg)
{
    BigmemWarm *w = arg;
    for (size_t i = 0; i < w->n; i++)
        for (size_t off = 0; off < w->len[i]; off += WARM_PIECE) {
            if (g_atomic_int_get(&w->stop))
                return NULL;
            size_t n = MIN(WARM_PIECE, w->len[i] - off);
            if (madvise(w->p[i] + off, n, MADV_POPULATE_WRITE) != 0)
                return NULL; /* an older kernel, or no memory left: the writes will fault */
        }
    return NULL;
}

BigmemWarm *bigmem_warm(void *const *p, const size_t *bytes, size_t n)
{
    g_return_val_if_fail(n <= WARM_RANGES, NULL);
    BigmemWarm *w = g_new0(BigmemWarm, 1);
    for (size_t i = 0; i < n; i++)
        if (p[i]) {
            w->p[w->n] = p[i];
            w->len[w->n++] = rounded(bytes[i] ? bytes[i] : 1);
        }
    w->thread = g_thread_try_new("bigmem-warm", warm_main, w, NULL);
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
