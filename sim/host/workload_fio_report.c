/*
 * workload_fio_report.c - fio's options that change only what is reported:
 * which latency percentiles, directions summed or not, digits, histogram
 * logs, latency_target as fio's JSON shows it. None of them changes an I/O
 * the drive sees; each is honoured where ftlsim writes fio's outputs
 * (sim/output/fio_json.c, fio_text.c, workload_log.c).
 */
#include "sim/host/workload_priv.h"

#include <stdlib.h>
#include <string.h>

static int wl_pct_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* percentile_list=99:99.9:99.99: up to 20 values from 0 to 100, sorted as
 * fio sorts them before it reports. */
static gboolean opt_percentile_list(WorkloadJobSpec *s, const char *v, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(v, ":", -1);
    uint32_t n = 0, prec = 0;
    for (guint i = 0; parts[i]; i++) {
        char *end = NULL;
        double p = g_ascii_strtod(parts[i], &end);
        if (end == parts[i] || *end != '\0' || !(p >= 0 && p <= 100) || n == WL_PCT_MAX)
            return wl_bad(error, v, "up to 20 percentiles from 0 to 100 joined by ':' (99:99.9)");
        s->pct_list[n++] = p;
        const char *dot = strchr(parts[i], '.');
        prec = MAX(prec, dot ? (uint32_t)strlen(dot + 1) : 0);
    }
    s->pct_prec = MIN(prec, 6);
    qsort(s->pct_list, n, sizeof s->pct_list[0], wl_pct_cmp);
    s->pct_n = n;
    return TRUE;
}

static gboolean opt_clat_pct(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->clat_pct, e); }
static gboolean opt_lat_pct(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->lat_pct, e); }
static gboolean opt_slat_pct(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->slat_pct, e); }
static gboolean opt_log_max(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->log_max, e); }

/* unified_rw_reporting: none (0), mixed (1) or both (2), as fio names them. */
static gboolean opt_unified(WorkloadJobSpec *s, const char *v, GError **error)
{
    static const char *const names[][2] = {{"none", "0"}, {"mixed", "1"}, {"both", "2"}};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
        if (!v || g_ascii_strcasecmp(v, names[i][0]) == 0 || strcmp(v, names[i][1]) == 0) {
            s->unified = v ? (WorkloadUnified)i : WL_UNIFIED_MIXED;
            return TRUE;
        }
    return wl_bad(error, v, "none, mixed or both (0, 1 or 2)");
}

static gboolean opt_sig_figs(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_u32(v, 1, 10, &s->sig_figs, e); }

static gboolean opt_unit_base(WorkloadJobSpec *s, const char *v, GError **error)
{
    uint32_t b;
    if (!wl_fio_u32(v, 0, 8, &b, NULL) || (b != 0 && b != 1 && b != 8))
        return wl_bad(error, v, "0 (bytes, fio's default), 1 (bits) or 8 (bytes)");
    s->unit_bits = b == 1;
    return TRUE;
}

/* fdatasync=N: as fsync=N (a FLUSH to the drive), named datasync in the iolog. */
static gboolean opt_fdatasync(WorkloadJobSpec *s, const char *v, GError **e)
{
    s->datasync = TRUE;
    return wl_fio_u32(v, 0, 1u << 30, &s->fsync, e);
}

static gboolean opt_hist_log(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (!v || v[0] == '\0') {
        g_strlcpy(s->hist_log, "\001", WL_LOG_NAME_MAX); /* the job's name */
        return TRUE;
    }
    if (strlen(v) >= WL_LOG_NAME_MAX || strchr(v, '/'))
        return wl_bad(error, v, "a file name prefix (no '/', up to 127 characters)");
    g_strlcpy(s->hist_log, v, WL_LOG_NAME_MAX);
    return TRUE;
}

static gboolean opt_hist_msec(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_time(v, SIM_MS, &s->hist_ns, e);
}

static gboolean opt_hist_coarse(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_u32(v, 0, 6, &s->hist_coarse, e);
}

/* latency_target=1ms: fio's unit is microseconds when bare. */
static gboolean opt_latency_target(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_time(v, SIM_US, &s->latency_target, e);
}

static gboolean opt_latency_time(WorkloadJobSpec *s, const char *v, GError **e)
{
    SimTime t;
    (void)s;
    return workload_parse_time(v, SIM_US, &t, e);
}


