/*
 * map.h - the page-level mapping: L2P, P2L and the valid counts (models/map.c).
 *
 * Mapping, invalidating and relocating; reading and writing one entry is
 * map_tab.h's.
 */
#ifndef FTLSIM_MAP_H
#define FTLSIM_MAP_H

#include "models/map_tab.h"

void map_invalidate_slot(Drive *d, uint32_t slot);
void map_set_run(Drive *d, const uint32_t *lpns, uint32_t n, uint32_t slot); /* n slots of one block */
void map_prefetch(const Drive *d, const uint32_t *lpns, uint32_t n); /* warm the map entries of lpns */
/* Move up to one native unit of valid slots of block v from *cursor into dst. */
uint32_t map_relocate(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, uint32_t *open,
                      uint32_t *pages);

#endif
