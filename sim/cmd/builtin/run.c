/*
 * run.c - "ftlsim run": its options into RunOptions, then one run or a
 * sweep (sim/cmd/run.c, sweep.c).
 */
#include "sim/cmd/builtin/builtin.h"
#include "sim/cmd/session.h"

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

/* run's own options as GOption leaves them, before they are read into
 * RunOptions (the shared ones are in a CmdCommon). */
typedef struct RunArgs {
    char *spec, *job, *trace, *trace_fmt, *blk, *replay, *max_idle, *lba_map, *interval;
    char *interval_bytes, *emit, *max_time, *out_fmt, *output;
    char **vary;
    gint64 device, check_every;
    gint iodepth, jobs;
    double time_scale;
    gboolean live, check, skip_bad, series_pct, sweep_row;
} RunArgs;

static void run_args_clear(RunArgs *a)
{
    char **strs[] = {&a->spec,     &a->job,    &a->trace,          &a->trace_fmt, &a->blk,
                     &a->replay,   &a->max_idle, &a->lba_map,      &a->interval,
                     &a->interval_bytes, &a->emit, &a->max_time,   &a->out_fmt,   &a->output};
    for (unsigned i = 0; i < G_N_ELEMENTS(strs); i++)
        g_clear_pointer(strs[i], g_free);
    g_clear_pointer(&a->vary, g_strfreev);
}

#define RUN_N_ENTRIES 25 /* run_entries(), the terminator left out */

/* run's own entries into e[RUN_N_ENTRIES + 1]. */
static void run_entries(RunArgs *a, const char *trace_fmt_help, GOptionEntry *e)
{
    const GOptionEntry t[] = {
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &a->spec,
         "Inline fio-style workload or a named one (fill, cdm, random-notrim, read-after-write, "
         "trim-stall, cache-vs-fill, steady-random; parameters after a colon, e.g. "
         "steady-random:threads=8:iodepth=16:round=10s)", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &a->job, "fio job file", "FILE"},
        {"trace", 't', 0, G_OPTION_ARG_FILENAME, &a->trace,
         "Block trace to replay (.gz read too)", "FILE"},
        {"trace-format", 0, 0, G_OPTION_ARG_STRING, &a->trace_fmt, trace_fmt_help, "NAME"},
        {"blk-events", 0, 0, G_OPTION_ARG_STRING, &a->blk, "blkparse events: auto, Q or D", "EV"},
        {"trace-device", 0, 0, G_OPTION_ARG_INT64, &a->device,
         "Replay only this device or volume", "N"},
        {"skip-bad-lines", 0, 0, G_OPTION_ARG_NONE, &a->skip_bad,
         "Count malformed trace lines instead of failing", NULL},
        {"replay", 0, 0, G_OPTION_ARG_STRING, &a->replay,
         "open (honour timestamps, default) or closed (keep --iodepth outstanding)", "MODE"},
        {"iodepth", 0, 0, G_OPTION_ARG_INT, &a->iodepth,
         "Closed replay: commands outstanding (32)", "N"},
        {"time-scale", 0, 0, G_OPTION_ARG_DOUBLE, &a->time_scale,
         "Open replay: multiply trace gaps by this", "X"},
        {"max-idle", 0, 0, G_OPTION_ARG_STRING, &a->max_idle,
         "Open replay: shrink longer idle gaps to this", "TIME"},
        {"lba-map", 0, 0, G_OPTION_ARG_STRING, &a->lba_map,
         "Trace addresses beyond the drive: error (default), wrap or scale", "HOW"},
        {"interval", 0, 0, G_OPTION_ARG_STRING, &a->interval,
         "Series row per simulated time (0.5s)", "TIME"},
        {"interval-bytes", 0, 0, G_OPTION_ARG_STRING, &a->interval_bytes,
         "Series row per amount written instead, e.g. 1GB", "SIZE"},
        {"series-percentiles", 0, 0, G_OPTION_ARG_NONE, &a->series_pct,
         "Add read and write latency p50, p99, p99.9 of each interval to series.csv", NULL},
        {"live", 0, 0, G_OPTION_ARG_NONE, &a->live,
         "Keep a live write-curve figure while running", NULL},
        {"check", 0, 0, G_OPTION_ARG_NONE, &a->check, "Verify the FTL invariants at the end",
         NULL},
        {"check-every", 0, 0, G_OPTION_ARG_INT64, &a->check_every,
         "Also verify them after every N commands completed; the run fails at the first "
         "broken one (slow: each check reads the whole drive)", "N"},
        {"vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->vary,
         "Run once per value of a drive key (repeatable: every combination) into --out/KEY=VALUE, "
         "with a table sweep.csv, e.g. --vary pslc.static=0,6GB,12GB", "GROUP.KEY=V1,V2,..."},
        {"jobs", 'J', 0, G_OPTION_ARG_INT, &a->jobs,
         "With --vary: runs at once, each in its own process (1)", "N"},
        {"emit", 0, 0, G_OPTION_ARG_STRING, &a->emit,
         "With --vary: write the runs into --out as jobs for GNU parallel (parallel) or a Slurm "
         "array (slurm) instead of running them; then 'ftlsim sweep collect DIR'", "KIND"},
        {"sweep-row", 0, 0, G_OPTION_ARG_NONE, &a->sweep_row,
         "Also write sweep-row.csv, the run's measures as a row of sweep.csv (emitted jobs use it)",
         NULL},
        {"max-time", 0, 0, G_OPTION_ARG_STRING, &a->max_time,
         "Stop every job at this simulated time (e.g. 30s): none sends a command after "
         "it, and the run ends once the commands in flight have completed; a drive that "
         "still holds one 30 s later fails the run (exit 1)", "TIME"},
        {"output-format", 0, 0, G_OPTION_ARG_STRING, &a->out_fmt,
         "What to print: summary (ftlsim's, the default), or fio's outputs: normal, terse, "
         "json or json+", "FMT"},
        {"output", 0, 0, G_OPTION_ARG_FILENAME, &a->output,
         "Write what would be printed into FILE instead", "FILE"},
    };
    G_STATIC_ASSERT(G_N_ELEMENTS(t) == RUN_N_ENTRIES);
    memcpy(e, t, sizeof t);
    memset(&e[RUN_N_ENTRIES], 0, sizeof *e);
}
/* Options that GOption reads but cannot bound: refused rather than
 * coerced, since a value bent into another one runs a different experiment. */
