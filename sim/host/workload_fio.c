/*
 * workload_fio.c - the fio job language: the option table, job files
 * ([global], job sections, include) and the inline --workload spec.
 *
 * Every option goes through one table; an unknown option is an error that
 * names the file and line (or the job of the inline spec).
 */
#include "sim/host/workload_priv.h"
#include "sim/engine/textfile.h"

#include <math.h>
#include <signal.h>
#include <string.h>

G_DEFINE_QUARK(ftlsim-workload-error-quark, workload_error)

#define WL_INCLUDE_DEPTH 16

/* ---- Option handlers: each parses one value into the spec -------------- */

/* rw=NAME[:N]: fio's names, in fio's order so that a prefix ("r", "w")
 * picks what fio picks. For a sequential job N (e.g. 8k, -8k) is added to
 * the offset after each I/O: a gap, or with a negative value a walk
 * backwards; for a random job N is a count: a new random offset every N
 * I/Os, the ones between go on sequentially (fio's ddir_seq_nr). */
static gboolean opt_rw(WorkloadJobSpec *s, const char *v, GError **error)
{
    static const struct {
        const char *n;
        WorkloadRw rw;
    } names[] = {
        {"read", WL_RW_READ},     {"write", WL_RW_WRITE},       {"trim", WL_RW_TRIM},
        {"randread", WL_RW_RANDREAD}, {"randwrite", WL_RW_RANDWRITE}, {"randtrim", WL_RW_RANDTRIM},
        {"rw", WL_RW_RW},         {"readwrite", WL_RW_RW},      {"randrw", WL_RW_RANDRW},
        {"trimwrite", WL_RW_TRIMWRITE},
    };
    const char *colon = strchr(v, ':');
    g_autofree char *name = colon ? g_strndup(v, (gsize)(colon - v)) : g_strdup(v);
    size_t len = strlen(name);
    gboolean found = FALSE;
    for (unsigned i = 0; len && !found && i < G_N_ELEMENTS(names); i++) {
        if (strncmp(name, names[i].n, len) == 0) {
            s->rw = names[i].rw;
            found = TRUE;
        }
    }
    if (!found) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected read, write, randread, randwrite, rw, readwrite, "
                    "randrw, trim, randtrim or trimwrite, optionally :OFFSET such as :8k or :-8k",
                    v);
        return FALSE;
    }
    s->seq_add = 0;
    s->seq_nr = 1;
    gboolean random = s->rw == WL_RW_RANDREAD || s->rw == WL_RW_RANDWRITE ||
                      s->rw == WL_RW_RANDRW || s->rw == WL_RW_RANDTRIM;
    if (colon && random) {
        if (!wl_fio_u32(colon + 1, 0, UINT32_MAX, &s->seq_nr, NULL)) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "found \"%s\", expected NAME:N with a count N of I/Os per random offset "
                        "such as randread:8", v);
            return FALSE;
        }
    } else if (colon) {
        const char *num = colon[1] == '-' || colon[1] == '+' ? colon + 2 : colon + 1;
        uint64_t add;
        if (!workload_parse_bytes(num, s->kb_base, &add, NULL) || add > INT64_MAX) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "found \"%s\", expected NAME:OFFSET with an offset such as 8k or -8k", v);
            return FALSE;
        }
        s->seq_add = colon[1] == '-' ? -(int64_t)add : (int64_t)add;
    }
    return TRUE;
}

const char *wl_rw_name(WorkloadRw rw)
{
    static const char *const n[] = {"read",  "write", "randread", "randwrite", "rw",
                                    "randrw", "trim", "randtrim", "trimwrite"};
    return (unsigned)rw < G_N_ELEMENTS(n) ? n[rw] : "?";
}

typedef gboolean (*WlDirFn)(WorkloadJobSpec *s, int dir, const char *v, GError **error);

/* fio's per-direction form "R,W,T": an empty part keeps the default; the
 * last non-empty part, if not followed by a comma, also applies to the
 * directions after it. */
