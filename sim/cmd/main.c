/*
 * main.c - the ftlsim command: run, calibrate, pts, check, drives, plot,
 * sweep collect, reference.
 *
 * Only main() prints errors and chooses exit codes: 0 ok, 1 the simulation
 * failed, 2 bad input (options, drive file, workload, trace).
 */
#include "sim/config/config.h"
#include "sim/output/plot.h"
#include "sim/cmd/calibrate.h"
#include "sim/cmd/pts.h"
#include "sim/cmd/run.h"
#include "sim/cmd/version.h"
#include "sim/host/workload.h"

#include <stdio.h>
#include <string.h>

#define EXIT_FAILED 1
#define EXIT_INPUT 2

/* One line on stderr: control bytes (from a job file, a spec or a file
 * name) are escaped, as the INI and trace readers quote what they found. */
static void print_line(FILE *f, const char *msg)
{
    GString *clean = g_string_sized_new(strlen(msg) + 16);
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++) {
        if (*c < 0x20 || *c == 0x7f)
            g_string_append_printf(clean, "\\x%02x", *c);
        else
            g_string_append_c(clean, (char)*c);
    }
    if (!g_utf8_validate(clean->str, (gssize)clean->len, NULL)) {
        g_autofree char *valid = g_utf8_make_valid(clean->str, (gssize)clean->len);
        g_string_assign(clean, valid);
    }
    fprintf(f, "%s%s\n", g_str_has_prefix(clean->str, "ftlsim: ") ? "" : "ftlsim: ", clean->str);
    g_string_free(clean, TRUE);
}

static int fail(GError *error, int code)
{
    print_line(stderr, error ? error->message : "failed without a message (a bug)");
    g_clear_error(&error);
    return code;
}

static int usage_error(GOptionContext *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "ftlsim: %s (see ftlsim --help)\n", msg);
    return EXIT_INPUT;
}

/* Folders that hold drive files, in search order: FTLSIM_CONFIG_PATH
 * (colon-separated), the installed data folder next to the binary, the
 * source tree's configs/. */
static GPtrArray *config_dirs(void)
{
    GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
    const char *env = g_getenv("FTLSIM_CONFIG_PATH");
    if (env) {
        g_auto(GStrv) parts = g_strsplit(env, ":", -1);
        for (char **p = parts; *p; p++)
            if (**p)
                g_ptr_array_add(dirs, g_strdup(*p));
    }
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        g_autofree char *bindir = g_path_get_dirname(exe);
        g_ptr_array_add(dirs, g_build_filename(bindir, "..", "share", "ftlsim", "configs", NULL));
    }
    g_ptr_array_add(dirs, g_strdup(FTLSIM_SOURCE_DIR "/configs"));
    return dirs;
}

/* The drive file name stands for: the name itself when it exists, else
 * (a relative name) NAME, NAME.ini or its last part in the config folders.
 * NULL with error when none exists. */
static char *resolve_drive(const char *name, GError **error)
{
    if (g_file_test(name, G_FILE_TEST_EXISTS) || g_path_is_absolute(name))
        return g_strdup(name);
    g_autoptr(GPtrArray) dirs = config_dirs();
    g_autofree char *base = g_path_get_basename(name);
    g_autofree char *with_ini = g_strconcat(base, ".ini", NULL);
    const char *tries[] = {name, base, with_ini};
    for (guint i = 0; i < dirs->len; i++)
        for (unsigned k = 0; k < G_N_ELEMENTS(tries); k++) {
            char *p = g_build_filename(dirs->pdata[i], tries[k], NULL);
            if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
                return p;
            g_free(p);
        }
    g_ptr_array_add(dirs, NULL);
    g_autofree char *where = g_strjoinv(", ", (char **)dirs->pdata);
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                "%s: no such drive file, here or in the config folders (%s; set "
                "FTLSIM_CONFIG_PATH to add one)",
                name, where);
    return NULL;
}

/* The folder `ftlsim drives` lists by default: ./configs, else the first
 * config folder that exists. */
static char *default_drives_dir(void)
{
    if (g_file_test("configs", G_FILE_TEST_IS_DIR))
        return g_strdup("configs");
    g_autoptr(GPtrArray) dirs = config_dirs();
    for (guint i = 0; i < dirs->len; i++)
        if (g_file_test(dirs->pdata[i], G_FILE_TEST_IS_DIR))
            return g_strdup(dirs->pdata[i]);
    return g_strdup("configs");
}

