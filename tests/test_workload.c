/* test_workload.c - jobs and trace replay run against a mock drive that
 * completes every command after a fixed latency: offsets, ordering, queue
 * depths, mixes, pacing, phases and the latencies recorded. */
#include "sim/host/workload.h"
#include "sim/host/workload_priv.h" /* fio's generators, for the draws' integer form */
#include "tests/cutest.h"

#include <math.h>
#include <string.h>

#define KiB 1024ull
#define MiB (1024ull * KiB)

typedef struct Sub {
    SimTime t;
    uint64_t offset, length;
    IoOp op;
} Sub;

typedef struct Mock {
    SimEngine *e;
    Workload *w;
    SimTime latency;
    SimTime jitter;    /* added per 4 KiB block of the offset, modulo 7 */
    GArray *subs;      /* Sub */
    GArray *done_at;   /* SimTime of each completion */
    GArray *warms;     /* Warm, when the mock takes warm calls (mock_init_warm()) */
    uint32_t outstanding, max_outstanding;
} Mock;

typedef struct Warm {
    uint64_t offset, next;
} Warm;

static void mock_done(void *ctx, uint64_t tag)
{
    Mock *m = ctx;
    SimTime now = sim_now(m->e);
    m->outstanding--;
    g_array_append_val(m->done_at, now);
    /* what it answers is what workload_finished() would */
    gboolean finished = workload_io_done(m->w, &(DriveCompletion){.tag = tag});
    CU_ASSERT(finished == workload_finished(m->w));
}

static void mock_submit(void *ctx, const DriveCmd *c)
{
    IoOp op = (IoOp)c->op;
    uint64_t offset = c->offset, length = c->length, tag = c->tag;
    Mock *m = ctx;
    Sub s = {sim_now(m->e), offset, length, op};
    g_array_append_val(m->subs, s);
    m->outstanding++;
    m->max_outstanding = MAX(m->max_outstanding, m->outstanding);
    sim_schedule_in(m->e, m->latency + offset / 4096 % 7 * m->jitter, mock_done, m, tag);
}

static void mock_init(Mock *m, SimTime latency)
{
    memset(m, 0, sizeof *m);
    m->e = sim_engine_new();
    m->latency = latency;
    m->subs = g_array_new(FALSE, FALSE, sizeof(Sub));
    m->done_at = g_array_new(FALSE, FALSE, sizeof(SimTime));
}

static void mock_warm(void *ctx, uint64_t offset, uint64_t next)
{
    Mock *m = ctx;
    g_array_append_val(m->warms, ((Warm){offset, next}));
}

/* A mock that takes the workload's warm calls too, and records them. */
static void mock_init_warm(Mock *m, SimTime latency)
{
    mock_init(m, latency);
    m->warms = g_array_new(FALSE, FALSE, sizeof(Warm));
}

static void mock_clear(Mock *m)
{
    workload_free(m->w);
    sim_engine_free(m->e);
    g_array_unref(m->subs);
    g_array_unref(m->done_at);
    if (m->warms)
        g_array_unref(m->warms);
}

static gboolean mock_bind(Mock *m, Workload *w, uint64_t cap, uint32_t qlimit, GError **err)
{
    WorkloadTarget t = {.ctx = m, .submit = mock_submit, .capacity = cap, .queue_limit = qlimit,
                        .warm = m->warms ? mock_warm : NULL};
    m->w = w;
    return workload_bind(w, m->e, &t, 1, err);
}

/* Parse, bind and run to the end. */
static void run_spec(Mock *m, const char *spec, uint64_t cap, uint32_t qlimit)
{
    g_autoptr(GError) err = NULL;
    Workload *w = workload_from_spec(spec, &err);
    CU_ASSERT_PTR_NOT_NULL(w);
    if (!w) {
        fprintf(stderr, "%s\n", err->message);
        return;
    }
    CU_ASSERT_TRUE(mock_bind(m, w, cap, qlimit, &err));
    if (err)
        fprintf(stderr, "%s\n", err->message);
    workload_start(w);
    sim_run(m->e, SIM_TIME_MAX);
    CU_ASSERT_TRUE(workload_finished(w));
    CUTEST_NEAR(workload_progress(w), 1.0, 1e-9);
}

