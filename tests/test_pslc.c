/*
 * test_pslc.c - the pSLC write cache and folding on tiny drives: sizing
 * rules against their formulas, sequential fills through cache, folding and
 * native phases, idle folding of valid data only, SLC against native read
 * latency, the static part on a full drive, and the FTL oracle with
 * folding and GC forced.
 */
#include "models/drive.h"
#include "models/pslc.h"
#include "tests/cutest.h"
#include "tests/oracle.h"
#include "tests/tiny_drive.h"

#include <math.h>

#define KIB 1024ull
#define MIB (1024ull * 1024)
#define SLC_BLOCK (32 * 4096ull) /* tiny drive: 96 TLC slots a block, 32 in SLC */
#define DIES 2

/* A tiny TLC drive with `nstatic` static SLC blocks per die and a rule. */
static void slc_drive(DriveParams *p, uint32_t blocks, uint32_t nstatic, PslcRule rule,
                      FoldPolicy fold)
{
    tiny_drive(p, blocks, 0.3);
    p->pslc_static = nstatic * SLC_BLOCK * DIES;
    p->pslc_rule = rule;
    p->pslc_dynamic_cap = 0;
    p->pslc_dynamic_share = 1.0;
    p->fold_policy = fold;
    p->fold_idle_delay = 100 * SIM_MS;
    p->fold_high_watermark = 1.0;
}

/* Dynamic limit by the documented formula: per die N = blocks - static,
 * U = ceil(user slots / (dies x 96)),
 * D = ceil(fill x user slots / (dies x 96)), G = N - D,
 * R = max(N - U, hard + 1) + min(ceil(reserve / (dies x 96 x 4 KiB)), D),
 * S = floor(share b (G - R) / (1 + share b)), capped at cap / dies / SLC block. */
static uint64_t expect_dynamic(const DriveParams *p, uint32_t nstatic, double fill)
{
    double user = (double)(p->user_capacity / 4096);
    int64_t n = p->blocks_per_plane - nstatic;
    int64_t u = (int64_t)ceil(user / (DIES * 96));
    int64_t data = (int64_t)ceil(fill * user / (DIES * 96) - 1e-9);
    int64_t r = MAX(n - u, (int64_t)p->gc_hard_blocks + 1) +
                MIN((int64_t)((p->pslc_reserve + DIES * 96 * 4096 - 1) / (DIES * 96 * 4096)), data);
    int64_t g = n - data;
    double share = p->pslc_rule == PSLC_RULE_FREE_SHARE ? p->pslc_dynamic_share : 1.0;
    int64_t s = g > r ? (int64_t)floor(share * 3 * (double)(g - r) / (1 + share * 3) + 1e-9) : 0;
    if (p->pslc_rule == PSLC_RULE_CAPPED)
        s = MIN(s, (int64_t)(p->pslc_dynamic_cap / DIES / SLC_BLOCK));
    return (uint64_t)s * DIES * SLC_BLOCK;
}