static gboolean wl_per_dir(WorkloadJobSpec *s, const char *v, WlDirFn fn, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(v, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > WL_DIRS) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected one value or up to 3 values for read,write,trim", v);
        return FALSE;
    }
    for (guint i = 0; i < n; i++) {
        g_strstrip(parts[i]);
        if (parts[i][0] == '\0')
            continue;
        int last = (i == n - 1) ? WL_DIRS - 1 : (int)i;
        for (int d = (int)i; d <= last; d++)
            if (!fn(s, d, parts[i], error))
                return FALSE;
    }
    return TRUE;
}

static gboolean dir_bs(WorkloadJobSpec *s, int d, const char *v, GError **error)
{
    if (!workload_parse_bytes(v, s->kb_base, &s->bs[d], error))
        return FALSE;
    if (s->bs[d] == 0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected a block size above 0", v);
        return FALSE;
    }
    return TRUE;
}

static gboolean dir_bsrange(WorkloadJobSpec *s, int d, const char *v, GError **error)
{
    const char *sep = strpbrk(v, "-:");
    g_autofree char *lo = sep ? g_strndup(v, (gsize)(sep - v)) : NULL;
    uint64_t a, b;
    if (!sep || !workload_parse_bytes(lo, s->kb_base, &a, NULL) ||
        !workload_parse_bytes(sep + 1, s->kb_base, &b, NULL) || a == 0 || b < a) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected LOW-HIGH such as 4k-64k", v);
        return FALSE;
    }
    s->bs_min[d] = a;
    s->bs_max[d] = b;
    return TRUE;
}

static gboolean dir_rate(WorkloadJobSpec *s, int d, const char *v, GError **error)
{
    return workload_parse_bytes(v, s->kb_base, &s->rate[d], error);
}

static gboolean dir_rate_iops(WorkloadJobSpec *s, int d, const char *v, GError **error)
{
    return workload_parse_bytes(v, s->kb_base, &s->rate_iops[d], error);
}

static gboolean opt_bs(WorkloadJobSpec *s, const char *v, GError **e) { return wl_per_dir(s, v, dir_bs, e); }
static gboolean opt_bsrange(WorkloadJobSpec *s, const char *v, GError **e) { return wl_per_dir(s, v, dir_bsrange, e); }
static gboolean opt_rate(WorkloadJobSpec *s, const char *v, GError **e) { return wl_per_dir(s, v, dir_rate, e); }
static gboolean opt_rate_iops(WorkloadJobSpec *s, const char *v, GError **e) { return wl_per_dir(s, v, dir_rate_iops, e); }

/* bssplit=4k/50:64k/40:1m/10 for one direction, as fio reads it: entries
 * that leave their share empty split what the others leave of 100%
 * evenly; the entries are ordered by share, smallest first (fio sorts
 * them), and a draw beyond the sum of the shares falls to the last one, so
 * shares adding up to less than 100% give the rest to the largest share and
 * more than 100% cut the largest. fio refuses more than 100% only with
 * several empty shares. */
static gboolean dir_bssplit(WorkloadJobSpec *s, int d, const char *v, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(v, ":", -1);
    guint n = g_strv_length(parts), missing = 0, sum = 0;
    gboolean ok = n > 0 && n <= WL_BSSPLIT_MAX;
    WorkloadBsSplit e[WL_BSSPLIT_MAX];
    for (guint i = 0; ok && i < n; i++) {
        char *slash = strchr(parts[i], '/');
        if (slash)
            *slash = '\0';
        ok = workload_parse_bytes(parts[i], s->kb_base, &e[i].bs, NULL) && e[i].bs > 0;
        if (ok && (!slash || slash[1] == '\0')) {
            e[i].pct = UINT32_MAX; /* sorts last, as fio's unset share */
            missing++;
        } else if (ok) {
            ok = wl_fio_u32(slash + 1, 0, 100, &e[i].pct, NULL);
            sum += e[i].pct;
        }
    }
    if (!ok || (sum > 100 && missing > 1)) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected SIZE/PERCENT:SIZE/PERCENT... (at most %d entries; "
                    "R,W,T for each direction; shares left empty split the rest of 100)", v,
                    WL_BSSPLIT_MAX);
        return FALSE;
    }
    for (guint i = 1; i < n; i++) { /* stable: equal shares keep their order */
        WorkloadBsSplit x = e[i];
        guint k = i;
        for (; k > 0 && e[k - 1].pct > x.pct; k--)
            e[k] = e[k - 1];
        e[k] = x;
    }
    for (guint i = 0; i < n; i++) {
        if (e[i].pct == UINT32_MAX)
            e[i].pct = sum >= 100 ? 0 : (100 - sum) / missing;
        s->bssplit[d][i] = e[i];
    }
    s->n_bssplit[d] = n;
    return TRUE;
}

