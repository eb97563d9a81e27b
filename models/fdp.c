/*
 * fdp.c - Flexible Data Placement: reclaim unit handles, the blocks each
 * fills, where GC moves their data, and their statistics.
 *
 * A reclaim unit here is ru_size / block bytes blocks of its handle, taken
 * in turn on the dies of its reclaim group: a handle keeps one open block
 * per die of its group for host data and, persistently isolated, one for
 * GC's copies. With [fdp] gc_unit = block GC works block by block on its
 * die (models/gc.c), so every block holding data of one handle is what
 * keeps its reclaim units unmixed. With gc_unit = reclaim_unit the units
 * are records: a handle's next ru_blocks blocks in its group (host data,
 * or GC's copies, apart) form its open unit; GC picks a whole unit, every
 * block of it goes on its die's list of blocks to reclaim, and each die
 * moves and erases its own. Static wear leveling's cold block takes its
 * unit with it, closing the unit's open blocks if the dies can spare the
 * blocks. Invariant (fdp_check): an open block is tagged with its handle;
 * the per-handle counters add up to the drive's host and GC bytes; a
 * unit's blocks carry its tag, none leaves it before GC chose it, its
 * valid slots as counted add up to its blocks', and the lists to reclaim
 * hold exactly the full blocks of chosen units.
 */
#include "models/fdp.h"
#include "models/blocks.h"

#define NO_RU UINT32_MAX

/* A reclaim unit (gc_unit = reclaim_unit). */
typedef struct FdpRu {
    uint32_t taken;  /* blocks taken into it (members[]), at most ru_blocks */
    uint32_t live;   /* of those, blocks still its own (not taken again since their erase) */
    uint64_t valid;  /* valid slots of its own blocks, kept as they change */
    uint16_t tag;    /* its handle, or FDP_SHARED */
    bool reclaiming; /* GC chose it: each of its blocks is moved and erased */
} FdpRu;

typedef struct Fdp {
    bool zoned;            /* a zoned drive's zones, a handle each, not FDP's handles */
    uint32_t handles, groups, dies_per_group;
    uint32_t *host_open;   /* [die * handles + h] */
    uint32_t *gc_open;     /* [die * handles + h], persistent handles only */
    uint16_t *tag;         /* per block: its handle (a zone on a zoned drive), or FDP_SHARED */
    DriveFdpHandle *stat;  /* [handles + 1]; the last: the shared units */
    /* gc_unit = reclaim_unit only (NULL otherwise); allocated at creation */
    uint32_t ru_blocks;          /* blocks of a reclaim unit */
    uint32_t nru;                /* records: one per block bounds the units with a block */
    FdpRu *ru;                   /* [nru] */
    uint32_t *members;           /* [nru * ru_blocks]: each unit's blocks in the order taken */
    uint32_t *free_ru, nfree_ru; /* stack of unused records */
    uint32_t *open_ru;   /* [(group * (handles + 1) + handle) * 2 + gc]: the unit being filled */
    uint32_t *ru_of;     /* per block: the unit it was last taken into, or NO_RU */
    uint32_t *pend_next; /* per block: next on its die's list to reclaim */
    uint32_t *pend_head; /* per die: that list (NO_BLOCK: empty) */
    uint32_t *pend_n;    /* per die: its length */
    uint64_t npending;   /* blocks on every die's list */
    /* victim choice's scratch, per unit */
    uint32_t *seen, epoch, *seen_list;
    uint64_t *sum_v, *sum_cap;
    SimTime *stamp;
    uint8_t *flags; /* RU_ON_DIE, RU_BUSY */
} Fdp;

#define RU_ON_DIE 1u /* has a full block on the die choosing */
#define RU_BUSY 2u   /* has an open block, or one GC is moving */

static Fdp *fdp(const Drive *d) { return drive_part(d, DP_FDP); }

bool fdp_on(const Drive *d) { return fdp(d) != NULL; }
uint32_t fdp_handles(const Drive *d) { return fdp(d) ? fdp(d)->handles : 0; }

