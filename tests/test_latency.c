/*
 * test_latency.c - read latency that varies as NAND does: tR by page type
 * ([timing.<mode>] read_by_page) and read retries (read_retry_rate,
 * read_retry_time), seen by QD 1 random 4 KiB reads of a full tiny drive.
 */
#include <stdlib.h>
#include <string.h>

#include "models/drive.h"
#include "sim/config/config.h"
#include "tests/cutest.h"
#include "tests/tiny_drive.h"

/* A closed loop of one random 4 KiB read at a time. */
typedef struct Qd1 {
    SimEngine *e;
    Drive *d;
    SimRng r;
    uint64_t pages;
    uint32_t n, want;
    SimTime start;
    SimTime *lat; /* ns, one per read */
} Qd1;

static void qd1_submit(Qd1 *q)
{
    q->start = sim_now(q->e);
    drive_submit(q->d, &(DriveCmd){.op = IO_READ, .offset = sim_rng_below(&q->r, q->pages) * 4096, .length = 4096});
}

static void qd1_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Qd1 *q = ctx;
    (void)tag;
    q->lat[q->n++] = sim_now(q->e) - q->start;
    if (q->n == q->want)
        sim_stop(q->e);
    else
        qd1_submit(q);
}

static int cmp_time(const void *a, const void *b)
{
    SimTime x = *(const SimTime *)a, y = *(const SimTime *)b;
    return (x > y) - (x < y);
}

/* n QD 1 reads of the whole of a fully written tiny drive set up as dp
 * says, sorted into lat; *retries gets the drive's count. */
static void qd1_reads(const DriveParams *dp, uint32_t n, SimTime *lat, uint64_t *retries)
{
    Qd1 q = {.e = sim_engine_new(), .want = n, .lat = lat};
    q.d = drive_new(q.e, dp, 7);
    q.pages = dp->user_capacity / 4096;
    CU_ASSERT(drive_prefill(q.d, &(DrivePrefill){.fill = 1.0, .seed = 3}));
    sim_rng_init(&q.r, 11, 0);
    drive_set_done(q.d, qd1_done, &q);
    qd1_submit(&q);
    sim_run(q.e, SIM_TIME_MAX);
    CUTEST_EQ(q.n, n);
    char why[256];
    CU_ASSERT_TRUE(drive_check(q.d, why, sizeof why));
    *retries = drive_stats(q.d)->read_retries;
    drive_free(q.d);
    sim_engine_free(q.e);
    qsort(lat, n, sizeof *lat, cmp_time);
}

/* Reads in [lo, hi) ns above the fastest. */
static uint32_t band(const SimTime *lat, uint32_t n, SimTime lo, SimTime hi)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        k += lat[i] - lat[0] >= lo && lat[i] - lat[0] < hi;
    return k;
}

/* Without the keys every QD 1 read of a TLC drive takes the same time: one
 * tR, the same transfers. */
static void test_flat_without_keys(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    enum { N = 2000 };
    SimTime *lat = g_new(SimTime, N);
    uint64_t retries;
    qd1_reads(&dp, N, lat, &retries);
    CUTEST_EQ(lat[N - 1], lat[0]);
    CUTEST_EQ(retries, 0);
    g_free(lat);
}

/* TLC lower, middle and upper pages of 50, 65 and 80 us: three modes of
 * latency 15 us apart, each about a third of the reads (a full drive holds
 * as many pages of each type; the reads are uniform over it). */
