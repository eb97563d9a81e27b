/*
 * test_ftl.c - the page-mapped FTL under random host traffic on tiny
 * drives: invariants after every operation, an integrity oracle for every
 * read, GC reclaiming space, TRIM and FLUSH.
 */
#include "models/drive.h"
#include "models/hostif.h"
#include "models/map_tab.h"
#include "tests/cutest.h"
#include "tests/oracle.h"
#include "tests/tiny_drive.h"

#include <stdlib.h>

/* Aligned and unaligned writes, reads, trims and flushes at QD 1. */
static const OracleMix ftl_mix = {.max_pages = 8, .write_pct = 55, .unaligned = true};

static void run_oracle_params(const DriveParams *p, uint64_t steps, uint64_t check_every)
{
    Oracle o;
    oracle_init(&o, p, false);
    SimRng r;
    sim_rng_init(&r, 99, p->gc_policy);
    char why[256];
    uint64_t bad = 0;
    for (uint64_t i = 0; i < steps; i++) {
        oracle_step(&o, &r, &ftl_mix);
        if (i % check_every == 0 && !drive_check(o.d, why, sizeof why)) {
            if (bad++ == 0)
                fprintf(stderr, "step %" G_GUINT64_FORMAT ": %s\n", i, why);
        }
    }
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(o.mismatches, 0);
    CU_ASSERT(o.reads_checked > steps / 2);
    const DriveStats *st = drive_stats(o.d);
    /* the tiny drive was written many times over: GC must have run */
    CU_ASSERT(st->gc_blocks > 100);
    CU_ASSERT(st->nand_write_bytes[CAUSE_GC] > 0);
    CU_ASSERT(st->nand_erases > 100);
    if (p->l2p_kind != L2P_DRAM) {
        /* the cache thrashed: pages loaded, written back, map blocks collected */
        CU_ASSERT(st->l2p_misses > steps / 10);
        CU_ASSERT(st->l2p_writebacks > steps / 10);
        CU_ASSERT(st->nand_write_bytes[CAUSE_MAP] == st->l2p_writebacks * p->page_size);
    } else {
        CUTEST_EQ(st->l2p_hits + st->l2p_misses + st->l2p_writebacks, 0);
    }
    oracle_release(&o);
}

static void run_oracle(uint32_t blocks, double op, uint64_t steps, uint64_t check_every, GcPolicy gc)
{
    DriveParams p;
    tiny_drive(&p, blocks, op);
    p.gc_policy = gc;
    run_oracle_params(&p, steps, check_every);
}

/* A mapping cache of one or a few translation pages (made to map 256 KiB
 * each, so that the tiny drive has ~27): every read and write misses often, translation pages
 * move between cache, write-back queue, map blocks and GC. The oracle and
 * the invariants (l2p_check: directory, map-block valid counts, no update
 * lost by the cache) must hold after every operation. */
static void test_oracle_tiny_cache(void)
{
    static const struct {
        L2pKind kind;
        uint64_t pages;
        TrimPolicy trim;
        bool prefetch, suspend, cache_read;
    } cases[] = {
        {L2P_HMB, 1, TRIM_IMMEDIATE, false, false, false},
        /* two-pass TLC programs (below), with suspend */
        {L2P_HMB, 1, TRIM_DEFERRED, false, true, false},
        {L2P_SRAM, 2, TRIM_DEFERRED, true, false, false},
        {L2P_HMB, 3, TRIM_DEFERRED, false, false, false},
        /* translation-page loads that suspend programs and erases */
        {L2P_HMB, 1, TRIM_IMMEDIATE, false, true, false},
        /* and pipelined by cache read, the die sensing while data moves out */
        {L2P_HMB, 1, TRIM_DEFERRED, false, true, true},
        {L2P_HMB, 2, TRIM_IMMEDIATE, true, false, true},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        DriveParams p;
        tiny_drive(&p, 24, 0.3);
        p.l2p_kind = cases[i].kind;
        p.l2p_cache = cases[i].pages * p.page_size;
        p.l2p_prefetch = cases[i].prefetch;
        p.trim_policy = cases[i].trim;
        p.erase_suspend = p.program_suspend = cases[i].suspend;
        p.cache_read = cases[i].cache_read;
        p.timing[CELL_TLC].two_pass = i == 1;
        p.l2p_tp_entries = 64; /* 256 KiB of span: ~27 translation pages */
        p.trim_entry_cost = 20;
        p.hmb_latency = 1000;
        run_oracle_params(&p, 60000, 1);
    }
}

