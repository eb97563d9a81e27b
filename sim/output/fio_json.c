/*
 * fio_json.c - fio's JSON output format from a workload's job results,
 * every key fio 3.33 writes, in its order, types and units.
 *
 * One entry per job (numjobs clone), or with group_reporting per reporting
 * group, summed as fio sums them (latencies merged; bandwidth and IOPS
 * sample statistics added up; the longest runtime). Runtimes and rates are
 * fio's: runtime in whole ms rounded up, rates over it in integer
 * arithmetic, so a job of 0.3 ms reports 1 ms. The simulated submission is
 * instant: slat is 0 for every I/O and clat equals lat. What measures the
 * host rather than the drive (CPU, context switches, page faults) is 0;
 * disk_util is the simulated drive. docs/outputs.md lists every key.
 */
#include "sim/output/fio_json.h"
#include "sim/output/fio_priv.h"

#include "sim/engine/json.h"
#include "sim/engine/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const double fio_pcts[] = {1,  5,  10, 20, 30, 40, 50,   60,   70,
                                  80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

/* fio's runtime of a direction that moved data: its time rounded up to
 * whole ms (backend.c rounds microseconds up), so never 0. */
static uint64_t fio_runtime_ms(SimTime ns)
{
    return MAX((ns + SIM_MS - 1) / SIM_MS, 1);
}

/* fio's sum_stat(..., pure_sum): bandwidth and IOPS statistics of a
 * group's jobs add up, their means and deviations as well. */
static void fio_rate_add(WorkloadRateStat *dst, const WorkloadRateStat *src)
{
    if (src->samples == 0)
        return;
    if (dst->samples == 0) {
        *dst = *src;
        return;
    }
    dst->min += src->min;
    dst->max += src->max;
    dst->samples += src->samples;
    dst->mean += src->mean;
    dst->S += src->S;
}

static void fio_entry_add(FioEntry *e, const WorkloadJobResult *r)
{
    if (e->jobs++ == 0) {
        e->first = *r;
        e->sync_lat = lat_hist_new();
    }
    e->last = r->spec;
    e->total_run_ms += r->runtime_ns / SIM_MS;
    for (int d = 0; d < WL_DIRS; d++) {
        if (!e->lat[d])
            e->lat[d] = lat_hist_new();
        lat_hist_merge(e->lat[d], r->lat[d]);
        e->ios[d] += r->ios[d];
        e->bytes[d] += r->bytes[d];
        e->lat_sq[d] += r->lat_sq[d];
        if (r->ios[d])
            e->runtime_ms[d] = MAX(e->runtime_ms[d], fio_runtime_ms(r->runtime_ns));
        fio_rate_add(&e->fio.bw[d], &r->fio.bw[d]);
        fio_rate_add(&e->fio.iops[d], &r->fio.iops[d]);
    }
    if (r->sync_lat)
        lat_hist_merge(e->sync_lat, r->sync_lat);
    e->sync_ios += r->sync_ios;
    e->sync_sq += r->sync_lat_sq;
    for (int i = 0; i < WL_FIO_DEPTHS; i++) {
        e->fio.depth[i] += r->fio.depth[i];
        e->fio.submit[i] += r->fio.submit[i];
        e->fio.complete[i] += r->fio.complete[i];
    }
    e->fio.total_submit += r->fio.total_submit;
    e->fio.total_complete += r->fio.total_complete;
    for (int i = 0; i < WL_FIO_LAT_N; i++)
        e->fio.lat_n[i] += r->fio.lat_n[i];
    for (int i = 0; i < WL_FIO_LAT_U; i++)
        e->fio.lat_u[i] += r->fio.lat_u[i];
    for (int i = 0; i < WL_FIO_LAT_M; i++)
        e->fio.lat_m[i] += r->fio.lat_m[i];
    e->verify_reads += r->verify_reads;
    e->verify_mismatches += r->verify_mismatches;
    e->ss_attained |= r->ss_attained;
}

void fio_entry_clear(FioEntry *e)
{
    for (int d = 0; d < WL_DIRS; d++)
        lat_hist_free(e->lat[d]);
    lat_hist_free(e->sync_lat);
}

