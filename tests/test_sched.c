/*
 * test_sched.c - the flash scheduler: host reads ahead of background work,
 * erase suspend, and the limit on dies programming at once.
 */
#include "models/drive.h"
#include "models/sched.h"
#include "tests/cutest.h"
#include "tests/tiny_drive.h"

/* A closed loop: 8 random 16 KiB writes and one random 4 KiB read always
 * outstanding, so GC keeps erasing while reads arrive. */
typedef struct Mix {
    SimEngine *e;
    Drive *d;
    SimRng r;
    uint64_t pages;
    uint64_t reads;
    SimTime read_start, worst;
} Mix;

static void mix_submit(Mix *m, uint64_t tag)
{
    if (tag == 1) {
        m->read_start = sim_now(m->e);
        drive_submit(m->d, &(DriveCmd){.op = IO_READ, .offset = sim_rng_below(&m->r, m->pages) * 4096, .length = 4096, .tag = 1});
    } else {
        drive_submit(m->d, &(DriveCmd){.op = IO_WRITE, .offset = sim_rng_below(&m->r, m->pages / 4) * 16384, .length = 16384});
    }
}

static void mix_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Mix *m = ctx;
    if (tag == 1) {
        m->worst = MAX(m->worst, sim_now(m->e) - m->read_start);
        if (++m->reads == 20000) {
            sim_stop(m->e);
            return;
        }
    }
    mix_submit(m, tag);
}

/* Start m on a new drive of dp: eight 16 KiB writers and one 4 KiB
 * reader, each submitting again as it completes. */
static void mix_start(Mix *m, const DriveParams *dp)
{
    *m = (Mix){.e = sim_engine_new()};
    m->d = drive_new(m->e, dp, 1);
    m->pages = dp->user_capacity / 4096;
    sim_rng_init(&m->r, 5, 0);
    drive_set_done(m->d, mix_done, m);
    for (int i = 0; i < 8; i++)
        mix_submit(m, 0);
    mix_submit(m, 1);
}

/* The counters of the last worst_read() run, die time counted to its end. */
static DriveStats last_stats;
static SimTime last_end;

/* Returns the longest read latency. */
static SimTime worst_read(bool erase_suspend, bool program_suspend, uint64_t *erases)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    dp.erase_suspend = erase_suspend;
    dp.program_suspend = program_suspend;
    Mix m;
    mix_start(&m, &dp);
    sim_run(m.e, SIM_TIME_MAX);
    CUTEST_EQ(m.reads, 20000);
    char why[256];
    drive_set_done(m.d, NULL, NULL);
    sim_run(m.e, SIM_TIME_MAX); /* let the last commands finish */
    CU_ASSERT_TRUE(drive_check(m.d, why, sizeof why));
    *erases = drive_stats(m.d)->nand_erases;
    drive_account(m.d);
    last_stats = *drive_stats(m.d);
    last_end = sim_now(m.e);
    drive_free(m.d);
    sim_engine_free(m.e);
    return m.worst;
}

static void test_erase_suspend(void)
{
    uint64_t erases_off, erases_on;
    SimTime off = worst_read(false, false, &erases_off);
    SimTime on = worst_read(true, false, &erases_on);
    printf("\n    worst 4 KiB read: %.2f ms without suspend, %.2f ms with (%" G_GUINT64_FORMAT
           " and %" G_GUINT64_FORMAT " erases) ",
           off / 1e6, on / 1e6, erases_off, erases_on);
    CU_ASSERT(erases_off > 100 && erases_on > 100);
    /* tiny_drive: tBERS 4 ms, TLC tPROG 2 ms plus transfers. Without
     * suspend some read waits out most of an erase on top of whatever was
     * queued; with it, reads never wait for an erase. */
    CU_ASSERT(off > on + 1 * SIM_MS);
}

/* With programs suspended too, a read waits for no NAND operation but
 * another read: its latency is its own tR, transfers and overheads. */
