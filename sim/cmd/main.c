/*
 * main.c - the ftlsim command: run, pts, check, drives, plot, reference.
 *
 * Only main() prints errors and chooses exit codes: 0 ok, 1 the simulation
 * failed, 2 bad input (options, drive file, workload, trace).
 */
#include "sim/config/config.h"
#include "sim/output/plot.h"
#include "sim/cmd/pts.h"
#include "sim/cmd/run.h"
#include "sim/cmd/version.h"
#include "sim/host/workload.h"

#include <stdio.h>
#include <string.h>

#define EXIT_FAILED 1
#define EXIT_INPUT 2

static int fail(GError *error, int code)
{
    fprintf(stderr, "%s\n", error->message);
    g_error_free(error);
    return code;
}

static int usage_error(GOptionContext *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "ftlsim: %s (see ftlsim --help)\n", msg);
    return EXIT_INPUT;
}

/* The gnuplot scripts: next to an installed binary, else the source tree. */
static char *script_dir(void)
{
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        g_autofree char *bindir = g_path_get_dirname(exe);
        char *installed = g_build_filename(bindir, "..", "share", "ftlsim", "plot", NULL);
        if (g_file_test(installed, G_FILE_TEST_IS_DIR))
            return installed;
        g_free(installed);
    }
    return g_strdup(FTLSIM_SOURCE_DIR "/scripts/plot");
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

static int cmd_run(int argc, char **argv)
{
    RunOptions o;
    run_options_init(&o);
    char *drive = NULL, *spec = NULL, *job = NULL, *trace = NULL, *out = NULL;
    char *interval = NULL, *interval_bytes = NULL, *fmt = NULL, *trace_fmt = NULL;
    char *blk = NULL, *replay = NULL, *max_idle = NULL, *lba_map = NULL, *plot_fmt = NULL;
    char *prefill = NULL;
    char **sets = NULL, **vary = NULL;
    gint64 seed = 1, device = -1;
    gint iodepth = 32, jobs = 1;
    double time_scale = 1.0;
    gboolean force = FALSE, quiet = FALSE, plot = FALSE, live = FALSE, check = FALSE,
             skip_bad = FALSE, series_pct = FALSE;
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI)", "FILE"},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "Inline fio-style workload or a named one (fill, cdm, random-notrim, read-after-write, "
         "trim-stall, cache-vs-fill)", "SPEC"},
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
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &prefill,
         "Age the drive first, without simulating the time: PCT%[:random][:slc=SIZE], e.g. "
         "90%:random or 50%:slc=10GB", "SPEC"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL},
        G_OPTION_ENTRY_NULL,
    };
    (void)fmt;
    g_autoptr(GOptionContext) ctx = g_option_context_new("- simulate a drive under a workload");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Example:\n  ftlsim run --drive configs/870qvo.ini --workload fill --out results/qvo "
             "--plot\n  ftlsim run -d configs/860pro.ini -w 'rw=randwrite,bs=4k,iodepth=32,"
             "io_size=100g' -o results/rw\n  ftlsim run -d configs/870qvo.ini -w fill --vary "
             "pslc.static=0,6GB,12GB -o results/static --plot\n");
    GError *error = NULL;
    int rc = EXIT_INPUT;
    g_autofree char *scripts = script_dir();
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
    o.drive = drive;
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
    o.script_dir = scripts;
    o.trace_opt.format = trace_fmt;
    o.trace_opt.device = device;
    o.trace_opt.skip_bad_lines = skip_bad;
    o.replay.iodepth = iodepth > 0 ? (uint32_t)iodepth : 1;
    o.replay.time_scale = time_scale;
    static const char *const blk_names[] = {"auto", "Q", "D", NULL};
    static const char *const replay_names[] = {"open", "closed", NULL};
    static const char *const map_names[] = {"error", "wrap", "scale", NULL};
    static const char *const fmt_names[] = {"png", "svg", NULL};
    int blk_v = o.trace_opt.blk_events, replay_v = o.replay.mode, map_v = o.replay.lba_map;
    int fmt_v = o.plot_format;
    if (!pick(blk, blk_names, &blk_v, "--blk-events", &error) ||
        !pick(replay, replay_names, &replay_v, "--replay", &error) ||
        !pick(lba_map, map_names, &map_v, "--lba-map", &error) ||
        !pick(plot_fmt, fmt_names, &fmt_v, "--plot-format", &error) ||
        (interval && !parse_time_opt(interval, &o.interval, "--interval", &error)) ||
        (interval_bytes &&
         !parse_size_opt(interval_bytes, &o.interval_bytes, "--interval-bytes", &error)) ||
        (max_idle && !parse_time_opt(max_idle, &o.replay.max_idle_ns, "--max-idle", &error))) {
        rc = fail(error, EXIT_INPUT);
        goto out;
    }
    o.trace_opt.blk_events = blk_v;
    o.replay.mode = replay_v;
    o.replay.lba_map = map_v;
    o.plot_format = fmt_v;
    if (jobs < 1 || jobs > 256) {
        rc = usage_error(ctx, "--jobs: expected an integer from 1 to 256");
        goto out;
    }
    if (jobs > 1 && !vary) {
        rc = usage_error(ctx, "--jobs goes with --vary");
        goto out;
    }
    if (vary ? !run_sweep(&o, (const char *const *)vary, (guint)jobs, &error)
             : !run_simulation(&o, &error)) {
        rc = fail(error, g_error_matches(error, RUN_ERROR, RUN_ERROR_FAILED) ? EXIT_FAILED
                                                                            : EXIT_INPUT);
        goto out;
    }
    rc = 0;
