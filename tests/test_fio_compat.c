/* test_fio_compat.c - the fio constructs fio's own example jobs use, run
 * against a mock drive that completes every command after a fixed latency:
 * offset modifiers, zoned and sequence distributions, strided zones, clone
 * offsets, per-direction bssplit, number_ios, wait_for, exitall, flows,
 * Poisson rates, the null engine, verify, steady state and the logs. */
#include "sim/host/workload.h"
#include "tests/cutest.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#define KiB 1024ull
#define MiB (1024ull * KiB)

typedef struct Sub {
    SimTime t;
    uint64_t offset, length;
    IoOp op;
    uint32_t job; /* tag >> 32 */
} Sub;

typedef struct Mock {
    SimEngine *e;
    Workload *w;
    SimTime latency;
    GArray *subs; /* Sub */
    uint64_t lost_lpn; /* lookup answers DRIVE_UNMAPPED for this page */
    SimTime latency_end, ramp_ns; /* latency goes linearly to latency_end over ramp_ns */
    uint32_t rounds_seen;         /* ss=pts round hook calls */
    uint32_t last_round;
} Mock;

static void mock_done(void *ctx, uint64_t tag)
{
    Mock *m = ctx;
    workload_io_done(m->w, &(DriveCompletion){.tag = tag});
}

static void mock_submit(void *ctx, const DriveCmd *c)
{
    IoOp op = (IoOp)c->op;
    uint64_t offset = c->offset, length = c->length, tag = c->tag;
    Mock *m = ctx;
    Sub s = {sim_now(m->e), offset, length, op, (uint32_t)(tag >> 32)};
    g_array_append_val(m->subs, s);
    SimTime lat = m->latency;
    if (m->ramp_ns) {
        double f = MIN(1.0, (double)sim_now(m->e) / (double)m->ramp_ns);
        lat = (SimTime)((double)m->latency + f * ((double)m->latency_end - (double)m->latency));
    }
    sim_schedule_in(m->e, lat, mock_done, m, tag);
}

static void mock_round(void *ctx, uint32_t round)
{
    Mock *m = ctx;
    CUTEST_EQ(round, m->rounds_seen); /* 0 when the rounds begin, then 1, 2, ... */
    m->rounds_seen++;
    m->last_round = round;
}

static uint64_t mock_lookup(void *ctx, uint64_t lpn)
{
    Mock *m = ctx;
    return lpn == m->lost_lpn ? DRIVE_UNMAPPED : (uint32_t)lpn;
}

#define SUB(m, i) g_array_index((m)->subs, Sub, i)

/* Parse spec (inline) or text (a job file written to a temporary file),
 * bind on a drive of cap bytes whose latency goes from latency to
 * latency_end over ramp_ns (0: stays), and run to the end. FALSE if it did
 * not. */
static gboolean mock_run_ramp(Mock *m, const char *spec, const char *text, uint64_t cap,
                              SimTime latency, SimTime latency_end, SimTime ramp_ns)
{
    memset(m, 0, sizeof *m);
    m->e = sim_engine_new();
    m->latency = latency;
    m->latency_end = latency_end;
    m->ramp_ns = ramp_ns;
    m->subs = g_array_new(FALSE, FALSE, sizeof(Sub));
    m->lost_lpn = UINT64_MAX;
    g_autoptr(GError) err = NULL;
    if (text) {
        g_autofree char *path = NULL;
        int fd = g_file_open_tmp("ftlsim-fio-XXXXXX.fio", &path, NULL);
        close(fd);
        g_file_set_contents(path, text, -1, NULL);
        m->w = workload_from_jobfile(path, &err);
        unlink(path);
    } else {
        m->w = workload_from_spec(spec, &err);
    }
    WorkloadTarget t = {.ctx = m, .submit = mock_submit, .lookup = mock_lookup, .capacity = cap, .queue_limit = 256};
    if (m->w) {
        if (workload_bind(m->w, m->e, &t, 1, &err)) {
            workload_set_round_hook(m->w, mock_round, m);
            workload_start(m->w);
            sim_run(m->e, SIM_TIME_MAX);
            CU_ASSERT_TRUE(workload_finished(m->w));
            return TRUE;
        }
    }
    fprintf(stderr, "%s\n", err ? err->message : "?");
    CU_FAIL("workload did not run");
    return FALSE;
}

