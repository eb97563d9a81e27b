/*
 * test_l2p.c - the mapping cache (hmb, sram against dram) and the cost of
 * TRIM, on tests/data/drives/small_qlc_hmb.ini, the 990's shape scaled down
 * 32 times with its cache: random reads over a span the cache covers and
 * over the whole drive, random-write spread, and the R1.6 TRIM stall under
 * both policies; and on configs/990.ini itself (prefilled), the random reads
 * and sequential writes.
 */
#include "tests/cutest.h"
#include "tests/runspec.h"

#include <math.h>

#define DRIVE CUTEST_SRC("tests/data/drives/small_qlc_hmb.ini")
#define FILL "rw=write,bs=1m,iodepth=8,size=100%"

/* Open a drive config with its mapping table in kind (cache bytes for hmb
 * and sram, 0: the config's) and the given TRIM policy. */
static gboolean open_config(TestRun *r, const char *path, L2pKind kind, uint64_t cache,
                            TrimPolicy trim)
{
    DriveParams p;
    g_autoptr(GError) error = NULL;
    memset(r, 0, sizeof(*r));
    if (!config_load_file(path, &p, &error)) {
        fprintf(stderr, "%s\n", error->message);
        return FALSE;
    }
    p.l2p_kind = kind;
    if (cache)
        p.l2p_cache = cache;
    p.trim_policy = trim;
    return testrun_new(r, &p);
}

static gboolean open_drive(TestRun *r, L2pKind kind, uint64_t cache, TrimPolicy trim)
{
    return open_config(r, DRIVE, kind, cache, trim);
}

static void assert_consistent(const Drive *d)
{
    char why[256] = "";
    bool ok = drive_check(d, why, sizeof why);
    if (!ok)
        fprintf(stderr, "drive_check: %s\n", why);
    CU_ASSERT_TRUE(ok);
}

/* IOPS, mapping hit ratio and mean translation time per read (us) of one
 * workload spec run on r. */
typedef struct Measure {
    double iops, hit, map_us;
} Measure;

static Measure measure(TestRun *r, const char *spec)
{
    DriveStats a = *drive_stats(r->d);
    SimTime t0 = sim_now(r->e);
    CU_ASSERT(testrun_spec(r, spec));
    const DriveStats *b = drive_stats(r->d);
    uint64_t ios =
        b->host_ios[IO_READ] + b->host_ios[IO_WRITE] - a.host_ios[IO_READ] - a.host_ios[IO_WRITE];
    uint64_t hits = b->l2p_hits - a.l2p_hits, misses = b->l2p_misses - a.l2p_misses;
    uint64_t reads = b->read_parts_n - a.read_parts_n;
    Measure m = {(double)ios * 1e9 / (double)(sim_now(r->e) - t0),
                 hits + misses ? (double)hits / (double)(hits + misses) : 1.0,
                 reads ? (double)(b->read_parts_ns[PART_MAP] - a.read_parts_ns[PART_MAP]) / 1e3 /
                             (double)reads
                       : 0.0};
    return m;
}

/* 4 KiB random reads at QD 32 on a filled drive, over 1 GiB (inside the
 * 2 GiB the cache maps) and over the whole 32 GB: the first as fast as with
 * DRAM, the second clearly slower, with a hit ratio near the share of the
 * span the cache covers. */
