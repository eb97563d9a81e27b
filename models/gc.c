/*
 * gc.c - garbage collection, die by die.
 *
 * Each die reclaims its own blocks: a victim is chosen among its full blocks
 * by the configured policy, its valid slots are relocated one program unit
 * at a time into the die's GC stream (a read of the pages holding them, the
 * data out over the channel to the controller for ECC and back in, then a
 * native program), and once empty it is erased. Every step is a die
 * operation like a host one, so GC costs show in host throughput and in
 * write amplification. Blocks that host overwrites left empty cost only the
 * erase. Dynamic SLC blocks are candidates too (relocating them natively is
 * folding): scores count what a block frees in native slots, so an SLC block
 * with little valid data wins. Static SLC blocks are left to folding, as
 * freeing them gives the die no native block. Map blocks (translation
 * pages, models/l2p_cache.c) are candidates as well; l2p_gc_step() moves
 * their live pages into another map block. With FDP's gc_unit =
 * reclaim_unit the victim is a whole reclaim unit (models/fdp.c): its
 * blocks wait on their dies' lists and each die moves and erases its own.
 */
#include "models/gc.h"
#include "models/blocks.h"
#include "models/sched.h"
#include "models/nand.h"
#include "models/ctrl.h"
#include "models/map.h"
#include "models/l2p_cache.h"
#include "models/sched_rank.h"
#include "models/wear.h"
#include "models/fdp.h"
#include "models/zns.h"
#include "models/cmd.h"

#include <string.h>
#include <math.h>

/* Pacing, per die, and idle GC. */
typedef struct Gc {
    double *debt;    /* slots GC owes for host data written below the soft threshold */
    double *ratio;   /* slots to move per host slot: v / (cap - v) of the last victim, at most ratio_ss */
    double ratio_ss; /* v / (cap - v) of a victim at the steady state of a full drive (gc_steady_ratio) */
    /* [gc] idle_blocks: GC once the host has not written for idle_delay */
    SimTime quiet_since;  /* ns; the last host write completed */
    bool timer;           /* the idle timer is pending */
    bool idle;            /* the host has not written for idle_delay */
    uint32_t idle_left;   /* dies still collecting toward idle_blocks */
    uint8_t *idle_state;  /* per die: IDLE_* */
    SimTime *idle_resume; /* per die: ns; with idle_pause, the next idle step not before */
} Gc;

enum { IDLE_WORKING, IDLE_PAUSED, IDLE_STEPPED, IDLE_DONE };

static Gc *gc(const Drive *d) { return drive_part(d, DP_GC); }

/* The pacing ratio of a victim at the steady state of uniform random
 * writes over the full user capacity, by FIFO cleaning's closed form (Hu et
 * al., SYSTOR 2009; tests/test_gc.c): with a = native slots a die keeps in
 * circulation (outside static SLC blocks and the soft reserve) over the
 * user slots it holds, a victim's valid share u solves u = exp(-a (1 - u)),
 * and GC moves u / (1 - u) slots per host slot. Greedy victims do better
 * than FIFO's at the steady state, so this bounds the ratio only in
 * transients such as the first victims after a sequential fill, whose
 * nearly full blocks would otherwise set a ratio of tens and make every
 * host write wait for that much GC: steady pacing then pays the steady
 * state's share and lets the reserve between soft_blocks and hard_blocks
 * take the difference until the overwrites have emptied blocks. */
static double gc_steady_ratio(const Drive *d)
{
    const Geom *g = drive_geom(d);
    double user = (double)drive_params(d)->user_capacity / SLOT_SIZE / g->dies;
    double blocks = (double)g->blocks_per_die - g->static_per_die - drive_params(d)->gc_soft_blocks;
    double a = blocks * g->slots_per_block / MAX(user, 1.0);
    if (a <= 1.0)
        return INFINITY; /* no spare space: only the victims' own ratio */
    double u = 0.5;
    for (int k = 0; k < 1000; k++)
        u = exp(-a * (1.0 - u)); /* converges to the root below 1 */
    return u < 1.0 ? u / (1.0 - u) : INFINITY;
}

