/*
 * report_table.c - the table of every figure a run reports (see
 * report_table.h), and how a value is read and printed.
 *
 * The table is in summary.json order; series.csv and the sweep table take
 * their figures by column number. Figures of one interval (series.csv) are
 * read from SeriesRow, those of the whole run from RunResult.
 */
#include "sim/output/report_table.h"

#include "sim/engine/version.h"
#include "sim/config/config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Values of the whole run ---------------------------------------------- */

static FigValue u64v(uint64_t u)
{
    return (FigValue){.kind = FIG_U64, .u = u};
}
static FigValue f64v(double f)
{
    return (FigValue){.kind = FIG_F64, .f = f};
}
static FigValue strv(const char *s)
{
    return (FigValue){.kind = FIG_STR, .s = s};
}
static FigValue boolv(gboolean b)
{
    return (FigValue){.kind = FIG_BOOL, .u = b != FALSE};
}
static FigValue nullv(void)
{
    return (FigValue){.kind = FIG_NULL};
}

/* A uint64_t counter of DriveStats at byte offset arg. */
static FigValue get_stat(const RunResult *r, int arg)
{
    return u64v(*(const uint64_t *)((const char *)r->stats + arg));
}

static FigValue get_version(const RunResult *r, int arg)
{
    (void)r, (void)arg;
    return strv(ftlsim_version());
}

enum { S_DRIVE, S_DRIVE_FILE, S_WORKLOAD, S_PREFILL };
static FigValue get_text(const RunResult *r, int arg)
{
    switch (arg) {
    case S_DRIVE:
        return strv(r->params->name);
    case S_DRIVE_FILE:
        return strv(r->drive);
    case S_WORKLOAD:
        return strv(workload_description(r->workload));
    default:
        return strv(r->prefill);
    }
}

enum { R_SEED, R_INTERRUPTED, R_SIM_TIME, R_WALL, R_SETUP_WALL, R_TOTAL_WALL, R_EVENTS, R_RSS };
static FigValue get_run(const RunResult *r, int arg)
{
    switch (arg) {
    case R_SEED:
        return u64v(r->seed);
    case R_INTERRUPTED:
        return boolv(r->interrupted);
    case R_SIM_TIME:
        return f64v(r->sim_time_s);
    case R_WALL:
        return f64v(r->wall_s);
    case R_SETUP_WALL:
        return f64v(r->setup_wall_s);
    case R_TOTAL_WALL:
        return f64v(r->setup_wall_s + r->wall_s);
    case R_EVENTS:
        return u64v(r->events);
    default:
        return u64v(r->peak_rss);
    }
}

static gboolean has_trace(const RunResult *r)
{
    WorkloadTraceInfo ti;
    return workload_trace_info(r->workload, &ti);
}

static gboolean has_steady(const RunResult *r)
{
    return r->steady != NULL;
}

static FigValue get_trace(const RunResult *r, int arg)
{
    WorkloadTraceInfo ti;
    if (!workload_trace_info(r->workload, &ti))
        return nullv();
    switch (arg) {
    case 0:
        return strv(ti.format);
    case 1:
        return boolv(ti.detected);
    case 2:
        return boolv(ti.header_skipped);
    default:
        return u64v(ti.bad_lines);
    }
}

static void json_overrides(const RunResult *r, JsonWriter *w, const char *key)
{
    json_begin_array(w, key);
    for (const char *const *set = r->sets; set && *set; set++)
        json_str(w, NULL, *set);
    json_end_array(w);
}

static void json_family(const RunResult *r, JsonWriter *w, const char *key)
{
    json_begin_array(w, key);
    for (int i = 0; i < DRIVE_FAMILY_DEPTH && r->params->family_files[i][0]; i++)
        json_str(w, NULL, r->params->family_files[i]);
    json_end_array(w);
}

static gboolean has_family(const RunResult *r)
{
    return r->params->family_files[0][0] != '\0';
}

static uint64_t nand_total(const DriveStats *st)
{
    uint64_t n = 0;
    for (int c = 0; c < CAUSES; c++)
        n += st->nand_write_bytes[c];
    return n;
}

static FigValue get_nand_total(const RunResult *r, int arg)
{
    (void)arg;
    return u64v(nand_total(r->stats));
}

/* NAND bytes written per byte of host data the flash has to store: the
 * data still held in the write buffer at the end counts as written (a
 * flush or standby programs it), and data overwritten or trimmed while in
 * the buffer, which never needs storing, is not host data to store. So a
 * run too short to empty the buffer does not show a WAF below 1; see
 * docs/outputs.md. */
double report_waf(const DriveStats *now, const DriveStats *before)
{
    static const DriveStats zero;
    const DriveStats *b = before ? before : &zero;
    double nand = (double)nand_total(now) - (double)nand_total(b) + (double)now->buf_held_bytes -
                  (double)b->buf_held_bytes;
    double host = (double)(now->host_bytes[IO_WRITE] - b->host_bytes[IO_WRITE]);
    double absorbed = (double)(now->buf_absorbed_bytes - b->buf_absorbed_bytes);
    double stored = host > absorbed ? host - absorbed : 0;
    return stored > 0 ? nand / stored : NAN;
}

static FigValue get_waf(const RunResult *r, int arg)
{
    (void)arg;
    return f64v(report_waf(r->stats, NULL));
}

/* arg: group (0 pool, 1 static SLC) * 8 + what (blocks, erases, min, mean, max). */
static FigValue get_wear(const RunResult *r, int arg)
{
    const DriveWearGroup *g = arg / 8 ? &r->wear.static_slc : &r->wear.pool;
    switch (arg % 8) {
    case 0:
        return u64v(g->blocks);
    case 1:
        return u64v(g->erases);
    case 2:
        return u64v(g->blocks ? g->min : 0);
    case 3:
        return f64v(g->blocks ? (double)g->erases / g->blocks : 0.0);
    default:
        return u64v(g->max);
    }
}