const double *fio_pct_list(const WorkloadJobSpec *s, unsigned *n, unsigned *precision)
{
    if (s && s->pct_n) {
        *n = s->pct_n;
        *precision = s->pct_prec;
        return s->pct_list;
    }
    *n = G_N_ELEMENTS(fio_pcts);
    *precision = 2;
    return fio_pcts;
}

/* "percentile": the job's list, read from h (NULL: every value 0). */
static void fio_pct_json(JsonWriter *jw, const WorkloadJobSpec *s, const LatHist *h)
{
    unsigned np, prec;
    const double *list = fio_pct_list(s, &np, &prec);
    json_begin_object(jw, "percentile");
    for (unsigned i = 0; i < np; i++) {
        char k[32];
        g_snprintf(k, sizeof k, "%f", list[i]);
        json_u64(jw, k, h ? lat_hist_percentile(h, list[i]) : 0);
    }
    json_end_object(jw);
}

/* min, max, mean, stddev (sample), N; with percentiles (pct: the job whose
 * list they follow) those from the histogram, and in json+ the histogram
 * itself: bucket low edge (ns) -> count. */
static void fio_lat(JsonWriter *jw, const char *key, const LatHist *h, uint64_t n, double sq,
                    const WorkloadJobSpec *pct, gboolean plus)
{
    json_begin_object(jw, key);
    double mean = n && h ? lat_hist_mean(h) : 0.0;
    double var = n > 1 ? (sq - (double)n * mean * mean) / (double)(n - 1) : 0;
    json_u64(jw, "min", n && h ? lat_hist_min(h) : 0);
    json_u64(jw, "max", n && h ? lat_hist_max(h) : 0);
    json_fixed(jw, "mean", mean);
    json_fixed(jw, "stddev", var > 0 ? sqrt(var) : 0.0);
    json_u64(jw, "N", n);
    if (pct && n && h) {
        fio_pct_json(jw, pct, h);
        if (plus) {
            json_begin_object(jw, "bins");
            unsigned idx = 0;
            uint64_t low, count;
            while (lat_hist_next_bucket(h, &idx, &low, &count)) {
                char k[32];
                g_snprintf(k, sizeof k, "%" G_GUINT64_FORMAT, low);
                json_u64(jw, k, count);
            }
            json_end_object(jw);
        }
    }
    json_end_object(jw);
}

double fio_rate_dev(const WorkloadRateStat *r)
{
    return r->samples > 1 ? sqrt(r->S / ((double)r->samples - 1.0)) : 0.0;
}

static void fio_depths(JsonWriter *jw, const char *key, const uint64_t *v, uint64_t total,
                       const char *const *names)
{
    json_begin_object(jw, key);
    for (int i = 0; i < WL_FIO_DEPTHS; i++) {
        double pct = total ? (double)v[i] / (double)total * 100.0 : 0.0;
        if (pct < 0.1 && v[i]) /* fio's stat_calc_dist() */
            pct = 0.1;
        json_fixed(jw, names[i], pct);
    }
    json_end_object(jw);
}

static void fio_lat_buckets(JsonWriter *jw, const char *key, const uint64_t *v, int n,
                            uint64_t total)
{
    static const char *const names[] = {"2",   "4",   "10",  "20",   "50",   "100",
                                        "250", "500", "750", "1000", "2000", ">=2000"};
    json_begin_object(jw, key);
    for (int i = 0; i < n; i++) {
        double pct = total ? (double)v[i] / (double)total * 100.0 : 0.0;
        if (pct < 0.01 && v[i]) /* fio's stat_calc_lat() */
            pct = 0.01;
        json_fixed(jw, names[i], pct);
    }
    json_end_object(jw);
}

