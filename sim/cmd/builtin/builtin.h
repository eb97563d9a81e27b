/*
 * builtin.h - the commands of ftlsim, one file each in sim/cmd/builtin/
 * (as Git's builtin/), and what they share (util.c). Each takes its argv
 * (argv[0] the command's name), prints its own errors as one line on
 * stderr, and returns the exit status.
 */
#ifndef FTLSIM_BUILTIN_H
#define FTLSIM_BUILTIN_H

#include "sim/engine/engine.h"

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
/* Parse the command's options; FALSE (the error printed) on bad ones. */
gboolean cmd_parse(GOptionContext *ctx, int *argc, char ***argv);
/* What every command does first: its options' context (the usage line's
 * summary, the entries, the description with its examples; NULL: none)
 * parsed from argv; with no_args, an argument left after the options is a
 * usage error ("COMMAND takes no positional arguments"). The context, or
 * NULL with the error printed (exit CMD_EXIT_INPUT). */
GOptionContext *cmd_options(const char *summary, GOptionEntry *entries, const char *description,
                            gboolean no_args, int *argc, char ***argv);
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
