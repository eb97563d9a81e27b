/*
 * workload_ss.c - fio's steady-state detection (ss=, ss_dur=, ss_ramp=),
 * and ss=pts, the SNIA PTS test on IOPS per round (sim/engine/steady.h).
 *
 * As fio does it: once a second, after ss_ramp, the job (all its numjobs
 * clones together) takes a sample of its IOPS or bandwidth (KiB/s) over
 * that second; when the last ss_dur seconds of samples are in, each new
 * sample computes the criterion over them and the job ends when it is
 * below the limit:
 *   iops, bw        the largest |sample - mean|, or with a % limit that
 *                   deviation in % of the mean;
 *   iops_slope, ... the least-squares slope of the samples per second, or
 *                   with a % limit the slope in % of the mean.
 * ss=pts (ftlsim): after ss_ramp, rounds of ss_round; at the end of each,
 * the job's IOPS over it, and from the fifth on the PTS verdict on the last
 * 5: the job ends when they are steady, or after ss_rounds rounds. Each
 * round's latencies go into a ring of histograms that holds the last 5
 * completed rounds and the running one, so the window's percentiles are
 * exact. Everything is allocated at bind.
 * Also rate_min: once a ratecycle after the ramp, a job below its floor in
 * a direction it uses ends the run with an error, as fio ends the job.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <string.h>

#define WL_SS_RING (STEADY_WINDOW + 1) /* the window's rounds and the running one */

struct WlSs {
    WlJob *leader;       /* the first clone; the others share its spec */
    uint32_t dur;        /* samples in the window (seconds) */
    double *data;        /* ring of the last dur samples */
    uint64_t *iops, *bw; /* the same seconds' I/Os and bytes, for fio's report */
    uint32_t head, n;    /* oldest sample, samples held */
    uint64_t last_ios, last_bytes;
    bool attained;
    double criterion;    /* last computed; NAN before the window is full */
    double slope, deviation, mean;
    SimTime attained_at; /* ns */
    /* ss=pts */
    bool pts, pts_on;    /* the kind; rounds under way */
    double *round_iops;  /* per round, ss_rounds entries */
    SimTime *round_end;  /* ns, per round */
    uint32_t rounds;     /* completed */
    uint32_t steady_round;
    SteadyWindow win;    /* the last window judged */
    SimTime round_t0;    /* ns: the running round began */
    LatHist *ring[WL_SS_RING]; /* latencies: round r (0-based) in ring[r % WL_SS_RING] */
};

static gboolean wl_ss_pts_bind(Workload *w, WlJob *j, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    if (w->pts) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"ss\": found a second ss=pts job (\"%s\" has one), "
                    "expected at most one a workload", j->name, w->pts->leader->name);
        return FALSE;
    }
    WlSs *ss = g_new0(WlSs, 1);
    ss->leader = j;
    ss->pts = true;
    ss->criterion = NAN;
    ss->round_iops = g_new0(double, s->ss_rounds);
    ss->round_end = g_new0(SimTime, s->ss_rounds);
    for (int i = 0; i < WL_SS_RING; i++)
        ss->ring[i] = lat_hist_new();
    j->ss = j->ss_pts = w->pts = ss;
    return TRUE;
}

gboolean wl_ss_bind(Workload *w, WlJob *j, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    if (s->ss == WL_SS_PTS)
        return wl_ss_pts_bind(w, j, error);
    if (s->ss_dur < SIM_SEC || s->ss_dur > 86400 * SIM_SEC) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"ss_dur\": found %.3f s, expected from 1 s to 1 day "
                    "(ss= needs ss_dur=)", j->name, (double)s->ss_dur / 1e9);
        return FALSE;
    }
    WlSs *ss = g_new0(WlSs, 1);
    ss->leader = j;
    ss->dur = (uint32_t)(s->ss_dur / SIM_SEC);
    ss->data = g_new0(double, ss->dur);
    ss->iops = g_new0(uint64_t, ss->dur);
    ss->bw = g_new0(uint64_t, ss->dur);
    ss->criterion = NAN;
    j->ss = ss;
    return TRUE;
}

