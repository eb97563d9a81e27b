/*
 * run.c - one simulation run, from inputs to results folder.
 *
 * Order matters for the "no partial output" rule: the drive file, the
 * workload and the options are all checked (and the workload bound to the
 * drive) before the results folder is opened; everything is written to
 * temporary names and renamed only when the run succeeded.
 */
#include "sim/cmd/run.h"

#include "sim/cmd/version.h"
#include "sim/config/config.h"
#include "sim/output/fio_json.h"
#include "sim/output/outdir.h"
#include "sim/output/progress.h"
#include "sim/output/report.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The signal (SIGINT, SIGTERM) that asked the run to stop; 0: none. */
static volatile sig_atomic_t run_signal;

static void on_signal(int sig)
{
    run_signal = sig;
}

int run_interrupt_signal(void)
{
    return run_signal;
}

void run_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second signal ends the process at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* clang-format off */
G_DEFINE_QUARK(ftlsim-run-error-quark, run_error)
/* clang-format on */

void run_options_init(RunOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->trace_opt.device = -1;
    o->replay.mode = REPLAY_OPEN;
    o->replay.time_scale = 1.0;
    o->replay.iodepth = 32;
    o->replay.lba_map = LBA_ERROR;
    o->seed = 1;
    o->interval = SIM_SEC / 2;
    o->plot_format = PLOT_PNG;
    o->script_dir = FTLSIM_SOURCE_DIR "/scripts/plot";
}

typedef struct Run {
    const RunOptions *o;
    SimEngine *e;
    Drive *d;
    Workload *w;
    DriveStats last;  /* counters at the last row */
    double dies, channels;
    double pool_blocks; /* blocks outside the static SLC part */
    double last_t;    /* s */
    uint64_t next_bytes; /* bytes mode: next row when host writes pass this */
    GArray *rows;
    FILE *series;     /* in the results folder, or NULL */
    FILE *live_csv;
    PlotLive *live;
    Progress *progress;
    LatHist *ivl[2];  /* --series-percentiles: this interval's read, write latencies */
    gboolean finished;
    gboolean interrupted; /* stopped by a signal: the results so far */
    gboolean too_many_rows; /* stopped at RUN_ROWS_MAX rows */
    gboolean stalled;       /* stopped: nothing left to happen, or commands held past --max-time */
    double *round_host, *round_nand; /* ss=pts: bytes written at each round boundary */
} Run;

/* Stop the engine: the run ends here, whole or not. */
static void run_stop(Run *r)
{
    r->finished = TRUE;
    sim_stop(r->e);
}

static void target_submit(void *ctx, IoOp op, uint64_t offset, uint64_t length, uint64_t tag)
{
    drive_submit(ctx, op, offset, length, tag);
}

static void target_warm(void *ctx, uint64_t offset)
{
    drive_warm(ctx, offset);
}

static uint64_t target_lookup(void *ctx, uint64_t lpn)
{
    return drive_lookup(ctx, lpn);
}

static FILE *log_open(void *ctx, const char *name, GError **error)
{
    return outdir_create(ctx, name, error);
}

static gboolean log_close(void *ctx, FILE *f, GError **error)
{
    return outdir_close_file(ctx, f, error);
}

/* What the run prints: the summary, or fio's JSON (--output-format), on
 * stdout or into --output FILE. */
static gboolean print_results(const RunOptions *o, const RunResult *res, GError **error)
{
    g_autoptr(GString) text = g_string_new(NULL);
    if (o->output_format == RUN_OUTPUT_NORMAL) {
        report_summary_text(res, text);
        if (o->out)
            g_string_append_printf(text, "results   %s\n", o->out);
    } else {
        fio_json_write(res->workload, ftlsim_version(), o->output_format == RUN_OUTPUT_JSON_PLUS,
                       text);
    }
    if (!o->output) {
        fputs(text->str, stdout);
        return TRUE;
    }
    GError *err = NULL;
    if (!g_file_set_contents(o->output, text->str, (gssize)text->len, &err)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--output \"%s\": %s", o->output,
                    err->message);
        g_error_free(err);
        return FALSE;
    }
    return TRUE;
}

/* What the drive did with host writes over an interval; busy is the
 * dies' busy share in it (an interval without host writes is idle only
 * when the dies are: a host held up while the dies fold or collect is not
 * idle). */
