/*
 * test_prefill.c - aging a drive with drive_prefill(): the sequential layout
 * (die striping, free blocks), data left in pSLC, the random steady state
 * (spread valid counts), the FTL invariants and a mapping oracle after the
 * prefill and after a workload on top; the wall time of a 1 TB prefill.
 */
#include "models/drive.h"
#include "models/blocks.h"
#include "models/pslc.h"
#include "sim/config/config.h"
#include "tests/cutest.h"
#include "tests/runspec.h"

#include <math.h>

#define SMALL CUTEST_SRC("tests/data/drives/small_tlc.ini")
/* small_tlc.ini: 4 dies, 2 planes, 48 TLC pages of 16 KiB a block */
#define DIES 4u
#define UNIT 24u          /* TLC one-shot unit: 2 planes x 4 slots x 3 pages */
#define BLOCK_SLOTS 384u  /* 2 planes x 48 pages x 4 slots */
#define BLOCKS_PER_DIE 256u

static gboolean load_small(DriveParams *p)
{
    GError *error = NULL;
    if (!config_load_file(SMALL, p, &error)) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
        return FALSE;
    }
    return TRUE;
}

/* small_tlc with a pSLC cache: static blocks and a free-share dynamic part. */
static void with_cache(DriveParams *p, uint64_t static_bytes)
{
    p->pslc_static = static_bytes;
    p->pslc_rule = PSLC_RULE_FREE_SHARE;
    p->pslc_dynamic_share = 1.0;
    p->fold_high_watermark = 1.0;
    p->fold_idle_delay = 100 * SIM_MS;
}

static gboolean check_ok(const Drive *d)
{
    char why[256] = "";
    gboolean ok = drive_check(d, why, sizeof why);
    if (!ok)
        fprintf(stderr, "drive_check: %s\n", why);
    return ok;
}

static uint64_t lpns_of(const Drive *d, double fill)
{
    return (uint64_t)(fill * (double)(drive_capacity(d) / 4096) + 0.5);
}

/* Every lpn below n maps to a distinct slot; every lpn from n is unmapped. */
static void check_mapping(const Drive *d, uint64_t n)
{
    uint64_t nlpn = drive_capacity(d) / 4096, bad = 0, dup = 0, unmapped_ok = 0;
    uint8_t *seen = g_new0(uint8_t, drive_slots(d));
    for (uint64_t lpn = 0; lpn < nlpn; lpn++) {
        uint64_t s = drive_lookup(d, lpn);
        if (lpn >= n) {
            unmapped_ok += s == DRIVE_UNMAPPED;
            continue;
        }
        if (s == DRIVE_UNMAPPED || s == DRIVE_BUFFERED || s >= drive_slots(d)) {
            bad++;
            continue;
        }
        dup += seen[s];
        seen[s] = 1;
    }
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(dup, 0);
    CUTEST_EQ(unmapped_ok, nlpn - n);
    g_free(seen);
}

static void test_sequential_layout(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &p, 1);
    DrivePrefill pf = {.fill = 0.5, .seed = 1};
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    CU_ASSERT_TRUE(check_ok(d));
    uint64_t n = lpns_of(d, 0.5);
    check_mapping(d, n);
    /* unit u of 24 pages lands on die u % 4, its pages in consecutive slots */
    uint64_t wrong_die = 0, not_consecutive = 0, per_die[DIES] = {0};
    for (uint64_t lpn = 0; lpn < n; lpn++) {
        uint64_t s = drive_lookup(d, lpn);
        uint32_t die = s / (BLOCK_SLOTS * BLOCKS_PER_DIE);
        wrong_die += die != (lpn / UNIT) % DIES;
        if (lpn % UNIT)
            not_consecutive += s != drive_lookup(d, lpn - 1) + 1;
        per_die[die]++;
    }
    CUTEST_EQ(wrong_die, 0);
    CUTEST_EQ(not_consecutive, 0);
    /* free blocks: every die used ceil(its pages / 384) blocks */
    uint64_t used = 0;
    for (unsigned i = 0; i < DIES; i++)
        used += (per_die[i] + BLOCK_SLOTS - 1) / BLOCK_SLOTS;
    const DriveStats *st = drive_stats(d);
    CUTEST_EQ(st->free_blocks, DIES * BLOCKS_PER_DIE - used);
    /* counters start at zero */
    CUTEST_EQ(st->host_bytes[IO_WRITE], 0);
    CUTEST_EQ(testrun_nand_bytes(st), 0);
    CUTEST_EQ(st->nand_erases, 0);
    CUTEST_EQ(st->pslc_used, 0);
    drive_free(d);
    sim_engine_free(e);
}