#define SUB(m, i) g_array_index((m)->subs, Sub, i)

static void test_sequential_wrap(void)
{
    Mock m;
    mock_init(&m, 10 * SIM_US);
    run_spec(&m, "rw=write,bs=4k,size=64k,offset=8k,io_size=128k", MiB, 32);
    CUTEST_EQ(m.subs->len, 32);
    for (guint i = 0; i < m.subs->len; i++) {
        CUTEST_EQ(SUB(&m, i).offset, 8 * KiB + (i % 16) * 4 * KiB);
        CUTEST_EQ(SUB(&m, i).op, IO_WRITE);
        CUTEST_EQ(SUB(&m, i).t, i * 10 * SIM_US); /* iodepth 1: back to back */
    }
    CUTEST_EQ(workload_submitted_bytes(m.w, IO_WRITE), 128 * KiB);
    mock_clear(&m);
}

static void test_random_map(void)
{
    Mock m;
    mock_init(&m, 10 * SIM_US);
    run_spec(&m, "rw=randread,bs=4k,size=400k,io_size=800k,iodepth=4", MiB, 32);
    CUTEST_EQ(m.subs->len, 200);
    for (int pass = 0; pass < 2; pass++) {
        int seen[100] = {0};
        for (guint i = 0; i < 100; i++) {
            const Sub *s = &SUB(&m, pass * 100 + i);
            CUTEST_EQ(s->offset % 4096, 0);
            if (s->offset < 400 * KiB)
                seen[s->offset / 4096]++;
        }
        for (int b = 0; b < 100; b++)
            CUTEST_EQ(seen[b], 1);
    }
    CUTEST_EQ(m.max_outstanding, 4);
    mock_clear(&m);
}

static void test_zipf(void)
{
    Mock m;
    mock_init(&m, SIM_US);
    run_spec(&m, "rw=randread,bs=4k,size=4m,io_size=80m,random_distribution=zipf:1.2", MiB * 4,
             32);
    guint n = m.subs->len;
    CUTEST_EQ(n, 20480);
    g_autofree guint *count = g_new0(guint, 1024);
    for (guint i = 0; i < n; i++)
        count[SUB(&m, i).offset / 4096]++;
    guint top = 0;
    for (int b = 0; b < 1024; b++)
        top = MAX(top, count[b]);
    double zeta = 0;
    for (int k = 1; k <= 1024; k++)
        zeta += pow(k, -1.2);
    /* The most popular block takes 1/zeta(n) of the I/Os. */
    CUTEST_NEAR((double)top / n, 1.0 / zeta, 0.02);
    mock_clear(&m);
}

static void test_rwmix(void)
{
    Mock m;
    mock_init(&m, SIM_US);
    run_spec(&m, "rw=randrw,rwmixread=70,bs=4k,size=1m,io_size=40m,iodepth=8", MiB, 32);
    guint reads = 0;
    for (guint i = 0; i < m.subs->len; i++)
        reads += SUB(&m, i).op == IO_READ;
    CUTEST_EQ(m.subs->len, 10240);
    CUTEST_NEAR((double)reads / m.subs->len, 0.70, 0.02);
    mock_clear(&m);
}

static void test_iodepth_kept_full(void)
{
    Mock m;
    mock_init(&m, 50 * SIM_US);
    run_spec(&m, "rw=randread,bs=4k,iodepth=8,size=1m,io_size=4m", MiB, 32);
    CUTEST_EQ(m.max_outstanding, 8);
    /* Closed loop: each completion is replaced at once, so submissions come
     * in groups of 8 every 50 us. */
    for (guint i = 0; i < m.subs->len; i++)
        CUTEST_EQ(SUB(&m, i).t, (i / 8) * 50 * SIM_US);
    const LatHist *h = workload_latency(m.w, IO_READ);
    CUTEST_EQ(lat_hist_count(h), 1024);
    CUTEST_NEAR(lat_hist_mean(h), 50000.0, 1e-6);
    CUTEST_EQ(lat_hist_max(h), 50000);
    mock_clear(&m);
}

