/* test_histogram.c - latency histogram: percentiles against a sorted copy of
 * the same data for several distributions, exact min/max/mean, merge, reset,
 * empty, each bucket holding its values, recording into two at once, and
 * CSV output read back. */
#include "sim/engine/engine.h"
#include "sim/engine/histogram.h"
#include "tests/cutest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t (*DrawFn)(SimRng *r);

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Log-uniform between 100 ns and 100 s. */
static uint64_t draw_log_uniform(SimRng *r)
{
    return (uint64_t)llround(exp(log(100.0) + sim_rng_double(r) * (log(100e9) - log(100.0))));
}

/* Uniform between 20 us and 30 us. */
static uint64_t draw_uniform(SimRng *r)
{
    return 20000 + sim_rng_below(r, 10001);
}

/* Bimodal: 95% near 60 us (cache hits), 5% near 3 ms (NAND reads under GC). */
static uint64_t draw_bimodal(SimRng *r)
{
    if (sim_rng_below(r, 100) < 95)
        return 55000 + sim_rng_below(r, 10000);
    return 2500000 + sim_rng_below(r, 1000000);
}

/* Small values, below the first power-of-two group: kept exactly. */
static uint64_t draw_small(SimRng *r)
{
    return sim_rng_below(r, 128);
}

/* Exponential with a 200 us mean: a long tail. */
static uint64_t draw_exponential(SimRng *r)
{
    return (uint64_t)(-200000.0 * log(1.0 - sim_rng_double(r))) + 1;
}

static void check_distribution(DrawFn draw, uint64_t seed, size_t n)
{
    g_autoptr(LatHist) h = lat_hist_new();
    uint64_t *v = g_new(uint64_t, n);
    SimRng r;
    sim_rng_init(&r, seed, 0);
    long double sum = 0;
    for (size_t i = 0; i < n; i++) {
        v[i] = draw(&r);
        sum += v[i];
        lat_hist_record(h, v[i]);
    }
    qsort(v, n, sizeof *v, cmp_u64);
    CUTEST_EQ(lat_hist_count(h), n);
    CUTEST_EQ(lat_hist_min(h), v[0]);
    CUTEST_EQ(lat_hist_max(h), v[n - 1]);
    CUTEST_NEAR(lat_hist_mean(h), (double)(sum / n), 1e-9 * (double)(sum / n));
    static const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99};
    for (unsigned k = 0; k < G_N_ELEMENTS(pcts); k++) {
        size_t rank = (size_t)ceil(pcts[k] / 100.0 * (double)n);
        double exact = (double)v[rank - 1];
        double got = (double)lat_hist_percentile(h, pcts[k]);
        CUTEST_NEAR(got, exact, 0.01 * exact);
    }
    CUTEST_EQ(lat_hist_percentile(h, 100), v[n - 1]);
    g_free(v);
}

static void test_log_uniform(void)
{
    check_distribution(draw_log_uniform, 1, 200000);
}

static void test_other_distributions(void)
{
    check_distribution(draw_uniform, 2, 100000);
    check_distribution(draw_bimodal, 3, 100000);
    check_distribution(draw_exponential, 4, 100000);
}

static void test_small_values_exact(void)
{
    check_distribution(draw_small, 5, 10000);
    g_autoptr(LatHist) h = lat_hist_new();
    for (uint64_t i = 0; i < 100; i++)
        lat_hist_record(h, i);
    CUTEST_EQ(lat_hist_percentile(h, 50), 49);
    CUTEST_EQ(lat_hist_percentile(h, 1), 0);
    CUTEST_EQ(lat_hist_percentile(h, 37.5), 37);
}

static void test_single_and_clamped(void)
{
    g_autoptr(LatHist) h = lat_hist_new();
    lat_hist_record(h, 123456789);
    CUTEST_EQ(lat_hist_percentile(h, 50), 123456789); /* clamped to exact min/max */
    CUTEST_EQ(lat_hist_percentile(h, 0.001), 123456789);
    lat_hist_reset(h);
    uint64_t huge = UINT64_C(500) * 1000000000; /* 500 s, above the top bucket */
    lat_hist_record(h, huge);
    lat_hist_record(h, huge + 1);
    CUTEST_EQ(lat_hist_max(h), huge + 1);
    CUTEST_EQ(lat_hist_min(h), huge);
    CUTEST_EQ(lat_hist_percentile(h, 50), huge);
    CUTEST_EQ(lat_hist_percentile(h, 100), huge + 1);
}