/* Shares of the dies' and channels' time over the run (0 for a run of no
 * time); arg: a DieWork, or DIE_WORKS for idle. */
static double die_share(const RunResult *r, uint64_t ns)
{
    double t = r->sim_time_s * 1e9 * drive_params_dies(r->params);
    return t > 0 ? (double)ns / t : 0.0;
}

static FigValue get_die(const RunResult *r, int arg)
{
    if (arg < DIE_WORKS)
        return f64v(die_share(r, r->stats->die_busy_ns[arg]));
    uint64_t busy = 0;
    for (int k = 0; k < DIE_WORKS; k++)
        busy += r->stats->die_busy_ns[k];
    return f64v(1.0 - die_share(r, busy));
}

static FigValue get_channels(const RunResult *r, int arg)
{
    (void)arg;
    double t = r->sim_time_s * 1e9 * r->params->channels;
    return f64v(t > 0 ? (double)r->stats->chan_busy_ns / t : 0.0);
}

/* Share of the firmware cores' time busy over the run: arg a CtrlWork, or
 * CTRL_WORKS for all of it. */
static FigValue get_controller(const RunResult *r, int arg)
{
    double t = r->sim_time_s * 1e9 * MAX(1u, r->params->ctrl_cores);
    uint64_t busy = 0;
    for (int k = 0; k < CTRL_WORKS; k++)
        busy += arg == CTRL_WORKS || arg == k ? r->stats->ctrl_busy_ns[k] : 0;
    return f64v(t > 0 ? (double)busy / t : 0.0);
}

/* Over the whole run: arg IO_READ or IO_WRITE MB/s, IO_OPS: IOPS. */
static FigValue get_rate(const RunResult *r, int arg)
{
    const DriveStats *st = r->stats;
    double t = r->sim_time_s > 0 ? r->sim_time_s : NAN;
    if (arg == IO_OPS)
        return f64v((double)(st->host_ios[IO_READ] + st->host_ios[IO_WRITE]) / t);
    return f64v((double)st->host_bytes[arg] / 1e6 / t);
}

static const double lat_pcts[] = {50, 90, 99, 99.9, 99.99};

/* arg: op * 16 + what: 0 count, 1 mean, 2.. the percentiles, 7 max (us). */
static FigValue get_lat(const RunResult *r, int arg)
{
    const LatHist *h = workload_latency(r->workload, arg / 16);
    int what = arg % 16;
    if (what == 0)
        return u64v(lat_hist_count(h));
    if (what == 1)
        return f64v(lat_hist_mean(h) / 1e3);
    if (what == 7)
        return f64v((double)lat_hist_max(h) / 1e3);
    return f64v((double)lat_hist_percentile(h, lat_pcts[what - 2]) / 1e3);
}

/* The sweep table's latencies: empty without such I/O. arg: op * 16 + 0
 * mean or 1 p99. */
static FigValue get_sweep_lat(const RunResult *r, int arg)
{
    const LatHist *h = workload_latency(r->workload, arg / 16);
    if (!h || lat_hist_count(h) == 0)
        return nullv();
    if (arg % 16 == 0)
        return f64v(lat_hist_mean(h) / 1e3);
    return f64v((double)lat_hist_percentile(h, 99.0) / 1e3);
}

/* Mean microseconds per command in a part of its latency. arg: op * 16 +
 * part, or op * 16 + 15 for the commands counted. */
static FigValue get_part(const RunResult *r, int arg)
{
    const DriveStats *st = r->stats;
    gboolean rd = arg / 16 == IO_READ;
    uint64_t n = rd ? st->read_parts_n : st->write_parts_n;
    int k = arg % 16;
    if (k == 15)
        return u64v(n);
    const uint64_t *ns = rd ? st->read_parts_ns : st->write_parts_ns;
    return f64v(n ? (double)ns[k] / 1e3 / (double)n : 0.0);
}

static FigValue get_exhausted(const RunResult *r, int arg)
{
    (void)arg;
    uint64_t at = r->stats->pslc_first_exhausted;
    return at == UINT64_MAX ? nullv() : u64v(at);
}

enum { M_KIND, M_TABLE, M_CACHE, M_RATIO, M_PERCENT };
static FigValue get_map(const RunResult *r, int arg)
{
    static const char *const kinds[] = {"dram", "hmb", "sram"};
    const DriveParams *p = r->params;
    const DriveStats *st = r->stats;
    uint64_t lookups = st->l2p_hits + st->l2p_misses;
    switch (arg) {
    case M_KIND:
        return strv((unsigned)p->l2p_kind < G_N_ELEMENTS(kinds) ? kinds[p->l2p_kind] : "?");
    case M_TABLE:
        return u64v(drive_params_l2p_bytes(p));
    case M_CACHE: /* all of the table with DRAM */
        return u64v(p->l2p_kind == L2P_DRAM ? drive_params_l2p_bytes(p) : p->l2p_cache);
    case M_RATIO:
        return lookups ? f64v((double)st->l2p_hits / (double)lookups) : nullv();
    default:
        return lookups ? f64v(100.0 * (double)st->l2p_hits / (double)lookups) : nullv();
    }
}

static void json_jobs(const RunResult *r, JsonWriter *w, const char *key)
{
    (void)key; /* "jobs" */
    workload_write_jobs_json(r->workload, w);
}

static void json_config(const RunResult *r, JsonWriter *w, const char *key)
{
    (void)key; /* "drive_config" */
    config_write_json(r->params, w);
}

static double row_host_gb(const SeriesRow *row)
{
    return (double)row->host_write_bytes / 1e9;
}

/* ---- Filling a series row ------------------------------------------------- */

/* Each series.csv column's filler is named by its row of the table: it
 * computes the column's field of SeriesRow from the drive's counters at the
 * last row and now (a SeriesSample), arg as the row gives it. */

#define COUNTER(st, off) (*(const uint64_t *)((const char *)(st) + (off)))

static void fill_time(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    row->t_s = s->t_s;
}

