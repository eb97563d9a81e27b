/*
 * l2p_cache.h - the mapping cache: translation pages, their loads and NAND copies
 * (models/l2p_cache.c).
 */
#ifndef FTLSIM_L2P_CACHE_H
#define FTLSIM_L2P_CACHE_H

#include "models/parts.h"

void l2p_cache_init(Drive *d);    /* none with l2p_kind dram: l2p_cache_on() false */
void l2p_cache_release(Drive *d);
bool l2p_cache_on(const Drive *d); /* false with l2p_kind dram */
/* Make the translation pages of lpns [first, last] resident for command c.
 * True if it may go on now; else the function given to l2p_on_translated()
 * is called with c later. */
bool l2p_translate(Drive *d, uint32_t c, uint64_t first, uint64_t last);
void l2p_on_translated(Drive *d, void (*fn)(void *ctx, uint32_t cmd), void *ctx);
/* The table changed at lpn: the cached copy of its translation page turns
 * dirty, loaded first (in the background) if it is not cached. True on a miss. */
bool l2p_update(Drive *d, uint64_t lpn);
/* Collect the die's victim, a map block: one step; *moved: slots it moves. */
bool l2p_gc_step(Drive *d, uint32_t die, uint32_t *slots_moved);
SimTime l2p_load_ns(const Drive *d);                   /* time to load one translation page */
uint64_t l2p_entries_per_tpage(const Drive *d);
bool l2p_check(const Drive *d, char *why, size_t why_len);
void l2p_host_command(Drive *d); /* before the first: store a prefilled table as translation pages */

#endif
