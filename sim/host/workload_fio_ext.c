/*
 * workload_fio_ext.c - the fio options beyond the core table that fio's own
 * example jobs use: engines, distributions by zone and sequence, strided
 * zones, offsets per clone, job dependencies, flows, verify, steady state,
 * logs, and the options that mean nothing to a simulated drive.
 *
 * Each option either changes what the workload does, or is listed in
 * docs/workloads.md as accepted without effect, with the reason.
 */
#include "sim/host/workload_priv.h"
#include "sim/engine/resultnames.h"

#include <string.h>


/* ---- Engines ------------------------------------------------------------ */

/* Engines that do block I/O on a device or file: the simulated drive stands
 * in for it. null moves no data: its jobs are simulated as nothing. */
static gboolean opt_ioengine(WorkloadJobSpec *s, const char *v, GError **error)
{
    static const char *const block[] = {
        "sync",  "psync",   "vsync",      "pvsync",    "pvsync2",   "libaio",
        "io_uring", "posixaio", "solarisaio", "windowsaio", "mmap", "splice",
        "io_uring_cmd", "xnvme", "libzbc", /* libzbc: reads, writes and zone commands on a zoned drive */
    };
    s->engine_null = strcmp(v, "null") == 0;
    for (unsigned i = 0; !s->engine_null && i < G_N_ELEMENTS(block); i++)
        if (strcmp(v, block[i]) == 0)
            return TRUE;
    if (s->engine_null)
        return TRUE;
    return wl_bad(error, v,
                  "a block I/O engine (sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, "
                  "posixaio, mmap, splice, libzbc) or null; other engines do not do block I/O on a drive");
}

/* ---- I/O generation ------------------------------------------------------ */

/* rw_sequencer: how the I/Os between the random offsets of rw=randread:N
 * are placed: after the previous one (sequential) or at its offset again. */
static gboolean opt_rw_sequencer(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "sequential") && strcmp(v, "identical"))
        return wl_bad(error, v, "sequential or identical");
    s->rw_seq_identical = strcmp(v, "identical") == 0;
    return TRUE;
}

/* percentage_random=R[,W,T]: the share of a random job's I/Os at a random
 * offset, the rest after the previous I/O of its direction (fio's form:
 * a last value given applies to the directions after it). */
static gboolean opt_percentage_random(WorkloadJobSpec *s, const char *v, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(v, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > WL_DIRS)
        return wl_bad(error, v, "a percentage from 0 to 100, or R,W,T");
    for (guint i = 0; i < n; i++) {
        uint32_t p;
        g_strstrip(parts[i]);
        if (parts[i][0] == '\0')
            continue;
        if (!wl_fio_u32(parts[i], 0, 100, &p, NULL))
            return wl_bad(error, v, "a percentage from 0 to 100, or R,W,T");
        for (int d = (int)i; d < (i == n - 1 ? WL_DIRS : (int)i + 1); d++)
            s->perc_rand[d] = p;
    }
    return TRUE;
}

/* ---- fio's iolog ---------------------------------------------------------- */

static gboolean wl_path_opt(char *dst, size_t size, const char *v, GError **error)
{
    if (v[0] == '\0' || strlen(v) >= size)
        return wl_bad(error, v, "a file name of 1 to 255 characters");
    g_strlcpy(dst, v, size);
    return TRUE;
}

/* write_iolog: a file of the results folder, beside ftlsim's own. */
static gboolean opt_write_iolog(WorkloadJobSpec *s, const char *v, GError **e)
{
    if (v[0] == '.' || strchr(v, '/') || result_name_reserved(v))
        return wl_bad(e, v, "a plain file name of the results folder (no '/', not "
                                      "starting with '.', none of ftlsim's own such as summary.json "
                                      "or report.html)");
    return wl_path_opt(s->iolog_out, sizeof s->iolog_out, v, e);
}

static gboolean opt_read_iolog(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_path_opt(s->iolog_in, sizeof s->iolog_in, v, e);
}

static gboolean opt_replay_no_stall(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->replay_no_stall, e);
}

/* ---- Sizes and offsets -------------------------------------------------- */

static gboolean opt_filesize(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_bytes(v, s->kb_base, &s->filesize, e);
}

static gboolean opt_fill_device(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->fill_device, e);
}

static gboolean opt_offset_increment(WorkloadJobSpec *s, const char *v, GError **e)
{
    if (wl_zbd_zones_value(v, &s->zbd.offset_increment_nz))
        return TRUE;
    return workload_parse_bytes(v, s->kb_base, &s->offset_increment, e);
}