static void test_sizing_rules(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    CUTEST_EQ(pslc_static_blocks(&p), 2);
    CUTEST_EQ(pslc_static_capacity(&p), 4 * SLC_BLOCK);
    /* a static size that is not whole blocks rounds up */
    p.pslc_static = 4 * SLC_BLOCK + 1;
    CUTEST_EQ(pslc_static_blocks(&p), 3);
    p.pslc_static = 4 * SLC_BLOCK;
    /* by hand: N = 62, U = ceil(9452 / 192) = 50, R = 12: an empty drive
     * holds floor(3 x 50 / 4) = 37 blocks per die */
    CUTEST_EQ(p.user_capacity / 4096, 9452);
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 0), 37 * DIES * SLC_BLOCK);
    const double fills[] = {0, 0.5, 0.75, 0.9, 1.0};
    for (int rule = 0; rule < 2; rule++) {
        p.pslc_rule = rule ? PSLC_RULE_CAPPED : PSLC_RULE_FREE_SHARE;
        p.pslc_dynamic_share = 0.6;
        p.pslc_dynamic_cap = 20 * DIES * SLC_BLOCK;
        uint64_t prev = UINT64_MAX;
        for (unsigned k = 0; k < G_N_ELEMENTS(fills); k++) {
            uint64_t got = pslc_dynamic_limit_at(&p, fills[k]);
            CUTEST_EQ(got, expect_dynamic(&p, 2, fills[k]));
            CU_ASSERT(got <= prev);
            prev = got;
        }
        CUTEST_EQ(pslc_dynamic_limit_at(&p, 1.0), 0);
    }
    /* capped at 20 blocks per die: the cap binds when empty, the free space at 75% */
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 0), 20 * DIES * SLC_BLOCK);
    CU_ASSERT(pslc_dynamic_limit_at(&p, 0.75) < 20 * DIES * SLC_BLOCK);
    CU_ASSERT(pslc_dynamic_limit_at(&p, 0.75) > 0);
    /* the drive starts with the static part plus the limit at 0% */
    p.pslc_rule = PSLC_RULE_FREE_SHARE;
    p.pslc_dynamic_share = 1.0;
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &p, 1);
    CUTEST_EQ(drive_stats(d)->pslc_static, 4 * SLC_BLOCK);
    CUTEST_EQ(drive_stats(d)->pslc_limit_start, 4 * SLC_BLOCK + 37 * DIES * SLC_BLOCK);
    CUTEST_EQ(drive_stats(d)->pslc_limit, drive_stats(d)->pslc_limit_start);
    drive_free(d);
    sim_engine_free(e);
    CUTEST_EQ(g_strcmp0(pslc_rule_name(PSLC_RULE_CAPPED), "capped"), 0);
}

/* [pslc] reserve: native free space the dynamic part leaves beyond the
 * over-provisioning, as much of it as the die holds native data. 5 native
 * blocks per die (10 in all, less a byte: rounded up) take floor(3 x 5 /
 * 4) = 3 or 4 SLC blocks per die off the limit at every fill level from 5
 * data blocks a die where the free space allows one, none on the empty
 * drive; a die whose free space the reserve covers keeps no dynamic
 * part. */
static void test_sizing_reserve(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    p.pslc_reserve = 10 * 96 * 4096 - 1;
    /* by hand: empty, no data to keep the reserve for: R = 12, as without
     * it: 37; at 25% D = 13: R = 12 + 5 = 17, G - R = 32: floor(3 x 32 / 4) = 24 */
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 0), 37 * DIES * SLC_BLOCK);
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 0.25), 24 * DIES * SLC_BLOCK);
    const double fills[] = {0, 0.25, 0.5, 0.75, 0.9, 1.0};
    for (unsigned k = 0; k < G_N_ELEMENTS(fills); k++)
        CUTEST_EQ(pslc_dynamic_limit_at(&p, fills[k]), expect_dynamic(&p, 2, fills[k]));
    /* 50 data blocks per die fill the 45 above the reserve */
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 0.9), 0);
    /* the run-time limit starts where the formula says */
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &p, 1);
    CUTEST_EQ(drive_stats(d)->pslc_limit_start, 4 * SLC_BLOCK + 37 * DIES * SLC_BLOCK);
    drive_free(d);
    sim_engine_free(e);
}

/* ---- Closed-loop sequential and random writers --------------------------- */

typedef struct Sample {
    SimTime t;
    uint64_t host, slc, fold;
    int phase;
} Sample;

typedef struct Writer {
    SimEngine *e;
    Drive *d;
    uint64_t next, total, size, done, issued;
    bool random;
    SimRng rng;
    GArray *samples;
} Writer;

static void writer_submit(Writer *w)
{
    uint64_t off = w->next;
    if (w->random)
        off = sim_rng_below(&w->rng, drive_capacity(w->d) / w->size) * w->size;
    else
        w->next += w->size;
    drive_submit(w->d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = w->size, .tag = w->issued++});
}

static void writer_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Writer *w = ctx;
    (void)tag;
    w->done++;
    const DriveStats *st = drive_stats(w->d);
    Sample s = {sim_now(w->e), st->host_bytes[IO_WRITE], st->host_slc_bytes,
                st->nand_write_bytes[CAUSE_FOLD], st->phase};
    if (w->samples)
        g_array_append_val(w->samples, s);
    if (w->issued * w->size < w->total)
        writer_submit(w);
    else if (w->done == w->issued)
        sim_stop(w->e);
}

