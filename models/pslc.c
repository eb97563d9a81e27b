/*
 * pslc.c - the pSLC write cache: sizing, where host data goes, idle folding.
 *
 * Static SLC blocks (the first static_per_die blocks of every die) never
 * leave SLC mode; dynamic SLC blocks come from the die's free list. Per die,
 * with G = free blocks + dynamic SLC blocks, the sizing rule gives the
 * dynamic blocks allowed, so that everything in SLC can always be folded
 * with the reserve R kept (over-provisioning plus [pslc] reserve;
 * docs/pslc.md has the formulas).
 */
#include "models/blocks.h"
#include "models/cmd.h"
#include "models/sched.h"
#include "models/pslc.h"

#include <math.h>

/* What the sizing rules need, derived from the parameters. */
typedef struct PslcSizing {
    uint32_t dies;
    uint32_t bits;        /* b: bits per cell of the native mode */
    uint32_t block_slots; /* slots of a native block */
    uint32_t slc_slots;   /* slots of an SLC block */
    uint32_t nstatic;     /* static SLC blocks per die */
    uint32_t pool;        /* N: blocks per die outside the static part */
    uint32_t reserve;     /* R: blocks per die the dynamic part leaves free */
    uint32_t base;        /* R's part from over-provisioning (and GC's hard reserve) */
    uint32_t extra;       /* R's part from [pslc] reserve, once there is data to keep it for */
    uint32_t cap_blocks;  /* dynamic SLC blocks per die under dynamic_cap */
    uint32_t floor;       /* dynamic SLC blocks per die kept whatever the free space ([pslc] floor) */
    uint32_t hard;        /* gc hard_blocks: free blocks the floor never takes */
    double share;         /* dynamic_share (free_share) */
    uint64_t user_slots;
} PslcSizing;

/* A sizing rule: dynamic SLC blocks a die may hold given g = free blocks
 * plus the dynamic SLC blocks it holds now. */
typedef struct PslcRuleOps {
    const char *name;
    uint32_t (*blocks)(const PslcSizing *s, uint32_t g);
} PslcRuleOps;

/* S dynamic blocks of SLC data fold into S / b native blocks; keeping
 * F = g - S >= S / share b + R gives S <= share b (g - R) / (1 + share b). */
static uint32_t free_bound(const PslcSizing *s, uint32_t g, double share)
{
    if (g <= s->reserve || s->bits < 2)
        return 0;
    double sb = share * s->bits;
    return (uint32_t)floor(sb * (double)(g - s->reserve) / (1.0 + sb) + 1e-9);
}

/* R on a die that holds `used` blocks other than free and dynamic SLC
 * ones (native data, map blocks, open blocks): the [pslc] reserve is space
 * kept to move native data (GC, and folding's room beside it), so a die
 * keeps no more of it than it holds. An empty drive gives the cache all
 * its free space above the over-provisioning; once the die holds more
 * native data than the reserve, the reserve is whole. */
static void set_reserve(PslcSizing *s, uint64_t used)
{
    s->reserve = (uint32_t)MIN((uint64_t)s->base + MIN(s->extra, used), s->pool);
}

static uint32_t rule_none(const PslcSizing *s, uint32_t g)
{
    (void)s;
    (void)g;
    return 0;
}

static uint32_t rule_capped(const PslcSizing *s, uint32_t g)
{
    return MIN(free_bound(s, g, 1.0), s->cap_blocks);
}

static uint32_t rule_free_share(const PslcSizing *s, uint32_t g)
{
    return free_bound(s, g, s->share);
}

static const PslcRuleOps rule_ops[] = {
    [PSLC_RULE_NONE] = {"none", rule_none},
    [PSLC_RULE_CAPPED] = {"capped", rule_capped},
    [PSLC_RULE_FREE_SHARE] = {"free_share", rule_free_share},
};

static const PslcRuleOps *rule_of(const DriveParams *p)
{
    return p->pslc_rule <= PSLC_RULE_FREE_SHARE ? &rule_ops[p->pslc_rule] : &rule_ops[0];
}

const char *pslc_rule_name(PslcRule r)
{
    return r <= PSLC_RULE_FREE_SHARE ? rule_ops[r].name : "?";
}

static uint64_t div_up(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }

