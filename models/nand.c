/*
 * nand.c - NAND geometry, per-block state and free lists.
 *
 * Dies are numbered channel-first (die = channel + channels * (ce +
 * ces_per_channel * die_in_ce)), so consecutive dies sit on different
 * channels and striping in die order spreads a sequential stream over all
 * channels first, then CEs, then dies. A block here is a multi-plane block:
 * block i of every plane of a die, always programmed, read and erased
 * together, so its capacity is planes x pages_per_block pages. Physical
 * 4 KiB slot numbers are dense: slot = block * slots_per_block + index.
 * Blocks are erased when reclaimed, so every block on a free list is erased.
 * The first static_per_die blocks of each die are the static SLC cache: they
 * stay in SLC mode and have their own free list. Which free block a die
 * takes, and the erase counts, are wear leveling's (wear.c).
 */
#include "models/nand.h"
#include "models/map.h"
#include "models/ctrl.h"
#include "models/sched.h"
#include "models/blocks.h"
#include "models/pslc.h"
#include "models/wear.h"

#include <string.h>

void nand_geometry(Geom *g, const DriveParams *p)
{
    *g = (Geom){0};
    g->channels = p->channels;
    g->dies = drive_params_dies(p);
    g->planes = p->planes;
    g->native = p->native_mode;
    g->blocks_per_die = p->planes ? p->blocks_per_plane : 0;
    g->slots_per_page = p->page_size / SLOT_SIZE;
    g->slots_per_block = p->planes * p->pages_per_block * g->slots_per_page;
    for (int m = CELL_SLC; m <= CELL_QLC; m++) {
        uint32_t bits = p->timing[m].one_shot ? (uint32_t)m : 1;
        g->unit_slots[m] = p->planes * g->slots_per_page * bits;
        g->mode_slots[m] = g->native ? (uint32_t)((uint64_t)g->slots_per_block * m / g->native) : 0;
    }
    g->nblocks = g->dies * g->blocks_per_die;
    g->static_per_die = g->native != CELL_SLC ? pslc_static_blocks(p) : 0;
    g->nslots = (uint64_t)g->nblocks * g->slots_per_block;
    g->nlpn = p->user_capacity / SLOT_SIZE;
    g->chan_ns_per_byte = 1e9 / drive_params_channel_bw(p);
}

void nand_init(Drive *d)
{
    blocks_init(d);
    drive_counters(d)->free_blocks = drive_geom(d)->nblocks;
}

/* Take the block wear leveling picks off a free stack of die (stat: the
 * static SLC one), the others keeping their order; NO_BLOCK if empty. */
static uint32_t pop_free(Drive *d, uint32_t die, bool stat)
{
    uint32_t n;
    const uint32_t *stack = die_free_list(d, die, stat, &n);
    if (n == 0)
        return NO_BLOCK;
    return die_remove_free(d, die, stat, wear_pick_free(d, stack, n));
}

/* Take an erased block of die for writing in mode m; NO_BLOCK if none. */
uint32_t nand_take_free(Drive *d, uint32_t die, CellMode m)
{
    uint32_t b = pop_free(d, die, false);
    if (b == NO_BLOCK)
        return NO_BLOCK;
    blk_open(d, b, m);
    drive_counters(d)->free_blocks--;
    if (m == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        die_add_slc_dyn(d, die, 1);
    pslc_update_limit(d, die);
    return b;
}

/* Take a free static SLC block of die; NO_BLOCK if none. */
uint32_t nand_take_static(Drive *d, uint32_t die)
{
    uint32_t b = pop_free(d, die, true);
    if (b == NO_BLOCK)
        return NO_BLOCK;
    blk_open(d, b, CELL_SLC); /* static blocks stay SLC */
    drive_counters(d)->free_blocks--;
    return b;
}

/* Return an erased block to its die's free list (static blocks to theirs). */
void nand_put_free(Drive *d, uint32_t b)
{
    uint32_t die = nand_die_of_block(d, b);
    g_assert(blk_valid(d, b) == 0);
    map_block_erased(d, b);
    blk_erase(d, b);
    wear_erased(d, b);
    die_push_free(d, b);
    if (!nand_is_static(d, b)) {
        if (blk_mode(d, b) == CELL_SLC && drive_geom(d)->native != CELL_SLC)
            die_add_slc_dyn(d, die, -1);
        pslc_update_limit(d, die);
    }
    drive_counters(d)->free_blocks++;
    drive_counters(d)->nand_erases++;
}

/* The erase of block b ended: it is free again, and a freed block may
 * unblock host programs waiting on the reserve of any die. */
void nand_erased(void *ctx, uint32_t b)
{
    Drive *d = ctx;
    nand_put_free(d, b);
    ctrl_background(d, drive_params(d)->ctrl_erase_cost, CW_ERASE);
    sched_kick_all(d);
}