static DrivePhase classify(const DriveStats *a, const DriveStats *b, double busy)
{
    uint64_t host_w = b->host_bytes[IO_WRITE] - a->host_bytes[IO_WRITE];
    uint64_t nand_host = b->nand_write_bytes[CAUSE_HOST] - a->nand_write_bytes[CAUSE_HOST];
    uint64_t slc = b->host_slc_bytes - a->host_slc_bytes;
    uint64_t gc = b->nand_write_bytes[CAUSE_GC] - a->nand_write_bytes[CAUSE_GC];
    uint64_t fold = b->nand_write_bytes[CAUSE_FOLD] - a->nand_write_bytes[CAUSE_FOLD];
    if (host_w == 0 && nand_host == 0) {
        uint64_t host_r = b->host_bytes[IO_READ] - a->host_bytes[IO_READ];
        if ((fold || gc) && busy >= 0.5)
            return fold >= gc ? PHASE_FOLDING : PHASE_GC;
        if (host_r)
            return PHASE_READ;
        return busy < 0.5 ? PHASE_IDLE : PHASE_GC;
    }
    if (2 * slc > nand_host)
        return PHASE_PSLC;
    if (fold > 0)
        return PHASE_FOLDING;
    if (4 * gc > nand_host) /* GC moves more than a quarter of what the host writes */
        return PHASE_GC;
    return PHASE_NATIVE;
}

static void record_latency(void *ctx, IoOp op, uint64_t ns)
{
    Run *r = ctx;
    if (op == IO_READ || op == IO_WRITE)
        lat_hist_record(r->ivl[op], ns);
}

/* The interval's latency percentiles into row, and a fresh interval. */
static void row_latency(Run *r, SeriesRow *row)
{
    row->has_latency = TRUE;
    for (int op = 0; op < 2; op++) {
        for (int i = 0; i < REPORT_SERIES_PCTS; i++)
            row->lat_us[op][i] =
                lat_hist_count(r->ivl[op])
                    ? (double)lat_hist_percentile(r->ivl[op], report_series_pcts[i]) / 1e3
                    : NAN;
        lat_hist_reset(r->ivl[op]);
    }
}

/* Close the interval ending now: one series row. */
static void take_row(Run *r)
{
    drive_account(r->d);
    const DriveStats *st = drive_stats(r->d);
    double t = (double)sim_now(r->e) / 1e9;
    double dt = t - r->last_t;
    if (dt <= 0)
        return;
    SeriesRow row = {
        .t_s = t,
        .host_write_bytes = st->host_bytes[IO_WRITE],
        .host_read_bytes = st->host_bytes[IO_READ],
        .write_MBps = (double)(st->host_bytes[IO_WRITE] - r->last.host_bytes[IO_WRITE]) / 1e6 / dt,
        .read_MBps = (double)(st->host_bytes[IO_READ] - r->last.host_bytes[IO_READ]) / 1e6 / dt,
        .iops = (double)(st->host_ios[IO_READ] + st->host_ios[IO_WRITE] - r->last.host_ios[IO_READ] -
                         r->last.host_ios[IO_WRITE]) / dt,
        .free_blocks = st->free_blocks,
        .gc_MBps = (double)(st->nand_write_bytes[CAUSE_GC] - r->last.nand_write_bytes[CAUSE_GC]) / 1e6 / dt,
        .fold_MBps = (double)(st->nand_write_bytes[CAUSE_FOLD] - r->last.nand_write_bytes[CAUSE_FOLD]) / 1e6 / dt,
        .pslc_used_bytes = st->pslc_used,
        .pslc_limit_bytes = st->pslc_limit,
    };
    double busy = 0;
    for (int w = 0; w < DIE_WORKS; w++) {
        row.die_work[w] =
            (double)(st->die_busy_ns[w] - r->last.die_busy_ns[w]) / (r->dies * dt * 1e9);
        busy += row.die_work[w];
    }
    row.phase = classify(&r->last, st, busy);
    row.chan_busy = (double)(st->chan_busy_ns - r->last.chan_busy_ns) / (r->channels * dt * 1e9);
    uint64_t ctrl = 0;
    for (int w = 0; w < CTRL_WORKS; w++)
        ctrl += st->ctrl_busy_ns[w] - r->last.ctrl_busy_ns[w];
    row.ctrl_busy = (double)ctrl / (MAX(1u, drive_params(r->d)->ctrl_cores) * dt * 1e9);
    row.wear_min = st->wear_min;
    row.wear_max = st->wear_max;
    row.wear_mean = r->pool_blocks > 0 ? (double)st->wear_erases / r->pool_blocks : 0;
    uint64_t hits = st->l2p_hits - r->last.l2p_hits, misses = st->l2p_misses - r->last.l2p_misses;
    row.l2p_hit_ratio = hits + misses ? (double)hits / (double)(hits + misses) : NAN;
    if (r->ivl[0])
        row_latency(r, &row);
    if (r->rows->len >= RUN_ROWS_MAX) {
        r->too_many_rows = TRUE;
        run_stop(r);
        return;
    }
    g_array_append_val(r->rows, row);
    if (r->series)
        report_series_row(r->series, &row);
    if (r->live_csv) {
        report_series_row(r->live_csv, &row);
        fflush(r->live_csv);
        plot_live_update(r->live);
    }
    r->last = *st;
    r->last_t = t;
}