/* The open blocks the handles hold on die, for blocks_check(). */
static uint32_t fdp_open_blocks(const Drive *d, uint32_t die)
{
    const Fdp *f = fdp(d);
    uint32_t n = 0;
    for (uint32_t h = 0; h < f->handles; h++) {
        uint32_t b = f->host_open[(size_t)die * f->handles + h];
        uint32_t c = f->gc_open[(size_t)die * f->handles + h];
        n += b != NO_BLOCK && blk_state(d, b) == BLK_OPEN;
        n += c != NO_BLOCK && blk_state(d, c) == BLK_OPEN;
    }
    return n;
}

/* A block's valid slots changed by n: so did its unit's. */
static void ru_valid_changed(Drive *d, uint32_t b, int64_t n)
{
    Fdp *f = fdp(d);
    uint32_t r = f->ru_of[b];
    if (r != NO_RU)
        f->ru[r].valid += (uint64_t)n;
}

static void ru_init(Fdp *f, const DriveParams *p, const Geom *g)
{
    uint64_t blk = drive_params_block_bytes(p);
    f->ru_blocks = p->fdp_ru_size ? (uint32_t)(p->fdp_ru_size / blk) : 1;
    f->nru = g->nblocks;
    f->ru = g_new0(FdpRu, f->nru);
    f->members = g_new(uint32_t, (size_t)f->nru * f->ru_blocks);
    f->free_ru = g_new(uint32_t, f->nru);
    for (uint32_t r = 0; r < f->nru; r++)
        f->free_ru[r] = f->nru - 1 - r;
    f->nfree_ru = f->nru;
    size_t nopen = (size_t)f->groups * (f->handles + 1) * 2;
    f->open_ru = g_new(uint32_t, nopen);
    for (size_t i = 0; i < nopen; i++)
        f->open_ru[i] = NO_RU;
    f->ru_of = g_new(uint32_t, g->nblocks);
    f->pend_next = g_new(uint32_t, g->nblocks);
    for (uint32_t b = 0; b < g->nblocks; b++)
        f->ru_of[b] = f->pend_next[b] = NO_RU;
    f->pend_head = g_new(uint32_t, g->dies);
    for (uint32_t i = 0; i < g->dies; i++)
        f->pend_head[i] = NO_BLOCK;
    f->pend_n = g_new0(uint32_t, g->dies);
    f->seen = g_new0(uint32_t, f->nru);
    f->seen_list = g_new(uint32_t, f->nru);
    f->sum_v = g_new(uint64_t, f->nru);
    f->sum_cap = g_new(uint64_t, f->nru);
    f->stamp = g_new(SimTime, f->nru);
    f->flags = g_new(uint8_t, f->nru);
}

void fdp_init(Drive *d)
{
    const DriveParams *p = drive_params(d);
    if (p->fdp_handles == 0 && p->zns_zone_size == 0)
        return;
    const Geom *g = drive_geom(d);
    Fdp *f = g_new0(Fdp, 1);
    f->zoned = p->zns_zone_size > 0;
    f->handles = f->zoned ? drive_params_streams(p) : p->fdp_handles; /* a zoned drive: its zones */
    f->groups = f->zoned || !p->fdp_groups ? 1 : p->fdp_groups;
    f->dies_per_group = g->dies / f->groups;
    size_t n = (size_t)g->dies * f->handles;
    f->host_open = g_new(uint32_t, n);
    f->gc_open = g_new(uint32_t, n);
    for (size_t i = 0; i < n; i++)
        f->host_open[i] = f->gc_open[i] = NO_BLOCK;
    f->tag = g_new(uint16_t, g->nblocks);
    for (uint32_t b = 0; b < g->nblocks; b++)
        f->tag[b] = FDP_SHARED;
    f->stat = g_new0(DriveFdpHandle, f->handles + 1);
    for (uint32_t h = 0; h < f->handles; h++)
        f->stat[h].persistent = f->zoned || drive_params_fdp_persistent(p, h) == 1;
    if (!f->zoned && p->fdp_gc_unit == FDP_GC_RU)
        ru_init(f, p, g);
    drive_set_part(d, DP_FDP, f);
    blocks_set_held(d, fdp_open_blocks);
    if (f->ru)
        blocks_set_on_valid(d, ru_valid_changed);
}

