/*
 * workload_query.c - what a workload reports: latencies, counters, the
 * parsed jobs, and for fio jobs their progress and each job's results
 * (summary.json "jobs", fio JSON) as the jobs source's ops.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <string.h>

gboolean wl_jobs_finished(const Workload *w)
{
    return w->cur_phase >= w->nphases && w->outstanding == 0;
}

gboolean workload_error(const Workload *w, GError **error)
{
    g_return_val_if_fail(w != NULL, FALSE);
    if (!w->run_error)
        return FALSE;
    g_propagate_error(error, g_error_copy(w->run_error));
    return TRUE;
}

static double wl_job_progress(const WlJob *j, SimTime now)
{
    if (j->state == WL_JOB_DONE)
        return 1.0;
    if (j->state == WL_JOB_WAIT)
        return 0.0;
    double f = 0;
    if (j->t_end != SIM_TIME_MAX && j->t_end > j->t_start)
        f = (double)(now - j->t_start) / (double)(j->t_end - j->t_start);
    if (j->limit != UINT64_MAX && j->limit)
        f = MAX(f, (double)j->issued / (double)j->limit);
    return MIN(f, 1.0);
}

double wl_jobs_progress(const Workload *w)
{
    if (w->njobs == 0)
        return 1.0;
    double sum = 0;
    for (uint32_t i = 0; i < w->njobs; i++)
        sum += wl_job_progress(&w->jobs[i], sim_now(w->e));
    return sum / w->njobs;
}

const char *workload_description(const Workload *w)
{
    g_return_val_if_fail(w != NULL, NULL);
    return w->description;
}

const LatHist *workload_latency(const Workload *w, IoOp op)
{
    g_return_val_if_fail(w && (unsigned)op < IO_OPS, NULL);
    return w->overall[op];
}

const LatHist *workload_zone_latency(const Workload *w, ZoneOp op)
{
    g_return_val_if_fail(w && (unsigned)op < ZONE_OPS, NULL);
    return w->zone_lat[op];
}

void workload_set_latency_sink(Workload *w, WorkloadLatencyFn fn, void *ctx)
{
    g_return_if_fail(w != NULL);
    w->lat_sink = fn;
    w->lat_sink_ctx = ctx;
}

uint64_t workload_submitted_bytes(const Workload *w, IoOp op)
{
    g_return_val_if_fail(w && (unsigned)op < IO_OPS, 0);
    return w->sub_bytes[op];
}

uint64_t workload_submitted_ios(const Workload *w, IoOp op)
{
    g_return_val_if_fail(w && (unsigned)op < IO_OPS, 0);
    return w->sub_ios[op];
}

guint workload_job_count(const Workload *w)
{
    g_return_val_if_fail(w != NULL, 0);
    return w->specs ? w->specs->len : 0;
}

const WorkloadJobSpec *workload_job_spec(const Workload *w, guint i)
{
    g_return_val_if_fail(w && w->specs && i < w->specs->len, NULL);
    return &g_array_index(w->specs, WorkloadJobSpec, i);
}

uint64_t workload_setup_bytes(const Workload *w, uint64_t *clones)
{
    g_return_val_if_fail(w != NULL, 0);
    uint64_t bytes = 0, n = 0;
    uint64_t per_job = sizeof(WlJob) + sizeof(uint32_t) + IO_OPS * (lat_hist_bytes() + 16);
    uint64_t per_slot = sizeof(WlIo) + sizeof(uint32_t);
    for (guint i = 0; w->specs && i < w->specs->len; i++) {
        const WorkloadJobSpec *s = &g_array_index(w->specs, WorkloadJobSpec, i);
        /* at most 4096 clones of at most 65536 slots a spec: no overflow */
        n += s->numjobs;
        bytes += (uint64_t)s->numjobs * (per_job + (s->idle ? 0 : s->iodepth * per_slot));
    }
    if (clones)
        *clones = n;
    return bytes;
}

/* Time the job measured (after its ramp), ns. */
static SimTime wl_job_runtime(const WlJob *j, SimTime now)
{
    SimTime from = MAX(j->t_start, j->t_ramp_end);
    SimTime to = j->state == WL_JOB_DONE ? j->t_finish : now;
    return j->state != WL_JOB_WAIT && to > from ? to - from : 0;
}

