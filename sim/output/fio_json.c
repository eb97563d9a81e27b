/*
 * fio_json.c - fio's JSON output format from a workload's job results.
 *
 * The keys fio writes for each job and direction (io_bytes, io_kbytes,
 * bw_bytes, bw in KiB/s, iops, runtime in ms, total_ios, slat_ns, clat_ns,
 * lat_ns with min/max/mean/stddev/N and clat percentiles at fio's default
 * list, keyed "%f"). With group_reporting a reporting group is one entry,
 * its jobs summed. The simulated submission is instant: slat is 0 and
 * clat equals lat. Statistics fio samples per interval of wall time (bw_min,
 * iops_stddev, ...) and host figures (cpu, disk_util) are left out rather
 * than made up.
 */
#include "sim/output/fio_json.h"

#include "sim/engine/json.h"

#include <math.h>
#include <string.h>

static const double fio_pcts[] = {1,  5,  10, 20, 30, 40, 50,   60,   70,
                                  80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static void fio_stat(JsonWriter *jw, const char *key, const LatHist *h, double stddev,
                     gboolean zero)
{
    json_begin_object(jw, key);
    uint64_t n = zero ? 0 : lat_hist_count(h);
    json_u64(jw, "min", n ? lat_hist_min(h) : 0);
    json_u64(jw, "max", n ? lat_hist_max(h) : 0);
    json_double(jw, "mean", n ? lat_hist_mean(h) : 0.0);
    json_double(jw, "stddev", n ? stddev : 0.0);
    json_u64(jw, "N", n);
}

/* One entry of fio's "jobs": a job, or with group_reporting its whole
 * reporting group summed (fio names it after the group's first job). */
typedef struct FioEntry {
    WorkloadJobResult first;
    uint32_t jobs;
    SimTime runtime_ns;            /* the longest */
    uint64_t ios[WL_DIRS], bytes[WL_DIRS];
    LatHist *lat[WL_DIRS];         /* owned */
    double lat_sq[WL_DIRS];        /* ns^2 */
    uint64_t verify_reads, verify_mismatches;
    gboolean ss_attained;
} FioEntry;

static void fio_entry_add(FioEntry *e, const WorkloadJobResult *r)
{
    if (e->jobs++ == 0)
        e->first = *r;
    e->runtime_ns = MAX(e->runtime_ns, r->runtime_ns);
    for (int d = 0; d < WL_DIRS; d++) {
        if (!e->lat[d])
            e->lat[d] = lat_hist_new();
        lat_hist_merge(e->lat[d], r->lat[d]);
        e->ios[d] += r->ios[d];
        e->bytes[d] += r->bytes[d];
        e->lat_sq[d] += r->lat_sq[d];
    }
    e->verify_reads += r->verify_reads;
    e->verify_mismatches += r->verify_mismatches;
    e->ss_attained |= r->ss_attained;
}

static void fio_entry_clear(FioEntry *e)
{
    for (int d = 0; d < WL_DIRS; d++)
        lat_hist_free(e->lat[d]);
    memset(e, 0, sizeof *e);
}

static void fio_dir(JsonWriter *jw, const char *key, const FioEntry *e, int d, gboolean plus)
{
    double rt_s = (double)e->runtime_ns / 1e9;
    const LatHist *h = e->lat[d];
    uint64_t n = lat_hist_count(h);
    double mean = lat_hist_mean(h);
    double var = n > 1 ? (e->lat_sq[d] - (double)n * mean * mean) / (double)(n - 1) : 0;
    double sd = var > 0 ? sqrt(var) : 0;
    json_begin_object(jw, key);
    json_u64(jw, "io_bytes", e->bytes[d]);
    json_u64(jw, "io_kbytes", e->bytes[d] / 1024);
    json_u64(jw, "bw_bytes", rt_s > 0 ? (uint64_t)((double)e->bytes[d] / rt_s) : 0);
    json_u64(jw, "bw", rt_s > 0 ? (uint64_t)((double)e->bytes[d] / 1024.0 / rt_s) : 0);
    json_double(jw, "iops", rt_s > 0 ? (double)e->ios[d] / rt_s : 0.0);
    json_u64(jw, "runtime", e->ios[d] ? (e->runtime_ns + 500000) / 1000000 : 0);
    json_u64(jw, "total_ios", e->ios[d]);
    json_u64(jw, "short_ios", 0);
    json_u64(jw, "drop_ios", 0);
    fio_stat(jw, "slat_ns", h, 0, TRUE);
    json_end_object(jw);
    fio_stat(jw, "clat_ns", h, sd, FALSE);
    if (n) {
        json_begin_object(jw, "percentile");
        for (unsigned i = 0; i < G_N_ELEMENTS(fio_pcts); i++) {
            char k[32];
            g_snprintf(k, sizeof k, "%f", fio_pcts[i]);
            json_u64(jw, k, lat_hist_percentile(h, fio_pcts[i]));
        }
        json_end_object(jw);
    }
    if (plus && n) {
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
    json_end_object(jw);
    fio_stat(jw, "lat_ns", h, sd, FALSE);
    json_end_object(jw);
    json_end_object(jw);
}

static void fio_job_options(JsonWriter *jw, const WorkloadJobSpec *s, gboolean trace)
{
    json_begin_object(jw, "job options");
    json_str(jw, "name", s->name);
    if (trace) {
        json_str(jw, "read_iolog", "(trace replay)");
    } else if (!s->idle) {
        static const char *const rw[] = {"read",  "write", "randread", "randwrite", "rw",
                                         "randrw", "trim", "randtrim", "trimwrite"};
        json_str(jw, "rw", (unsigned)s->rw < G_N_ELEMENTS(rw) ? rw[s->rw] : "?");
        int d = s->rw == WL_RW_READ || s->rw == WL_RW_RANDREAD ? IO_READ
                : s->rw == WL_RW_TRIM || s->rw == WL_RW_RANDTRIM ? IO_TRIM
                                                                  : IO_WRITE;
        g_autofree char *bs = g_strdup_printf("%" G_GUINT64_FORMAT, s->bs[d]);
        g_autofree char *qd = g_strdup_printf("%u", s->iodepth);
        json_str(jw, "bs", bs);
        json_str(jw, "iodepth", qd);
        if (s->numjobs > 1) {
            g_autofree char *nj = g_strdup_printf("%u", s->numjobs);
            json_str(jw, "numjobs", nj);
        }
    }
    json_end_object(jw);
}

static void fio_entry_json(JsonWriter *jw, const FioEntry *e, gboolean plus)
{
    const WorkloadJobSpec *s = e->first.spec;
    json_begin_object(jw, NULL);
    json_str(jw, "jobname", s->name);
    json_u64(jw, "groupid", e->first.group);
    json_u64(jw, "error", 0);
    json_u64(jw, "eta", 0);
    json_u64(jw, "elapsed", (e->runtime_ns + SIM_SEC / 2) / SIM_SEC);
    fio_job_options(jw, s, e->first.trace);
    fio_dir(jw, "read", e, IO_READ, plus);
    fio_dir(jw, "write", e, IO_WRITE, plus);
    fio_dir(jw, "trim", e, IO_TRIM, plus);
    json_u64(jw, "job_runtime", (e->runtime_ns + 500000) / 1000000);
    if (s->verify) {
        json_begin_object(jw, "verify");
        json_u64(jw, "reads", e->verify_reads);
        json_u64(jw, "mismatches", e->verify_mismatches);
        json_end_object(jw);
    }
    if (s->ss) {
        json_begin_object(jw, "steadystate");
        json_bool(jw, "attained", e->ss_attained);
        json_double(jw, "criterion", e->first.ss_criterion);
        json_end_object(jw);
    }
    json_end_object(jw);
}

void fio_json_write(const Workload *w, const char *version, gboolean plus, GString *out)
{
    g_autoptr(JsonWriter) jw = json_writer_new();
    json_begin_object(jw, NULL);
    g_autofree char *v = g_strdup_printf("ftlsim-%s", version);
    json_str(jw, "fio version", v);
    json_u64(jw, "timestamp", 0); /* a simulated run has no wall-clock date */
    json_u64(jw, "timestamp_ms", 0);
    json_begin_object(jw, "global options");
    json_end_object(jw);
    json_begin_array(jw, "jobs");
    FioEntry e = {0};
    guint n = workload_result_count(w);
    for (guint i = 0; i < n; i++) {
        WorkloadJobResult r;
        workload_result(w, i, &r);
        fio_entry_add(&e, &r);
        WorkloadJobResult next = {0};
        if (i + 1 < n)
            workload_result(w, i + 1, &next);
        /* group_reporting: the group's jobs go into one entry */
        if (i + 1 < n && r.spec->group_reporting && next.group == r.group)
            continue;
        fio_entry_json(jw, &e, plus);
        fio_entry_clear(&e);
    }
    json_end_array(jw);
    json_begin_array(jw, "disk_util");
    json_end_array(jw);
    json_end_object(jw);
    g_string_append(out, json_writer_str(jw));
    g_string_append_c(out, '\n');
}
