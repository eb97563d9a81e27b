/*
 * map.h - the page-level mapping: L2P, P2L and the valid counts (models/map.c).
 *
 * Mapping, invalidating and relocating; reading and writing one entry is
 * map_tab.h's, the store behind the entries map_store.h's.
 */
#ifndef FTLSIM_MAP_H
#define FTLSIM_MAP_H

#include "models/map_store.h"

bool map_init(Drive *d); /* entries narrow or wide (drive_params_narrow_map()) */
void map_release(Drive *d);
void map_watch(Drive *d, void (*fn)(Drive *d, uint64_t lpn)); /* told of every map_set_run() entry */
void map_invalidate_slot(Drive *d, uint64_t slot);
void map_set_run(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot); /* n slots of one block */
void map_prefetch(const Drive *d, const uint64_t *lpns, uint32_t n); /* warm the map entries of lpns */
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
