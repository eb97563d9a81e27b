/*
 * test_gc.c - garbage collection against theory: the steady-state write
 * amplification of uniform random 4 KiB writes over a full drive, for each
 * victim policy and several over-provisioning levels; pacing; idle GC; a
 * dirty drive recovering after TRIM.
 *
 * FIFO cleaning has a closed form (Hu et al., SYSTOR 2009; Desnoyers,
 * SYSTOR 2012; Xiang and Kurkoski, arXiv:1110.4245): a block is reclaimed
 * after one pass over the physical space, T (1 - u) host writes later, and
 * each of its pages survives each host write with probability 1 - 1/U, so
 * its valid share u solves u = exp(-a (1 - u)) with a = T / U, and
 * WAF = 1 / (1 - u). Greedy takes the emptiest block and must do better than
 * FIFO under uniform traffic; cost-benefit weighs emptiness by age, which
 * says nothing under uniform traffic, so it falls between the two.
 */
#include "models/drive.h"
#include "tests/cutest.h"
#include "tests/steady_writes.h"
#include "tests/tiny_drive.h"

#include <math.h>
#include <string.h>

#define CHANNELS 4
#define BLOCKS 512 /* per die: 2048 blocks of 96 slots in all */

typedef struct Waf {
    double waf;     /* measured: NAND writes / host writes */
    double rho;     /* effective spare factor: slots in circulation / U - 1 */
    double closed;  /* FIFO's closed form at rho */
} Waf;

/* Fill the drive sequentially, then write it `passes` times over at random
 * (QD 32); WAF over the second half. */
static Waf steady_waf(GcPolicy policy, double op, double passes)
{
    DriveParams p;
    tiny_drive(&p, BLOCKS, op);
    p.channels = CHANNELS;
    p.user_capacity = (uint64_t)((double)drive_params_raw_capacity(&p) / (1.0 + op)) / 4096 * 4096;
    p.gc_policy = policy;
    Steady s;
    steady_start(&s, &p, 4096, 11, policy);
    DriveStats half;
    steady_run(&s, (uint64_t)(passes * (double)s.units), &half);
    const DriveStats *st = drive_stats(s.d);
    double host = (double)(st->nand_write_bytes[CAUSE_HOST] - half.nand_write_bytes[CAUSE_HOST]);
    double gc = (double)(st->nand_write_bytes[CAUSE_GC] - half.nand_write_bytes[CAUSE_GC]);
    Waf w = {.waf = (host + gc) / host};
    w.closed = steady_closed_waf(&s, CHANNELS, BLOCKS, (double)s.units, &w.rho);
    char why[256];
    drive_set_done(s.d, NULL, NULL);
    sim_run(s.e, SIM_TIME_MAX);
    CU_ASSERT_TRUE(drive_check(s.d, why, sizeof why));
    CU_ASSERT(st->gc_blocks > (uint64_t)(passes * CHANNELS * BLOCKS / 2));
    drive_free(s.d);
    sim_engine_free(s.e);
    return w;
}

static const double spare[] = {0.07, 0.15, 0.3, 0.5};

/* FIFO's measured WAF within 3% of its closed form at every spare factor
 * (the closed form is a mean-field limit; 2048 blocks come within ~1%). */
static void test_fifo_matches_closed_form(void)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(spare); i++) {
        Waf w = steady_waf(GC_FIFO, spare[i], 10);
        printf("\n    fifo, spare %.3f: WAF %.3f, closed form %.3f ", w.rho, w.waf, w.closed);
        CU_ASSERT(fabs(w.waf / w.closed - 1.0) < 0.03);
    }
}

/* Greedy below FIFO; cost-benefit between them. At low spare factors the
 * gaps are several percent; at 0.5 they shrink to ~1%. */
static void test_policies_ordered(void)
{
    for (unsigned i = 0; i < 2; i++) {
        Waf g = steady_waf(GC_GREEDY, spare[i], 10);
        Waf cb = steady_waf(GC_COST_BENEFIT, spare[i], 10);
        Waf f = steady_waf(GC_FIFO, spare[i], 10);
        printf("\n    spare %.3f: greedy %.3f, cost-benefit %.3f, fifo %.3f ", g.rho, g.waf, cb.waf,
               f.waf);
        CU_ASSERT(g.waf < f.waf * 0.98);
        CU_ASSERT(g.waf <= cb.waf && cb.waf < f.waf);
    }
}

/* Random 4 KiB writes at QD 32 on a drive filled in order: the latency of
 * each write, and when the first `burst` of them completed. */
typedef struct Pace {
    SimEngine *e;
    Drive *d;
    SimRng r;
    uint64_t pages, left, issued, done, total;
    SimTime *submit; /* per tag */
    SimTime worst, burst_end;
    double lat_sum;
} Pace;