static void test_queue_limit(void)
{
    Mock m;
    mock_init(&m, 20 * SIM_US);
    run_spec(&m, "rw=read,bs=4k,iodepth=8,size=64k,io_size=256k&rw=write,bs=4k,iodepth=8,"
                 "size=64k,offset=64k,io_size=256k",
             MiB, 4);
    CUTEST_EQ(m.max_outstanding, 4);
    CUTEST_EQ(workload_submitted_bytes(m.w, IO_READ), 256 * KiB);
    CUTEST_EQ(workload_submitted_bytes(m.w, IO_WRITE), 256 * KiB);
    mock_clear(&m);
}

static void test_rate(void)
{
    Mock m;
    mock_init(&m, 100 * SIM_US);
    run_spec(&m, "rw=write,bs=4k,iodepth=4,size=1m,io_size=4m,rate=10m", MiB, 32);
    /* Submission rate: n - 1 intervals between the first and last command. */
    SimTime span = SUB(&m, m.subs->len - 1).t - SUB(&m, 0).t;
    double rate = (double)(m.subs->len - 1) * 4096 / ((double)span / 1e9);
    CUTEST_EQ(m.subs->len, 1024);
    CU_ASSERT(rate <= 10.0 * MiB);
    CUTEST_NEAR(rate / (10.0 * MiB), 1.0, 0.02);
    mock_clear(&m);
}

static void test_thinktime(void)
{
    Mock m;
    mock_init(&m, 100 * SIM_US);
    run_spec(&m, "rw=read,bs=4k,size=40k,thinktime=1ms", MiB, 32);
    CUTEST_EQ(m.subs->len, 10);
    for (guint i = 0; i < 10; i++)
        CUTEST_EQ(SUB(&m, i).t, i * 1100 * SIM_US);
    mock_clear(&m);
}

/* fio's thinktime at a queue depth above 1: after each counted I/O the job
 * waits for its I/Os in flight and pauses, so after the first pair it keeps
 * one I/O in flight (fio: "effectively caps the queue depth"). Latency
 * 100 us, pause 1 ms: the pair at 0, then one every 1.1 ms. */
static void test_thinktime_blocks(void)
{
    Mock m;
    mock_init(&m, 100 * SIM_US);
    run_spec(&m, "rw=read,bs=4k,size=40k,iodepth=2,thinktime=1ms", MiB, 32);
    CUTEST_EQ(m.subs->len, 10);
    CUTEST_EQ(m.max_outstanding, 2);
    CUTEST_EQ(SUB(&m, 0).t, 0);
    for (guint i = 1; i < 10; i++)
        CUTEST_EQ(SUB(&m, i).t, (i - 1) * 1100 * SIM_US);
    mock_clear(&m);

    /* Counting issued I/Os: the pause follows every I/O from the first. */
    mock_init(&m, 100 * SIM_US);
    run_spec(&m, "rw=read,bs=4k,size=40k,iodepth=2,thinktime=1ms,thinktime_blocks_type=issue",
             MiB, 32);
    CUTEST_EQ(m.max_outstanding, 1);
    for (guint i = 0; i < 10; i++)
        CUTEST_EQ(SUB(&m, i).t, i * 1100 * SIM_US);
    mock_clear(&m);

    /* Every 2 completions: #0 #1 at 0, #2 refills at 100 us; the second
     * completion decides the pause, which starts when #2 is done (200 us);
     * then pairs at 1.2 ms, 2.3 ms, ... (each pair 100 us, pause 1 ms). */
    mock_init(&m, 100 * SIM_US);
    run_spec(&m, "rw=read,bs=4k,size=36k,iodepth=2,thinktime=1ms,thinktime_blocks=2", MiB, 32);
    CUTEST_EQ(m.subs->len, 9);
    CUTEST_EQ(SUB(&m, 2).t, 100 * SIM_US);
    for (guint i = 3; i < 9; i++)
        CUTEST_EQ(SUB(&m, i).t, (1200 + (i - 3) / 2 * 1100) * SIM_US);
    mock_clear(&m);
}