static void test_program_suspend(void)
{
    uint64_t erases_e, erases_ep;
    SimTime erase_only = worst_read(true, false, &erases_e);
    SimTime both = worst_read(true, true, &erases_ep);
    printf("\n    worst 4 KiB read: %.2f ms with erase suspend, %.3f ms with program suspend too "
           "(%" G_GUINT64_FORMAT " erases) ",
           erase_only / 1e6, both / 1e6, erases_ep);
    CU_ASSERT(erases_ep > 10);
    /* tR 60 us + 20 us suspend overhead + the channel transfers already
     * queued (a GC unit moves 2 x 96 KiB at 400 MB/s) + the link: no read
     * waits out a die operation (the shortest, a TLC program, is 2 ms) */
    CU_ASSERT(both < SIM_MS);
    CU_ASSERT(both < erase_only);
}

/* Completion times of a burst. */
typedef struct Burst {
    SimEngine *e;
    uint32_t done;
    SimTime last;
} Burst;

static void burst_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Burst *b = ctx;
    if (tag != 1)
        return; /* only the reads */
    b->done++;
    b->last = sim_now(b->e);
}

/* Reads that suspend a program take turns on the die: 32 random 4 KiB
 * reads arriving while both dies program need at least 32 x tR / 2 of die
 * time, however many find the die suspended. */
static void test_suspended_reads_share_the_die(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    dp.erase_suspend = dp.program_suspend = true;
    dp.interface = HOSTIF_NVME; /* the write data is in within ~0.3 ms */
    dp.pcie_gen = 3;
    dp.pcie_lanes = 4;
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    Burst b = {.e = e};
    drive_set_done(d, burst_done, &b);
    uint64_t span = 2u << 20;
    for (uint64_t off = 0; off < span; off += 65536) {
        drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = 65536});
        sim_run(e, SIM_TIME_MAX);
    }
    drive_submit(d, &(DriveCmd){.op = IO_FLUSH});
    sim_run(e, SIM_TIME_MAX);
    /* 1 MiB more: both dies start 2 ms TLC programs */
    for (int k = 0; k < 8; k++)
        drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = span + k * 131072ull, .length = 131072});
    sim_run(e, sim_now(e) + 400 * SIM_US);
    CU_ASSERT(drive_stats(d)->nand_write_bytes[CAUSE_HOST] > span);
    b.done = 0;
    SimTime t0 = sim_now(e);
    SimRng r;
    sim_rng_init(&r, 3, 0);
    for (int k = 0; k < 24; k++)
        drive_submit(d, &(DriveCmd){.op = IO_READ, .offset = sim_rng_below(&r, span / 4096) * 4096, .length = 4096, .tag = 1});
    sim_run(e, SIM_TIME_MAX);
    CUTEST_EQ(b.done, 24);
    SimTime took = b.last - t0;
    printf("\n    24 reads during programs: %.0f us (at least %.0f us of die time) ",
           took / 1e3, 24 * dp.timing[CELL_TLC].t_read / 2 / 1e3);
    CU_ASSERT(took >= 24 * dp.timing[CELL_TLC].t_read / 2);
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    drive_free(d);
    sim_engine_free(e);
}

/* Time to read back `span` bytes written sequentially, in 128 KiB reads at
 * QD 8, on the tiny drive cut to one die, behind a fast link, with a
 * channel of `rate`. */
static SimTime seq_read_time(bool cache_read, uint64_t rate, uint64_t span)
{
    DriveParams dp;
    tiny_drive(&dp, 64, 0.3);
    dp.cache_read = cache_read;
    dp.interface = HOSTIF_NVME;
    dp.pcie_gen = 4;
    dp.pcie_lanes = 4;
    dp.channel_rate = rate;
    dp.channels = 1; /* one die: every round of the read is on it */
    dp.user_capacity /= 2;
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    Burst b = {.e = e};
    drive_set_done(d, burst_done, &b);
    for (uint64_t off = 0; off < span; off += 131072) {
        drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = 131072});
        sim_run(e, SIM_TIME_MAX);
    }
    drive_submit(d, &(DriveCmd){.op = IO_FLUSH});
    sim_run(e, SIM_TIME_MAX);
    sim_run(e, sim_now(e) + 100 * SIM_MS); /* nothing left in the background */
    SimTime t0 = sim_now(e);
    uint64_t next = 0;
    for (int k = 0; k < 8; k++, next += 131072)
        drive_submit(d, &(DriveCmd){.op = IO_READ, .offset = next, .length = 131072, .tag = 1});
    while (b.done < span / 131072) {
        uint32_t before = b.done;
        sim_run(e, SIM_TIME_MAX);
        for (uint32_t k = before; k < b.done && next < span; k++, next += 131072)
            drive_submit(d, &(DriveCmd){.op = IO_READ, .offset = next, .length = 131072, .tag = 1});
    }
    SimTime took = b.last - t0;
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    drive_free(d);
    sim_engine_free(e);
    return took;
}