static void show_progress(Run *r)
{
    if (!r->progress)
        return;
    const SeriesRow *row = r->rows->len ? &g_array_index(r->rows, SeriesRow, r->rows->len - 1) : NULL;
    ProgressInfo info = {
        .fraction = workload_progress(r->w),
        .sim_time_s = (double)sim_now(r->e) / 1e9,
        .host_written_gb = (double)drive_stats(r->d)->host_bytes[IO_WRITE] / 1e9,
        .write_mbps = row ? row->write_MBps : 0,
        .phase = drive_phase_name(row ? row->phase : PHASE_IDLE),
    };
    progress_update(r->progress, &info);
}

/* The run cannot end: nothing is left to happen but the next tick (the
 * engine would have run dry, but the ticks go on and on, advancing the
 * clock), or --max-time stopped the jobs and the drive has held commands
 * for RUN_DRAIN_MAX since. */
static gboolean run_stuck(const Run *r)
{
    if (sim_pending(r->e) == 0)
        return TRUE;
    return r->o->max_time && sim_now(r->e) >= r->o->max_time + RUN_DRAIN_MAX &&
           drive_outstanding(r->d) > 0;
}

static void tick(void *ctx, uint64_t arg)
{
    Run *r = ctx;
    (void)arg;
    if (r->finished)
        return;
    if (run_signal) {
        r->interrupted = TRUE;
        run_stop(r);
        return;
    }
    if (workload_finished(r->w)) {
        /* it ended without a completion to notice it: a trace that failed
         * to read, or a phase that submitted nothing */
        r->finished = TRUE;
        sim_stop(r->e);
        return;
    }
    if (run_stuck(r)) {
        r->stalled = TRUE;
        run_stop(r);
        return;
    }
    if (r->o->interval_bytes == 0)
        take_row(r);
    show_progress(r);
    sim_schedule_in(r->e, r->o->interval, tick, r, 0);
}

static void io_done(void *ctx, uint64_t tag)
{
    Run *r = ctx;
    workload_io_done(r->w, tag);
    if (r->o->interval_bytes && drive_stats(r->d)->host_bytes[IO_WRITE] >= r->next_bytes) {
        take_row(r);
        r->next_bytes = (drive_stats(r->d)->host_bytes[IO_WRITE] / r->o->interval_bytes + 1) *
                        r->o->interval_bytes;
    }
    if (workload_finished(r->w)) {
        r->finished = TRUE;
        sim_stop(r->e);
    } else if (run_signal) {
        r->interrupted = TRUE;
        run_stop(r);
    }
}

/* The ss=pts job's round boundary: the drive's write counters. */
static void on_round(void *ctx, uint32_t round)
{
    Run *r = ctx;
    const DriveStats *st = drive_stats(r->d);
    uint64_t nand = 0;
    for (int c = 0; c < CAUSES; c++)
        nand += st->nand_write_bytes[c];
    r->round_host[round] = (double)st->host_bytes[IO_WRITE];
    r->round_nand[round] = (double)nand;
}