guint wl_jobs_results(const Workload *w)
{
    return w->njobs;
}

void wl_jobs_result(const Workload *w, guint i, WorkloadJobResult *out)
{
    const WlJob *j = &w->jobs[i];
    memset(out, 0, sizeof *out);
    out->name = j->name;
    out->spec = j->spec;
    out->group = 0;
    for (guint k = 1; k <= j->spec_index; k++) { /* fio's groupid */
        const WorkloadJobSpec *sk = &g_array_index(w->specs, WorkloadJobSpec, k);
        out->group += sk->stonewall || sk->new_group || sk->idle || sk[-1].idle;
    }
    out->runtime_ns = wl_job_runtime(j, w->e ? sim_now(w->e) : 0);
    for (int d = 0; d < WL_DIRS; d++) {
        uint64_t n = j->st.ios[d];
        double mean = lat_hist_mean(j->st.lat[d]);
        out->ios[d] = n;
        out->bytes[d] = j->st.bytes[d];
        out->lat[d] = j->st.lat[d];
        out->lat_sq[d] = j->st.lat_sq[d];
        double var = n > 1 ? (j->st.lat_sq[d] - (double)n * mean * mean) / (double)(n - 1) : 0;
        out->lat_stddev_ns[d] = var > 0 ? sqrt(var) : 0;
    }
    out->sync_ios = j->st.ios[IO_FLUSH];
    out->sync_lat = j->st.lat[IO_FLUSH];
    out->sync_lat_sq = j->st.lat_sq[IO_FLUSH];
    SimTime now = w->e ? sim_now(w->e) : 0;
    wl_fio_stat_result(&j->st.fio, j->state == WL_JOB_DONE ? j->t_finish : now, &out->fio);
    out->verify_reads = j->verify_reads;
    out->verify_bytes = j->verify_bytes;
    out->verify_mismatches = j->verify_bad;
    const WlJob *leader = j - j->clone; /* clones are consecutive; the first holds ss */
    out->ss_attained = wl_ss_attained(leader->ss, &out->ss_criterion);
    wl_ss_result(leader->ss, out);
}

static void wl_job_json(const WlJob *j, JsonWriter *jw, SimTime now)
{
    const WorkloadJobSpec *s = j->spec;
    double rt = (double)wl_job_runtime(j, now) / 1e9;
    json_begin_object(jw, NULL);
    json_str(jw, "name", j->name);
    json_str(jw, "rw", s->idle ? "idle" : wl_rw_name(s->rw));
    if (!s->idle) {
        json_u64(jw, "bs", s->bs[s->rw == WL_RW_READ || s->rw == WL_RW_RANDREAD ? IO_READ
                               : s->rw == WL_RW_TRIM || s->rw == WL_RW_RANDTRIM ? IO_TRIM
                                                                                 : IO_WRITE]);
        json_u64(jw, "iodepth", s->iodepth);
        json_u64(jw, "offset", j->start);
        json_u64(jw, "size", j->size);
        if (!s->randrepeat || s->has_randseed) /* a seed not from --seed: to run it again */
            json_u64(jw, "seed", j->seed);
        for (int op = 0; op < WL_DIRS; op++)
            wl_stats_json(jw, &j->st, (IoOp)op, rt);
        if (s->verify) {
            json_begin_object(jw, "verify");
            json_u64(jw, "reads", j->verify_reads);
            json_u64(jw, "bytes", j->verify_bytes);
            json_u64(jw, "mismatches", j->verify_bad);
            json_end_object(jw);
        }
        if (j->ss)
            wl_ss_json(j->ss, jw);
        wl_zbd_json(j, jw);
        if (!s->zbd.on && j->w->t.zone_size) /* a zoned drive's refusals (zbd jobs: in zbd) */
            json_u64(jw, "errors", j->zerrors);
    }
    json_double(jw, "runtime_s", rt);
    json_end_object(jw);
}

void wl_jobs_json(const Workload *w, JsonWriter *jw)
{
    for (uint32_t i = 0; i < w->njobs; i++)
        wl_job_json(&w->jobs[i], jw, w->e ? sim_now(w->e) : 0);
}


const char *workload_rw_name(const WorkloadJobSpec *s)
{
    g_return_val_if_fail(s != NULL, "?");
    return wl_rw_name(s->rw);
}