/* Write total bytes in size pieces at queue depth qd; stops at the last completion. */
static void writer_run(Writer *w, uint64_t total, uint64_t size, uint32_t qd, bool random)
{
    w->total = total;
    w->size = size;
    w->issued = w->done = 0;
    w->random = random;
    drive_set_done(w->d, writer_done, w);
    for (uint32_t k = 0; k < qd && w->issued * size < total; k++)
        writer_submit(w);
    while (w->done < w->issued && sim_run(w->e, SIM_TIME_MAX))
        ;
}

static void writer_init(Writer *w, const DriveParams *p)
{
    memset(w, 0, sizeof(*w));
    w->e = sim_engine_new();
    w->d = drive_new(w->e, p, 1);
    w->samples = g_array_new(FALSE, FALSE, sizeof(Sample));
    sim_rng_init(&w->rng, 7, 1);
}

static void writer_release(Writer *w)
{
    drive_free(w->d);
    sim_engine_free(w->e);
    g_array_free(w->samples, TRUE);
}

static const Sample *sample_at(const Writer *w, uint64_t host)
{
    for (guint i = 0; i < w->samples->len; i++)
        if (g_array_index(w->samples, Sample, i).host >= host)
            return &g_array_index(w->samples, Sample, i);
    return &g_array_index(w->samples, Sample, w->samples->len - 1);
}

/* Run an idle drive until every background operation has finished. */
static void idle_out(SimEngine *e)
{
    sim_run(e, SIM_TIME_MAX);
}

static bool flush_drive(Writer *w)
{
    drive_submit(w->d, &(DriveCmd){.op = IO_FLUSH, .tag = w->issued++});
    w->total = 0;
    while (w->done < w->issued && sim_run(w->e, SIM_TIME_MAX))
        ;
    return w->done == w->issued;
}

static void test_fill_fold_first(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    p.fold_idle_delay = 1000 * SIM_SEC;
    uint64_t user = p.user_capacity / (128 * KIB) * (128 * KIB);
    Writer w;
    writer_init(&w, &p);
    uint64_t limit = drive_stats(w.d)->pslc_limit_start;
    writer_run(&w, user, 128 * KIB, 4, false);
    const DriveStats *st = drive_stats(w.d);
    char why[256];
    CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
    /* the cache holds what the sizing gave, within one SLC block per die */
    CU_ASSERT(st->pslc_first_exhausted != UINT64_MAX);
    CUTEST_NEAR((double)st->pslc_first_exhausted, (double)limit, DIES * SLC_BLOCK);
    CUTEST_NEAR((double)st->host_slc_bytes, (double)limit, DIES * SLC_BLOCK);
    /* after exhaustion: folding while writing natively, then native */
    const Sample *a = sample_at(&w, st->pslc_first_exhausted + 1 * MIB);
    const Sample *b = sample_at(&w, st->pslc_first_exhausted + 5 * MIB);
    CU_ASSERT(b->fold > a->fold);
    CU_ASSERT(b->slc == a->slc);
    int seen[5] = {0}, order = 0;
    for (guint i = 0; i < w.samples->len; i++) {
        int ph = g_array_index(w.samples, Sample, i).phase;
        if (ph != PHASE_IDLE && !seen[ph])
            seen[ph] = ++order;
    }
    CU_ASSERT(seen[PHASE_PSLC] == 1);
    CU_ASSERT(seen[PHASE_FOLDING] > seen[PHASE_PSLC]);
    CU_ASSERT(seen[PHASE_NATIVE] > seen[PHASE_FOLDING]);
    /* all SLC data of the fill was folded (active folding, no idle) */
    CUTEST_EQ(st->pslc_used, 0);
    CUTEST_EQ(st->nand_write_bytes[CAUSE_FOLD] + st->nand_write_bytes[CAUSE_GC] >= st->host_slc_bytes, 1);
    SimTime fold_stretch = b->t - a->t;

    /* the same stretch on the drive without a cache is faster */
    DriveParams q;
    slc_drive(&q, 64, 0, PSLC_RULE_NONE, FOLD_FIRST);
    Writer n;
    writer_init(&n, &q);
    writer_run(&n, user, 128 * KIB, 4, false);
    CUTEST_EQ(drive_stats(n.d)->host_slc_bytes, 0);
    CUTEST_EQ(drive_stats(n.d)->pslc_limit_start, 0);
    SimTime native_stretch = sample_at(&n, b->host)->t - sample_at(&n, a->host)->t;
    CU_ASSERT(fold_stretch > native_stretch + native_stretch / 10);
    writer_release(&n);
    writer_release(&w);
}