/* What the ss=pts job's rounds came to; FALSE when there is none. */
static gboolean steady_result(const Run *r, RunSteady *s, LatHist *lat)
{
    if (!r->round_host || !workload_steady(r->w, &s->ws))
        return FALSE;
    const SteadyWindow *win = &s->ws.win;
    s->host_bytes = r->round_host;
    s->nand_bytes = r->round_nand;
    s->window_waf = NAN;
    s->window_lat = NULL;
    if (win->last == 0)
        return TRUE;
    double host = r->round_host[win->last] - r->round_host[win->first - 1];
    if (host > 0)
        s->window_waf = (r->round_nand[win->last] - r->round_nand[win->first - 1]) / host;
    if (workload_steady_latency(r->w, (uint32_t)win->first, (uint32_t)win->last, lat))
        s->window_lat = lat;
    return TRUE;
}

static uint64_t peak_rss(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * 1024 : 0;
}

gboolean run_parse_prefill(const char *spec, DrivePrefill *pf, GError **error)
{
    memset(pf, 0, sizeof(*pf));
    g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
    char *end = NULL;
    double pct = parts[0] ? g_ascii_strtod(parts[0], &end) : 0;
    if (!parts[0] || end == parts[0] || g_strcmp0(end, "%") != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--prefill \"%s\": found \"%s\", expected a fill such as 90%% "
                    "(PCT%%[:random][:slc=SIZE])", spec, parts[0] ? parts[0] : "");
        return FALSE;
    }
    if (!(pct >= 0 && pct <= 100)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--prefill \"%s\": found %s, expected a fill from 0%% to 100%%", spec, parts[0]);
        return FALSE;
    }
    pf->fill = pct / 100.0;
    for (int i = 1; parts[i]; i++) {
        GError *e = NULL;
        if (strcmp(parts[i], "random") == 0) {
            pf->random = true;
        } else if (g_str_has_prefix(parts[i], "slc=")) {
            if (!workload_parse_bytes(parts[i] + 4, 1000, &pf->slc_bytes, &e)) {
                g_clear_error(&e);
                g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                            "--prefill \"%s\": found \"%s\", expected a size such as slc=10GB",
                            spec, parts[i]);
                return FALSE;
            }
        } else {
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "--prefill \"%s\": found \"%s\", expected random or slc=SIZE", spec,
                        parts[i]);
            return FALSE;
        }
    }
    return TRUE;
}

/* Age the drive as --prefill asks; the SLC part must fit the cache. */
static gboolean prefill_drive(const RunOptions *o, Drive *d, const DrivePrefill *pf, GError **error)
{
    if (!drive_prefill(d, pf)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "--prefill \"%s\": the drive cannot hold it",
                    o->prefill);
        return FALSE;
    }
    uint64_t pages = (uint64_t)(pf->fill * (double)(drive_capacity(d) / 4096) + 0.5);
    uint64_t want = MIN((pf->slc_bytes + 4095) / 4096, pages) * 4096;
    uint64_t got = drive_stats(d)->pslc_used;
    if (got < want) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--prefill \"%s\": found room for %.3f GB in the pSLC cache, expected the "
                    "%.3f GB asked for (this drive's cache at this fill holds less)",
                    o->prefill, (double)got / 1e9, (double)want / 1e9);
        return FALSE;
    }
    return TRUE;
}

static gboolean load_workload(const RunOptions *o, Workload **w, GError **error)
{
    int sources = (o->spec != NULL) + (o->job != NULL) + (o->trace != NULL);
    if (sources != 1) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    sources ? "give only one of --workload, --job and --trace"
                            : "no workload: give --workload SPEC, --job FILE or --trace FILE");
        return FALSE;
    }
    if (o->spec)
        *w = workload_from_spec(o->spec, error);
    else if (o->job)
        *w = workload_from_jobfile(o->job, error);
    else
        *w = workload_from_trace(o->trace, &o->trace_opt, &o->replay, error);
    return *w != NULL;
}