/* The last slc_bytes stay in SLC blocks (static first), as far as the
 * cache allows; the rest is folded. */
static void test_sequential_slc(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    with_cache(&p, 8 * 1024 * 1024);
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &p, 1);
    uint64_t slc = 40ull * 1024 * 1024;
    DrivePrefill pf = {.fill = 0.6, .slc_bytes = slc, .seed = 1};
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    CU_ASSERT_TRUE(check_ok(d));
    uint64_t n = lpns_of(d, 0.6);
    check_mapping(d, n);
    const DriveStats *st = drive_stats(d);
    CUTEST_EQ(st->pslc_used, slc);
    CU_ASSERT_TRUE(st->pslc_used <= st->pslc_limit);
    CUTEST_EQ(st->pslc_limit_start, st->pslc_limit);
    /* exactly the last slc / 4096 pages are in SLC blocks */
    uint64_t in_slc_tail = 0, in_slc_head = 0;
    for (uint64_t lpn = 0; lpn < n; lpn++) {
        bool s = blk_mode(d, drive_lookup(d, lpn) / drive_geom(d)->slots_per_block) == CELL_SLC;
        if (lpn >= n - slc / 4096)
            in_slc_tail += s;
        else
            in_slc_head += s;
    }
    CUTEST_EQ(in_slc_tail, slc / 4096);
    CUTEST_EQ(in_slc_head, 0);
    drive_free(d);

    /* more than the cache holds: it fills to its limit, the rest is native */
    d = drive_new(e, &p, 1);
    pf = (DrivePrefill){.fill = 0.9, .slc_bytes = 1000ull * 1000 * 1000, .seed = 1};
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    CU_ASSERT_TRUE(check_ok(d));
    st = drive_stats(d);
    CU_ASSERT_TRUE(st->pslc_used > 0);
    CU_ASSERT_TRUE(st->pslc_used < pf.slc_bytes);
    CU_ASSERT_TRUE(st->pslc_used <= st->pslc_limit);
    drive_free(d);
    sim_engine_free(e);
}

/* Share of the written native blocks in each tenth of valid occupancy. */
static void valid_deciles(const Drive *d, uint64_t deciles[11], uint64_t *full, uint64_t *blocks)
{
    memset(deciles, 0, 11 * sizeof(uint64_t));
    *full = *blocks = 0;
    for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++) {
        if (blk_state(d, b) == BLK_FREE || blk_mode(d, b) != drive_geom(d)->native)
            continue;
        (*blocks)++;
        *full += blk_valid(d, b) == drive_geom(d)->slots_per_block;
        deciles[blk_valid(d, b) * 10 / drive_geom(d)->slots_per_block]++;
    }
}

static void test_random_spread(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &p, 1);
    DrivePrefill pf = {.fill = 0.9, .random = true, .seed = 7};
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    CU_ASSERT_TRUE(check_ok(d));
    uint64_t n = lpns_of(d, 0.9);
    check_mapping(d, n);
    uint64_t dec[11], full, blocks;
    valid_deciles(d, dec, &full, &blocks);
    /* greedy GC at 90% fill and 7% OP: most blocks partly valid, the
     * victims' neighbourhood well below full */
    CU_ASSERT_TRUE(full < blocks / 4);
    unsigned spread = 0;
    for (int i = 0; i < 11; i++)
        spread += dec[i] > 0;
    CU_ASSERT_TRUE(spread >= 3);
    CU_ASSERT_TRUE(dec[9] + dec[10] < blocks);
    /* lpn order does not follow the write order: few neighbours in
     * consecutive slots (sequential prefill: 23 of 24) */
    uint64_t adjacent = 0;
    for (uint64_t lpn = 1; lpn < n; lpn++)
        adjacent += drive_lookup(d, lpn) == drive_lookup(d, lpn - 1) + 1;
    CU_ASSERT_TRUE(adjacent < n / 100);
    /* the GC free-block floor holds on every die */
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        CU_ASSERT_TRUE(die_nfree(d, i) >= p.gc_soft_blocks);
    const DriveStats *st = drive_stats(d);
    CUTEST_EQ(testrun_nand_bytes(st), 0);
    CUTEST_EQ(st->gc_blocks, 0);
    CUTEST_EQ(st->nand_erases, 0);
    drive_free(d);
    sim_engine_free(e);
}