/* Write total bytes sequentially in size pieces at queue depth 1, each
 * command sent gap ns after the last completed: a host that writes at a
 * set pace. */
typedef struct Paced {
    Writer *w;
    SimTime gap;
} Paced;

static void paced_send(void *ctx, uint64_t arg)
{
    (void)arg;
    writer_submit(((Paced *)ctx)->w);
}

static void paced_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Paced *pc = ctx;
    Writer *w = pc->w;
    (void)tag;
    if (++w->done * w->size >= w->total) {
        sim_stop(w->e);
        return;
    }
    sim_schedule(w->e, sim_now(w->e) + pc->gap, paced_send, pc, 0);
}

/* Host data written before the cache first ran out, at one pace. */
static uint64_t cache_at_pace(const DriveParams *p, SimTime gap)
{
    Writer w;
    writer_init(&w, p);
    Paced pc = {&w, gap};
    w.total = p->user_capacity / (128 * KIB) * (128 * KIB);
    w.size = 128 * KIB;
    drive_set_done(w.d, paced_done, &pc);
    writer_submit(&w);
    while (w.done * w.size < w.total && sim_run(w.e, SIM_TIME_MAX))
        ;
    uint64_t at = drive_stats(w.d)->pslc_first_exhausted;
    char why[256];
    CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
    writer_release(&w);
    return at;
}


/* Host data written when the fill's folding phase ended. */
static uint64_t fold_end(const Writer *w)
{
    uint64_t end = 0;
    for (guint i = 0; i < w->samples->len; i++)
        if (g_array_index(w->samples, Sample, i).phase == PHASE_FOLDING)
            end = g_array_index(w->samples, Sample, i).host;
    return end;
}

/* A fill of the empty drive with a reserve: the cache is the one without
 * it (no native data to keep the reserve for), and as the folded data
 * makes the reserve whole, forced folding restores it on top of the
 * (b - 1) : 1 that keeps the free space level, so folding ends sooner.
 * Forced folds that paid that share's credit left the end where it was
 * without the reserve. */
static void test_fill_reserve(void)
{
    uint64_t cache[2], span[2];
    for (int k = 0; k < 2; k++) {
        DriveParams p;
        slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
        p.fold_idle_delay = 1000 * SIM_SEC;
        p.pslc_reserve = k ? 10 * 96 * 4096 - 1 : 0;
        uint64_t user = p.user_capacity / (128 * KIB) * (128 * KIB);
        Writer w;
        writer_init(&w, &p);
        writer_run(&w, user, 128 * KIB, 4, false);
        char why[256];
        CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
        const DriveStats *st = drive_stats(w.d);
        CU_ASSERT_FATAL(st->pslc_first_exhausted != UINT64_MAX);
        cache[k] = st->pslc_first_exhausted;
        CU_ASSERT_FATAL(fold_end(&w) > cache[k]);
        span[k] = fold_end(&w) - cache[k];
        writer_release(&w);
    }
    CUTEST_NEAR((double)cache[1], (double)cache[0], DIES * SLC_BLOCK);
    CU_ASSERT(span[1] + 2 * DIES * SLC_BLOCK < span[0]);
}

/* fold_background: folding in the die time host writes leave frees cache
 * as the host writes, so a slower host sees a larger cache. Without it the
 * cache is the same at any pace (the idle delay is far longer than the
 * gaps). A host that leaves no die time folds nothing ahead. */