static void pace_submit(Pace *p, uint64_t tag)
{
    p->submit[tag] = sim_now(p->e);
    drive_submit(p->d, &(DriveCmd){.op = IO_WRITE, .offset = sim_rng_below(&p->r, p->pages) * 4096, .length = 4096, .tag = tag});
    p->issued++;
}

static void pace_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Pace *p = ctx;
    if (tag >= 32)
        return; /* the fill */
    SimTime lat = sim_now(p->e) - p->submit[tag];
    p->worst = MAX(p->worst, lat);
    p->lat_sum += (double)lat;
    if (++p->done == p->total / 4)
        p->burst_end = sim_now(p->e);
    if (p->issued < p->total)
        pace_submit(p, tag);
}

static void pace_run(GcPacing pacing, uint32_t soft, Pace *p)
{
    DriveParams dp;
    tiny_drive(&dp, 64, 0.15);
    dp.gc_soft_blocks = soft;
    dp.gc_hard_blocks = 2;
    dp.gc_pacing = pacing;
    static SimTime submit[32];
    *p = (Pace){.e = sim_engine_new(), .submit = submit};
    p->d = drive_new(p->e, &dp, 1);
    p->pages = dp.user_capacity / 4096;
    sim_rng_init(&p->r, 3, 0);
    drive_set_done(p->d, pace_done, p);
    for (uint64_t i = 0; i < p->pages; i++) {
        drive_submit(p->d, &(DriveCmd){.op = IO_WRITE, .offset = i * 4096, .length = 4096, .tag = 1000});
        while (drive_outstanding(p->d) >= 32)
            sim_run(p->e, sim_now(p->e) + 100000);
    }
    while (drive_outstanding(p->d) > 0)
        sim_run(p->e, sim_now(p->e) + 100000);
    p->total = p->pages;
    for (uint64_t t = 0; t < 32; t++)
        pace_submit(p, t);
    sim_run(p->e, SIM_TIME_MAX);
    char why[256];
    CU_ASSERT_TRUE(drive_check(p->d, why, sizeof why));
    drive_free(p->d);
    sim_engine_free(p->e);
}

/* Just after a fill in order, burst writes host data first: its first
 * quarter of random writes ends before steady's, which pays each write's GC
 * share before the next host program. Steady must not buy that with worse
 * latency: its worst write is below burst's, and its mean within 25% of it.
 * With soft_blocks 16 above the ~8 spare blocks a die has, the fill itself
 * runs below the threshold with no victim to take (every block valid); the
 * debt it owed, carried over, used to hold the first random writes behind
 * tens of victims (first quarter 17 s, worst 564 ms, mean 207 ms against
 * burst's 1.5 s, 108 ms and 14 ms). With soft_blocks 4 the reserve is
 * entered during the random writes, when the first victims are still
 * nearly full. */
static void test_pacing(void)
{
    static const uint32_t softs[] = {16, 4};
    for (unsigned i = 0; i < G_N_ELEMENTS(softs); i++) {
        Pace steady, burst;
        pace_run(GC_PACE_STEADY, softs[i], &steady);
        pace_run(GC_PACE_BURST, softs[i], &burst);
        CUTEST_EQ(steady.done, steady.total);
        CUTEST_EQ(burst.done, burst.total);
        double sm = steady.lat_sum / steady.done, bm = burst.lat_sum / burst.done;
        printf("\n  soft %u, steady: first quarter %.1f ms, worst %.2f ms, mean %.3f ms\n"
               "  soft %u, burst:  first quarter %.1f ms, worst %.2f ms, mean %.3f ms",
               softs[i], steady.burst_end / 1e6, steady.worst / 1e6, sm / 1e6, softs[i],
               burst.burst_end / 1e6, burst.worst / 1e6, bm / 1e6);
        CU_ASSERT(burst.burst_end < steady.burst_end);
        CU_ASSERT(steady.worst < burst.worst);
        CU_ASSERT(sm < 1.25 * bm);
    }
}

/* A drive with one spare block a die (soft_blocks 2, hard_blocks 1; check
 * refuses it, built here directly) stalls under random overwrites: the
 * open host and GC blocks take the spare, and no full block has anything
 * to give back. drive_stall_reason() names that; a drive with 30% spare
 * runs to the end, and its free blocks do not count as a lock-up. */
