/*
 * fold.c - folding: moving the valid data of SLC blocks into native blocks.
 *
 * Die-local like GC: an SLC block of die d folds into the FOLD stream's
 * native block on die d, one native program unit per die operation (SLC
 * page reads, the data out to the controller and back over the channel, a
 * native one-shot program); once empty the SLC block is erased. Only valid
 * slots move: data overwritten or trimmed while in SLC is dropped.
 */
#include "models/fold.h"
#include "models/blocks.h"
#include "models/sched.h"
#include "models/pslc.h"
#include "models/nand.h"
#include "models/ctrl.h"
#include "models/map.h"
#include "models/sched_rank.h"

/* Per die: the SLC block being folded, NO_BLOCK if none, and the next
 * slot index to scan in it. */
typedef struct Fold {
    uint32_t *victim;
    uint32_t *cursor;
} Fold;

static Fold *fold(const Drive *d) { return drive_part(d, DP_FOLD); }

/* The oldest full SLC block of die (first in, first folded), dynamic before
 * static; with take_open, an open SLC block is closed and taken last. */
static uint32_t fold_pick(Drive *d, uint32_t die, bool dyn_only, bool take_open)
{
    uint32_t first = die * drive_geom(d)->blocks_per_die, dyn = NO_BLOCK, stat = NO_BLOCK;
    for (uint32_t b = first; b < first + drive_geom(d)->blocks_per_die; b++) {
        if (blk_state(d, b) != BLK_FULL || blk_mode(d, b) != CELL_SLC || blk_is_map(d, b))
            continue;
        uint32_t *best = nand_is_static(d, b) ? &stat : &dyn;
        if (*best == NO_BLOCK || blk_stamp(d, b) < blk_stamp(d, *best))
            *best = b;
    }
    if (dyn != NO_BLOCK)
        return dyn;
    if (!dyn_only && stat != NO_BLOCK)
        return stat;
    if (!take_open)
        return NO_BLOCK;
    static const int streams[] = {STREAM_SLC, STREAM_SSLC};
    for (int k = 0; k < (dyn_only ? 1 : 2); k++) {
        uint32_t b = die_open(d, die, streams[k]);
        if (b != NO_BLOCK) {
            die_set_open(d, die, streams[k], NO_BLOCK);
            blk_close(d, b, sim_now(drive_engine(d)));
            return b;
        }
    }
    return NO_BLOCK;
}

/* The FOLD stream's open native block, opening one if the die has a free
 * block above the GC reserve. */
static uint32_t fold_dest(Drive *d, uint32_t die)
{
    uint32_t b = die_open(d, die, STREAM_FOLD);
    if (b != NO_BLOCK)
        return b;
    if (die_nfree(d, die) <= drive_params(d)->gc_hard_blocks)
        return NO_BLOCK;
    b = nand_take_free(d, die, drive_geom(d)->native);
    die_set_open(d, die, STREAM_FOLD, b);
    return b;
}

static void fold_erase(Drive *d, uint32_t die, uint32_t v)
{
    fold(d)->victim[die] = NO_BLOCK;
    drive_counters(d)->fold_blocks++;
    sched_die_op(d, die, WORK_ERASE, nand_erased, d, v, sim_now(drive_engine(d)) + drive_params(d)->timing[CELL_SLC].t_erase);
}

/* Move up to one native unit of valid slots from the victim into dst;
 * returns slots moved and the distinct SLC pages read. */
static uint32_t fold_move(Drive *d, uint32_t die, uint32_t dst, uint32_t *pages)
{
    Fold *f = fold(d);
    return map_relocate(d, f->victim[die], &f->cursor[die], dst, STREAM_FOLD, pages);
}

/* One fold operation on die (a program unit moved, or an empty SLC block
 * erased). dyn_only restricts victims to dynamic blocks; take_open allows
 * closing an open SLC block to fold it. False if nothing could start. */