void fdp_release(Drive *d)
{
    Fdp *f = fdp(d);
    if (!f)
        return;
    g_free(f->host_open);
    g_free(f->gc_open);
    g_free(f->tag);
    g_free(f->stat);
    g_free(f->ru);
    g_free(f->members);
    g_free(f->free_ru);
    g_free(f->open_ru);
    g_free(f->ru_of);
    g_free(f->pend_next);
    g_free(f->pend_head);
    g_free(f->pend_n);
    g_free(f->seen);
    g_free(f->seen_list);
    g_free(f->sum_v);
    g_free(f->sum_cap);
    g_free(f->stamp);
    g_free(f->flags);
    g_free(f);
    drive_set_part(d, DP_FDP, NULL);
}

uint32_t fdp_group_of_die(const Drive *d, uint32_t die) { return die / fdp(d)->dies_per_group; }

uint32_t *fdp_host_open(const Drive *d, uint32_t die, uint32_t h)
{
    return &fdp(d)->host_open[(size_t)die * fdp(d)->handles + h];
}

/* Block b, just taken for tag (host data, or GC's copies), joins the unit
 * that tag fills in its group, a new one when that is complete; it leaves
 * the unit it was in before its erase, whose record goes back to the free
 * stack with its last block. */
static void ru_join(Drive *d, Fdp *f, uint32_t b, uint32_t tag, bool gc)
{
    uint32_t old = f->ru_of[b];
    if (old != NO_RU)
        f->ru[old].valid -= blk_valid(d, b); /* none: it was just erased */
    if (old != NO_RU && --f->ru[old].live == 0) {
        f->ru[old].reclaiming = false;
        f->free_ru[f->nfree_ru++] = old;
    }
    uint32_t group = fdp_group_of_die(d, nand_die_of_block(d, b));
    uint32_t *open =
        &f->open_ru[((size_t)group * (f->handles + 1) + (tag == FDP_SHARED ? f->handles : tag)) *
                        2 +
                    gc];
    if (*open == NO_RU || f->ru[*open].taken == f->ru_blocks) {
        g_assert(f->nfree_ru > 0); /* a record per block: a unit with a block has one */
        *open = f->free_ru[--f->nfree_ru];
        f->ru[*open] = (FdpRu){.tag = (uint16_t)tag};
    }
    FdpRu *r = &f->ru[*open];
    f->members[(size_t)*open * f->ru_blocks + r->taken++] = b;
    r->live++;
    r->valid += blk_valid(d, b);
    f->ru_of[b] = *open;
}

static void block_taken(Drive *d, uint32_t b, uint32_t tag, bool gc)
{
    Fdp *f = fdp(d);
    f->tag[b] = (uint16_t)tag;
    f->stat[tag == FDP_SHARED ? f->handles : tag].blocks++;
    if (f->ru)
        ru_join(d, f, b, tag, gc);
}

void fdp_block_taken(Drive *d, uint32_t b, uint32_t tag)
{
    block_taken(d, b, tag, false);
}
void fdp_gc_block_taken(Drive *d, uint32_t b, uint32_t tag)
{
    block_taken(d, b, tag, true);
}

bool fdp_ru_gc(const Drive *d)
{
    return fdp(d) && fdp(d)->ru;
}

uint32_t fdp_pending(const Drive *d, uint32_t die)
{
    return fdp(d) && fdp(d)->ru ? fdp(d)->pend_n[die] : 0;
}
bool fdp_pending_any(const Drive *d)
{
    return fdp(d) && fdp(d)->npending > 0;
}

/* GC chose unit r: its full blocks go on their dies' lists to reclaim. A
 * unit still being filled (all its blocks full, the next not yet taken) is
 * closed: its handle's next block starts a new one. */
static void ru_reclaim(Drive *d, Fdp *f, uint32_t r)
{
    f->ru[r].reclaiming = true;
    size_t nopen = (size_t)f->groups * (f->handles + 1) * 2;
    for (size_t i = 0; i < nopen; i++)
        if (f->open_ru[i] == r)
            f->open_ru[i] = NO_RU;
    for (uint32_t k = 0; k < f->ru[r].taken; k++) {
        uint32_t b = f->members[(size_t)r * f->ru_blocks + k];
        if (f->ru_of[b] != r || blk_state(d, b) != BLK_FULL)
            continue;
        uint32_t die = nand_die_of_block(d, b);
        f->pend_next[b] = f->pend_head[die];
        f->pend_head[die] = b;
        f->pend_n[die]++;
        f->npending++;
        blocks_grow(d); /* GC may have work again */
    }
}

