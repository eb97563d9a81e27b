/*
 * util.c - what the commands share (builtin.h): one-line errors and exit
 * codes, finding a drive file, option values, and the option-parse
 * prologue.
 */
#include "sim/cmd/builtin/builtin.h"

#include "sim/cmd/run.h"
#include "sim/host/workload.h"

#include <stdio.h>
#include <string.h>

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

int cmd_fail(GError *error, int code)
{
    print_line(stderr, error ? error->message : "failed without a message (a bug)");
    g_clear_error(&error);
    return code;
}

/* "see build/ftlsim run --help": the command's own help, by the path the
 * user typed. */
static char *help_hint(void)
{
    const char *prg = g_get_prgname(); /* "ftlsim COMMAND", set by main() */
    const char *cmd = prg && g_str_has_prefix(prg, "ftlsim ") ? prg + strlen("ftlsim ") : NULL;
    return g_strdup_printf("see %s%s%s --help", run_invoked_as(), cmd ? " " : "", cmd ? cmd : "");
}

int cmd_usage(GOptionContext *ctx, const char *msg)
{
    (void)ctx;
    g_autofree char *hint = help_hint();
    fprintf(stderr, "ftlsim: %s (%s)\n", msg, hint);
    return CMD_EXIT_INPUT;
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
char *cmd_resolve_drive(const char *name, GError **error)
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
char *cmd_default_drives_dir(void)
{
    if (g_file_test("configs", G_FILE_TEST_IS_DIR))
        return g_strdup("configs");
    g_autoptr(GPtrArray) dirs = config_dirs();
    for (guint i = 0; i < dirs->len; i++)
        if (g_file_test(dirs->pdata[i], G_FILE_TEST_IS_DIR))
            return g_strdup(dirs->pdata[i]);
    return g_strdup("configs");
}

gboolean cmd_parse_size(const char *text, uint64_t *out, const char *name, GError **error)
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

gboolean cmd_parse_time(const char *text, SimTime *out, const char *name, GError **error)
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

gboolean cmd_refuse_zero(const char *text, const char *name, GError **error)
{
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                "%s \"%s\": expected a size greater than 0, such as 1GB", name, text);
    return FALSE;
}

/* The index of text in names into *out; no text leaves *out as it is. */
gboolean cmd_pick(const char *text, const char *const *names, int *out, const char *opt,
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

gboolean cmd_parse(GOptionContext *ctx, int *argc, char ***argv)
{
    GError *error = NULL;
    if (g_option_context_parse(ctx, argc, argv, &error))
        return TRUE;
    g_autofree char *hint = help_hint();
    g_autofree char *msg = g_strdup_printf("%s (%s)", error->message, hint);
    g_clear_error(&error);
    g_set_error_literal(&error, RUN_ERROR, RUN_ERROR_INPUT, msg);
    cmd_fail(error, CMD_EXIT_INPUT);
    return FALSE;
}

/* The shared options' entries, each with its stock help; a command's
 * rewording replaces the help. drive_only: --drive alone, else the others. */
static void common_entries(CmdCommon *c, gboolean drive_only, GArray *a)
{
    const GOptionEntry all[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &c->drive_arg,
         c->drive_help ? c->drive_help : "Drive config: an INI file, or a name in the config "
                                         "folders (ftlsim drives lists them)", "FILE"},
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
         c->out_help ? c->out_help : "Results folder", "DIR"},
        {"force", 'f', 0, G_OPTION_ARG_NONE, &c->force, "Overwrite an existing results folder",
         NULL},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &c->seed, "Random seed (1)", "N"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->sets,
         c->set_help ? c->set_help
                     : "Override a drive key (repeatable), e.g. --set pslc.static=12GB",
         "GROUP.KEY=VALUE"},
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &c->prefill,
         c->prefill_help ? c->prefill_help
                         : "Age the drive first, without simulating the time: "
                           "PCT%[:random][:slc=SIZE], e.g. 90%:random or 50%:slc=10GB",
         "SPEC"},
        {"plot", 'p', 0, G_OPTION_ARG_NONE, &c->plot,
         c->plot_help ? c->plot_help : "Draw the figures with gnuplot", NULL},
        {"plot-format", 0, 0, G_OPTION_ARG_STRING, &c->plot_format_arg, "png (default) or svg",
         "FMT"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &c->quiet,
         c->quiet_help ? c->quiet_help : "Print nothing but errors", NULL},
        {"dry-run", 0, 0, G_OPTION_ARG_NONE, &c->dry_run,
         c->dry_run_help ? c->dry_run_help
                         : "Check every input, then stop: nothing is simulated or written",
         NULL},
    };
    static const unsigned flag[] = {CMD_OPT_DRIVE, CMD_OPT_OUT,     CMD_OPT_FORCE, CMD_OPT_SEED,
                                    CMD_OPT_SET,   CMD_OPT_PREFILL, CMD_OPT_PLOT,  CMD_OPT_PLOT,
                                    CMD_OPT_QUIET, CMD_OPT_DRY_RUN};
    G_STATIC_ASSERT(G_N_ELEMENTS(all) == G_N_ELEMENTS(flag));
    for (unsigned i = drive_only ? 0 : 1; i < (drive_only ? 1 : G_N_ELEMENTS(all)); i++)
        if (c->which & flag[i])
            g_array_append_val(a, all[i]);
}