static void sizing_from_params(const DriveParams *p, PslcSizing *s)
{
    s->dies = drive_params_dies(p);
    s->bits = p->native_mode;
    s->block_slots = p->planes * p->pages_per_block * (p->page_size / SLOT_SIZE);
    s->slc_slots = s->bits ? s->block_slots / s->bits : 0;
    uint64_t slc_bytes = (uint64_t)s->slc_slots * SLOT_SIZE;
    uint64_t nstatic = s->bits >= 2 ? div_up(p->pslc_static, slc_bytes * s->dies) : 0;
    s->nstatic = (uint32_t)MIN(nstatic, p->blocks_per_plane ? p->blocks_per_plane - 1 : 0);
    s->pool = p->blocks_per_plane - s->nstatic;
    s->user_slots = drive_params_writable(p) / SLOT_SIZE;
    uint64_t user_blocks = div_up(s->user_slots, (uint64_t)s->block_slots * s->dies);
    uint32_t op_blocks = user_blocks < s->pool ? s->pool - (uint32_t)user_blocks : 0;
    uint64_t extra = div_up(p->pslc_reserve, (uint64_t)s->block_slots * SLOT_SIZE * s->dies);
    s->base = MAX(op_blocks, p->gc_hard_blocks + 1);
    s->extra = (uint32_t)MIN(extra, s->pool);
    s->reserve = (uint32_t)MIN((uint64_t)s->base + s->extra, s->pool);
    s->cap_blocks = UINT32_MAX;
    if (p->pslc_rule == PSLC_RULE_CAPPED && slc_bytes)
        s->cap_blocks = (uint32_t)MIN(p->pslc_dynamic_cap / s->dies / slc_bytes, UINT32_MAX);
    s->share = p->pslc_rule == PSLC_RULE_FREE_SHARE ? p->pslc_dynamic_share : 1.0;
    uint64_t static_bytes = (uint64_t)s->nstatic * s->dies * slc_bytes;
    uint64_t floor = p->pslc_floor > static_bytes ? p->pslc_floor - static_bytes : 0;
    s->floor = s->bits >= 2 ? (uint32_t)MIN(div_up(floor, slc_bytes * s->dies), s->pool) : 0;
    s->hard = p->gc_hard_blocks;
}

/* The rule's dynamic blocks for g, or the floor where that is more: the
 * firmware keeps that much cache on a drive too full for the rule to
 * allow any, lending the blocks from over-provisioning, but never takes
 * the die's last hard_blocks + 1 free blocks for it. */
static uint32_t dynamic_blocks(const DriveParams *p, const PslcSizing *s, uint32_t g)
{
    uint32_t lim = rule_of(p)->blocks(s, g);
    if (lim >= s->floor)
        return lim;
    uint32_t room = g > s->hard + 1 ? g - s->hard - 1 : 0;
    return MAX(lim, MIN(s->floor, room));
}

uint32_t pslc_static_blocks(const DriveParams *p)
{
    PslcSizing s;
    sizing_from_params(p, &s);
    return s.nstatic;
}

uint32_t pslc_spare_blocks(const DriveParams *p)
{
    PslcSizing s;
    sizing_from_params(p, &s);
    uint64_t user_blocks = div_up(s.user_slots, (uint64_t)s.block_slots * s.dies);
    return user_blocks < s.pool ? s.pool - (uint32_t)user_blocks : 0;
}

bool pslc_params_cache(const DriveParams *p)
{
    return p->native_mode != CELL_SLC &&
           (pslc_static_blocks(p) > 0 || p->pslc_rule != PSLC_RULE_NONE || p->pslc_floor > 0);
}

uint64_t pslc_static_capacity(const DriveParams *p)
{
    PslcSizing s;
    sizing_from_params(p, &s);
    return (uint64_t)s.nstatic * s.dies * s.slc_slots * SLOT_SIZE;
}

/* Map blocks die holds for the translation pages of the first `mapped`
 * 4 KiB units, on a drive whose table lives in NAND (hmb, sram): one page
 * per l2p_tp_entries units, dealt to the dies in turn, in SLC-mode blocks
 * that each take a native block out of the free space (l2p_cache.c). */