static void test_page_types(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    uint64_t by[] = {50 * SIM_US, 65 * SIM_US, 80 * SIM_US};
    memcpy(dp.timing[CELL_TLC].t_read_page, by, sizeof by);
    enum { N = 6000 };
    SimTime *lat = g_new(SimTime, N);
    uint64_t retries;
    qd1_reads(&dp, N, lat, &retries);
    uint32_t lower = band(lat, N, 0, 1 * SIM_US), middle = band(lat, N, 15 * SIM_US, 16 * SIM_US),
             upper = band(lat, N, 30 * SIM_US, 31 * SIM_US);
    printf("\n    QD 1 reads: %u lower, %u middle, %u upper page; p50 %.1f us, max %.1f us above "
           "the fastest ",
           lower, middle, upper, (lat[N / 2] - lat[0]) / 1e3, (lat[N - 1] - lat[0]) / 1e3);
    CUTEST_EQ(lower + middle + upper, N); /* nothing but the three modes */
    CU_ASSERT(lower > N / 4 && middle > N / 4 && upper > N / 4);
    CU_ASSERT(lat[N / 2] - lat[0] >= 15 * SIM_US && lat[N / 2] - lat[0] < 16 * SIM_US);
    CU_ASSERT(lat[N - 1] - lat[0] >= 30 * SIM_US && lat[N - 1] - lat[0] < 31 * SIM_US);
    g_free(lat);
}

/* A retry rate r makes a share r of the reads slow (each read here senses
 * one page, and a first retry happens with probability r), within 5 sigma;
 * the same seed gives the same run. */
static void test_retry_rate(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    const double r = 0.08;
    dp.timing[CELL_TLC].read_retry_rate = r;
    dp.timing[CELL_TLC].read_retry_time = 200 * SIM_US;
    enum { N = 20000 };
    SimTime *lat = g_new(SimTime, N);
    uint64_t retries, again;
    qd1_reads(&dp, N, lat, &retries);
    uint32_t slow = band(lat, N, 200 * SIM_US, SIM_TIME_MAX);
    double share = (double)slow / N, sigma = sqrt(r * (1 - r) / N);
    /* a page's retries are geometric: r / (1 - r) on average */
    double per_read = (double)retries / N, want = r / (1 - r);
    printf("\n    retry rate %.2f: %.4f of the reads slow (sigma %.4f), %.4f retries a read ",
           r, share, sigma, per_read);
    CU_ASSERT(fabs(share - r) < 5 * sigma);
    CU_ASSERT(fabs(per_read - want) < 0.2 * want);
    CUTEST_EQ(band(lat, N, 0, 200 * SIM_US), N - slow);
    CUTEST_EQ(band(lat, N, 0, 1 * SIM_US), N - slow); /* the others all take tR */
    qd1_reads(&dp, N, lat, &again);
    CUTEST_EQ(again, retries);
    g_free(lat);
}

/* The keys load: read_by_page into t_read_page, lower page first; a
 * count other than the mode's bits is refused naming the group and key. */
static void test_keys_load(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    const char *ok[] = {"timing.tlc.read_by_page=50us, 65us,80us", "timing.tlc.read_retry_rate=2%",
                        "timing.tlc.read_retry_time=70us", NULL};
    CU_ASSERT_TRUE(config_load_file_set("configs/reference.ini", ok, &p, &e));
    CUTEST_EQ(p.timing[CELL_TLC].t_read_page[0], 50 * SIM_US);
    CUTEST_EQ(p.timing[CELL_TLC].t_read_page[2], 80 * SIM_US);
    CUTEST_EQ(p.timing[CELL_TLC].t_read_page[3], 0);
    CU_ASSERT(p.timing[CELL_TLC].read_retry_rate == 0.02);
    CUTEST_EQ(p.timing[CELL_SLC].t_read_page[0], 0);
    const char *two[] = {"timing.tlc.read_by_page=50us,65us", NULL};
    CU_ASSERT_FALSE(config_load_file_set("configs/reference.ini", two, &p, &e));
    CU_ASSERT(e && strstr(e->message, "[timing.tlc] read_by_page = 50us,65us: expected 3 times"));
    g_clear_error(&e);
    const char *no_time[] = {"timing.tlc.read_retry_rate=1%", NULL};
    CU_ASSERT_FALSE(config_load_file_set("configs/reference.ini", no_time, &p, &e));
    CU_ASSERT(e && strstr(e->message, "read_retry_time = 0"));
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"flat without keys", test_flat_without_keys},
        {"page types", test_page_types},
        {"retry rate", test_retry_rate},
        {"keys load", test_keys_load},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("latency", tests);
}
