/*
 * run.c - one simulation run, from inputs to results folder.
 *
 * Order matters for the "no partial output" rule: the drive file, the
 * workload and the options are all checked (and the workload bound to the
 * drive) before the results folder is opened; everything is written to
 * temporary names and renamed only when the run succeeded.
 */
#include "sim/cmd/run.h"
#include "sim/cmd/session.h"

#include "sim/config/config.h"
#include "sim/engine/version.h"
#include "sim/output/fio_json.h"
#include "sim/output/fio_text.h"
#include "sim/output/outdir.h"
#include "sim/output/report.h"
#include "sim/run/runner.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static char *invoked_as;

void run_set_invoked_as(const char *argv0)
{
    g_free(invoked_as);
    invoked_as = argv0 && *argv0 ? g_shell_quote(argv0) : NULL;
    if (invoked_as && argv0[strcspn(argv0, " \t\n'\"\\$`*?[]{}()<>|&;#~!")] == '\0') {
        g_free(invoked_as);
        invoked_as = g_strdup(argv0);
    }
}

const char *run_invoked_as(void)
{
    return invoked_as ? invoked_as : "ftlsim";
}

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

/* A run of the command: the simulation, its sampler, and where the rows
 * go. */
/* fio's logs without --out: in the current folder, where fio writes them.
 * The files made are removed again when the run fails before closing them. */
typedef struct HereLogs {
    GPtrArray *names; /* owned strings: the files made */
    gboolean kept;    /* closed after the run: they stay */
} HereLogs;

typedef struct Run {
    const RunOptions *o;
    Runner *sr;
    Drive *d;
    Workload *w;
    Sampler *s;
    FILE *series;     /* in the results folder, or NULL */
    FILE *live_csv;
    PlotLive *live;
    Progress *progress;
    Session *ses;     /* the signal, the folder */
    OutDir *od;       /* the results folder (owned by ses), or NULL */
    HereLogs here;    /* fio's logs without --out */
} Run;

static FILE *log_open(void *ctx, const char *name, GError **error)
{
    return outdir_create(ctx, name, error);
}

static gboolean log_close(void *ctx, FILE *f, GError **error)
{
    return outdir_close_file(ctx, f, error);
}


static FILE *here_open(void *ctx, const char *name, GError **error)
{
    HereLogs *h = ctx;
    FILE *f = fopen(name, "w");
    if (!f) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "%s: cannot write the log: %s", name,
                    g_strerror(errno));
        return NULL;
    }
    g_ptr_array_add(h->names, g_strdup(name));
    return f;
}

static gboolean here_close(void *ctx, FILE *f, GError **error)
{
    (void)ctx;
    if (fclose(f) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "cannot write a log: %s",
                    g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

static void here_release(HereLogs *h, Workload *w)
{
    if (!h->names)
        return;
    workload_close_logs(w, here_close, h, NULL);
    for (guint i = 0; !h->kept && i < h->names->len; i++)
        unlink(g_ptr_array_index(h->names, i));
    g_ptr_array_free(h->names, TRUE);
}

/* What the run prints: the summary, or fio's JSON (--output-format), on
 * stdout or into --output FILE. */
static gboolean print_results(const RunOptions *o, const RunResult *res, GError **error)
{
    g_autoptr(GString) text = g_string_new(NULL);
    if (o->output_format == RUN_OUTPUT_SUMMARY) {
        report_summary_text(res, text);
        if (o->out)
            g_string_append_printf(text, "results   %s\n", o->out);
    } else if (o->output_format == RUN_OUTPUT_NORMAL || o->output_format == RUN_OUTPUT_TERSE) {
        FioTextOptions fo = {.version = ftlsim_version(),
                             .terse = o->output_format == RUN_OUTPUT_TERSE,
                             .disk_name = res->params->name,
                             .sim_time_s = res->sim_time_s};
        fio_text_write(res->workload, &fo, text);
    } else {
        FioJsonOptions fo = {.version = ftlsim_version(),
                             .plus = o->output_format == RUN_OUTPUT_JSON_PLUS,
                             .disk_name = res->params->name,
                             .sim_time_s = res->sim_time_s};
        fio_json_write(res->workload, &fo, text);
    }
    if (!o->output) {
        fputs(text->str, stdout);
        return TRUE;
    }
    GError *err = NULL;
    if (!outdir_write_dest(o->output, text->str, text->len, &err)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--output \"%s\": %s", o->output,
                    err->message);
        g_error_free(err);
        return FALSE;
    }
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

gboolean run_prefill_drive(const char *spec, Drive *d, const DrivePrefill *pf, GError **error)
{
    if (!drive_prefill(d, pf)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "--prefill \"%s\": the drive cannot hold it",
                    spec);
        return FALSE;
    }
    uint64_t pages = (uint64_t)(pf->fill * (double)(drive_capacity(d) / 4096) + 0.5);
    uint64_t want = MIN((pf->slc_bytes + 4095) / 4096, pages) * 4096;
    uint64_t got = drive_stats(d)->pslc_used;
    if (got < want) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--prefill \"%s\": found room for %.3f GB in the pSLC cache, expected the "
                    "%.3f GB asked for (this drive's cache at this fill holds less)",
                    spec, (double)got / 1e9, (double)want / 1e9);
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
        *w = workload_from_jobfile_stoppable(o->job, runner_signal, error);
    else
        *w = workload_from_trace(o->trace, &o->trace_opt, &o->replay, error);
    return *w != NULL;
}