/* fio lists an option under its own name, not the alias written. */
static const char *fio_option_name(const char *key)
{
    static const char *const alias[][2] = {
        {"blockalign", "ba"},         {"fill_fs", "fill_device"},
        {"iodepth_batch_submit", "iodepth_batch"},
        {"io_limit", "io_size"},      {"ratecycle", "rate_cycle"},
        {"ratemin", "rate_min"},      {"ss", "steadystate"},
        {"ss_dur", "steadystate_duration"}, {"ss_ramp", "steadystate_ramp_time"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(alias); i++)
        if (strcmp(key, alias[i][0]) == 0)
            return alias[i][1];
    return key;
}

/* Where fio lists an option: it parses a section's options sorted by
 * their priority (kb_base and unit_base first, filename last), and lists
 * them in that order; the others as written. */
static int fio_option_rank(const char *key)
{
    if (strcmp(key, "kb_base") == 0 || strcmp(key, "unit_base") == 0)
        return 0;
    return strcmp(key, "filename") == 0 ? 2 : 1;
}

/* "job options" / "global options": the section's options as written,
 * named and ordered as fio lists them. */
static void fio_options(JsonWriter *jw, const char *key, const char *opts)
{
    if (!opts || !opts[0])
        return; /* fio leaves the object out when the section has none */
    json_begin_object(jw, key);
    g_auto(GStrv) lines = g_strsplit(opts, "\n", -1);
    for (int rank = 0; rank <= 2; rank++) {
        for (guint i = 0; lines[i]; i++) {
            char *eq = strchr(lines[i], '=');
            if (!eq)
                continue;
            *eq = '\0';
            const char *name = fio_option_name(lines[i]);
            if (fio_option_rank(name) == rank)
                json_str(jw, name, eq + 1);
            *eq = '=';
        }
    }
    json_end_object(jw);
}

/* One direction as fio shows it; stats=0 shows none, disable_* zeroes
 * that measurement (N 0, no percentiles), as fio does. */
static void fio_direction(JsonWriter *jw, const char *key, const FioEntry *e, const FioGroup *g,
                          int d, gboolean plus)
{
    const WorkloadJobSpec *s = e->last;
    uint64_t rt = s->no_stats ? 0 : e->runtime_ms[d], bw_bytes = 0;
    uint64_t n = s->no_stats ? 0 : e->ios[d], bytes = s->no_stats ? 0 : e->bytes[d];
    double iops = 0;
    if (rt) {
        bw_bytes = 1000 * bytes / rt;
        iops = 1000.0 * (double)n / (double)rt;
    }
    json_begin_object(jw, key);
    json_u64(jw, "io_bytes", bytes);
    json_u64(jw, "io_kbytes", bytes >> 10);
    json_u64(jw, "bw_bytes", bw_bytes);
    json_u64(jw, "bw", bw_bytes / 1024);
    json_fixed(jw, "iops", iops);
    json_u64(jw, "runtime", rt);
    json_u64(jw, "total_ios", n);
    json_u64(jw, "short_ios", 0);
    json_u64(jw, "drop_ios", 0);
    json_begin_object(jw, "slat_ns"); /* every I/O, each submitted in 0 ns */
    json_u64(jw, "min", 0);
    json_u64(jw, "max", 0);
    json_fixed(jw, "mean", 0);
    json_fixed(jw, "stddev", 0);
    json_u64(jw, "N", s->no_slat ? 0 : n);
    if (s->slat_pct && n && !s->no_slat)
        fio_pct_json(jw, s, NULL);
    json_end_object(jw);
    fio_lat(jw, "clat_ns", e->lat[d], s->no_clat ? 0 : n, e->lat_sq[d], s->clat_pct ? s : NULL,
            plus);
    fio_lat(jw, "lat_ns", e->lat[d], s->no_lat ? 0 : n, e->lat_sq[d], s->lat_pct ? s : NULL, plus);

    static const WorkloadRateStat none;
    gboolean no_bw = s->no_bw || s->no_stats;
    const WorkloadRateStat *bw = no_bw ? &none : &e->fio.bw[d];
    const WorkloadRateStat *io = no_bw ? &none : &e->fio.iops[d];
    double agg = 0;
    if (bw->samples) { /* fio's convert_agg_kbytes_percent(), its int mean included */
        uint64_t group_bw = g->max_run_ms[d] ? g->bytes[d] * 1000 / g->max_run_ms[d] : 0;
        agg = 100.0;
        if (group_bw > 1024)
            agg = MIN(100.0, (double)(int)bw->mean * 100.0 / ((double)group_bw / 1024.0));
    }
    json_u64(jw, "bw_min", bw->samples ? bw->min : 0);
    json_u64(jw, "bw_max", bw->max);
    json_fixed(jw, "bw_agg", agg);
    json_fixed(jw, "bw_mean", bw->mean);
    json_fixed(jw, "bw_dev", fio_rate_dev(bw));
    json_u64(jw, "bw_samples", bw->samples);
    json_u64(jw, "iops_min", io->samples ? io->min : 0);
    json_u64(jw, "iops_max", io->max);
    json_fixed(jw, "iops_mean", io->mean);
    json_fixed(jw, "iops_stddev", fio_rate_dev(io));
    json_u64(jw, "iops_samples", io->samples);
    json_end_object(jw);
}

/* fio's steadystate object: the criterion as fio prints it, and the
 * samples of the last ss_dur seconds (I/Os and bytes per second, oldest
 * first, zeros where the window is not yet full) with their means. */
static void fio_steadystate(JsonWriter *jw, const WorkloadJobResult *r, gboolean attained)
{
    const WorkloadJobSpec *s = r->spec;
    char buf[96];
    json_begin_object(jw, "steadystate");
    g_snprintf(buf, sizeof buf, "%s%s:%f%s", s->ss == WL_SS_IOPS ? "iops" : "bw",
               s->ss_slope ? "_slope" : "", s->ss_limit, s->ss_pct ? "%" : "");
    json_str(jw, "ss", buf);
    json_u64(jw, "duration", s->ss_dur / SIM_SEC);
    json_u64(jw, "attained", attained ? 1 : 0);
    g_snprintf(buf, sizeof buf, "%f%s", r->ss_criterion, s->ss_pct ? "%" : "");
    json_str(jw, "criterion", buf);
    json_fixed(jw, "max_deviation", r->ss_deviation);
    json_fixed(jw, "slope", r->ss_slope);
    json_begin_object(jw, "data");
    uint64_t sum_bw = 0, sum_iops = 0;
    for (uint32_t i = 0; i < r->ss_ring; i++) {
        sum_bw += r->ss_bw[i];
        sum_iops += r->ss_iops[i];
    }
    json_u64(jw, "bw_mean", r->ss_ring ? sum_bw / r->ss_ring : 0);
    json_u64(jw, "iops_mean", r->ss_ring ? sum_iops / r->ss_ring : 0);
    for (int k = 0; k < 2; k++) {
        const uint64_t *v = k == 0 ? r->ss_iops : r->ss_bw;
        json_begin_array(jw, k == 0 ? "iops" : "bw");
        for (uint32_t i = 0; i < r->ss_ring; i++)
            json_u64(jw, NULL, v[(r->ss_first + i) % r->ss_ring]);
        json_end_array(jw);
    }
    json_end_object(jw);
    json_end_object(jw);
}

/* As fio's sum_thread_stats() folds the directions into "mixed". */
void fio_entry_mixed(const FioEntry *e, const FioGroup *g, FioEntry *m, FioGroup *mg)
{
    memset(m, 0, sizeof *m);
    memset(mg, 0, sizeof *mg);
    m->first = e->first;
    m->last = e->last;
    m->lat[IO_READ] = lat_hist_new();
    for (int d = 0; d < WL_DIRS; d++) {
        if (e->lat[d])
            lat_hist_merge(m->lat[IO_READ], e->lat[d]);
        m->ios[IO_READ] += e->ios[d];
        m->bytes[IO_READ] += e->bytes[d];
        m->lat_sq[IO_READ] += e->lat_sq[d];
        m->runtime_ms[IO_READ] = MAX(m->runtime_ms[IO_READ], e->runtime_ms[d]);
        fio_rate_add(&m->fio.bw[IO_READ], &e->fio.bw[d]);
        fio_rate_add(&m->fio.iops[IO_READ], &e->fio.iops[d]);
        mg->bytes[IO_READ] += g->bytes[d];
        mg->max_run_ms[IO_READ] = MAX(mg->max_run_ms[IO_READ], g->max_run_ms[d]);
    }
}

static void fio_entry_json(JsonWriter *jw, const FioEntry *e, const FioGroup *g, uint64_t elapsed_s,
                           gboolean plus)
{
    static const char *const level[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const batch[] = {"0", "4", "8", "16", "32", "64", ">=64"};
    const WorkloadJobSpec *s = e->first.spec;
    uint64_t total = e->ios[IO_READ] + e->ios[IO_WRITE] + e->ios[IO_TRIM];
    json_begin_object(jw, NULL);
    json_str(jw, "jobname", s->name);
    json_u64(jw, "groupid", e->first.group);
    json_u64(jw, "error", 0);
    json_u64(jw, "eta", 0); /* seconds left: none, the run is over */
    json_u64(jw, "elapsed", elapsed_s);
    fio_options(jw, "job options", e->last->opts);
    if (e->last->unified != WL_UNIFIED_MIXED) {
        fio_direction(jw, "read", e, g, IO_READ, plus);
        fio_direction(jw, "write", e, g, IO_WRITE, plus);
        fio_direction(jw, "trim", e, g, IO_TRIM, plus);
        json_begin_object(jw, "sync");
        json_u64(jw, "total_ios", e->sync_ios);
        fio_lat(jw, "lat_ns", e->sync_lat, e->sync_ios, e->sync_sq, e->last, plus);
        json_end_object(jw);
    }
    if (e->last->unified != WL_UNIFIED_NONE) {
        FioEntry m;
        FioGroup mg;
        fio_entry_mixed(e, g, &m, &mg);
        fio_direction(jw, "mixed", &m, &mg, IO_READ, plus);
        lat_hist_free(m.lat[IO_READ]);
    }
    json_u64(jw, "job_runtime", e->total_run_ms);
    /* the host's CPU and memory: not simulated */
    json_fixed(jw, "usr_cpu", 0);
    json_fixed(jw, "sys_cpu", 0);
    json_u64(jw, "ctx", 0);
    json_u64(jw, "majf", 0);
    json_u64(jw, "minf", 0);
    fio_depths(jw, "iodepth_level", e->fio.depth, total, level);
    fio_depths(jw, "iodepth_submit", e->fio.submit, e->fio.total_submit, batch);
    fio_depths(jw, "iodepth_complete", e->fio.complete, e->fio.total_complete, batch);
    fio_lat_buckets(jw, "latency_ns", e->fio.lat_n, WL_FIO_LAT_N, total);
    fio_lat_buckets(jw, "latency_us", e->fio.lat_u, WL_FIO_LAT_U, total);
    fio_lat_buckets(jw, "latency_ms", e->fio.lat_m, WL_FIO_LAT_M, total);
    /* fio's latency_target mode probes for the deepest queue that keeps
     * the target: not simulated, the target is shown and the depth is the
     * job's iodepth */
    json_u64(jw, "latency_depth", e->last->iodepth);
    json_u64(jw, "latency_target", e->last->latency_target);
    json_fixed(jw, "latency_percentile", 100.0);
    json_u64(jw, "latency_window", 0);
    if (s->verify) {
        json_begin_object(jw, "verify");
        json_u64(jw, "reads", e->verify_reads);
        json_u64(jw, "mismatches", e->verify_mismatches);
        json_end_object(jw);
    }
    if (s->ss == WL_SS_PTS) { /* ftlsim's own: summary.json has the rounds */
        json_begin_object(jw, "steadystate");
        json_bool(jw, "attained", e->ss_attained);
        json_double(jw, "criterion", e->first.ss_criterion);
        json_end_object(jw);
    } else if (s->ss) {
        fio_steadystate(jw, &e->first, e->ss_attained);
    }
    json_end_object(jw);
}

/* The simulated drive as fio's disk_util shows a disk: its commands and
 * their times as /proc/diskstats counts them (ms), no merges (no block
 * layer in between), and util the share of the run it had one outstanding. */
static void fio_disk_util(JsonWriter *jw, const Workload *w, const FioJsonOptions *o)
{
    WorkloadDiskStat ds;
    workload_disk_stat(w, &ds);
    double run_ns = o->sim_time_s * 1e9;
    json_begin_array(jw, "disk_util");
    if (run_ns > 0) { /* fio writes no entry for a disk it watched for no time */
        double util = MIN(100.0, 100.0 * (double)ds.busy_ns / run_ns);
        json_begin_object(jw, NULL);
        json_str(jw, "name", o->disk_name ? o->disk_name : "");
        json_u64(jw, "read_ios", ds.ios[IO_READ]);
        json_u64(jw, "write_ios", ds.ios[IO_WRITE]);
        json_u64(jw, "read_merges", 0);
        json_u64(jw, "write_merges", 0);
        json_u64(jw, "read_ticks", ds.ticks_ns[IO_READ] / SIM_MS);
        json_u64(jw, "write_ticks", ds.ticks_ns[IO_WRITE] / SIM_MS);
        json_u64(jw, "in_queue", ds.in_queue_ns / SIM_MS);
        json_fixed(jw, "util", util);
        json_end_object(jw);
    }
    json_end_array(jw);
}

/* disk_util=0 on every job: fio watched no disk and leaves the key out. */
static gboolean fio_wants_disk_util(const Workload *w)
{
    guint n = workload_result_count(w);
    for (guint i = 0; i < n; i++) {
        WorkloadJobResult r;
        workload_result(w, i, &r);
        if (!r.spec->no_disk_util)
            return TRUE;
    }
    return n == 0;
}

/* When the report is written, as fio stamps it. */
static void fio_timestamp(JsonWriter *jw)
{
    gint64 ms = ftlsim_clock_ms();
    time_t sec = (time_t)(ms / 1000);
    struct tm tm;
    char buf[64] = "";
    if (localtime_r(&sec, &tm))
        strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm); /* ctime()'s form */
    json_u64(jw, "timestamp", (uint64_t)sec);
    json_u64(jw, "timestamp_ms", (uint64_t)ms);
    json_str(jw, "time", buf);
}

void fio_collect(const Workload *w, GArray *entries, FioGroup **groups, uint32_t *ngroups,
                 const char **global_opts)
{
    guint n = workload_result_count(w);
    uint32_t ng = 0;
    FioEntry e = {0};
    *global_opts = NULL;
    for (guint i = 0; i < n; i++) {
        WorkloadJobResult r;
        workload_result(w, i, &r);
        fio_entry_add(&e, &r);
        *global_opts = r.spec->global_opts;
        WorkloadJobResult next = {0};
        if (i + 1 < n)
            workload_result(w, i + 1, &next);
        /* group_reporting: the group's jobs go into one entry */
        if (i + 1 < n && r.spec->group_reporting && next.group == r.group)
            continue;
        g_array_append_val(entries, e);
        ng = MAX(ng, r.group + 1);
        memset(&e, 0, sizeof e);
    }
    FioGroup *gs = g_new0(FioGroup, MAX(ng, 1));
    for (uint32_t i = 0; i < MAX(ng, 1); i++)
        gs[i].id = i;
    for (guint i = 0; i < entries->len; i++) {
        const FioEntry *x = &g_array_index(entries, FioEntry, i);
        FioGroup *g = &gs[x->first.group];
        for (int d = 0; d < WL_DIRS; d++) {
            if (!x->runtime_ms[d])
                continue;
            uint64_t bw = 1000 * x->bytes[d] / x->runtime_ms[d];
            g->min_bw[d] = g->max_run_ms[d] ? MIN(g->min_bw[d], bw) : bw;
            g->min_run_ms[d] = g->max_run_ms[d] ? MIN(g->min_run_ms[d], x->runtime_ms[d])
                                                : x->runtime_ms[d];
            g->max_bw[d] = MAX(g->max_bw[d], bw);
            g->bytes[d] += x->bytes[d];
            g->max_run_ms[d] = MAX(g->max_run_ms[d], x->runtime_ms[d]);
        }
    }
    *groups = gs;
    *ngroups = MAX(ng, 1);
}

void fio_json_write(const Workload *w, const FioJsonOptions *o, GString *out)
{
    g_autoptr(JsonWriter) jw = json_writer_new();
    g_autoptr(GArray) entries = g_array_new(FALSE, TRUE, sizeof(FioEntry));
    uint32_t ngroups = 0;
    const char *global_opts = NULL;
    g_autofree FioGroup *groups = NULL;
    fio_collect(w, entries, &groups, &ngroups, &global_opts);
    /* fio's elapsed: seconds since it began, rounded up, the same for every job */
    uint64_t elapsed = (uint64_t)ceil(o->sim_time_s - 1e-9);

    json_begin_object(jw, NULL);
    g_autofree char *v = g_strdup_printf("ftlsim-%s", o->version);
    json_str(jw, "fio version", v);
    fio_timestamp(jw);
    fio_options(jw, "global options", global_opts);
    json_begin_array(jw, "jobs");
    for (guint i = 0; i < entries->len; i++) {
        FioEntry *x = &g_array_index(entries, FioEntry, i);
        fio_entry_json(jw, x, &groups[x->first.group], elapsed, o->plus);
        fio_entry_clear(x);
    }
    json_end_array(jw);
    if (fio_wants_disk_util(w))
        fio_disk_util(jw, w, o);
    json_end_object(jw);
    g_string_append(out, json_writer_str(jw));
    g_string_append_c(out, '\n');
}