static void test_empty_and_reset(void)
{
    g_autoptr(LatHist) h = lat_hist_new();
    CUTEST_EQ(lat_hist_count(h), 0);
    CUTEST_EQ(lat_hist_min(h), 0);
    CUTEST_EQ(lat_hist_max(h), 0);
    CUTEST_NEAR(lat_hist_mean(h), 0.0, 0.0);
    CUTEST_EQ(lat_hist_percentile(h, 99), 0);
    for (uint64_t i = 1; i <= 1000; i++)
        lat_hist_record(h, i * 1000);
    CUTEST_EQ(lat_hist_count(h), 1000);
    CUTEST_NEAR(lat_hist_mean(h), 500500.0, 1e-9);
    lat_hist_reset(h);
    CUTEST_EQ(lat_hist_count(h), 0);
    CUTEST_EQ(lat_hist_max(h), 0);
    CUTEST_EQ(lat_hist_percentile(h, 50), 0);
    lat_hist_record(h, 7);
    CUTEST_EQ(lat_hist_min(h), 7);
    CUTEST_EQ(lat_hist_max(h), 7);
    lat_hist_free(NULL);
}

/* The CSV text of a histogram. */
static char *csv_of(const LatHist *h)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_TRUE(lat_hist_write_csv(h, f));
    fclose(f);
    return buf;
}

static void test_merge(void)
{
    g_autoptr(LatHist) all = lat_hist_new();
    g_autoptr(LatHist) a = lat_hist_new();
    g_autoptr(LatHist) b = lat_hist_new();
    SimRng r;
    sim_rng_init(&r, 9, 0);
    for (int i = 0; i < 50000; i++) {
        uint64_t v = draw_log_uniform(&r);
        lat_hist_record(all, v);
        lat_hist_record(i % 3 ? a : b, v);
    }
    lat_hist_merge(a, b);
    CUTEST_EQ(lat_hist_count(a), lat_hist_count(all));
    CUTEST_EQ(lat_hist_min(a), lat_hist_min(all));
    CUTEST_EQ(lat_hist_max(a), lat_hist_max(all));
    CUTEST_NEAR(lat_hist_mean(a), lat_hist_mean(all), 0.0);
    for (double p = 5; p < 100; p += 5)
        CUTEST_EQ(lat_hist_percentile(a, p), lat_hist_percentile(all, p));
    char *ca = csv_of(a), *call = csv_of(all);
    CU_ASSERT_STRING_EQUAL(ca, call);
    free(ca);
    free(call);
    /* Merging an empty histogram changes nothing, min included. */
    g_autoptr(LatHist) e = lat_hist_new();
    lat_hist_merge(a, e);
    CUTEST_EQ(lat_hist_min(a), lat_hist_min(all));
    lat_hist_merge(e, a);
    CUTEST_EQ(lat_hist_min(e), lat_hist_min(all));
    CUTEST_EQ(lat_hist_count(e), lat_hist_count(all));
}

/* Each value lands in the bucket that holds it: its lower edge at or
 * below the value, the value within the bucket's width (1 below 256 ns,
 * at most 1/128 of the edge above), around every power of two. */
static void test_bucket_holds_value(void)
{
    g_autoptr(LatHist) h = lat_hist_new();
    for (int e = 0; e < 37; e++) {
        for (int d = -2; d <= 2; d++) {
            uint64_t v = (UINT64_C(1) << e) + (uint64_t)d;
            if (e < 2 && d < 0)
                continue;
            lat_hist_reset(h);
            lat_hist_record(h, v);
            unsigned idx = 0;
            uint64_t low = UINT64_MAX, count = 0;
            CU_ASSERT_TRUE(lat_hist_next_bucket(h, &idx, &low, &count));
            CUTEST_EQ(count, 1);
            CU_ASSERT(low <= v);
            CU_ASSERT(v - low < MAX(low / 128, 1));
        }
    }
}

/* lat_hist_record2 puts a value in two histograms as two records would. */
static void test_record2(void)
{
    g_autoptr(LatHist) a = lat_hist_new();
    g_autoptr(LatHist) b = lat_hist_new();
    g_autoptr(LatHist) one = lat_hist_new();
    SimRng r;
    sim_rng_init(&r, 11, 0);
    lat_hist_record(b, 7); /* b holds more than a: its own min */
    for (int i = 0; i < 20000; i++) {
        uint64_t v = draw_log_uniform(&r);
        lat_hist_record2(a, b, v);
        lat_hist_record(one, v);
    }
    char *ca = csv_of(a), *cone = csv_of(one);
    CU_ASSERT_STRING_EQUAL(ca, cone);
    free(ca);
    free(cone);
    CUTEST_EQ(lat_hist_count(b), lat_hist_count(one) + 1);
    CUTEST_EQ(lat_hist_min(b), 7);
    CUTEST_EQ(lat_hist_max(b), lat_hist_max(one));
    CUTEST_EQ(lat_hist_min(a), lat_hist_min(one));
}