static void test_idle_and_stonewall(void)
{
    Mock m;
    mock_init(&m, 10 * SIM_US);
    run_spec(&m, "rw=write,bs=4k,size=40k;idle=2s;rw=read,bs=4k,size=40k", MiB, 32);
    CUTEST_EQ(m.subs->len, 20);
    for (guint i = 0; i < 10; i++)
        CUTEST_EQ(SUB(&m, i).op, IO_WRITE);
    SimTime last_write_done = 10 * 10 * SIM_US;
    CUTEST_EQ(SUB(&m, 10).op, IO_READ);
    CUTEST_EQ(SUB(&m, 10).t, last_write_done + 2 * SIM_SEC);
    mock_clear(&m);

    /* '&': both jobs start at once. */
    mock_init(&m, 10 * SIM_US);
    run_spec(&m, "rw=write,bs=4k,size=40k&rw=read,bs=4k,size=40k", MiB, 32);
    CUTEST_EQ(SUB(&m, 0).t, 0);
    CUTEST_EQ(SUB(&m, 1).t, 0);
    CUTEST_EQ(SUB(&m, 1).op, IO_READ);
    mock_clear(&m);
}

static void test_time_based_and_ramp(void)
{
    Mock m;
    mock_init(&m, 100 * SIM_US);
    run_spec(&m, "rw=randread,bs=4k,iodepth=2,size=1m,runtime=10ms,ramp_time=2ms,time_based",
             MiB, 32);
    /* 12 ms in all, 2 commands every 100 us. */
    CUTEST_EQ(m.subs->len, 240);
    CUTEST_EQ(SUB(&m, m.subs->len - 1).t, 11900 * SIM_US);
    guint after_ramp = 0;
    for (guint i = 0; i < m.done_at->len; i++)
        after_ramp += g_array_index(m.done_at, SimTime, i) >= 2 * SIM_MS;
    CUTEST_EQ(lat_hist_count(workload_latency(m.w, IO_READ)), after_ramp);
    CUTEST_EQ(after_ramp, 240 - 38);
    g_autoptr(JsonWriter) jw = json_writer_new();
    json_begin_object(jw, NULL);
    workload_write_jobs_json(m.w, jw);
    json_end_object(jw);
    CU_ASSERT_PTR_NOT_NULL(strstr(json_writer_str(jw), "\"runtime_s\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json_writer_str(jw), "\"p99.99\""));
    mock_clear(&m);
}

static void test_trimwrite_and_fsync(void)
{
    Mock m;
    mock_init(&m, 10 * SIM_US);
    run_spec(&m, "rw=trimwrite,bs=4k,size=16k", MiB, 32);
    CUTEST_EQ(m.subs->len, 8);
    for (guint i = 0; i < 8; i++) {
        CUTEST_EQ(SUB(&m, i).op, i % 2 ? IO_WRITE : IO_TRIM);
        CUTEST_EQ(SUB(&m, i).offset, (i / 2) * 4 * KiB);
    }
    mock_clear(&m);

    mock_init(&m, 10 * SIM_US);
    /* a flush goes before the next write, as fio issues its sync: none
     * after the last write */
    run_spec(&m, "rw=write,bs=4k,size=16k,fsync=2", MiB, 32);
    CUTEST_EQ(m.subs->len, 5);
    CUTEST_EQ(SUB(&m, 2).op, IO_FLUSH);
    CUTEST_EQ(SUB(&m, 2).length, 0);
    CUTEST_EQ(SUB(&m, 4).op, IO_WRITE);
    mock_clear(&m);
}