/* The next block of a chosen unit on die, off its list; NO_BLOCK if none. */
static uint32_t ru_take_pending(Fdp *f, uint32_t die)
{
    uint32_t b = f->pend_head[die];
    if (b == NO_BLOCK)
        return NO_BLOCK;
    f->pend_head[die] = f->pend_next[b];
    f->pend_next[b] = NO_RU;
    f->pend_n[die]--;
    f->npending--;
    return b;
}

/* Whether unit r may be chosen now: no block of it open or being moved. */
static bool ru_idle(const Drive *d, const Fdp *f, uint32_t r)
{
    if (f->ru[r].reclaiming)
        return false;
    for (uint32_t k = 0; k < f->ru[r].taken; k++) {
        uint32_t b = f->members[(size_t)r * f->ru_blocks + k];
        if (f->ru_of[b] == r && blk_state(d, b) != BLK_FULL)
            return false;
    }
    return true;
}

/* Open block b of a unit is full now, written to its end or not: the rest
 * stays unwritten until its erase. As map_invalidate_slot(), an empty one
 * goes on the dead stack once (the flag of a dead block GC erased as its
 * victim stays up until the stack's entry is popped). */
static void close_block(Drive *d, uint32_t b)
{
    blk_close(d, b, sim_now(drive_engine(d)));
    if (blk_valid(d, b) == 0 && !blk_is_dead(d, b))
        die_push_dead(d, b);
}

/* Whether open block b of a unit is being filled, and by what: its
 * handle's block for host data or for GC's copies (*slot: that handle's
 * slot), or in a shared unit the die's GC stream (*slot NULL). False if
 * none of those holds it (a map block taken again after its unit's erase). */
static bool ru_open_slot(const Drive *d, const Fdp *f, uint32_t b, uint32_t **slot)
{
    uint32_t die = nand_die_of_block(d, b), h = f->tag[b];
    *slot = NULL;
    if (h == FDP_SHARED)
        return die_open(d, die, STREAM_GC) == b;
    uint32_t *host = &f->host_open[(size_t)die * f->handles + h];
    uint32_t *gc = &f->gc_open[(size_t)die * f->handles + h];
    *slot = *host == b ? host : *gc == b ? gc : NULL;
    return *slot != NULL;
}

bool fdp_ru_filling(const Drive *d, uint32_t b)
{
    const Fdp *f = fdp(d);
    uint32_t *slot;
    return f && f->ru && f->ru_of[b] != NO_RU && !f->ru[f->ru_of[b]].reclaiming &&
           blk_state(d, b) == BLK_OPEN && ru_open_slot(d, f, b, &slot);
}

/* Static wear leveling chose a block of unit r, which GC has not chosen
 * and which is still being filled (its handle's data may never come to
 * fill it: a cold handle's last unit). Close the unit's open blocks, so
 * that the whole unit can move, as long as each die they are on holds
 * more free blocks than gc.soft_blocks: their handles take new blocks
 * there, never out of GC's reserve. True if the unit may go now. */
static bool ru_close_cold(Drive *d, Fdp *f, uint32_t r)
{
    if (f->ru[r].reclaiming)
        return false; /* GC is moving it already */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < f->ru[r].taken; k++) {
            uint32_t b = f->members[(size_t)r * f->ru_blocks + k], *slot;
            if (f->ru_of[b] != r || blk_state(d, b) == BLK_FULL)
                continue;
            if (pass == 1) {
                (void)ru_open_slot(d, f, b, &slot);
                if (slot)
                    *slot = NO_BLOCK;
                else
                    die_set_open(d, nand_die_of_block(d, b), STREAM_GC, NO_BLOCK);
                close_block(d, b);
            } else if (blk_state(d, b) != BLK_OPEN || !ru_open_slot(d, f, b, &slot) ||
                       die_nfree(d, nand_die_of_block(d, b)) <= drive_params(d)->gc_soft_blocks) {
                return false;
            }
        }
    return true;
}