static void test_stall_reason(void)
{
    for (int tight = 1; tight >= 0; tight--) {
        DriveParams p;
        tiny_drive(&p, 16, 0.3);
        if (tight) /* 15 of 16 blocks a die of user data */
            p.user_capacity = (uint64_t)15 * 96 * 4096 * 2;
        Steady s;
        steady_start(&s, &p, 4096, 5, 0);
        DriveStats half;
        uint64_t total = 4 * s.units;
        steady_run(&s, total, &half);
        char why[320];
        bool explained = drive_stall_reason(s.d, why, sizeof why);
        if (tight) {
            CU_ASSERT(s.done < total);
            CU_ASSERT(drive_outstanding(s.d) > 0);
            CU_ASSERT_TRUE(explained);
            CU_ASSERT(strstr(why, "hard_blocks = 1") != NULL);
            if (!explained || !strstr(why, "hard_blocks = 1"))
                fprintf(stderr, "\n  stall reason: %s\n", why);
        } else {
            CU_ASSERT(s.done >= total);
            CU_ASSERT_FALSE(explained); /* GC at work: its victims free a useful share */
        }
        drive_set_done(s.d, NULL, NULL);
        drive_free(s.d);
        sim_engine_free(s.e);
    }
}

/* ---- Idle GC ([gc] idle_blocks) ---------------------------------------- */

typedef struct Idle {
    Steady s;
    SimTime quiet;     /* the last random write completed */
    SimTime idle_end;  /* the last background operation ended */
    uint64_t free;     /* erased blocks then */
    uint64_t steps;    /* idle GC steps */
    SimTime read_busy; /* a 4 KiB read sent 1 ms after idle_delay: into idle GC */
    SimTime read_calm; /* the same read once everything has ended */
    SimTime burst;     /* 8 MiB of random 4 KiB writes after the idle time */
} Idle;

/* Completions while the test waits: the time of the last one. */
static void idle_done(void *ctx, const DriveCompletion *dc)
{
    Steady *s = ctx;
    (void)dc;
    s->done++;
}

/* A 4 KiB read of the first unit: its latency. */
static SimTime read_latency(Steady *s)
{
    SimTime t0 = sim_now(s->e);
    uint64_t before = s->done;
    drive_set_done(s->d, idle_done, s);
    drive_submit(s->d, &(DriveCmd){.op = IO_READ, .offset = 0, .length = 4096, .tag = 2});
    while (s->done == before && sim_run(s->e, sim_now(s->e) + 10 * SIM_US))
        ;
    return sim_now(s->e) - t0;
}

/* A tiny drive in steady state of random 4 KiB writes, then left alone:
 * how many blocks GC has erased when everything has ended, a read sent
 * while idle GC runs and one after, then a burst of writes. */
static void idle_run(uint32_t idle_blocks, SimTime pause, Idle *out)
{
    DriveParams p;
    tiny_drive(&p, 64, 0.3); /* 14 spare blocks a die, 2 of them open */
    p.gc_soft_blocks = 4;
    p.gc_hard_blocks = 2;
    p.gc_pacing = GC_PACE_BURST;
    p.gc_idle_blocks = idle_blocks;
    p.gc_idle_delay = SIM_SEC;
    p.gc_idle_pause = pause;
    *out = (Idle){0};
    Steady *s = &out->s;
    steady_start(s, &p, 4096, 9, 0);
    DriveStats half;
    steady_run(s, 2 * s->units, &half);
    drive_set_done(s->d, idle_done, s); /* the writes in flight end, none follows */
    while (drive_outstanding(s->d) > 0)
        sim_run(s->e, sim_now(s->e) + SIM_MS);
    out->quiet = sim_now(s->e);
    sim_run(s->e, out->quiet + p.gc_idle_delay + SIM_MS);
    out->read_busy = read_latency(s);
    sim_run(s->e, SIM_TIME_MAX);
    out->idle_end = sim_now(s->e);
    out->free = drive_stats(s->d)->free_blocks;
    out->steps = drive_stats(s->d)->gc_idle_steps;
    out->read_calm = read_latency(s);
    char why[256];
    CU_ASSERT_TRUE(drive_check(s->d, why, sizeof why));
    SimTime t0 = sim_now(s->e);
    s->done = 0;
    s->stop = 8 * 256;
    drive_set_done(s->d, steady_done, s);
    for (int k = 0; k < 32; k++)
        steady_submit(s);
    sim_run(s->e, SIM_TIME_MAX);
    out->burst = sim_now(s->e) - t0;
    CU_ASSERT_TRUE(drive_check(s->d, why, sizeof why));
    drive_set_done(s->d, NULL, NULL);
    drive_free(s->d);
    sim_engine_free(s->e);
}

/* Left alone after random writes, a drive without idle GC stops collecting
 * at the soft threshold; with idle_blocks 12 it collects to 10 free blocks
 * a die. A read sent while idle GC runs waits behind its step (no
 * suspend here), and the next burst of writes, finding free blocks, ends
 * sooner. With idle_pause each die rests after each step, so the idle work
 * ends no sooner than its steps times the pause. */