static gboolean parse_size_opt(const char *text, uint64_t *out, const char *name, GError **error)
{
    GError *e = NULL;
    if (!workload_parse_bytes(text, 1000, out, &e)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "%s \"%s\": expected a size such as 1GB",
                    name, text);
        g_clear_error(&e);
        return FALSE;
    }
    return TRUE;
}

static gboolean parse_time_opt(const char *text, SimTime *out, const char *name, GError **error)
{
    GError *e = NULL;
    if (!workload_parse_time(text, SIM_SEC, out, &e)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s \"%s\": expected a duration such as 500ms or 2s", name, text);
        g_clear_error(&e);
        return FALSE;
    }
    return TRUE;
}

static gboolean refuse_zero(const char *text, const char *name, GError **error)
{
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                "%s \"%s\": expected a size greater than 0, such as 1GB", name, text);
    return FALSE;
}

/* The index of text in names into *out; no text leaves *out as it is. */
static gboolean pick(const char *text, const char *const *names, int *out, const char *opt,
                     GError **error)
{
    if (!text)
        return TRUE;
    for (int i = 0; names[i]; i++)
        if (g_strcmp0(text, names[i]) == 0) {
            *out = i;
            return TRUE;
        }
    g_autofree char *list = g_strjoinv(", ", (char **)names);
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "%s \"%s\": expected one of %s", opt, text, list);
    return FALSE;
}

/* Options of run that belong to the sweep, not to each of its runs: an
 * emitted job gets its own folder, flags and output. */
static gboolean sweep_only(const char *long_name)
{
    static const char *const names[] = {"vary", "jobs", "emit", "out", "force", "plot",
                                        "plot-format", "live", "quiet", "sweep-row", "output",
                                        "output-format", NULL};
    return g_strv_contains(names, long_name);
}

static const GOptionEntry *entry_long(const GOptionEntry *e, const char *name, gsize len)
{
    for (; e->long_name; e++)
        if (strlen(e->long_name) == len && strncmp(e->long_name, name, len) == 0)
            return e;
    return NULL;
}

static const GOptionEntry *entry_short(const GOptionEntry *e, char c)
{
    for (; e->long_name; e++)
        if (e->short_name == c)
            return e;
    return NULL;
}

/* argv[1..argc) as given (before GOption took it apart) less the sweep's
 * own options, for the runs of an emitted sweep. Options are read as GOption
 * reads them: --name=value, --name value, -x value, -xvalue and -xyz. */
static GStrv rerun_args(char **argv, int argc, const GOptionEntry *entries)
{
    GPtrArray *a = g_ptr_array_new();
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--") == 0) {
            for (; i < argc; i++)
                g_ptr_array_add(a, g_strdup(argv[i]));
            break;
        }
        if (s[0] == '-' && s[1] == '-') {
            const char *eq = strchr(s + 2, '=');
            gsize len = eq ? (gsize)(eq - s - 2) : strlen(s + 2);
            const GOptionEntry *e = entry_long(entries, s + 2, len);
            gboolean takes = e && e->arg != G_OPTION_ARG_NONE;
            gboolean drop = e && sweep_only(e->long_name);
            if (!drop)
                g_ptr_array_add(a, g_strdup(s));
            if (takes && !eq && i + 1 < argc) {
                i++;
                if (!drop)
                    g_ptr_array_add(a, g_strdup(argv[i]));
            }
            continue;
        }
        if (s[0] == '-' && s[1] != '\0') {
            GString *keep = g_string_new("-");
            gboolean value_next = FALSE, drop_next = FALSE;
            for (const char *c = s + 1; *c; c++) {
                const GOptionEntry *e = entry_short(entries, *c);
                gboolean drop = e && sweep_only(e->long_name);
                if (e && e->arg != G_OPTION_ARG_NONE) {
                    if (!drop)
                        g_string_append(keep, c); /* the option and its value */
                    if (c[1] == '\0') {
                        value_next = TRUE;
                        drop_next = drop;
                    }
                    break;
                }
                if (!drop)
                    g_string_append_c(keep, *c);
            }
            if (keep->len > 1)
                g_ptr_array_add(a, g_strdup(keep->str));
            g_string_free(keep, TRUE);
            if (value_next && i + 1 < argc) {
                i++;
                if (!drop_next)
                    g_ptr_array_add(a, g_strdup(argv[i]));
            }
            continue;
        }
        g_ptr_array_add(a, g_strdup(s));
    }
    g_ptr_array_add(a, NULL);
    return (GStrv)g_ptr_array_free(a, FALSE);
}