static gboolean opt_bssplit(WorkloadJobSpec *s, const char *v, GError **e) { return wl_per_dir(s, v, dir_bssplit, e); }

/* A size in bytes or in % of the drive. */
static gboolean wl_bytes_or_pct(WorkloadJobSpec *s, const char *v, uint64_t *bytes, double *pct,
                                GError **error)
{
    size_t len = strlen(v);
    if (len > 1 && v[len - 1] == '%') {
        g_autofree char *num = g_strndup(v, len - 1);
        double p;
        if (!wl_fio_double(num, &p) || p <= 0 || p > 100) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "found \"%s\", expected a share of the drive above 0%% and up to 100%%",
                        v);
            return FALSE;
        }
        *pct = p;
        *bytes = 0;
        return TRUE;
    }
    *pct = 0;
    return workload_parse_bytes(v, s->kb_base, bytes, error);
}

static gboolean opt_size(WorkloadJobSpec *s, const char *v, GError **e)
{
    if (wl_zbd_zones_value(v, &s->zbd.size_nz)) /* zones, for zonemode=zbd */
        return TRUE;
    return wl_bytes_or_pct(s, v, &s->size, &s->size_pct, e);
}

static gboolean opt_offset(WorkloadJobSpec *s, const char *v, GError **e)
{
    if (strcmp(v, "0%") == 0) { /* fio's examples start jobs at offset=0% */
        s->offset = 0;
        s->offset_pct = 0;
        return TRUE;
    }
    if (wl_zbd_zones_value(v, &s->zbd.offset_nz))
        return TRUE;
    if (!wl_bytes_or_pct(s, v, &s->offset, &s->offset_pct, e))
        return FALSE;
    if (s->offset_pct >= 100) {
        g_set_error(e, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected an offset below 100%%", v);
        return FALSE;
    }
    return TRUE;
}

static gboolean opt_io_size(WorkloadJobSpec *s, const char *v, GError **e)
{
    if (wl_zbd_zones_value(v, &s->zbd.io_size_nz))
        return TRUE;
    return workload_parse_bytes(v, s->kb_base, &s->io_size, e);
}

static gboolean opt_iodepth(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_u32(v, 1, 65536, &s->iodepth, e); }
static gboolean opt_numjobs(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_u32(v, 1, 4096, &s->numjobs, e); }
static gboolean opt_loops(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_u32(v, 1, 1000000, &s->loops, e); }
static gboolean opt_fsync(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_u32(v, 0, 1u << 30, &s->fsync, e); }
static gboolean opt_rwmixread(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_u32(v, 0, 100, &s->rwmixread, e); }

static gboolean opt_rwmixwrite(WorkloadJobSpec *s, const char *v, GError **e)
{
    uint32_t w;
    if (!wl_fio_u32(v, 0, 100, &w, e))
        return FALSE;
    s->rwmixread = 100 - w;
    return TRUE;
}

static gboolean opt_runtime(WorkloadJobSpec *s, const char *v, GError **e) { return workload_parse_time(v, SIM_SEC, &s->runtime_ns, e); }
static gboolean opt_ramp(WorkloadJobSpec *s, const char *v, GError **e) { return workload_parse_time(v, SIM_SEC, &s->ramp_ns, e); }
static gboolean opt_startdelay(WorkloadJobSpec *s, const char *v, GError **e) { return workload_parse_time(v, SIM_SEC, &s->startdelay_ns, e); }
static gboolean opt_thinktime(WorkloadJobSpec *s, const char *v, GError **e) { return workload_parse_time(v, SIM_US, &s->thinktime_ns, e); }

static gboolean opt_idle(WorkloadJobSpec *s, const char *v, GError **e)
{
    s->idle = TRUE;
    return workload_parse_time(v, SIM_SEC, &s->runtime_ns, e);
}

static gboolean opt_time_based(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->time_based, e); }
static gboolean opt_stonewall(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->stonewall, e); }
static gboolean opt_norandommap(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->norandommap, e); }
static gboolean opt_randrepeat(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->randrepeat, e); }