/* stats=0 and disable_*=1: a measurement fio's outputs then show as none. */
static gboolean wl_flag(gboolean *out, gboolean invert, const char *v, GError **e)
{
    gboolean on;
    if (!wl_fio_bool(v, &on, e))
        return FALSE;
    *out = invert ? !on : on;
    return TRUE;
}

static gboolean opt_stats(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->no_stats, TRUE, v, e); }
static gboolean opt_no_lat(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->no_lat, FALSE, v, e); }
static gboolean opt_no_clat(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->no_clat, FALSE, v, e); }
static gboolean opt_no_slat(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->no_slat, FALSE, v, e); }
static gboolean opt_no_bw(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->no_bw, FALSE, v, e); }
static gboolean opt_log_epoch(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->log_epoch, FALSE, v, e); }

static gboolean opt_log_gz_store(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->log_gz_store, FALSE, v, e); }

static gboolean opt_disk_util(WorkloadJobSpec *s, const char *v, GError **e) { return wl_flag(&s->no_disk_util, TRUE, v, e); }

static gboolean opt_accept_text(WorkloadJobSpec *s, const char *v, GError **e)
{
    (void)s, (void)v, (void)e;
    return TRUE;
}

/* Accepted as they are: what they change is not there to change (host
 * memory for logs, polled completion, batching of instant submissions). */
static gboolean opt_accept_u32(WorkloadJobSpec *s, const char *v, GError **e)
{
    uint32_t n;
    (void)s;
    return wl_fio_u32(v, 0, G_MAXUINT32, &n, e);
}

static gboolean opt_accept_bytes(WorkloadJobSpec *s, const char *v, GError **e)
{
    uint64_t n;
    return workload_parse_bytes(v, s->kb_base, &n, e);
}

static gboolean opt_accept_bool(WorkloadJobSpec *s, const char *v, GError **e)
{
    gboolean b;
    (void)s;
    return wl_fio_bool(v, &b, e);
}

static const WlOpt wl_report_opts[] = {
    {"percentile_list", opt_percentile_list, FALSE},
    {"clat_percentiles", opt_clat_pct, TRUE},
    {"lat_percentiles", opt_lat_pct, TRUE},
    {"slat_percentiles", opt_slat_pct, TRUE},
    {"unified_rw_reporting", opt_unified, TRUE},
    {"significant_figures", opt_sig_figs, FALSE},
    {"unit_base", opt_unit_base, FALSE},
    {"write_hist_log", opt_hist_log, TRUE},
    {"log_hist_msec", opt_hist_msec, FALSE},
    {"log_hist_coarseness", opt_hist_coarse, FALSE},
    {"log_max_value", opt_log_max, TRUE},
    {"log_entries", opt_accept_u32, FALSE},
    {"log_compression", opt_accept_bytes, FALSE},
    {"log_store_compressed", opt_log_gz_store, TRUE},
    {"fdatasync", opt_fdatasync, FALSE},
    {"hipri", opt_accept_bool, TRUE},
    {"iodepth_batch", opt_accept_u32, FALSE},
    {"iodepth_batch_submit", opt_accept_u32, FALSE},
    {"latency_target", opt_latency_target, FALSE},
    {"latency_window", opt_latency_time, FALSE},
    {"disk_util", opt_disk_util, TRUE},
    {"stats", opt_stats, TRUE},
    {"disable_lat", opt_no_lat, TRUE},
    {"disable_clat", opt_no_clat, TRUE},
    {"disable_slat", opt_no_slat, TRUE},
    {"disable_bw_measurement", opt_no_bw, TRUE},
    {"disable_bw", opt_no_bw, TRUE},
    {"log_unix_epoch", opt_log_epoch, TRUE},
    {"log_alternate_epoch", opt_log_epoch, TRUE},
    {"log_alternate_epoch_clock_id", opt_accept_u32, FALSE},
    {"log_compression_cpus", opt_accept_text, FALSE},
    {"block_error_percentiles", opt_accept_bool, TRUE},
};

const WlOpt *wl_report_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(wl_report_opts); i++)
        if (strcmp(wl_report_opts[i].name, name) == 0)
            return &wl_report_opts[i];
    return NULL;
}
