/*
 * map_tab.h - the L2P and P2L tables: what their values mean, and reading
 * and writing one entry.
 *
 * The tables are held by the drive record (models/parts.c); the functions
 * here call nothing else, so every part may read the mapping, including
 * the mapping cache that map.c reports changes to.
 */
#ifndef FTLSIM_MAP_TAB_H
#define FTLSIM_MAP_TAB_H

#include "models/parts.h"

#define NO_SLOT UINT32_MAX
#define NO_LPN UINT32_MAX
/* L2P values at or above BUF_MARK mean "in the write buffer at ring
 * position value - BUF_MARK"; slot numbers stay below it. */
#define BUF_MARK (UINT32_MAX - (1u << 22))

/* The tables, held by the drive record (models/parts.c). Both hold every
 * value complemented (map_get() and friends below): memory fresh from the
 * kernel reads as zero, which is NO_SLOT and NO_LPN, so the tables are
 * never filled, and a run pays in memory and time only for the parts of
 * them it writes. */
uint32_t *drive_l2p_tab(const Drive *d); /* nlpn: slot, NO_SLOT, or BUF_MARK + ring position */
uint32_t *drive_p2l_tab(const Drive *d); /* nslots: lpn or NO_LPN (slot not valid) */
void drive_set_map_tables(Drive *d, uint32_t *l2p, uint32_t *p2l);
uint64_t *drive_mapped(const Drive *d);  /* lpns mapped (to NAND or buffer) */

/* One entry; the tables store values complemented (see above). */
static inline uint32_t map_get(const Drive *d, uint64_t lpn) { return ~drive_l2p_tab(d)[lpn]; }
static inline void map_put(Drive *d, uint64_t lpn, uint32_t v) { drive_l2p_tab(d)[lpn] = ~v; }
static inline uint32_t map_lpn_of(const Drive *d, uint64_t slot) { return ~drive_p2l_tab(d)[slot]; }
static inline void map_put_lpn(Drive *d, uint64_t slot, uint32_t lpn) { drive_p2l_tab(d)[slot] = ~lpn; }

#endif