static uint64_t map_blocks_of_die(const DriveParams *p, const PslcSizing *s, uint64_t mapped, uint32_t die)
{
    if (p->l2p_kind == L2P_DRAM || p->page_size < SLOT_SIZE)
        return 0;
    uint64_t per_tp = p->l2p_tp_entries ? p->l2p_tp_entries : p->page_size / 4;
    uint64_t pages = div_up(mapped, per_tp);
    uint64_t mine = pages > die ? div_up(pages - die, s->dies) : 0;
    uint64_t per_block = s->slc_slots / (p->page_size / SLOT_SIZE);
    return per_block ? div_up(mine, per_block) : 0;
}

/* The drive filled sequentially to logical_fill, everything folded: each
 * die holds ceil(fill x user slots / dies / block slots) native blocks,
 * and, if its table lives in NAND, the map blocks of that data: without
 * them `check` promised a cache the run's first command took away (the
 * 990 at 85%: 0.6 GB, where its 5 map blocks a die leave none). */
uint64_t pslc_dynamic_limit_at(const DriveParams *p, double logical_fill)
{
    PslcSizing s;
    sizing_from_params(p, &s);
    if (s.dies == 0 || s.block_slots == 0)
        return 0;
    double fill = logical_fill < 0 ? 0 : logical_fill > 1 ? 1 : logical_fill;
    uint64_t data = (uint64_t)ceil(fill * (double)s.user_slots / s.dies / s.block_slots - 1e-9);
    uint64_t mapped = (uint64_t)(fill * (double)s.user_slots + 0.5);
    uint64_t blocks = 0;
    for (uint32_t i = 0; i < s.dies; i++) {
        uint64_t used = data + map_blocks_of_die(p, &s, mapped, i);
        set_reserve(&s, used);
        blocks += dynamic_blocks(p, &s, used < s.pool ? s.pool - (uint32_t)used : 0);
    }
    return blocks * s.slc_slots * SLOT_SIZE;
}

/* ---- Run time ----------------------------------------------------------- */

typedef struct PslcDie {
    uint32_t dyn_limit;  /* dynamic SLC blocks the sizing rule allows now */
    int64_t fold_credit; /* active folding: host slots x 1 - folded slots x (bits - 1) */
    uint32_t reserve;    /* R now (set_reserve) */
    bool exhausted;      /* cache ran out; host data goes native until the host idles or trims */
} PslcDie;

typedef struct Pslc {
    bool has_cache;           /* a static or dynamic part exists */
    uint32_t floor_blocks;    /* dynamic SLC blocks per die [pslc] floor keeps, which forced folding leaves */
    uint32_t slc_block_slots; /* slots an SLC block holds */
    uint64_t dyn_limit_sum;   /* sum of PslcDie.dyn_limit */
    SimTime quiet_since;      /* ns; when the last host command completed */
    bool fold_timer;          /* the idle timer is pending */
    bool idle_fold;           /* the host has been idle for fold_idle_delay */
    PslcDie *die;
} Pslc;

static Pslc *pslc(const Drive *d) { return drive_part(d, DP_PSLC); }

void pslc_init(Drive *d)
{
    drive_set_part(d, DP_PSLC, g_new0(Pslc, 1));
    pslc(d)->die = g_new0(PslcDie, drive_geom(d)->dies);
    PslcSizing s;
    sizing_from_params(drive_params(d), &s);
    pslc(d)->slc_block_slots = s.slc_slots;
    pslc(d)->floor_blocks = s.floor;
    pslc(d)->has_cache = pslc_params_cache(drive_params(d));
    drive_counters(d)->pslc_static = (uint64_t)drive_geom(d)->static_per_die * drive_geom(d)->dies * s.slc_slots * SLOT_SIZE;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        pslc_update_limit(d, i);
    }
    drive_counters(d)->pslc_limit = drive_counters(d)->pslc_static + pslc(d)->dyn_limit_sum * s.slc_slots * SLOT_SIZE;
    drive_counters(d)->pslc_limit_start = drive_counters(d)->pslc_limit;
}

void pslc_update_limit(Drive *d, uint32_t die)
{
    if (!pslc(d)->has_cache)
        return;
    PslcDie *pd = &pslc(d)->die[die];
    PslcSizing s;
    sizing_from_params(drive_params(d), &s);
    uint32_t g = die_nfree(d, die) + die_slc_dyn(d, die);
    set_reserve(&s, g < s.pool ? s.pool - g : 0);
    pd->reserve = s.reserve;
    uint32_t lim = dynamic_blocks(drive_params(d), &s, g);
    pslc(d)->dyn_limit_sum = pslc(d)->dyn_limit_sum - pd->dyn_limit + lim;
    pd->dyn_limit = lim;
    drive_counters(d)->pslc_limit = drive_counters(d)->pslc_static + pslc(d)->dyn_limit_sum * pslc(d)->slc_block_slots * SLOT_SIZE;
}