/* Cache read overlaps a die's next tR with the data-out of the last page:
 * a die then reads a round of planes x 16 KiB every max(tR, out) instead of
 * every tR + out. One die of 2 planes, TLC tR 60 us: with a channel of
 * 1.6 GB/s (out 20.5 us) the die bounds the rate, with 400 MB/s (out 82 us)
 * the channel does. */
static void test_cache_read(void)
{
    const uint64_t span = 8u << 20, round = 2 * 16384;
    const double tr = 60e3;
    static const uint64_t rates[] = {1600000000, 400000000};
    for (unsigned k = 0; k < G_N_ELEMENTS(rates); k++) {
        double out = round * 1e9 / rates[k];
        double off = seq_read_time(false, rates[k], span);
        double on = seq_read_time(true, rates[k], span);
        double bound_off = span / round * (tr + out);
        double bound_on = span / round * MAX(tr, out);
        printf("\n    8 MiB over a %.1f GB/s channel: %.0f us without cache read (bound %.0f), "
               "%.0f us with (bound %.0f) ",
               rates[k] / 1e9, off / 1e3, bound_off / 1e3, on / 1e3, bound_on / 1e3);
        CU_ASSERT(off >= bound_off && off < bound_off * 1.05);
        CU_ASSERT(on >= bound_on && on < bound_on * 1.05);
        if (tr > out)
            CU_ASSERT(on < off * 0.8);
    }
}

/* Die time by activity. One program unit alone: the die holds it for its
 * transfer and tPROG, the channel for the transfer, exactly. Then the
 * read, write and GC mix with suspend on: no die time counted twice (the
 * sum stays within dies x time), every read's tR counted, the dies busy
 * nearly all the time. */
static void test_die_time(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    uint64_t unit = 2 * 16384 * 3; /* 2 planes x 16 KiB x 3 bits: one TLC program */
    drive_submit(d, &(DriveCmd){.op = IO_WRITE, .length = unit});
    drive_submit(d, &(DriveCmd){.op = IO_FLUSH, .tag = 1});
    sim_run(e, SIM_TIME_MAX);
    drive_account(d);
    const DriveStats *st = drive_stats(d);
    SimTime xfer = (SimTime)(unit * 1e9 / 400e6 + 0.5); /* 400 MT/s x 8 bits */
    CUTEST_EQ(st->die_busy_ns[WORK_HOST], xfer + 2 * SIM_MS);
    CUTEST_EQ(st->chan_busy_ns, xfer);
    for (int w = 0; w < DIE_WORKS; w++)
        if (w != WORK_HOST)
            CUTEST_EQ(st->die_busy_ns[w], 0);
    drive_free(d);
    sim_engine_free(e);

    /* two passes: the data moves in for each, tPROG is their sum */
    dp.timing[CELL_TLC].two_pass = true;
    e = sim_engine_new();
    d = drive_new(e, &dp, 1);
    drive_submit(d, &(DriveCmd){.op = IO_WRITE, .length = unit});
    drive_submit(d, &(DriveCmd){.op = IO_FLUSH, .tag = 1});
    sim_run(e, SIM_TIME_MAX);
    drive_account(d);
    st = drive_stats(d);
    CUTEST_EQ(st->die_busy_ns[WORK_HOST], 2 * xfer + 2 * SIM_MS);
    CUTEST_EQ(st->chan_busy_ns, 2 * xfer);
    CUTEST_EQ(st->host_bytes[IO_WRITE], unit);
    drive_free(d);
    sim_engine_free(e);
    dp.timing[CELL_TLC].two_pass = false;

    uint64_t erases;
    worst_read(true, true, &erases);
    const DriveStats *m = &last_stats;
    uint64_t sum = 0;
    for (int w = 0; w < DIE_WORKS; w++)
        sum += m->die_busy_ns[w];
    printf("\n    2 dies over %.3f s: read %.1f%%, host %.1f%%, gc %.1f%%, erase %.1f%%, idle %.1f%% ",
           last_end / 1e9, 100.0 * m->die_busy_ns[WORK_READ] / (2.0 * last_end),
           100.0 * m->die_busy_ns[WORK_HOST] / (2.0 * last_end),
           100.0 * m->die_busy_ns[WORK_GC] / (2.0 * last_end),
           100.0 * m->die_busy_ns[WORK_ERASE] / (2.0 * last_end), 100.0 - 100.0 * sum / (2.0 * last_end));
    CU_ASSERT(sum <= 2 * last_end);
    CU_ASSERT(sum > 2 * last_end * 9 / 10);
    CU_ASSERT(m->die_busy_ns[WORK_READ] >= 20000 * 60 * SIM_US);
    CU_ASSERT(m->die_busy_ns[WORK_GC] > 0 && m->die_busy_ns[WORK_ERASE] > 0);
    CUTEST_EQ(m->die_busy_ns[WORK_FOLD] + m->die_busy_ns[WORK_MAP], 0);
    CU_ASSERT(m->chan_busy_ns <= 2 * last_end);
}