void wl_ss_free(WlSs *ss)
{
    if (!ss)
        return;
    g_free(ss->data);
    g_free(ss->iops);
    g_free(ss->bw);
    g_free(ss->round_iops);
    g_free(ss->round_end);
    for (int i = 0; i < WL_SS_RING; i++)
        lat_hist_free(ss->ring[i]);
    g_free(ss);
}

/* The group's completed I/Os and bytes so far. */
static void wl_ss_totals(const WlSs *ss, uint64_t *ios, uint64_t *bytes)
{
    const Workload *w = ss->leader->w;
    *ios = *bytes = 0;
    for (uint32_t i = 0; i < w->njobs; i++) {
        const WlJob *o = &w->jobs[i];
        if (o->spec_index != ss->leader->spec_index)
            continue;
        for (int d = 0; d < WL_DIRS; d++) {
            *ios += o->st.ios[d];
            *bytes += o->st.bytes[d];
        }
    }
}

static bool wl_ss_steady(WlSs *ss)
{
    const WorkloadJobSpec *s = ss->leader->spec;
    double n = ss->dur, sum = 0, sxy = 0, sx = 0, sxx = 0;
    for (uint32_t i = 0; i < ss->dur; i++) {
        double y = ss->data[(ss->head + i) % ss->dur];
        sum += y;
        sxy += i * y;
        sx += i;
        sxx += (double)i * i;
    }
    ss->mean = sum / n;
    ss->deviation = 0;
    for (uint32_t i = 0; i < ss->dur; i++)
        ss->deviation = MAX(ss->deviation, fabs(ss->data[i] - ss->mean));
    double den = sxx - sx * sx / n;
    ss->slope = den > 0 ? (sxy - sx * sum / n) / den : 0;
    double v = s->ss_slope ? ss->slope : ss->deviation;
    if (s->ss_pct)
        v = ss->mean > 0 ? 100.0 * v / ss->mean : INFINITY;
    ss->criterion = fabs(v);
    return ss->criterion < s->ss_limit;
}

/* Stop every job of the steady-state group ss leads (the numjobs clones of
 * one job section). */
static void wl_ss_stop_group(WlSs *ss)
{
    Workload *w = ss->leader->w;
    for (uint32_t i = 0; i < w->njobs; i++)
        if (w->jobs[i].spec_index == ss->leader->spec_index)
            w->job_stop(&w->jobs[i]);
}

static void ev_ss_sample(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlSs *ss = w->jobs[arg].ss;
    WlJob *j = ss->leader;
    if (j->state != WL_JOB_RUN || j->stopping)
        return;
    uint64_t ios, bytes;
    wl_ss_totals(ss, &ios, &bytes);
    double v = j->spec->ss == WL_SS_IOPS ? (double)(ios - ss->last_ios)
                                         : (double)(bytes - ss->last_bytes) / 1024.0;
    uint32_t at = ss->n < ss->dur ? ss->n : ss->head;
    ss->iops[at] = ios - ss->last_ios;
    ss->bw[at] = bytes - ss->last_bytes;
    ss->last_ios = ios;
    ss->last_bytes = bytes;
    if (ss->n < ss->dur) {
        ss->data[ss->n++] = v;
    } else {
        ss->data[ss->head] = v;
        ss->head = (ss->head + 1) % ss->dur;
    }
    if (ss->n == ss->dur && wl_ss_steady(ss)) {
        ss->attained = true;
        ss->attained_at = sim_now(w->e);
        wl_ss_stop_group(ss);
        return;
    }
    sim_schedule_in(w->e, SIM_SEC, ev_ss_sample, w, arg);
}

static void ev_ss_begin(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlSs *ss = w->jobs[arg].ss;
    wl_ss_totals(ss, &ss->last_ios, &ss->last_bytes);
    sim_schedule_in(w->e, SIM_SEC, ev_ss_sample, w, arg);
}

/* ---- ss=pts --------------------------------------------------------------- */

