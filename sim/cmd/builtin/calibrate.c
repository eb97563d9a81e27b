/*
 * calibrate.c - "ftlsim calibrate": its options into CalibOptions, then the
 * search (sim/cmd/calibrate.c).
 */
#include "sim/cmd/builtin/builtin.h"

#include "sim/cmd/calibrate.h"
#include "sim/output/plot.h"

#include <stdio.h>
#include <string.h>

int cmd_calibrate(int argc, char **argv)
{
    CalibOptions co;
    calib_options_init(&co);
    char *plan = NULL, *drive = NULL, *spec = NULL, *job = NULL, *out = NULL, *curve = NULL, *prefill = NULL;
    char **sets = NULL, **figures = NULL, **fits = NULL;
    gint64 seed = 1;
    gint jobs = 1, max_evals = CALIB_DEFAULT_MAX_EVALS, starts = -1;
    gboolean force = FALSE, quiet = FALSE, dry_run = FALSE;
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI) to calibrate", "FILE"},
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
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a drive key for every run (repeatable)", "GROUP.KEY=VALUE"},
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &prefill,
         "Age the drive before every run, as run --prefill does", "PCT%[:random][:slc=SIZE]"},
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
         "Results folder: calibrated.ini, fit.json, curves.csv or figures.csv, fit.png, report.html",
         "DIR"},
        {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "Overwrite an existing results folder", NULL},
        {"jobs", 'J', 0, G_OPTION_ARG_INT, &jobs, "Simulations at once, each in its own process (1)",
         "N"},
        {"max-evals", 0, 0, G_OPTION_ARG_INT, &max_evals,
         "Simulations the search may run before it stops (60)", "N"},
        {"starts", 0, 0, G_OPTION_ARG_INT, &starts,
         "Spread start points run besides the config's own (default 2 x jobs - 1)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Random seed of every run (1)", "N"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL},
        {"dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run,
         "Check every input (curve, figures, fits, the drive and workload bound together), then "
         "stop: nothing is simulated or written", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GError *error = NULL;
    int rc = CMD_EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    g_autoptr(GOptionContext) ctx = cmd_options(
        "- fit drive keys to a measured curve and figures", entries, "Example:\n  ftlsim calibrate --drive configs/870qvo.ini --workload "
             "'rw=write,bs=1m,iodepth=2,size=60g' --curve qvo.csv --fit "
             "pslc.dynamic_cap=20GB..60GB --fit timing.qlc.t_prog=6ms..20ms --jobs 2 --out "
             "results/cal\n  ftlsim calibrate --plan configs/families/samsung-mkx.plan --jobs 2 --out "
             "results/mkx\n\nThe loss, the figure language, plans and the outputs: "
             "docs/calibration.md.\n",
        TRUE, &argc, &argv);
    if (!ctx)
        goto out;
    if (jobs < 1 || jobs > 256) {
        rc = cmd_usage(ctx, "--jobs: expected an integer from 1 to 256");
        goto out;
    }
    if (max_evals < 1 || max_evals > 100000) {
        rc = cmd_usage(ctx, "--max-evals: expected an integer from 1 to 100000");
        goto out;
    }
    if (starts < -1 || starts > 1000) {
        rc = cmd_usage(ctx, "--starts: expected an integer from 0 to 1000");
        goto out;
    }
    co.plan = plan;
    co.run.drive = drive;
    co.run.spec = spec;
    co.run.job = job;
    co.run.out = out;
    co.run.force = force;
    co.run.quiet = quiet;
    co.run.dry_run = dry_run;
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
    runner_catch_signals();
    if (!run_calibration(&co, &error)) {
        rc = cmd_fail_run(error);
        goto out;
    }
    rc = 0;
out:
    g_free(plan), g_free(drive), g_free(spec), g_free(job), g_free(out), g_free(curve), g_free(prefill);
    g_strfreev(sets), g_strfreev(figures), g_strfreev(fits);
    return rc;
}