uint32_t pslc_slc_blocks(const Drive *d, uint32_t die)
{
    return die_slc_dyn(d, die) + (drive_geom(d)->static_per_die - die_nsfree(d, die));
}

/* The stream of the next host program unit on die: static SLC first, then
 * dynamic SLC while the rule allows another block, else native. Running out
 * marks the die exhausted until the host next idles or TRIMs data
 * (pslc_trimmed). */
int pslc_host_stream(Drive *d, uint32_t die)
{
    PslcDie *pd = &pslc(d)->die[die];
    if (!pslc(d)->has_cache || pd->exhausted)
        return STREAM_HOST;
    if (die_open(d, die, STREAM_SSLC) != NO_BLOCK || die_nsfree(d, die) > 0)
        return STREAM_SSLC;
    if (die_open(d, die, STREAM_SLC) != NO_BLOCK || die_slc_dyn(d, die) < pd->dyn_limit)
        return STREAM_SLC;
    pd->exhausted = true;
    pd->fold_credit = 0;
    if (drive_counters(d)->pslc_first_exhausted == UINT64_MAX)
        drive_counters(d)->pslc_first_exhausted = drive_counters(d)->nand_write_bytes[CAUSE_HOST];
    return STREAM_HOST;
}

static bool pslc_fold_active(const Drive *d, uint32_t die)
{
    const PslcDie *pd = &pslc(d)->die[die];
    if (!pslc(d)->has_cache || pslc_slc_blocks(d, die) == 0)
        return false;
    if (pd->exhausted)
        return drive_params(d)->fold_policy == FOLD_FIRST;
    double wm = drive_params(d)->fold_high_watermark;
    return wm < 1.0 && pslc_slc_blocks(d, die) > wm * (double)(drive_geom(d)->static_per_die + pd->dyn_limit);
}

/* Folding S dynamic blocks needs S / b free native blocks on top of R;
 * the floor's blocks, lent from over-provisioning, are not counted. */
bool pslc_fold_forced(const Drive *d, uint32_t die)
{
    int64_t over = (int64_t)die_slc_dyn(d, die) - pslc(d)->floor_blocks;
    if (!pslc(d)->has_cache || over <= 0)
        return false;
    return (int64_t)drive_geom(d)->native * ((int64_t)die_nfree(d, die) - pslc(d)->die[die].reserve) < over;
}

/* Account a host program: fold credit (fold_first: (b - 1) folded slots per
 * host slot keeps the free blocks level), and the phase gauge. */
void pslc_host_programmed(Drive *d, uint32_t die, int stream, uint32_t slots)
{
    if (!pslc(d)->has_cache) {
        drive_counters(d)->phase = PHASE_NATIVE;
        return;
    }
    bool active = pslc_fold_active(d, die);
    if (active)
        pslc(d)->die[die].fold_credit += slots;
    if (stream != STREAM_HOST)
        drive_counters(d)->phase = PHASE_PSLC;
    else
        drive_counters(d)->phase = active || pslc_fold_forced(d, die) ? PHASE_FOLDING : PHASE_NATIVE;
}

void pslc_host_busy(Drive *d) { pslc(d)->idle_fold = false; }

/* The host unmapped data: the space it gave back is free space for the
 * sizing rule once its blocks are erased (gc_reclaim_dead, in the die time
 * the TRIM itself leaves), so the cache is taken up again, as after an
 * idle time. A die with no room yet runs out again at its next host
 * program. */
void pslc_trimmed(Drive *d)
{
    if (!pslc(d)->has_cache)
        return;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        pslc(d)->die[i].exhausted = false;
        pslc(d)->die[i].fold_credit = 0;
    }
}

/* Idle timer: fires fold_idle_delay after the host stopped writing; starts
 * idle folding and re-arms the cache of every die. Reads do not hold
 * folding back: they keep their priority on the dies, and folding takes the
 * die time they leave. */