static gboolean opt_number_ios(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_bytes(v, 1000, &s->number_ios, e);
}

/* blockalign=R,W,T: the simulator keeps one alignment, the largest given. */
static gboolean opt_blockalign(WorkloadJobSpec *s, const char *v, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(v, ",", WL_DIRS + 1);
    s->blockalign = 0;
    for (guint i = 0; parts[i]; i++) {
        uint64_t a;
        g_strstrip(parts[i]);
        if (parts[i][0] == '\0')
            continue;
        if (i >= WL_DIRS || !workload_parse_bytes(parts[i], s->kb_base, &a, NULL) || a == 0)
            return wl_bad(error, v, "an alignment above 0 such as 4k (or R,W,T)");
        s->blockalign = MAX(s->blockalign, a);
    }
    return TRUE;
}

/* zonemode=none|strided|zbd (zbd: sim/host/workload_zbd.c, on a zoned drive). */
static gboolean opt_zonemode(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "none") == 0 || strcmp(v, "strided") == 0 || strcmp(v, "zbd") == 0) {
        s->zone_strided = strcmp(v, "strided") == 0;
        s->zbd.on = strcmp(v, "zbd") == 0;
        return TRUE;
    }
    return wl_bad(error, v, "none, strided or zbd");
}

static gboolean opt_zonesize(WorkloadJobSpec *s, const char *v, GError **error)
{
    s->zonesize_set = TRUE;
    if (!workload_parse_bytes(v, s->kb_base, &s->zonesize, error))
        return FALSE;
    return s->zonesize ? TRUE : wl_bad(error, v, "a zone size above 0");
}

static gboolean opt_zoneskip(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_bytes(v, s->kb_base, &s->zoneskip, e);
}

/* ---- Distributions ------------------------------------------------------ */

/* zoned:50/5:30/15:20/ or zoned_abs:50/10G:30/100G; one set for every
 * direction. An empty size takes what the others leave of 100%. */
static gboolean wl_zones(WorkloadJobSpec *s, const char *v, const char *list, gboolean abs,
                         GError **error)
{
    const char *expect = abs ? "zoned_abs:PCT/SIZE:PCT/SIZE... with shares adding up to 100"
                             : "zoned:PCT/PCT:PCT/PCT... with shares and sizes adding up to 100";
    if (strchr(list, ','))
        return wl_bad(error, v, "one zone list for all directions (no R,W,T form)");
    g_auto(GStrv) parts = g_strsplit(list, ":", -1);
    guint n = g_strv_length(parts), sum = 0;
    double size_sum = 0;
    if (n == 0 || n > WL_ZONES_MAX)
        return wl_bad(error, v, expect);
    for (guint i = 0; i < n; i++) {
        WorkloadZone *z = &s->zones[i];
        char *slash = strchr(parts[i], '/');
        memset(z, 0, sizeof *z);
        if (!slash)
            return wl_bad(error, v, expect);
        *slash = '\0';
        if (!wl_fio_u32(parts[i], 0, 100, &z->access_pct, NULL))
            return wl_bad(error, v, expect);
        sum += z->access_pct;
        if (slash[1] == '\0' && !abs && i == n - 1) {
            z->size_pct = 100 - size_sum;
        } else if (abs) {
            if (!workload_parse_bytes(slash + 1, s->kb_base, &z->size, NULL) || z->size == 0)
                return wl_bad(error, v, expect);
        } else if (!wl_fio_double(slash + 1, &z->size_pct) || z->size_pct <= 0) {
            return wl_bad(error, v, expect);
        }
        size_sum += z->size_pct;
    }
    if (sum != 100 || (!abs && (size_sum < 99.999 || size_sum > 100.001)))
        return wl_bad(error, v, expect);
    s->n_zones = n;
    s->dist = abs ? WL_DIST_ZONED_ABS : WL_DIST_ZONED;
    return TRUE;
}

/* sequence:2,0,1 - block indices in the order to visit them. */
static gboolean wl_sequence(WorkloadJobSpec *s, const char *v, const char *list, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(list, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > WL_SEQUENCE_MAX)
        return wl_bad(error, v, "sequence:I,J,K... with 1 to 64 block indices");
    for (guint i = 0; i < n; i++) {
        char *end = NULL;
        g_strstrip(parts[i]);
        s->sequence[i] = g_ascii_isdigit(parts[i][0]) ? g_ascii_strtoull(parts[i], &end, 10) : 0;
        if (!end || *end)
            return wl_bad(error, v, "sequence:I,J,K... with 1 to 64 block indices");
    }
    s->n_sequence = n;
    s->dist = WL_DIST_SEQUENCE;
    return TRUE;
}