uint32_t fdp_ru_victim(Drive *d, uint32_t die, uint32_t cold, FdpMovedFn moved, FdpScoreFn score)
{
    Fdp *f = fdp(d);
    const Geom *g = drive_geom(d);
    if (cold != NO_BLOCK) {
        /* static wear leveling's block: its whole unit, when it may go */
        uint32_t r = f->ru_of[cold];
        if (r == NO_RU)
            return cold;
        if (ru_idle(d, f, r) || ru_close_cold(d, f, r))
            ru_reclaim(d, f, r);
    }
    uint32_t b = ru_take_pending(f, die);
    if (b != NO_BLOCK)
        return b;
    /* every unit with a full block on die, scored over all its blocks in
     * the group; a block in no unit (prefilled, or a map block) alone */
    uint32_t group = fdp_group_of_die(d, die), nseen = 0, best = NO_BLOCK, best_ru = NO_RU;
    double best_score = -1;
    SimTime now = sim_now(drive_engine(d));
    f->epoch++;
    for (uint32_t k = group * f->dies_per_group; k < (group + 1) * f->dies_per_group; k++) {
        uint32_t lo = k * g->blocks_per_die + g->static_per_die, hi = (k + 1) * g->blocks_per_die;
        for (uint32_t x = lo; x < hi; x++) {
            int st = blk_state(d, x);
            if (st == BLK_FREE)
                continue;
            uint32_t r = f->ru_of[x];
            bool alone =
                r == NO_RU || blk_is_map(d, x); /* a map block taken again after its unit's erase */
            if (alone || f->ru[r].reclaiming) {
                if (alone && k == die && st == BLK_FULL) {
                    double sc = score(d, g->slots_per_block, moved(d, x), blk_stamp(d, x), now);
                    if (sc >= 0 && sc > best_score) {
                        best_score = sc;
                        best = x;
                        best_ru = NO_RU;
                    }
                }
                continue;
            }
            if (f->seen[r] != f->epoch) {
                f->seen[r] = f->epoch;
                f->seen_list[nseen++] = r;
                f->sum_v[r] = f->sum_cap[r] = 0;
                f->stamp[r] = 0;
                f->flags[r] = 0;
            }
            if (st != BLK_FULL) {
                f->flags[r] |= RU_BUSY;
                continue;
            }
            f->sum_v[r] += moved(d, x);
            f->sum_cap[r] += g->slots_per_block;
            f->stamp[r] = MAX(f->stamp[r], blk_stamp(d, x));
            if (k == die)
                f->flags[r] |= RU_ON_DIE;
        }
    }
    for (uint32_t i = 0; i < nseen; i++) {
        uint32_t r = f->seen_list[i];
        if (f->flags[r] != RU_ON_DIE)
            continue;
        double sc = score(d, f->sum_cap[r], f->sum_v[r], f->stamp[r], now);
        if (sc >= 0 && sc > best_score) {
            best_score = sc;
            best_ru = r;
            best = NO_BLOCK;
        }
    }
    if (best_ru == NO_RU)
        return best;
    ru_reclaim(d, f, best_ru);
    return ru_take_pending(f, die);
}

bool fdp_ru_dead(Drive *d, uint32_t b)
{
    Fdp *f = fdp(d);
    uint32_t r = f->ru_of[b];
    if (r == NO_RU)
        return true; /* in no unit: erased alone */
    if (f->ru[r].valid > 0 || !ru_idle(d, f, r))
        return false; /* some of its data lives, or it is busy */
    ru_reclaim(d, f, r);
    return false;
}

uint32_t fdp_block_tag(const Drive *d, uint32_t b) { return fdp(d)->tag[b]; }

void fdp_test_skew_valid(Drive *d, uint32_t b, int64_t n)
{
    g_return_if_fail(fdp_ru_gc(d) && fdp(d)->ru_of[b] != NO_RU);
    fdp(d)->ru[fdp(d)->ru_of[b]].valid += (uint64_t)n;
}

uint32_t *fdp_gc_open(const Drive *d, uint32_t die, uint32_t v, uint32_t *tag)
{
    Fdp *f = fdp(d);
    uint32_t h = f->tag[v];
    if (h != FDP_SHARED && f->stat[h].persistent) {
        *tag = h;
        return &f->gc_open[(size_t)die * f->handles + h];
    }
    *tag = FDP_SHARED;
    return NULL;
}

