/*
 * map_tab.h - the L2P and P2L tables: what their values mean, and reading
 * and writing one entry (models/map.c).
 *
 * Values are 64-bit whatever the width of the entries that store them. The
 * entry functions are small enough that link-time optimization inlines
 * them into their callers.
 */
#ifndef FTLSIM_MAP_TAB_H
#define FTLSIM_MAP_TAB_H

#include "models/parts.h"

#define NO_SLOT UINT64_MAX
#define NO_LPN UINT64_MAX
/* L2P values at or above BUF_MARK mean "in the write buffer at ring
 * position value - BUF_MARK"; slot numbers stay below it. */
#define BUF_MARK (UINT64_MAX - (1u << 22))
/* Narrow entries store 32-bit values: BUF_MARK32 - 1 and up stand for
 * BUF_MARK - 1 and up, so a drive uses them when its slots stay below. */
#define BUF_MARK32 (UINT32_MAX - (1u << 22))

/* The map's chunk directories, held by the drive record (models/parts.c)
 * so that an entry is two loads from the drive: a chunk's part is
 * allocated on its first write (models/map.c), and a lookup in an absent
 * chunk is answered from the directory alone. Entries hold values
 * complemented, 0 for none: 4 bytes where the drive's slots and lpns fit
 * 32 bits (narrow), else 8. */
#define MAP_CHUNK_BITS 12
#define MAP_CHUNK (1u << MAP_CHUNK_BITS)
void **drive_l2p_dir(const Drive *d); /* per chunk of lpns: its dense part, or NULL */
void **drive_p2l_dir(const Drive *d); /* per chunk of slots: its entries, or NULL */
bool drive_map_narrow(const Drive *d);
void drive_set_map_dirs(Drive *d, void **l2p, void **p2l, bool narrow);
uint64_t *drive_mapped(const Drive *d);  /* lpns mapped (to NAND or buffer) */

/* One entry. */
uint64_t map_get(const Drive *d, uint64_t lpn);
void map_put(Drive *d, uint64_t lpn, uint64_t v);
uint64_t map_lpn_of(const Drive *d, uint64_t slot); /* NO_LPN if the slot is not valid */
void map_put_lpn(Drive *d, uint64_t slot, uint64_t lpn);
void map_prefetch_one(const Drive *d, uint64_t lpn);   /* warm lpn's entry, to be read or set soon */
void map_prefetch_slot(const Drive *d, uint64_t slot); /* warm slot's P2L entry, to be invalidated soon */

#endif