static gboolean opt_group_reporting(WorkloadJobSpec *s, const char *v, GError **e) { return wl_fio_bool(v, &s->group_reporting, e); }

static gboolean opt_randseed(WorkloadJobSpec *s, const char *v, GError **error)
{
    char *end = NULL;
    s->randseed = g_ascii_isdigit(v[0]) ? g_ascii_strtoull(v, &end, 10) : 0;
    if (!end || *end != '\0') {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected an integer seed", v);
        return FALSE;
    }
    s->has_randseed = TRUE;
    return TRUE;
}

static gboolean opt_distribution(WorkloadJobSpec *s, const char *v, GError **error)
{
    GError *ext = NULL;
    if (wl_fio_distribution_ext(s, v, &ext))
        return TRUE;
    if (ext) {
        g_propagate_error(error, ext);
        return FALSE;
    }
    const char *colon = strchr(v, ':');
    g_autofree char *kind = colon ? g_strndup(v, (gsize)(colon - v)) : g_strdup(v);
    double p = 0;
    gboolean has = colon && wl_fio_double(colon + 1, &p);
    if (strcmp(kind, "random") == 0 && !colon) {
        s->dist = WL_DIST_RANDOM;
    } else if (strcmp(kind, "zipf") == 0 && has && p > 0 && p != 1.0) {
        s->dist = WL_DIST_ZIPF;
    } else if (strcmp(kind, "pareto") == 0 && has && p > 0 && p < 1) {
        s->dist = WL_DIST_PARETO;
    } else if ((strcmp(kind, "normal") == 0 || strcmp(kind, "gauss") == 0) && has && p >= 0 &&
               p <= 100) {
        s->dist = WL_DIST_NORMAL;
    } else {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected random, zipf:THETA (>0, not 1), pareto:H (0..1), "
                    "normal:STDDEV%% (0..100), zoned:, zoned_abs: or sequence:", v);
        return FALSE;
    }
    s->dist_param = p;
    return TRUE;
}

static gboolean opt_name(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (v[0] == '\0' || strlen(v) >= WL_NAME_MAX) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected a name of 1 to %d characters", v, WL_NAME_MAX - 1);
        return FALSE;
    }
    g_strlcpy(s->name, v, sizeof s->name);
    return TRUE;
}

static gboolean opt_kb_base(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "1000") == 0 || strcmp(v, "1024") == 0) {
        s->kb_base = strcmp(v, "1000") == 0 ? 1000 : 1024;
        return TRUE;
    }
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                "found \"%s\", expected 1000 or 1024", v);
    return FALSE;
}

/* The file named in write_iolog's rows; the drive stands in for it. */
static gboolean opt_filename(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strlen(v) >= sizeof s->filename || strpbrk(v, " \t")) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected a file name without blanks, up to %d characters", v,
                    (int)sizeof s->filename - 1);
        return FALSE;
    }
    g_strlcpy(s->filename, v, sizeof s->filename);
    return TRUE;
}

static gboolean opt_ignored(WorkloadJobSpec *s, const char *v, GError **e)
{
    (void)s, (void)v, (void)e;
    return TRUE;
}