/* GC moved slots on die: they pay its debt. */
static void gc_paid(Drive *d, uint32_t die, uint32_t slots)
{
    double *debt = &gc(d)->debt[die];
    *debt = *debt > slots ? *debt - slots : 0;
}

/* hard: the die is at its reserve and GC goes before host programs. Not
 * hard: GC is wanted below the soft threshold, or to go on with a victim
 * begun earlier; a victim begun at the hard threshold or by paced or idle
 * GC does not make GC preempt the host once the die is above its reserve,
 * so host writes are not held for whole victims. */
static bool gc_needed(const Drive *d, uint32_t die, bool hard)
{
    if (hard)
        return die_nfree(d, die) <= drive_params(d)->gc_hard_blocks;
    return die_victim(d, die) != NO_BLOCK || die_nfree(d, die) < drive_params(d)->gc_soft_blocks ||
           wear_cold_waiting(d, die) || fdp_pending(d, die) > 0;
}

/* Native slots the valid data of block b takes once moved: translation
 * pages move into SLC-mode map blocks, each slot costing bits native slots. */
static uint32_t moved_slots(const Drive *d, uint32_t b)
{
    uint64_t v = blk_valid(d, b);
    if (blk_is_map(d, b))
        v *= drive_geom(d)->native;
    return (uint32_t)MIN(v, drive_geom(d)->slots_per_block);
}

/* Victim selection policies: a score per full block, the highest wins.
 * cap is what erasing the block returns (native slots), v what must move. */
typedef struct GcPolicyOps {
    double (*score)(const Drive *d, uint32_t b, uint32_t cap, uint32_t v, SimTime now);
} GcPolicyOps;

/* Most space returned for the least moved. */
static double score_greedy(const Drive *d, uint32_t b, uint32_t cap, uint32_t v, SimTime now)
{
    (void)d, (void)b, (void)now;
    return (double)(cap - v);
}

/* benefit/cost = (1 - u) * age / (1 + u), the cost-benefit rule of Kawaguchi
 * et al.'s flash file system: reclaiming frees 1 - u of a block at the cost
 * of reading u and writing u back, and old blocks are less likely to lose
 * more data by themselves. */
static double score_cost_benefit(const Drive *d, uint32_t b, uint32_t cap, uint32_t v, SimTime now)
{
    double u = (double)v / cap;
    double age = (double)(now - blk_stamp(d, b)) + 1.0;
    return (1.0 - u) * age / (1.0 + u);
}

/* Oldest filled first. */
static double score_fifo(const Drive *d, uint32_t b, uint32_t cap, uint32_t v, SimTime now)
{
    (void)cap, (void)v, (void)now;
    return 1e19 - (double)blk_stamp(d, b);
}

static const GcPolicyOps gc_policies[] = {
    [GC_GREEDY] = {score_greedy},
    [GC_COST_BENEFIT] = {score_cost_benefit},
    [GC_FIFO] = {score_fifo},
};

/* Score a full block for victim choice; higher is better, < 0 ineligible. */
static double victim_score(const Drive *d, uint32_t b, SimTime now)
{
    uint32_t cap = drive_geom(d)->slots_per_block; /* what erasing it returns, native slots */
    uint32_t v = moved_slots(d, b);
    if (v >= cap)
        return -1; /* nothing to gain */
    return gc_policies[drive_params(d)->gc_policy].score(d, b, cap, v, now);
}

/* A reclaim unit's score by the policy (FDP, gc_unit = reclaim_unit):
 * cap the native slots erasing its blocks returns, v what must move,
 * stamp when its last block filled. Greedy takes the lowest valid share,
 * which for units of one block is the fewest slots to move, as above. */