static gboolean check_run_options(const CmdCommon *c, const RunArgs *a, GError **error)
{
    /* a gap times the scale must stay a finite number of nanoseconds */
    if (!(a->time_scale > 0 && a->time_scale <= RUN_TIME_SCALE_MAX)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--time-scale %g: expected a number greater than 0 and at most %g",
                    a->time_scale, RUN_TIME_SCALE_MAX);
        return FALSE;
    }
    if (a->iodepth < 1 || a->iodepth > RUN_IODEPTH_MAX) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--iodepth %d: expected an integer from 1 to %d", a->iodepth, RUN_IODEPTH_MAX);
        return FALSE;
    }
    if ((c->plot || a->live) && !c->out) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: the figures go into the results folder; expected --out DIR too",
                    c->plot ? "--plot" : "--live");
        return FALSE;
    }
    return TRUE;
}

/* The values of run's own options into o. */
static gboolean run_read_args(RunOptions *o, const RunArgs *a, GError **error)
{
    static const char *const blk_names[] = {"auto", "Q", "D", NULL};
    static const char *const replay_names[] = {"open", "closed", NULL};
    static const char *const map_names[] = {"error", "wrap", "scale", NULL};
    static const char *const out_names[] = {"summary", "normal", "terse", "json", "json+",
                                            NULL};
    int blk_v = o->trace_opt.blk_events, replay_v = o->replay.mode, map_v = o->replay.lba_map;
    int out_v = RUN_OUTPUT_SUMMARY;
    if (!cmd_pick(a->blk, blk_names, &blk_v, "--blk-events", error) ||
        !cmd_pick(a->replay, replay_names, &replay_v, "--replay", error) ||
        !cmd_pick(a->lba_map, map_names, &map_v, "--lba-map", error) ||
        !cmd_pick(a->out_fmt, out_names, &out_v, "--output-format", error) ||
        (a->max_time && !cmd_parse_time(a->max_time, &o->max_time, "--max-time", error)) ||
        (a->interval && !cmd_parse_time(a->interval, &o->interval, "--interval", error)) ||
        (a->interval_bytes &&
         !cmd_parse_size(a->interval_bytes, &o->interval_bytes, "--interval-bytes", error)) ||
        (a->interval_bytes && o->interval_bytes == 0 &&
         !cmd_refuse_zero(a->interval_bytes, "--interval-bytes", error)) ||
        (a->max_idle &&
         !cmd_parse_time(a->max_idle, &o->replay.max_idle_ns, "--max-idle", error)))
        return FALSE;
    o->trace_opt.blk_events = blk_v;
    o->replay.mode = replay_v;
    o->replay.lba_map = map_v;
    o->output_format = out_v;
    o->spec = a->spec;
    o->job = a->job;
    o->trace = a->trace;
    o->output = a->output;
    o->live = a->live;
    o->check = a->check;
    o->check_every = (uint64_t)a->check_every;
    o->series_percentiles = a->series_pct;
    o->sweep_row_file = a->sweep_row;
    o->trace_opt.format = a->trace_fmt;
    o->trace_opt.device = a->device;
    o->trace_opt.skip_bad_lines = a->skip_bad;
    o->replay.iodepth = (uint32_t)a->iodepth;
    o->replay.time_scale = a->time_scale;
    return TRUE;
}

/* --jobs and --emit, which go with --vary, into so; for an emitted sweep,
 * the runs' own arguments from given (argv as typed) into *rerun. 0, or the
 * exit status with the error printed. */
