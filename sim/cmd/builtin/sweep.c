/*
 * sweep.c - "ftlsim sweep collect": sweep.csv from the runs of an emitted
 * sweep (sim/cmd/sweep.c).
 */
#include "sim/cmd/builtin/builtin.h"

#include "sim/cmd/run.h"
#include "sim/output/plot.h"

#include <stdio.h>
#include <string.h>

int cmd_sweep(int argc, char **argv)
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
        ctx, "Example (the first 40 GB written to the 870 QVO with three static SLC sizes):\n"
             "  ftlsim run -d configs/870qvo.ini -w rw=write,bs=128k,size=40g "
             "--vary pslc.static=0,6GB,12GB --emit parallel -o results/static\n"
             "  parallel < results/static/jobs.txt\n"
             "  ftlsim sweep collect results/static --plot\n\nExit status: 0 every run "
             "finished, 1 some are missing or failed (each is named on stderr; the table holds "
             "the others), 2 bad input.\n");
    GError *error = NULL;
    int rc = CMD_EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    if (!cmd_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 3 || strcmp(argv[1], "collect") != 0) {
        rc = cmd_usage(ctx, "expected 'sweep collect DIR'");
        goto out;
    }
    PlotFormat fmt_v = PLOT_PNG;
    if (!plot_format_parse(fmt, &fmt_v, &error)) {
        rc = cmd_fail(error, CMD_EXIT_INPUT);
        goto out;
    }
    guint missing = 0;
    if (!run_sweep_collect(argv[2], plot, fmt_v, scripts, &missing, &error)) {
        rc = cmd_fail_run(error);
        goto out;
    }
    rc = missing ? CMD_EXIT_FAILED : 0;
out:
    g_free(fmt);
    return rc;
}
