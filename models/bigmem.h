/* bigmem.h - large tables and pools of fixed-size pieces, in memory mapped
 * from the kernel, in huge pages where the kernel allows. */
#ifndef FTLSIM_BIGMEM_H
#define FTLSIM_BIGMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* bytes of zeroed memory (anonymous memory the kernel maps reads as zero),
 * or NULL if it cannot be mapped (the caller reports it; a run checks
 * drive_memory_estimate() against the machine first). For a table its user
 * writes whole or nearly: memory never written is never read, so its cost
 * does not depend on whether the kernel backs a page read before it is
 * written. huge: ask for transparent huge pages (a speed-up for tables
 * read at random; nothing else depends on them). */
void *bigmem_alloc(size_t bytes, bool huge);
void bigmem_free(void *p, size_t bytes); /* accepts NULL */

/* FTLSIM_TOUCH_ALLOC=1: every page of every table and pool slab is written
 * as it is mapped, so that memory mapped but never used costs what it
 * would on a kernel that backs pages on first read; for tests of the
 * memory the tables take. */
bool bigmem_touch_all(void);

/* A thread that backs the pages of up to BIGMEM_WARM_RANGES ranges
 * (MADV_POPULATE_WRITE, a piece at a time) while its caller works on
 * something else: for tables about to be written whole, so that the
 * kernel zeroes them on another core rather than at the writer's page
 * faults. A speed-up only: where the kernel or the thread cannot, the
 * writes fault as before. NULL (nothing to do) in the touch mode, where
 * the tables were written as they were mapped, or if no thread starts. */
#define BIGMEM_WARM_RANGES 2
typedef struct BigmemWarm BigmemWarm;
BigmemWarm *bigmem_warm_start(void *const *p, const size_t *bytes, size_t n);
void bigmem_warm_stop(BigmemWarm *w); /* after the piece in hand; accepts NULL */

/* A pool of zeroed pieces of one size, carved in order from slabs of
 * BIGMEM_SLAB bytes (or one piece, if larger): a piece costs its size, a
 * slab is mapped only once the last is used up, and a piece given back is
 * handed out again (zeroed) before any new one; slabs go back to the
 * kernel with the whole pool. Embedded in its owner: bigmem_pool_init(),
 * bigmem_pool_release(). */
#define BIGMEM_SLAB (2u << 20)
typedef struct BigmemPool {
    size_t piece;       /* bytes */
    size_t slab_bytes;  /* bytes a slab */
    char *next, *end;   /* the current slab's part not yet handed out */
    void **slab;        /* the slabs mapped */
    uint32_t nslab, cap;
    void *given;        /* pieces given back, each holding the next */
    uint64_t taken;     /* pieces handed out and not given back */
} BigmemPool;

void bigmem_pool_init(BigmemPool *p, size_t piece);
void *bigmem_pool_take(BigmemPool *p); /* a zeroed piece, NULL if memory is out */
void bigmem_pool_give(BigmemPool *p, void *piece); /* taken again before a new one */
void bigmem_pool_release(BigmemPool *p);
/* The bytes a pool maps for n pieces of piece bytes. */
uint64_t bigmem_pool_bytes(size_t piece, uint64_t n);

#endif