static int run_sweep_options(SweepOptions *so, const RunArgs *a, const CmdCommon *c,
                             GOptionContext *ctx, char **given, const GOptionEntry *all,
                             GStrv *rerun)
{
    GError *error = NULL;
    if (a->jobs < 1 || a->jobs > 256)
        return cmd_usage(ctx, "--jobs: expected an integer from 1 to 256");
    if (a->jobs > 1 && !a->vary)
        return cmd_usage(ctx, "--jobs goes with --vary");
    if (!a->emit)
        return 0;
    static const char *const emit_names[] = {"none", "parallel", "slurm", NULL};
    int emit_v = EMIT_NONE;
    if (!cmd_pick(a->emit, emit_names, &emit_v, "--emit", &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    if (emit_v != EMIT_NONE && !a->vary)
        return cmd_usage(ctx, "--emit goes with --vary");
    if (emit_v != EMIT_NONE && (a->jobs > 1 || c->plot || a->live))
        return cmd_usage(ctx, "--emit writes jobs and runs nothing: --jobs, --plot and --live "
                              "do not go with it (plot with 'ftlsim sweep collect --plot')");
    so->emit = emit_v;
    *rerun = rerun_args(given, g_strv_length(given), all);
    so->rerun_args = (const char *const *)*rerun;
    return 0;
}

/* run, its options parsed into c and a. */
static int run_main(CmdCommon *c, RunArgs *a, GOptionContext *ctx, char **given,
                    const GOptionEntry *all)
{
    GError *error = NULL;
    RunOptions o;
    run_options_init(&o);
    if (!cmd_common_finish(c, ctx))
        return CMD_EXIT_INPUT;
    if (!check_run_options(c, a, &error) || !run_read_args(&o, a, &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    if (a->check_every < 0)
        return cmd_usage(ctx, "--check-every: expected a count of commands, 1 or more");
    g_autofree char *scripts = plot_script_dir();
    o.drive = c->drive;
    o.out = c->out;
    o.force = c->force;
    o.quiet = c->quiet;
    o.seed = (uint64_t)c->seed;
    o.plot = c->plot;
    o.plot_format = c->plot_format;
    o.prefill = c->prefill;
    o.sets = (const char *const *)c->sets;
    o.dry_run = c->dry_run;
    o.script_dir = scripts;
    g_auto(GStrv) rerun = NULL;
    SweepOptions so = {.run = &o, .vary = (const char *const *)a->vary, .jobs = (guint)a->jobs};
    int rc = run_sweep_options(&so, a, c, ctx, given, all, &rerun);
    if (rc)
        return rc;
    session_catch_signals();
    if (a->vary ? !run_sweep(&so, &error) : !run_simulation(&o, &error))
        return cmd_fail_run(error);
    return 0;
}

int cmd_run(int argc, char **argv)
{
    CmdCommon c = CMD_COMMON_INIT(CMD_OPT_DRIVE | CMD_OPT_OUT | CMD_OPT_FORCE | CMD_OPT_SEED |
                                      CMD_OPT_SET | CMD_OPT_PREFILL | CMD_OPT_PLOT |
                                      CMD_OPT_QUIET | CMD_OPT_DRY_RUN,
                                  "run");
    c.set_help = "Override a drive key for this run (repeatable), e.g. --set pslc.static=12GB";
    c.dry_run_help = "Check every input and bind the workload to the drive, then stop: nothing "
                     "is simulated or written (the --prefill room in the pSLC cache is not "
                     "checked)";
    RunArgs a = {.device = -1, .iodepth = 32, .jobs = 1, .time_scale = 1.0};
    g_auto(GStrv) given = g_strdupv(argv); /* GOption takes argv apart */
    g_autofree char *trace_fmt_names = g_strjoinv(", ", (char **)trace_formats());
    g_autofree char *trace_fmt_help =
        g_strdup_printf("Trace format (%s); default: detect", trace_fmt_names);
    GOptionEntry entries[RUN_N_ENTRIES + 1];
    run_entries(&a, trace_fmt_help, entries);
    g_autofree GOptionEntry *all = cmd_entries(&c, entries); /* for an emitted sweep's runs */
    g_autoptr(GOptionContext) ctx = cmd_options(
        "- simulate a drive under a workload", &c, entries,
        "Example:\n  ftlsim run --drive configs/870qvo.ini --workload fill --out results/qvo "
        "--plot\n  ftlsim run -d configs/860pro.ini -w 'rw=randwrite,bs=4k,iodepth=32,"
        "io_size=100g' -o results/rw\n  ftlsim run -d configs/870qvo.ini -w fill --vary "
        "pslc.static=0,6GB,12GB -o results/static --plot\n",
        TRUE, &argc, &argv);
    int rc = !ctx ? CMD_EXIT_INPUT : run_main(&c, &a, ctx, given, all);
    run_args_clear(&a);
    cmd_common_clear(&c);
    return rc;
}