/* The same with larger drives and a check every 1000 operations. */
static void test_oracle_cache_long(void)
{
    DriveParams p;
    tiny_drive(&p, 64, 0.15);
    p.l2p_kind = L2P_HMB;
    p.l2p_cache = 2 * p.page_size;
    p.l2p_tp_entries = 128;
    p.trim_policy = TRIM_DEFERRED;
    run_oracle_params(&p, 300000, 1000);
}

/* Invariants after every single operation. */
static void test_check_every_op(void) { run_oracle(16, 0.3, 100000, 1, GC_GREEDY); }

/* A million operations with the oracle on every read. */
static void test_oracle_million(void) { run_oracle(24, 0.3, 1000000, 5000, GC_GREEDY); }

static void test_oracle_policies(void)
{
    run_oracle(16, 0.3, 100000, 100, GC_COST_BENEFIT);
    run_oracle(16, 0.3, 100000, 100, GC_FIFO);
}

/* map_dense_claim(), the one pass a stream's fresh pages take into the
 * write buffer, against map_dense_empty() and map_dense_fill() and the
 * lpns stored one by one: entries empty up to a random point (or all),
 * runs of every length around the eight a step, in narrow and wide
 * entries. */
static void claim_as_general(bool wide)
{
    char *saved = g_strdup(g_getenv("FTLSIM_MAP_STORE"));
    if (wide)
        g_setenv("FTLSIM_MAP_STORE", "wide", TRUE);
    else
        g_unsetenv("FTLSIM_MAP_STORE");
    DriveParams p;
    tiny_drive(&p, 16, 0.1);
    g_autoptr(SimEngine) e = sim_engine_new();
    g_autoptr(Drive) d = drive_new(e, &p, 1);
    if (saved)
        g_setenv("FTLSIM_MAP_STORE", saved, TRUE);
    else
        g_unsetenv("FTLSIM_MAP_STORE");
    g_free(saved);
    CUTEST_REQUIRE_PTR(d);
    CU_ASSERT_EQUAL(drive_map_narrow(d), !wide);
    SimRng r;
    sim_rng_init(&r, 17, wide);
    uint64_t bad = 0;
    for (int t = 0; t < 4000; t++) {
        enum { CAP = 80 };
        uint64_t a[CAP], b[CAP], ra[CAP], rb[CAP]; /* entries (narrow: two a word), lpns */
        uint32_t n = (uint32_t)sim_rng_below(&r, 70), o = (uint32_t)sim_rng_below(&r, 9);
        uint64_t used = sim_rng_below(&r, n + 2); /* the first entry not empty (n, n + 1: none) */
        uint64_t v = BUF_MARK + sim_rng_below(&r, 1u << 20), lpn = sim_rng_below(&r, 1ull << 40);
        memset(a, 0, sizeof a);
        for (uint32_t k = 0; k < CAP; k++) {
            /* empty in [o, o + used), not at o + used, either elsewhere */
            uint64_t x = sim_rng_next(&r) | 1;
            if (k >= o && k < o + used)
                continue;
            if (k != o + used && sim_rng_below(&r, 2) == 0)
                continue;
            if (wide)
                a[k] = x;
            else
                ((uint32_t *)a)[k] = (uint32_t)x;
        }
        memcpy(b, a, sizeof a);
        for (uint32_t k = 0; k < CAP; k++)
            ra[k] = rb[k] = NO_LPN;
        uint32_t k1 = map_dense_claim(d, a, o, n, v, ra, lpn);
        uint32_t k2 = map_dense_empty(d, b, o, n);
        map_dense_fill(d, b, o, k2, v);
        for (uint32_t k = 0; k < k2; k++)
            rb[k] = lpn + k;
        bad += k1 != k2 || memcmp(a, b, sizeof a) != 0 || memcmp(ra, rb, sizeof ra) != 0;
        CUTEST_EQ(k2, MIN(used, n));
    }
    CUTEST_EQ(bad, 0);
}