gboolean wl_fio_distribution_ext(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (g_str_has_prefix(v, "zoned:"))
        return wl_zones(s, v, v + 6, FALSE, error);
    if (g_str_has_prefix(v, "zoned_abs:"))
        return wl_zones(s, v, v + 10, TRUE, error);
    if (g_str_has_prefix(v, "sequence:"))
        return wl_sequence(s, v, v + 9, error);
    return FALSE;
}

static gboolean opt_sequence_stride(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->sequence_stride, e);
}

static gboolean opt_random_generator(WorkloadJobSpec *s, const char *v, GError **error)
{
    s->lfsr = strcmp(v, "lfsr") == 0;
    s->rand64 = strcmp(v, "tausworthe64") == 0;
    if (strcmp(v, "tausworthe") == 0 || s->lfsr || strcmp(v, "tausworthe64") == 0)
        return TRUE;
    return wl_bad(error, v, "tausworthe, lfsr or tausworthe64");
}

/* ---- Jobs that wait for, stop or pace others ---------------------------- */

static gboolean opt_wait_for(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (v[0] == '\0' || strlen(v) >= WL_NAME_MAX)
        return wl_bad(error, v, "the name of a job defined earlier in the file");
    g_strlcpy(s->wait_for, v, sizeof s->wait_for);
    return TRUE;
}

static gboolean opt_exitall(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->exitall, e);
}

static gboolean opt_exit_what(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "group") == 0)
        s->exit_what = WL_EXIT_GROUP;
    else if (strcmp(v, "stonewall") == 0)
        s->exit_what = WL_EXIT_STONEWALL;
    else if (strcmp(v, "all") == 0)
        s->exit_what = WL_EXIT_ALL;
    else
        return wl_bad(error, v, "group, stonewall or all");
    return TRUE;
}

/* thinktime_blocks=N: the job pauses after every N I/Os, not after each. */
static gboolean opt_thinktime_blocks(WorkloadJobSpec *s, const char *v, GError **error)
{
    return wl_fio_u32(v, 1, 65536, &s->thinktime_blocks, error);
}

/* thinktime_blocks_type: count the I/Os completed (fio's default) or issued. */
static gboolean opt_thinktime_blocks_type(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "complete") != 0 && strcmp(v, "issue") != 0)
        return wl_bad(error, v, "complete or issue");
    s->thinktime_issue = strcmp(v, "issue") == 0;
    return TRUE;
}

static gboolean opt_flow(WorkloadJobSpec *s, const char *v, GError **error)
{
    char *end = NULL;
    gint64 f = g_ascii_strtoll(v, &end, 10);
    if (!end || end == v || *end || f < -1000 || f > 1000) /* fio 3.33: 0..1000; older fio signed */
        return wl_bad(error, v, "a flow weight from -1000 to 1000");
    s->flow = (int32_t)f;
    return TRUE;
}

static gboolean opt_flow_id(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_u32(v, 0, UINT32_MAX, &s->flow_id, e);
}

static gboolean opt_rate_process(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "linear") == 0 || strcmp(v, "poisson") == 0) {
        s->rate_poisson = strcmp(v, "poisson") == 0;
        return TRUE;
    }
    return wl_bad(error, v, "linear or poisson");
}

/* rate_min=R,W,T: bytes/s a job must keep up over every ratecycle. */
static gboolean opt_rate_min(WorkloadJobSpec *s, const char *v, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(v, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > WL_DIRS)
        return wl_bad(error, v, "a rate such as 10m, or R,W,T");
    for (guint i = 0; i < n; i++) {
        g_strstrip(parts[i]);
        if (parts[i][0] == '\0')
            continue;
        uint64_t r;
        if (!workload_parse_bytes(parts[i], s->kb_base, &r, NULL))
            return wl_bad(error, v, "a rate such as 10m, or R,W,T");
        for (guint d = i; d < (i == n - 1 ? WL_DIRS : i + 1); d++)
            s->rate_min[d] = r;
    }
    return TRUE;
}

