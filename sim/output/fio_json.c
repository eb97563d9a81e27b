/*
 * fio_json.c - fio's JSON output format from a workload's job results.
 *
 * The keys fio writes for each job and direction (io_bytes, io_kbytes,
 * bw_bytes, bw in KiB/s, iops, runtime in ms, total_ios, slat_ns, clat_ns,
 * lat_ns with min/max/mean/stddev/N and clat percentiles at fio's default
 * list, keyed "%f"). The simulated submission is instant: slat is 0 and
 * clat equals lat. Statistics fio samples per interval of wall time (bw_min,
 * iops_stddev, ...) and host figures (cpu, disk_util) are left out rather
 * than made up.
 */
#include "sim/output/fio_json.h"

#include "sim/output/json.h"

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

static void fio_dir(JsonWriter *jw, const char *key, const WorkloadJobResult *r, int d,
                    gboolean plus)
{
    double rt_s = (double)r->runtime_ns / 1e9;
    const LatHist *h = r->lat[d];
    json_begin_object(jw, key);
    json_u64(jw, "io_bytes", r->bytes[d]);
    json_u64(jw, "io_kbytes", r->bytes[d] / 1024);
    json_u64(jw, "bw_bytes", rt_s > 0 ? (uint64_t)((double)r->bytes[d] / rt_s) : 0);
    json_u64(jw, "bw", rt_s > 0 ? (uint64_t)((double)r->bytes[d] / 1024.0 / rt_s) : 0);
    json_double(jw, "iops", rt_s > 0 ? (double)r->ios[d] / rt_s : 0.0);
    json_u64(jw, "runtime", r->ios[d] ? (r->runtime_ns + 500000) / 1000000 : 0);
    json_u64(jw, "total_ios", r->ios[d]);
    json_u64(jw, "short_ios", 0);
    json_u64(jw, "drop_ios", 0);
    fio_stat(jw, "slat_ns", h, 0, TRUE);
    json_end_object(jw);
    fio_stat(jw, "clat_ns", h, r->lat_stddev_ns[d], FALSE);
    if (lat_hist_count(h)) {
        json_begin_object(jw, "percentile");
        for (unsigned i = 0; i < G_N_ELEMENTS(fio_pcts); i++) {
            char k[32];
            g_snprintf(k, sizeof k, "%f", fio_pcts[i]);
            json_u64(jw, k, lat_hist_percentile(h, fio_pcts[i]));
        }
        json_end_object(jw);
    }
    if (plus && lat_hist_count(h)) {
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
    fio_stat(jw, "lat_ns", h, r->lat_stddev_ns[d], FALSE);
    json_end_object(jw);
    json_end_object(jw);
}

static void fio_job_options(JsonWriter *jw, const WorkloadJobResult *r)
{
    const WorkloadJobSpec *s = r->spec;
    json_begin_object(jw, "job options");
    json_str(jw, "name", s->name);
    if (!s->idle) {
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
    for (guint i = 0; i < workload_result_count(w); i++) {
        WorkloadJobResult r;
        workload_result(w, i, &r);
        json_begin_object(jw, NULL);
        json_str(jw, "jobname", r.name);
        json_u64(jw, "groupid", r.group);
        json_u64(jw, "error", 0);
        json_u64(jw, "eta", 0);
        json_u64(jw, "elapsed", (r.runtime_ns + SIM_SEC / 2) / SIM_SEC);
        fio_job_options(jw, &r);
        fio_dir(jw, "read", &r, IO_READ, plus);
        fio_dir(jw, "write", &r, IO_WRITE, plus);
        fio_dir(jw, "trim", &r, IO_TRIM, plus);
        json_u64(jw, "job_runtime", (r.runtime_ns + 500000) / 1000000);
        if (r.spec->verify) {
            json_begin_object(jw, "verify");
            json_u64(jw, "reads", r.verify_reads);
            json_u64(jw, "mismatches", r.verify_mismatches);
            json_end_object(jw);
        }
        if (r.spec->ss) {
            json_begin_object(jw, "steadystate");
            json_bool(jw, "attained", r.ss_attained);
            json_double(jw, "criterion", r.ss_criterion);
            json_end_object(jw);
        }
        json_end_object(jw);
    }
    json_end_array(jw);
    json_begin_array(jw, "disk_util");
    json_end_array(jw);
    json_end_object(jw);
    g_string_append(out, json_writer_str(jw));
    g_string_append_c(out, '\n');
}