static const WlOpt wl_opts[] = {
    {"rw", opt_rw, FALSE},                 {"readwrite", opt_rw, FALSE},
    {"bs", opt_bs, FALSE},                 {"blocksize", opt_bs, FALSE},
    {"bsrange", opt_bsrange, FALSE},       {"blocksize_range", opt_bsrange, FALSE},
    {"bssplit", opt_bssplit, FALSE},       {"iodepth", opt_iodepth, FALSE},
    {"numjobs", opt_numjobs, FALSE},       {"size", opt_size, FALSE},
    {"offset", opt_offset, FALSE},         {"io_size", opt_io_size, FALSE},
    {"io_limit", opt_io_size, FALSE},      {"runtime", opt_runtime, FALSE},
    {"time_based", opt_time_based, TRUE},  {"ramp_time", opt_ramp, FALSE},
    {"rwmixread", opt_rwmixread, FALSE},   {"rwmixwrite", opt_rwmixwrite, FALSE},
    {"rate", opt_rate, FALSE},             {"rate_iops", opt_rate_iops, FALSE},
    {"thinktime", opt_thinktime, FALSE},   {"startdelay", opt_startdelay, FALSE},
    {"stonewall", opt_stonewall, TRUE},    {"wait_for_previous", opt_stonewall, TRUE},
    {"loops", opt_loops, FALSE},           {"random_distribution", opt_distribution, FALSE},
    {"norandommap", opt_norandommap, TRUE}, {"randrepeat", opt_randrepeat, TRUE},
    {"randseed", opt_randseed, FALSE},     {"name", opt_name, FALSE},
    {"kb_base", opt_kb_base, FALSE},       {"fsync", opt_fsync, FALSE},
    {"idle", opt_idle, FALSE},             {"timeout", opt_runtime, FALSE},
    /* Meaningless for a simulated drive: accepted and ignored. */
    {"direct", opt_ignored, TRUE},
    {"filename", opt_filename, FALSE},      {"directory", opt_ignored, FALSE},
    {"group_reporting", opt_group_reporting, TRUE}, {"buffered", opt_ignored, TRUE},
    {"invalidate", opt_ignored, TRUE},     {"thread", opt_ignored, TRUE},
    {"sync", opt_ignored, TRUE},           {"description", opt_ignored, FALSE},
    {"numa_cpu_nodes", opt_ignored, FALSE}, {"numa_mem_policy", opt_ignored, FALSE},
    {"cpus_allowed", opt_ignored, FALSE},  {"cpus_allowed_policy", opt_ignored, FALSE},
    {"cpumask", opt_ignored, FALSE},       {"gtod_reduce", opt_ignored, TRUE},
    /* fio's own alias of offset (not ignored). */
    {"fileoffset", opt_offset, FALSE},
};

static const WlOpt *wl_opt_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(wl_opts); i++)
        if (strcmp(wl_opts[i].name, name) == 0)
            return &wl_opts[i];
    const WlOpt *o = wl_fio_ext_find(name);
    return o ? o : wl_report_find(name);
}

/* Apply "key" or "key=value" to s; errors read "WHERE: option "KEY": ...". */
static gboolean wl_apply(WorkloadJobSpec *s, const char *key, const char *val, const char *where,
                         GError **error)
{
    const WlOpt *o = wl_opt_find(key);
    GError *err = NULL;
    if (!o) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "%s: option \"%s\": not supported by ftlsim", where, key);
        return FALSE;
    }
    if (!val && !o->bare) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "%s: option \"%s\": found no value, expected %s=VALUE", where, key, key);
        return FALSE;
    }
    if (!o->fn(s, val, &err)) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE, "%s: option \"%s\": %s", where,
                    key, err->message);
        g_error_free(err);
        return FALSE;
    }
    return TRUE;
}

/* Split "key = value" and apply it. */
static gboolean wl_apply_line(WorkloadJobSpec *s, const char *line, const char *where,
                              GError **error)
{
    const char *eq = strchr(line, '=');
    g_autofree char *key = eq ? g_strndup(line, (gsize)(eq - line)) : g_strdup(line);
    g_autofree char *val = eq ? g_strdup(eq + 1) : NULL;
    g_strstrip(key);
    if (val)
        g_strstrip(val);
    if (key[0] == '\0') {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "%s: found \"%s\", expected OPTION or OPTION=VALUE", where, line);
        return FALSE;
    }
    return wl_apply(s, key, val, where, error);
}

/* Note "key=value" as written for fio's JSON "job options": the key
 * trimmed, the value as it follows '=' (fio keeps its leading blanks);
 * an option without a value is not listed, as in fio. */
static void wl_opts_note(GString *opts, const char *line)
{
    const char *eq = strchr(line, '=');
    if (!eq)
        return;
    g_autofree char *key = g_strstrip(g_strndup(line, (gsize)(eq - line)));
    g_string_append_printf(opts, "%s=%s\n", key, eq + 1);
}

static void wl_opts_free(gpointer opts)
{
    g_string_free(opts, TRUE);
}

