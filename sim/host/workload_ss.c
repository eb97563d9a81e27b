/*
 * workload_ss.c - fio's steady-state detection (ss=, ss_dur=, ss_ramp=).
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
 * Also rate_min: once a ratecycle after the ramp, a job below its floor in
 * a direction it uses ends the run with an error, as fio ends the job.
 */
#include "sim/host/workload_priv.h"

#include <math.h>

struct WlSs {
    WlJob *leader;       /* the first clone; the others share its spec */
    uint32_t dur;        /* samples in the window (seconds) */
    double *data;        /* ring of the last dur samples */
    uint32_t head, n;    /* oldest sample, samples held */
    uint64_t last_ios, last_bytes;
    bool attained;
    double criterion;    /* last computed; NAN before the window is full */
    double slope, deviation, mean;
    SimTime attained_at; /* ns */
};

gboolean wl_ss_bind(Workload *w, WlJob *j, GError **error)
{
    (void)w;
    const WorkloadJobSpec *s = j->spec;
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
    ss->criterion = NAN;
    j->ss = ss;
    return TRUE;
}

void wl_ss_free(WlSs *ss)
{
    if (!ss)
        return;
    g_free(ss->data);
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
        for (uint32_t i = 0; i < w->njobs; i++)
            if (w->jobs[i].spec_index == j->spec_index)
                wl_job_stop(&w->jobs[i]);
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

void wl_ss_start(WlJob *j)
{
    sim_schedule_in(j->w->e, j->spec->ss_ramp, ev_ss_begin, j->w, j->index);
}

bool wl_ss_attained(const WlSs *ss, double *criterion)
{
    *criterion = ss ? ss->criterion : NAN;
    return ss && ss->attained;
}

void wl_ss_json(const WlSs *ss, JsonWriter *jw)
{
    const WorkloadJobSpec *s = ss->leader->spec;
    json_begin_object(jw, "steadystate");
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
        wl_job_stop(j);
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