/* The same seed gives the same drive; another seed another one. */
static void test_random_deterministic(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    SimEngine *e = sim_engine_new();
    Drive *a = drive_new(e, &p, 1), *b = drive_new(e, &p, 1), *c = drive_new(e, &p, 1);
    DrivePrefill pf = {.fill = 0.7, .random = true, .seed = 3};
    CU_ASSERT_TRUE(drive_prefill(a, &pf));
    CU_ASSERT_TRUE(drive_prefill(b, &pf));
    pf.seed = 4;
    CU_ASSERT_TRUE(drive_prefill(c, &pf));
    uint64_t same_ab = 0, same_ac = 0, n = lpns_of(a, 0.7);
    for (uint64_t lpn = 0; lpn < n; lpn++) {
        same_ab += drive_lookup(a, lpn) == drive_lookup(b, lpn);
        same_ac += drive_lookup(a, lpn) == drive_lookup(c, lpn);
    }
    CUTEST_EQ(same_ab, n);
    CU_ASSERT_TRUE(same_ac < n / 10);
    drive_free(a);
    drive_free(b);
    drive_free(c);
    sim_engine_free(e);
}

/* The small drive with a pSLC cache of cache bytes, half filled at
 * random with slc bytes of it in SLC (seed 2): its mapping checked. */
static Drive *random_slc_drive(SimEngine *e, uint64_t cache, uint64_t slc)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    with_cache(&p, cache);
    Drive *d = drive_new(e, &p, 1);
    DrivePrefill pf = {.fill = 0.5, .random = true, .slc_bytes = slc, .seed = 2};
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    CU_ASSERT_TRUE(check_ok(d));
    check_mapping(d, lpns_of(d, 0.5));
    return d;
}

static void test_random_slc(void)
{
    SimEngine *e = sim_engine_new();
    Drive *d = random_slc_drive(e, 4 * 1024 * 1024, 20ull << 20);
    const DriveStats *st = drive_stats(d);
    /* GC keeps few blocks free in the random steady state, so the dynamic
     * part is small: the static blocks take the data first (overwrites
     * after it landed may have hit a little of it) */
    uint64_t stat = st->pslc_static;
    CU_ASSERT_TRUE(stat >= 4ull << 20);
    CU_ASSERT_TRUE(st->pslc_used <= 20ull << 20);
    CU_ASSERT_TRUE(st->pslc_used >= stat * 9 / 10);
    drive_free(d);
    sim_engine_free(e);
}

/* Overwrites drawn after the SLC data landed hit some of it (here 58 of
 * its 4,096 pages in the first round); the last overwrites go on in
 * SLC until the whole of what was asked is valid there, when the cache
 * can take it. */
static void test_random_slc_whole(void)
{
    SimEngine *e = sim_engine_new();
    Drive *d = random_slc_drive(e, 32 * 1024 * 1024, 16ull << 20);
    CUTEST_EQ(drive_stats(d)->pslc_used, 16ull << 20);
    drive_free(d);
    sim_engine_free(e);
}

/* A mapping oracle across a workload: every slot carries the token of the
 * data written to it (prefilled lpns: lpn + 1), copied along by GC and
 * folding; every lpn must end on the slot holding its latest token. */
typedef struct Tokens {
    uint32_t *shadow;   /* per lpn: latest token */
    uint32_t *slot_tok; /* per slot: token held */
    uint32_t next;
} Tokens;

static void on_place(void *ctx, uint64_t lpn, uint64_t dst, uint64_t src)
{
    Tokens *t = ctx;
    if (src == DRIVE_UNMAPPED)
        t->slot_tok[dst] = t->shadow[lpn] = t->next++;
    else
        t->slot_tok[dst] = t->slot_tok[src];
}

