/*
 * fold.c - folding: moving the valid data of SLC blocks into native blocks.
 *
 * Die-local like GC: an SLC block of die d folds into the FOLD stream's
 * native block on die d, one native program unit per die operation (SLC
 * page reads, the data out to the controller and back over the channel, a
 * native one-shot program); once empty the SLC block is erased. Only valid
 * slots move: data overwritten or trimmed while in SLC is dropped.
 */
#include "models/ftl_impl.h"
#include "models/sched_rank.h"

/* The oldest full SLC block of die (first in, first folded), dynamic before
 * static; with take_open, an open SLC block is closed and taken last. */
static uint32_t fold_pick(Drive *d, uint32_t die, bool dyn_only, bool take_open)
{
    uint32_t first = die * drive_geom(d)->blocks_per_die, dyn = NO_BLOCK, stat = NO_BLOCK;
    for (uint32_t b = first; b < first + drive_geom(d)->blocks_per_die; b++) {
        if (d->blk_state[b] != BLK_FULL || d->blk_mode[b] != CELL_SLC || ftl_is_map_block(d, b))
            continue;
        uint32_t *best = nand_is_static(d, b) ? &stat : &dyn;
        if (*best == NO_BLOCK || d->blk_stamp[b] < d->blk_stamp[*best])
            *best = b;
    }
    if (dyn != NO_BLOCK)
        return dyn;
    if (!dyn_only && stat != NO_BLOCK)
        return stat;
    if (!take_open)
        return NO_BLOCK;
    Die *dd = &d->die[die];
    static const int streams[] = {STREAM_SLC, STREAM_SSLC};
    for (int k = 0; k < (dyn_only ? 1 : 2); k++) {
        uint32_t b = dd->open[streams[k]];
        if (b != NO_BLOCK) {
            dd->open[streams[k]] = NO_BLOCK;
            d->blk_state[b] = BLK_FULL;
            d->blk_stamp[b] = sim_now(drive_engine(d));
            return b;
        }
    }
    return NO_BLOCK;
}

/* The FOLD stream's open native block, opening one if the die has a free
 * block above the GC reserve. */
static uint32_t fold_dest(Drive *d, uint32_t die)
{
    Die *dd = &d->die[die];
    uint32_t b = dd->open[STREAM_FOLD];
    if (b != NO_BLOCK)
        return b;
    if (dd->nfree <= drive_params(d)->gc_hard_blocks)
        return NO_BLOCK;
    b = nand_take_free(d, die, drive_geom(d)->native);
    dd->open[STREAM_FOLD] = b;
    return b;
}

static void fold_erase(Drive *d, uint32_t die, uint32_t v)
{
    d->die[die].fold_victim = NO_BLOCK;
    drive_counters(d)->fold_blocks++;
    sched_die_op(d, die, WORK_ERASE, nand_erased, d, v, sim_now(drive_engine(d)) + drive_params(d)->timing[CELL_SLC].t_erase);
}

/* Move up to one native unit of valid slots from the victim into dst;
 * returns slots moved and the distinct SLC pages read. */
static uint32_t fold_move(Drive *d, uint32_t die, uint32_t dst, uint32_t *pages)
{
    Die *dd = &d->die[die];
    return map_relocate(d, dd->fold_victim, &dd->fold_cursor, dst, &dd->open[STREAM_FOLD], pages);
}

bool fold_step(Drive *d, uint32_t die, bool dyn_only, bool take_open)
{
    Die *dd = &d->die[die];
    if (dd->fold_victim == NO_BLOCK) {
        uint32_t v = fold_pick(d, die, dyn_only, take_open);
        if (v == NO_BLOCK)
            return false;
        dd->fold_victim = v;
        dd->fold_cursor = 0;
        d->blk_state[v] = BLK_VICTIM;
    }
    uint32_t v = dd->fold_victim;
    if (d->blk_valid[v] == 0) {
        fold_erase(d, die, v);
        return true;
    }
    uint32_t dst = fold_dest(d, die);
    if (dst == NO_BLOCK)
        return false; /* GC must free a block first */
    uint32_t pages;
    uint32_t n = fold_move(d, die, dst, &pages);
    if (n == 0) {
        g_assert(d->blk_valid[v] == 0);
        fold_erase(d, die, v);
        return true;
    }
    uint64_t bytes = (uint64_t)n * SLOT_SIZE;
    uint32_t rounds = (pages + drive_geom(d)->planes - 1) / drive_geom(d)->planes;
    SimTime sensed = sim_now(drive_engine(d)) + (SimTime)rounds * drive_params(d)->timing[CELL_SLC].t_read;
    SimTime moved = chan_xfer(d, die, sensed, 2 * bytes);
    drive_counters(d)->nand_read_bytes += bytes;
    drive_counters(d)->nand_write_bytes[CAUSE_FOLD] += bytes;
    pslc_folded(d, die, n);
    sched_program(d, die, WORK_FOLD, NULL, NULL, 0, moved, bytes, drive_geom(d)->native);
    return true;
}

/* ---- The scheduler's work ------------------------------------------------ */

/* SLC data no longer foldable with the reserve kept: dynamic blocks first,
 * closing an open one if need be. */
static bool try_forced(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_fold_forced(d, die) && fold_step(d, die, true, true);
}

/* Active folding owed for host data written (pslc_host_programmed). */
static bool try_owed(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_fold_owed(d, die) && fold_step(d, die, false, pslc_exhausted(d, die));
}

/* The host has been quiet for fold_idle_delay: fold whatever is in SLC. */
static bool try_idle(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_idle_folding(d) && pslc_slc_blocks(d, die) > 0 && fold_step(d, die, false, true);
}

void fold_init(Drive *d)
{
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        d->die[i].fold_victim = NO_BLOCK;
    /* without a pSLC cache there is never SLC data to fold: no work to offer */
    if (pslc_has_cache(d)) {
        sched_add(d, RANK_FOLD_FORCED, try_forced, d, false);
        sched_add(d, RANK_FOLD_OWED, try_owed, d, false);
        sched_add(d, RANK_FOLD_IDLE, try_idle, d, false);
    }
}