static void test_idle_gc(void)
{
    Idle off, on, paced;
    idle_run(0, 0, &off);
    idle_run(10, 0, &on);
    idle_run(10, 20 * SIM_MS, &paced);
    printf("\n  free blocks after idle: %" G_GUINT64_FORMAT " without idle GC, %" G_GUINT64_FORMAT
           " with (%" G_GUINT64_FORMAT " steps); read %.0f us during it, %.0f us after; "
           "8 MiB burst %.1f ms against %.1f ms; idle work %.0f ms, %.0f ms with a 20 ms pause",
           off.free, on.free, on.steps, on.read_busy / 1e3, on.read_calm / 1e3, on.burst / 1e6,
           off.burst / 1e6, (on.idle_end - on.quiet - SIM_SEC) / 1e6,
           (paced.idle_end - paced.quiet - SIM_SEC) / 1e6);
    CUTEST_EQ(off.steps, 0);
    CU_ASSERT(off.free < 2 * 10);
    CU_ASSERT(on.free >= 2 * 10);
    CU_ASSERT(on.steps > 0);
    CU_ASSERT(on.read_busy > on.read_calm + 100 * SIM_US);
    CUTEST_EQ(off.read_busy, off.read_calm);
    CU_ASSERT(on.burst < off.burst);
    CUTEST_EQ(paced.free, on.free);
    /* idle GC begins idle_delay (1 s) after the last write */
    CU_ASSERT(paced.idle_end - paced.quiet - SIM_SEC >= (paced.steps / 2 - 1) * 20 * SIM_MS);
    CU_ASSERT(on.idle_end - on.quiet - SIM_SEC < (on.steps / 2 - 1) * 20 * SIM_MS);
}

/* ---- A dirty drive and TRIM -------------------------------------------- */

/* Wait for every command in flight to end, none following. */
static void drain(Steady *s)
{
    drive_set_done(s->d, idle_done, s);
    while (drive_outstanding(s->d) > 0)
        sim_run(s->e, sim_now(s->e) + SIM_MS);
}

/* A tiny drive made dirty by random 4 KiB writes over its whole span, then
 * (with trim) its upper half trimmed, then random writes over its lower
 * half, once its size over: their write amplification. */
static double dirty_waf(bool trim)
{
    DriveParams p;
    tiny_drive(&p, 64, 0.1);
    p.gc_soft_blocks = 4;
    p.gc_hard_blocks = 2;
    Steady s;
    steady_start(&s, &p, 4096, 5, 0);
    DriveStats half;
    steady_run(&s, 2 * s.units, &half);
    drain(&s);
    s.units /= 2;
    if (trim) {
        drive_submit(s.d, &(DriveCmd){.op = IO_TRIM, .offset = s.units * 4096,
                                      .length = p.user_capacity - s.units * 4096, .tag = 3});
        drain(&s);
    }
    DriveStats before = *drive_stats(s.d);
    s.done = 0;
    s.stop = s.units;
    drive_set_done(s.d, steady_done, &s);
    for (int k = 0; k < 32; k++)
        steady_submit(&s);
    sim_run(s.e, SIM_TIME_MAX);
    drain(&s);
    const DriveStats *st = drive_stats(s.d);
    double host = (double)(st->nand_write_bytes[CAUSE_HOST] - before.nand_write_bytes[CAUSE_HOST]);
    double gc = (double)(st->nand_write_bytes[CAUSE_GC] - before.nand_write_bytes[CAUSE_GC]);
    char why[256];
    CU_ASSERT_TRUE(drive_check(s.d, why, sizeof why));
    drive_free(s.d);
    sim_engine_free(s.e);
    return (host + gc) / host;
}

/* A drive dirty from random writes recovers when the host trims what it no
 * longer needs: the trimmed half is spare space to GC, so the same writes
 * to the other half move far fewer valid pages than on the untrimmed drive
 * (where every page still counts as data). */
static void test_trim_recovery(void)
{
    double dirty = dirty_waf(false), trimmed = dirty_waf(true);
    printf("\n  WAF of random writes to half the span: %.2f dirty, %.2f with the other half trimmed",
           dirty, trimmed);
    CU_ASSERT(dirty > 2.0);
    CU_ASSERT(trimmed < 0.7 * dirty);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"fifo_matches_closed_form", test_fifo_matches_closed_form},
        {"policies_ordered", test_policies_ordered},
        {"pacing: steady and burst", test_pacing},
        {"stall_reason", test_stall_reason},
        {"idle GC: free blocks after idle, its cost to a read, the next burst", test_idle_gc},
        {"trim recovery: a dirty drive's WAF falls once half its span is trimmed", test_trim_recovery},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("gc", tests);
}