static double score_unit(const Drive *d, uint64_t cap, uint64_t v, SimTime stamp, SimTime now)
{
    if (v >= cap)
        return -1; /* nothing to gain */
    double u = (double)v / (double)cap;
    switch (drive_params(d)->gc_policy) {
    case GC_COST_BENEFIT:
        return (1.0 - u) * ((double)(now - stamp) + 1.0) / (1.0 + u);
    case GC_FIFO:
        return 1e19 - (double)stamp;
    default:
        return 1.0 - u;
    }
}

static uint32_t pick_victim(Drive *d, uint32_t die);

/* The cold block static wear leveling chose, else the policy's best. On a
 * zoned drive a zone's data stays in its own blocks until the host resets
 * it: only a block with nothing to move (or a map block) is a victim. */
uint32_t gc_pick_victim(Drive *d, uint32_t die)
{
    uint32_t v = pick_victim(d, die);
    if (v != NO_BLOCK && zns_on(d) && moved_slots(d, v) > 0 && !blk_is_map(d, v))
        return NO_BLOCK;
    return v;
}

static uint32_t pick_victim(Drive *d, uint32_t die)
{
    uint32_t wl = wear_take_cold(d, die);
    if (fdp_ru_gc(d))
        return fdp_ru_victim(d, die, wl, moved_slots, score_unit);
    if (wl != NO_BLOCK)
        return wl;
    SimTime now = sim_now(drive_engine(d));
    /* the die's static SLC blocks come first and are never victims */
    uint32_t lo = die * drive_geom(d)->blocks_per_die + drive_geom(d)->static_per_die;
    uint32_t hi = (die + 1) * drive_geom(d)->blocks_per_die, best = NO_BLOCK;
    if (drive_params(d)->gc_policy == GC_GREEDY) {
        /* the greedy score without its indirect call and doubles: the
         * fewest slots to move, the first such block on a tie, as below */
        return blk_fewest_valid(d, lo, hi, drive_geom(d)->slots_per_block, drive_geom(d)->native);
    }
    double best_score = -1;
    for (uint32_t b = lo; b < hi; b++) {
        if (blk_state(d, b) != BLK_FULL)
            continue;
        double s = victim_score(d, b, now);
        if (s >= 0 && s > best_score) {
            best_score = s;
            best = b;
        }
    }
    return best;
}

/* The GC stream's open block on die (with FDP, *open: the block of victim
 * v's handle where it is persistently isolated; open NULL: the die's GC
 * stream), opening one if needed. */
static uint32_t gc_dest(Drive *d, uint32_t die, uint32_t *open, uint32_t tag)
{
    uint32_t b = open ? *open : die_open(d, die, STREAM_GC);
    if (b != NO_BLOCK && blk_wp(d, b) < nand_block_capacity(d, b))
        return b;
    b = nand_take_free(d, die, drive_geom(d)->native);
    if (open)
        *open = b;
    else
        die_set_open(d, die, STREAM_GC, b);
    if (b != NO_BLOCK && fdp_on(d))
        fdp_gc_block_taken(d, b, tag);
    return b;
}

/* Erase block b, reclaimed by GC, on die; die_done returns it to its free list. */
static void gc_erase(Drive *d, uint32_t die, uint32_t b)
{
    drive_counters(d)->gc_blocks++;
    sched_die_op(d, die, WORK_ERASE, nand_erased, d, b,
                 sim_now(drive_engine(d)) + drive_params(d)->timing[blk_mode(d, b)].t_erase);
}

static void erase_victim(Drive *d, uint32_t die, uint32_t v)
{
    die_set_victim(d, die, NO_BLOCK);
    gc_erase(d, die, v);
}