static gboolean opt_ratecycle(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (!workload_parse_time(v, SIM_MS, &s->ratecycle_ns, error))
        return FALSE;
    return s->ratecycle_ns ? TRUE : wl_bad(error, v, "a cycle above 0 (bare: ms)");
}

static gboolean opt_rate_poisson(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->rate_poisson, e);
}

static gboolean opt_io_submit_mode(WorkloadJobSpec *s, const char *v, GError **error)
{
    (void)s;
    if (strcmp(v, "inline") == 0 || strcmp(v, "offload") == 0)
        return TRUE;
    return wl_bad(error, v, "inline or offload");
}

/* ---- Verify ------------------------------------------------------------- */

static gboolean opt_verify(WorkloadJobSpec *s, const char *v, GError **error)
{
    static const char *const kinds[] = {
        "md5",    "crc64",  "crc32c", "crc32c-intel", "crc32", "crc16", "crc7",   "xxhash",
        "sha512", "sha256", "sha1",   "sha3-224",     "sha3-256", "sha3-384", "sha3-512",
        "meta",   "pattern", "null",
    };
    if (strcmp(v, "0") == 0) {
        s->verify = FALSE;
        return TRUE;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(kinds); i++) {
        if (strcmp(v, kinds[i]) == 0) {
            s->verify = strcmp(v, "null") != 0;
            return TRUE;
        }
    }
    return wl_bad(error, v, "a verify method (md5, crc32c, crc64, xxhash, sha256, meta, pattern, "
                            "...) or 0");
}

static gboolean opt_do_verify(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->do_verify, e);
}

/* ---- Steady state ------------------------------------------------------- */

/* ss=iops:10%, iops_slope:0.1%, bw:5000000, bw_slope:1% (fio's steadystate),
 * or pts (ftlsim: the SNIA PTS test on IOPS per round). */
static gboolean opt_ss(WorkloadJobSpec *s, const char *v, GError **error)
{
    const char *expect = "iops:LIMIT, iops_slope:LIMIT, bw:LIMIT or bw_slope:LIMIT, the limit "
                         "a number or a percentage such as 10%, or pts";
    if (strcmp(v, "pts") == 0) {
        s->ss = WL_SS_PTS;
        s->ss_slope = s->ss_pct = FALSE;
        s->ss_limit = 0;
        return TRUE;
    }
    const char *colon = strchr(v, ':');
    if (!colon)
        return wl_bad(error, v, expect);
    g_autofree char *kind = g_strndup(v, (gsize)(colon - v));
    g_autofree char *lim = g_strdup(colon + 1);
    size_t n = strlen(lim);
    s->ss_pct = n > 0 && lim[n - 1] == '%';
    if (s->ss_pct)
        lim[n - 1] = '\0';
    s->ss_slope = g_str_has_suffix(kind, "_slope");
    if (s->ss_slope)
        kind[strlen(kind) - 6] = '\0';
    if (strcmp(kind, "iops") == 0)
        s->ss = WL_SS_IOPS;
    else if (strcmp(kind, "bw") == 0)
        s->ss = WL_SS_BW;
    else
        return wl_bad(error, v, expect);
    if (!wl_fio_double(lim, &s->ss_limit) || s->ss_limit < 0)
        return wl_bad(error, v, expect);
    return TRUE;
}

static gboolean opt_ss_dur(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_time(v, SIM_SEC, &s->ss_dur, e);
}

static gboolean opt_ss_ramp(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_time(v, SIM_SEC, &s->ss_ramp, e);
}

static gboolean opt_ss_round(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (!workload_parse_time(v, SIM_SEC, &s->ss_round, error))
        return FALSE;
    if (s->ss_round < SIM_SEC / 1000 || s->ss_round > 86400 * SIM_SEC)
        return wl_bad(error, v, "a round from 1 ms to 1 day such as 60s");
    return TRUE;
}

static gboolean opt_ss_rounds(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_u32(v, STEADY_WINDOW, WL_SS_ROUNDS_MAX, &s->ss_rounds, e);
}

/* ---- Logs --------------------------------------------------------------- */

/* A log's file prefix; bare: the job's name (set when the job is bound). */
static gboolean wl_log_name(char *dst, const char *v, GError **error)
{
    if (!v || v[0] == '\0') {
        g_strlcpy(dst, "\001", WL_LOG_NAME_MAX); /* the job's name */
        return TRUE;
    }
    if (strlen(v) >= WL_LOG_NAME_MAX || strchr(v, '/') || v[0] == '.')
        return wl_bad(error, v, "a file name prefix (no '/', not starting with '.', up to 127 "
                                "characters)");
    g_strlcpy(dst, v, WL_LOG_NAME_MAX);
    return TRUE;
}

