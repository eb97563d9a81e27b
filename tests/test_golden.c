/*
 * test_golden.c - golden runs of the drive core against the reviews.
 *
 * The PRO drives and the PM863a are bound by the SATA link on sequential
 * writes (samsung-sata-lineup.md, pm863a.md): whole-drive 128 KiB QD 32
 * writes must run at the rated speed from start to end. And a full drive
 * under 4 KiB random writes must show GC: WAF > 1, throughput falling from
 * fresh to steady state, and a steady-state WAF that matches an independent
 * page-level model of greedy GC on the same geometry.
 */
#include "sim/config/config.h"
#include "sim/cmd/run.h"
#include "tests/cutest.h"
#include "tests/runspec.h"

#include <glib/gstdio.h>
#include <math.h>

static char *tmp_results(void)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("ftlsim-golden-XXXXXX", &e);
    g_assert_no_error(e);
    g_rmdir(dir); /* run_simulation creates it */
    return dir;
}

static void rm_results(const char *dir)
{
    cutest_rm_tree(dir);
    CU_ASSERT_FALSE(g_file_test(dir, G_FILE_TEST_EXISTS));
}

/* Run spec on config into a temporary folder; returns the folder. */
static char *run_dir(const char *config, const char *spec, double interval_s)
{
    char *dir = tmp_results();
    RunOptions o;
    run_options_init(&o);
    o.drive = config;
    o.spec = spec;
    o.out = dir;
    o.quiet = TRUE;
    o.interval = (SimTime)(interval_s * 1e9);
    GError *error = NULL;
    gboolean ok = run_simulation(&o, &error);
    if (!ok) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
    }
    CU_ASSERT_TRUE(ok);
    return dir;
}

/* Column col of the series, the last (partial) interval dropped. */
static GArray *series(const char *dir, int col)
{
    GArray *v = testrun_series_column(dir, col);
    if (v->len > 1)
        g_array_set_size(v, v->len - 1);
    return v;
}

static GArray *run_series(const char *config, const char *spec, double interval_s, int col)
{
    g_autofree char *dir = run_dir(config, spec, interval_s);
    GArray *v = series(dir, col);
    rm_results(dir);
    return v;
}

/* Every interval of a whole-drive write within tol of rated. */
static void check_flat(GArray *mbps, double rated, double tol, guint first)
{
    CU_ASSERT(mbps->len > 20);
    double sum = 0, lo = 1e18, hi = 0;
    for (guint i = first; i < mbps->len; i++) {
        double v = g_array_index(mbps, double, i);
        sum += v;
        lo = MIN(lo, v);
        hi = MAX(hi, v);
    }
    double mean = sum / (mbps->len - first);
    printf("\n    mean %.1f MB/s, min %.1f, max %.1f (rated %.1f +- %.0f%%) ", mean, lo, hi, rated,
           tol * 100);
    CUTEST_NEAR(mean, rated, rated * tol);
    CU_ASSERT(lo >= rated * (1 - tol));
    CU_ASSERT(hi <= rated * (1 + tol));
}

#define COL_WRITE_MBPS 3
#define COL_HOST_WRITE_BYTES 1

/* R1.3e: 860 PRO saturates SATA; rated 530 MB/s sequential write. */
static void test_860pro_fill(void)
{
    g_autoptr(GArray) v = run_series(CUTEST_SRC("configs/860pro.ini"),
                                     "rw=write,bs=128k,iodepth=32,size=100%", 5, COL_WRITE_MBPS);
    check_flat(v, 530, 0.05, 0);
}

/* R1.3d: 850 PRO saturates SATA; rated 520 MB/s sequential write. */
static void test_850pro_fill(void)
{
    g_autoptr(GArray) v = run_series(CUTEST_SRC("configs/850pro.ini"),
                                     "rw=write,bs=128k,iodepth=32,size=100%", 5, COL_WRITE_MBPS);
    check_flat(v, 520, 0.05, 0);
}

/* The dies' time agrees with the rate: in a link-bound fill of the 860
 * PRO, each program unit keeps a die busy for its transfer and tPROG, and
 * at most one more transfer while the other die on its channel sends
 * first, so the share of the dies' time programming host data is the write
 * rate x that time / (unit x dies), interval by interval, within the wait
 * (about 0.8: the dies wait for the link the rest of the time). */