static bool gc_step(Drive *d, uint32_t die)
{
    if (die_victim(d, die) == NO_BLOCK) {
        uint32_t v = gc_pick_victim(d, die);
        if (v == NO_BLOCK)
            return false;
        die_set_victim(d, die, v);
        die_set_cursor(d, die, 0);
        blk_take_victim(d, v);
        uint32_t cap = drive_geom(d)->slots_per_block; /* native slots erasing it returns */
        uint32_t moved = moved_slots(d, v);
        if (moved < cap)
            gc(d)->ratio[die] = MIN((double)moved / (double)(cap - moved), gc(d)->ratio_ss);
    }
    uint32_t v = die_victim(d, die);
    if (blk_is_map(d, v)) {
        uint32_t moved = 0;
        bool started = l2p_gc_step(d, die, &moved);
        gc_paid(d, die, moved);
        return started;
    }
    if (blk_valid(d, v) == 0) {
        erase_victim(d, die, v);
        return true;
    }
    uint32_t tag = FDP_SHARED;
    uint32_t *open = fdp_on(d) ? fdp_gc_open(d, die, v, &tag) : NULL; /* NULL: the die's GC stream */
    uint32_t dst = gc_dest(d, die, open, tag);
    if (dst == NO_BLOCK)
        return false; /* no erased block to relocate into: stuck until TRIM */
    uint32_t pages;
    uint32_t cursor = die_cursor(d, die);
    uint64_t first = nand_slot(d, dst, blk_wp(d, dst));
    uint32_t n = map_relocate(d, v, &cursor, dst, open ? MAP_OWN_BLOCK : STREAM_GC, &pages);
    die_set_cursor(d, die, cursor);
    if (open && blk_state(d, dst) == BLK_FULL)
        *open = NO_BLOCK; /* the handle's GC block filled */
    if (n == 0) {
        /* the cursor passed the last valid slot: nothing left to move */
        g_assert(blk_valid(d, v) == 0);
        erase_victim(d, die, v);
        return true;
    }
    gc_paid(d, die, n);
    uint64_t bytes = (uint64_t)n * SLOT_SIZE;
    uint32_t rounds = (pages + drive_geom(d)->planes - 1) / drive_geom(d)->planes;
    SimTime sensed = sim_now(drive_engine(d)) + (SimTime)rounds * drive_params(d)->timing[blk_mode(d, v)].t_read;
    SimTime moved = ctrl_relocate(d, die, sensed, n);
    drive_counters(d)->nand_read_bytes += bytes;
    drive_counters(d)->nand_write_bytes[CAUSE_GC] += bytes;
    if (fdp_on(d))
        fdp_gc_moved(d, fdp_block_tag(d, v), tag, bytes);
    sched_program(d, die, WORK_GC, NULL, NULL, 0, moved, first, bytes, drive_geom(d)->native);
    return true;
}

/* A full block whose data was all overwritten or trimmed costs only its
 * erase: idle die time reclaims it at once, below the soft threshold or
 * not, so that space the host gave back (a large TRIM) is free space again,
 * for the pSLC sizing rule too, without waiting for GC to need it. Blocks
 * a GC or fold has taken meanwhile, or that came back to life, are
 * skipped. */
static bool gc_reclaim_dead(Drive *d, uint32_t die)
{
    for (uint32_t b; (b = die_pop_dead(d, die)) != NO_BLOCK;) {
        if (blk_state(d, b) != BLK_FULL || blk_valid(d, b) != 0 || blk_is_map(d, b))
            continue;
        if (fdp_ru_gc(d) && !fdp_ru_dead(d, b))
            continue; /* a reclaim unit's blocks are erased together, as GC's victims */
        blk_take_victim(d, b); /* until its erase ends */
        gc_erase(d, die, b);
        return true;
    }
    return false;
}

/* ---- The scheduler's work ------------------------------------------------ */

static bool try_hard(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return gc_needed(d, die, true) && gc_step(d, die);
}

static bool try_paced(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return die_nfree(d, die) < drive_params(d)->gc_soft_blocks && gc(d)->debt[die] > 0 && gc_step(d, die);
}

static bool try_dead(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return die_ndead(d, die) > 0 && gc_reclaim_dead(d, die);
}