static void test_claim_narrow(void) { claim_as_general(false); }
static void test_claim_wide(void) { claim_as_general(true); }

/* Reads of never-written or trimmed data do not touch NAND. */
static void test_unmapped_reads(void)
{
    DriveParams p;
    tiny_drive(&p, 16, 0.3);
    Oracle o;
    oracle_init(&o, &p, false);
    o.last_op = IO_READ;
    o.last_off = 0;
    o.last_len = 65536;
    drive_submit(o.d, &(DriveCmd){.op = IO_READ, .length = 65536});
    sim_run(o.e, SIM_TIME_MAX);
    CUTEST_EQ(o.done, 1);
    CUTEST_EQ(drive_stats(o.d)->nand_read_bytes, 0);
    CUTEST_EQ(drive_stats(o.d)->host_bytes[IO_READ], 65536);
    oracle_release(&o);
}

/* FLUSH waits until the buffer is on NAND; a TRIM then unmaps it. */
static void test_flush_and_trim(void)
{
    DriveParams p;
    tiny_drive(&p, 16, 0.3);
    Oracle o;
    oracle_init(&o, &p, false);
    o.last_op = IO_WRITE;
    drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .length = 8192});
    drive_submit(o.d, &(DriveCmd){.op = IO_FLUSH, .tag = 1});
    sim_run(o.e, SIM_TIME_MAX);
    CUTEST_EQ(o.done, 2);
    CU_ASSERT(drive_lookup(o.d, 0) != DRIVE_UNMAPPED && drive_lookup(o.d, 0) != DRIVE_BUFFERED);
    CUTEST_EQ(drive_stats(o.d)->nand_write_bytes[CAUSE_HOST], 8192);
    drive_submit(o.d, &(DriveCmd){.op = IO_TRIM, .length = 8192, .tag = 2});
    sim_run(o.e, SIM_TIME_MAX);
    CUTEST_EQ(drive_lookup(o.d, 0), DRIVE_UNMAPPED);
    CUTEST_EQ(drive_lookup(o.d, 1), DRIVE_UNMAPPED);
    char why[256];
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    oracle_release(&o);
}

/* A 512-byte write into a 4 KiB unit on NAND merges with it: the unit is
 * read first (at least its tR), and that time is the write's merge part;
 * the parts of each command add up to its latency as the host sees it. */
static void test_latency_parts(void)
{
    DriveParams p;
    tiny_drive(&p, 16, 0.3);
    Oracle o;
    oracle_init(&o, &p, false);
    o.last_op = IO_WRITE;
    drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .length = 65536});
    drive_submit(o.d, &(DriveCmd){.op = IO_FLUSH, .tag = 1});
    sim_run(o.e, SIM_TIME_MAX);
    const DriveStats *st = drive_stats(o.d);
    DriveStats before = *st;
    SimTime t0 = sim_now(o.e);
    drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .offset = 4096 + 512, .length = 512, .tag = 2});
    sim_run(o.e, SIM_TIME_MAX);
    SimTime took = 0;
    for (int k = 0; k < WRITE_PARTS; k++)
        took += st->write_parts_ns[k] - before.write_parts_ns[k];
    CUTEST_EQ(st->write_parts_n - before.write_parts_n, 1);
    CU_ASSERT(st->write_parts_ns[WPART_MERGE] - before.write_parts_ns[WPART_MERGE] >=
              p.timing[CELL_TLC].t_read);
    /* the drive went idle after the write completed: it took at most the
     * time that passed, and its parts are all of its latency */
    CU_ASSERT(took > 0 && took <= sim_now(o.e) - t0);
    /* a read of the unit on the idle drive (the buffer was flushed in its
     * idle time): no wait for the die, its tR and transfer in the NAND part */
    before = *st;
    o.last_op = IO_READ;
    o.last_off = 4096;
    o.last_len = 4096;
    drive_submit(o.d, &(DriveCmd){.op = IO_READ, .offset = 4096, .length = 4096, .tag = 3});
    sim_run(o.e, SIM_TIME_MAX);
    CUTEST_EQ(st->read_parts_n - before.read_parts_n, 1);
    CUTEST_EQ(st->read_parts_ns[PART_DIE_WAIT] - before.read_parts_ns[PART_DIE_WAIT], 0);
    CU_ASSERT(st->read_parts_ns[PART_NAND] - before.read_parts_ns[PART_NAND] >=
              p.timing[CELL_TLC].t_read);
    CUTEST_EQ(o.mismatches, 0);
    oracle_release(&o);
}