static bool fold_step(Drive *d, uint32_t die, bool dyn_only, bool take_open, bool pays)
{
    Fold *f = fold(d);
    if (f->victim[die] == NO_BLOCK) {
        uint32_t v = fold_pick(d, die, dyn_only, take_open);
        if (v == NO_BLOCK)
            return false;
        f->victim[die] = v;
        f->cursor[die] = 0;
        blk_take_victim(d, v);
    }
    uint32_t v = f->victim[die];
    if (blk_valid(d, v) == 0) {
        fold_erase(d, die, v);
        return true;
    }
    uint32_t dst = fold_dest(d, die);
    if (dst == NO_BLOCK)
        return false; /* GC must free a block first */
    uint32_t pages;
    uint64_t first = nand_slot(d, dst, blk_wp(d, dst));
    uint32_t n = fold_move(d, die, dst, &pages);
    if (n == 0) {
        g_assert(blk_valid(d, v) == 0);
        fold_erase(d, die, v);
        return true;
    }
    uint64_t bytes = (uint64_t)n * SLOT_SIZE;
    uint32_t rounds = (pages + drive_geom(d)->planes - 1) / drive_geom(d)->planes;
    SimTime sensed = sim_now(drive_engine(d)) + (SimTime)rounds * drive_params(d)->timing[CELL_SLC].t_read;
    SimTime moved = ctrl_relocate(d, die, sensed, n);
    drive_counters(d)->nand_read_bytes += bytes;
    drive_counters(d)->nand_write_bytes[CAUSE_FOLD] += bytes;
    if (pays)
        pslc_folded(d, die, n);
    sched_program(d, die, WORK_FOLD, NULL, NULL, 0, moved, first, bytes, drive_geom(d)->native);
    return true;
}

/* ---- The scheduler's work ------------------------------------------------ */

/* SLC data no longer foldable with the reserve kept: dynamic blocks first,
 * closing an open one if need be. */
static bool try_forced(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_fold_forced(d, die) && fold_step(d, die, true, true, false);
}

/* Active folding owed for host data written (pslc_host_programmed). */
static bool try_owed(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_fold_owed(d, die) && fold_step(d, die, false, pslc_exhausted(d, die), true);
}

/* fold_background: the host writes, but no host program is ready for this
 * die; fold a unit of its full SLC blocks (never the open one the host
 * fills). */
static bool try_background(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_fold_background(d, die) && fold_step(d, die, false, false, true);
}

/* The host has been quiet for fold_idle_delay: fold whatever is in SLC. */
static bool try_idle(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return pslc_idle_folding(d) && pslc_slc_blocks(d, die) > 0 && fold_step(d, die, false, true, true);
}

/* Without a pSLC cache no die holds SLC data to fold (idle folding is
 * allowed for, as it only finds none). */
static bool any_fold(void *ctx)
{
    return pslc_has_cache(ctx) || pslc_idle_folding(ctx);
}

void fold_init(Drive *d)
{
    Fold *f = g_new0(Fold, 1);
    f->victim = g_new(uint32_t, drive_geom(d)->dies);
    f->cursor = g_new0(uint32_t, drive_geom(d)->dies);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        f->victim[i] = NO_BLOCK;
    drive_set_part(d, DP_FOLD, f);
    /* without a pSLC cache there is never SLC data to fold: no work to offer */
    if (pslc_has_cache(d)) {
        sched_add(d, RANK_FOLD_FORCED, try_forced, any_fold, d, false);
        sched_add(d, RANK_FOLD_OWED, try_owed, any_fold, d, false);
        if (drive_params(d)->fold_background)
            sched_add(d, RANK_FOLD_BACKGROUND, try_background, any_fold, d, false);
        sched_add(d, RANK_FOLD_IDLE, try_idle, any_fold, d, false);
    }
}

void fold_release(Drive *d)
{
    Fold *f = fold(d);
    if (!f)
        return;
    g_free(f->victim);
    g_free(f->cursor);
    g_free(f);
}

bool fold_check(const Drive *d, char *why, size_t why_len)
{
    const Fold *f = fold(d);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        uint32_t v = f->victim[i];
        if (v == NO_BLOCK)
            continue;
        CHECK(nand_die_of_block(d, v) == i && blk_state(d, v) == BLK_VICTIM &&
                  blk_mode(d, v) == CELL_SLC && !blk_is_map(d, v) && v != die_victim(d, i),
              "die %u folds block %u: another die's, not a victim, not SLC data or GC's victim", i,
              v);
        CHECK(f->cursor[i] <= blk_wp(d, v), "die %u's fold cursor %u is past block %u's %u slots",
              i, f->cursor[i], v, blk_wp(d, v));
    }
    return true;
}
