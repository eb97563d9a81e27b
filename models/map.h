/*
 * map.h - the page-level mapping: L2P, P2L and the valid counts (models/map.c).
 *
 * Mapping, invalidating and relocating; reading and writing one entry is
 * map_tab.h's.
 */
#ifndef FTLSIM_MAP_H
#define FTLSIM_MAP_H

#include "models/map_tab.h"

/* The map keeps a piece of this many consecutive lpns or more,
 * programmed to consecutive slots, as a run (8 bytes each way). */
#define MAP_RUN_MIN 8
double map_runs_bytes(double runs); /* memory of a list of that many runs, at most */

bool map_init(Drive *d); /* entries narrow or wide (drive_params_narrow_map()) */
void map_release(Drive *d);
/* n lpns are about to be mapped at random (a random prefill): if that many
 * would push the average chunk dense, every chunk of the L2P goes dense
 * now, so that the entries go straight to their place. True if it did. */
bool map_expect_random(Drive *d, uint64_t n);
void map_watch(Drive *d, void (*fn)(Drive *d, uint64_t lpn)); /* told of every map_set_run() entry */
void map_invalidate_slot(Drive *d, uint64_t slot);
void map_set_run(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot); /* n slots of one block */
void map_prefetch(const Drive *d, const uint64_t *lpns, uint32_t n); /* warm the map entries of lpns */
/* Prefill: n lpns from lpn written in order to the n slots from s0 on die,
 * a native unit if native. True if the map's prefill formula covers
 * them (nothing to store); false if they must be mapped one by one. */
bool map_prefill_run(Drive *d, uint64_t lpn, uint32_t die, uint64_t s0, uint32_t n, bool native);
void map_block_erased(Drive *d, uint32_t b); /* b holds nothing the formula or a run gives */
/* The map's own structure (chunks, runs, hashes, counts), then its
 * entries: L2P and P2L agree, the valid counts and mapped pages match. */
bool map_check(const Drive *d, char *why, size_t why_len);
/* Move up to one native unit of valid slots of block v from *cursor into
 * dst, the open block of its die's stream (closed there when it fills),
 * or, with stream MAP_OWN_BLOCK, a block the caller keeps open itself
 * (FDP's per-handle GC blocks): marked full when it fills, and the caller
 * lets go of it when blk_state() says so. */
#define MAP_OWN_BLOCK (-1)
uint32_t map_relocate(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, int stream,
                      uint32_t *pages);

#endif