static bool try_background(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    return gc_needed(d, die, false) && gc_step(d, die);
}

/* Whether any die may want GC: one below the soft threshold (the hard one
 * lies below it), one with a victim, a cold block waiting to move, or a
 * block of a reclaim unit GC chose. */
static bool any_gc(void *ctx)
{
    Drive *d = ctx;
    return blocks_dies_low(d) > 0 || blocks_victims(d) > 0 || wear_cold_any(d) ||
           fdp_pending_any(d);
}

static bool any_dead(void *ctx) { return blocks_dead(ctx) > 0; }

/* A count any_gc or any_dead asks about grew: they may say yes again. */
static void gc_grew(Drive *d)
{
    sched_wake(d, any_gc, d);
    sched_wake(d, any_dead, d);
}

/* ---- Idle GC ([gc] idle_blocks) ------------------------------------------
 * Firmware goes on collecting after the host stops writing, beyond the soft
 * threshold, so that the next burst finds free blocks (and, on a drive with
 * a pSLC cache, the free space the sizing rule turns into cache). It takes
 * the die time reads leave, as idle folding does, and is ranked after
 * everything else; a host write ends it after the step under way, and a
 * victim it began is finished as background GC, in the die time the host
 * leaves. With idle_pause a die rests that long after each step. */

static void idle_die_done(Gc *g, uint32_t die)
{
    if (g->idle_state[die] != IDLE_DONE) {
        g->idle_state[die] = IDLE_DONE;
        g->idle_left--;
    }
}

static void idle_wake(void *ctx, uint64_t die)
{
    Drive *d = ctx;
    Gc *g = gc(d);
    if (g->idle && g->idle_state[die] == IDLE_PAUSED) {
        g->idle_state[die] = IDLE_WORKING;
        sched_kick_all(d);
    }
}

static bool try_idle(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    Gc *g = gc(d);
    if (!g->idle || g->idle_state[die] == IDLE_DONE || g->idle_state[die] == IDLE_PAUSED)
        return false;
    SimTime now = sim_now(drive_engine(d));
    if (g->idle_state[die] == IDLE_STEPPED && drive_params(d)->gc_idle_pause > 0) {
        g->idle_state[die] = IDLE_PAUSED;
        g->idle_resume[die] = now + drive_params(d)->gc_idle_pause;
        sim_schedule(drive_engine(d), g->idle_resume[die], idle_wake, d, die);
        return false;
    }
    g->idle_state[die] = IDLE_WORKING;
    if (die_victim(d, die) == NO_BLOCK && die_nfree(d, die) >= drive_params(d)->gc_idle_blocks) {
        idle_die_done(g, die);
        return false;
    }
    if (!gc_step(d, die)) {
        idle_die_done(g, die); /* no victim worth taking */
        return false;
    }
    g->idle_state[die] = IDLE_STEPPED;
    drive_counters(d)->gc_idle_steps++;
    return true;
}

static bool any_idle(void *ctx) { return gc(ctx)->idle_left > 0; }

/* Fires idle_delay after the last host write completed, re-armed to the
 * latest such time (one event pending at most). */
static void idle_timer(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    Gc *g = gc(d);
    (void)arg;
    g->timer = false;
    if (cmd_writes_outstanding(d) > 0)
        return; /* re-armed when the host next stops writing */
    SimTime due = g->quiet_since + drive_params(d)->gc_idle_delay;
    if (sim_now(drive_engine(d)) < due) {
        g->timer = true;
        sim_schedule(drive_engine(d), due, idle_timer, d, 0);
        return;
    }
    g->idle = true;
    g->idle_left = drive_geom(d)->dies;
    memset(g->idle_state, IDLE_WORKING, drive_geom(d)->dies);
    sched_kick_all(d);
}