static gboolean write_results(Run *r, OutDir *od, const RunResult *res, GError **error)
{
    g_autoptr(JsonWriter) jw = json_writer_new();
    report_summary_json(res, jw);
    if (!outdir_write_text(od, "summary.json", json_writer_str(jw), error))
        return FALSE;
    g_autoptr(GString) text = g_string_new(NULL);
    report_summary_text(res, text);
    if (!outdir_write_text(od, "summary.txt", text->str, error))
        return FALSE;
    g_autoptr(GString) phases = g_string_new(NULL);
    report_phases_csv(res, phases);
    if (!outdir_write_text(od, "phases.csv", phases->str, error))
        return FALSE;
    static const struct {
        const char *name;
        IoOp op;
    } lat[] = {{"latency_read.csv", IO_READ}, {"latency_write.csv", IO_WRITE}};
    for (unsigned i = 0; i < G_N_ELEMENTS(lat); i++) {
        FILE *f = outdir_create(od, lat[i].name, error);
        if (!f)
            return FALSE;
        lat_hist_write_csv(workload_latency(r->w, lat[i].op), f);
        if (!outdir_close_file(od, f, error))
            return FALSE;
    }
    if (res->steady) {
        g_autoptr(GString) steady = g_string_new(NULL);
        report_steady_csv(res->steady, steady);
        if (!outdir_write_text(od, "steady_state.csv", steady->str, error))
            return FALSE;
    }
    if (r->o->sweep_row_file) {
        g_autoptr(GString) row = g_string_new(report_sweep_header());
        g_string_append_c(row, '\n');
        report_sweep_row(res, row);
        if (!outdir_write_text(od, "sweep-row.csv", row->str, error))
            return FALSE;
    }
    FILE *series = r->series;
    r->series = NULL;
    return outdir_close_file(od, series, error);
}

static gboolean run_engine(Run *r, GError **error)
{
    workload_start(r->w);
    /* a workload with nothing to submit (an empty trace, a first record in
     * error) completes no command: it is finished already */
    r->finished = workload_finished(r->w);
    sim_schedule_in(r->e, r->o->interval, tick, r, 0);
    while (!r->finished) {
        if (!sim_run(r->e, SIM_TIME_MAX) && !r->finished) {
            r->stalled = TRUE;
            break;
        }
    }
    const RunOptions *o = r->o;
    if (r->stalled && o->max_time && sim_now(r->e) >= o->max_time + RUN_DRAIN_MAX) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "--max-time %g s: the drive still had %u command%s in flight at %.3f s "
                    "simulated, %g s after the jobs stopped (longer than a host waits for a "
                    "command)", (double)o->max_time / 1e9, drive_outstanding(r->d),
                    drive_outstanding(r->d) == 1 ? "" : "s", (double)sim_now(r->e) / 1e9,
                    (double)RUN_DRAIN_MAX / 1e9);
        return FALSE;
    }
    if (r->stalled) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "the simulation stalled at %.6f s with %u commands outstanding",
                    (double)sim_now(r->e) / 1e9, drive_outstanding(r->d));
        return FALSE;
    }
    if (r->too_many_rows) {
        g_autofree char *by = o->interval_bytes
                                  ? g_strdup_printf("--interval-bytes %" G_GUINT64_FORMAT " bytes",
                                                    o->interval_bytes)
                                  : g_strdup_printf("--interval %g s", (double)o->interval / 1e9);
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: the run reached %d series rows at %.3f s simulated and had not ended; "
                    "expected at most %d rows (a longer interval, or a workload that ends sooner)",
                    by, RUN_ROWS_MAX, (double)sim_now(r->e) / 1e9, RUN_ROWS_MAX);
        return FALSE;
    }
    GError *werr = NULL;
    if (!r->interrupted && workload_error(r->w, &werr)) {
        /* a verify mismatch or a job below its rate_min is the simulation's
         * failure, not bad input */
        if (g_error_matches(werr, WORKLOAD_ERROR, WORKLOAD_ERROR_VERIFY) ||
            g_error_matches(werr, WORKLOAD_ERROR, WORKLOAD_ERROR_RATE)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "%s", werr->message);
            g_error_free(werr);
        } else {
            g_propagate_error(error, werr);
        }
        return FALSE;
    }
    if (r->rows->len < RUN_ROWS_MAX)
        take_row(r); /* the last, partial interval */
    return TRUE;
}

/* What the user should know about a run that did not fail, one line
 * each on stderr: lines a trace lost, reads that cost nothing. */