/* Options that GOption reads but cannot bound: refused rather than
 * coerced, since a value bent into another one runs a different experiment. */
static gboolean check_run_options(const char *out, double time_scale, gint iodepth, gint64 seed,
                                  gboolean plot, gboolean live, GError **error)
{
    if (out && out[0] == '\0') {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--out \"\": expected the name of a results folder");
        return FALSE;
    }
    /* a gap times the scale must stay a finite number of nanoseconds */
    if (!(time_scale > 0 && time_scale <= RUN_TIME_SCALE_MAX)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--time-scale %g: expected a number greater than 0 and at most %g", time_scale,
                    RUN_TIME_SCALE_MAX);
        return FALSE;
    }
    if (iodepth < 1 || iodepth > RUN_IODEPTH_MAX) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--iodepth %d: expected an integer from 1 to %d", iodepth, RUN_IODEPTH_MAX);
        return FALSE;
    }
    if (seed < 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--seed %" G_GINT64_FORMAT ": expected an integer from 0 to %" G_GINT64_FORMAT,
                    seed, G_MAXINT64);
        return FALSE;
    }
    if ((plot || live) && !out) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: the figures go into the results folder; expected --out DIR too",
                    plot ? "--plot" : "--live");
        return FALSE;
    }
    return TRUE;
}