static void test_random_read_span(void)
{
    const char *small = "rw=randread,bs=4k,iodepth=32,size=1g,io_size=160m";
    const char *full = "rw=randread,bs=4k,iodepth=32,size=100%,io_size=160m";
    Measure m[2][2];
    for (int k = 0; k < 2; k++) {
        TestRun r;
        CU_ASSERT_FATAL(open_drive(&r, k ? L2P_HMB : L2P_DRAM, 2 << 20, TRIM_IMMEDIATE));
        CU_ASSERT(testrun_spec(&r, FILL));
        m[k][0] = measure(&r, small);
        m[k][1] = measure(&r, full);
        assert_consistent(r.d);
        if (k == 0)
            CUTEST_EQ(drive_stats(r.d)->nand_write_bytes[CAUSE_MAP], 0);
        testrun_close(&r);
    }
    /* 128 pages of 4096 entries over the span's 4 KiB entries */
    double cover_small = MIN(1.0, 128.0 * 4096 / (1073741824.0 / 4096));
    double cover_full = 128.0 * 4096 / (32e9 / 4096);
    fprintf(stderr, "\n  1 GiB span: hmb %.0f IOPS, dram %.0f (%.3f), hit %.4f, coverage %.4f\n",
            m[1][0].iops, m[0][0].iops, m[1][0].iops / m[0][0].iops, m[1][0].hit, cover_small);
    fprintf(stderr, "  full span:  hmb %.0f IOPS, dram %.0f (%.3f), hit %.4f, coverage %.4f\n",
            m[1][1].iops, m[0][1].iops, m[1][1].iops / m[0][1].iops, m[1][1].hit, cover_full);
    CUTEST_NEAR(m[1][0].iops / m[0][0].iops, 1.0, 0.10);
    CUTEST_NEAR(m[1][0].hit, cover_small, 0.05);
    CUTEST_NEAR(m[1][1].hit, cover_full, 0.05);
    CU_ASSERT(m[1][1].iops < 0.85 * m[0][1].iops);
    /* the reads' time in translation: none with DRAM; with HMB, at least
     * an SLC read of a translation page per miss */
    fprintf(stderr, "  translation per read: hmb %.1f us (1 GiB), %.1f us (full span)\n",
            m[1][0].map_us, m[1][1].map_us);
    CUTEST_NEAR(m[0][0].map_us + m[0][1].map_us, 0, 1e-12);
    CU_ASSERT(m[1][1].map_us > (1 - m[1][1].hit) * 25.0);
    CU_ASSERT(m[1][1].map_us > 2 * m[1][0].map_us);
}

/* The same on configs/990.ini itself (64 MB of HMB, 1 TB), filled by
 * drive_prefill: over 8 GiB within 10% of DRAM; over the whole drive
 * clearly below, with a hit ratio within 5 points of the coverage. */
static void test_random_read_990(void)
{
    const char *small = "rw=randread,bs=4k,iodepth=32,size=8g,io_size=200m";
    const char *full = "rw=randread,bs=4k,iodepth=32,size=100%,io_size=200m";
    Measure m[2][2];
    uint64_t cache = 0;
    for (int k = 0; k < 2; k++) {
        TestRun r;
        CU_ASSERT_FATAL(open_config(&r, CUTEST_SRC("configs/990.ini"), k ? L2P_HMB : L2P_DRAM, 0,
                                    TRIM_IMMEDIATE));
        DrivePrefill pf = {.fill = 1.0, .seed = 1};
        CU_ASSERT_FATAL(drive_prefill(r.d, &pf));
        m[k][0] = measure(&r, small);
        m[k][1] = measure(&r, full);
        cache = drive_params(r.d)->l2p_cache;
        testrun_close(&r);
    }
    double per_tp = 16384 / 4, entries = 1e12 / 4096;
    double cover_full = (double)(cache / 16384) * per_tp / entries;
    fprintf(stderr, "\n  990, 8 GiB span: hmb %.0f IOPS, dram %.0f (%.3f), hit %.4f\n",
            m[1][0].iops, m[0][0].iops, m[1][0].iops / m[0][0].iops, m[1][0].hit);
    fprintf(stderr, "  990, full span:  hmb %.0f IOPS, dram %.0f (%.3f), hit %.4f, coverage %.4f\n",
            m[1][1].iops, m[0][1].iops, m[1][1].iops / m[0][1].iops, m[1][1].hit, cover_full);
    CUTEST_NEAR(m[1][0].iops / m[0][0].iops, 1.0, 0.10);
    CUTEST_NEAR(m[1][0].hit, 1.0, 0.05);
    CUTEST_NEAR(m[1][1].hit, cover_full, 0.05);
    CU_ASSERT(m[1][1].iops < 0.85 * m[0][1].iops);
}

/* Sequential 128 KiB writes on the 990 update each translation page's 4096
 * entries in a row: one miss per page. */