/* The end of a round: its IOPS, the hook, the verdict. */
static void ev_pts_round(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlSs *ss = w->jobs[arg].ss;
    WlJob *j = ss->leader;
    if (j->state != WL_JOB_RUN || j->stopping)
        return;
    uint64_t ios, bytes;
    wl_ss_totals(ss, &ios, &bytes);
    SimTime now = sim_now(w->e);
    uint32_t r = ss->rounds;
    ss->round_iops[r] = (double)(ios - ss->last_ios) / ((double)(now - ss->round_t0) / 1e9);
    ss->round_end[r] = now;
    ss->rounds = ++r;
    ss->last_ios = ios;
    ss->round_t0 = now;
    lat_hist_reset(ss->ring[r % WL_SS_RING]);
    if (w->round_fn)
        w->round_fn(w->round_ctx, r);
    if (r >= STEADY_WINDOW) {
        steady_judge(ss->round_iops + r - STEADY_WINDOW, STEADY_WINDOW, r - STEADY_WINDOW + 1,
                     STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &ss->win);
        ss->criterion = 100 * ss->win.excursion;
        ss->mean = ss->win.avg;
        ss->slope = ss->win.slope;
        if (ss->win.steady) {
            ss->steady_round = r;
            ss->attained = true;
            ss->attained_at = now;
            wl_ss_stop_group(ss);
            return;
        }
    }
    if (r >= j->spec->ss_rounds) {
        wl_ss_stop_group(ss);
        return;
    }
    sim_schedule_in(w->e, j->spec->ss_round, ev_pts_round, w, arg);
}

static void ev_pts_begin(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlSs *ss = w->jobs[arg].ss;
    if (ss->leader->state != WL_JOB_RUN || ss->leader->stopping)
        return;
    wl_ss_totals(ss, &ss->last_ios, &ss->last_bytes);
    ss->round_t0 = sim_now(w->e);
    ss->pts_on = true;
    if (w->round_fn)
        w->round_fn(w->round_ctx, 0);
    sim_schedule_in(w->e, ss->leader->spec->ss_round, ev_pts_round, w, arg);
}

void wl_ss_pts_record(WlSs *ss, SimTime latency)
{
    if (ss->pts_on)
        lat_hist_record(ss->ring[ss->rounds % WL_SS_RING], latency);
}

gboolean workload_steady(const Workload *w, WorkloadSteady *out)
{
    g_return_val_if_fail(w && out, FALSE);
    const WlSs *ss = w->pts;
    memset(out, 0, sizeof *out);
    if (!ss)
        return FALSE;
    const WorkloadJobSpec *s = ss->leader->spec;
    out->job = ss->leader->name;
    out->round_ns = s->ss_round;
    out->max_rounds = s->ss_rounds;
    out->rounds = ss->rounds;
    out->iops = ss->round_iops;
    out->round_end = ss->round_end;
    out->steady_round = ss->steady_round;
    if (ss->steady_round) {
        out->win = ss->win;
        return TRUE;
    }
    steady_last(ss->round_iops, ss->rounds, STEADY_WINDOW, &out->win);
    return TRUE;
}

gboolean workload_steady_latency(const Workload *w, uint32_t first, uint32_t last, LatHist *h)
{
    g_return_val_if_fail(w && h, FALSE);
    const WlSs *ss = w->pts;
    if (!ss || first < 1 || last < first || last > ss->rounds ||
        ss->rounds - first + 1 > STEADY_WINDOW)
        return FALSE;
    for (uint32_t r = first; r <= last; r++)
        lat_hist_merge(h, ss->ring[(r - 1) % WL_SS_RING]);
    return TRUE;
}

void workload_set_round_hook(Workload *w, WorkloadRoundFn fn, void *ctx)
{
    g_return_if_fail(w && !w->started);
    w->round_fn = fn;
    w->round_ctx = ctx;
}

void wl_ss_start(WlJob *j)
{
    if (j->ss->pts)
        sim_schedule_in(j->w->e, j->spec->ss_ramp, ev_pts_begin, j->w, j->index);
    else
        sim_schedule_in(j->w->e, j->spec->ss_ramp, ev_ss_begin, j->w, j->index);
}

bool wl_ss_attained(const WlSs *ss, double *criterion)
{
    *criterion = ss ? ss->criterion : NAN;
    return ss && ss->attained;
}