static void run_notes(const Run *r, const RunOptions *o)
{
    WorkloadTraceInfo ti;
    if (workload_trace_info(r->w, &ti) && ti.bad_lines)
        fprintf(stderr, "ftlsim: %s: skipped %" G_GUINT64_FORMAT " malformed lines (--skip-bad-lines)\n",
                ti.path, ti.bad_lines);
    uint64_t unwritten = drive_stats(r->d)->unwritten_read_units;
    if (unwritten && !o->quiet)
        fprintf(stderr,
                "ftlsim: note: %.1f MB of the reads were of never-written (or trimmed) LBAs, "
                "which the drive answers without reading NAND; --prefill 100%% writes the drive "
                "first\n",
                (double)unwritten * 4096 / 1e6);
}

gboolean run_simulation(const RunOptions *o, GError **error)
{
    DriveParams p;
    if (!config_load_file_set(o->drive, o->sets, &p, error))
        return FALSE;
    g_autoptr(Workload) w = NULL;
    if (!load_workload(o, &w, error))
        return FALSE;
    if (o->max_time && o->trace) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--max-time goes with --workload or --job (a trace ends with its records)");
        return FALSE;
    }
    if (o->output) {
        /* checked before the run, so a bad --output does not cost a run */
        g_autofree char *dir = g_path_get_dirname(o->output);
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR) || g_file_test(o->output, G_FILE_TEST_IS_DIR)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "--output \"%s\": found no such folder or a folder, expected a file "
                        "in an existing folder", o->output);
            return FALSE;
        }
    }
    if (o->interval == 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--interval must be greater than 0");
        return FALSE;
    }
    if (o->interval < RUN_INTERVAL_MIN) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--interval %" G_GUINT64_FORMAT "ns: expected at least 1us (a row per "
                    "interval: shorter ones write millions of rows a simulated second)",
                    (uint64_t)o->interval);
        return FALSE;
    }
    DrivePrefill pf = {.seed = o->seed};
    if (o->prefill && !run_parse_prefill(o->prefill, &pf, error))
        return FALSE;
    pf.seed = o->seed;
    MemoryClass mc;
    run_memory_class(o->prefill ? &pf : NULL, w, p.user_capacity, &mc);
    if (!run_check_fits(o->drive, &p, &mc, error))
        return FALSE;
    g_autoptr(SimEngine) e = sim_engine_new();
    g_autoptr(Drive) d = drive_new(e, &p, o->seed);
    if (!d) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "%s: cannot allocate the drive's tables (about %.1f GiB)", o->drive,
                    (double)drive_memory_estimate(&p, &mc) / 1073741824.0);
        return FALSE;
    }
    drive_warm_tables(d, &mc);
    if (o->prefill && !prefill_drive(o, d, &pf, error))
        return FALSE;
    WorkloadTarget target = {target_submit, d, drive_capacity(d), drive_queue_limit(d), target_warm};
    workload_set_lookup(w, target_lookup);
    if (o->max_time)
        workload_set_stop_time(w, o->max_time);
    if (!workload_bind(w, e, &target, o->seed, error))
        return FALSE;
    if (workload_wants_logs(w) && !o->out) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "the job asks for fio logs (write_bw_log, write_lat_log or write_iops_log): "
                    "give --out DIR to write them into");
        return FALSE;
    }

    Run r = {.o = o, .e = e, .d = d, .w = w, .rows = g_array_new(FALSE, FALSE, sizeof(SeriesRow))};
    r.next_bytes = o->interval_bytes;
    r.dies = drive_params_dies(&p);
    r.channels = p.channels;
    DriveWear w0;
    drive_wear(d, &w0);
    r.pool_blocks = w0.pool.blocks;
    drive_set_done(d, io_done, &r);
    WorkloadSteady ws;
    if (workload_steady(w, &ws)) {
        r.round_host = g_new0(double, ws.max_rounds + 1);
        r.round_nand = g_new0(double, ws.max_rounds + 1);
        workload_set_round_hook(w, on_round, &r);
    }
    g_autoptr(LatHist) steady_lat = lat_hist_new();
    RunSteady steady;
    if (o->series_percentiles) {
        r.ivl[IO_READ] = lat_hist_new();
        r.ivl[IO_WRITE] = lat_hist_new();
        workload_set_latency_sink(w, record_latency, &r);
    }
    g_autoptr(OutDir) od = NULL;
    gboolean ok = FALSE;
    GArray *phases = g_array_new(FALSE, FALSE, sizeof(PhaseSpan));
    if (o->out) {
        od = outdir_open(o->out, o->force, error);
        if (!od || !(r.series = outdir_create(od, "series.csv", error)))
            goto out;
        report_series_header(r.series, o->series_percentiles);
        if (!workload_open_logs(w, log_open, od, error))
            goto out;
        if (o->live) {
            g_autofree char *live = g_build_filename(o->out, "series.live.csv", NULL);
            r.live_csv = fopen(live, "w");
            if (r.live_csv)
                report_series_header(r.live_csv, o->series_percentiles);
            GError *lerr = NULL;
            r.live = plot_live_start(o->out, o->script_dir, &lerr);
            if (!r.live) {
                fprintf(stderr, "ftlsim: --live: %s\n", lerr->message);
                g_error_free(lerr);
            }
        }
    }
    r.progress = progress_new(stderr, !o->quiet && isatty(fileno(stderr)));

    gint64 wall0 = g_get_monotonic_time();
    if (run_signal) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INTERRUPTED,
                    "interrupted by %s before the simulation started; nothing written",
                    run_signal == SIGINT ? "SIGINT" : "SIGTERM");
        goto out;
    }
    if (!run_engine(&r, error))
        goto out;
    progress_finish(r.progress);
    if (o->check) {
        char why[256];
        if (!drive_check(d, why, sizeof why)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "FTL invariant broken: %s", why);
            goto out;
        }
    }
    report_phases_from_rows(r.rows, phases);
    drive_account(d);
    RunResult res = {
        .opt = o,
        .params = &p,
        .stats = drive_stats(d),
        .workload = w,
        .sim_time_s = (double)sim_now(e) / 1e9,
        .wall_s = (double)(g_get_monotonic_time() - wall0) / 1e6,
        .events = sim_fired(e),
        .peak_rss = peak_rss(),
        .rows = r.rows,
        .phases = phases,
        .interrupted = r.interrupted,
        .steady = steady_result(&r, &steady, steady_lat) ? &steady : NULL,
    };
    drive_wear(d, &res.wear);
    if (o->sweep_row)
        report_sweep_row(&res, o->sweep_row);
    if (od && (!workload_close_logs(w, log_close, od, error) ||
               !write_results(&r, od, &res, error) || !outdir_commit(od, error)))
        goto out;
    run_notes(&r, o);
    if ((!o->quiet || o->output) && !print_results(o, &res, error))
        goto out;
    if (r.interrupted) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INTERRUPTED,
                    "interrupted by %s at %.3f s simulated; %s%s%s", run_signal == SIGINT ? "SIGINT" : "SIGTERM",
                    res.sim_time_s, o->out ? "the results so far are in " : "the summary so far is above",
                    o->out ? o->out : "", o->out ? " (\"interrupted\": true in summary.json)" : "");
        goto out;
    }
    ok = TRUE;
    if (od && o->plot) {
        GError *perr = NULL;
        if (!plot_results(o->out, o->script_dir, o->plot_format, &perr)) {
            if (g_error_matches(perr, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT))
                fprintf(stderr, "ftlsim: %s\n", plot_install_hint());
            else
                fprintf(stderr, "ftlsim: figures: %s\n", perr->message);
            g_error_free(perr);
        }
    }
out:
    if (od)
        workload_close_logs(w, log_close, od, NULL); /* after a failure: nothing is kept */
    if (r.live) {
        plot_live_stop(r.live);
    }
    if (r.live_csv) {
        fclose(r.live_csv);
        g_autofree char *live = g_build_filename(o->out, "series.live.csv", NULL);
        unlink(live);
    }
    if (r.series && od)
        outdir_close_file(od, r.series, NULL);
    progress_free(r.progress);
    g_array_free(r.rows, TRUE);
    g_array_free(phases, TRUE);
    lat_hist_free(r.ivl[IO_READ]);
    lat_hist_free(r.ivl[IO_WRITE]);
    g_free(r.round_host);
    g_free(r.round_nand);
    return ok;
}