static gboolean opt_bw_log(WorkloadJobSpec *s, const char *v, GError **e) { return wl_log_name(s->bw_log, v, e); }
static gboolean opt_lat_log(WorkloadJobSpec *s, const char *v, GError **e) { return wl_log_name(s->lat_log, v, e); }
static gboolean opt_iops_log(WorkloadJobSpec *s, const char *v, GError **e) { return wl_log_name(s->iops_log, v, e); }

static gboolean opt_log_avg_msec(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_time(v, SIM_MS, &s->log_avg_ns, e);
}

static gboolean opt_log_offset(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->log_offset, e); }
static gboolean opt_log_prio(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->log_prio, e); }

/* bwavgtime=MS, iopsavgtime=MS: the window of each bandwidth or IOPS
 * sample of fio's JSON (bw_min ... bw_samples, iops_*), whole
 * milliseconds as fio takes them (its default 500). */
static gboolean wl_avg_time(SimTime *out, const char *v, GError **error)
{
    uint32_t ms;
    if (!wl_fio_u32(v, 1, 86400000, &ms, NULL))
        return wl_bad(error, v, "a window in whole milliseconds from 1 (fio's default: 500)");
    *out = (SimTime)ms * SIM_MS;
    return TRUE;
}

static gboolean opt_bwavgtime(WorkloadJobSpec *s, const char *v, GError **e) { return wl_avg_time(&s->bw_avg_ns, v, e); }
static gboolean opt_iopsavgtime(WorkloadJobSpec *s, const char *v, GError **e) { return wl_avg_time(&s->iops_avg_ns, v, e); }

/* new_group: a reporting group starts here (fio JSON with group_reporting). */
static gboolean opt_new_group(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->new_group, e);
}

/* ---- Accepted without effect -------------------------------------------- */

/* A value is still checked for being there; what it says cannot change a
 * simulated run (see docs/workloads.md for each). */
static gboolean opt_noop(WorkloadJobSpec *s, const char *v, GError **e)
{
    (void)s, (void)v, (void)e;
    return TRUE;
}

static gboolean opt_noop_int(WorkloadJobSpec *s, const char *v, GError **error)
{
    (void)s;
    for (const char *p = v; p && *p; p++)
        if (!g_ascii_isdigit(*p) && !strchr("/:,-.%kKmMgG", *p))
            return wl_bad(error, v, "a number");
    return TRUE;
}

static gboolean opt_unsupported(WorkloadJobSpec *s, const char *v, GError **error)
{
    (void)s;
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                "found \"%s\", but this fio feature is not simulated by ftlsim", v ? v : "");
    return FALSE;
}

