/*
 * test_mapunit.c - map units above 4 KiB ([ftl] map_unit): a write that
 * covers a unit in part reads the unit's other pieces and writes them again.
 *
 * Under uniform random writes over a full drive with FIFO cleaning, a map
 * unit behaves as a page of its size: each is written whole, so its pieces
 * are invalidated together and the steady-state valid share u of a
 * reclaimed block solves u = exp(-(1 + rho)(1 - u)) whatever the unit
 * (Hu et al. 2009; Desnoyers 2012; see test_gc.c), with GC's WAF
 * 1 / (1 - u). A 4 KiB write to a 16 KiB unit also writes the unit's three
 * other pieces: 4 / (1 - u) in all, four times the 4 KiB-unit drive's; a
 * 16 KiB write that covers its unit costs no read and 1 / (1 - u).
 */
#include "models/drive.h"
#include "tests/cutest.h"
#include "tests/oracle.h"
#include "tests/steady_writes.h"
#include "tests/tiny_drive.h"

#include <math.h>

#define CHANNELS 4
#define BLOCKS 128 /* per die: 512 blocks of 96 slots in all */
#define SPARE 0.15

typedef struct Waf {
    double waf;       /* NAND writes (host, rmw, GC) / host data programmed */
    double closed;    /* FIFO's closed form of GC's WAF at the measured spare factor */
    uint64_t host, rmw, rmw_read; /* over the measured half: bytes */
} Waf;

/* Fill a FIFO drive of map unit `unit` sequentially, then write it
 * `passes` times over at random in bs writes (QD 32, bs-aligned); WAF
 * over the second half, and its closed form. */
static Waf steady_waf(uint32_t unit, uint32_t bs, double passes)
{
    DriveParams p;
    tiny_drive(&p, BLOCKS, SPARE);
    p.channels = CHANNELS;
    p.user_capacity =
        (uint64_t)((double)drive_params_raw_capacity(&p) / (1.0 + SPARE)) / 65536 * 65536;
    p.gc_policy = GC_FIFO;
    p.map_unit = unit;
    Steady s;
    steady_start(&s, &p, bs, 11, unit);
    DriveStats a;
    steady_run(&s, (uint64_t)(passes * (double)(p.user_capacity / 4096)), &a);
    const DriveStats *st = drive_stats(s.d);
    Waf w = {.host = st->nand_write_bytes[CAUSE_HOST] - a.nand_write_bytes[CAUSE_HOST],
             .rmw = st->nand_write_bytes[CAUSE_RMW] - a.nand_write_bytes[CAUSE_RMW],
             .rmw_read = st->rmw_read_bytes - a.rmw_read_bytes};
    double gc = (double)(st->nand_write_bytes[CAUSE_GC] - a.nand_write_bytes[CAUSE_GC]);
    w.waf = ((double)w.host + (double)w.rmw + gc) / (double)w.host;
    double rho;
    w.closed = steady_closed_waf(&s, CHANNELS, BLOCKS, (double)(p.user_capacity / 4096), &rho);
    drive_set_done(s.d, NULL, NULL);
    sim_run(s.e, SIM_TIME_MAX);
    char why[256];
    CU_ASSERT_TRUE(drive_check(s.d, why, sizeof why));
    drive_free(s.d);
    sim_engine_free(s.e);
    return w;
}

/* 4 KiB random writes: every write reads and rewrites its unit's three
 * other pieces, so NAND takes four times the host data before GC, and the
 * WAF is four times the 4 KiB-unit drive's, each within 5% of the closed form. */
static void test_random_4k_waf(void)
{
    Waf w4 = steady_waf(4096, 4096, 8), w16 = steady_waf(16384, 4096, 8);
    printf("\n    4 KiB units: WAF %.3f (closed form %.3f); 16 KiB units: WAF %.3f (4 x closed "
           "form %.3f), ratio %.3f ",
           w4.waf, w4.closed, w16.waf, 4 * w16.closed, w16.waf / w4.waf);
    CUTEST_EQ(w4.rmw + w4.rmw_read, 0);
    CU_ASSERT(fabs(w4.waf / w4.closed - 1.0) < 0.05);
    CU_ASSERT(fabs(w16.waf / (4 * w16.closed) - 1.0) < 0.05);
    CU_ASSERT(fabs(w16.waf / w4.waf / 4.0 - 1.0) < 0.05);
    /* three pieces read and rewritten per host piece, but for the few whose
     * unit was still in the write buffer (a window of 2 of ~20000 units) */
    CU_ASSERT(w16.rmw <= 3 * w16.host && w16.rmw > 3 * w16.host * 0.99);
    CU_ASSERT(w16.rmw_read <= 3 * w16.host && w16.rmw_read > 3 * w16.host * 0.99);
}