static void test_fold_background_pace(void)
{
    DriveParams p;
    slc_drive(&p, 64, 0, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    p.fold_idle_delay = 1000 * SIM_SEC;
    /* a 128 KiB command takes 4 SLC units of 32 KiB, 2 on each die: 400 us */
    uint64_t fast = cache_at_pace(&p, 0), slow = cache_at_pace(&p, 2 * SIM_MS);
    CUTEST_NEAR((double)slow, (double)fast, DIES * SLC_BLOCK);
    p.fold_background = true;
    uint64_t bfast = cache_at_pace(&p, 0), bslow = cache_at_pace(&p, 2 * SIM_MS);
    printf("\n    cache seen: %.1f MiB at full pace, %.1f MiB with 2 ms gaps; "
           "fold_background: %.1f and %.1f MiB ", fast / 1048576.0, slow / 1048576.0,
           bfast / 1048576.0, bslow / 1048576.0);
    CU_ASSERT(bslow > slow + 4 * DIES * SLC_BLOCK);
    CU_ASSERT(bslow > bfast + 4 * DIES * SLC_BLOCK);
}

static void test_fill_native_first(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_CAPPED, NATIVE_FIRST);
    p.pslc_dynamic_cap = 10 * DIES * SLC_BLOCK;
    p.fold_idle_delay = 1000 * SIM_SEC;
    uint64_t user = p.user_capacity / (128 * KIB) * (128 * KIB);
    Writer w;
    writer_init(&w, &p);
    CUTEST_EQ(drive_stats(w.d)->pslc_limit_start, 12 * DIES * SLC_BLOCK);
    writer_run(&w, user, 128 * KIB, 4, false);
    const DriveStats *st = drive_stats(w.d);
    char why[256];
    CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
    CUTEST_NEAR((double)st->pslc_first_exhausted, 12.0 * DIES * SLC_BLOCK, DIES * SLC_BLOCK);
    /* forced folding starts when F - R < S / b: F = 52 - native blocks,
     * R = 12, S = 10, so after 52 - 15 = 37 native blocks per die (one of
     * them open) */
    uint64_t native_block = DIES * 96 * 4096ull;
    CUTEST_EQ(sample_at(&w, st->pslc_first_exhausted + 35 * native_block)->fold, 0);
    CU_ASSERT(sample_at(&w, st->pslc_first_exhausted + 38 * native_block)->fold > 0);
    CU_ASSERT(st->nand_write_bytes[CAUSE_FOLD] > 0);
    writer_release(&w);
}

/* Write, overwrite half, trim a piece, then idle: only valid data folds. */
static void test_idle_fold_valid_only(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    Writer w;
    writer_init(&w, &p);
    writer_run(&w, 2 * MIB, 64 * KIB, 4, false);
    w.next = 0;
    writer_run(&w, 1 * MIB, 64 * KIB, 4, false);
    drive_submit(w.d, &(DriveCmd){.op = IO_TRIM, .offset = 1536 * KIB, .length = 256 * KIB, .tag = w.issued++});
    CU_ASSERT_TRUE(flush_drive(&w));
    const DriveStats *st = drive_stats(w.d);
    CUTEST_EQ(st->host_slc_bytes, 3 * MIB);
    CUTEST_EQ(st->pslc_used, 2 * MIB - 256 * KIB);
    /* nothing folds before fold_idle_delay */
    SimTime quiet = sim_now(w.e);
    sim_run(w.e, quiet + p.fold_idle_delay - SIM_MS);
    CUTEST_EQ(st->nand_write_bytes[CAUSE_FOLD], 0);
    idle_out(w.e);
    CUTEST_EQ(st->pslc_used, 0);
    CUTEST_EQ(st->nand_write_bytes[CAUSE_FOLD], 2 * MIB - 256 * KIB);
    CUTEST_EQ(st->nand_write_bytes[CAUSE_GC], 0);
    /* every SLC block written was erased, 3 MiB / 128 KiB: the 8 blocks the
     * overwrite emptied and the 2 the TRIM emptied by their erase alone
     * (gc_reclaim_dead), the other 14 once folded */
    CUTEST_EQ(st->gc_blocks, 10);
    CUTEST_EQ(st->fold_blocks, 14);
    /* the folded data now takes native blocks: the runtime limit is the
     * sizing at that logical fill */
    CUTEST_EQ(st->pslc_limit, st->pslc_static + pslc_dynamic_limit_at(&p, (double)(2 * MIB - 256 * KIB) / (double)p.user_capacity));
    CU_ASSERT(st->pslc_limit < st->pslc_limit_start);
    char why[256];
    CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
    writer_release(&w);
}

/* A drive written past its cache goes native until it idles; a TRIM of
 * everything gives the room back: the emptied blocks are erased in the
 * die time the TRIM's processing leaves (gc_reclaim_dead), and writes go
 * to pSLC again at once, with no idle time. Without the TRIM they stay
 * native. */