void gc_host_quiet(Drive *d)
{
    Gc *g = gc(d);
    if (drive_params(d)->gc_idle_blocks == 0)
        return;
    g->quiet_since = sim_now(drive_engine(d));
    if (!g->timer) {
        g->timer = true;
        sim_schedule(drive_engine(d), g->quiet_since + drive_params(d)->gc_idle_delay, idle_timer, d, 0);
    }
}

void gc_host_busy(Drive *d)
{
    Gc *g = gc(d);
    g->idle = false;
    g->idle_left = 0;
}

void gc_init(Drive *d)
{
    Gc *g = g_new0(Gc, 1);
    g->debt = g_new0(double, drive_geom(d)->dies);
    g->ratio = g_new(double, drive_geom(d)->dies);
    g->ratio_ss = gc_steady_ratio(d);
    g->idle_state = g_new0(uint8_t, drive_geom(d)->dies);
    g->idle_resume = g_new0(SimTime, drive_geom(d)->dies);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        g->ratio[i] = MIN(1.0, g->ratio_ss);
    drive_set_part(d, DP_GC, g);
    sched_add(d, RANK_GC_HARD, try_hard, any_gc, d, false);
    sched_add(d, RANK_GC_PACED, try_paced, any_gc, d, false);
    sched_add(d, RANK_RECLAIM_DEAD, try_dead, any_dead, d, false);
    sched_add(d, RANK_GC_BACKGROUND, try_background, any_gc, d, false);
    if (drive_params(d)->gc_idle_blocks > 0)
        sched_add(d, RANK_GC_IDLE, try_idle, any_idle, d, false);
    /* what any_gc and any_dead count grows only through blocks_grow() */
    sched_watch(d, any_gc, d);
    sched_watch(d, any_dead, d);
    blocks_set_on_grow(d, gc_grew);
}

/* Pacing: a host program of slots on die, which was below the soft
 * threshold before it (paced), owes GC slots x v / (cap - v). The debt is
 * kept below one block's slots: what host writes owed while GC had no
 * victim to take (a sequential fill below the threshold: every block
 * valid) is free space already spent, which hard GC at the reserve
 * restores; carried over, it would hold the next host writes behind
 * several victims at once. */
void gc_owe(Drive *d, uint32_t die, bool paced, uint32_t slots)
{
    if (paced && drive_params(d)->gc_pacing == GC_PACE_STEADY)
        gc(d)->debt[die] = MIN(gc(d)->debt[die] + slots * gc(d)->ratio[die],
                               (double)drive_geom(d)->slots_per_block);
}

bool gc_paced(const Drive *d, uint32_t die)
{
    return die_nfree(d, die) < drive_params(d)->gc_soft_blocks;
}

/* Pacing as after a victim with that valid ratio (prefill's last one). */
void gc_set_ratio(Drive *d, uint32_t die, double ratio) { gc(d)->ratio[die] = ratio; }

double gc_ratio_cap(const Drive *d) { return gc(d)->ratio_ss; }

void gc_release(Drive *d)
{
    Gc *g = gc(d);
    if (!g)
        return;
    g_free(g->debt);
    g_free(g->ratio);
    g_free(g->idle_state);
    g_free(g->idle_resume);
    g_free(g);
}

bool gc_check(const Drive *d, char *why, size_t why_len)
{
    const Gc *g = gc(d);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        CHECK(isfinite(g->debt[i]) && g->debt[i] >= 0, "die %u owes GC %g slots", i, g->debt[i]);
        CHECK(isfinite(g->ratio[i]) && g->ratio[i] >= 0 &&
                  g->ratio[i] <= MIN(g->ratio_ss, (double)drive_geom(d)->slots_per_block),
              "die %u's GC ratio is %g, above a full drive's steady state %g", i, g->ratio[i],
              g->ratio_ss);
        uint32_t v = die_victim(d, i);
        CHECK(v == NO_BLOCK || !nand_is_static(d, v), "die %u's GC victim %u is a static SLC block",
              i, v);
    }
    return true;
}