static const char *wl_opts_intern(const GString *opts)
{
    return opts->len ? g_intern_string(opts->str) : NULL;
}

void wl_spec_defaults(WorkloadJobSpec *s)
{
    memset(s, 0, sizeof *s);
    s->rw = WL_RW_READ;
    for (int d = 0; d < WL_DIRS; d++)
        s->bs[d] = 4096;
    s->iodepth = 1;
    s->numjobs = 1;
    s->loops = 1;
    s->rwmixread = 50;
    s->randrepeat = TRUE;
    s->kb_base = 1024;
    s->dist = WL_DIST_RANDOM;
    s->do_verify = TRUE;
    s->clat_pct = TRUE;
    s->sig_figs = 4;
    s->ratecycle_ns = SIM_SEC;
    s->thinktime_blocks = 1;
    s->ss_round = 60 * SIM_SEC; /* the PTS's round */
    s->ss_rounds = 25;          /* the PTS's round limit */
    s->seq_nr = 1;
    for (int d = 0; d < WL_DIRS; d++)
        s->perc_rand[d] = 100;
}

/* ---- Job files ---------------------------------------------------------- */

typedef struct WlParse {
    GArray *jobs;            /* WorkloadJobSpec */
    WorkloadJobSpec global;
    WorkloadJobSpec *cur;    /* the section being read: &global or a job */
    GString *gopts;          /* the options of every [global] section, as written */
    GPtrArray *jopts;        /* GString per job: its own options, as written */
    GString *cur_opts;       /* gopts or the current job's */
    gboolean in_section;
    gboolean began;          /* the line just read was a section header */
    WorkloadStopFn stop;     /* asked before each line: a signal ends the parse */
    GPtrArray *stack;        /* paths being read, for include loops */
} WlParse;

static gboolean wl_parse_lines(WlParse *p, const char *text, const char *path, GError **error);

/* A job file is text: a NUL byte would end it early, silently dropping the
 * rest of the job (a 16 MB job would become one that writes the drive). */
static gboolean wl_check_text(const char *text, gsize len, const char *path, GError **error)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return TRUE;
    guint line = 1;
    for (const char *q = text; q < nul; q++)
        line += *q == '\n';
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                "%s:%u: found a NUL byte, expected text (a job file of fio options)", path, line);
    return FALSE;
}

static gboolean wl_include(WlParse *p, const char *arg, const char *path, const char *where,
                           GError **error)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_autofree char *inc = g_path_is_absolute(arg) ? g_strdup(arg)
                                                    : g_build_filename(dir, arg, NULL);
    g_autofree char *text = NULL;
    GError *err = NULL;
    for (guint i = 0; i < p->stack->len; i++) {
        if (strcmp(p->stack->pdata[i], inc) == 0 || p->stack->len >= WL_INCLUDE_DEPTH) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "%s: include \"%s\": found an include loop, expected each file once",
                        where, arg);
            return FALSE;
        }
    }
    gsize len = 0;
    if (!text_file_read(inc, TEXT_FILE_MAX_JOB, "an included job file", &text, &len, &err)) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_FILE, "%s: include \"%s\": %s", where,
                    arg, err->message);
        g_error_free(err);
        return FALSE;
    }
    return wl_check_text(text, len, inc, error) && wl_parse_lines(p, text, inc, error);
}

/* "[name]": start a job (or return to [global]). */
static gboolean wl_section(WlParse *p, const char *line, const char *where, GError **error)
{
    size_t len = strlen(line);
    g_autofree char *name = g_strndup(line + 1, len >= 2 ? len - 2 : 0);
    g_strstrip(name);
    if (line[len - 1] != ']' || name[0] == '\0' || strlen(name) >= WL_NAME_MAX) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "%s: found \"%s\", expected a section header [NAME] (name up to %d "
                    "characters)", where, line, WL_NAME_MAX - 1);
        return FALSE;
    }
    p->in_section = TRUE;
    p->began = TRUE;
    if (strcmp(name, "global") == 0) {
        p->cur = &p->global;
        p->cur_opts = p->gopts;
        return TRUE;
    }
    WorkloadJobSpec s = p->global;
    g_strlcpy(s.name, name, sizeof s.name);
    g_array_append_val(p->jobs, s);
    p->cur = &g_array_index(p->jobs, WorkloadJobSpec, p->jobs->len - 1);
    p->cur_opts = g_string_new(NULL);
    g_ptr_array_add(p->jopts, p->cur_opts);
    return TRUE;
}

