/*
 * map_tab.h - the L2P and P2L tables: what their values mean, and reading
 * and writing one entry (models/map.c).
 *
 * Values are 64-bit whatever the store: flat 32-bit tables held by the
 * drive record (models/parts.c) for drives whose numbers fit, the sparse
 * map otherwise. The entry functions are small enough that link-time
 * optimization inlines them into their callers.
 */
#ifndef FTLSIM_MAP_TAB_H
#define FTLSIM_MAP_TAB_H

#include "models/parts.h"

#define NO_SLOT UINT64_MAX
#define NO_LPN UINT64_MAX
/* L2P values at or above BUF_MARK mean "in the write buffer at ring
 * position value - BUF_MARK"; slot numbers stay below it. */
#define BUF_MARK (UINT64_MAX - (1u << 22))
/* The flat tables store 32-bit values: BUF_MARK32 and up stand for
 * BUF_MARK and up, so a drive uses them when its slots and lpns stay below. */
#define BUF_MARK32 (UINT32_MAX - (1u << 22))

/* The flat tables, held by the drive record (models/parts.c); NULL with
 * the sparse map. Both hold every value complemented: memory fresh from the
 * kernel reads as zero, which is NO_SLOT and NO_LPN, so the tables are
 * never filled, and a run pays in memory and time only for the parts of
 * them it writes. */
uint32_t *drive_l2p_tab(const Drive *d); /* nlpn: slot, NO_SLOT, or BUF_MARK + ring position */
uint32_t *drive_p2l_tab(const Drive *d); /* nslots: lpn or NO_LPN (slot not valid) */
void drive_set_map_tables(Drive *d, uint32_t *l2p, uint32_t *p2l);
uint64_t *drive_mapped(const Drive *d);  /* lpns mapped (to NAND or buffer) */

/* One entry. */
uint64_t map_get(const Drive *d, uint64_t lpn);
void map_put(Drive *d, uint64_t lpn, uint64_t v);
uint64_t map_lpn_of(const Drive *d, uint64_t slot); /* NO_LPN if the slot is not valid */
void map_put_lpn(Drive *d, uint64_t slot, uint64_t lpn);
void map_prefetch_one(const Drive *d, uint64_t lpn);   /* warm lpn's entry, to be read or set soon */
void map_prefetch_slot(const Drive *d, uint64_t slot); /* warm slot's P2L entry, to be invalidated soon */

#endif