static gboolean mock_run(Mock *m, const char *spec, const char *text, uint64_t cap,
                         SimTime latency)
{
    return mock_run_ramp(m, spec, text, cap, latency, latency, 0);
}

static void mock_clear(Mock *m)
{
    workload_free(m->w);
    sim_engine_free(m->e);
    g_array_unref(m->subs);
}

/* rw=read:-8k reads backwards as fio does: 0, then from the end of the
 * region less 8k (56k, 52k, ...); rw=write:112k leaves 112k gaps. */
static void test_offset_modifiers(void)
{
    Mock m;
    if (mock_run(&m, "rw=read:-8k,bs=4k,size=64k,io_size=32k", NULL, MiB, SIM_US)) {
        CUTEST_EQ(m.subs->len, 8);
        CUTEST_EQ(SUB(&m, 0).offset, 0);
        for (guint i = 1; i < m.subs->len; i++)
            CUTEST_EQ(SUB(&m, i).offset, 60 * KiB - 4 * KiB * i);
    }
    mock_clear(&m);
    if (mock_run(&m, "rw=write:112k,bs=16k,size=1m,io_size=64k", NULL, MiB, SIM_US)) {
        CUTEST_EQ(m.subs->len, 4);
        for (guint i = 0; i < m.subs->len; i++)
            CUTEST_EQ(SUB(&m, i).offset, i * 128 * KiB);
    }
    mock_clear(&m);
}

/* zoned:50/5:30/15:20/ - half of the I/Os in the first 5% of the region. */
static void test_zoned(void)
{
    Mock m;
    if (mock_run(&m, "rw=randread,bs=4k,size=40m,norandommap,io_size=40m,"
                     "random_distribution=zoned:50/5:30/15:20/", NULL, 64 * MiB, SIM_US)) {
        double n = m.subs->len, z[3] = {0};
        for (guint i = 0; i < m.subs->len; i++) {
            double at = (double)SUB(&m, i).offset / (40.0 * MiB);
            z[at < 0.05 ? 0 : at < 0.20 ? 1 : 2]++;
        }
        CUTEST_EQ(m.subs->len, 10240);
        CUTEST_NEAR(z[0] / n, 0.50, 0.02);
        CUTEST_NEAR(z[1] / n, 0.30, 0.02);
        CUTEST_NEAR(z[2] / n, 0.20, 0.02);
    }
    mock_clear(&m);
    if (mock_run(&m, "rw=randread,bs=4k,size=40m,norandommap,io_size=4m,"
                     "random_distribution=zoned_abs:60/1m:40/10m", NULL, 64 * MiB, SIM_US)) {
        double in1 = 0;
        for (guint i = 0; i < m.subs->len; i++) {
            CU_ASSERT(SUB(&m, i).offset < 11 * MiB);
            in1 += SUB(&m, i).offset < MiB;
        }
        CUTEST_NEAR(in1 / m.subs->len, 0.60, 0.04);
    }
    mock_clear(&m);
}

/* sequence:2,0,1 visits those blocks in turn; with the stride it moves on. */
static void test_sequence(void)
{
    static const uint64_t fixed[] = {2, 0, 1, 2, 0, 1}, strided[] = {2, 0, 1, 5, 3, 4};
    Mock m;
    if (mock_run(&m, NULL,
                 "[global]\nrw=randread\nbs=4k\nsize=48k\nio_size=24k\n"
                 "random_distribution=sequence:2,0,1\n[fixed]\n[strided]\nstonewall\n"
                 "random_sequence_stride=1\n",
                 MiB, SIM_US)) {
        CUTEST_EQ(m.subs->len, 12);
        for (guint i = 0; i < 6; i++) {
            CUTEST_EQ(SUB(&m, i).offset, fixed[i] * 4 * KiB);
            CUTEST_EQ(SUB(&m, 6 + i).offset, strided[i] * 4 * KiB);
        }
    }
    mock_clear(&m);
}