static int cmd_run(int argc, char **argv)
{
    RunOptions o;
    run_options_init(&o);
    char *drive = NULL, *spec = NULL, *job = NULL, *trace = NULL, *out = NULL;
    char *interval = NULL, *interval_bytes = NULL, *trace_fmt = NULL;
    char *blk = NULL, *replay = NULL, *max_idle = NULL, *lba_map = NULL, *plot_fmt = NULL;
    char *prefill = NULL, *emit = NULL, *max_time = NULL, *out_fmt = NULL, *output = NULL;
    char *drive_path = NULL;
    char **sets = NULL, **vary = NULL;
    g_auto(GStrv) given = g_strdupv(argv); /* GOption takes argv apart */
    g_auto(GStrv) rerun = NULL;             /* before any goto out */
    gint64 seed = 1, device = -1;
    gint iodepth = 32, jobs = 1;
    double time_scale = 1.0;
    gboolean force = FALSE, quiet = FALSE, plot = FALSE, live = FALSE, check = FALSE,
             skip_bad = FALSE, series_pct = FALSE, sweep_row = FALSE;
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI)", "FILE"},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "Inline fio-style workload or a named one (fill, cdm, random-notrim, read-after-write, "
         "trim-stall, cache-vs-fill, steady-random; parameters after a colon, e.g. "
         "steady-random:threads=8:iodepth=16:round=10s)", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &job, "fio job file", "FILE"},
        {"trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "Block trace to replay (.gz read too)",
         "FILE"},
        {"trace-format", 0, 0, G_OPTION_ARG_STRING, &trace_fmt,
         "Trace format (msr, blkparse, fio2, fio3, spc, disksim, mqsim, ssdsim, alibaba, tencent, "
         "fiu, wiscsee); default: detect", "NAME"},
        {"blk-events", 0, 0, G_OPTION_ARG_STRING, &blk, "blkparse events: auto, Q or D", "EV"},
        {"trace-device", 0, 0, G_OPTION_ARG_INT64, &device, "Replay only this device or volume",
         "N"},
        {"skip-bad-lines", 0, 0, G_OPTION_ARG_NONE, &skip_bad,
         "Count malformed trace lines instead of failing", NULL},
        {"replay", 0, 0, G_OPTION_ARG_STRING, &replay,
         "open (honour timestamps, default) or closed (keep --iodepth outstanding)", "MODE"},
        {"iodepth", 0, 0, G_OPTION_ARG_INT, &iodepth, "Closed replay: commands outstanding (32)",
         "N"},
        {"time-scale", 0, 0, G_OPTION_ARG_DOUBLE, &time_scale,
         "Open replay: multiply trace gaps by this", "X"},
        {"max-idle", 0, 0, G_OPTION_ARG_STRING, &max_idle,
         "Open replay: shrink longer idle gaps to this", "TIME"},
        {"lba-map", 0, 0, G_OPTION_ARG_STRING, &lba_map,
         "Trace addresses beyond the drive: error (default), wrap or scale", "HOW"},
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Results folder", "DIR"},
        {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "Overwrite an existing results folder", NULL},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Random seed (1)", "N"},
        {"interval", 0, 0, G_OPTION_ARG_STRING, &interval, "Series row per simulated time (0.5s)",
         "TIME"},
        {"interval-bytes", 0, 0, G_OPTION_ARG_STRING, &interval_bytes,
         "Series row per amount written instead, e.g. 1GB", "SIZE"},
        {"series-percentiles", 0, 0, G_OPTION_ARG_NONE, &series_pct,
         "Add read and write latency p50, p99, p99.9 of each interval to series.csv", NULL},
        {"plot", 'p', 0, G_OPTION_ARG_NONE, &plot, "Draw the figures with gnuplot", NULL},
        {"plot-format", 0, 0, G_OPTION_ARG_STRING, &plot_fmt, "png (default) or svg", "FMT"},
        {"live", 0, 0, G_OPTION_ARG_NONE, &live, "Keep a live write-curve figure while running",
         NULL},
        {"check", 0, 0, G_OPTION_ARG_NONE, &check, "Verify the FTL invariants at the end", NULL},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a drive key for this run (repeatable), e.g. --set pslc.static=12GB", "GROUP.KEY=VALUE"},
        {"vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &vary,
         "Run once per value of a drive key (repeatable: every combination) into --out/KEY=VALUE, "
         "with a table sweep.csv, e.g. --vary pslc.static=0,6GB,12GB", "GROUP.KEY=V1,V2,..."},
        {"jobs", 'J', 0, G_OPTION_ARG_INT, &jobs,
         "With --vary: runs at once, each in its own process (1)", "N"},
        {"emit", 0, 0, G_OPTION_ARG_STRING, &emit,
         "With --vary: write the runs into --out as jobs for GNU parallel (parallel) or a Slurm "
         "array (slurm) instead of running them; then 'ftlsim sweep collect DIR'", "KIND"},
        {"sweep-row", 0, 0, G_OPTION_ARG_NONE, &sweep_row,
         "Also write sweep-row.csv, the run's measures as a row of sweep.csv (emitted jobs use it)",
         NULL},
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &prefill,
         "Age the drive first, without simulating the time: PCT%[:random][:slc=SIZE], e.g. "
         "90%:random or 50%:slc=10GB", "SPEC"},
        {"max-time", 0, 0, G_OPTION_ARG_STRING, &max_time,
         "Stop every job at this simulated time (e.g. 30s): none sends a command after "
         "it, and the run ends once the commands in flight have completed; a drive that "
         "still holds one 30 s later fails the run (exit 1)", "TIME"},
        {"output-format", 0, 0, G_OPTION_ARG_STRING, &out_fmt,
         "What to print: normal (the summary), json or json+ (fio's JSON)", "FMT"},
        {"output", 0, 0, G_OPTION_ARG_FILENAME, &output,
         "Write what would be printed into FILE instead", "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL},
        G_OPTION_ENTRY_NULL,
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- simulate a drive under a workload");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Example:\n  ftlsim run --drive configs/870qvo.ini --workload fill --out results/qvo "
             "--plot\n  ftlsim run -d configs/860pro.ini -w 'rw=randwrite,bs=4k,iodepth=32,"
             "io_size=100g' -o results/rw\n  ftlsim run -d configs/870qvo.ini -w fill --vary "
             "pslc.static=0,6GB,12GB -o results/static --plot\n");
    GError *error = NULL;
    int rc = EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    if (argc > 1) {
        rc = usage_error(ctx, "run takes no positional arguments");
        goto out;
    }
    if (!drive) {
        rc = usage_error(ctx, "run needs --drive FILE");
        goto out;
    }
    if (!check_run_options(out, time_scale, iodepth, seed, plot, live, &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    drive_path = resolve_drive(drive, &error);
    if (!drive_path) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    o.drive = drive_path;
    o.spec = spec;
    o.job = job;
    o.trace = trace;
    o.out = out;
    o.force = force;
    o.quiet = quiet;
    o.seed = (uint64_t)seed;
    o.plot = plot;
    o.live = live;
    o.check = check;
    o.prefill = prefill;
    o.sets = (const char *const *)sets;
    o.series_percentiles = series_pct;
    o.sweep_row_file = sweep_row;
    o.script_dir = scripts;
    o.trace_opt.format = trace_fmt;
    o.trace_opt.device = device;
    o.trace_opt.skip_bad_lines = skip_bad;
    o.replay.iodepth = (uint32_t)iodepth;
    o.replay.time_scale = time_scale;
    static const char *const blk_names[] = {"auto", "Q", "D", NULL};
    static const char *const replay_names[] = {"open", "closed", NULL};
    static const char *const map_names[] = {"error", "wrap", "scale", NULL};
    static const char *const fmt_names[] = {"png", "svg", NULL};
    static const char *const out_names[] = {"normal", "json", "json+", NULL};
    int blk_v = o.trace_opt.blk_events, replay_v = o.replay.mode, map_v = o.replay.lba_map;
    int fmt_v = o.plot_format, out_v = RUN_OUTPUT_NORMAL;
    if (!pick(blk, blk_names, &blk_v, "--blk-events", &error) ||
        !pick(replay, replay_names, &replay_v, "--replay", &error) ||
        !pick(lba_map, map_names, &map_v, "--lba-map", &error) ||
        !pick(plot_fmt, fmt_names, &fmt_v, "--plot-format", &error) ||
        !pick(out_fmt, out_names, &out_v, "--output-format", &error) ||
        (max_time && !parse_time_opt(max_time, &o.max_time, "--max-time", &error)) ||
        (interval && !parse_time_opt(interval, &o.interval, "--interval", &error)) ||
        (interval_bytes &&
         !parse_size_opt(interval_bytes, &o.interval_bytes, "--interval-bytes", &error)) ||
        (interval_bytes && o.interval_bytes == 0 &&
         !refuse_zero(interval_bytes, "--interval-bytes", &error)) ||
        (max_idle && !parse_time_opt(max_idle, &o.replay.max_idle_ns, "--max-idle", &error))) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    o.trace_opt.blk_events = blk_v;
    o.replay.mode = replay_v;
    o.replay.lba_map = map_v;
    o.plot_format = fmt_v;
    o.output_format = out_v;
    o.output = output;
    if (jobs < 1 || jobs > 256) {
        rc = usage_error(ctx, "--jobs: expected an integer from 1 to 256");
        goto out;
    }
    if (jobs > 1 && !vary) {
        rc = usage_error(ctx, "--jobs goes with --vary");
        goto out;
    }
    if (emit) {
        static const char *const emit_names[] = {"none", "parallel", "slurm", NULL};
        int emit_v = EMIT_NONE;
        if (!pick(emit, emit_names, &emit_v, "--emit", &error)) {
            rc = fail(error, EXIT_INPUT);
            goto out;
        }
        if (emit_v != EMIT_NONE && !vary) {
            rc = usage_error(ctx, "--emit goes with --vary");
            goto out;
        }
        if (emit_v != EMIT_NONE && (jobs > 1 || plot || live)) {
            rc = usage_error(ctx, "--emit writes jobs and runs nothing: --jobs, --plot and --live "
                                  "do not go with it (plot with 'ftlsim sweep collect --plot')");
            goto out;
        }
        o.emit = emit_v;
        rerun = rerun_args(given, g_strv_length(given), entries);
        o.rerun_args = (const char *const *)rerun;
    }
    run_catch_signals();
    if (vary ? !run_sweep(&o, (const char *const *)vary, (guint)jobs, &error)
             : !run_simulation(&o, &error)) {
        int sig = run_interrupt_signal();
        rc = fail(error, sig                                                   ? 128 + sig
                         : g_error_matches(error, RUN_ERROR, RUN_ERROR_FAILED) ? EXIT_FAILED
                                                                               : EXIT_INPUT);
        goto out;
    }
    rc = 0;
out:
    g_free(drive), g_free(spec), g_free(job), g_free(trace), g_free(out), g_free(interval);
    g_free(interval_bytes), g_free(trace_fmt), g_free(blk), g_free(replay), g_free(max_idle);
    g_free(lba_map), g_free(plot_fmt), g_free(prefill), g_free(emit), g_free(max_time);
    g_free(out_fmt), g_free(output);
    g_free(drive_path);
    g_strfreev(sets);
    g_strfreev(vary);
    return rc;
}

static int cmd_calibrate(int argc, char **argv)
{
    CalibOptions co;
    calib_options_init(&co);
    char *drive = NULL, *spec = NULL, *job = NULL, *out = NULL, *curve = NULL, *prefill = NULL;
    char **sets = NULL, **figures = NULL, **fits = NULL;
    gint64 seed = 1;
    gint jobs = 1, max_evals = CALIB_DEFAULT_MAX_EVALS, starts = -1;
    gboolean force = FALSE, quiet = FALSE;
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI) to calibrate", "FILE"},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "The workload the curve was measured with: inline fio-style or a named one", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &job, "fio job file instead of --workload", "FILE"},
        {"curve", 'c', 0, G_OPTION_ARG_FILENAME, &curve,
         "Measured curve: CSV with a header GB,MBps or t_s,MBps or t_s,IOPS", "FILE"},
        {"figure", 0, 0, G_OPTION_ARG_STRING_ARRAY, &figures,
         "Measured figure (repeatable): cliff_gb[:PCT], rate@GB=A..B, rate@t=A..B, iops@t=A..B, "
         "phase_rate:N, waf or summary:NAME, e.g. --figure cliff_gb=42", "ID=VALUE[:WEIGHT]"},
        {"fit", 0, 0, G_OPTION_ARG_STRING_ARRAY, &fits,
         "Drive key to fit within a range (repeatable), e.g. --fit pslc.dynamic_cap=20GB..60GB; "
         "workload.thinktime fits the host's pause after each command, env.NAME a job "
         "file's ${NAME} (a time or a bandwidth)",
         "GROUP.KEY=LO..HI"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a drive key for every run (repeatable)", "GROUP.KEY=VALUE"},
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &prefill,
         "Age the drive before every run, as run --prefill does", "PCT%[:random][:slc=SIZE]"},
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
         "Results folder: calibrated.ini, fit.json, curves.csv, fit.png", "DIR"},
        {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "Overwrite an existing results folder", NULL},
        {"jobs", 'J', 0, G_OPTION_ARG_INT, &jobs, "Simulations at once, each in its own process (1)",
         "N"},
        {"max-evals", 0, 0, G_OPTION_ARG_INT, &max_evals,
         "Simulations the search may run before it stops (60)", "N"},
        {"starts", 0, 0, G_OPTION_ARG_INT, &starts,
         "Spread start points run besides the config's own (default 2 x jobs - 1)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Random seed of every run (1)", "N"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL},
        G_OPTION_ENTRY_NULL,
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- fit drive keys to a measured curve and figures");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Example:\n  ftlsim calibrate --drive configs/870qvo.ini --workload "
             "'rw=write,bs=1m,iodepth=2,size=60g' --curve qvo.csv --fit "
             "pslc.dynamic_cap=20GB..60GB --fit timing.qlc.t_prog=6ms..20ms --jobs 2 --out "
             "results/cal\n\nThe loss, the figure language and the outputs: docs/calibration.md.\n");
    GError *error = NULL;
    int rc = EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    if (argc > 1) {
        rc = usage_error(ctx, "calibrate takes no positional arguments");
        goto out;
    }
    if (jobs < 1 || jobs > 256) {
        rc = usage_error(ctx, "--jobs: expected an integer from 1 to 256");
        goto out;
    }
    if (max_evals < 1 || max_evals > 100000) {
        rc = usage_error(ctx, "--max-evals: expected an integer from 1 to 100000");
        goto out;
    }
    if (starts < -1 || starts > 1000) {
        rc = usage_error(ctx, "--starts: expected an integer from 0 to 1000");
        goto out;
    }
    co.run.drive = drive;
    co.run.spec = spec;
    co.run.job = job;
    co.run.out = out;
    co.run.force = force;
    co.run.quiet = quiet;
    co.run.seed = (uint64_t)seed;
    co.run.sets = (const char *const *)sets;
    co.run.prefill = prefill;
    co.run.script_dir = scripts;
    co.curve = curve;
    co.figures = (const char *const *)figures;
    co.fits = (const char *const *)fits;
    co.jobs = (guint)jobs;
    co.max_evals = (guint)max_evals;
    co.starts = starts < 0 ? G_MAXUINT : (guint)starts;
    if (!run_calibration(&co, &error)) {
        rc = fail(error, g_error_matches(error, RUN_ERROR, RUN_ERROR_FAILED) ? EXIT_FAILED
                                                                            : EXIT_INPUT);
        goto out;
    }
    rc = 0;
