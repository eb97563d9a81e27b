/*
 * test_latency.c - read latency that varies as NAND does: tR by page type
 * ([timing.<mode>] read_by_page) and read retries (read_retry_rate,
 * read_retry_time), seen by QD 1 random 4 KiB reads of a full tiny drive;
 * and tPROG by page type (program_by_page), seen in the dies' program time.
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

/* A tiny drive of one die whose TLC programs page by page (one_shot =
 * false: a program unit is one page of each plane), with tPROG of 1, 2 and
 * 3 ms by page type. t_prog is set far from their mean on purpose: the
 * loader holds it to the mean, but the model must not read it here. */
static const uint64_t prog_by[] = {1 * SIM_MS, 2 * SIM_MS, 3 * SIM_MS};

static void page_by_page_drive(DriveParams *dp)
{
    tiny_drive(dp, 16, 0.3);
    dp->channels = 1;
    dp->user_capacity = drive_params_raw_capacity(dp) * 10 / 13 / 4096 * 4096;
    dp->timing[CELL_TLC].one_shot = false;
    dp->timing[CELL_TLC].t_prog = 5 * SIM_MS;
    memcpy(dp->timing[CELL_TLC].t_prog_page, prog_by, sizeof prog_by);
}

/* One program's die time: its data over the channel, then tPROG. */
static SimTime unit_xfer(const DriveParams *dp)
{
    uint64_t unit = drive_params_program_unit(dp, CELL_TLC);
    return (SimTime)((double)unit * 1e9 / drive_params_channel_bw(dp) + 0.5);
}

/* Each unit written and flushed alone, in order from the drive's start:
 * the die's time per program is the transfer (two with two_pass) and the
 * time of its page type, lower, middle, upper over and over; nothing else. */
static void program_page_types(bool two_pass)
{
    DriveParams dp;
    page_by_page_drive(&dp);
    dp.timing[CELL_TLC].two_pass = two_pass;
    uint64_t unit = drive_params_program_unit(&dp, CELL_TLC);
    SimTime xfer = unit_xfer(&dp);
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    enum { UNITS = 30 }; /* two and a half blocks of 12 units */
    uint32_t seen[3] = {0};
    uint64_t before = 0;
    for (uint32_t k = 0; k < UNITS; k++) {
        drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = k * unit, .length = unit});
        drive_submit(d, &(DriveCmd){.op = IO_FLUSH, .tag = 1});
        sim_run(e, SIM_TIME_MAX);
        drive_account(d);
        uint64_t busy = drive_stats(d)->die_busy_ns[WORK_HOST];
        uint64_t prog = busy - before - (two_pass ? 2 : 1) * xfer;
        before = busy;
        CUTEST_EQ(prog, prog_by[k % 3]);
        for (int t = 0; t < 3; t++)
            seen[t] += prog == prog_by[t];
    }
    printf("\n    %d programs%s: %u of 1 ms, %u of 2 ms, %u of 3 ms ", UNITS,
           two_pass ? " in two passes" : "", seen[0], seen[1], seen[2]);
    CUTEST_EQ(seen[0] + seen[1] + seen[2], UNITS);
    CUTEST_EQ(seen[0], UNITS / 3);
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    drive_free(d);
    sim_engine_free(e);
}

static void test_program_page_types(void)
{
    program_page_types(false);
    program_page_types(true);
}

/* A closed loop of sequential writes, QD 32, up to `units` program units. */
typedef struct SeqWrite {
    Drive *d;
    uint64_t unit, next, end;
    SimTime last;
    SimEngine *e;
} SeqWrite;

static void seq_done(void *ctx, const DriveCompletion *dc)
{
    SeqWrite *w = ctx;
    (void)dc;
    w->last = sim_now(w->e);
    if (w->next < w->end) {
        drive_submit(w->d, &(DriveCmd){.op = IO_WRITE, .offset = w->next, .length = w->unit});
        w->next += w->unit;
    }
}

/* Sustained writes of one die: a wordline's three units take three
 * transfers and the three page types' times, so the drive writes
 * 3 units / (3 transfers + 1 + 2 + 3 ms), not 3 units / (3 x (transfer +
 * t_prog)). */
