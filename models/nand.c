/*
 * nand.c - NAND geometry, per-block state and the channel buses.
 *
 * Dies are numbered channel-first (die = channel + channels * (ce +
 * ces_per_channel * die_in_ce)), so consecutive dies sit on different
 * channels and striping in die order spreads a sequential stream over all
 * channels first, then CEs, then dies. A block here is a multi-plane block:
 * block i of every plane of a die, always programmed, read and erased
 * together, so its capacity is planes x pages_per_block pages. Physical
 * 4 KiB slot numbers are dense: slot = block * slots_per_block + index.
 * Blocks are erased when reclaimed, so every block on a free list is erased.
 */
#include "models/ftl_impl.h"

#include <string.h>

void nand_init(Drive *d)
{
    const DriveParams *p = &d->p;
    d->channels = p->channels;
    d->dies = drive_params_dies(p);
    d->planes = p->planes;
    d->native = p->native_mode;
    d->blocks_per_die = p->planes ? p->blocks_per_plane : 0;
    d->slots_per_page = p->page_size / SLOT_SIZE;
    d->slots_per_block = p->planes * p->pages_per_block * d->slots_per_page;
    for (int m = CELL_SLC; m <= CELL_QLC; m++) {
        uint32_t bits = p->timing[m].one_shot ? (uint32_t)m : 1;
        d->unit_slots[m] = p->planes * d->slots_per_page * bits;
    }
    d->nblocks = d->dies * d->blocks_per_die;
    d->nslots = (uint64_t)d->nblocks * d->slots_per_block;
    d->chan_ns_per_byte = 1e9 / drive_params_channel_bw(p);

    d->blk_state = g_new0(uint8_t, d->nblocks);
    d->blk_mode = g_new0(uint8_t, d->nblocks);
    d->blk_wp = g_new0(uint32_t, d->nblocks);
    d->blk_valid = g_new0(uint32_t, d->nblocks);
    d->blk_erases = g_new0(uint32_t, d->nblocks);
    d->blk_stamp = g_new0(uint64_t, d->nblocks);
    d->chan_free = g_new0(SimTime, d->channels);
    d->die = g_new0(Die, d->dies);
    for (uint32_t i = 0; i < d->dies; i++) {
        Die *die = &d->die[i];
        die->free_blocks = g_new(uint32_t, d->blocks_per_die);
        /* stack: the lowest block id is taken first */
        for (uint32_t k = 0; k < d->blocks_per_die; k++)
            die->free_blocks[k] = i * d->blocks_per_die + (d->blocks_per_die - 1 - k);
        die->nfree = d->blocks_per_die;
        for (int s = 0; s < STREAMS; s++)
            die->open[s] = NO_BLOCK;
        die->victim = NO_BLOCK;
        die->rd_head = die->rd_tail = NO_IDX;
    }
    for (uint32_t b = 0; b < d->nblocks; b++)
        d->blk_mode[b] = (uint8_t)d->native;
    d->st.free_blocks = d->nblocks;
}

void nand_release(Drive *d)
{
    if (d->die)
        for (uint32_t i = 0; i < d->dies; i++)
            g_free(d->die[i].free_blocks);
    g_free(d->die);
    g_free(d->chan_free);
    g_free(d->blk_state);
    g_free(d->blk_mode);
    g_free(d->blk_wp);
    g_free(d->blk_valid);
    g_free(d->blk_erases);
    g_free(d->blk_stamp);
}

uint32_t nand_block_capacity(const Drive *d, uint32_t b)
{
    return (uint32_t)((uint64_t)d->slots_per_block * d->blk_mode[b] / d->native);
}

/* Take an erased block of die for writing in mode m; NO_BLOCK if none. */
uint32_t nand_take_free(Drive *d, uint32_t die, CellMode m)
{
    Die *dd = &d->die[die];
    if (dd->nfree == 0)
        return NO_BLOCK;
    uint32_t b = dd->free_blocks[--dd->nfree];
    d->blk_state[b] = BLK_OPEN;
    d->blk_mode[b] = (uint8_t)m;
    d->blk_wp[b] = 0;
    d->blk_valid[b] = 0;
    d->st.free_blocks--;
    return b;
}

/* Return an erased block to its die's free list. */
void nand_put_free(Drive *d, uint32_t b)
{
    Die *dd = &d->die[nand_die_of_block(d, b)];
    g_assert(d->blk_valid[b] == 0);
    d->blk_state[b] = BLK_FREE;
    d->blk_wp[b] = 0;
    d->blk_erases[b]++;
    dd->free_blocks[dd->nfree++] = b;
    d->st.free_blocks++;
    d->st.nand_erases++;
}

/* Move bytes over the die's channel once the data is ready at `ready`; the
 * bus serves transfers in the order they are reserved. Returns the end. */
SimTime nand_channel_xfer(Drive *d, uint32_t die, SimTime ready, uint64_t bytes)
{
    uint32_t ch = nand_channel_of_die(d, die);
    SimTime start = ready > d->chan_free[ch] ? ready : d->chan_free[ch];
    SimTime end = start + (SimTime)((double)bytes * d->chan_ns_per_byte + 0.5);
    d->chan_free[ch] = end;
    return end;
}
