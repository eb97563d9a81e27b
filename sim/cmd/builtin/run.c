/*
 * run.c - "ftlsim run": its options into RunOptions, then one run or a
 * sweep (sim/cmd/run.c, sweep.c).
 */
#include "sim/cmd/builtin/builtin.h"

#include "sim/cmd/run.h"
#include "sim/output/plot.h"
#include "sim/run/runner.h"

#include <stdio.h>
#include <string.h>

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

int cmd_run(int argc, char **argv)
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
    gint64 seed = 1, device = -1, check_every = 0;
    gint iodepth = 32, jobs = 1;
    double time_scale = 1.0;
    gboolean force = FALSE, quiet = FALSE, plot = FALSE, live = FALSE, check = FALSE,
             skip_bad = FALSE, series_pct = FALSE, sweep_row = FALSE, dry_run = FALSE;
    g_autofree char *trace_fmt_names = g_strjoinv(", ", (char **)trace_formats());
    g_autofree char *trace_fmt_help =
        g_strdup_printf("Trace format (%s); default: detect", trace_fmt_names);
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI)", "FILE"},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "Inline fio-style workload or a named one (fill, cdm, random-notrim, read-after-write, "
         "trim-stall, cache-vs-fill, steady-random; parameters after a colon, e.g. "
         "steady-random:threads=8:iodepth=16:round=10s)", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &job, "fio job file", "FILE"},
        {"trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "Block trace to replay (.gz read too)",
         "FILE"},
        {"trace-format", 0, 0, G_OPTION_ARG_STRING, &trace_fmt, trace_fmt_help, "NAME"},
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
        {"check-every", 0, 0, G_OPTION_ARG_INT64, &check_every,
         "Also verify them after every N commands completed; the run fails at the first "
         "broken one (slow: each check reads the whole drive)", "N"},
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
         "What to print: summary (ftlsim's, the default), or fio's outputs: normal, terse, "
         "json or json+", "FMT"},
        {"output", 0, 0, G_OPTION_ARG_FILENAME, &output,
         "Write what would be printed into FILE instead", "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL},
        {"dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run,
         "Check every input and bind the workload to the drive, then stop: nothing is "
         "simulated or written (the --prefill room in the pSLC cache is not checked)", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GError *error = NULL;
    int rc = CMD_EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    g_autoptr(GOptionContext) ctx = cmd_options(
        "- simulate a drive under a workload", entries, "Example:\n  ftlsim run --drive configs/870qvo.ini --workload fill --out results/qvo "
             "--plot\n  ftlsim run -d configs/860pro.ini -w 'rw=randwrite,bs=4k,iodepth=32,"
             "io_size=100g' -o results/rw\n  ftlsim run -d configs/870qvo.ini -w fill --vary "
             "pslc.static=0,6GB,12GB -o results/static --plot\n", TRUE, &argc, &argv);
    if (!ctx)
        goto out;
    if (!drive) {
        rc = cmd_usage(ctx, "run needs --drive FILE");
        goto out;
    }
    if (!check_run_options(out, time_scale, iodepth, seed, plot, live, &error)) {
        rc = cmd_fail(error, CMD_EXIT_INPUT);
        goto out;
    }
    drive_path = cmd_resolve_drive(drive, &error);
    if (!drive_path) {
        rc = cmd_fail(error, CMD_EXIT_INPUT);
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
    if (check_every < 0) {
        rc = cmd_usage(ctx, "--check-every: expected a count of commands, 1 or more");
        goto out;
    }
    o.check_every = (uint64_t)check_every;
    o.prefill = prefill;
    o.sets = (const char *const *)sets;
    o.series_percentiles = series_pct;
    o.sweep_row_file = sweep_row;
    o.dry_run = dry_run;
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
    static const char *const out_names[] = {"summary", "normal", "terse", "json", "json+",
                                            NULL};
    int blk_v = o.trace_opt.blk_events, replay_v = o.replay.mode, map_v = o.replay.lba_map;
    int fmt_v = o.plot_format, out_v = RUN_OUTPUT_SUMMARY;
    if (!cmd_pick(blk, blk_names, &blk_v, "--blk-events", &error) ||
        !cmd_pick(replay, replay_names, &replay_v, "--replay", &error) ||
        !cmd_pick(lba_map, map_names, &map_v, "--lba-map", &error) ||
        !cmd_pick(plot_fmt, fmt_names, &fmt_v, "--plot-format", &error) ||
        !cmd_pick(out_fmt, out_names, &out_v, "--output-format", &error) ||
        (max_time && !cmd_parse_time(max_time, &o.max_time, "--max-time", &error)) ||
        (interval && !cmd_parse_time(interval, &o.interval, "--interval", &error)) ||
        (interval_bytes &&
         !cmd_parse_size(interval_bytes, &o.interval_bytes, "--interval-bytes", &error)) ||
        (interval_bytes && o.interval_bytes == 0 &&
         !cmd_refuse_zero(interval_bytes, "--interval-bytes", &error)) ||
        (max_idle && !cmd_parse_time(max_idle, &o.replay.max_idle_ns, "--max-idle", &error))) {
        rc = cmd_fail(error, CMD_EXIT_INPUT);
        goto out;
    }
    o.trace_opt.blk_events = blk_v;
    o.replay.mode = replay_v;
    o.replay.lba_map = map_v;
    o.plot_format = fmt_v;
    o.output_format = out_v;
    o.output = output;
    if (jobs < 1 || jobs > 256) {
        rc = cmd_usage(ctx, "--jobs: expected an integer from 1 to 256");
        goto out;
    }
    if (jobs > 1 && !vary) {
        rc = cmd_usage(ctx, "--jobs goes with --vary");
        goto out;
    }
    if (emit) {
        static const char *const emit_names[] = {"none", "parallel", "slurm", NULL};
        int emit_v = EMIT_NONE;
        if (!cmd_pick(emit, emit_names, &emit_v, "--emit", &error)) {
            rc = cmd_fail(error, CMD_EXIT_INPUT);
            goto out;
        }
        if (emit_v != EMIT_NONE && !vary) {
            rc = cmd_usage(ctx, "--emit goes with --vary");
            goto out;
        }
        if (emit_v != EMIT_NONE && (jobs > 1 || plot || live)) {
            rc = cmd_usage(ctx, "--emit writes jobs and runs nothing: --jobs, --plot and --live "
                                  "do not go with it (plot with 'ftlsim sweep collect --plot')");
            goto out;
        }
        o.emit = emit_v;
        rerun = rerun_args(given, g_strv_length(given), entries);
        o.rerun_args = (const char *const *)rerun;
    }
    runner_catch_signals();
    if (vary ? !run_sweep(&o, (const char *const *)vary, (guint)jobs, &error)
             : !run_simulation(&o, &error)) {
        int sig = runner_signal();
        rc = sig ? cmd_fail(error, 128 + sig) : cmd_fail_run(error);
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