static gboolean wl_parse_line(WlParse *p, char *line, const char *path, guint lineno,
                              GError **error)
{
    g_autofree char *where = g_strdup_printf("%s:%u", path, lineno);
    GError *err = NULL;
    wl_fio_strip_comment(line);
    g_autofree char *expanded = wl_fio_expand_env(line, &err);
    if (!expanded) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE, "%s: %s", where, err->message);
        g_error_free(err);
        return FALSE;
    }
    line = g_strstrip(expanded);
    if (line[0] == '\0')
        return TRUE;
    if (line[0] == '[')
        return wl_section(p, line, where, error);
    if (g_str_has_prefix(line, "include") && g_ascii_isspace(line[7])) {
        char *arg = g_strstrip(line + 8);
        return wl_include(p, arg, path, where, error);
    }
    if (!p->in_section) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "%s: found \"%s\" before any section, expected [global] or [JOBNAME] first",
                    where, line);
        return FALSE;
    }
    if (!wl_apply_line(p->cur, line, where, error))
        return FALSE;
    wl_opts_note(p->cur_opts, line);
    return TRUE;
}

/* The kb_base a section sets, or 0. fio sorts a section's options so that
 * kb_base is applied first (its prio): "bs=4k" then "kb_base=1000" is 4000
 * bytes; the last kb_base of the section wins. A section's kb_base does not
 * reach back into [global]'s sizes, already read in global's base. A bad
 * value is left for the line itself to report. */
static uint32_t wl_section_kb_base(char **lines)
{
    uint32_t kb = 0;
    for (guint i = 0; lines[i]; i++) {
        g_autofree char *line = g_strdup(lines[i]);
        wl_fio_strip_comment(line);
        g_autofree char *x = wl_fio_expand_env(line, NULL);
        char *t = x ? g_strstrip(x) : NULL;
        if (!t || t[0] == '[')
            break;
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = '\0';
        g_strstrip(t);
        g_strstrip(eq + 1);
        if (strcmp(t, "kb_base") == 0 && (!strcmp(eq + 1, "1000") || !strcmp(eq + 1, "1024")))
            kb = strcmp(eq + 1, "1000") == 0 ? 1000 : 1024;
    }
    return kb;
}

static gboolean wl_parse_lines(WlParse *p, const char *text, const char *path, GError **error)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    gboolean ok = TRUE;
    g_ptr_array_add(p->stack, g_strdup(path));
    for (guint i = 0; ok && lines[i]; i++) {
        int sig = p->stop ? p->stop() : 0; /* a line costs more than the call */
        if (sig) {
            g_autofree char *when = g_strdup_printf("while reading %s (line %u)", path, i + 1);
            sim_interrupted_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND, sig, when,
                                  "nothing written");
            ok = FALSE;
            break;
        }
        p->began = FALSE;
        ok = wl_parse_line(p, lines[i], path, i + 1, error);
        if (ok && p->began) {
            uint32_t kb = wl_section_kb_base(lines + i + 1);
            if (kb)
                p->cur->kb_base = kb;
        }
    }
    g_ptr_array_remove_index(p->stack, p->stack->len - 1);
    return ok;
}

/* Job-file text; where names the file in messages; stop (may be NULL) is
 * asked before each line, so a signal stops the parse of a huge file. */
GArray *wl_fio_parse_text(const char *text, const char *where, WorkloadStopFn stop,
                          GError **error)
{
    WlParse p = {.jobs = g_array_new(FALSE, FALSE, sizeof(WorkloadJobSpec)),
                 .stop = stop,
                 .stack = g_ptr_array_new_with_free_func(g_free),
                 .gopts = g_string_new(NULL),
                 .jopts = g_ptr_array_new_with_free_func(wl_opts_free)};
    wl_spec_defaults(&p.global);
    p.cur = &p.global;
    p.cur_opts = p.gopts;
    gboolean ok = wl_parse_lines(&p, text, where, error);
    g_ptr_array_unref(p.stack);
    for (guint i = 0; ok && i < p.jobs->len; i++) {
        WorkloadJobSpec *s = &g_array_index(p.jobs, WorkloadJobSpec, i);
        s->opts = wl_opts_intern(p.jopts->pdata[i]);
        s->global_opts = wl_opts_intern(p.gopts);
    }
    g_ptr_array_unref(p.jopts);
    g_string_free(p.gopts, TRUE);
    if (ok && p.jobs->len == 0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "%s: found no job section, expected at least one [JOBNAME]", where);
        ok = FALSE;
    }
    if (!ok) {
        g_array_unref(p.jobs);
        return NULL;
    }
    return p.jobs;
}