static void run_after_prefill(const DriveParams *p, const DrivePrefill *pf, const char *spec)
{
    TestRun r;
    CU_ASSERT_FATAL(testrun_new(&r, p));
    CU_ASSERT_TRUE(drive_prefill(r.d, pf));
    uint64_t nlpn = drive_capacity(r.d) / 4096, n = lpns_of(r.d, pf->fill);
    Tokens t = {g_new0(uint32_t, nlpn), g_new0(uint32_t, drive_slots(r.d)), (uint32_t)nlpn + 1};
    for (uint64_t lpn = 0; lpn < n; lpn++)
        t.slot_tok[drive_lookup(r.d, lpn)] = t.shadow[lpn] = (uint32_t)lpn + 1;
    drive_set_place_hook(r.d, on_place, &t);
    CU_ASSERT_TRUE(testrun_spec(&r, spec));
    CU_ASSERT_TRUE(check_ok(r.d));
    uint64_t wrong = 0, buffered = 0;
    for (uint64_t lpn = 0; lpn < nlpn; lpn++) {
        uint64_t s = drive_lookup(r.d, lpn);
        if (s == DRIVE_BUFFERED)
            buffered++;
        else if (s == DRIVE_UNMAPPED)
            wrong += t.shadow[lpn] != 0;
        else
            wrong += t.slot_tok[s] != t.shadow[lpn];
    }
    CUTEST_EQ(wrong, 0);
    const DriveStats *st = drive_stats(r.d);
    CU_ASSERT_TRUE(st->host_bytes[IO_WRITE] > 0);
    CU_ASSERT_TRUE(st->nand_write_bytes[CAUSE_HOST] <= st->host_bytes[IO_WRITE]);
    CU_ASSERT_TRUE(st->nand_write_bytes[CAUSE_GC] > 0); /* the aged drive collects at once */
    g_free(t.shadow);
    g_free(t.slot_tok);
    testrun_close(&r);
}

static void test_workload_after_prefill(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    DrivePrefill rnd = {.fill = 0.9, .random = true, .seed = 5};
    run_after_prefill(&p, &rnd, "rw=randwrite,bs=4k,iodepth=32,io_size=200m");
    DrivePrefill seq = {.fill = 1.0, .seed = 5};
    run_after_prefill(&p, &seq, "rw=randrw,bs=16k,iodepth=8,io_size=300m");
    with_cache(&p, 8 * 1024 * 1024);
    DrivePrefill slc = {.fill = 0.8, .random = true, .slc_bytes = 30ull << 20, .seed = 5};
    run_after_prefill(&p, &slc, "rw=randwrite,bs=64k,iodepth=16,io_size=300m");
}

/* A table that lives in NAND (hmb) is stored by the prefill, and its map
 * blocks come out of the free space the cache is sized from: the cache at
 * the start is what pslc_dynamic_limit_at() (`check`) says for the fill,
 * and what the first host programs find. Before, the translation pages
 * were stored at the first command: the 990 at 85% started with 0.6 GB
 * of cache by both counts and wrote nothing to SLC. */
static void test_map_blocks_in_cache(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    with_cache(&p, 0);
    p.l2p_kind = L2P_HMB;
    p.l2p_cache = 64 * 1024;
    p.l2p_tp_entries = 256; /* a translation page per MiB: ~11 map blocks a die when full */
    DriveParams dram = p;
    dram.l2p_kind = L2P_DRAM;
    const double fills[] = {0.3, 0.5, 0.6, 0.7};
    unsigned smaller = 0;
    for (size_t k = 0; k < G_N_ELEMENTS(fills); k++) {
        uint64_t want = pslc_dynamic_limit_at(&p, fills[k]);
        CU_ASSERT_TRUE(want <= pslc_dynamic_limit_at(&dram, fills[k]));
        smaller += want < pslc_dynamic_limit_at(&dram, fills[k]);
        TestRun r;
        CU_ASSERT_FATAL(testrun_new(&r, &p));
        DrivePrefill pf = {.fill = fills[k], .seed = 1};
        CU_ASSERT_TRUE(drive_prefill(r.d, &pf));
        const DriveStats *st = drive_stats(r.d);
        CUTEST_EQ(st->pslc_limit_start, want);
        char spec[96];
        g_snprintf(spec, sizeof spec, "rw=write,bs=128k,iodepth=4,offset=%.0f%%,size=8m", 100 * fills[k]);
        CU_ASSERT_TRUE(testrun_spec(&r, spec));
        CU_ASSERT_TRUE(check_ok(r.d));
        /* 8 MiB fits every cache of 16 MiB and more: all programmed there;
         * none in SLC without a cache */
        CU_ASSERT_TRUE(st->nand_write_bytes[CAUSE_HOST] > 0);
        if (want >= 16ull << 20)
            CUTEST_EQ(st->host_slc_bytes, st->nand_write_bytes[CAUSE_HOST]);
        if (want == 0)
            CUTEST_EQ(st->host_slc_bytes, 0);
        testrun_close(&r);
    }
    CU_ASSERT_TRUE(smaller > 0); /* the map blocks move the sizing at some fill */
}

