/*
 * calibrate.c - "ftlsim calibrate": its options into CalibOptions, then the
 * search (sim/cmd/calibrate.c).
 */
#include "sim/cmd/builtin/builtin.h"
#include "sim/cmd/session.h"

#include "sim/cmd/calibrate.h"
#include "sim/output/plot.h"

#include <stdio.h>
#include <string.h>

/* calibrate, its options parsed into c and co. */
static int calibrate_main(CmdCommon *c, GOptionContext *ctx, CalibOptions *co, gint jobs,
                          gint max_evals, gint starts)
{
    GError *error = NULL;
    if (!cmd_common_finish(c, ctx))
        return CMD_EXIT_INPUT;
    if (jobs < 1 || jobs > 256)
        return cmd_usage(ctx, "--jobs: expected an integer from 1 to 256");
    if (max_evals < 1 || max_evals > 100000)
        return cmd_usage(ctx, "--max-evals: expected an integer from 1 to 100000");
    if (starts < -1 || starts > 1000)
        return cmd_usage(ctx, "--starts: expected an integer from 0 to 1000");
    co->run.drive = c->drive;
    co->run.out = c->out;
    co->run.force = c->force;
    co->run.quiet = c->quiet;
    co->run.dry_run = c->dry_run;
    co->run.seed = (uint64_t)c->seed;
    co->run.sets = (const char *const *)c->sets;
    co->run.prefill = c->prefill;
    co->jobs = (guint)jobs;
    co->max_evals = (guint)max_evals;
    co->starts = starts < 0 ? G_MAXUINT : (guint)starts;
    session_catch_signals();
    if (!run_calibration(co, &error))
        return cmd_fail_run(error);
    return 0;
}

int cmd_calibrate(int argc, char **argv)
{
    CmdCommon c = CMD_COMMON_INIT(CMD_OPT_DRIVE | CMD_OPT_SET | CMD_OPT_PREFILL | CMD_OPT_OUT |
                                      CMD_OPT_FORCE | CMD_OPT_SEED | CMD_OPT_QUIET |
                                      CMD_OPT_DRY_RUN,
                                  "calibrate");
    c.drive_optional = TRUE; /* or a plan's drives */
    c.drive_help = "Drive config to calibrate (an INI file or a config name)";
    c.set_help = "Override a drive key for every run (repeatable)";
    c.prefill_help = "Age the drive before every run, as run --prefill does";
    c.out_help =
        "Results folder: calibrated.ini, fit.json, curves.csv or figures.csv, fit.png, report.html";
    c.dry_run_help = "Check every input (curve, figures, fits, the drive and workload bound "
                     "together), then stop: nothing is simulated or written";
    CalibOptions co;
    calib_options_init(&co);
    g_autofree char *plan = NULL, *spec = NULL, *job = NULL, *curve = NULL;
    g_auto(GStrv) figures = NULL, fits = NULL;
    gint jobs = 1, max_evals = CALIB_DEFAULT_MAX_EVALS, starts = -1;
    GOptionEntry entries[] = {
        {"plan", 0, 0, G_OPTION_ARG_FILENAME, &plan,
         "Calibration plan instead of --drive, --workload and --figure: runs on several drives "
         "(a family's), each with its workload, figures and role (fit or check), and a [fit] "
         "group of keys; one loss over the fit runs, the check runs reported beside it",
         "FILE"},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "The workload the curve was measured with: inline fio-style or a named one", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &job, "fio job file instead of --workload", "FILE"},
        {"curve", 'c', 0, G_OPTION_ARG_FILENAME, &curve,
         "Measured curve: CSV with a header GB,MBps or t_s,MBps or t_s,IOPS", "FILE"},
        {"figure", 0, 0, G_OPTION_ARG_STRING_ARRAY, &figures,
         "Measured figure (repeatable): cliff_gb[:PCT], rate@GB=A..B, rate@t=A..B, iops@t=A..B, "
         "phase_rate:N, waf or summary:NAME, e.g. --figure cliff_gb=42", "ID=VALUE[:WEIGHT]"},
        {"fit", 0, 0, G_OPTION_ARG_STRING_ARRAY, &fits,
         "Drive key to fit within a range (repeatable), e.g. --fit pslc.dynamic_cap=20GB..60GB "
         "(sizes with their unit, LO below HI); "
         "workload.thinktime fits the host's pause after each command, env.NAME a job "
         "file's ${NAME} (a time or a bandwidth)",
         "GROUP.KEY=LO..HI"},
        {"jobs", 'J', 0, G_OPTION_ARG_INT, &jobs, "Simulations at once, each in its own process (1)",
         "N"},
        {"max-evals", 0, 0, G_OPTION_ARG_INT, &max_evals,
         "Simulations the search may run before it stops (60)", "N"},
        {"starts", 0, 0, G_OPTION_ARG_INT, &starts,
         "Spread start points run besides the config's own (default 2 x jobs - 1)", "N"},
        G_OPTION_ENTRY_NULL,
    };
    g_autofree char *scripts = plot_script_dir();
    g_autoptr(GOptionContext) ctx = cmd_options(
        "- fit drive keys to a measured curve and figures", &c, entries, "Example:\n  ftlsim calibrate --drive configs/870qvo.ini --workload "
             "'rw=write,bs=1m,iodepth=2,size=60g' --curve qvo.csv --fit "
             "pslc.dynamic_cap=20GB..60GB --fit timing.qlc.t_prog=6ms..20ms --jobs 2 --out "
             "results/cal\n  ftlsim calibrate --plan configs/families/samsung-mkx.plan --jobs 2 --out "
             "results/mkx\n\nThe loss, the figure language, plans and the outputs: "
             "docs/calibration.md.\n",
        TRUE, &argc, &argv);
    co.plan = plan;
    co.run.spec = spec;
    co.run.job = job;
    co.run.script_dir = scripts;
    co.curve = curve;
    co.figures = (const char *const *)figures;
    co.fits = (const char *const *)fits;
    int rc = !ctx ? CMD_EXIT_INPUT : calibrate_main(&c, ctx, &co, jobs, max_evals, starts);
    cmd_common_clear(&c);
    return rc;
}