gboolean run_write_results(OutDir *od, const RunResult *res, gboolean sweep_row, const char *more,
                           GError **error)
{
    g_autoptr(JsonWriter) jw = json_writer_new();
    report_summary_json(res, jw);
    if (!outdir_write_text(od, "summary.json", json_writer_str(jw), error))
        return FALSE;
    g_autoptr(GString) text = g_string_new(NULL);
    report_summary_text(res, text);
    if (more)
        g_string_append(text, more);
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
        lat_hist_write_csv(workload_latency(res->workload, lat[i].op), f);
        if (!outdir_close_file(od, f, error))
            return FALSE;
    }
    if (res->steady) {
        g_autoptr(GString) steady = g_string_new(NULL);
        report_steady_csv(res->steady, steady);
        if (!outdir_write_text(od, "steady_state.csv", steady->str, error))
            return FALSE;
    }
    if (sweep_row) {
        g_autoptr(GString) row = g_string_new(report_sweep_header());
        g_string_append_c(row, '\n');
        report_sweep_row(res, row);
        if (!outdir_write_text(od, "sweep-row.csv", row->str, error))
            return FALSE;
    }
    return TRUE;
}

static gboolean write_results(Run *r, OutDir *od, const RunResult *res, GError **error)
{
    if (!run_write_results(od, res, r->o->sweep_row_file, NULL, error))
        return FALSE;
    FILE *series = r->series;
    r->series = NULL;
    return outdir_close_file(od, series, error);
}

/* A run into the series row bound at a write amplification of this or
 * more is taken for a drive that cannot make progress, not a short
 * interval. */
#define RUN_CRAWL_WAF 1000.0

/* Write amplification so far: NAND bytes programmed for every cause per
 * host byte written (0 before any host write). */
static double run_waf(const Drive *d)
{
    const DriveStats *st = drive_stats(d);
    uint64_t nand = 0;
    for (int c = 0; c < CAUSES; c++)
        nand += st->nand_write_bytes[c];
    return st->host_bytes[IO_WRITE] ? (double)nand / (double)st->host_bytes[IO_WRITE] : 0.0;
}

/* A run that stalled (stalled) or crawled into the series row bound: when
 * the drive's free blocks explain it, the configuration cannot work (bad
 * input, the reason named); FALSE otherwise, error left alone. */
static gboolean run_cannot_progress(const Run *r, gboolean stalled, GError **error)
{
    char why[320];
    double waf = run_waf(r->d);
    /* a crawl: GC relocating far more than the host writes */
    if (!drive_stall_reason(r->d, why, sizeof why) || (!stalled && waf < RUN_CRAWL_WAF))
        return FALSE;
    SimEngine *e = runner_engine(r->sr);
    g_autofree char *what =
        stalled ? g_strdup_printf("%u command%s outstanding", drive_outstanding(r->d),
                                  drive_outstanding(r->d) == 1 ? "" : "s")
                : g_strdup_printf("a write amplification of %.0f", waf);
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                "%s: the drive cannot make progress (at %.3f s simulated, %s): %s; expected "
                "more spare blocks (a smaller user_capacity) or lower [gc] soft_blocks and "
                "hard_blocks",
                r->o->drive, (double)sim_now(e) / 1e9, what, why);
    return TRUE;
}

