/*
 * emulate.c - "ftlsim emulate": the simulated drive as a file under a FUSE
 * mount, in real time (sim/cmd/emulate.c).
 */
#include "sim/cmd/builtin/builtin.h"
#include "sim/cmd/session.h"

#include "sim/cmd/emulate.h"
#include "sim/cmd/run.h"

#include <stdio.h>

/* emulate, its options parsed into c and the others. */
static int emulate_main(CmdCommon *c, GOptionContext *ctx, const char *interval, gboolean no_data,
                        gboolean allow_other, int argc, char **argv)
{
    GError *error = NULL;
    if (!cmd_common_finish(c, ctx))
        return CMD_EXIT_INPUT;
    if (!c->out)
        return cmd_usage(ctx, "emulate needs --out DIR (the results are written at unmount)");
    if (argc != 2)
        return cmd_usage(ctx, argc < 2 ? "emulate needs a MOUNTPOINT (an empty folder)"
                                       : "emulate takes one MOUNTPOINT");
    EmulateOptions o;
    emulate_options_init(&o);
    if (interval && !cmd_parse_time(interval, &o.interval, "--interval", &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    o.drive = c->drive;
    o.sets = (const char *const *)c->sets;
    o.prefill = c->prefill;
    o.mountpoint = argv[1];
    o.out = c->out;
    o.force = c->force;
    o.no_data = no_data;
    o.allow_other = allow_other;
    o.plot = c->plot;
    o.plot_format = c->plot_format;
    o.quiet = c->quiet;
    o.seed = (uint64_t)c->seed;
    session_catch_signals();
    if (!emulate_run(&o, &error))
        return cmd_fail_run(error);
    return 0;
}

int cmd_emulate(int argc, char **argv)
{
    CmdCommon c = CMD_COMMON_INIT(CMD_OPT_DRIVE | CMD_OPT_SET | CMD_OPT_PREFILL | CMD_OPT_OUT |
                                      CMD_OPT_FORCE | CMD_OPT_SEED | CMD_OPT_PLOT | CMD_OPT_QUIET,
                                  "emulate");
    c.set_help = "Override a drive key (repeatable), e.g. --set drive.user_capacity=4GB";
    c.prefill_help = "Age the drive first (its data reads as zeros), PCT%[:random][:slc=SIZE]";
    c.out_help = "Results folder, written at unmount (summary, series, report, trace.iolog)";
    c.quiet_help = "No status line and no summary";
    g_autofree char *interval = NULL;
    gboolean no_data = FALSE, allow_other = FALSE;
    GOptionEntry entries[] = {
        {"no-data", 0, 0, G_OPTION_ARG_NONE, &no_data,
         "Keep no data (timing only): reads return zeros, any drive size", NULL},
        {"allow-other", 0, 0, G_OPTION_ARG_NONE, &allow_other,
         "Let other users (root's losetup) open the file (needs user_allow_other in "
         "/etc/fuse.conf unless root)", NULL},
        {"interval", 0, 0, G_OPTION_ARG_STRING, &interval, "Series row per interval (0.5s)",
         "TIME"},
        G_OPTION_ENTRY_NULL,
    };
    g_autoptr(GOptionContext) ctx = cmd_options(
        "MOUNTPOINT - the drive as a file, MOUNTPOINT/disk, in real time", &c, entries,
        "The drive's reads, writes, fsyncs and hole punches (discards) are timed by the model "
        "as they arrive;\nunmount (fusermount3 -u MOUNTPOINT) or Ctrl-C ends it and writes "
        "the results\n(after Ctrl-C, SIGTERM or SIGHUP marked interrupted, exit 130, 143 or "
        "129).\nA loop device over MOUNTPOINT/disk (losetup, as root) makes it a block "
        "device.\nFor instance:\n  ftlsim "
        "emulate -d configs/870qvo.ini --set drive.user_capacity=8GB -o results/emu /mnt/ssd\n",
        FALSE, &argc, &argv);
    int rc = !ctx ? CMD_EXIT_INPUT
                  : emulate_main(&c, ctx, interval, no_data, allow_other, argc, argv);
    cmd_common_clear(&c);
    return rc;
}