static void test_seq_write_hits(void)
{
    TestRun r;
    CU_ASSERT_FATAL(open_config(&r, CUTEST_SRC("configs/990.ini"), L2P_HMB, 0, TRIM_IMMEDIATE));
    Measure m = measure(&r, "rw=write,bs=128k,iodepth=32,size=8g");
    fprintf(stderr, "\n  sequential 128 KiB writes: hit %.4f\n", m.hit);
    CU_ASSERT(m.hit >= 0.99);
    assert_consistent(r.d);
    testrun_close(&r);
}

/* ---- Series sampled every 0.5 s ------------------------------------------ */

typedef struct Rates {
    TestRun *r;
    SimTime every;            /* ns */
    GArray *iops, *read_MBps; /* per interval */
    uint64_t ios, rbytes;
    bool on;
} Rates;

static void sample_ev(void *ctx, uint64_t arg)
{
    Rates *s = ctx;
    (void)arg;
    if (!s->on)
        return;
    const DriveStats *st = drive_stats(s->r->d);
    uint64_t ios = st->host_ios[IO_READ] + st->host_ios[IO_WRITE];
    double per_s = 1e9 / (double)s->every;
    double v = (double)(ios - s->ios) * per_s,
           mb = (double)(st->host_bytes[IO_READ] - s->rbytes) * per_s / 1e6;
    g_array_append_val(s->iops, v);
    g_array_append_val(s->read_MBps, mb);
    s->ios = ios;
    s->rbytes = st->host_bytes[IO_READ];
    sim_schedule_in(s->r->e, s->every, sample_ev, s, 0);
}

static void rates_start(Rates *s, TestRun *r, SimTime every)
{
    const DriveStats *st = drive_stats(r->d);
    *s = (Rates){.r = r,
                   .on = true,
                   .every = every,
                   .iops = g_array_new(FALSE, FALSE, sizeof(double)),
                   .read_MBps = g_array_new(FALSE, FALSE, sizeof(double)),
                   .ios = st->host_ios[IO_READ] + st->host_ios[IO_WRITE],
                   .rbytes = st->host_bytes[IO_READ]};
    sim_schedule_in(r->e, every, sample_ev, s, 0);
}

static void rates_free(Rates *s)
{
    g_array_free(s->iops, TRUE);
    g_array_free(s->read_MBps, TRUE);
}