static const WlOpt wl_ext_opts[] = {
    {"ioengine", opt_ioengine, FALSE},
    {"rw_sequencer", opt_rw_sequencer, FALSE},
    {"percentage_random", opt_percentage_random, FALSE},
    {"write_iolog", opt_write_iolog, FALSE},
    {"read_iolog", opt_read_iolog, FALSE},
    {"replay_no_stall", opt_replay_no_stall, TRUE},
    {"filesize", opt_filesize, FALSE},
    {"fill_device", opt_fill_device, TRUE},
    {"fill_fs", opt_fill_device, TRUE},
    {"offset_increment", opt_offset_increment, FALSE},
    {"number_ios", opt_number_ios, FALSE},
    {"blockalign", opt_blockalign, FALSE},
    {"ba", opt_blockalign, FALSE},
    {"zonemode", opt_zonemode, FALSE},
    {"zonesize", opt_zonesize, FALSE},
    {"zoneskip", opt_zoneskip, FALSE},
    {"random_sequence_stride", opt_sequence_stride, TRUE},
    {"random_generator", opt_random_generator, FALSE},
    {"wait_for", opt_wait_for, FALSE},
    {"exitall", opt_exitall, TRUE},
    {"exit_what", opt_exit_what, FALSE},
    {"thinktime_blocks", opt_thinktime_blocks, FALSE},
    {"thinktime_blocks_type", opt_thinktime_blocks_type, FALSE},
    {"flow", opt_flow, FALSE},
    {"flow_id", opt_flow_id, FALSE},
    {"flow_sleep", opt_noop_int, FALSE},
    {"rate_process", opt_rate_process, FALSE},
    {"rate_min", opt_rate_min, FALSE},
    {"ratemin", opt_rate_min, FALSE},
    {"rate_cycle", opt_ratecycle, FALSE},
    {"ratecycle", opt_ratecycle, FALSE},
    {"rate_poisson", opt_rate_poisson, TRUE},
    {"io_submit_mode", opt_io_submit_mode, FALSE},
    {"verify", opt_verify, FALSE},
    {"do_verify", opt_do_verify, TRUE},
    {"ss", opt_ss, FALSE},
    {"steadystate", opt_ss, FALSE},
    {"ss_dur", opt_ss_dur, FALSE},
    {"steadystate_duration", opt_ss_dur, FALSE},
    {"ss_ramp", opt_ss_ramp, FALSE},
    {"steadystate_ramp_time", opt_ss_ramp, FALSE},
    {"ss_round", opt_ss_round, FALSE},
    {"ss_rounds", opt_ss_rounds, FALSE},
    {"write_bw_log", opt_bw_log, TRUE},
    {"write_lat_log", opt_lat_log, TRUE},
    {"write_iops_log", opt_iops_log, TRUE},
    {"log_avg_msec", opt_log_avg_msec, FALSE},
    {"log_offset", opt_log_offset, TRUE},
    {"log_prio", opt_log_prio, TRUE},
    {"bwavgtime", opt_bwavgtime, FALSE},
    {"iopsavgtime", opt_iopsavgtime, FALSE},
    /* Priorities: the simulated drives have no command priority. */
    {"prio", opt_noop_int, FALSE},
    {"prioclass", opt_noop_int, FALSE},
    {"cmdprio", opt_noop_int, FALSE},
    {"cmdprio_class", opt_noop_int, FALSE},
    {"cmdprio_percentage", opt_noop_int, FALSE},
    {"cmdprio_bssplit", opt_noop_int, FALSE},
    /* Reporting and job grouping only. */
    {"new_group", opt_new_group, TRUE},
    {"threads", opt_noop, TRUE},
    {"per_job_logs", opt_noop, TRUE},
    /* Data content: the simulated drive does not compress or deduplicate. */
    {"dedupe_percentage", opt_noop_int, FALSE},
    {"dedupe_mode", opt_noop, FALSE},
    {"dedupe_global", opt_noop, TRUE},
    {"dedupe_working_set_percentage", opt_noop_int, FALSE},
    {"buffer_compress_percentage", opt_noop_int, FALSE},
    {"buffer_compress_chunk", opt_noop_int, FALSE},
    {"buffer_pattern", opt_noop, FALSE},
    {"refill_buffers", opt_noop, TRUE},
    {"scramble_buffers", opt_noop, TRUE},
    {"zero_buffers", opt_noop, TRUE},
    {"atomic", opt_noop, TRUE},
    /* verify details: the check is by what each LBA holds, not by a hash. */
    {"verify_backlog", opt_noop_int, FALSE},
    {"verify_interval", opt_noop_int, FALSE},
    {"verify_pattern", opt_noop, FALSE},
    {"verify_fatal", opt_noop, TRUE},
    {"verify_dump", opt_noop, TRUE},
    {"verify_async", opt_noop_int, FALSE},
    {"verify_write_sequence", opt_noop, TRUE},
    /* Files and errors: a simulated drive has no file system and no errors. */
    {"unlink", opt_noop, TRUE},
    {"create_serialize", opt_noop, TRUE},
    {"create_on_open", opt_noop, TRUE},
    {"fallocate", opt_noop, FALSE},
    {"continue_on_error", opt_noop, FALSE},
    {"ignore_error", opt_noop, FALSE},
    {"error_dump", opt_noop, TRUE},
    /* Host-side measurement helpers fio runs beside the job. */
    {"latency_percentile", opt_noop_int, FALSE},
    {"rwmixcycle", opt_noop_int, FALSE},
    /* fio features with no simulated counterpart: refused, not faked. */
    {"iodepth_mode", opt_unsupported, FALSE},
    {"sprandom", opt_unsupported, TRUE},
};

const WlOpt *wl_fio_ext_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(wl_ext_opts); i++)
        if (strcmp(wl_ext_opts[i].name, name) == 0)
            return &wl_ext_opts[i];
    const WlOpt *o = wl_fdp_find(name);
    return o ? o : wl_zbd_find(name);
}