static void test_csv_exact(void)
{
    g_autoptr(LatHist) h = lat_hist_new();
    lat_hist_record(h, 5);
    lat_hist_record(h, 5);
    lat_hist_record(h, 5);
    lat_hist_record(h, 1000); /* [1000, 1004): 2^9 split into 128 buckets of 4 */
    lat_hist_record(h, 1003);
    lat_hist_record(h, 1004);
    lat_hist_record(h, 1000000); /* 2^19 group: buckets of 4096, 999424 + 4096 */
    lat_hist_record(h, 1000000);
    char *csv = csv_of(h);
    CU_ASSERT_STRING_EQUAL(csv, "bucket_low_ns,bucket_high_ns,count,cumulative_fraction\n"
                                "5,6,3,0.375\n"
                                "1000,1004,2,0.625\n"
                                "1004,1008,1,0.75\n"
                                "999424,1003520,2,1\n");
    free(csv);
    g_autoptr(LatHist) e = lat_hist_new();
    csv = csv_of(e);
    CU_ASSERT_STRING_EQUAL(csv, "bucket_low_ns,bucket_high_ns,count,cumulative_fraction\n");
    free(csv);
}

/* Parse one unsigned CSV field, advancing *p past it and its separator. */
static uint64_t field_u64(char **p)
{
    char *end = NULL;
    uint64_t v = g_ascii_strtoull(*p, &end, 10);
    CU_ASSERT(end != *p && *end == ',');
    *p = end + 1;
    return v;
}

/* Read the CSV back; rebuilding a histogram from the rows gives the same
 * counts, hence the same CSV text. */
static void test_csv_roundtrip(void)
{
    g_autoptr(LatHist) h = lat_hist_new();
    g_autoptr(LatHist) back = lat_hist_new();
    SimRng r;
    sim_rng_init(&r, 11, 0);
    for (int i = 0; i < 20000; i++)
        lat_hist_record(h, draw_bimodal(&r));
    char *csv = csv_of(h);
    g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
    CU_ASSERT_STRING_EQUAL(lines[0], "bucket_low_ns,bucket_high_ns,count,cumulative_fraction");
    uint64_t total = 0, prev_high = 0;
    double frac = 0;
    int rows = 0;
    for (int i = 1; lines[i] && lines[i][0]; i++, rows++) {
        char *p = lines[i];
        uint64_t low = field_u64(&p), high = field_u64(&p), count = field_u64(&p);
        char *end = NULL;
        frac = g_ascii_strtod(p, &end);
        CU_ASSERT(end != p && *end == '\0');
        CU_ASSERT(low >= prev_high && high > low && count > 0);
        prev_high = high;
        total += count;
        CUTEST_NEAR(frac, (double)total / 20000.0, 1e-9);
        for (uint64_t k = 0; k < count; k++)
            lat_hist_record(back, low);
    }
    CU_ASSERT(rows > 10);
    CUTEST_EQ(total, 20000);
    CUTEST_NEAR(frac, 1.0, 0.0);
    char *csv2 = csv_of(back);
    CU_ASSERT_STRING_EQUAL(csv2, csv);
    free(csv);
    free(csv2);
}

/* Recording must stay cheap: 10 M values well under a second. */
static void test_record_speed(void)
{
    g_autoptr(LatHist) h = lat_hist_new();
    gint64 t0 = g_get_monotonic_time();
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 10000000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        lat_hist_record(h, x >> 28);
    }
    gint64 us = g_get_monotonic_time() - t0;
    CUTEST_EQ(lat_hist_count(h), 10000000);
    CU_ASSERT(us < 2000000);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"log-uniform 100 ns..100 s vs sort", test_log_uniform},
        {"uniform, bimodal, exponential vs sort", test_other_distributions},
        {"small values exact", test_small_values_exact},
        {"single value and clamped top", test_single_and_clamped},
        {"empty and reset", test_empty_and_reset},
        {"merge equals recording both", test_merge},
        {"a value's bucket holds it", test_bucket_holds_value},
        {"record2 equals recording each", test_record2},
        {"CSV exact text", test_csv_exact},
        {"CSV read back", test_csv_roundtrip},
        {"record speed", test_record_speed},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("histogram", tests);
}