#define COL_DIE_HOST 15
static void test_860pro_die_time(void)
{
    const char *cfg = CUTEST_SRC("configs/860pro.ini");
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file(cfg, &p, &e));
    double unit = (double)drive_params_program_unit(&p, p.native_mode);
    double xfer_s = unit / drive_params_channel_bw(&p);
    double op_s = p.timing[p.native_mode].t_prog / 1e9 + xfer_s;
    double per_mbps = 1e6 * op_s / (unit * drive_params_dies(&p));
    g_autofree char *dir = run_dir(cfg, "rw=write,bs=1m,iodepth=2,size=20g", 1);
    g_autoptr(GArray) mbps = series(dir, COL_WRITE_MBPS);
    g_autoptr(GArray) host = series(dir, COL_DIE_HOST);
    rm_results(dir);
    CUTEST_REQUIRE(mbps->len > 10 && mbps->len == host->len);
    for (guint i = 1; i < mbps->len; i++) {
        double want = g_array_index(mbps, double, i) * per_mbps;
        double got = g_array_index(host, double, i);
        double most = want * (op_s + xfer_s) / op_s;
        if (got < want - 0.002 || got > most + 0.002)
            printf("\n    interval %u: dies %.4f busy with host programs, the rate says %.4f "
                   "to %.4f ", i, got, want, most);
        CU_ASSERT(got >= want - 0.002 && got <= most + 0.002);
    }
    double mid = g_array_index(host, double, mbps->len / 2);
    printf("\n    dies %.1f%% busy at %.1f MB/s ", 100 * mid, g_array_index(mbps, double, mbps->len / 2));
    CU_ASSERT(mid > 0.6 && mid < 0.9);
}

/* R1.3b: the 870 QVO's first 30 GB go to its pSLC cache, 6 GB static then
 * dynamic, at the SATA link's rate all the way: the eight dies stay in step
 * through the static blocks, so none runs out of them early and waits for
 * the others at the boundary (which once cost ~0.8 GB at half speed). */
static void test_870qvo_pslc_flat(void)
{
    g_autoptr(GArray) v = run_series(CUTEST_SRC("configs/870qvo.ini"),
                                     "rw=write,bs=1m,iodepth=2,size=30g", 0.25, COL_WRITE_MBPS);
    check_flat(v, 519, 0.02, 0);
}

/* R3.3a: PM863a after the PTS preconditioning (two drive writes of 128 KiB
 * sequential), 128 KiB sequential write: 484.65 MiB/s. */
static void test_pm863a_seq_after_precondition(void)
{
    g_autofree char *dir = run_dir(CUTEST_SRC("configs/pm863a.ini"),
                                   "rw=write,bs=128k,iodepth=32,size=100%,loops=2;"
                                   "rw=write,bs=128k,iodepth=32,runtime=60s,time_based",
                                   5);
    g_autoptr(GArray) mbps = series(dir, COL_WRITE_MBPS);
    g_autoptr(GArray) bytes = series(dir, COL_HOST_WRITE_BYTES);
    rm_results(dir);
    double pre = 2.0 * 960197124096.0, sum = 0;
    guint n = 0;
    for (guint i = 0; i < mbps->len && i < bytes->len; i++)
        if (g_array_index(bytes, double, i) > pre + 5 * 600e6) { /* a full interval past it */
            sum += g_array_index(mbps, double, i);
            n++;
        }
    CU_ASSERT(n >= 10);
    double mean = n ? sum / n : 0, rated = 484.65 * 1048576 / 1e6;
    printf("\n    after preconditioning %.1f MB/s over %u intervals (review %.1f) ", mean, n, rated);
    CUTEST_NEAR(mean, rated, rated * 0.10);
}

/* ---- GC against an independent model ------------------------------------ */

/* Page-level greedy GC with no timing: `blocks` blocks of `cap` pages, user
 * pages filled sequentially then overwritten uniformly at random; when
 * fewer than min_free blocks are free, the full block with fewest valid
 * pages is relocated into the GC block and erased. Returns the WAF over the
 * last `measure` host writes after `warm` warm-up writes. */
static double greedy_model_waf(uint32_t blocks, uint32_t cap, uint32_t user, uint32_t min_free,
                               uint64_t warm, uint64_t measure, uint64_t seed)
{
    uint32_t *l2p = g_new(uint32_t, user), *p2l = g_new(uint32_t, (size_t)blocks * cap);
    uint32_t *valid = g_new0(uint32_t, blocks), *wp = g_new0(uint32_t, blocks);
    uint32_t *free_stack = g_new(uint32_t, blocks), nfree = 0;
    memset(l2p, 0xff, user * sizeof(uint32_t));
    memset(p2l, 0xff, (size_t)blocks * cap * sizeof(uint32_t));
    for (uint32_t b = blocks; b-- > 0;)
        free_stack[nfree++] = b;
    uint32_t host = free_stack[--nfree], gcb = free_stack[--nfree];
    uint64_t host_w = 0, gc_w = 0;
    SimRng r;
    sim_rng_init(&r, seed, 7);
#define PUT(lpn, blk)                                                                              \
    do {                                                                                           \
        uint32_t s_ = (blk) * cap + wp[blk]++;                                                     \
        if (l2p[lpn] != UINT32_MAX) {                                                              \
            p2l[l2p[lpn]] = UINT32_MAX;                                                            \
            valid[l2p[lpn] / cap]--;                                                               \
        }                                                                                          \
        l2p[lpn] = s_;                                                                             \
        p2l[s_] = (lpn);                                                                           \
        valid[blk]++;                                                                              \
    } while (0)
    for (uint64_t i = 0; i < user + warm + measure; i++) {
        uint32_t lpn = i < user ? (uint32_t)i : (uint32_t)sim_rng_below(&r, user);
        if (wp[host] == cap)
            host = free_stack[--nfree];
        PUT(lpn, host);
        if (i >= user + warm)
            host_w++;
        while (nfree < min_free) {
            uint32_t v = UINT32_MAX;
            for (uint32_t b = 0; b < blocks; b++)
                if (wp[b] == cap && b != host && b != gcb && (v == UINT32_MAX || valid[b] < valid[v]))
                    v = b;
            if (v == UINT32_MAX || valid[v] == cap)
                break; /* nothing to gain: the geometry cannot hold the data */
            for (uint32_t s = 0; s < cap; s++) {
                uint32_t lpn2 = p2l[v * cap + s];
                if (lpn2 == UINT32_MAX)
                    continue;
                if (wp[gcb] == cap)
                    gcb = free_stack[--nfree];
                PUT(lpn2, gcb);
                if (i >= user + warm)
                    gc_w++;
            }
            wp[v] = 0;
            free_stack[nfree++] = v;
        }
    }
#undef PUT
    g_free(l2p), g_free(p2l), g_free(valid), g_free(wp), g_free(free_stack);
    return (double)(host_w + gc_w) / (double)host_w;
}