static void test_trim_rearms_cache(void)
{
    for (int trim = 0; trim < 2; trim++) {
        DriveParams p;
        slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, NATIVE_FIRST);
        p.fold_idle_delay = 1000 * SIM_SEC;
        p.trim_entry_cost = 100 * SIM_US; /* the TRIM holds the controller ~0.6 s */
        uint64_t user = p.user_capacity / (128 * KIB) * (128 * KIB);
        Writer w;
        writer_init(&w, &p);
        writer_run(&w, user / 2, 128 * KIB, 4, false);
        const DriveStats *st = drive_stats(w.d);
        CU_ASSERT_FATAL(st->pslc_first_exhausted != UINT64_MAX);
        if (trim) {
            drive_submit(w.d, &(DriveCmd){.op = IO_TRIM, .length = user, .tag = w.issued++});
            CU_ASSERT_TRUE(flush_drive(&w));
        }
        uint64_t slc0 = st->host_slc_bytes, erased0 = st->gc_blocks;
        w.next = 0;
        writer_run(&w, 1 * MIB, 128 * KIB, 4, false);
        CU_ASSERT_TRUE(flush_drive(&w));
        if (trim) {
            CU_ASSERT(erased0 > 0); /* blocks emptied by the TRIM, erased meanwhile */
            CUTEST_EQ(st->host_slc_bytes - slc0, 1 * MIB);
        } else {
            CUTEST_EQ(st->host_slc_bytes - slc0, 0);
        }
        char why[256];
        CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
        writer_release(&w);
    }
}

/* One QD1 read of 4 KiB: its latency. */
static SimTime read_latency(Writer *w, uint64_t off)
{
    SimTime t0 = sim_now(w->e);
    SimTime t1 = 0;
    w->total = 0;
    drive_submit(w->d, &(DriveCmd){.op = IO_READ, .offset = off, .length = 4096, .tag = w->issued++});
    while (w->done < w->issued && sim_run(w->e, SIM_TIME_MAX))
        ;
    t1 = g_array_index(w->samples, Sample, w->samples->len - 1).t;
    return t1 - t0;
}

static void test_read_slc_vs_native(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    Writer w;
    writer_init(&w, &p);
    writer_run(&w, 256 * KIB, 64 * KIB, 1, false);
    CU_ASSERT_TRUE(flush_drive(&w));
    SimTime slc = read_latency(&w, 8192);
    idle_out(w.e);
    CUTEST_EQ(drive_stats(w.d)->pslc_used, 0);
    SimTime native = read_latency(&w, 8192);
    /* everything else equal, the difference is tR: 60 us TLC, 30 us SLC */
    CUTEST_EQ(native - slc, p.timing[CELL_TLC].t_read - p.timing[CELL_SLC].t_read);
    writer_release(&w);
}

/* A drive of p filled completely, left idle until folded (nothing in
 * SLC, the limit what a full drive keeps), then `total` bytes of random
 * 4 KiB writes: the host bytes they put in SLC, and the bytes folded
 * meanwhile. The drive stays open in *w. */
static void full_then_random(Writer *w, const DriveParams *p, uint64_t limit, uint64_t total,
                             uint64_t *slc, uint64_t *fold)
{
    uint64_t user = p->user_capacity / (4 * KIB) * (4 * KIB);
    writer_init(w, p);
    writer_run(w, user / (64 * KIB) * (64 * KIB), 64 * KIB, 4, false);
    CU_ASSERT_TRUE(flush_drive(w));
    idle_out(w->e);
    const DriveStats *st = drive_stats(w->d);
    CUTEST_EQ(st->pslc_used, 0);
    CUTEST_EQ(st->pslc_limit, limit);
    uint64_t slc0 = st->host_slc_bytes, fold0 = st->nand_write_bytes[CAUSE_FOLD];
    writer_run(w, total, 4 * KIB, 4, true);
    CU_ASSERT_TRUE(flush_drive(w));
    *slc = st->host_slc_bytes - slc0;
    *fold = st->nand_write_bytes[CAUSE_FOLD] - fold0;
    char why[256];
    CU_ASSERT_TRUE(drive_check(w->d, why, sizeof why));
}

/* Fill completely, idle until folded, then random 4 KiB writes: the static
 * part takes them first, then native. */
