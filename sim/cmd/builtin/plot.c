/* plot.c - "ftlsim plot": the write curves of several results folders overlaid. */
#include "sim/cmd/builtin/builtin.h"

#include "sim/output/plot.h"

int cmd_plot(int argc, char **argv)
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
    int rc = CMD_EXIT_INPUT;
    g_autofree char *scripts = plot_script_dir();
    if (!cmd_parse(ctx, &argc, &argv))
        goto out;
    if (argc < 2 || !out) {
        rc = cmd_usage(ctx, "plot needs results folders and --out FILE");
        goto out;
    }
    PlotFormat pf = PLOT_PNG;
    if (!plot_format_parse(fmt, &pf, &error)) {
        rc = cmd_fail(error, CMD_EXIT_INPUT);
        goto out;
    }
    if (!plot_overlay((const char *const *)argv + 1, out, scripts, pf, &error)) {
        rc = cmd_fail(error, CMD_EXIT_INPUT);
        goto out;
    }
    rc = 0;
out:
    g_free(out);
    g_free(fmt);
    return rc;
}
