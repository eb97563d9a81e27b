/*
 * main.c - the ftlsim command: the table of commands, one file each in
 * sim/cmd/builtin/ (run, calibrate, pts, check, drives, plot, sweep
 * collect, config-reference, and emulate where libfuse3 was found).
 *
 * Only the commands print errors and choose exit codes: 0 ok, 1 the
 * simulation failed, 2 bad input (options, drive file, workload, trace).
 */
#include "sim/cmd/builtin/builtin.h"
#include "sim/cmd/run.h"
#include "sim/engine/version.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"run", cmd_run, "simulate a drive under a workload, write results and figures"},
    {"calibrate", cmd_calibrate, "fit drive keys to a measured curve and figures"},
    {"pts", cmd_pts, "run a SNIA PTS test: write saturation, IOPS matrix, throughput, latency"},
    {"check", cmd_check, "validate a drive file and print the derived drive"},
    {"drives", cmd_drives, "list the drive files in a folder (default configs/ or the config path)"},
    {"plot", cmd_plot, "overlay write curves of several results folders"},
    {"sweep", cmd_sweep, "collect DIR: build sweep.csv from the runs of an emitted sweep"},
    {"config-reference", cmd_reference, "print the documented reference config (configs/reference.ini)"},
#ifdef FTLSIM_HAVE_FUSE3
    {"emulate", cmd_emulate, "the drive as a file (FUSE) in real time, for real applications"},
#endif
};

static void print_help(FILE *f)
{
    fprintf(f, "Usage: ftlsim COMMAND [OPTIONS]\n\nA discrete-event SSD simulator.\n\nCommands:\n");
    for (unsigned i = 0; i < G_N_ELEMENTS(commands); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'ftlsim COMMAND --help' lists a command's options. 'ftlsim --version' prints the "
               "version.\nExit status: 0 ok, 1 simulation failed, 2 bad input, 130/143/129 interrupted\n"
               "(SIGINT/SIGTERM/SIGHUP: the results so far are written).\n");
}

int main(int argc, char **argv)
{
    run_set_invoked_as(argv[0]);
    runner_ignore_file_limit();
    if (argc < 2) {
        print_help(stderr);
        return CMD_EXIT_INPUT;
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
    fprintf(stderr, "ftlsim: unknown command \"%s\" (see %s --help)\n", argv[1], run_invoked_as());
    return CMD_EXIT_INPUT;
}