/* A source that counts its offers and takes none; any() answers may. */
typedef struct Probe {
    bool may;
    uint32_t offers, asked;
} Probe;

static bool probe_try(void *ctx, uint32_t die)
{
    (void)die;
    ((Probe *)ctx)->offers++;
    return false;
}

static bool probe_any(void *ctx)
{
    Probe *p = ctx;
    p->asked++;
    return p->may;
}

/* sched_kick_all() offers a source to no die while it says none may want
 * it, and to every idle die once it may; a source without a check is
 * offered to every idle die. The drive's own sources have nothing to do on
 * an empty drive, and their counts agree with its dies (drive_check). */
static void test_offers_only_where_wanted(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    uint32_t dies = drive_params_dies(&dp);
    Probe checked = {.may = false}, plain = {0};
    sched_add(d, 1000, probe_try, probe_any, &checked, false);
    sched_kick_all(d);
    CUTEST_EQ(checked.offers, 0);
    CU_ASSERT(checked.asked > 0);
    checked.may = true;
    sched_kick_all(d);
    CUTEST_EQ(checked.offers, dies);
    sched_add(d, 1001, probe_try, NULL, &plain, false);
    checked.may = false;
    sched_kick_all(d);
    CUTEST_EQ(checked.offers, dies);
    CUTEST_EQ(plain.offers, dies);
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    drive_free(d);
    sim_engine_free(e);
}

/* A watched source (sched_watch()) that said no is not asked again until
 * woken; a yes it gave without a wake is missed, and sched_check() says
 * so; woken, it is asked and offered to every idle die. */
static void test_watched_asked_when_woken(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    uint32_t dies = drive_params_dies(&dp);
    Probe w = {.may = false};
    sched_add(d, 1000, probe_try, probe_any, &w, false);
    sched_watch(d, probe_any, &w);
    sched_kick_all(d);
    CUTEST_EQ(w.asked, 1);
    sched_kick_all(d);
    CUTEST_EQ(w.asked, 1);
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    w.may = true; /* and no wake */
    sched_kick_all(d);
    CUTEST_EQ(w.offers, 0);
    CU_ASSERT_FALSE(drive_check(d, why, sizeof why));
    sched_wake(d, probe_any, &w);
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    sched_kick_all(d);
    CUTEST_EQ(w.offers, dies);
    /* a source added later keeps it watched */
    Probe later = {0};
    sched_add(d, 1001, probe_try, NULL, &later, false);
    w.may = false;
    uint32_t asked = w.asked;
    sched_kick_all(d);
    sched_kick_all(d);
    CUTEST_EQ(w.asked, asked + 1);
    drive_free(d);
    sim_engine_free(e);
}