GArray *wl_fio_parse_file(const char *path, WorkloadStopFn stop, GError **error)
{
    g_autofree char *text = NULL;
    GError *err = NULL;
    gsize len = 0;
    if (!text_file_read(path, TEXT_FILE_MAX_JOB, "a job file", &text, &len, &err)) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_FILE, "%s", err->message);
        g_error_free(err);
        return NULL;
    }
    if (!wl_check_text(text, len, path, error))
        return NULL;
    return wl_fio_parse_text(text, path, stop, error);
}

/* ---- Inline spec -------------------------------------------------------- */

/* Is this comma-separated item the start of an option (rather than the
 * continuation of a per-direction value such as bs=4k,64k)? */
static gboolean wl_item_is_option(const char *item)
{
    if (strchr(item, '='))
        return TRUE;
    g_autofree char *k = g_strstrip(g_strdup(item));
    return wl_opt_find(k) != NULL;
}

/* One job of the inline spec: "key=value,key=value,flag". */
static gboolean wl_spec_job(WorkloadJobSpec *s, const char *text, guint n, GError **error)
{
    g_autofree char *where = g_strdup_printf("workload spec, job %u", n);
    g_auto(GStrv) items = g_strsplit(text, ",", -1);
    g_autoptr(GString) written = g_string_new(NULL);
    GString *opt = NULL;
    gboolean ok = TRUE;
    for (guint i = 0; items[i]; i++) { /* kb_base first, as in a job file */
        g_autofree char *it = g_strstrip(g_strdup(items[i]));
        if (!strcmp(it, "kb_base=1000") || !strcmp(it, "kb_base=1024"))
            s->kb_base = strcmp(it, "kb_base=1000") == 0 ? 1000 : 1024;
    }
    for (guint i = 0; ok && items[i]; i++) {
        if (opt && !wl_item_is_option(items[i])) {
            g_string_append_c(opt, ',');
            g_string_append(opt, items[i]);
            continue;
        }
        if (opt && (ok = wl_apply_line(s, opt->str, where, error)))
            wl_opts_note(written, opt->str);
        if (opt)
            g_string_free(opt, TRUE);
        opt = g_string_new(items[i]);
    }
    if (ok && opt && (ok = wl_apply_line(s, opt->str, where, error)))
        wl_opts_note(written, opt->str);
    if (opt)
        g_string_free(opt, TRUE);
    s->opts = wl_opts_intern(written);
    return ok;
}

/* Jobs separated by ';' (the next job waits for all before it) or '&'
 * (the next job runs alongside the previous one). */
GArray *wl_fio_parse_spec(const char *spec, GError **error)
{
    GArray *jobs = g_array_new(FALSE, FALSE, sizeof(WorkloadJobSpec));
    const char *p = spec;
    gboolean wall = FALSE;
    for (guint n = 1;; n++) {
        size_t len = strcspn(p, ";&");
        g_autofree char *text = g_strstrip(g_strndup(p, len));
        WorkloadJobSpec s;
        wl_spec_defaults(&s);
        g_snprintf(s.name, sizeof s.name, "job%u", n);
        s.stonewall = wall;
        if (text[0] == '\0' || !wl_spec_job(&s, text, n, error)) {
            if (text[0] == '\0')
                g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                            "workload spec, job %u: found nothing, expected OPTION=VALUE,...", n);
            g_array_unref(jobs);
            return NULL;
        }
        g_array_append_val(jobs, s);
        if (p[len] == '\0')
            break;
        wall = p[len] == ';';
        p += len + 1;
    }
    return jobs;
}