out:
    g_free(drive), g_free(spec), g_free(job), g_free(out), g_free(curve), g_free(prefill);
    g_strfreev(sets), g_strfreev(figures), g_strfreev(fits);
    return rc;
}

/* check's estimate for one run: its prefill and workload, as run takes them. */
static gboolean check_run_memory(const DriveParams *p, const char *spec, const char *job,
                                 const char *trace, const char *prefill, GString *out,
                                 GError **error)
{
    if ((spec != NULL) + (job != NULL) + (trace != NULL) > 1) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "give only one of --workload, --job and --trace");
        return FALSE;
    }
    DrivePrefill pf = {0};
    if (prefill && !run_parse_prefill(prefill, &pf, error))
        return FALSE;
    g_autoptr(Workload) w = NULL;
    if (spec && !(w = workload_from_spec(spec, error)))
        return FALSE;
    if (job && !(w = workload_from_jobfile(job, error)))
        return FALSE;
    MemoryClass mc;
    /* a trace (w NULL) is the worst case: its addresses are not read up front */
    run_memory_class(prefill ? &pf : NULL, w, p->user_capacity, &mc);
    if (!trace && !w) /* only a prefill */
        mc.random_bytes = 0;
    config_describe_run_memory(p, &mc, out);
    return TRUE;
}

