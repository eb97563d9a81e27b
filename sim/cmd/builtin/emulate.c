/*
 * emulate.c - "ftlsim emulate": the simulated drive as a file under a FUSE
 * mount, in real time (sim/cmd/emulate.c).
 */
#include "sim/cmd/builtin/builtin.h"

#include "sim/cmd/emulate.h"
#include "sim/cmd/run.h"

#include <stdio.h>

int cmd_emulate(int argc, char **argv)
{
    g_autofree char *drive = NULL, *out = NULL, *prefill = NULL, *interval = NULL,
                    *drive_path = NULL;
    g_auto(GStrv) sets = NULL;
    gint64 seed = 1;
    gboolean force = FALSE, no_data = FALSE, allow_other = FALSE, plot = FALSE, quiet = FALSE;
    GOptionEntry entries[] = {
        {"drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive, "Drive config (INI)", "FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a drive key (repeatable), e.g. --set drive.user_capacity=4GB",
         "GROUP.KEY=VALUE"},
        {"prefill", 0, 0, G_OPTION_ARG_STRING, &prefill,
         "Age the drive first (its data reads as zeros), PCT%[:random][:slc=SIZE]", "SPEC"},
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
         "Results folder, written at unmount (summary, series, report, trace.iolog)", "DIR"},
        {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "Overwrite an existing results folder", NULL},
        {"no-data", 0, 0, G_OPTION_ARG_NONE, &no_data,
         "Keep no data (timing only): reads return zeros, any drive size", NULL},
        {"allow-other", 0, 0, G_OPTION_ARG_NONE, &allow_other,
         "Let other users (root's losetup) open the file (needs user_allow_other in "
         "/etc/fuse.conf unless root)", NULL},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Random seed (1)", "N"},
        {"interval", 0, 0, G_OPTION_ARG_STRING, &interval, "Series row per interval (0.5s)",
         "TIME"},
        {"plot", 'p', 0, G_OPTION_ARG_NONE, &plot, "Draw the figures with gnuplot", NULL},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No status line and no summary", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GError *error = NULL;
    int rc = CMD_EXIT_INPUT;
    g_autoptr(GOptionContext) ctx = cmd_options(
        "MOUNTPOINT - the drive as a file, MOUNTPOINT/disk, in real time", entries,
        "The drive's reads, writes, fsyncs and hole punches (discards) are timed by the model "
        "as they arrive;\nunmount (fusermount3 -u MOUNTPOINT) or Ctrl-C ends it and writes "
        "the results.\nA loop device over MOUNTPOINT/disk (losetup, as root) makes it a block "
        "device.\nFor instance:\n  ftlsim "
        "emulate -d configs/870qvo.ini --set drive.user_capacity=8GB -o results/emu /mnt/ssd\n",
        FALSE, &argc, &argv);
    if (!ctx)
        return CMD_EXIT_INPUT;
    if (!drive)
        return cmd_usage(ctx, "emulate needs --drive FILE");
    if (!out)
        return cmd_usage(ctx, "emulate needs --out DIR (the results are written at unmount)");
    if (argc != 2)
        return cmd_usage(ctx, argc < 2 ? "emulate needs a MOUNTPOINT (an empty folder)"
                                       : "emulate takes one MOUNTPOINT");
    if (seed < 0)
        return cmd_usage(ctx, "--seed: expected an integer, 0 or more");
    EmulateOptions o;
    emulate_options_init(&o);
    if (interval && !cmd_parse_time(interval, &o.interval, "--interval", &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    drive_path = cmd_resolve_drive(drive, &error);
    if (!drive_path)
        return cmd_fail(error, CMD_EXIT_INPUT);
    o.drive = drive_path;
    o.sets = (const char *const *)sets;
    o.prefill = prefill;
    o.mountpoint = argv[1];
    o.out = out;
    o.force = force;
    o.no_data = no_data;
    o.allow_other = allow_other;
    o.plot = plot;
    o.quiet = quiet;
    o.seed = (uint64_t)seed;
    if (!emulate_run(&o, &error))
        return cmd_fail_run(error);
    rc = 0;
    return rc;
}