static void test_program_throughput(void)
{
    DriveParams dp;
    page_by_page_drive(&dp);
    uint64_t unit = drive_params_program_unit(&dp, CELL_TLC);
    SimTime wordline = 3 * unit_xfer(&dp) + prog_by[0] + prog_by[1] + prog_by[2];
    enum { WORDLINES = 24 }; /* 6 of the 16 blocks: no GC */
    SeqWrite w = {.e = sim_engine_new(), .unit = unit, .end = WORDLINES * 3 * unit};
    w.d = drive_new(w.e, &dp, 1);
    drive_set_done(w.d, seq_done, &w);
    for (int q = 0; q < 32; q++, w.next += unit)
        drive_submit(w.d, &(DriveCmd){.op = IO_WRITE, .offset = w.next, .length = unit});
    sim_run(w.e, SIM_TIME_MAX);
    drive_set_done(w.d, NULL, NULL);
    drive_submit(w.d, &(DriveCmd){.op = IO_FLUSH});
    sim_run(w.e, SIM_TIME_MAX);
    SimTime end = sim_now(w.e);
    drive_account(w.d);
    double got = (double)w.end * 1e9 / (double)end, want = 3.0 * (double)unit * 1e9 / (double)wordline;
    printf("\n    one die: %.3f MB/s, %.3f MB/s from the page times ", got / 1e6, want / 1e6);
    CUTEST_EQ(drive_stats(w.d)->die_busy_ns[WORK_HOST], WORDLINES * wordline);
    CU_ASSERT(fabs(got - want) < 0.005 * want); /* the first write's trip over the link */
    CU_ASSERT(end >= WORDLINES * wordline);
    drive_free(w.d);
    sim_engine_free(w.e);
}

/* The keys load: read_by_page into t_read_page and program_by_page into
 * t_prog_page, lower page first. A count other than the mode's bits, a
 * retry rate without a retry time, program_by_page on a one-shot mode or
 * with a mean other than t_prog are refused, each in one line naming the
 * group and key. */
static void test_keys_load(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    const char *ok[] = {"timing.tlc.read_by_page=50us, 65us,80us", "timing.tlc.read_retry_rate=2%",
                        "timing.tlc.read_retry_time=70us", "timing.mlc.one_shot=false",
                        "timing.mlc.t_prog=680us", "timing.mlc.program_by_page=400us,960us", NULL};
    CU_ASSERT_TRUE(config_load_file_set("configs/reference.ini", ok, &p, &e));
    CUTEST_EQ(p.timing[CELL_TLC].t_read_page[0], 50 * SIM_US);
    CUTEST_EQ(p.timing[CELL_TLC].t_read_page[2], 80 * SIM_US);
    CUTEST_EQ(p.timing[CELL_TLC].t_read_page[3], 0);
    CU_ASSERT(p.timing[CELL_TLC].read_retry_rate == 0.02);
    CUTEST_EQ(p.timing[CELL_SLC].t_read_page[0], 0);
    CUTEST_EQ(p.timing[CELL_MLC].t_prog_page[0], 400 * SIM_US);
    CUTEST_EQ(p.timing[CELL_MLC].t_prog_page[1], 960 * SIM_US);
    CUTEST_EQ(p.timing[CELL_MLC].t_prog_page[2], 0);
    CUTEST_EQ(p.timing[CELL_TLC].t_prog_page[0], 0);
    struct {
        const char *set[4], *want;
    } bad[] = {
        {{"timing.tlc.read_by_page=50us,65us"}, "[timing.tlc] read_by_page = 50us,65us: expected 3 times"},
        {{"timing.tlc.read_retry_rate=1%"}, "read_retry_time = 0"},
        {{"timing.mlc.one_shot=false", "timing.mlc.t_prog=680us", "timing.mlc.program_by_page=680us"},
         ": [timing.mlc] program_by_page = 680us: expected 2 times above 0 separated by commas"},
        {{"timing.mlc.t_prog=680us", "timing.mlc.program_by_page=400us,960us"},
         ": [timing.mlc] program_by_page = 400us,960us with one_shot = true: expected one_shot = false"},
        {{"timing.mlc.one_shot=false", "timing.mlc.program_by_page=400us,900us"},
         ": [timing.mlc] program_by_page = 400us,900us: their mean is 650 us, expected t_prog = 600 us"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        CU_ASSERT_FALSE(config_load_file_set("configs/reference.ini", bad[i].set, &p, &e));
        CU_ASSERT(e && strstr(e->message, bad[i].want) && !strchr(e->message, '\n'));
        if (e && !strstr(e->message, bad[i].want))
            printf("\n    got: %s ", e->message);
        g_clear_error(&e);
    }
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"flat without keys", test_flat_without_keys},
        {"page types", test_page_types},
        {"retry rate", test_retry_rate},
        {"program page types", test_program_page_types},
        {"program throughput", test_program_throughput},
        {"keys load", test_keys_load},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("latency", tests);
}