static gboolean run_engine(Run *r, GError **error)
{
    const RunOptions *o = r->o;
    runner_set_clock(r->sr, o->interval, o->max_time, r->s, r->progress);
    runner_check_every(r->sr, o->check_every);
    gboolean ended = runner_go(r->sr);
    uint64_t checks;
    const char *why;
    if (!runner_checks(r->sr, &checks, &why)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "FTL invariant broken at %.6f s simulated (check %" G_GUINT64_FORMAT
                    " of --check-every %" G_GUINT64_FORMAT "): %s",
                    (double)sim_now(runner_engine(r->sr)) / 1e9, checks, o->check_every, why);
        return FALSE;
    }
    SimEngine *e = runner_engine(r->sr);
    if (!ended && o->max_time && sim_now(e) >= o->max_time + RUN_DRAIN_MAX) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "--max-time %g s: the drive still had %u command%s in flight at %.3f s "
                    "simulated, %g s after the jobs stopped (longer than a host waits for a "
                    "command)", (double)o->max_time / 1e9, drive_outstanding(r->d),
                    drive_outstanding(r->d) == 1 ? "" : "s", (double)sim_now(e) / 1e9,
                    (double)RUN_DRAIN_MAX / 1e9);
        return FALSE;
    }
    if (!ended && run_cannot_progress(r, TRUE, error))
        return FALSE;
    if (!ended) {
        char blocks[320];
        drive_stall_reason(r->d, blocks, sizeof blocks);
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "the simulation stalled at %.6f s with %u commands outstanding (%s)",
                    (double)sim_now(e) / 1e9, drive_outstanding(r->d), blocks);
        return FALSE;
    }
    if (sampler_full(r->s) && run_cannot_progress(r, FALSE, error))
        return FALSE;
    if (sampler_full(r->s)) {
        g_autofree char *by = o->interval_bytes
                                  ? g_strdup_printf("--interval-bytes %" G_GUINT64_FORMAT " bytes",
                                                    o->interval_bytes)
                                  : g_strdup_printf("--interval %g s", (double)o->interval / 1e9);
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: the run reached %d series rows at %.3f s simulated and had not ended; "
                    "expected at most %d rows (a longer interval, or a workload that ends sooner)",
                    by, RUN_ROWS_MAX, (double)sim_now(e) / 1e9, RUN_ROWS_MAX);
        return FALSE;
    }
    GError *werr = NULL;
    if (!runner_interrupted(r->sr) && workload_error(r->w, &werr)) {
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
    sampler_finish(r->s); /* the last, partial interval */
    return TRUE;
}

/* What the user should know about a run that did not fail, one line
 * each on stderr: lines a trace lost, reads that cost nothing. */
static void run_notes(const Run *r, const RunOptions *o)
{
    uint64_t checks;
    const char *why;
    if (o->check_every && runner_checks(r->sr, &checks, &why) && !o->quiet)
        fprintf(stderr, "ftlsim: the FTL invariants held at all %" G_GUINT64_FORMAT
                        " checks (one every %" G_GUINT64_FORMAT " commands)\n",
                checks, o->check_every);
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

/* What every command that simulates a drive checks before it allocates
 * one: the series interval, the --prefill spec (into *pf, seeded), the
 * mapping's memory class for the prefill and w (NULL: the worst case) into
 * *mc, and that the drive fits the machine. */
gboolean run_check_drive_setup(const char *drive, const DriveParams *p, SimTime interval,
                               const char *prefill, uint64_t seed, const Workload *w,
                               DrivePrefill *pf, MemoryClass *mc, GError **error)
{
    if (interval == 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--interval must be greater than 0");
        return FALSE;
    }
    if (interval < RUN_INTERVAL_MIN) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--interval %" G_GUINT64_FORMAT "ns: expected at least 1us (a row per "
                    "interval: shorter ones write millions of rows a simulated second)",
                    (uint64_t)interval);
        return FALSE;
    }
    *pf = (DrivePrefill){.seed = seed};
    if (prefill && !run_parse_prefill(prefill, pf, error))
        return FALSE;
    pf->seed = seed;
    run_memory_class(prefill ? pf : NULL, w, p->user_capacity, mc);
    return run_check_fits(drive, p, mc, error);
}