/* zonemode=strided: zonesize bytes, then skip zoneskip. */
static void test_strided_zones(void)
{
    Mock m;
    if (mock_run(&m, "rw=read,bs=64k,zonemode=strided,zonesize=128k,zoneskip=384k,size=1m",
                 NULL, MiB, SIM_US)) {
        static const uint64_t want[] = {0, 64, 512, 576, 0, 64};
        CU_ASSERT(m.subs->len >= 6);
        for (guint i = 0; i < 6 && i < m.subs->len; i++)
            CUTEST_EQ(SUB(&m, i).offset, want[i] * KiB);
    }
    mock_clear(&m);
}

/* offset_increment moves each clone; number_ios stops a job; per-direction
 * bssplit picks read and write sizes apart. */
static void test_clones_counts_bssplit(void)
{
    Mock m;
    if (mock_run(&m, "rw=write,bs=4k,size=64k,numjobs=3,offset_increment=1m,number_ios=5", NULL,
                 4 * MiB, SIM_US)) {
        CUTEST_EQ(m.subs->len, 15);
        uint64_t first[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
        for (guint i = 0; i < m.subs->len; i++)
            first[SUB(&m, i).job] = MIN(first[SUB(&m, i).job], SUB(&m, i).offset);
        for (int c = 0; c < 3; c++)
            CUTEST_EQ(first[c], c * MiB);
    }
    mock_clear(&m);
    if (mock_run(&m, "rw=randrw,bssplit=8k/100,16k/100,size=1m,io_size=1m", NULL, MiB,
                 SIM_US)) {
        guint reads = 0;
        for (guint i = 0; i < m.subs->len; i++) {
            CUTEST_EQ(SUB(&m, i).length, SUB(&m, i).op == IO_READ ? 8 * KiB : 16 * KiB);
            reads += SUB(&m, i).op == IO_READ;
        }
        CU_ASSERT(reads > 0 && reads < m.subs->len);
    }
    mock_clear(&m);
}

/* wait_for starts a job when the named one ends, not with its group;
 * exitall ends the group when its job ends. */
static void test_wait_for_exitall(void)
{
    Mock m;
    if (mock_run(&m, NULL,
                 "[a]\nrw=write\nbs=4k\nsize=40k\n[b]\nwait_for=a\nrw=read\nbs=4k\nsize=40k\n"
                 "[c]\nrw=read\nbs=4k\nsize=400k\n",
                 MiB, 10 * SIM_US)) {
        SimTime a_last = 0, b_first = SIM_TIME_MAX, c_first = SIM_TIME_MAX;
        for (guint i = 0; i < m.subs->len; i++) {
            const Sub *s = &SUB(&m, i);
            if (s->job == 0)
                a_last = MAX(a_last, s->t);
            else if (s->job == 1)
                b_first = MIN(b_first, s->t);
            else
                c_first = MIN(c_first, s->t);
        }
        CUTEST_EQ(c_first, 0);                          /* c runs alongside a */
        CUTEST_EQ(b_first, a_last + 10 * SIM_US);       /* b when a's last write is done */
    }
    mock_clear(&m);
    if (mock_run(&m, "rw=write,bs=4k,size=40k,exitall&rw=read,bs=4k,time_based,runtime=1s",
                 NULL, MiB, 10 * SIM_US)) {
        SimTime last = 0;
        for (guint i = 0; i < m.subs->len; i++)
            last = MAX(last, SUB(&m, i).t);
        CU_ASSERT(last < 200 * SIM_US); /* not the reader's 1 s */
    }
    mock_clear(&m);
}

/* flow=1 and flow=3 of one flow_id: one I/O of the first per three of the
 * second, whatever their speeds. */
static void test_flow(void)
{
    Mock m;
    if (mock_run(&m, "rw=write,bs=4k,iodepth=8,flow=1,time_based,runtime=20ms&"
                     "rw=read,bs=4k,iodepth=1,flow=3,time_based,runtime=20ms",
                 NULL, MiB, 10 * SIM_US)) {
        double n[2] = {0};
        for (guint i = 0; i < m.subs->len; i++)
            n[SUB(&m, i).job]++;
        CU_ASSERT(n[0] > 100);
        CUTEST_NEAR(n[1] / n[0], 3.0, 0.1);
    }
    mock_clear(&m);
    /* a mate that ends early (here behind its share) holds no one back */
    if (mock_run(&m, "rw=write,bs=4k,flow=1,time_based,runtime=20ms&"
                     "rw=read,bs=4k,flow=1,time_based,runtime=20ms&"
                     "rw=read,bs=4k,flow=6,size=40k",
                 NULL, MiB, 10 * SIM_US)) {
        double n[3] = {0};
        for (guint i = 0; i < m.subs->len; i++)
            n[SUB(&m, i).job]++;
        CUTEST_EQ(n[2], 10);
        CUTEST_NEAR(n[1] / n[0], 1.0, 0.05);
        CU_ASSERT(n[0] + n[1] > 1900); /* both ran the whole 20 ms */
    }
    mock_clear(&m);
}

/* rate_process=poisson: exponential gaps of the same mean (CV 1); linear: even. */
static void test_poisson(void)
{
    for (int poisson = 0; poisson < 2; poisson++) {
        Mock m;
        g_autofree char *spec = g_strdup_printf(
            "rw=randread,bs=4k,size=1m,iodepth=32,rate_iops=1000,time_based,runtime=5s%s",
            poisson ? ",rate_process=poisson" : "");
        if (mock_run(&m, spec, NULL, MiB, SIM_US)) {
            double sum = 0, sq = 0, n = m.subs->len - 1;
            for (guint i = 1; i < m.subs->len; i++) {
                double g = (double)(SUB(&m, i).t - SUB(&m, i - 1).t) / 1e6;
                sum += g;
                sq += g * g;
            }
            double mean = sum / n, cv = sqrt(sq / n - mean * mean) / mean;
            CUTEST_NEAR(mean, 1.0, 0.05); /* ms */
            CUTEST_NEAR(cv, poisson ? 1.0 : 0.0, 0.1);
        }
        mock_clear(&m);
    }
}

/* ioengine=null moves no data: nothing reaches the drive. */
static void test_null_engine(void)
{
    Mock m;
    if (mock_run(&m, "rw=randread,bs=4k,size=1m,ioengine=null;rw=write,bs=4k,size=8k", NULL,
                 MiB, SIM_US)) {
        CUTEST_EQ(m.subs->len, 2); /* the second job's only */
        CUTEST_EQ(SUB(&m, 0).op, IO_WRITE);
    }
    mock_clear(&m);
}

/* verify: the written region is read back and every page checked; a page
 * the drive does not map is a mismatch and the run's error. */
static void test_verify(void)
{
    Mock m;
    if (mock_run(&m, "rw=randwrite,bs=4k,size=256k,iodepth=4,verify=crc32c", NULL, MiB,
                 SIM_US)) {
        CUTEST_EQ(m.subs->len, 128);
        for (guint i = 64; i < m.subs->len; i++)
            CUTEST_EQ(SUB(&m, i).op, IO_READ); /* after every write */
        WorkloadJobResult r;
        workload_result(m.w, 0, &r);
        CUTEST_EQ(r.verify_reads, 64);
        CUTEST_EQ(r.verify_mismatches, 0);
        CU_ASSERT_FALSE(workload_error(m.w, NULL));
    }
    mock_clear(&m);
    /* the same, but the drive has lost page 5 */
    memset(&m, 0, sizeof m);
    m.e = sim_engine_new();
    m.latency = SIM_US;
    m.subs = g_array_new(FALSE, FALSE, sizeof(Sub));
    m.lost_lpn = 5;
    m.w = workload_from_spec("rw=write,bs=4k,size=64k,verify=md5", NULL);
    WorkloadTarget t = {.ctx = &m, .submit = mock_submit, .lookup = mock_lookup, .capacity = MiB, .queue_limit = 32};
    CU_ASSERT_TRUE(workload_bind(m.w, m.e, &t, 1, NULL));
    workload_start(m.w);
    sim_run(m.e, SIM_TIME_MAX);
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE(workload_error(m.w, &err));
    CU_ASSERT_TRUE(g_error_matches(err, WORKLOAD_ERROR, WORKLOAD_ERROR_VERIFY));
    if (err)
        CU_ASSERT_STRING_EQUAL(err->message, "job \"job1\": verify: the 4 KiB page at byte 20480 "
                                             "reads back unmapped by the drive, expected the data "
                                             "written");
    WorkloadJobResult r;
    workload_result(m.w, 0, &r);
    CUTEST_EQ(r.verify_mismatches, 1);
    mock_clear(&m);
    /* a read job with verify reads data nobody wrote: every page a mismatch */
    if (mock_run(&m, "rw=read,bs=4k,size=16k,verify=crc32c", NULL, MiB, SIM_US)) {
        workload_result(m.w, 0, &r);
        CUTEST_EQ(r.verify_mismatches, 4);
    }
    mock_clear(&m);
}

/* ss=iops:1%: a drive of constant latency is steady as soon as the window
 * is full, so the job ends at ss_ramp + ss_dur, not at its runtime. */
static void test_steadystate(void)
{
    Mock m;
    if (mock_run(&m, "rw=randread,bs=4k,size=1m,numjobs=2,time_based,runtime=60s,ss=iops:1%,"
                     "ss_dur=5s,ss_ramp=2s",
                 NULL, MiB, 100 * SIM_US)) {
        WorkloadJobResult r;
        for (guint i = 0; i < 2; i++) {
            workload_result(m.w, i, &r);
            CU_ASSERT_TRUE(r.ss_attained);
            CU_ASSERT(r.ss_criterion < 1.0);
            CUTEST_NEAR((double)r.runtime_ns / 1e9, 7.0, 0.01);
        }
    }
    mock_clear(&m);
    /* a limit nothing meets: the job runs its runtime */
    if (mock_run(&m, "rw=randread,bs=4k,size=1m,time_based,runtime=10s,ss=bw_slope:0,ss_dur=3s",
                 NULL, MiB, 100 * SIM_US)) {
        WorkloadJobResult r;
        workload_result(m.w, 0, &r);
        CU_ASSERT_FALSE(r.ss_attained);
        CUTEST_NEAR((double)r.runtime_ns / 1e9, 10.0, 0.01);
    }
    mock_clear(&m);
}

/* ss=pts on a drive of constant latency: every round has the same IOPS
 * (QD 4 x 2 clones / 100 us = 80,000), so the window of rounds 1-5 is steady
 * (range 0, slope 0) and the job ends at ss_ramp + 5 rounds; the window's
 * latencies are the 100 us of every command of those rounds. */
static void test_steadystate_pts_constant(void)
{
    Mock m;
    if (mock_run(&m, "rw=randwrite,bs=4k,size=1m,iodepth=4,numjobs=2,time_based,runtime=60s,"
                     "ss=pts,ss_round=1s,ss_ramp=2s",
                 NULL, MiB, 100 * SIM_US)) {
        WorkloadSteady st;
        CU_ASSERT_TRUE(workload_steady(m.w, &st));
        CUTEST_EQ(st.rounds, 5);
        CUTEST_EQ(st.steady_round, 5);
        CUTEST_EQ(st.max_rounds, 25);
        CU_ASSERT_STRING_EQUAL(st.job, "job1.0");
        CU_ASSERT_TRUE(st.win.steady);
        CUTEST_EQ(st.win.first, 1);
        CUTEST_EQ(st.win.last, 5);
        for (uint32_t r = 0; r < st.rounds; r++) {
            CUTEST_NEAR(st.iops[r], 80000.0, 1e-6);
            CUTEST_EQ(st.round_end[r], (2 + r + 1) * SIM_SEC);
        }
        CUTEST_NEAR(st.win.avg, 80000.0, 1e-6);
        CUTEST_EQ(m.rounds_seen, 6); /* the beginning and 5 ends */
        WorkloadJobResult r;
        for (guint i = 0; i < 2; i++) {
            workload_result(m.w, i, &r);
            CU_ASSERT_TRUE(r.ss_attained);
            CUTEST_NEAR((double)r.runtime_ns / 1e9, 7.0, 0.001);
        }
        g_autoptr(LatHist) h = lat_hist_new();
        CU_ASSERT_TRUE(workload_steady_latency(m.w, 1, 5, h));
        CUTEST_EQ(lat_hist_count(h), 400000);
        CUTEST_NEAR(lat_hist_mean(h), 100e3, 1.0);
        /* only the last 5 rounds are kept */
        CU_ASSERT_FALSE(workload_steady_latency(m.w, 0, 5, h));
        CU_ASSERT_FALSE(workload_steady_latency(m.w, 1, 6, h));
    }
    mock_clear(&m);
}

/* ss=pts on a drive that slows down: latency from 100 us to 300 us over 8 s,
 * then flat. IOPS fall round after round and level off; the job ends at the
 * first round whose window the PTS test calls steady (the same round
 * steady_first() finds in the series), and that is after the slowdown. A
 * drive slowing all the time is never steady: the round limit ends it. */
static void test_steadystate_pts_converging(void)
{
    Mock m;
    if (mock_run_ramp(&m, "rw=randwrite,bs=4k,size=1m,iodepth=8,time_based,runtime=100s,"
                          "ss=pts,ss_round=1s",
                      NULL, MiB, 100 * SIM_US, 300 * SIM_US, 8 * SIM_SEC)) {
        WorkloadSteady st;
        CU_ASSERT_TRUE(workload_steady(m.w, &st));
        SteadyWindow w;
        size_t first = steady_first(st.iops, st.rounds, STEADY_WINDOW, &w);
        CUTEST_EQ(st.steady_round, first);
        CUTEST_EQ(st.rounds, st.steady_round);
        CU_ASSERT(st.steady_round > 8);
        CU_ASSERT(st.iops[0] > 2.0 * st.iops[st.rounds - 1]);
        CUTEST_NEAR(st.iops[st.rounds - 1], 8 / 300e-6, 5.0); /* a round's whole commands */
        CUTEST_NEAR(st.win.avg, w.avg, 1e-9);
        CU_ASSERT_TRUE(st.win.steady);
        CUTEST_EQ(m.last_round, st.rounds);
    }
    mock_clear(&m);
    if (mock_run_ramp(&m, "rw=randwrite,bs=4k,size=1m,iodepth=8,time_based,runtime=100s,"
                          "ss=pts,ss_round=1s,ss_rounds=12",
                      NULL, MiB, 100 * SIM_US, 1100 * SIM_US, 20 * SIM_SEC)) {
        WorkloadSteady st;
        CU_ASSERT_TRUE(workload_steady(m.w, &st));
        CUTEST_EQ(st.rounds, 12);
        CUTEST_EQ(st.steady_round, 0);
        CUTEST_EQ(steady_first(st.iops, st.rounds, STEADY_WINDOW, NULL), 0);
        /* reported: the last 5 rounds, not steady */
        CUTEST_EQ(st.win.first, 8);
        CUTEST_EQ(st.win.last, 12);
        CU_ASSERT_FALSE(st.win.steady);
        WorkloadJobResult r;
        workload_result(m.w, 0, &r);
        CU_ASSERT_FALSE(r.ss_attained);
        CUTEST_NEAR((double)r.runtime_ns / 1e9, 12.0, 0.01);
    }
    mock_clear(&m);
}

/* rate_min: 4 KiB every 100 us is 40.96 MB/s: a 10m floor holds, a 50m
 * floor ends the job at its first ratecycle with the run's error (4999
 * writes done: the check at 500 ms comes before the completion then). */
static void test_rate_min(void)
{
    Mock m;
    if (mock_run(&m, "rw=write,bs=4k,size=1m,time_based,runtime=3s,ratemin=10m", NULL, MiB,
                 100 * SIM_US)) {
        CU_ASSERT_FALSE(workload_error(m.w, NULL));
        CUTEST_EQ(m.subs->len, 30000);
    }
    mock_clear(&m);
    if (mock_run(&m, "rw=write,bs=4k,size=1m,time_based,runtime=3s,rate_min=,50m,ratecycle=500",
                 NULL, MiB, 100 * SIM_US)) {
        g_autoptr(GError) err = NULL;
        CU_ASSERT_TRUE(workload_error(m.w, &err));
        CU_ASSERT_TRUE(g_error_matches(err, WORKLOAD_ERROR, WORKLOAD_ERROR_RATE));
        if (err)
            CU_ASSERT_STRING_EQUAL(err->message,
                                   "job \"job1\": option \"rate_min\": write at 40951808 bytes/s "
                                   "over the 0.000 s to 0.500 s, expected at least 52428800");
        CUTEST_EQ(m.subs->len, 5000);
    }
    mock_clear(&m);
}

typedef struct LogSink {
    char *buf[8];
    size_t len[8];
    char *name[8];
    int n;
} LogSink;

static FILE *sink_open(void *ctx, const char *name, GError **error)
{
    LogSink *s = ctx;
    (void)error;
    s->name[s->n] = g_strdup(name);
    FILE *f = open_memstream(&s->buf[s->n], &s->len[s->n]);
    s->n++;
    return f;
}

static gboolean sink_close(void *ctx, FILE *f, GError **error)
{
    (void)ctx, (void)error;
    fclose(f);
    return TRUE;
}

/* write_lat_log: a row per I/O (time ms, ns, direction, bs, prio);
 * write_bw_log with log_avg_msec: a row per window in KiB/s. */
static void test_logs(void)
{
    Mock m = {0};
    m.e = sim_engine_new();
    m.latency = 100 * SIM_US;
    m.subs = g_array_new(FALSE, FALSE, sizeof(Sub));
    m.w = workload_from_spec("name=j,rw=write,bs=4k,size=1m,time_based,runtime=1s,"
                             "write_lat_log=x,write_bw_log=y,log_avg_msec=250", NULL);
    WorkloadTarget t = {.ctx = &m, .submit = mock_submit, .capacity = MiB, .queue_limit = 32};
    LogSink sink = {0};
    CU_ASSERT_TRUE(workload_wants_logs(m.w));
    CU_ASSERT_TRUE(workload_bind(m.w, m.e, &t, 1, NULL));
    CU_ASSERT_TRUE(workload_open_logs(m.w, sink_open, &sink, NULL));
    workload_start(m.w);
    sim_run(m.e, SIM_TIME_MAX);
    CU_ASSERT_TRUE(workload_close_logs(m.w, sink_close, &sink, NULL));
    CUTEST_EQ(sink.n, 4);
    CU_ASSERT_STRING_EQUAL(sink.name[0], "y_bw.1.log");
    CU_ASSERT_STRING_EQUAL(sink.name[1], "x_lat.1.log");
    CU_ASSERT_STRING_EQUAL(sink.name[2], "x_clat.1.log");
    CU_ASSERT_STRING_EQUAL(sink.name[3], "x_slat.1.log");
    /* windows of 250 ms at 10,000 writes/s of 4 KiB: 40,000 KiB/s; the one
     * ending with the job is not written (fio's timer stops with the job) */
    CU_ASSERT_STRING_EQUAL(sink.buf[0], "250, 40000, 1, 0, 0\n500, 40000, 1, 0, 0\n"
                                        "750, 40000, 1, 0, 0\n");
    CU_ASSERT(g_str_has_prefix(sink.buf[1], "250, 100000, 1, 0, 0\n"));
    /* fio's JSON figures of the same second: two 500 ms windows (the
     * log's own averaging does not change them), 10,000 I/Os a second
     * in each, every latency 100 us (fio's bucket "250": 100-249 us),
     * one command in flight, one I/O an instant */
    WorkloadJobResult res;
    workload_result(m.w, 0, &res);
    CUTEST_EQ(res.fio.bw[IO_WRITE].samples, 2);
    CUTEST_EQ(res.fio.bw[IO_WRITE].min, 40000);
    CUTEST_EQ(res.fio.bw[IO_WRITE].max, 40000);
    CUTEST_EQ(res.fio.iops[IO_WRITE].samples, 2);
    CU_ASSERT_DOUBLE_EQUAL(res.fio.iops[IO_WRITE].mean, 10000, 1e-9);
    CUTEST_EQ(res.fio.bw[IO_READ].samples, 0);
    CUTEST_EQ(res.fio.lat_u[6], res.ios[IO_WRITE]);
    CUTEST_EQ(res.fio.depth[0], res.ios[IO_WRITE]);
    CUTEST_EQ(res.fio.submit[1], res.fio.total_submit);
    CUTEST_EQ(res.fio.total_complete, res.ios[IO_WRITE]);
    WorkloadDiskStat ds;
    workload_disk_stat(m.w, &ds);
    CUTEST_EQ(ds.ios[IO_WRITE], res.ios[IO_WRITE]);
    CUTEST_EQ(ds.ticks_ns[IO_WRITE], res.ios[IO_WRITE] * 100 * SIM_US);
    CUTEST_EQ(ds.busy_ns, res.ios[IO_WRITE] * 100 * SIM_US); /* back to back, never overlapping */
    for (int i = 0; i < sink.n; i++) {
        free(sink.buf[i]);
        g_free(sink.name[i]);
    }
    mock_clear(&m);
    /* without log_avg_msec: a row per I/O in every log, as fio 3.33: the
     * bandwidth fio's bytes x 10^6 / clat ns, IOPS 1; with log_prio the
     * priority as fio prints it */
    memset(&sink, 0, sizeof sink);
    m.e = sim_engine_new();
    m.subs = g_array_new(FALSE, FALSE, sizeof(Sub));
    m.w = workload_from_spec("rw=read,bs=4k,size=12k,write_lat_log=z,log_offset,"
                             "write_bw_log=z,write_iops_log=z", NULL);
    CU_ASSERT_TRUE(workload_bind(m.w, m.e, &t, 1, NULL));
    CU_ASSERT_TRUE(workload_open_logs(m.w, sink_open, &sink, NULL));
    workload_start(m.w);
    sim_run(m.e, SIM_TIME_MAX);
    CU_ASSERT_TRUE(workload_close_logs(m.w, sink_close, &sink, NULL));
    CUTEST_EQ(sink.n, 5);
    CU_ASSERT_STRING_EQUAL(sink.buf[0], "0, 40960, 0, 4096, 0, 0\n0, 40960, 0, 4096, 4096, 0\n"
                                        "0, 40960, 0, 4096, 8192, 0\n");
    CU_ASSERT_STRING_EQUAL(sink.buf[1], "0, 1, 0, 4096, 0, 0\n0, 1, 0, 4096, 4096, 0\n"
                                        "0, 1, 0, 4096, 8192, 0\n");
    CU_ASSERT_STRING_EQUAL(sink.buf[2], "0, 100000, 0, 4096, 0, 0\n0, 100000, 0, 4096, 4096, 0\n"
                                        "0, 100000, 0, 4096, 8192, 0\n");
    CU_ASSERT_STRING_EQUAL(sink.buf[4], "0, 0, 0, 4096, 0, 0\n0, 0, 0, 4096, 4096, 0\n"
                                        "0, 0, 0, 4096, 8192, 0\n");
    /* the job's statistics take the same samples: one per I/O */
    WorkloadJobResult r;
    workload_result(m.w, 0, &r);
    CUTEST_EQ(r.fio.bw[IO_READ].samples, 3);
    CUTEST_EQ(r.fio.bw[IO_READ].min, 40960);
    CUTEST_EQ(r.fio.iops[IO_READ].samples, 3);
    CUTEST_EQ(r.fio.iops[IO_READ].max, 1);
    for (int i = 0; i < sink.n; i++) {
        free(sink.buf[i]);
        g_free(sink.name[i]);
    }
    mock_clear(&m);
    memset(&sink, 0, sizeof sink);
    m.e = sim_engine_new();
    m.subs = g_array_new(FALSE, FALSE, sizeof(Sub));
    m.w = workload_from_spec("rw=write,bs=8k,size=8k,write_lat_log=p,log_prio", NULL);
    CU_ASSERT_TRUE(workload_bind(m.w, m.e, &t, 1, NULL));
    CU_ASSERT_TRUE(workload_open_logs(m.w, sink_open, &sink, NULL));
    workload_start(m.w);
    sim_run(m.e, SIM_TIME_MAX);
    CU_ASSERT_TRUE(workload_close_logs(m.w, sink_close, &sink, NULL));
    CU_ASSERT_STRING_EQUAL(sink.buf[0], "0, 100000, 1, 8192, 0x0000\n");
    for (int i = 0; i < sink.n; i++) {
        free(sink.buf[i]);
        g_free(sink.name[i]);
    }
    mock_clear(&m);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"offset_modifiers", test_offset_modifiers},
        {"zoned", test_zoned},
        {"sequence", test_sequence},
        {"strided_zones", test_strided_zones},
        {"clones_counts_bssplit", test_clones_counts_bssplit},
        {"wait_for_exitall", test_wait_for_exitall},
        {"flow", test_flow},
        {"poisson", test_poisson},
        {"null_engine", test_null_engine},
        {"verify", test_verify},
        {"steadystate", test_steadystate},
        {"steadystate_pts_constant", test_steadystate_pts_constant},
        {"steadystate_pts_converging", test_steadystate_pts_converging},
        {"rate_min", test_rate_min},
        {"logs", test_logs},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("fio_compat", tests);
}