void fdp_host_programmed(Drive *d, uint32_t h, uint64_t bytes)
{
    Fdp *f = fdp(d);
    f->stat[h].media_bytes += bytes;
    if (f->zoned) /* a zone's stream: its host data counted as it lands (no per-handle report) */
        f->stat[h].host_bytes += bytes;
}

void fdp_host_accepted(Drive *d, uint32_t pid, uint64_t bytes)
{
    Fdp *f = fdp(d);
    if (f && !f->zoned)
        f->stat[pid % f->handles].host_bytes += bytes;
}

void fdp_gc_moved(Drive *d, uint32_t from, uint32_t to, uint64_t bytes)
{
    Fdp *f = fdp(d);
    DriveFdpHandle *src = &f->stat[from == FDP_SHARED ? f->handles : from];
    src->gc_bytes += bytes;
    if (to != from)
        src->moved_across += bytes;
    f->stat[to == FDP_SHARED ? f->handles : to].media_bytes += bytes;
}

uint32_t drive_fdp_handles(const Drive *d) { return fdp(d) && !fdp(d)->zoned ? fdp(d)->handles : 0; }

void fdp_close_handle(Drive *d, uint32_t h)
{
    Fdp *f = fdp(d);
    for (uint32_t die = 0; die < drive_geom(d)->dies; die++) {
        uint32_t *open = &f->host_open[(size_t)die * f->handles + h];
        uint32_t b = *open;
        if (b == NO_BLOCK)
            continue;
        *open = NO_BLOCK;
        close_block(d, b);
    }
}

const DriveFdpHandle *drive_fdp_handle(const Drive *d, uint32_t h)
{
    g_return_val_if_fail(fdp(d) && h <= fdp(d)->handles, NULL);
    return &fdp(d)->stat[h];
}

/* The reclaim units: each block's unit holds it and carries its tag; a
 * unit GC has not chosen has lost no block and has none erased or being
 * moved (its blocks are erased together); one it chose has no open block
 * and as many full ones as the dies' lists hold, which hold only those. */
static bool ru_check(const Drive *d, const Fdp *f, char *why, size_t why_len)
{
    const Geom *g = drive_geom(d);
    uint64_t free_records = 0, pending = 0, waiting = 0;
    for (uint32_t r = 0; r < f->nru; r++) {
        free_records += f->ru[r].live == 0;
        CHECK(f->ru[r].live > 0 || f->ru[r].valid == 0,
              "reclaim unit record %u without blocks counts %" G_GUINT64_FORMAT " valid slots", r,
              f->ru[r].valid);
    }
    CHECK(free_records == f->nfree_ru,
          "%" G_GUINT64_FORMAT " reclaim unit records without blocks, %u on the free stack",
          free_records, f->nfree_ru);
    for (uint32_t b = 0; b < g->nblocks; b++) {
        uint32_t r = f->ru_of[b];
        if (r == NO_RU)
            continue;
        CHECK(r < f->nru && f->ru[r].live > 0,
              "block %u is in reclaim unit %u, which has no blocks", b, r);
        CHECK(f->tag[b] == f->ru[r].tag, "block %u has tag %u, its reclaim unit %u tag %u", b,
              f->tag[b], r, f->ru[r].tag);
    }
    for (uint32_t r = 0; r < f->nru; r++) {
        const FdpRu *u = &f->ru[r];
        if (u->live == 0)
            continue;
        uint32_t own = 0;
        uint64_t valid = 0;
        CHECK(u->taken <= f->ru_blocks, "reclaim unit %u holds %u blocks, more than %u", r,
              u->taken, f->ru_blocks);
        for (uint32_t k = 0; k < u->taken; k++) {
            uint32_t b = f->members[(size_t)r * f->ru_blocks + k];
            if (f->ru_of[b] != r) {
                CHECK(u->reclaiming, "block %u left reclaim unit %u before GC chose the unit", b,
                      r);
                continue;
            }
            own++;
            valid += blk_valid(d, b);
            int st = blk_state(d, b);
            CHECK(u->reclaiming || st == BLK_OPEN || st == BLK_FULL,
                  "block %u of reclaim unit %u, which GC has not chosen, is %s", b, r,
                  st == BLK_FREE ? "erased" : "a GC victim");
            CHECK(!u->reclaiming || st != BLK_OPEN,
                  "block %u of reclaim unit %u is open while GC reclaims the unit", b, r);
            waiting += u->reclaiming && st == BLK_FULL && !blk_is_map(d, b);
        }
        CHECK(own == u->live, "reclaim unit %u counts %u blocks, %u are its own", r, u->live, own);
        CHECK(valid == u->valid,
              "reclaim unit %u counts %" G_GUINT64_FORMAT " valid slots, its blocks hold "
              "%" G_GUINT64_FORMAT,
              r, u->valid, valid);
    }
    for (uint32_t die = 0; die < g->dies; die++) {
        uint32_t n = 0;
        for (uint32_t b = f->pend_head[die]; b != NO_BLOCK && n <= g->blocks_per_die;
             b = f->pend_next[b], n++)
            CHECK(nand_die_of_block(d, b) == die && blk_state(d, b) == BLK_FULL &&
                      f->ru_of[b] != NO_RU && f->ru[f->ru_of[b]].reclaiming,
                  "die %u's list to reclaim holds block %u, not a full block of a unit GC chose",
                  die, b);
        CHECK(n == f->pend_n[die], "die %u's list to reclaim holds %u blocks, counted %u", die, n,
              f->pend_n[die]);
        pending += n;
    }
    CHECK(pending == f->npending && pending == waiting,
          "the lists to reclaim hold %" G_GUINT64_FORMAT " blocks, counted %" G_GUINT64_FORMAT
          "; units GC chose have %" G_GUINT64_FORMAT " full blocks",
          pending, f->npending, waiting);
    return true;
}