/* --output checked before the run, so that a bad one does not cost a run. */
static gboolean check_output_dest(const char *output, GError **error)
{
    gboolean special;
    GError *err = NULL;
    g_autofree char *target = outdir_dest_resolve(output, &special, &err);
    if (!target) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--output \"%s\": %s", output,
                    err->message);
        g_error_free(err);
        return FALSE;
    }
    g_autofree char *dir = g_path_get_dirname(target);
    if (!special && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--output \"%s\": found no folder %s, expected a file in an existing "
                    "folder", output, dir);
        return FALSE;
    }
    return TRUE;
}

/* A run's inputs loaded and checked together: the drive, the workload,
 * --output, and whether the drive and the jobs fit this machine. */
static gboolean run_load(const RunOptions *o, DriveParams *p, Workload **w, DrivePrefill *pf,
                         MemoryClass *mc, GError **error)
{
    if (!config_load_file_set(o->drive, o->sets, p, error) || !load_workload(o, w, error))
        return FALSE;
    if (o->max_time && o->trace) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--max-time goes with --workload or --job (a trace ends with its records)");
        return FALSE;
    }
    if (o->output && !check_output_dest(o->output, error))
        return FALSE;
    return run_check_drive_setup(o->drive, p, o->interval, o->prefill, o->seed, *w, pf, mc,
                                 error) &&
           run_check_setup_fits(o->job ? o->job : "--workload", *w, p, mc, error);
}

/* The files written while the run goes: the results folder's series.csv,
 * the jobs' logs (there, or where fio puts them without --out), the live
 * figure. */
static gboolean run_open_files(Run *r, GError **error)
{
    const RunOptions *o = r->o;
    if (!o->out && workload_wants_logs(r->w)) {
        r->here.names = g_ptr_array_new_with_free_func(g_free);
        if (!workload_open_logs(r->w, here_open, &r->here, error))
            return FALSE;
    }
    if (!o->out)
        return TRUE;
    r->od = session_open(r->ses, o->out, o->force, error);
    if (!r->od || !(r->series = outdir_create(r->od, "series.csv", error)))
        return FALSE;
    report_series_header(r->series, o->series_percentiles);
    if (!workload_open_logs(r->w, log_open, r->od, error))
        return FALSE;
    if (o->live) {
        g_autofree char *live = g_build_filename(o->out, "series.live.csv", NULL);
        r->live_csv = fopen(live, "w");
        if (r->live_csv)
            report_series_header(r->live_csv, o->series_percentiles);
        GError *lerr = NULL;
        r->live = plot_live_start(o->out, o->script_dir, &lerr);
        if (!r->live) {
            fprintf(stderr, "ftlsim: --live: %s\n", lerr->message);
            g_error_free(lerr);
        }
    }
    sampler_write_to(r->s, r->series, r->live_csv, r->live);
    return TRUE;
}

/* What run_open_files() opened, closed; after a failure the logs and the
 * folder are not kept. */
static void run_close_files(Run *r)
{
    if (r->od)
        workload_close_logs(r->w, log_close, r->od, NULL);
    here_release(&r->here, r->w);
    if (r->live)
        plot_live_stop(r->live);
    if (r->live_csv) {
        fclose(r->live_csv);
        g_autofree char *live = g_build_filename(r->o->out, "series.live.csv", NULL);
        unlink(live);
    }
    if (r->series && r->od)
        outdir_close_file(r->od, r->series, NULL);
    progress_free(r->progress);
    r->od = NULL; /* the session removes it unless committed */
}

/* The measures of a run that ended (or was stopped) into res. */
static void run_result(Run *r, const DriveParams *p, RunSteady *steady, LatHist *steady_lat,
                       GArray *phases, gint64 setup0, gint64 wall0, RunResult *res)
{
    const RunOptions *o = r->o;
    SimEngine *e = runner_engine(r->sr);
    gboolean interrupted = session_settle(r->ses); /* signals wait until the commit */
    report_phases_from_rows(sampler_rows(r->s), phases);
    drive_account(r->d);
    *res = (RunResult){
        .drive = o->drive,
        .prefill = o->prefill,
        .sets = o->sets,
        .seed = o->seed,
        .params = p,
        .stats = drive_stats(r->d),
        .workload = r->w,
        .sim_time_s = (double)sim_now(e) / 1e9,
        .wall_s = (double)(g_get_monotonic_time() - wall0) / 1e6,
        .setup_wall_s = (double)(wall0 - setup0) / 1e6,
        .events = sim_fired(e),
        .peak_rss = peak_rss(),
        .rows = sampler_rows(r->s),
        .phases = phases,
        .interrupted = interrupted,
        .steady = sampler_steady(r->s, steady, steady_lat) ? steady : NULL,
        .fdp = drive_fdp_handles(r->d) ? drive_fdp_handle(r->d, 0) : NULL,
        .fdp_handles = drive_fdp_handles(r->d),
        .zns = drive_zns(r->d),
    };
    drive_wear(r->d, &res->wear);
    if (o->sweep_row)
        report_sweep_row(res, o->sweep_row);
}