/* GC's sources are watched: on a drive that collects all the time, each
 * count they ask about wakes them when it grows (drive_check() every
 * 100 us fails on a no that turned into a yes unseen), and GC keeps up. */
static void test_gc_woken(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    Mix m;
    mix_start(&m, &dp);
    bool ok = true;
    char why[256] = "";
    while (ok && m.reads < 3000) {
        sim_run(m.e, sim_now(m.e) + 100 * SIM_US);
        ok = drive_check(m.d, why, sizeof why);
    }
    if (!ok)
        printf("\n    %s ", why);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT(drive_stats(m.d)->gc_blocks > 0);
    drive_set_done(m.d, NULL, NULL);
    sim_run(m.e, SIM_TIME_MAX);
    drive_free(m.d);
    sim_engine_free(m.e);
}

/* Host MB/s of `span` bytes written sequentially in 128 KiB commands at QD
 * 8 and flushed, on the tiny drive with 8 dies behind a fast link, with at
 * most `limit` dies programming at once (0: no limit); the invariants, the
 * limit among them, are checked every 50 us of it. */
static double seq_write_mbps(uint32_t limit, uint64_t span)
{
    DriveParams dp;
    tiny_drive(&dp, 64, 0.3);
    dp.channels = 4;
    dp.ces_per_channel = 2;
    dp.interface = HOSTIF_NVME;
    dp.pcie_gen = 4;
    dp.pcie_lanes = 4;
    dp.write_buffer = 4u << 20;
    dp.ctrl_max_program_dies = limit;
    uint64_t raw = drive_params_raw_capacity(&dp);
    dp.user_capacity = (uint64_t)((double)raw / 1.3) / 4096 * 4096;
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    Burst b = {.e = e};
    drive_set_done(d, burst_done, &b);
    uint64_t next = 0;
    for (int k = 0; k < 8; k++, next += 131072)
        drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = next, .length = 131072, .tag = 1});
    bool ok = true;
    char why[256] = "";
    while (b.done < span / 131072) {
        uint32_t before = b.done;
        sim_run(e, sim_now(e) + 50 * SIM_US);
        ok = ok && drive_check(d, why, sizeof why);
        for (uint32_t k = before; k < b.done && next < span; k++, next += 131072)
            drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = next, .length = 131072, .tag = 1});
    }
    drive_submit(d, &(DriveCmd){.op = IO_FLUSH, .tag = 1}); /* its end: all programmed */
    sim_run(e, SIM_TIME_MAX);
    if (!ok)
        printf("\n    %s ", why);
    CU_ASSERT_TRUE(ok);
    double mbps = span * 1e3 / (double)b.last;
    drive_free(d);
    sim_engine_free(e);
    return mbps;
}

/* [controller] max_program_dies: with at most 2 of 8 dies programming at
 * once, sequential writes move at most 2 program units (96 KiB) per TLC
 * tPROG (2 ms), 98 MB/s, and nearly that; without the limit the 8 dies
 * write over three times as fast, and a limit of 8 changes nothing. */
static void test_program_limit(void)
{
    const uint64_t span = 24u << 20;
    double free_run = seq_write_mbps(0, span), two = seq_write_mbps(2, span);
    double eight = seq_write_mbps(8, span);
    double bound = 2 * 96 * 1024 / 2e-3 / 1e6;
    printf("\n    24 MiB on 8 dies: %.1f MB/s, %.1f with 2 programming at once (bound %.1f), "
           "%.1f with 8 ",
           free_run, two, bound, eight);
    CU_ASSERT(two <= bound && two > bound * 0.8);
    CU_ASSERT(free_run > 3 * two);
    CU_ASSERT(eight == free_run);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"erase_suspend", test_erase_suspend},
        {"program_suspend", test_program_suspend},
        {"suspended_reads_share_the_die", test_suspended_reads_share_the_die},
        {"cache_read", test_cache_read},
        {"die_time", test_die_time},
        {"offers only where wanted", test_offers_only_where_wanted},
        {"watched asked when woken", test_watched_asked_when_woken},
        {"gc woken", test_gc_woken},
        {"program limit", test_program_limit},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("sched", tests);
}