/* A counter of DriveStats (at offset arg) as it is now. */
static void fill_u64(SeriesRow *row, const SeriesSample *s, size_t arg, size_t row_off)
{
    *(uint64_t *)((char *)row + row_off) = COUNTER(s->now, arg);
}

static void fill_host_write(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    fill_u64(row, s, arg, offsetof(SeriesRow, host_write_bytes));
}

static void fill_host_read(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    fill_u64(row, s, arg, offsetof(SeriesRow, host_read_bytes));
}

static void fill_free_blocks(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    fill_u64(row, s, arg, offsetof(SeriesRow, free_blocks));
}

static void fill_pslc_used(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    fill_u64(row, s, arg, offsetof(SeriesRow, pslc_used_bytes));
}

static void fill_pslc_limit(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    fill_u64(row, s, arg, offsetof(SeriesRow, pslc_limit_bytes));
}

/* MB/s over the interval of the counter at offset arg. */
static double mbps(const SeriesSample *s, size_t arg)
{
    return (double)(COUNTER(s->now, arg) - COUNTER(s->last, arg)) / 1e6 / s->dt;
}

static void fill_write_MBps(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    row->write_MBps = mbps(s, arg);
}

static void fill_read_MBps(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    row->read_MBps = mbps(s, arg);
}

static void fill_gc_MBps(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    row->gc_MBps = mbps(s, arg);
}

static void fill_fold_MBps(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    row->fold_MBps = mbps(s, arg);
}

static void fill_iops(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    const DriveStats *a = s->last, *b = s->now;
    row->iops = (double)(b->host_ios[IO_READ] + b->host_ios[IO_WRITE] - a->host_ios[IO_READ] -
                         a->host_ios[IO_WRITE]) / s->dt;
}

/* The dies' share of the interval spent on activity arg. */
static void fill_die(SeriesRow *row, const SeriesSample *s, size_t k)
{
    row->die_work[k] =
        (double)(s->now->die_busy_ns[k] - s->last->die_busy_ns[k]) / (s->dies * s->dt * 1e9);
}

static void fill_chan(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    row->chan_busy =
        (double)(s->now->chan_busy_ns - s->last->chan_busy_ns) / (s->channels * s->dt * 1e9);
}

static void fill_ctrl(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    uint64_t busy = 0;
    for (int w = 0; w < CTRL_WORKS; w++)
        busy += s->now->ctrl_busy_ns[w] - s->last->ctrl_busy_ns[w];
    row->ctrl_busy = (double)busy / (s->cores * s->dt * 1e9);
}

static void fill_wear_min(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    row->wear_min = s->now->wear_min;
}

static void fill_wear_max(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    row->wear_max = s->now->wear_max;
}

static void fill_wear_mean(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    row->wear_mean = s->pool_blocks > 0 ? (double)s->now->wear_erases / s->pool_blocks : 0;
}

static void fill_hit_ratio(SeriesRow *row, const SeriesSample *s, size_t arg)
{
    (void)arg;
    uint64_t hits = s->now->l2p_hits - s->last->l2p_hits;
    uint64_t misses = s->now->l2p_misses - s->last->l2p_misses;
    row->l2p_hit_ratio = hits + misses ? (double)hits / (double)(hits + misses) : NAN;
}

/* ---- The table ------------------------------------------------------------ */

/* The first five fields: summary.json group and key (or NULL and a name for
 * a figure not in summary.json), unit, meaning, outputs. */
#define FIG(group_, key_, unit_, about_, out_)                                                     \
    .group = (group_), .key = (key_), .unit = (unit_), .about = (about_), .out = (out_)
#define GET(fn, a) .get = (fn), .arg = (a)
#define STAT(field) .get = get_stat, .arg = (int)offsetof(DriveStats, field)
#define SERIES(col, name, kind, field, fmt)                                                        \
    .series_col = (col), .series = (name), .row = (kind), .row_off = offsetof(SeriesRow, field),   \
    .row_fmt = (fmt)
#define FILL(fn, a) .fill = (fn), .fill_arg = (a)
#define FILL_STAT(fn, field) FILL(fn, offsetof(DriveStats, field))
#define SWEEP(col, name, div, fmt)                                                                 \
    .sweep_col = (col), .sweep = (name), .sweep_div = (div), .sweep_fmt = (fmt)
#define TEXT(fmt, div, mul) .text_fmt = (fmt), .text_div = (div), .text_mul = (mul)
#define GB TEXT("%.3f", 1e9, 0)
#define TJ (OUT_JSON | OUT_TEXT)

/* clang-format off */

/* summary.json latency_us.DIR: count, mean, percentiles, max. */
#define LAT(dir, op, key_, w, about_) \
    {FIG("latency_us." dir, key_, "us", about_, TJ), GET(get_lat, (op) * 16 + (w)), TEXT("%10.1f", 0, 0)}
#define LATENCY(dir, op) \
    {FIG("latency_us." dir, "count", "I/Os", dir " commands completed", TJ), GET(get_lat, (op) * 16), \
     TEXT("%10" G_GUINT64_FORMAT, 0, 0)}, \
    LAT(dir, op, "mean", 1, "mean " dir " latency"), \
    LAT(dir, op, "p50", 2, dir " latency p50"), \
    LAT(dir, op, "p90", 3, dir " latency p90"), \
    LAT(dir, op, "p99", 4, dir " latency p99"), \
    LAT(dir, op, "p99.9", 5, dir " latency p99.9"), \
    LAT(dir, op, "p99.99", 6, dir " latency p99.99"), \
    LAT(dir, op, "max", 7, "longest " dir)

/* summary.json nand.wear.GROUP (g: 0 pool, 1 static SLC): blocks, erases. */
#define WEAR(name, g) \
    {FIG("nand.wear." name, "blocks", "blocks", "multi-plane blocks in the group", TJ), GET(get_wear, (g) * 8)}, \
    {FIG("nand.wear." name, "erases", "erases", "their erases, summed", OUT_JSON), GET(get_wear, (g) * 8 + 1)}