/* What a run that ended writes (the results folder, committed; the logs)
 * and prints; an interrupted run's report too, and its error. */
static gboolean run_write(Run *r, RunResult *res, GError **error)
{
    const RunOptions *o = r->o;
    if ((r->od && (!workload_close_logs(r->w, log_close, r->od, error) ||
                   !write_results(r, r->od, res, error))) ||
        !session_commit(r->ses, error))
        return FALSE;
    if (r->here.names && !workload_close_logs(r->w, here_close, &r->here, error))
        return FALSE;
    r->here.kept = r->here.names != NULL;
    run_notes(r, o);
    if ((!o->quiet || o->output) && !print_results(o, res, error))
        return FALSE;
    if (res->interrupted) {
        if (r->od)
            run_write_report(o, res);
        session_interrupted_error(r->ses, error, "at %.3f s simulated", res->sim_time_s);
        return FALSE;
    }
    if (r->od && o->plot) {
        GError *perr = NULL;
        if (!plot_results(o->out, o->script_dir, o->plot_format, &perr))
            plot_warn(perr);
    }
    if (r->od)
        run_write_report(o, res);
    return TRUE;
}

/* The simulation of a bound run, its checks and its results. */
static gboolean run_bound(Run *r, const DriveParams *p, gint64 setup0, GError **error)
{
    const RunOptions *o = r->o;
    g_autoptr(LatHist) steady_lat = lat_hist_new();
    g_autoptr(GArray) phases = g_array_new(FALSE, FALSE, sizeof(PhaseSpan));
    RunSteady steady;
    RunResult res;
    r->progress = progress_new(stderr, !o->quiet && isatty(fileno(stderr)));
    gint64 wall0 = g_get_monotonic_time();
    if (session_interrupted(r->ses)) {
        session_interrupted_error(r->ses, error, "before the simulation started");
        return FALSE;
    }
    if (!run_engine(r, error))
        return FALSE;
    progress_finish(r->progress);
    if (o->check) {
        char why[256];
        if (!drive_check(r->d, why, sizeof why)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "FTL invariant broken: %s", why);
            return FALSE;
        }
    }
    run_result(r, p, &steady, steady_lat, phases, setup0, wall0, &res);
    return run_write(r, &res, error);
}

gboolean run_simulation(const RunOptions *o, GError **error)
{
    gint64 setup0 = g_get_monotonic_time();
    DriveParams p;
    g_autoptr(Workload) w = NULL;
    DrivePrefill pf;
    MemoryClass mc;
    if (!run_load(o, &p, &w, &pf, &mc, error))
        return FALSE;
    g_autoptr(Runner) sr = runner_new(&p, o->seed);
    if (!sr) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "%s: cannot allocate the drive's tables (about %.1f GiB)", o->drive,
                    (double)drive_memory_estimate(&p, &mc) / 1073741824.0);
        return FALSE;
    }
    Drive *d = runner_drive(sr);
    if (o->prefill && !o->dry_run && !run_prefill_drive(o->prefill, d, &pf, error))
        return FALSE;
    if (!o->dry_run)
        drive_expect(d, &mc);
    if (o->max_time)
        workload_set_stop_time(w, o->max_time);
    if (!runner_bind(sr, w, o->seed, error))
        return FALSE;
    if (o->dry_run) /* everything checked, the folder too; nothing run or written */
        return !o->out || outdir_check(o->out, o->force, error);
    g_autoptr(Sampler) s =
        sampler_new(runner_engine(sr), d, &p, w, o->interval_bytes, o->series_percentiles);
    g_autoptr(Session) ses = session_new("the results so far are", "summary.json");
    Run r = {.o = o, .sr = sr, .d = d, .w = w, .s = s, .ses = ses};
    gboolean ok = run_open_files(&r, error) && run_bound(&r, &p, setup0, error);
    run_close_files(&r);
    return ok;
}