static int cmd_check(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("[FILE.ini] - print the derived drive and the memory to simulate it");
    g_auto(GStrv) sets = NULL;
    g_autofree char *drive = NULL, *spec = NULL, *job = NULL, *trace = NULL, *prefill = NULL;
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI), or give it as FILE",
         "FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a drive key (repeatable), e.g. --set nand.blocks_per_plane=1900", "GROUP.KEY=VALUE"},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "Also estimate the memory of a run of this workload (as run takes it)", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &job, "The same for an fio job file", "FILE"},
        {"trace", 't', 0, G_OPTION_ARG_FILENAME, &trace,
         "The same for a trace replay (estimated as the worst case)", "FILE"},
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &prefill,
         "The run's --prefill, PCT%[:random][:slc=SIZE]", "SPEC"},
        G_OPTION_ENTRY_NULL,
    };
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "The simulator's memory is estimated for four workload classes: a tenth of the\n"
             "drive written in order; an empty drive filled sequentially; a drive prefilled\n"
             "sequentially, then given 20 GB of 4 KiB random writes; a fully fragmented drive\n"
             "(every page mapped at random: the worst case). With --workload, --job, --trace\n"
             "or --prefill, also for that run. A drive whose 4 KiB slots or pages outnumber\n"
             "32 bits keeps a sparse map, which check says. A run refuses up front (exit 2) a\n"
             "drive whose estimate exceeds the memory available (FTLSIM_MEMORY_LIMIT, or\n"
             "MemAvailable plus free swap).\n"
             "Example:\n  ftlsim check -d configs/860evo.ini --prefill 100%:random "
             "-w 'rw=randwrite,bs=4k,io_size=20g'\n");
    GError *error = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &error))
        return fail(error, EXIT_INPUT);
    if (argc + (drive != NULL) != 2)
        return usage_error(ctx, "check takes one drive file");
    DriveParams p;
    g_autofree char *path = resolve_drive(drive ? drive : argv[1], &error);
    if (!path || !config_load_file_set(path, (const char *const *)sets, &p, &error))
        return fail(error, EXIT_INPUT);
    g_autoptr(GString) out = g_string_new(NULL);
    config_describe(&p, out);
    if ((spec || job || trace || prefill) &&
        !check_run_memory(&p, spec, job, trace, prefill, out, &error))
        return fail(error, EXIT_INPUT);
    fputs(out->str, stdout);
    return 0;
}