/* Completion times by tag, for the queueing tests. */
typedef struct Times {
    SimEngine *e;
    SimTime at[64];
} Times;

static void record_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Times *t = ctx;
    t->at[tag] = sim_now(t->e);
}

/* The tiny drive with blocks blocks per plane and 30% spare, on SATA or
 * on NVMe over PCIe 3.0 x4. */
static void tiny_drive_on(DriveParams *p, uint32_t blocks, HostIfKind iface)
{
    tiny_drive(p, blocks, 0.3);
    p->interface = iface;
    p->pcie_gen = 3;
    p->pcie_lanes = 4;
}

/* Four reads, a TRIM of 512 KiB (128 mapped entries at 10 us each), four
 * more reads, all submitted at once; completion times in t (tags 0-3, 8,
 * 16-19). */
static void trim_among_reads(HostIfKind iface, Times *t)
{
    DriveParams p;
    tiny_drive_on(&p, 16, iface);
    p.trim_policy = TRIM_IMMEDIATE;
    p.trim_entry_cost = 10 * SIM_US;
    g_autoptr(SimEngine) e = sim_engine_new();
    g_autoptr(Drive) d = drive_new(e, &p, 1);
    *t = (Times){.e = e};
    drive_set_done(d, record_done, t);
    for (uint64_t off = 0; off < (2u << 20); off += 65536) {
        drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = 65536, .tag = 63});
        sim_run(e, SIM_TIME_MAX);
    }
    drive_submit(d, &(DriveCmd){.op = IO_FLUSH, .tag = 63});
    sim_run(e, SIM_TIME_MAX);
    for (uint64_t k = 0; k < 4; k++)
        drive_submit(d, &(DriveCmd){.op = IO_READ, .offset = (1u << 20) + k * 65536, .length = 65536, .tag = k});
    drive_submit(d, &(DriveCmd){.op = IO_TRIM, .length = 512 * 1024, .tag = 8});
    for (uint64_t k = 0; k < 4; k++)
        drive_submit(d, &(DriveCmd){.op = IO_READ, .offset = (1u << 20) + (4 + k) * 65536, .length = 65536, .tag = 16 + k});
    sim_run(e, SIM_TIME_MAX);
    CUTEST_EQ(drive_lookup(d, 0), DRIVE_UNMAPPED);
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
}

/* On SATA, TRIM is a non-queued command: it starts once the reads before it
 * have completed, takes its controller time, and the reads after it wait
 * for its end. On NVMe it is queued: it starts at once, so it ends sooner. */
static void test_sata_trim_non_queued(void)
{
    Times sata, nvme;
    trim_among_reads(HOSTIF_SATA, &sata);
    trim_among_reads(HOSTIF_NVME, &nvme);
    SimTime before = 0;
    for (int k = 0; k < 4; k++) {
        CU_ASSERT(sata.at[k] > 0 && sata.at[k] < sata.at[8]);
        before = MAX(before, sata.at[k]);
    }
    CU_ASSERT(sata.at[8] >= before + 128 * 10 * SIM_US);
    for (int k = 16; k < 20; k++)
        CU_ASSERT(sata.at[k] > sata.at[8]);
    CU_ASSERT(nvme.at[8] > 0 && nvme.at[8] < sata.at[8]);
    CU_ASSERT(nvme.at[8] < before + 128 * 10 * SIM_US);
}

/* drive_check() every 20 us of simulated time while commands are
 * outstanding (for 10 s at most: a command that never completes fails the
 * test instead of hanging it): the states inside a command too. */
typedef struct Probe {
    Oracle *o;
    uint64_t checks, bad;
    SimTime until;
    SimTime at[8];      /* completion time by tag */
    uint64_t next, end; /* probe_queued(): the next write's offset, and the end */
} Probe;