/* 16 KiB writes aligned to 16 KiB units cover them whole: no reads, no
 * rewritten pieces, the WAF of one unit per write. */
static void test_aligned_16k_no_reads(void)
{
    Waf w = steady_waf(16384, 16384, 8);
    printf("\n    16 KiB writes on 16 KiB units: WAF %.3f (closed form %.3f) ", w.waf, w.closed);
    CUTEST_EQ(w.rmw, 0);
    CUTEST_EQ(w.rmw_read, 0);
    CU_ASSERT(fabs(w.waf / w.closed - 1.0) < 0.05);
}

/* The integrity oracle with 16 KiB units: aligned and unaligned writes,
 * reads, trims and flushes; every read returns the latest data (the pieces
 * rewritten with a partial write keep theirs) and the invariants hold after
 * every operation (merge records, held ring entries included). */
static void test_oracle_16k(void)
{
    static const OracleMix mix = {.max_pages = 8, .write_pct = 55, .unaligned = true};
    DriveParams p;
    tiny_drive(&p, 16, 0.3);
    p.map_unit = 16384;
    Oracle o;
    oracle_init(&o, &p, false);
    SimRng r;
    sim_rng_init(&r, 5, 16);
    char why[256];
    uint64_t bad = 0;
    for (uint64_t i = 0; i < 60000; i++) {
        oracle_step(&o, &r, &mix);
        if (!drive_check(o.d, why, sizeof why) && bad++ == 0)
            fprintf(stderr, "step %" G_GUINT64_FORMAT ": %s\n", i, why);
    }
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(o.mismatches, 0);
    const DriveStats *st = drive_stats(o.d);
    CU_ASSERT(st->rmw_read_bytes > 0 && st->nand_write_bytes[CAUSE_RMW] > 0);
    CU_ASSERT(st->gc_blocks > 100);
    oracle_release(&o);
}

/* A 4 KiB write into a 16 KiB unit on NAND completes when its data is in
 * the buffer, without waiting for the merge read; the unit is programmed
 * only after that read (held in the buffer meanwhile). */
static void test_merge_latency(void)
{
    DriveParams p;
    tiny_drive(&p, 16, 0.3);
    p.map_unit = 16384;
    Oracle o;
    oracle_init(&o, &p, false);
    o.last_op = IO_WRITE; /* nothing for the oracle to check on completion */
    drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .length = 65536});
    drive_submit(o.d, &(DriveCmd){.op = IO_FLUSH, .tag = 1});
    sim_run(o.e, SIM_TIME_MAX);
    const DriveStats *st = drive_stats(o.d);
    DriveStats before = *st;
    drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .offset = 4096, .length = 4096, .tag = 2});
    drive_submit(o.d, &(DriveCmd){.op = IO_FLUSH, .tag = 3});
    sim_run(o.e, SIM_TIME_MAX);
    CUTEST_EQ(st->write_parts_n - before.write_parts_n, 1);
    CUTEST_EQ(st->write_parts_ns[WPART_MERGE] - before.write_parts_ns[WPART_MERGE], 0);
    SimTime took = 0;
    for (int k = 0; k < WRITE_PARTS; k++)
        took += st->write_parts_ns[k] - before.write_parts_ns[k];
    CU_ASSERT(took < p.timing[CELL_TLC].t_read); /* did not wait for the read */
    CUTEST_EQ(st->rmw_read_bytes - before.rmw_read_bytes, 3 * 4096);
    CUTEST_EQ(st->nand_read_bytes - before.nand_read_bytes, 3 * 4096);
    CUTEST_EQ(st->nand_write_bytes[CAUSE_RMW] - before.nand_write_bytes[CAUSE_RMW], 3 * 4096);
    CUTEST_EQ(st->nand_write_bytes[CAUSE_HOST] - before.nand_write_bytes[CAUSE_HOST], 4096);
    /* the unit's four pieces went to NAND together, in one program: the
     * written piece first, then the three read back */
    uint32_t s0 = drive_lookup(o.d, 1);
    CUTEST_EQ(drive_lookup(o.d, 0), s0 + 1);
    CUTEST_EQ(drive_lookup(o.d, 2), s0 + 2);
    CUTEST_EQ(drive_lookup(o.d, 3), s0 + 3);
    char why[256];
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    oracle_release(&o);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"merge_latency", test_merge_latency},
        {"oracle_16k", test_oracle_16k},
        {"random_4k_waf", test_random_4k_waf},
        {"aligned_16k_no_reads", test_aligned_16k_no_reads},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("mapunit", tests);
}