static double cov_of(const double *v, guint n)
{
    double sum = 0, sq = 0;
    for (guint i = 0; i < n; i++)
        sum += v[i];
    double mean = sum / n;
    for (guint i = 0; i < n; i++)
        sq += pow(v[i] - mean, 2);
    return mean > 0 ? sqrt(sq / n) / mean : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The scatter of a series about its local level: the median, over windows
 * of w intervals, of each window's coefficient of variation. GC makes the
 * level itself drift over minutes (how much valid data its victims hold
 * changes as the prefill's blocks age), which a CoV of the whole series
 * would count as spread. */
static double local_cov(const GArray *a, guint w)
{
    guint n = a->len / w;
    double c[n];
    for (guint k = 0; k < n; k++)
        c[k] = cov_of(&g_array_index(a, double, k * w), w);
    qsort(c, n, sizeof *c, cmp_double);
    return n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
}

/* R1.4: 4 KiB random writes over the whole span of a full drive. Without
 * DRAM every write loads and dirties a translation page the cache rarely
 * holds, and the loads and write-backs compete for the dies with host
 * programs and GC: IOPS per 0.5 s interval scatter more widely than with
 * DRAM. The drive is prefilled sequentially; the first 4 GB of random
 * writes use up the over-provisioning and start GC, and the next 20 GB are
 * measured, GC running throughout. */
static void test_random_write_spread(void)
{
    double c[2], g[2], mean[2];
    for (int k = 0; k < 2; k++) {
        TestRun r;
        Rates s;
        CU_ASSERT_FATAL(open_drive(&r, k ? L2P_HMB : L2P_DRAM, 2 << 20, TRIM_IMMEDIATE));
        DrivePrefill pf = {.fill = 1.0, .seed = 1};
        CU_ASSERT_FATAL(drive_prefill(r.d, &pf));
        CU_ASSERT(testrun_spec(&r, "rw=randwrite,bs=4k,iodepth=32,size=100%,io_size=4g"));
        uint64_t gc0 = drive_stats(r.d)->nand_write_bytes[CAUSE_GC];
        rates_start(&s, &r, SIM_SEC / 2);
        CU_ASSERT(testrun_spec(&r, "rw=randwrite,bs=4k,iodepth=32,size=100%,io_size=20g"));
        s.on = false;
        /* GC ran in the measured stretch: at least one byte moved per host byte */
        CU_ASSERT(drive_stats(r.d)->nand_write_bytes[CAUSE_GC] - gc0 > 20000000000ull);
        c[k] = local_cov(s.iops, 20);
        g[k] = cov_of((double *)s.iops->data, s.iops->len);
        mean[k] = 0;
        for (guint i = 0; i < s.iops->len; i++)
            mean[k] += g_array_index(s.iops, double, i) / s.iops->len;
        CU_ASSERT(s.iops->len >= 100);
        assert_consistent(r.d);
        rates_free(&s);
        testrun_close(&r);
    }
    fprintf(stderr,
            "\n  random writes under GC, 0.5 s IOPS: dram mean %.0f CoV %.3f (10 s windows, "
            "median; whole run %.3f), hmb mean %.0f CoV %.3f (whole run %.3f)\n",
            mean[0], c[0], g[0], mean[1], c[1], g[1]);
    CU_ASSERT(c[1] > 1.2 * c[0]);
}

/* R1.6, scaled: eight 3 GiB files, an idle time, then a 4 GiB read of other
 * data while the files are trimmed 1 GiB at a time, sampled every 0.1 s (the
 * drive is 32 times smaller than the review's). immediate: every TRIM holds
 * the controller for its entries (100 ns each) and translation pages, and
 * reads crawl meanwhile; deferred: reads keep their speed. */
static double trim_stall_min(TrimPolicy policy, double *mean)
{
    TestRun r;
    Rates s;
    CU_ASSERT_FATAL(open_drive(&r, L2P_HMB, 2 << 20, policy));
    rates_start(&s, &r, SIM_SEC / 10);
    CU_ASSERT(testrun_spec(&r, "trim-stall:files=8:file_size=3g:idle=20s:read_size=4g"));
    s.on = false;
    /* the read phase: intervals with reads, but the first and last partial */
    double lo = INFINITY, sum = 0;
    int n = 0;
    for (guint i = 1; i + 1 < s.read_MBps->len; i++) {
        double v = g_array_index(s.read_MBps, double, i);
        if (v <= 0 || g_array_index(s.read_MBps, double, i - 1) <= 0 ||
            g_array_index(s.read_MBps, double, i + 1) <= 0)
            continue;
        lo = MIN(lo, v);
        sum += v;
        n++;
    }
    *mean = n ? sum / n : 0;
    CUTEST_EQ(drive_stats(r.d)->host_bytes[IO_TRIM], 24ull << 30);
    CUTEST_EQ(drive_lookup(r.d, 0), DRIVE_UNMAPPED);
    assert_consistent(r.d);
    rates_free(&s);
    testrun_close(&r);
    return lo;
}

static void test_trim_stall(void)
{
    double mean_i, mean_d;
    double lo_i = trim_stall_min(TRIM_IMMEDIATE, &mean_i);
    double lo_d = trim_stall_min(TRIM_DEFERRED, &mean_d);
    fprintf(stderr,
            "\n  trim-stall read MB/s: immediate min %.0f mean %.0f; deferred min %.0f mean %.0f\n",
            lo_i, mean_i, lo_d, mean_d);
    CU_ASSERT(lo_i < 0.5 * lo_d);
    CU_ASSERT(mean_i < mean_d);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"random_read_span", test_random_read_span},
        {"random_read_990", test_random_read_990},
        {"seq_write_hits", test_seq_write_hits},
        {"random_write_spread", test_random_write_spread},
        {"trim_stall", test_trim_stall},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("l2p", tests);
}