out:
    g_free(drive), g_free(spec), g_free(job), g_free(trace), g_free(out), g_free(interval);
    g_free(interval_bytes), g_free(trace_fmt), g_free(blk), g_free(replay), g_free(max_idle);
    g_free(lba_map), g_free(plot_fmt), g_free(prefill);
    g_strfreev(sets);
    g_strfreev(vary);
    return rc;
}

static int cmd_check(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new("FILE.ini - print the derived drive");
    g_auto(GStrv) sets = NULL;
    GOptionEntry entries[] = {
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a drive key (repeatable), e.g. --set nand.blocks_per_plane=1900", "GROUP.KEY=VALUE"},
        G_OPTION_ENTRY_NULL,
    };
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &error))
        return fail(error, EXIT_INPUT);
    if (argc != 2)
        return usage_error(ctx, "check takes one drive file");
    DriveParams p;
    if (!config_load_file_set(argv[1], (const char *const *)sets, &p, &error))
        return fail(error, EXIT_INPUT);
    g_autoptr(GString) out = g_string_new(NULL);
    config_describe(&p, out);
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
    const char *dir = argc == 2 ? argv[1] : "configs";
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
    g_autofree char *scripts = script_dir();
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
    {"pts", pts_main, "run a SNIA PTS test: write saturation, IOPS matrix, throughput, latency"},
    {"check", cmd_check, "validate a drive file and print the derived drive"},
    {"drives", cmd_drives, "list the drive files in a folder (default configs/)"},
    {"plot", cmd_plot, "overlay write curves of several results folders"},
    {"config-reference", cmd_reference, "print the documented reference config (configs/reference.ini)"},
};

static void print_help(FILE *f)
{
    fprintf(f, "Usage: ftlsim COMMAND [OPTIONS]\n\nA discrete-event SSD simulator.\n\nCommands:\n");
    for (unsigned i = 0; i < G_N_ELEMENTS(commands); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'ftlsim COMMAND --help' lists a command's options. 'ftlsim --version' prints the "
               "version.\nExit status: 0 ok, 1 simulation failed, 2 bad input.\n");
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