static void probe_write(Probe *pr, uint64_t off, uint64_t len, uint64_t tag);

static void probe_ev(void *ctx, uint64_t arg)
{
    Probe *pr = ctx;
    char why[256];
    (void)arg;
    pr->checks++;
    if (!drive_check(pr->o->d, why, sizeof why) && pr->bad++ == 0)
        fprintf(stderr, "at %" G_GUINT64_FORMAT " ns: %s\n", sim_now(pr->o->e), why);
    if (drive_outstanding(pr->o->d) > 0 && sim_now(pr->o->e) < pr->until)
        sim_schedule_in(pr->o->e, 20 * SIM_US, probe_ev, pr, 0);
}

#define QUEUED_BS 65536
#define QUEUED_TAG 7

static void probe_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Probe *pr = ctx;
    pr->at[tag] = sim_now(pr->o->e);
    oracle_on_done(pr->o, dc);
    if (tag == QUEUED_TAG && pr->next < pr->end) {
        probe_write(pr, pr->next, QUEUED_BS, QUEUED_TAG);
        pr->next += QUEUED_BS;
    }
}

/* Submit a write for the oracle (tag: its completion time's index). */
static void probe_write(Probe *pr, uint64_t off, uint64_t len, uint64_t tag)
{
    Oracle *o = pr->o;
    o->version++;
    for (uint64_t l = off / 4096; l <= (off + len - 1) / 4096; l++)
        o->shadow[l] = o->version;
    o->last_op = IO_WRITE;
    drive_submit(o->d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = len, .tag = tag});
}

/* Run until every command has completed, checking the drive meanwhile. */
static void probe_run(Probe *pr)
{
    uint64_t before = pr->o->done;
    pr->until = sim_now(pr->o->e) + 10 * SIM_SEC;
    sim_schedule_in(pr->o->e, 0, probe_ev, pr, 0);
    sim_run(pr->o->e, SIM_TIME_MAX);
    CU_ASSERT(pr->o->done > before);
    CUTEST_EQ(drive_outstanding(pr->o->d), 0);
}

/* Write [off, off + len) as 64 KiB writes, 32 outstanding; how long it took. */
static SimTime probe_queued(Probe *pr, uint64_t off, uint64_t len)
{
    SimTime t0 = sim_now(pr->o->e);
    pr->next = off;
    pr->end = off + len;
    for (int k = 0; k < 32 && pr->next < pr->end; k++, pr->next += QUEUED_BS)
        probe_write(pr, pr->next, QUEUED_BS, QUEUED_TAG);
    probe_run(pr);
    return pr->at[QUEUED_TAG] - t0;
}

static void probe_read(Probe *pr, uint64_t off, uint64_t len)
{
    Oracle *o = pr->o;
    o->last_op = IO_READ;
    o->last_off = off;
    o->last_len = len;
    drive_submit(o->d, &(DriveCmd){.op = IO_READ, .offset = off, .length = len});
    probe_run(pr);
}

/* Writes of 2, 5 and 17.5 times the write buffer: each would wait forever
 * for room for all of it, so it goes into the buffer in pieces. Each
 * completes, reads back right, keeps the invariants at every probe, and
 * takes at least what the link needs for its bytes and what the dies need
 * to program all but a buffer of it, and about as long as the same bytes
 * in writes that fit the buffer, many at once. Two rounds: the second
 * overwrites the first shifted off 4 KiB (and map unit) boundaries, so
 * that partial slots and partly covered map units are read and merged. */