GOptionEntry *cmd_entries(CmdCommon *common, const GOptionEntry *entries)
{
    GArray *a = g_array_new(TRUE, TRUE, sizeof(GOptionEntry)); /* zero-terminated */
    if (common)
        common_entries(common, TRUE, a);
    for (const GOptionEntry *e = entries; e && e->long_name; e++)
        g_array_append_val(a, *e);
    if (common)
        common_entries(common, FALSE, a);
    return (GOptionEntry *)g_array_free(a, FALSE);
}

GOptionContext *cmd_options(const char *summary, CmdCommon *common, const GOptionEntry *entries,
                            const char *description, gboolean no_args, int *argc, char ***argv)
{
    GOptionContext *ctx = g_option_context_new(summary);
    g_autofree GOptionEntry *all = cmd_entries(common, entries);
    if (all[0].long_name)
        g_option_context_add_main_entries(ctx, all, NULL);
    if (description)
        g_option_context_set_description(ctx, description);
    if (!cmd_parse(ctx, argc, argv)) {
        g_option_context_free(ctx);
        return NULL;
    }
    if (no_args && *argc > 1) {
        const char *prg = g_get_prgname(), *name = prg ? strchr(prg, ' ') : NULL;
        g_autofree char *msg =
            g_strdup_printf("%s takes no positional arguments", name ? name + 1 : "ftlsim");
        cmd_usage(ctx, msg);
        g_option_context_free(ctx);
        return NULL;
    }
    return ctx;
}

gboolean plot_format_parse(const char *text, PlotFormat *out, GError **error)
{
    static const char *const names[] = {"png", "svg", NULL};
    int v = PLOT_PNG;
    if (!cmd_pick(text, names, &v, "--plot-format", error))
        return FALSE;
    *out = v;
    return TRUE;
}

gboolean cmd_common_finish(CmdCommon *c, GOptionContext *ctx)
{
    GError *error = NULL;
    if ((c->which & CMD_OPT_DRIVE) && !c->drive_arg && !c->drive_optional) {
        g_autofree char *msg = g_strdup_printf("%s needs --drive FILE", c->name);
        cmd_usage(ctx, msg);
        return FALSE;
    }
    if (c->out && c->out[0] == '\0')
        g_set_error(&error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--out \"\": expected the name of a results folder");
    else if (c->seed < 0)
        g_set_error(&error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--seed %" G_GINT64_FORMAT ": expected an integer from 0 to %" G_GINT64_FORMAT,
                    c->seed, G_MAXINT64);
    else if (plot_format_parse(c->plot_format_arg, &c->plot_format, &error) && c->drive_arg)
        c->drive = cmd_resolve_drive(c->drive_arg, &error);
    if (error) {
        cmd_fail(error, CMD_EXIT_INPUT);
        return FALSE;
    }
    return TRUE;
}

void cmd_common_clear(CmdCommon *c)
{
    g_clear_pointer(&c->drive, g_free);
    g_clear_pointer(&c->drive_arg, g_free);
    g_clear_pointer(&c->sets, g_strfreev);
    g_clear_pointer(&c->out, g_free);
    g_clear_pointer(&c->prefill, g_free);
    g_clear_pointer(&c->plot_format_arg, g_free);
}
/* A run's error: 128 + the signal that stopped it, else a failed run or
 * bad input. */
int cmd_fail_run(GError *error)
{
    int sig = runner_signal();
    if (sig)
        return cmd_fail(error, 128 + sig);
    return cmd_fail(error, g_error_matches(error, RUN_ERROR, RUN_ERROR_FAILED) ? CMD_EXIT_FAILED
                                                                          : CMD_EXIT_INPUT);
}