static void test_static_on_full_drive(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    uint64_t cap = pslc_static_capacity(&p), slc, fold;
    Writer w;
    full_then_random(&w, &p, cap, 3 * cap, &slc, &fold);
    const DriveStats *st = drive_stats(w.d);
    CUTEST_EQ(st->pslc_static, cap);
    CUTEST_EQ(slc, cap);
    CU_ASSERT(st->nand_write_bytes[CAUSE_HOST] > 0);
    /* and an idle drive empties the static part again */
    idle_out(w.e);
    CUTEST_EQ(st->pslc_used, 0);
    char why[256];
    CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
    writer_release(&w);
}

/* [pslc] floor: a cache the firmware keeps however full the drive, the
 * static part plus dynamic blocks lent from over-provisioning. The rule
 * gives no dynamic block at 100 %; with a floor of 5 SLC blocks a die (2
 * of them static) the full drive keeps 3 dynamic ones, random writes on it
 * take the whole floor in SLC before going native, forced folding leaves
 * it alone (native_first folds none of it), and idle folding empties it.
 * At 0 % the rule binds as before. */
static void test_floor_on_full_drive(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    uint64_t no_floor = pslc_dynamic_limit_at(&p, 0);
    p.pslc_floor = 5 * DIES * SLC_BLOCK;
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 0), no_floor);
    CUTEST_EQ(pslc_dynamic_limit_at(&p, 1.0), 3 * DIES * SLC_BLOCK);
    for (int native = 0; native < 2; native++) {
        p.fold_policy = native ? NATIVE_FIRST : FOLD_FIRST;
        uint64_t slc, fold;
        Writer w;
        full_then_random(&w, &p, p.pslc_floor, 3 * p.pslc_floor, &slc, &fold);
        CUTEST_EQ(slc, p.pslc_floor);
        /* fold_first folds the floor's data while the host writes
         * natively, as it does any cache once exhausted */
        if (native)
            CUTEST_EQ(fold, 0);
        else
            CU_ASSERT(fold > 0);
        idle_out(w.e);
        CUTEST_EQ(drive_stats(w.d)->pslc_used, 0);
        char why[256];
        CU_ASSERT_TRUE(drive_check(w.d, why, sizeof why));
        writer_release(&w);
    }
}

/* The static blocks take every burst and are emptied after each, so they
 * wear much faster than the pool: each burst of the static part's size on a
 * full drive erases every static block once; the pool takes one native
 * block of folded data per three SLC blocks. The groups add up to the
 * erase counter, and a prefilled drive starts unworn. */
static void test_wear_static_vs_pool(void)
{
    DriveParams p;
    slc_drive(&p, 64, 2, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    uint64_t user = p.user_capacity / (64 * KIB) * (64 * KIB);
    Writer w;
    writer_init(&w, &p);
    writer_run(&w, user, 64 * KIB, 4, false);
    CU_ASSERT_TRUE(flush_drive(&w));
    idle_out(w.e);
    DriveWear before;
    drive_wear(w.d, &before);
    const uint32_t bursts = 6;
    for (uint32_t k = 0; k < bursts; k++) {
        w.next = (uint64_t)k * p.pslc_static % user;
        writer_run(&w, p.pslc_static, 64 * KIB, 4, false);
        CU_ASSERT_TRUE(flush_drive(&w));
        idle_out(w.e);
    }
    DriveWear wr;
    drive_wear(w.d, &wr);
    CUTEST_EQ(wr.static_slc.blocks, 2 * DIES);
    CUTEST_EQ(wr.pool.blocks, 62 * DIES);
    CUTEST_EQ(wr.static_slc.erases + wr.pool.erases, drive_stats(w.d)->nand_erases);
    CUTEST_EQ(wr.static_slc.min - before.static_slc.min, bursts);
    CUTEST_EQ(wr.static_slc.max - before.static_slc.max, bursts);
    double pool_burst = (double)(wr.pool.erases - before.pool.erases) / wr.pool.blocks;
    CU_ASSERT(pool_burst > 0 && pool_burst < bursts / 4.0);
    CU_ASSERT(wr.pool.min <= wr.pool.max);
    writer_release(&w);

    g_autoptr(SimEngine) e = sim_engine_new();
    g_autoptr(Drive) d = drive_new(e, &p, 1);
    DrivePrefill pf = {.fill = 0.9, .random = true, .seed = 3};
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    drive_wear(d, &wr);
    CUTEST_EQ(wr.pool.erases + wr.static_slc.erases, 0);
    CUTEST_EQ(wr.pool.max, 0);
}

/* ---- Oracle -------------------------------------------------------------- */

/* Aligned writes (more of them, to keep the cache busy), reads, trims and
 * flushes at QD 1. */
static const OracleMix pslc_mix = {.max_pages = 16, .write_pct = 60, .unaligned = false};

static void run_oracle(const DriveParams *p, uint64_t steps)
{
    Oracle o;
    oracle_init(&o, p, true);
    SimRng r;
    sim_rng_init(&r, 42, p->fold_policy);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < steps; i++) {
        oracle_step(&o, &r, &pslc_mix);
        if (i % 700 == 699) /* an idle gap: some or all of the cache folds */
            oracle_idle(&o, p->fold_idle_delay + sim_rng_below(&r, 40) * SIM_MS);
        oracle_check(&o, i, &bad);
    }
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(o.mismatches, 0);
    CU_ASSERT(o.reads_checked > steps / 4);
    const DriveStats *st = drive_stats(o.d);
    CU_ASSERT(st->gc_blocks > 50);
    CU_ASSERT(st->fold_blocks > 20);
    CU_ASSERT(st->nand_write_bytes[CAUSE_FOLD] > 0);
    CU_ASSERT(st->host_slc_bytes > 0);
    CU_ASSERT(st->nand_write_bytes[CAUSE_HOST] > st->host_slc_bytes);
    oracle_release(&o);
}