static void big_writes(HostIfKind iface, uint32_t map_unit)
{
    DriveParams p;
    tiny_drive_on(&p, 32, iface);
    p.map_unit = map_unit;
    Oracle o;
    oracle_init(&o, &p, false);
    Probe pr = {.o = &o};
    drive_set_done(o.d, probe_done, &pr);
    static const double times[] = {2, 5, 17.5};
    uint64_t cap = p.write_buffer / 4096; /* the tiny drive's buffer: above 2 program units */
    uint32_t unit = 2 * 3 * (uint32_t)(p.page_size / 4096); /* TLC: 3 pages, 2 planes */
    CU_ASSERT(cap >= 2 * unit);
    for (int round = 0; round < 2; round++) {
        uint64_t off = round ? 3 * 4096 + 512 : 0;
        for (unsigned i = 0; i < G_N_ELEMENTS(times); i++) {
            uint64_t len = (uint64_t)(times[i] * (double)p.write_buffer) - (round ? 1024 : 0);
            SimTime t0 = sim_now(o.e);
            probe_write(&pr, off, len, 1);
            probe_run(&pr);
            SimTime took = pr.at[1] - t0;
            uint64_t slots = (off + len - 1) / 4096 - off / 4096 + 1;
            SimTime nand = (SimTime)((slots - cap) / (2 * unit)) * p.timing[CELL_TLC].t_prog;
            CU_ASSERT(took >= (SimTime)drive_params_link_xfer_ns(&p, len, true));
            CU_ASSERT(took >= nand);
            if (round == 0 && i == G_N_ELEMENTS(times) - 1) {
                /* the pieces follow the programs closely: no piece waits
                 * long for room that is there */
                drive_submit(o.d, &(DriveCmd){.op = IO_FLUSH});
                probe_run(&pr);
                SimTime queued = probe_queued(&pr, off, len / QUEUED_BS * QUEUED_BS);
                CU_ASSERT(took <= queued + queued / 10);
            }
            probe_read(&pr, off, len);
            drive_submit(o.d, &(DriveCmd){.op = IO_FLUSH});
            probe_run(&pr);
            probe_read(&pr, off, len);
            off += len + 4096 * (round + 1);
        }
    }
    /* the second round merged: partial slots, and with 16 KiB units the
     * other pieces of partly covered units */
    CU_ASSERT(drive_stats(o.d)->nand_read_bytes > 0);
    if (map_unit > 4096)
        CU_ASSERT(drive_stats(o.d)->rmw_read_bytes > 0);
    /* a big write between two small ones, all at once (4 KiB aligned: no
     * merge reads reorder them): the buffer takes writes in order, so the
     * one after the big write, into its range, completes after it */
    probe_write(&pr, 4096, 8192, 2);
    probe_write(&pr, 6 * 4096, 5 * p.write_buffer, 3);
    probe_write(&pr, 100 * 4096, 4096, 4);
    probe_run(&pr);
    CU_ASSERT(pr.at[2] > 0 && pr.at[2] < pr.at[3] && pr.at[3] < pr.at[4]);
    probe_read(&pr, 0, 7 * p.write_buffer);
    CU_ASSERT(pr.checks > 1000);
    CUTEST_EQ(pr.bad, 0);
    CUTEST_EQ(o.mismatches, 0);
    CU_ASSERT(o.reads_checked > 0);
    char why[256];
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    oracle_release(&o);
}

static void test_write_larger_than_buffer(void)
{
    big_writes(HOSTIF_SATA, 4096);
    big_writes(HOSTIF_NVME, 4096);
    big_writes(HOSTIF_SATA, 16384);
}

/* Commands up to two and a half times the write buffer, at random: writes
 * larger than the buffer among the others, TRIMs of data still buffered
 * before writes that need its room. Every command completes, the data
 * reads back right, the invariants hold after every one. */
static void test_oracle_big_commands(void)
{
    static const uint32_t units[] = {4096, 16384};
    for (unsigned u = 0; u < G_N_ELEMENTS(units); u++) {
        DriveParams p;
        tiny_drive(&p, 32, 0.3);
        p.map_unit = units[u];
        OracleMix mix = {.max_pages = (uint32_t)(p.write_buffer / 4096 * 5 / 2), .write_pct = 55,
                         .unaligned = true};
        Oracle o;
        oracle_init(&o, &p, true); /* the next command comes while the buffer holds data */
        SimRng r;
        sim_rng_init(&r, 7, u);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < 4000; i++) {
            oracle_step(&o, &r, &mix);
            oracle_check(&o, i, &bad);
            if (o.done != i + 1)
                break; /* a command never completed */
        }
        CUTEST_EQ(o.done, 4000);
        CUTEST_EQ(bad, 0);
        CUTEST_EQ(o.mismatches, 0);
        CU_ASSERT(drive_stats(o.d)->buf_absorbed_bytes > 0);
        oracle_release(&o);
    }
}