static void idle_timer(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    (void)arg;
    pslc(d)->fold_timer = false;
    if (cmd_writes_outstanding(d) > 0)
        return; /* re-armed when the host next stops writing */
    SimTime due = pslc(d)->quiet_since + drive_params(d)->fold_idle_delay;
    if (sim_now(drive_engine(d)) < due) {
        pslc(d)->fold_timer = true;
        sim_schedule(drive_engine(d), due, idle_timer, d, 0);
        return;
    }
    pslc(d)->idle_fold = true;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        pslc(d)->die[i].exhausted = false;
        pslc(d)->die[i].fold_credit = 0;
    }
    sched_kick_all(d);
}

void pslc_host_quiet(Drive *d)
{
    if (!pslc(d)->has_cache)
        return;
    pslc(d)->quiet_since = sim_now(drive_engine(d));
    if (!pslc(d)->fold_timer) {
        pslc(d)->fold_timer = true;
        sim_schedule(drive_engine(d), pslc(d)->quiet_since + drive_params(d)->fold_idle_delay, idle_timer, d, 0);
    }
}

void pslc_release(Drive *d)
{
    if (!pslc(d))
        return;
    g_free(pslc(d)->die);
    g_free(pslc(d));
    drive_set_part(d, DP_PSLC, NULL);
}

bool pslc_has_cache(const Drive *d) { return pslc(d)->has_cache; }
bool pslc_idle_folding(const Drive *d) { return pslc(d)->idle_fold; }
bool pslc_exhausted(const Drive *d, uint32_t die) { return pslc(d)->die[die].exhausted; }
uint32_t pslc_dyn_limit(const Drive *d, uint32_t die) { return pslc(d)->die[die].dyn_limit; }

/* Background folding: the host is writing (idle folding has not begun)
 * and this die holds SLC data; the scheduler offers it below host
 * programs, so it takes only die time the host leaves. */
bool pslc_fold_background(const Drive *d, uint32_t die)
{
    return drive_params(d)->fold_background && pslc(d)->has_cache && !pslc(d)->idle_fold &&
           pslc_slc_blocks(d, die) > 0;
}

bool pslc_fold_owed(const Drive *d, uint32_t die)
{
    return pslc(d)->die[die].fold_credit > 0 && pslc_fold_active(d, die);
}

void pslc_folded(Drive *d, uint32_t die, uint32_t slots)
{
    pslc(d)->die[die].fold_credit -= (int64_t)slots * (drive_geom(d)->native - 1);
}

/* The pSLC counters: SLC blocks per die (static free, dynamic in use), the
 * bytes of valid data in SLC blocks, and the limit gauge. */
bool pslc_check(const Drive *d, char *why, size_t why_len)
{
    uint64_t slc_valid = 0, limit = 0;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        uint32_t sfree = 0, dyn = 0, first = i * drive_geom(d)->blocks_per_die;
        for (uint32_t b = first; b < first + drive_geom(d)->blocks_per_die; b++) {
            if (blk_is_map(d, b))
                continue;
            if (blk_mode(d, b) == CELL_SLC && drive_geom(d)->native != CELL_SLC)
                slc_valid += blk_valid(d, b);
            if (nand_is_static(d, b)) {
                CHECK(blk_mode(d, b) == CELL_SLC, "static block %u is not in SLC mode", b);
                sfree += blk_state(d, b) == BLK_FREE;
            } else if (blk_state(d, b) != BLK_FREE && blk_mode(d, b) == CELL_SLC) {
                dyn++;
            }
        }
        CHECK(sfree == die_nsfree(d, i), "die %u has %u free static blocks, counter says %u", i,
              sfree, die_nsfree(d, i));
        CHECK(drive_geom(d)->native == CELL_SLC || dyn == die_slc_dyn(d, i),
              "die %u has %u dynamic SLC blocks, counter says %u", i, dyn, die_slc_dyn(d, i));
        limit += pslc(d)->die[i].dyn_limit;
    }
    CHECK(slc_valid * SLOT_SIZE == drive_stats(d)->pslc_used,
          "%" G_GUINT64_FORMAT " bytes valid in SLC blocks, gauge says %" G_GUINT64_FORMAT,
          slc_valid * SLOT_SIZE, drive_stats(d)->pslc_used);
    CHECK(limit == pslc(d)->dyn_limit_sum, "dynamic limits sum to %" G_GUINT64_FORMAT
          " blocks, counter says %" G_GUINT64_FORMAT, limit, pslc(d)->dyn_limit_sum);
    return true;
}