/* A part of the host reads' (writes') latency: mean us per command. */
#define PART(dir, op, k, name, about_) \
    {FIG("latency_us." dir "_parts", name, "us", about_, TJ), GET(get_part, (op) * 16 + (k)), TEXT("%.1f", 0, 0)}

/* utilization.dies.NAME over the run, and in series.csv over the interval. */
#define DIE(k, name, col, series_name, about_) \
    {FIG("utilization.dies", name, "0..1", about_, TJ | OUT_SERIES), GET(get_die, k), TEXT("%.1f", 0, 100), \
     SERIES(col, series_name, ROW_F64, die_work[k], "%.4f"), FILL(fill_die, k)}

/* utilization.controller_work.NAME: the cores' share over the run, by work. */
#define CTRL(k, name, about_) \
    {FIG("utilization.controller_work", name, "0..1", "share of the firmware cores' time " about_, OUT_JSON), \
     GET(get_controller, k)}

/* A series.csv latency percentile of the interval (--series-percentiles). */
#define SERIES_LAT(col, name, op, i, about_) \
    {FIG(NULL, name, "us", about_, OUT_SERIES | OUT_LATENCY), SERIES(col, name, ROW_F64, lat_us[op][i], "%.1f")}

static const ReportFigure table[] = {
    {FIG("", "ftlsim_version", "", "version of ftlsim that made the run", OUT_JSON), GET(get_version, 0)},
    {FIG("", "drive", "", "the drive's name", TJ), GET(get_text, S_DRIVE)},
    {FIG("", "drive_file", "", "the INI file given with --drive", TJ), GET(get_text, S_DRIVE_FILE)},
    {FIG("", "family_files", "", "the family files the drive file included, nearest first (absent without)",
         OUT_JSON), .json = json_family, .present = has_family},
    {FIG("", "overrides", "", "the --set options of the run, in order", OUT_JSON), .json = json_overrides},
    {FIG("", "workload", "", "the workload as normalised spec text", TJ), GET(get_text, S_WORKLOAD)},
    {FIG("trace", "format", "", "the trace format read", OUT_JSON), GET(get_trace, 0), .present = has_trace},
    {FIG("trace", "format_detected", "", "whether the format was detected from the content", OUT_JSON),
     GET(get_trace, 1), .present = has_trace},
    {FIG("trace", "header_skipped", "", "whether a header line was skipped", OUT_JSON), GET(get_trace, 2),
     .present = has_trace},
    {FIG("trace", "bad_lines_skipped", "lines", "malformed lines skipped", OUT_JSON), GET(get_trace, 3),
     .present = has_trace},
    {FIG("", "seed", "", "--seed", TJ), GET(get_run, R_SEED)},
    {FIG("", "prefill", "", "--prefill, or null", TJ), GET(get_text, S_PREFILL)},
    {FIG("", "interrupted", "", "SIGINT, SIGTERM or SIGHUP stopped the run (the sweep table: 1, else 0)",
         OUT_JSON | OUT_SWEEP), GET(get_run, R_INTERRUPTED), SWEEP(22, "interrupted", 0, NULL)},
    {FIG("", "sim_time_s", "s", "simulated time (series.csv: at the end of the interval)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_run, R_SIM_TIME), TEXT("%.3f", 0, 0),
     SERIES(1, "t_s", ROW_F64, t_s, "%.3f"), FILL(fill_time, 0), SWEEP(1, "sim_time_s", 0, "%.6f")},
    {FIG("", "wall_time_s", "s", "wall-clock time of the simulation", TJ), GET(get_run, R_WALL),
     TEXT("%.2f", 0, 0)},
    {FIG("", "setup_wall_s", "s", "wall-clock time before it: loading, --prefill, binding the workload", TJ),
     GET(get_run, R_SETUP_WALL), TEXT("%.2f", 0, 0)},
    {FIG("", "total_wall_s", "s", "wall-clock time of the run, set-up and simulation", TJ),
     GET(get_run, R_TOTAL_WALL), TEXT("%.2f", 0, 0)},
    {FIG("", "events", "", "engine events fired", TJ), GET(get_run, R_EVENTS)},
    {FIG("", "peak_rss_bytes", "bytes", "peak resident memory (summary.txt: MiB)", TJ), GET(get_run, R_RSS),
     TEXT("%.0f", 1048576.0, 0)},

    {FIG("host", "write_bytes", "bytes", "host data written (series.csv: so far)", TJ | OUT_SERIES | OUT_SWEEP),
     STAT(host_bytes[IO_WRITE]), GB, SERIES(2, "host_write_bytes", ROW_U64, host_write_bytes, NULL),
     FILL_STAT(fill_host_write, host_bytes[IO_WRITE]),
     SWEEP(2, "host_write_GB", 1e9, "%.6f")},
    {FIG("host", "read_bytes", "bytes", "host data read (series.csv: so far)", TJ | OUT_SERIES | OUT_SWEEP),
     STAT(host_bytes[IO_READ]), GB, SERIES(3, "host_read_bytes", ROW_U64, host_read_bytes, NULL),
     FILL_STAT(fill_host_read, host_bytes[IO_READ]),
     SWEEP(3, "host_read_GB", 1e9, "%.6f")},
    {FIG("host", "trim_bytes", "bytes", "host data trimmed", TJ), STAT(host_bytes[IO_TRIM]), GB},
    {FIG("host", "write_ios", "I/Os", "host writes completed", TJ), STAT(host_ios[IO_WRITE])},
    {FIG("host", "read_ios", "I/Os", "host reads completed", TJ), STAT(host_ios[IO_READ])},
    {FIG("host", "trim_ios", "I/Os", "host TRIMs completed", OUT_JSON), STAT(host_ios[IO_TRIM])},
    {FIG("host", "flush_ios", "I/Os", "host FLUSHes completed", OUT_JSON), STAT(host_ios[IO_FLUSH])},

    {FIG("nand.write_bytes", "total", "bytes", "NAND programmed, all causes", TJ | OUT_SWEEP),
     GET(get_nand_total, 0), GB, SWEEP(8, "nand_write_GB", 1e9, "%.6f")},
    {FIG("nand.write_bytes.by_cause", "host", "bytes", "NAND programmed for host data", TJ),
     STAT(nand_write_bytes[CAUSE_HOST]), GB},
    {FIG("nand.write_bytes.by_cause", "gc", "bytes", "NAND programmed by garbage collection", TJ | OUT_SWEEP),
     STAT(nand_write_bytes[CAUSE_GC]), GB, SWEEP(9, "gc_GB", 1e9, "%.6f")},
    {FIG("nand.write_bytes.by_cause", "fold", "bytes", "NAND programmed by folding", TJ | OUT_SWEEP),
     STAT(nand_write_bytes[CAUSE_FOLD]), GB, SWEEP(10, "fold_GB", 1e9, "%.6f")},
    {FIG("nand.write_bytes.by_cause", "map", "bytes", "NAND programmed for the mapping table", TJ),
     STAT(nand_write_bytes[CAUSE_MAP]), GB},
    {FIG("nand.write_bytes.by_cause", "rmw", "bytes",
         "NAND programmed for the rest of map units written in part", TJ),
     STAT(nand_write_bytes[CAUSE_RMW]), GB},
    {FIG(NULL, "gc_MBps", "MB/s", "garbage-collection relocation traffic in the interval", OUT_SERIES),
     SERIES(8, "gc_MBps", ROW_F64, gc_MBps, "%.2f"), FILL_STAT(fill_gc_MBps, nand_write_bytes[CAUSE_GC])},
    {FIG(NULL, "fold_MBps", "MB/s", "folding traffic (pSLC to native) in the interval", OUT_SERIES),
     SERIES(11, "fold_MBps", ROW_F64, fold_MBps, "%.2f"),
     FILL_STAT(fill_fold_MBps, nand_write_bytes[CAUSE_FOLD])},
    {FIG("nand", "read_bytes", "bytes", "NAND read", TJ), STAT(nand_read_bytes), GB},
    {FIG("nand", "rmw_read_bytes", "bytes", "of read_bytes: map units written in part, read to merge",
         TJ), STAT(rmw_read_bytes), GB},
    {FIG("nand", "erases", "blocks", "blocks erased", TJ | OUT_SWEEP), STAT(nand_erases),
     SWEEP(11, "erases", 0, NULL)},
    {FIG("nand", "gc_blocks", "blocks", "blocks reclaimed by GC", OUT_JSON), STAT(gc_blocks)},
    {FIG("nand", "free_blocks", "blocks", "free (erased) blocks (series.csv: at the end of the interval)",
         OUT_JSON | OUT_SERIES), STAT(free_blocks), SERIES(7, "free_blocks", ROW_U64, free_blocks, NULL),
     FILL_STAT(fill_free_blocks, free_blocks)},
    WEAR("pool", 0),
    {FIG("nand.wear.pool", "min", "erases", "fewest erases of a block (series.csv: so far)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_wear, 2),
     SERIES(22, "wear_min", ROW_U32, wear_min, NULL), FILL(fill_wear_min, 0), SWEEP(12, "wear_min", 0, NULL)},
    {FIG("nand.wear.pool", "mean", "erases", "mean erases of a block (series.csv: so far)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_wear, 3), TEXT("%.2f", 0, 0),
     SERIES(23, "wear_mean", ROW_F64, wear_mean, "%.4f"), FILL(fill_wear_mean, 0), SWEEP(13, "wear_mean", 0, "%.4f")},
    {FIG("nand.wear.pool", "max", "erases", "most erases of a block (series.csv: so far)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_wear, 4),
     SERIES(24, "wear_max", ROW_U32, wear_max, NULL), FILL(fill_wear_max, 0), SWEEP(14, "wear_max", 0, NULL)},
    WEAR("static_slc", 1),
    {FIG("nand.wear.static_slc", "min", "erases", "fewest erases of a block", TJ), GET(get_wear, 8 + 2)},
    {FIG("nand.wear.static_slc", "mean", "erases", "mean erases of a block", TJ), GET(get_wear, 8 + 3),
     TEXT("%.2f", 0, 0)},
    {FIG("nand.wear.static_slc", "max", "erases", "most erases of a block", TJ), GET(get_wear, 8 + 4)},
    {FIG("nand.wear", "static_moves", "blocks", "blocks of cold data moved by static wear leveling",
         TJ | OUT_SWEEP), STAT(wl_blocks), SWEEP(15, "static_moves", 0, NULL)},

    {FIG("write_buffer", "absorbed_bytes", "bytes", "host data overwritten or trimmed in the buffer", TJ),
     STAT(buf_absorbed_bytes), GB},
    {FIG("write_buffer", "held_at_end_bytes", "bytes", "host data in the buffer at the end (summary.txt: MB)",
         TJ), STAT(buf_held_bytes), TEXT("%.3f", 1e6, 0)},
    {FIG("", "waf", "ratio", "write amplification", TJ | OUT_SWEEP), GET(get_waf, 0), TEXT("%.3f", 0, 0),
     SWEEP(7, "waf", 0, "%.4f")},

    DIE(WORK_READ, "read", 15, "die_read", "share of the dies' time reading"),
    DIE(WORK_HOST, "host_program", 16, "die_host", "share of the dies' time programming host data"),
    DIE(WORK_GC, "gc", 17, "die_gc", "share of the dies' time relocating for GC"),
    DIE(WORK_FOLD, "fold", 18, "die_fold", "share of the dies' time folding"),
    DIE(WORK_ERASE, "erase", 19, "die_erase", "share of the dies' time erasing"),
    DIE(WORK_MAP, "map", 20, "die_map", "share of the dies' time writing translation pages"),
    {FIG("utilization.dies", "idle", "0..1", "share of the dies' time idle", TJ), GET(get_die, DIE_WORKS),
     TEXT("%.1f", 0, 100)},
    {FIG("utilization", "channels", "0..1", "share of the channels' time carrying data", TJ | OUT_SERIES),
     GET(get_channels, 0), TEXT("%.1f", 0, 100), SERIES(21, "chan_busy", ROW_F64, chan_busy, "%.4f"),
     FILL(fill_chan, 0)},
    {FIG("utilization", "controller", "0..1", "share of the firmware cores' time busy", TJ | OUT_SERIES),
     GET(get_controller, CTRL_WORKS), TEXT("%.1f", 0, 100), SERIES(25, "ctrl_busy", ROW_F64, ctrl_busy, "%.4f"),
     FILL(fill_ctrl, 0)},
    CTRL(CW_SUBMIT, "submit", "taking host commands in"),
    CTRL(CW_MAP, "map_update", "map updates of host writes"),
    CTRL(CW_COMPLETE, "complete", "posting completions"),
    CTRL(CW_MISS, "map_miss", "mapping-cache misses"),
    CTRL(CW_RELOCATE, "relocate", "GC and fold relocation"),
    CTRL(CW_TRIM, "trim", "TRIM work"),
    CTRL(CW_ERASE, "erase", "erase bookkeeping"),

    {FIG("throughput", "write_MBps", "MB/s", "host write rate (series.csv: over the interval)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_rate, IO_WRITE), TEXT("%.1f", 0, 0),
     SERIES(4, "write_MBps", ROW_F64, write_MBps, "%.2f"),
     FILL_STAT(fill_write_MBps, host_bytes[IO_WRITE]), SWEEP(4, "write_MBps", 0, "%.3f")},
    {FIG("throughput", "read_MBps", "MB/s", "host read rate (series.csv: over the interval)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_rate, IO_READ), TEXT("%.1f", 0, 0),
     SERIES(5, "read_MBps", ROW_F64, read_MBps, "%.2f"),
     FILL_STAT(fill_read_MBps, host_bytes[IO_READ]), SWEEP(5, "read_MBps", 0, "%.3f")},
    {FIG("throughput", "iops", "1/s", "host reads and writes per second (series.csv: over the interval)",
         TJ | OUT_SERIES | OUT_SWEEP), GET(get_rate, IO_OPS), TEXT("%.0f", 0, 0),
     SERIES(6, "iops", ROW_F64, iops, "%.1f"), FILL(fill_iops, 0), SWEEP(6, "iops", 0, "%.1f")},

    LATENCY("read", IO_READ),
    LATENCY("write", IO_WRITE),
    LATENCY("trim", IO_TRIM),
    {FIG("latency_us.read_parts", "count", "reads", "host reads in the parts", OUT_JSON),
     GET(get_part, IO_READ * 16 + 15)},
    PART("read", IO_READ, PART_FRONT, "front", "command over the link, controller"),
    PART("read", IO_READ, PART_MAP, "map", "translation"),
    PART("read", IO_READ, PART_DIE_WAIT, "die_wait", "the last NAND read waiting for its die"),
    PART("read", IO_READ, PART_NAND, "nand", "that NAND read"),
    PART("read", IO_READ, PART_BACK, "back", "data over the link to the host"),
    {FIG("latency_us.write_parts", "count", "writes", "host writes in the parts", OUT_JSON),
     GET(get_part, IO_WRITE * 16 + 15)},
    PART("write", IO_WRITE, WPART_FRONT, "front", "command over the link, controller"),
    PART("write", IO_WRITE, WPART_MERGE, "merge", "merging with partly written 4 KiB units"),
    PART("write", IO_WRITE, WPART_BUFFER, "buffer_wait", "waiting for room in the write buffer"),
    PART("write", IO_WRITE, WPART_DATA, "data", "data over the link into the buffer"),
    {FIG(NULL, "write_mean_us", "us", "mean write latency, empty without writes", OUT_SWEEP),
     GET(get_sweep_lat, IO_WRITE * 16), SWEEP(18, "write_mean_us", 0, "%.3f")},
    {FIG(NULL, "write_p99_us", "us", "write latency p99, empty without writes", OUT_SWEEP),
     GET(get_sweep_lat, IO_WRITE * 16 + 1), SWEEP(19, "write_p99_us", 0, "%.3f")},
    {FIG(NULL, "read_mean_us", "us", "mean read latency, empty without reads", OUT_SWEEP),
     GET(get_sweep_lat, IO_READ * 16), SWEEP(20, "read_mean_us", 0, "%.3f")},
    {FIG(NULL, "read_p99_us", "us", "read latency p99, empty without reads", OUT_SWEEP),
     GET(get_sweep_lat, IO_READ * 16 + 1), SWEEP(21, "read_p99_us", 0, "%.3f")},
    SERIES_LAT(26, "read_p50_us", IO_READ, 0, "read latency p50 of the interval"),
    SERIES_LAT(27, "read_p99_us", IO_READ, 1, "read latency p99 of the interval"),
    SERIES_LAT(28, "read_p999_us", IO_READ, 2, "read latency p99.9 of the interval"),
    SERIES_LAT(29, "write_p50_us", IO_WRITE, 0, "write latency p50 of the interval"),
    SERIES_LAT(30, "write_p99_us", IO_WRITE, 1, "write latency p99 of the interval"),
    SERIES_LAT(31, "write_p999_us", IO_WRITE, 2, "write latency p99.9 of the interval"),

    {FIG("pslc", "static_bytes", "bytes", "the static part of the pSLC cache", TJ), STAT(pslc_static),
     TEXT("%.2f", 1e9, 0)},
    {FIG("pslc", "limit_bytes", "bytes", "what the cache may hold (at the end, or of the interval)",
         TJ | OUT_SERIES), STAT(pslc_limit), TEXT("%.2f", 1e9, 0),
     SERIES(10, "pslc_limit_bytes", ROW_U64, pslc_limit_bytes, NULL),
     FILL_STAT(fill_pslc_limit, pslc_limit)},
    {FIG("pslc", "limit_start_bytes", "bytes", "what the cache could hold at the start", TJ | OUT_SWEEP),
     STAT(pslc_limit_start), TEXT("%.2f", 1e9, 0), SWEEP(16, "pslc_start_GB", 1e9, "%.6f")},
    {FIG("pslc", "used_bytes", "bytes", "host data in SLC blocks (at the end, or of the interval)",
         TJ | OUT_SERIES), STAT(pslc_used), TEXT("%.2f", 1e9, 0),
     SERIES(9, "pslc_used_bytes", ROW_U64, pslc_used_bytes, NULL),
     FILL_STAT(fill_pslc_used, pslc_used)},
    {FIG("pslc", "host_slc_bytes", "bytes", "host data written in SLC mode", TJ), STAT(host_slc_bytes),
     TEXT("%.2f", 1e9, 0)},
    {FIG("pslc", "first_exhausted_at_host_bytes", "bytes",
         "host bytes written when the cache first ran out (null: never)", TJ | OUT_SWEEP),
     GET(get_exhausted, 0), TEXT("%.2f", 1e9, 0), SWEEP(17, "pslc_exhausted_at_GB", 1e9, "%.6f")},

    {FIG("mapping_cache", "kind", "", "dram, hmb or sram", TJ), GET(get_map, M_KIND)},
    {FIG("mapping_cache", "table_bytes", "bytes", "the whole L2P table (summary.txt: MiB)", TJ),
     GET(get_map, M_TABLE), TEXT("%.2f", 1048576.0, 0)},
    {FIG("mapping_cache", "cache_bytes", "bytes", "the part the controller holds (summary.txt: MiB)", TJ),
     GET(get_map, M_CACHE), TEXT("%.2f", 1048576.0, 0)},
    {FIG("mapping_cache", "hits", "", "mapping-cache lookups that hit", TJ), STAT(l2p_hits)},
    {FIG("mapping_cache", "misses", "", "mapping-cache lookups that missed", TJ), STAT(l2p_misses)},
    {FIG("mapping_cache", "writebacks", "", "translation pages written back", TJ), STAT(l2p_writebacks)},
    {FIG("mapping_cache", "hit_ratio", "0..1", "hits / (hits + misses) (series.csv: of the interval)",
         OUT_JSON | OUT_SERIES), GET(get_map, M_RATIO),
     SERIES(12, "l2p_hit_ratio", ROW_F64, l2p_hit_ratio, "%.4f"), FILL(fill_hit_ratio, 0)},
    {FIG("mapping_cache", "hit_percent", "%", "100 x hits / (hits + misses)", OUT_TEXT),
     GET(get_map, M_PERCENT), TEXT("%.1f", 0, 0)},

    {FIG(NULL, "phase", "", "the interval's kind (idle, pslc, folding, native, gc, read)", OUT_SERIES),
     SERIES(13, "phase", ROW_PHASE, phase, NULL)},
    {FIG(NULL, "host_written_GB", "GB", "host data written so far", OUT_SERIES),
     .series_col = 14, .series = "host_written_GB", .row = ROW_FN, .row_fn = row_host_gb, .row_fmt = "%.4f"},
    {FIG("", "phases", "", "the phases, as in phases.csv", OUT_JSON), .json = report_phases_json},
    {FIG("", "steady_state", "", "the ss=pts job's rounds and steady window", OUT_JSON),
     .json = report_steady_json, .present = has_steady},
    {FIG("", "fdp", "", "FDP statistics: the log's host and media bytes, per handle its bytes "
         "and write amplification", OUT_JSON), .json = report_fdp_json, .present = report_has_fdp},
    {FIG("", "zns", "", "zoned drive: zones by state, zone commands, their latency and their errors by NVMe status",
         OUT_JSON), .json = report_zns_json, .present = report_has_zns},
    {FIG("", "jobs", "", "per job: options, results", OUT_JSON), .json = json_jobs},
    {FIG("", "drive_config", "", "the resolved drive", OUT_JSON), .json = json_config},
};

/* clang-format on */

const ReportFigure *report_table(size_t *n)
{
    *n = G_N_ELEMENTS(table);
    return table;
}

/* Columns by number, computed once. */
typedef struct Columns {
    const ReportFigure *series[G_N_ELEMENTS(table) + 1];
    const ReportFigure *series_lat[G_N_ELEMENTS(table) + 1];
    const ReportFigure *sweep[G_N_ELEMENTS(table) + 1];
} Columns;

static int cmp_series(const void *a, const void *b)
{
    return (*(const ReportFigure *const *)a)->series_col -
           (*(const ReportFigure *const *)b)->series_col;
}

static int cmp_sweep(const void *a, const void *b)
{
    return (*(const ReportFigure *const *)a)->sweep_col -
           (*(const ReportFigure *const *)b)->sweep_col;
}

static const Columns *columns(void)
{
    static Columns c;
    static gsize done;
    if (g_once_init_enter(&done)) {
        size_t ns = 0, nl = 0, nw = 0;
        for (size_t i = 0; i < G_N_ELEMENTS(table); i++) {
            const ReportFigure *f = &table[i];
            if (f->out & OUT_SERIES) {
                c.series_lat[nl++] = f;
                if (!(f->out & OUT_LATENCY))
                    c.series[ns++] = f;
            }
            if (f->out & OUT_SWEEP)
                c.sweep[nw++] = f;
        }
        qsort(c.series, ns, sizeof(c.series[0]), cmp_series);
        qsort(c.series_lat, nl, sizeof(c.series_lat[0]), cmp_series);
        qsort(c.sweep, nw, sizeof(c.sweep[0]), cmp_sweep);
        g_once_init_leave(&done, 1);
    }
    return &c;
}

const ReportFigure *const *report_series_columns(gboolean latency)
{
    return latency ? columns()->series_lat : columns()->series;
}

const ReportFigure *const *report_sweep_columns(void)
{
    return columns()->sweep;
}

int report_sweep_column(const char *name)
{
    const ReportFigure *const *cols = report_sweep_columns();
    for (int i = 0; cols[i]; i++)
        if (strcmp(cols[i]->sweep, name) == 0)
            return i;
    return -1;
}

/* Whether f's summary.json path (group.key) is path. */
static gboolean path_is(const ReportFigure *f, const char *path)
{
    if (!f->group)
        return FALSE;
    size_t g = strlen(f->group);
    if (g == 0)
        return strcmp(f->key, path) == 0;
    return strncmp(path, f->group, g) == 0 && path[g] == '.' && strcmp(path + g + 1, f->key) == 0;
}

const ReportFigure *report_figure(const char *path)
{
    for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
        if (path_is(&table[i], path))
            return &table[i];
    return NULL;
}

FigValue report_figure_value(const ReportFigure *f, const RunResult *r)
{
    return f->get ? f->get(r, f->arg) : nullv();
}

void report_series_fill(SeriesRow *row, const SeriesSample *s)
{
    for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
        if (table[i].fill)
            table[i].fill(row, s, table[i].fill_arg);
}

void report_series_cell(FILE *out, const ReportFigure *f, const SeriesRow *row)
{
    const char *p = (const char *)row + f->row_off;
    double v;
    switch (f->row) {
    case ROW_U64:
        fprintf(out, "%" G_GUINT64_FORMAT, *(const uint64_t *)p);
        return;
    case ROW_U32:
        fprintf(out, "%u", *(const uint32_t *)p);
        return;
    case ROW_PHASE:
        fputs(drive_phase_name(*(const DrivePhase *)p), out);
        return;
    case ROW_FN:
        v = f->row_fn(row);
        break;
    default:
        v = *(const double *)p;
        break;
    }
    /* an interval without such I/O (or lookups) leaves it empty, as gnuplot skips it */
    if (isfinite(v))
        fprintf(out, f->row_fmt, v);
}

void report_sweep_cell(GString *out, const ReportFigure *f, const RunResult *r)
{
    FigValue v = report_figure_value(f, r);
    if (v.kind == FIG_NULL)
        return;
    if ((v.kind == FIG_U64 || v.kind == FIG_BOOL) && !f->sweep_fmt) {
        g_string_append_printf(out, "%" G_GUINT64_FORMAT, v.u);
        return;
    }
    double d = v.kind == FIG_U64 ? (double)v.u : v.f;
    if (f->sweep_div)
        d = d / f->sweep_div;
    if (isfinite(d))
        g_string_append_printf(out, f->sweep_fmt, d);
}

void report_text_value(GString *out, const ReportFigure *f, const RunResult *r)
{
    FigValue v = report_figure_value(f, r);
    switch (v.kind) {
    case FIG_NULL:
        return;
    case FIG_STR:
        g_string_append(out, v.s ? v.s : "");
        return;
    case FIG_BOOL:
        g_string_append(out, v.u ? "yes" : "no");
        return;
    case FIG_U64:
        if (!f->text_div && !f->text_mul) {
            g_string_append_printf(out, f->text_fmt ? f->text_fmt : "%" G_GUINT64_FORMAT, v.u);
            return;
        }
        v.f = (double)v.u;
        break;
    case FIG_F64:
        break;
    }
    double d = v.f;
    if (f->text_mul)
        d = f->text_mul * d;
    if (f->text_div)
        d = d / f->text_div;
    g_string_append_printf(out, f->text_fmt ? f->text_fmt : "%g", d);
}

static gboolean check_columns(const ReportFigure *const *cols, gboolean series, char *why,
                              size_t why_len)
{
    for (int i = 0; cols[i]; i++) {
        const ReportFigure *f = cols[i];
        int col = series ? f->series_col : f->sweep_col;
        const char *name = series ? f->series : f->sweep;
        if (col != i + 1 || !name) {
            g_snprintf(why, why_len, "%s column %d is %s (number %d), expected number %d",
                       series ? "series.csv" : "sweep", i + 1, name ? name : f->key, col, i + 1);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean report_table_check(char *why, size_t why_len)
{
    for (size_t i = 0; i < G_N_ELEMENTS(table); i++) {
        const ReportFigure *f = &table[i];
        const char *bad = NULL;
        if (!!(f->out & OUT_SERIES) != !!f->series || !!(f->out & OUT_SERIES) != !!f->series_col)
            bad = "a series.csv name and column exactly when OUT_SERIES";
        else if ((f->row == ROW_F64 || f->row == ROW_FN) && f->series && !f->row_fmt)
            bad = "a format for its series.csv column";
        else if (f->series && !(f->out & OUT_LATENCY) && f->row != ROW_PHASE &&
                 f->row != ROW_FN && !f->fill)
            bad = "a filler for its series.csv column (FILL)";
        else if (f->fill && !f->series)
            bad = "no filler, as it is not in series.csv";
        else if (!!(f->out & OUT_SWEEP) != !!f->sweep || !!(f->out & OUT_SWEEP) != !!f->sweep_col)
            bad = "a sweep name and column exactly when OUT_SWEEP";
        else if ((f->out & (OUT_JSON | OUT_TEXT)) && !f->group)
            bad = "a summary.json group";
        else if ((f->out & (OUT_JSON | OUT_TEXT | OUT_SWEEP)) && !f->get && !f->json)
            bad = "a way to get its value";
        else if (!(f->out & OUT_TEXT) && (f->text_fmt || f->text_div || f->text_mul))
            bad = "no text format, as it is not in summary.txt";
        else if (!f->unit || !f->about || !f->about[0])
            bad = "a unit and a description";
        if (bad) {
            g_snprintf(why, why_len, "figure %s needs %s", f->key, bad);
            return FALSE;
        }
        for (size_t j = 0; j < i; j++)
            if (f->group && table[j].group && strcmp(f->group, table[j].group) == 0 &&
                strcmp(f->key, table[j].key) == 0) {
                g_snprintf(why, why_len, "figure %s.%s appears twice", f->group, f->key);
                return FALSE;
            }
    }
    return check_columns(report_series_columns(TRUE), TRUE, why, why_len) &&
           check_columns(report_sweep_columns(), FALSE, why, why_len);
}
