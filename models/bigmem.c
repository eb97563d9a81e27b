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