/* Submit one command for the oracle and run until it completes (or
 * nothing is left to happen: then the test fails, it does not hang). */
static void oracle_cmd(Oracle *o, IoOp op, uint64_t off, uint64_t len)
{
    if (op == IO_WRITE)
        o->version++;
    for (uint64_t l = off / 4096; (op == IO_WRITE || op == IO_TRIM) && l <= (off + len - 1) / 4096; l++)
        o->shadow[l] = op == IO_WRITE ? o->version : 0; /* (whole 4 KiB TRIMs only) */
    oracle_submit(o, op, off, len, 0);
}

/* A TRIM of data still in the write buffer leaves its ring entries dead.
 * With nothing live left in the ring no program walks past them, and a
 * write needing their room waited for ever: when the TRIM emptied the
 * ring, and when a program took the live entries before them. */
static void test_trimmed_buffer_room(void)
{
    for (int trailing = 0; trailing < 2; trailing++) {
        DriveParams p;
        tiny_drive(&p, 16, 0.3);
        p.write_buffer = 512 * 1024;
        Oracle o;
        oracle_init(&o, &p, true);
        const uint64_t unit = 96 * 1024; /* a TLC program unit: programmed on arrival */
        if (trailing) {
            oracle_cmd(&o, IO_WRITE, 0, unit); /* both dies busy for a tPROG */
            oracle_cmd(&o, IO_WRITE, 1 << 20, unit);
            oracle_cmd(&o, IO_WRITE, 2 << 20, unit); /* waits in the ring */
        }
        oracle_cmd(&o, IO_WRITE, 3 << 20, 16384);
        oracle_cmd(&o, IO_TRIM, 3 << 20, 16384);
        CUTEST_EQ(drive_lookup(o.d, (3 << 20) / 4096), DRIVE_UNMAPPED);
        oracle_cmd(&o, IO_WRITE, 4 << 20, p.write_buffer);
        oracle_cmd(&o, IO_READ, 0, 5 << 20);
        CUTEST_EQ(o.mismatches, 0);
        char why[256];
        CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
        oracle_release(&o);
    }
}

/* The -L stress run: 10^8 operations, the invariants every 10^6. */
static void test_oracle_1e8(void) { run_oracle(24, 0.3, 100000000, 1000000, GC_GREEDY); }

/* A closed loop of random commands at a queue depth, each completion
 * recorded (tag: the submission's number) and a new command sent from it:
 * aligned writes of one to sixteen 4 KiB units, unaligned writes, writes
 * larger than the buffer, reads, trims and flushes. */
typedef struct Loop {
    SimEngine *e;
    Drive *d;
    SimRng r;
    uint64_t sent, limit, nlpn;
    GArray *done; /* Done */
} Loop;

typedef struct Done {
    uint64_t tag, offset;
    SimTime at;
    uint8_t status;
} Done;

static void loop_send(Loop *l)
{
    uint32_t k = (uint32_t)sim_rng_below(&l->r, 100);
    uint64_t lpn = sim_rng_below(&l->r, l->nlpn - 160), pages = 1 + sim_rng_below(&l->r, 16);
    DriveCmd c = {.op = IO_WRITE, .offset = lpn * 4096, .length = pages * 4096, .tag = l->sent++};
    if (k >= 98) {
        c = (DriveCmd){.op = IO_FLUSH, .tag = c.tag};
    } else if (k >= 95) {
        c.op = IO_TRIM;
    } else if (k >= 70) {
        c.op = IO_READ;
        if (k >= 90)
            c.offset += 512, c.length -= 1024;
    } else if (k >= 64) {
        c.offset += 1024 * (k - 63);
    } else if (k == 63) {
        c.length = 150 * 4096; /* over half the buffer: it waits for room */
    } else if (k == 62) {
        c.length = 120 * 4096 + 2048;
    }
    drive_submit(l->d, &c);
}