bool fdp_check(const Drive *d, char *why, size_t why_len)
{
    const Fdp *f = fdp(d);
    if (!f)
        return true;
    const Geom *g = drive_geom(d);
    for (uint32_t die = 0; die < g->dies; die++)
        for (uint32_t h = 0; h < f->handles; h++) {
            uint32_t b = f->host_open[(size_t)die * f->handles + h];
            uint32_t c = f->gc_open[(size_t)die * f->handles + h];
            CHECK(b == NO_BLOCK || (nand_die_of_block(d, b) == die && f->tag[b] == h &&
                                    blk_state(d, b) == BLK_OPEN),
                  "die %u: handle %u's open block %u is not an open block of its own", die, h, b);
            CHECK(c == NO_BLOCK || (f->stat[h].persistent && nand_die_of_block(d, c) == die &&
                                    f->tag[c] == h && blk_state(d, c) != BLK_FREE),
                  "die %u: handle %u's GC block %u is not a block of its own", die, h, c);
            CHECK(b == NO_BLOCK || fdp_group_of_die(d, die) < f->groups, "die %u beyond the groups", die);
        }
    uint64_t host = 0, gc = 0, media = 0;
    for (uint32_t h = 0; h <= f->handles; h++) {
        host += f->stat[h].host_bytes;
        gc += f->stat[h].gc_bytes;
        media += f->stat[h].media_bytes;
        CHECK(f->stat[h].moved_across <= f->stat[h].gc_bytes, "handle %u moved more across than it moved", h);
        CHECK(h == f->handles || !f->stat[h].persistent || f->stat[h].moved_across == 0,
              "persistently isolated handle %u had %" G_GUINT64_FORMAT " bytes moved across", h,
              f->stat[h].moved_across);
    }
    if (f->ru && !ru_check(d, f, why, why_len))
        return false;
    const DriveStats *s = drive_stats(d);
    /* host bytes as the host wrote them (buffered or not), media bytes as
     * programmed; a zoned drive's streams count host data as it lands */
    uint64_t want_host = f->zoned ? s->nand_write_bytes[CAUSE_HOST] : s->host_bytes[IO_WRITE];
    CHECK(host == want_host && gc == s->nand_write_bytes[CAUSE_GC] &&
              media == s->nand_write_bytes[CAUSE_HOST] + gc,
          "handles count %" G_GUINT64_FORMAT " host, %" G_GUINT64_FORMAT " GC and %" G_GUINT64_FORMAT
          " media bytes, the drive %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT,
          host, gc, media, want_host, s->nand_write_bytes[CAUSE_GC],
          s->nand_write_bytes[CAUSE_HOST] + s->nand_write_bytes[CAUSE_GC]);
    return true;
}