static unsigned criticals;

static void count_criticals(const char *domain, GLogLevelFlags level, const char *msg, gpointer data)
{
    (void)domain, (void)msg, (void)data;
    criticals += (level & G_LOG_LEVEL_CRITICAL) != 0;
}

static void test_misuse(void)
{
    DriveParams p;
    CU_ASSERT_TRUE_FATAL(load_small(&p));
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &p, 1);
    DrivePrefill pf = {.fill = 0.0, .seed = 1};
    CU_ASSERT_TRUE(drive_prefill(d, &pf)); /* nothing to do */
    CUTEST_EQ(drive_lookup(d, 0), DRIVE_UNMAPPED);
    pf.fill = 0.2;
    CU_ASSERT_TRUE(drive_prefill(d, &pf));
    /* a drive that holds data already, and a fill outside [0, 1] */
    GLogFunc old = g_log_set_default_handler(count_criticals, NULL);
    criticals = 0;
    CU_ASSERT_FALSE(drive_prefill(d, &pf));
    drive_free(d);
    d = drive_new(e, &p, 1);
    pf.fill = 1.5;
    CU_ASSERT_FALSE(drive_prefill(d, &pf));
    g_log_set_default_handler(old, NULL);
    CUTEST_EQ(criticals, 2);
    CUTEST_EQ(drive_lookup(d, 0), DRIVE_UNMAPPED);
    drive_free(d);
    sim_engine_free(e);
}

/* Reports (never asserts) the wall time of a 1 TB prefill on
 * configs/reference.ini. Skipped under AddressSanitizer, and with the
 * map entries wide. */
static void test_time_1tb(void)
{
#if defined(__SANITIZE_ADDRESS__)
    cutest_skip("1 TB prefill timing under AddressSanitizer");
#else
    DriveParams p;
    GError *error = NULL;
    CU_ASSERT_TRUE_FATAL(config_load_file(CUTEST_SRC("configs/reference.ini"), &p, &error));
    if (!drive_params_narrow_map(&p)) {
        /* a random prefill fills the map's dense parts: 16 GB here */
        printf("\n  not timed with wide map entries (FTLSIM_MAP_STORE)\n");
        return;
    }
    static const DrivePrefill runs[] = {{.fill = 0.9, .random = true, .seed = 1}};
    for (unsigned i = 0; i < G_N_ELEMENTS(runs); i++) {
        SimEngine *e = sim_engine_new();
        Drive *d = drive_new(e, &p, 1);
        gint64 t0 = g_get_monotonic_time();
        CU_ASSERT_TRUE(drive_prefill(d, &runs[i]));
        double s = (double)(g_get_monotonic_time() - t0) / 1e6;
        printf("\n  prefill 90%%%s of %s: %.2f s wall", runs[i].random ? ":random" : "", p.name, s);
        drive_free(d);
        sim_engine_free(e);
    }
    printf("\n");
#endif
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"sequential layout", test_sequential_layout},
        {"sequential with pSLC data", test_sequential_slc},
        {"random valid counts spread", test_random_spread},
        {"random deterministic", test_random_deterministic},
        {"random with pSLC data", test_random_slc},
        {"random with all the pSLC data asked for", test_random_slc_whole},
        {"workload after prefill", test_workload_after_prefill},
        {"map blocks in the cache's size", test_map_blocks_in_cache},
        {"misuse", test_misuse},
        {"1 TB wall time", test_time_1tb},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("prefill", tests);
}