static void test_random_write_gc(void)
{
    TestRun r;
    CU_ASSERT_FATAL(testrun_open(&r, CUTEST_SRC("tests/data/drives/small_tlc.ini")));
    const DriveParams *p = drive_params(r.d);
    uint64_t cap = p->user_capacity;
    CU_ASSERT(testrun_spec(&r, "rw=write,bs=1m,iodepth=4,size=100%"));
    /* fresh: the first 5% of a drive write of random 4 KiB */
    DriveStats s0 = *drive_stats(r.d);
    SimTime t0 = sim_now(r.e);
    char spec[128];
    g_snprintf(spec, sizeof spec, "rw=randwrite,bs=4k,iodepth=32,norandommap,io_size=%" G_GUINT64_FORMAT, cap / 20);
    CU_ASSERT(testrun_spec(&r, spec));
    double fresh_iops = (double)(drive_stats(r.d)->host_ios[IO_WRITE] - s0.host_ios[IO_WRITE]) /
                        ((double)(sim_now(r.e) - t0) / 1e9);
    /* warm up to steady state, then measure over two drive writes */
    g_snprintf(spec, sizeof spec, "rw=randwrite,bs=4k,iodepth=32,norandommap,io_size=%" G_GUINT64_FORMAT, 3 * cap);
    CU_ASSERT(testrun_spec(&r, spec));
    DriveStats s1 = *drive_stats(r.d);
    SimTime t1 = sim_now(r.e);
    g_snprintf(spec, sizeof spec, "rw=randwrite,bs=4k,iodepth=32,norandommap,io_size=%" G_GUINT64_FORMAT, 2 * cap);
    CU_ASSERT(testrun_spec(&r, spec));
    const DriveStats *s2 = drive_stats(r.d);
    double steady_iops = (double)(s2->host_ios[IO_WRITE] - s1.host_ios[IO_WRITE]) /
                         ((double)(sim_now(r.e) - t1) / 1e9);
    double waf = (double)(testrun_nand_bytes(s2) - testrun_nand_bytes(&s1)) /
                 (double)(s2->host_bytes[IO_WRITE] - s1.host_bytes[IO_WRITE]);
    char why[256];
    CU_ASSERT_TRUE(drive_check(r.d, why, sizeof why));

    /* The same geometry per die in the reference model: the drive's GC is
     * die-local and host data is striped evenly, so each die is one copy. */
    uint32_t dies = drive_params_dies(p);
    uint32_t blocks = p->blocks_per_plane;
    uint32_t slots = p->planes * p->pages_per_block * (p->page_size / 4096);
    uint32_t user = (uint32_t)(cap / 4096 / dies);
    double model = greedy_model_waf(blocks, slots, user, p->gc_soft_blocks, 3ull * user,
                                    2ull * user, 5);
    double rho = (double)blocks * slots / user - 1;
    printf("\n    fresh %.0f IOPS, steady %.0f IOPS; WAF %.2f, greedy model %.2f, "
           "(1+r)/2r = %.2f for r = %.3f ", fresh_iops, steady_iops, waf, model,
           (1 + rho) / (2 * rho), rho);
    CU_ASSERT(waf > 1.5);
    CU_ASSERT(fresh_iops > 2 * steady_iops);
    CUTEST_NEAR(waf, model, model * 0.15);
    testrun_close(&r);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"860pro_fill_at_sata_speed", test_860pro_fill},
        {"850pro_fill_at_sata_speed", test_850pro_fill},
        {"870qvo_pslc_flat_through_static", test_870qvo_pslc_flat},
        {"860pro_die_time_agrees_with_rate", test_860pro_die_time},
        {"pm863a_seq_after_precondition", test_pm863a_seq_after_precondition},
        {"random_write_gc_waf", test_random_write_gc},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("golden", tests);
}