static void loop_done(void *ctx, const DriveCompletion *dc)
{
    Loop *l = ctx;
    Done x = {.tag = dc->tag, .offset = dc->offset, .at = sim_now(l->e), .status = dc->status};
    g_array_append_val(l->done, x);
    if (l->sent < l->limit)
        loop_send(l);
}

static void loop_run(Loop *l, const DriveParams *p, bool general, uint32_t depth, uint64_t n)
{
    *l = (Loop){.e = sim_engine_new(), .limit = n, .nlpn = p->user_capacity / 4096};
    l->d = drive_new(l->e, p, 1);
    l->done = g_array_new(FALSE, FALSE, sizeof(Done));
    sim_rng_init(&l->r, 7, depth);
    if (general)
        hostif_general_only(l->d);
    drive_set_done(l->d, loop_done, l);
    for (uint32_t i = 0; i < depth; i++)
        loop_send(l);
    sim_run(l->e, SIM_TIME_MAX);
}

/* Plain reads and writes take short paths through the host interface and
 * the FTL (drive_submit(), ftl_write_arrive()); hostif_general_only() sends
 * every command the general way. Both must complete the same commands at
 * the same times and count the same figures, on SATA (its non-queued
 * TRIM and FLUSH hold the commands behind them) and NVMe, one core or two,
 * map units of 4 KiB and above, with a mapping cache. */
static void test_short_paths(void)
{
    for (int v = 0; v < 5; v++) {
        DriveParams p;
        tiny_drive_on(&p, 24, v % 2 ? HOSTIF_NVME : HOSTIF_SATA);
        p.page_cost = v == 1 ? 300 : 0;
        p.ctrl_cores = v == 2 ? 2 : 1;
        if (v == 3)
            p.map_unit = 16384;
        if (v == 4) {
            p.l2p_kind = L2P_HMB;
            p.l2p_cache = 2 * p.page_size;
            p.l2p_tp_entries = 64;
            p.hmb_latency = 1000;
        }
        Loop a, b;
        loop_run(&a, &p, false, 16, 8000);
        loop_run(&b, &p, true, 16, 8000);
        CUTEST_EQ(a.done->len, 8000);
        CUTEST_EQ(a.done->len, b.done->len);
        for (guint k = 0; k < MIN(a.done->len, b.done->len); k++) {
            Done *x = &g_array_index(a.done, Done, k), *y = &g_array_index(b.done, Done, k);
            CUTEST_EQ(x->tag, y->tag);
            CUTEST_EQ(x->at, y->at);
            CUTEST_EQ(x->offset, y->offset);
            CUTEST_EQ(x->status, y->status);
            if (x->tag != y->tag || x->at != y->at)
                break;
        }
        CU_ASSERT(memcmp(drive_stats(a.d), drive_stats(b.d), sizeof(DriveStats)) == 0);
        char why[256];
        CU_ASSERT_TRUE(drive_check(a.d, why, sizeof why));
        for (Loop *l = &a; l; l = l == &a ? &b : NULL) {
            g_array_free(l->done, TRUE);
            drive_free(l->d);
            sim_engine_free(l->e);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && g_strcmp0(argv[1], "--stress") == 0) {
        CU_TestInfo stress[] = {
            {"oracle_1e8", test_oracle_1e8},
            CU_TEST_INFO_NULL,
        };
        return cutest_run("ftl_stress", stress);
    }
    CU_TestInfo tests[] = {
        {"unmapped_reads", test_unmapped_reads},
        {"claim_narrow", test_claim_narrow},
        {"claim_wide", test_claim_wide},
        {"flush_and_trim", test_flush_and_trim},
        {"latency_parts", test_latency_parts},
        {"sata_trim_non_queued", test_sata_trim_non_queued},
        {"write_larger_than_buffer", test_write_larger_than_buffer},
        {"oracle_big_commands", test_oracle_big_commands},
        {"trimmed_buffer_room", test_trimmed_buffer_room},
        {"short_paths", test_short_paths},
        {"check_every_op", test_check_every_op},
        {"oracle_policies", test_oracle_policies},
        {"oracle_million", test_oracle_million},
        {"oracle_tiny_cache", test_oracle_tiny_cache},
        {"oracle_cache_long", test_oracle_cache_long},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("ftl", tests);
}
