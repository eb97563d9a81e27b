/*
 * builtin.h - the commands of ftlsim, one file each in sim/cmd/builtin/
 * (as Git's builtin/), and what they share (util.c). Each takes its argv
 * (argv[0] the command's name), prints its own errors as one line on
 * stderr, and returns the exit status.
 */
#ifndef FTLSIM_BUILTIN_H
#define FTLSIM_BUILTIN_H

#include "sim/engine/engine.h"
#include "sim/output/plot.h"

#include <glib.h>
#include <stdint.h>

#define CMD_EXIT_FAILED 1 /* the simulation failed */
#define CMD_EXIT_INPUT 2  /* bad input: options, drive file, workload, trace */

int cmd_run(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_pts(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_drives(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_reference(int argc, char **argv);
int cmd_emulate(int argc, char **argv); /* built with libfuse3 only */

/* error's message as one line on stderr ("ftlsim: " first, control bytes
 * escaped); frees error and returns code. */
int cmd_fail(GError *error, int code);
/* A usage error: msg and a pointer to the command's --help on stderr;
 * CMD_EXIT_INPUT. */
int cmd_usage(GOptionContext *ctx, const char *msg);
/* The options commands share, each defined once (name, letter, help and
 * check): a command names the ones it has in `which` (CMD_OPT_*), may
 * reword a help text (NULL: the stock one), and gets their values here once
 * cmd_options() has parsed them and cmd_common_finish() checked them. */
enum {
    CMD_OPT_DRIVE = 1u << 0,   /* -d, --drive FILE: required, a path or a config name */
    CMD_OPT_SET = 1u << 1,     /* --set GROUP.KEY=VALUE, repeatable */
    CMD_OPT_SEED = 1u << 2,    /* -s, --seed N, 0 or more */
    CMD_OPT_OUT = 1u << 3,     /* -o, --out DIR, not empty */
    CMD_OPT_FORCE = 1u << 4,   /* -f, --force */
    CMD_OPT_PREFILL = 1u << 5, /* --prefill SPEC */
    CMD_OPT_PLOT = 1u << 6,    /* -p, --plot and --plot-format png|svg */
    CMD_OPT_QUIET = 1u << 7,   /* -q, --quiet */
    CMD_OPT_DRY_RUN = 1u << 8, /* --dry-run */
};
typedef struct CmdCommon {
    unsigned which;            /* CMD_OPT_* the command has */
    const char *name;          /* the command, for "NAME needs --drive FILE" */
    gboolean drive_optional;   /* the command takes the drive another way too */
    const char *drive_help, *set_help, *out_help, *prefill_help, *plot_help, *quiet_help,
        *dry_run_help;         /* rewordings of the stock help texts; NULL: stock */
    /* the values (freed by cmd_common_clear) */
    char *drive;               /* the drive file as found (cmd_resolve_drive) */
    char **sets;
    gint64 seed;               /* 1 unless given */
    char *out, *prefill;
    gboolean force, plot, quiet, dry_run;
    PlotFormat plot_format;
    char *drive_arg, *plot_format_arg; /* as given */
} CmdCommon;
#define CMD_COMMON_INIT(which_, name_) {.which = (which_), .name = (name_), .seed = 1}
/* Check and resolve what cmd_options() parsed into c: the drive file found,
 * --seed, --out and --plot-format read. FALSE with the error printed (exit
 * CMD_EXIT_INPUT). */
gboolean cmd_common_finish(CmdCommon *c, GOptionContext *ctx);
void cmd_common_clear(CmdCommon *c);
/* --plot-format's value: png or svg (NULL text: png). */
gboolean plot_format_parse(const char *text, PlotFormat *out, GError **error);

/* Parse the command's options; FALSE (the error printed) on bad ones. */
gboolean cmd_parse(GOptionContext *ctx, int *argc, char ***argv);
/* What every command does first: its options' context (the usage line's
 * summary, the entries, the description with its examples; NULL: none)
 * parsed from argv, with the shared options common names (NULL: none)
 * after --drive and before the command's own; with no_args, an argument
 * left after the options is a usage error ("COMMAND takes no positional
 * arguments"). The context, or NULL with the error printed (exit
 * CMD_EXIT_INPUT). */
GOptionContext *cmd_options(const char *summary, CmdCommon *common, const GOptionEntry *entries,
                            const char *description, gboolean no_args, int *argc, char ***argv);
/* The entries cmd_options() parses for common and entries, in its order
 * (free with g_free; the strings are not copied). */
GOptionEntry *cmd_entries(CmdCommon *common, const GOptionEntry *entries);
/* A command's run failed with error: printed, and the exit code,
 * CMD_EXIT_FAILED for a simulation that failed (RUN_ERROR_FAILED), else
 * CMD_EXIT_INPUT. */
int cmd_fail_run(GError *error);

/* The drive file NAME: a path, or a name (with or without .ini) in the
 * config folders (FTLSIM_CONFIG_PATH, the installed ones, configs/). */
char *cmd_resolve_drive(const char *name, GError **error);
/* The folder `ftlsim drives` lists by default. */
char *cmd_default_drives_dir(void);
/* Option values, with the option's name in the error. */
gboolean cmd_parse_size(const char *text, uint64_t *out, const char *name, GError **error);
gboolean cmd_parse_time(const char *text, SimTime *out, const char *name, GError **error);
gboolean cmd_refuse_zero(const char *text, const char *name, GError **error);
/* The index of text in names (NULL-terminated) into *out; NULL text
 * leaves *out as it is. */
gboolean cmd_pick(const char *text, const char *const *names, int *out, const char *opt,
                  GError **error);

#endif