static int cmd_drives(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new("[DIR] - list the drive configs in DIR");
    GError *error = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &error))
        return fail(error, EXIT_INPUT);
    if (argc > 2)
        return usage_error(ctx, "drives takes at most one folder");
    g_autofree char *dir = argc == 2 ? g_strdup(argv[1]) : default_drives_dir();
    g_autoptr(GString) out = g_string_new(NULL);
    if (!config_list_drives(dir, out, &error))
        return fail(error, EXIT_INPUT);
    fputs(out->str, stdout);
    return 0;
}

static int cmd_plot(int argc, char **argv)
{
    char *out = NULL, *fmt = NULL;
    GOptionEntry entries[] = {
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Figure to write", "FILE"},
        {"plot-format", 0, 0, G_OPTION_ARG_STRING, &fmt, "png (default) or svg", "FMT"},
        G_OPTION_ENTRY_NULL,
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("DIR... - overlay the write curves of several results folders");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    int rc = EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    if (argc < 2 || !out) {
        rc = usage_error(ctx, "plot needs results folders and --out FILE");
        goto out;
    }
    PlotFormat pf = fmt && g_strcmp0(fmt, "svg") == 0 ? PLOT_SVG : PLOT_PNG;
    if (fmt && pf == PLOT_PNG && g_strcmp0(fmt, "png") != 0) {
        rc = usage_error(ctx, "--plot-format: expected png or svg");
        goto out;
    }
    if (!plot_overlay((const char *const *)argv + 1, out, scripts, pf, &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    rc = 0;
out:
    g_free(out);
    g_free(fmt);
    return rc;
}

static int cmd_sweep(int argc, char **argv)
{
    char *fmt = NULL;
    gboolean plot = FALSE;
    GOptionEntry entries[] = {
        {"plot", 'p', 0, G_OPTION_ARG_NONE, &plot, "Draw the overlay of the finished runs too",
         NULL},
        {"plot-format", 0, 0, G_OPTION_ARG_STRING, &fmt, "png (default) or svg", "FMT"},
        G_OPTION_ENTRY_NULL,
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new(
        "collect DIR - build sweep.csv from the finished runs of a sweep written by run --vary "
        "--emit");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Example:\n  ftlsim run -d configs/870qvo.ini -w fill --vary pslc.static=0,6GB,12GB "
             "--emit parallel -o results/static\n  parallel < results/static/jobs.txt\n"
             "  ftlsim sweep collect results/static --plot\n\nExit status: 0 every run "
             "finished, 1 some are missing or failed (each is named on stderr; the table holds "
             "the others), 2 bad input.\n");
    GError *error = NULL;
    int rc = EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    if (argc != 3 || strcmp(argv[1], "collect") != 0) {
        rc = usage_error(ctx, "expected 'sweep collect DIR'");
        goto out;
    }
    static const char *const fmt_names[] = {"png", "svg", NULL};
    int fmt_v = PLOT_PNG;
    if (!pick(fmt, fmt_names, &fmt_v, "--plot-format", &error)) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    guint missing = 0;
    if (!run_sweep_collect(argv[2], plot, fmt_v, scripts, &missing, &error)) {
        rc = fail(error, g_error_matches(error, RUN_ERROR, RUN_ERROR_FAILED) ? EXIT_FAILED
                                                                            : EXIT_INPUT);
        goto out;
    }
    rc = missing ? EXIT_FAILED : 0;
out:
    g_free(fmt);
    return rc;
}

static int cmd_reference(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- print the documented reference config (configs/reference.ini)");
    GError *error = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &error))
        return fail(error, EXIT_INPUT);
    if (argc != 1)
        return usage_error(ctx, "config-reference takes no arguments");
    g_autofree char *text = config_reference_ini();
    fputs(text, stdout);
    return 0;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"run", cmd_run, "simulate a drive under a workload, write results and figures"},
    {"calibrate", cmd_calibrate, "fit drive keys to a measured curve and figures"},
    {"pts", pts_main, "run a SNIA PTS test: write saturation, IOPS matrix, throughput, latency"},
    {"check", cmd_check, "validate a drive file and print the derived drive"},
    {"drives", cmd_drives, "list the drive files in a folder (default configs/ or the config path)"},
    {"plot", cmd_plot, "overlay write curves of several results folders"},
    {"sweep", cmd_sweep, "collect DIR: build sweep.csv from the runs of an emitted sweep"},
    {"config-reference", cmd_reference, "print the documented reference config (configs/reference.ini)"},
};

static void print_help(FILE *f)
{
    fprintf(f, "Usage: ftlsim COMMAND [OPTIONS]\n\nA discrete-event SSD simulator.\n\nCommands:\n");
    for (unsigned i = 0; i < G_N_ELEMENTS(commands); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'ftlsim COMMAND --help' lists a command's options. 'ftlsim --version' prints the "
               "version.\nExit status: 0 ok, 1 simulation failed, 2 bad input, 130/143 interrupted\n"
               "(SIGINT/SIGTERM: the results so far are written).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_INPUT;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("ftlsim %s\n", ftlsim_version());
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help(stdout);
        return 0;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(commands); i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            g_autofree char *prg = g_strdup_printf("ftlsim %s", argv[1]);
            g_set_prgname(prg);
            return commands[i].fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "ftlsim: unknown command \"%s\" (see ftlsim --help)\n", argv[1]);
    return EXIT_INPUT;
}
