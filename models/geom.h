/*
 * geom.h - the drive's geometry, fixed when it is made (models/nand.c),
 * and the address arithmetic on it.
 *
 * A value every part may read: nothing here changes after drive_new().
 * Address layout: a physical 4 KiB slot number (64-bit) is
 *     slot = block * slots_per_block + index_in_block
 *     block = die * blocks_per_die + block_in_die
 *     die = channel + channels * (ce + ces_per_channel * die_in_ce)
 * where a block is a multi-plane block (the same block of every plane of a
 * die, programmed, read and erased together) and index_in_block runs over
 * program units in order: unit * unit_slots + (plane * pages_per_wl + page)
 * * slots_per_page + slot_in_page.
 */
#ifndef FTLSIM_GEOM_H
#define FTLSIM_GEOM_H

#include "models/drive.h"

typedef struct Geom {
    uint32_t dies, channels, planes;
    uint32_t blocks_per_die;
    uint32_t slots_per_page;
    uint32_t slots_per_block;        /* native mode */
    uint32_t unit_slots[CELL_MODES]; /* slots per program unit by mode */
    uint32_t mode_slots[CELL_MODES]; /* slots a block holds in each mode */
    uint32_t nblocks;
    uint64_t nslots;
    uint64_t nlpn; /* 4 KiB logical pages */
    CellMode native;
    uint32_t static_per_die; /* static SLC blocks per die: block_in_die < static_per_die */
    double chan_ns_per_byte;
} Geom;

/* The geometry of d (models/parts.c). */
const Geom *drive_geom(const Drive *d);
/* Fill g from p (models/nand.c). */
void nand_geometry(Geom *g, const DriveParams *p);

/* slot / by, in 32 bits where the slot allows (the common case, and a
 * quicker division): slot numbers are 64-bit, a 60 TB drive has more than
 * 32 bits number */
static inline uint64_t slot_div(uint64_t slot, uint32_t by)
{
    return G_LIKELY(slot <= UINT32_MAX) ? (uint32_t)slot / by : slot / by;
}
static inline uint32_t nand_block_of(const Drive *d, uint64_t slot)
{
    return (uint32_t)slot_div(slot, drive_geom(d)->slots_per_block);
}
/* slot i of block b */
static inline uint64_t nand_slot(const Drive *d, uint32_t b, uint32_t i)
{
    return (uint64_t)b * drive_geom(d)->slots_per_block + i;
}
/* The type of the page slot is on in a block of mode m (0: lower page,
 * then middle, upper, top): its place in its wordline. A one-shot program
 * unit holds a wordline's pages of each plane in a row; otherwise each unit
 * is one page of every plane, the wordline's pages in successive units. */
static inline uint32_t nand_page_type(const Drive *d, uint64_t slot, CellMode m)
{
    const Geom *g = drive_geom(d);
    uint32_t page = (uint32_t)(slot % g->slots_per_block) / g->slots_per_page;
    bool one_shot = g->unit_slots[m] != g->planes * g->slots_per_page;
    return (one_shot ? page : page / g->planes) % (uint32_t)m;
}
static inline uint32_t nand_die_of_block(const Drive *d, uint32_t b) { return b / drive_geom(d)->blocks_per_die; }
static inline uint32_t chan_of_die(const Drive *d, uint32_t die) { return die % drive_geom(d)->channels; }
static inline bool nand_is_static(const Drive *d, uint32_t b)
{
    return b % drive_geom(d)->blocks_per_die < drive_geom(d)->static_per_die;
}

#endif