void wl_ss_result(const WlSs *ss, WorkloadJobResult *out)
{
    if (!ss || ss->pts)
        return;
    out->ss_samples = ss->n;
    out->ss_iops = ss->iops;
    out->ss_bw = ss->bw;
    out->ss_first = ss->n < ss->dur ? 0 : ss->head;
    out->ss_ring = ss->dur;
    out->ss_deviation = ss->deviation;
    out->ss_slope = ss->slope;
}

void wl_ss_json(const WlSs *ss, JsonWriter *jw)
{
    const WorkloadJobSpec *s = ss->leader->spec;
    json_begin_object(jw, "steadystate");
    if (ss->pts) {
        WorkloadSteady st;
        workload_steady(ss->leader->w, &st);
        json_str(jw, "ss", "pts");
        json_double(jw, "round_s", (double)s->ss_round / 1e9);
        json_u64(jw, "max_rounds", s->ss_rounds);
        json_u64(jw, "rounds", ss->rounds);
        json_bool(jw, "attained", ss->attained);
        json_u64(jw, "steady_round", ss->steady_round);
        json_u64(jw, "window_first", st.win.first);
        json_u64(jw, "window_last", st.win.last);
        json_double(jw, "mean", st.win.avg);
        json_double(jw, "excursion_pct", 100 * st.win.excursion);
        json_double(jw, "slope_pct", 100 * st.win.slope_excursion);
        if (ss->attained)
            json_double(jw, "attained_at_s", (double)ss->attained_at / 1e9);
        json_end_object(jw);
        return;
    }
    g_autofree char *crit = g_strdup_printf("%s%s:%g%s", s->ss == WL_SS_IOPS ? "iops" : "bw",
                                            s->ss_slope ? "_slope" : "", s->ss_limit,
                                            s->ss_pct ? "%" : "");
    json_str(jw, "ss", crit);
    json_u64(jw, "duration", s->ss_dur / SIM_SEC);
    json_u64(jw, "steadystate_ramptime", s->ss_ramp / SIM_SEC);
    json_bool(jw, "attained", ss->attained);
    json_double(jw, "criterion", ss->criterion);
    json_double(jw, "max_deviation", ss->deviation);
    json_double(jw, "slope", ss->slope);
    json_double(jw, "mean", ss->mean);
    if (ss->attained)
        json_double(jw, "attained_at_s", (double)ss->attained_at / 1e9);
    json_end_object(jw);
}

/* ---- rate_min ------------------------------------------------------------ */

static void ev_rate_check(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlJob *j = &w->jobs[arg];
    const WorkloadJobSpec *s = j->spec;
    if (j->state != WL_JOB_RUN || j->stopping || j->verifying)
        return;
    double cycle = (double)s->ratecycle_ns / 1e9;
    for (int d = 0; d < WL_DIRS; d++) {
        double rate = (double)(j->st.bytes[d] - j->rate_mark[d]) / cycle;
        j->rate_mark[d] = j->st.bytes[d];
        if (!s->rate_min[d] || j->st.ios[d] == 0 || rate >= (double)s->rate_min[d])
            continue;
        static const char *const dir[] = {"read", "write", "trim"};
        if (!w->run_error)
            g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_RATE,
                        "job \"%s\": option \"rate_min\": %s at %.0f bytes/s over the %.3f s to "
                        "%.3f s, expected at least %" G_GUINT64_FORMAT, j->name, dir[d], rate,
                        (double)(sim_now(w->e) - s->ratecycle_ns) / 1e9,
                        (double)sim_now(w->e) / 1e9, s->rate_min[d]);
        w->job_stop(j);
        return;
    }
    sim_schedule_in(w->e, s->ratecycle_ns, ev_rate_check, w, arg);
}

static void ev_rate_begin(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlJob *j = &w->jobs[arg];
    for (int d = 0; d < WL_DIRS; d++)
        j->rate_mark[d] = j->st.bytes[d];
    sim_schedule_in(w->e, j->spec->ratecycle_ns, ev_rate_check, w, arg);
}

void wl_rate_min_start(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    if (s->rate_min[IO_READ] || s->rate_min[IO_WRITE] || s->rate_min[IO_TRIM])
        sim_schedule_in(j->w->e, s->ramp_ns, ev_rate_begin, j->w, j->index);
}