/* zonemode=zbd on a drive without zones: fio's emulated zones. Writes go
 * to each zone's write pointer up to its capacity, several in flight to a
 * zone (no zone write lock), and the trims of a later phase are the host's
 * resets: nothing reaches the drive. */
static void test_zbd_emulated(void)
{
    Mock m;
    mock_init(&m, 10 * SIM_US);
    run_spec(&m, "rw=write,bs=64k,size=1m,iodepth=4,zonemode=zbd,zonesize=256k,zonecapacity=128k;"
                 "rw=trim,bs=256k,size=512k,zonemode=zbd", 4 * MiB, 32);
    CUTEST_EQ(m.subs->len, 8);
    for (guint i = 0; i < m.subs->len; i++) {
        CUTEST_EQ(SUB(&m, i).op, IO_WRITE);
        CUTEST_EQ(SUB(&m, i).offset, i / 2 * 256 * KiB + i % 2 * 64 * KiB);
    }
    CUTEST_EQ(m.max_outstanding, 4);
    mock_clear(&m);
}

static void test_bind_errors(void)
{
    static const struct {
        const char *spec, *msg;
    } cases[] = {
        {"rw=write,offset=1m", "job \"job1\": option \"offset\": offset 1048576 is at or beyond "
                               "the end of the drive (capacity 1048576 bytes)"},
        {"rw=write,bs=128k,size=64k", "job \"job1\": option \"bs\": block size 131072 is larger "
                                      "than the job's region of 65536 bytes"},
        {"rw=read,time_based", "job \"job1\": option \"time_based\": found no runtime, expected "
                               "runtime=DURATION as well"},
        {"rw=write,zonemode=zbd,zonesize=64k,zonecapacity=128k",
         "job \"job1\": option \"zonecapacity\": found 131072, expected at most the zone size 65536 (fio: "
         "\"job parameter zonecapacity 131072 is larger than zone size 65536\")"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        Mock m;
        mock_init(&m, SIM_US);
        g_autoptr(GError) err = NULL;
        Workload *w = workload_from_spec(cases[i].spec, &err);
        CU_ASSERT_FALSE(mock_bind(&m, w, MiB, 32, &err));
        CU_ASSERT_PTR_NOT_NULL(err);
        if (err && strcmp(err->message, cases[i].msg) != 0)
            fprintf(stderr, "got: %s\n", err->message);
        if (err)
            CU_ASSERT_STRING_EQUAL(err->message, cases[i].msg);
        mock_clear(&m);
    }
}

/* ---- Replay --------------------------------------------------------------- */

#define TPCC "traces/mqsim_tpcc-small.trace"

/* Records, bytes and first two times of the MQSim trace, read here directly. */
static void tpcc_facts(guint *n, uint64_t *bytes, SimTime *gap01)
{
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE(g_file_get_contents(TPCC, &text, NULL, NULL));
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    uint64_t t[2] = {0, 0};
    *n = 0;
    *bytes = 0;
    for (guint i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
        if (g_strv_length(f) < 5)
            continue;
        if (*n < 2)
            t[*n] = g_ascii_strtoull(f[0], NULL, 10);
        *bytes += g_ascii_strtoull(f[3], NULL, 10) * 512;
        (*n)++;
    }
    *gap01 = t[1] - t[0];
}

static Workload *replay(Mock *m, ReplayOptions *ro, uint64_t cap, uint32_t qlimit)
{
    g_autoptr(GError) err = NULL;
    TraceOptions to = {.format = "mqsim", .device = -1};
    Workload *w = workload_from_trace(TPCC, &to, ro, &err);
    CU_ASSERT_PTR_NOT_NULL(w);
    if (!w) {
        fprintf(stderr, "%s\n", err->message);
        return NULL;
    }
    CU_ASSERT_TRUE(mock_bind(m, w, cap, qlimit, &err));
    workload_start(w);
    sim_run(m->e, SIM_TIME_MAX);
    CU_ASSERT_TRUE(workload_finished(w));
    return w;
}

static uint64_t sub_bytes(const Mock *m)
{
    uint64_t b = 0;
    for (guint i = 0; i < m->subs->len; i++)
        b += g_array_index(m->subs, Sub, i).length;
    return b;
}

static void test_replay_modes(void)
{
    guint n;
    uint64_t bytes;
    SimTime gap;
    tpcc_facts(&n, &bytes, &gap);
    CUTEST_EQ(n, 6999);
    for (int mode = 0; mode < 2; mode++) {
        Mock m;
        mock_init(&m, 200 * SIM_US);
        ReplayOptions ro = {.mode = mode ? REPLAY_CLOSED : REPLAY_OPEN, .iodepth = 16,
                            .time_scale = 0.5};
        if (!replay(&m, &ro, 1ull << 40, 4)) {
            mock_clear(&m);
            continue;
        }
        CUTEST_EQ(m.subs->len, n);
        CUTEST_EQ(sub_bytes(&m), bytes);
        CU_ASSERT(m.max_outstanding <= 4);
        if (mode == 0)
            CUTEST_EQ(SUB(&m, 1).t, gap / 2);
        GError *err = NULL;
        CU_ASSERT_FALSE(workload_error(m.w, &err));
        mock_clear(&m);
    }
}

static void test_replay_max_idle(void)
{
    Mock m;
    mock_init(&m, SIM_US / 2);
    ReplayOptions ro = {.mode = REPLAY_OPEN, .max_idle_ns = SIM_US};
    if (replay(&m, &ro, 1ull << 40, 64)) {
        CU_ASSERT(SUB(&m, m.subs->len - 1).t <= (m.subs->len - 1) * SIM_US);
        CUTEST_EQ(SUB(&m, 1).t, SIM_US);
    }
    mock_clear(&m);
}

static void test_replay_lba_map(void)
{
    Mock m;
    mock_init(&m, SIM_US);
    ReplayOptions ro = {.mode = REPLAY_CLOSED, .iodepth = 4, .lba_map = LBA_ERROR};
    if (replay(&m, &ro, 1ull << 30, 32)) {
        g_autoptr(GError) err = NULL;
        CU_ASSERT_TRUE(workload_error(m.w, &err));
        CUTEST_EQ(m.subs->len, 0);
        if (err)
            CU_ASSERT_STRING_EQUAL(err->message,
                                   TPCC ":1: offset 135536145408 + length 8192 ends beyond the "
                                        "drive capacity of 1073741824 bytes, expected addresses "
                                        "within it (or lba_map wrap or scale)");
    }
    mock_clear(&m);

    for (int map = LBA_WRAP; map <= LBA_SCALE; map++) {
        mock_init(&m, SIM_US);
        ReplayOptions r2 = {.mode = REPLAY_CLOSED, .iodepth = 4, .lba_map = (LbaMap)map};
        if (replay(&m, &r2, 1ull << 30, 32)) {
            CUTEST_EQ(m.subs->len, 6999);
            for (guint i = 0; i < m.subs->len; i++)
                CU_ASSERT(SUB(&m, i).offset + SUB(&m, i).length <= (1ull << 30));
        }
        mock_clear(&m);
    }
}

/* A plain job's I/Os take a short path (workload.c's wl_fill_fast and
 * its kin); flow=1 on a job alone changes nothing it does but keeps it on
 * the general path. Both must submit the same commands at the same times
 * and count the same figures: random walks (one direction and mixed),
 * sequential ones that reach the region's end, a queue limit below the
 * depth, latencies that vary. */
static void test_short_path(void)
{
    static const char *const specs[] = {
        "rw=randwrite,bs=4k,size=1m,io_size=3m,iodepth=8,random_generator=lfsr",
        "rw=randrw,rwmixread=70,bs=4k,size=1m,io_size=3m,iodepth=8,random_generator=lfsr",
        "rw=write,bs=16k,size=1m,offset=64k,io_size=3m,iodepth=4",
        "rw=read,bs=4k,size=256k,runtime=2ms,time_based,ramp_time=200us,iodepth=2",
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(specs); i++) {
        Mock a, b;
        mock_init(&a, 5 * SIM_US);
        mock_init(&b, 5 * SIM_US);
        a.jitter = b.jitter = SIM_US;
        g_autofree char *general = g_strconcat(specs[i], ",flow=1", NULL);
        run_spec(&a, specs[i], 4 * MiB, 6);
        run_spec(&b, general, 4 * MiB, 6);
        CU_ASSERT(a.subs->len > 100);
        CUTEST_EQ(a.subs->len, b.subs->len);
        for (guint k = 0; k < MIN(a.subs->len, b.subs->len); k++) {
            CUTEST_EQ(SUB(&a, k).t, SUB(&b, k).t);
            CUTEST_EQ(SUB(&a, k).offset, SUB(&b, k).offset);
            CUTEST_EQ(SUB(&a, k).length, SUB(&b, k).length);
            CUTEST_EQ(SUB(&a, k).op, SUB(&b, k).op);
        }
        WorkloadJobResult ra, rb;
        workload_result(a.w, 0, &ra);
        workload_result(b.w, 0, &rb);
        CUTEST_EQ(ra.runtime_ns, rb.runtime_ns);
        for (int d = 0; d < WL_DIRS; d++) {
            CUTEST_EQ(ra.ios[d], rb.ios[d]);
            CUTEST_EQ(ra.bytes[d], rb.bytes[d]);
            CU_ASSERT(ra.lat_sq[d] == rb.lat_sq[d]);
            CUTEST_EQ(lat_hist_count(ra.lat[d]), lat_hist_count(rb.lat[d]));
            CU_ASSERT(lat_hist_mean(ra.lat[d]) == lat_hist_mean(rb.lat[d]));
            CUTEST_EQ(lat_hist_percentile(ra.lat[d], 99), lat_hist_percentile(rb.lat[d], 99));
            /* the only job's histograms are the overall ones: each
             * latency in them once */
            CUTEST_EQ(lat_hist_count(workload_latency(a.w, d)), ra.ios[d]);
            CUTEST_EQ(lat_hist_count(workload_latency(b.w, d)), rb.ios[d]);
        }
        CU_ASSERT(memcmp(&ra.fio, &rb.fio, sizeof ra.fio) == 0);
        WorkloadDiskStat da, db;
        workload_disk_stat(a.w, &da);
        workload_disk_stat(b.w, &db);
        CU_ASSERT(memcmp(&da, &db, sizeof da) == 0);
        mock_clear(&a);
        mock_clear(&b);
    }
}

/* A job that walks the keyed permutation tells the target its next pick
 * with each one (drawn ahead and kept for it): the commands are the same
 * as without warm calls, each warm is of the command submitted next, and
 * each next named is the offset the job submits after it. Over several
 * passes (fresh keys: no next known at a pass's end), one direction and
 * mixed; and a job on fio's exact random map, which names no next. */
static void test_warm_ahead(void)
{
    static const struct {
        const char *spec;
        bool ahead;
    } specs[] = {
        {"rw=randwrite,bs=4k,size=1m,io_size=3m,iodepth=8,random_generator=lfsr", true},
        {"rw=randrw,rwmixread=70,bs=4k,size=1m,io_size=3m,iodepth=8,random_generator=lfsr", true},
        {"rw=randwrite,bs=4k,size=1m,io_size=3m,iodepth=8", false},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(specs); i++) {
        Mock a, b;
        mock_init_warm(&a, 5 * SIM_US);
        mock_init(&b, 5 * SIM_US);
        a.jitter = b.jitter = SIM_US;
        run_spec(&a, specs[i].spec, 4 * MiB, 6);
        run_spec(&b, specs[i].spec, 4 * MiB, 6);
        CUTEST_EQ(a.subs->len, 768);
        CUTEST_EQ(a.subs->len, b.subs->len);
        for (guint k = 0; k < MIN(a.subs->len, b.subs->len); k++) {
            CUTEST_EQ(SUB(&a, k).t, SUB(&b, k).t);
            CUTEST_EQ(SUB(&a, k).offset, SUB(&b, k).offset);
            CUTEST_EQ(SUB(&a, k).op, SUB(&b, k).op);
        }
        CUTEST_EQ(a.warms->len, a.subs->len);
        guint known = 0;
        for (guint k = 0; k < MIN(a.warms->len, a.subs->len); k++) {
            const Warm *w = &g_array_index(a.warms, Warm, k);
            CUTEST_EQ(w->offset, SUB(&a, k).offset);
            if (w->next == UINT64_MAX || k + 1 >= a.subs->len)
                continue;
            CUTEST_EQ(w->next, SUB(&a, k + 1).offset);
            known++;
        }
        if (specs[i].ahead) {
            CU_ASSERT(known >= a.subs->len * 9 / 10);
        } else {
            CUTEST_EQ(known, 0);
        }
        mock_clear(&a);
        mock_clear(&b);
    }
}

/* The overall histograms hold every job's latencies once: two jobs' (each
 * recorded into its own and the overall ones) and one job's (whose own are
 * the overall ones). */
static void test_overall_latency(void)
{
    static const char *const specs[] = {
        "rw=randrw,bs=4k,size=1m,io_size=1m,iodepth=4,numjobs=2",
        "rw=randrw,bs=4k,size=1m,io_size=1m,iodepth=4",
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(specs); i++) {
        Mock m;
        mock_init(&m, 5 * SIM_US);
        m.jitter = SIM_US;
        run_spec(&m, specs[i], 4 * MiB, 8);
        for (int d = IO_READ; d <= IO_WRITE; d++) {
            uint64_t ios = 0, max = 0;
            for (guint k = 0; k < workload_result_count(m.w); k++) {
                WorkloadJobResult r;
                workload_result(m.w, k, &r);
                ios += r.ios[d];
                max = MAX(max, lat_hist_max(r.lat[d]));
            }
            const LatHist *h = workload_latency(m.w, d);
            CU_ASSERT(ios > 0);
            CUTEST_EQ(lat_hist_count(h), ios);
            CUTEST_EQ(lat_hist_max(h), max);
        }
        mock_clear(&m);
    }
}

/* wl_frand_pct, the read/write mix's draw in integers, gives what fio's
 * double arithmetic (wl_frand_between) gives, draw for draw, from seeds
 * as the jobs take them. */
static void test_frand_pct(void)
{
    static const uint64_t seeds[] = {0, 1, 0x89, 0xb1899bedull, 0x9e3700019e370001ull};
    for (unsigned i = 0; i < G_N_ELEMENTS(seeds); i++) {
        WlFrand a, b;
        wl_frand_init(&a, seeds[i], false);
        wl_frand_init(&b, seeds[i], false);
        unsigned bad = 0;
        for (int k = 0; k < 1 << 18; k++)
            bad += wl_frand_pct(&a) != wl_frand_between(&b, 1, 100);
        CUTEST_EQ(bad, 0);
    }
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"sequential_wrap", test_sequential_wrap},
        {"random_map", test_random_map},
        {"zipf", test_zipf},
        {"rwmix", test_rwmix},
        {"iodepth_kept_full", test_iodepth_kept_full},
        {"queue_limit", test_queue_limit},
        {"rate", test_rate},
        {"thinktime", test_thinktime},
        {"thinktime_blocks", test_thinktime_blocks},
        {"idle_and_stonewall", test_idle_and_stonewall},
        {"time_based_and_ramp", test_time_based_and_ramp},
        {"trimwrite_and_fsync", test_trimwrite_and_fsync},
        {"zbd_emulated", test_zbd_emulated},
        {"bind_errors", test_bind_errors},
        {"replay_modes", test_replay_modes},
        {"replay_max_idle", test_replay_max_idle},
        {"replay_lba_map", test_replay_lba_map},
        {"short_path", test_short_path},
        {"warm_ahead", test_warm_ahead},
        {"frand_pct", test_frand_pct},
        {"overall_latency", test_overall_latency},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("workload", tests);
}
