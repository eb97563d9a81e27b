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
#include "models/ftl_impl.h"
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
    d->blk_state = g_new0(uint8_t, drive_geom(d)->nblocks);
    d->blk_mode = g_new0(uint8_t, drive_geom(d)->nblocks);
    d->blk_wp = g_new0(uint32_t, drive_geom(d)->nblocks);
    d->blk_valid = g_new0(uint32_t, drive_geom(d)->nblocks);
    d->blk_stamp = g_new0(uint64_t, drive_geom(d)->nblocks);
    d->blk_dead = g_new0(uint8_t, drive_geom(d)->nblocks);
    d->chan_free = g_new0(SimTime, drive_geom(d)->channels);
    d->die = g_new0(Die, drive_geom(d)->dies);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        Die *die = &d->die[i];
        uint32_t ns = drive_geom(d)->static_per_die, first = i * drive_geom(d)->blocks_per_die;
        die->free_blocks = g_new(uint32_t, drive_geom(d)->blocks_per_die);
        die->dead = g_new(uint32_t, drive_geom(d)->blocks_per_die);
        die->sfree_blocks = g_new(uint32_t, ns ? ns : 1);
        /* stacks: the lowest block id is taken first */
        for (uint32_t k = 0; k < drive_geom(d)->blocks_per_die - ns; k++)
            die->free_blocks[k] = first + (drive_geom(d)->blocks_per_die - 1 - k);
        die->nfree = drive_geom(d)->blocks_per_die - ns;
        for (uint32_t k = 0; k < ns; k++)
            die->sfree_blocks[k] = first + ns - 1 - k;
        die->nsfree = ns;
        for (int s = 0; s < STREAMS; s++)
            die->open[s] = NO_BLOCK;
        die->victim = NO_BLOCK;
        die->gc_ratio = 1.0;
    }
    for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++)
        d->blk_mode[b] = (uint8_t)(nand_is_static(d, b) ? CELL_SLC : drive_geom(d)->native);
    drive_counters(d)->free_blocks = drive_geom(d)->nblocks;
}

void nand_release(Drive *d)
{
    if (d->die)
        for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
            g_free(d->die[i].free_blocks);
            g_free(d->die[i].sfree_blocks);
            g_free(d->die[i].dead);
        }
    g_free(d->die);
    g_free(d->chan_free);
    g_free(d->blk_state);
    g_free(d->blk_mode);
    g_free(d->blk_wp);
    g_free(d->blk_valid);
    g_free(d->blk_stamp);
    g_free(d->blk_dead);
}

/* Pop the block wear leveling picks off a free stack, the others keeping
 * their order. */
static uint32_t pop_free(const Drive *d, uint32_t *stack, uint32_t *n)
{
    uint32_t k = wear_pick_free(d, stack, *n);
    uint32_t b = stack[k];
    memmove(stack + k, stack + k + 1, (size_t)(*n - 1 - k) * sizeof(*stack));
    (*n)--;
    return b;
}

/* Take an erased block of die for writing in mode m; NO_BLOCK if none. */
uint32_t nand_take_free(Drive *d, uint32_t die, CellMode m)
{
    Die *dd = &d->die[die];
    if (dd->nfree == 0)
        return NO_BLOCK;
    uint32_t b = pop_free(d, dd->free_blocks, &dd->nfree);
    d->blk_state[b] = BLK_OPEN;
    d->blk_mode[b] = (uint8_t)m;
    d->blk_wp[b] = 0;
    d->blk_valid[b] = 0;
    drive_counters(d)->free_blocks--;
    if (m == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        dd->slc_dyn++;
    pslc_update_limit(d, die);
    return b;
}

/* Take a free static SLC block of die; NO_BLOCK if none. */
uint32_t nand_take_static(Drive *d, uint32_t die)
{
    Die *dd = &d->die[die];
    if (dd->nsfree == 0)
        return NO_BLOCK;
    uint32_t b = pop_free(d, dd->sfree_blocks, &dd->nsfree);
    d->blk_state[b] = BLK_OPEN;
    d->blk_wp[b] = 0;
    d->blk_valid[b] = 0;
    drive_counters(d)->free_blocks--;
    return b;
}

/* Return an erased block to its die's free list (static blocks to theirs). */
void nand_put_free(Drive *d, uint32_t b)
{
    uint32_t die = nand_die_of_block(d, b);
    Die *dd = &d->die[die];
    g_assert(d->blk_valid[b] == 0);
    d->blk_state[b] = BLK_FREE;
    d->blk_wp[b] = 0;
    wear_erased(d, b);
    if (nand_is_static(d, b)) {
        dd->sfree_blocks[dd->nsfree++] = b;
    } else {
        if (d->blk_mode[b] == CELL_SLC && drive_geom(d)->native != CELL_SLC)
            dd->slc_dyn--;
        dd->free_blocks[dd->nfree++] = b;
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
    sched_kick_all(d);
}