static void test_oracle_fold_first(void)
{
    DriveParams p;
    slc_drive(&p, 24, 1, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    p.pslc_dynamic_share = 0.5;
    p.fold_idle_delay = 20 * SIM_MS;
    run_oracle(&p, 30000);
}

/* Folding in the die time host commands leave, with a firmware reserve:
 * data still reads back as written. */
static void test_oracle_fold_background(void)
{
    DriveParams p;
    slc_drive(&p, 24, 1, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    p.fold_idle_delay = 20 * SIM_MS;
    p.fold_background = true;
    p.pslc_reserve = 2 * 96 * 4096;
    run_oracle(&p, 30000);
}

static void test_oracle_native_first(void)
{
    DriveParams p;
    slc_drive(&p, 24, 1, PSLC_RULE_CAPPED, NATIVE_FIRST);
    p.pslc_dynamic_cap = 4 * DIES * SLC_BLOCK;
    p.fold_idle_delay = 20 * SIM_MS;
    p.fold_high_watermark = 0.5;
    p.gc_policy = GC_COST_BENEFIT;
    run_oracle(&p, 30000);
}

/* A floor above the static part, GC and folding forced on a small drive. */
static void test_oracle_floor(void)
{
    DriveParams p;
    slc_drive(&p, 24, 1, PSLC_RULE_FREE_SHARE, FOLD_FIRST);
    p.pslc_floor = 3 * DIES * SLC_BLOCK;
    p.fold_idle_delay = 20 * SIM_MS;
    run_oracle(&p, 30000);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"sizing_rules", test_sizing_rules},
        {"sizing with a reserve", test_sizing_reserve},
        {"fold_background: the cache grows the slower the host writes", test_fold_background_pace},
        {"fill_fold_first", test_fill_fold_first},
        {"fill with a reserve: the empty drive's cache, folding restores the reserve", test_fill_reserve},
        {"fill_native_first", test_fill_native_first},
        {"idle_fold_valid_only", test_idle_fold_valid_only},
        {"trim_rearms_cache", test_trim_rearms_cache},
        {"read_slc_vs_native", test_read_slc_vs_native},
        {"static_on_full_drive", test_static_on_full_drive},
        {"floor: the cache a full drive keeps", test_floor_on_full_drive},
        {"oracle_floor", test_oracle_floor},
        {"wear_static_vs_pool", test_wear_static_vs_pool},
        {"oracle_fold_first", test_oracle_fold_first},
        {"oracle_native_first", test_oracle_native_first},
        {"oracle_fold_background", test_oracle_fold_background},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("pslc", tests);
}
