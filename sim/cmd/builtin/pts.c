/*
 * pts.c - "ftlsim pts": its options into PtsOptions, checked
 * in full before pts_run() opens the results folder. Errors are one line
 * on stderr and exit status 2 (bad input) or 1 (the simulation failed).
 */
#include "sim/cmd/builtin/builtin.h"
#include "sim/cmd/session.h"

#include "sim/cmd/pts.h"

#include "sim/cmd/run.h"
#include "sim/output/plot.h"
#include "sim/host/workload.h"

#include <stdio.h>
#include <string.h>

/* A count option: an integer from 1 to max, or absent (*out left alone). */
static gboolean pts_count(const char *text, const char *opt, guint64 max, uint32_t *out,
                          GError **error)
{
    guint64 v = 0;
    if (!text)
        return TRUE;
    if (!g_ascii_string_to_unsigned(text, 10, 1, max, &v, NULL)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s \"%s\": expected an integer from 1 to %" G_GUINT64_FORMAT, opt, text, max);
        return FALSE;
    }
    *out = (uint32_t)v;
    return TRUE;
}

static gboolean pts_parse(PtsOptions *o, const char *test, const char *threads, const char *iodepth,
                          const char *round_time, const char *max_rounds, const char *precond,
                          const char *spec, GError **error)
{
    if (spec && strcmp(spec, "enterprise") != 0 && strcmp(spec, "client") != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--spec \"%s\": expected enterprise (PTS-E 1.1) or client (PTS-C 1.2)", spec);
        return FALSE;
    }
    o->spec = spec && strcmp(spec, "client") == 0 ? PTS_SPEC_CLIENT : PTS_SPEC_ENTERPRISE;
    if (!(o->test = pts_test_find(test))) {
        g_autofree char *names = pts_test_names(FALSE);
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--test \"%s\": expected %s", test, names);
        return FALSE;
    }
    if (!pts_count(threads, "--threads", 256, &o->threads, error) ||
        !pts_count(iodepth, "--iodepth", 1024, &o->iodepth, error) ||
        !pts_count(max_rounds, "--max-rounds", 100000, &o->max_rounds, error))
        return FALSE;
    if (round_time) {
        GError *e = NULL;
        if (!workload_parse_time(round_time, SIM_SEC, &o->round_time, &e) || o->round_time == 0 ||
            round_time[0] == '-') {
            g_clear_error(&e);
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "--round-time \"%s\": expected a duration greater than 0 such as 60s or "
                        "10s",
                        round_time);
            return FALSE;
        }
        if (o->round_time < PTS_ROUND_TIME_MIN) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "--round-time \"%s\": expected at least 1ms, enough for every cell of a "
                        "round to complete commands (the PTS runs 60s; 10s for quick runs)",
                        round_time);
            return FALSE;
        }
    }
    /* by default the PTS's own: wsat and xsr from the purged drive, the others
     * after 2 x capacity of sequential writes */
    o->precondition = pts_test_purged(o->test) ? PTS_PRECOND_NONE : PTS_PRECOND_FULL;
    if (precond && !pts_precondition_find(precond, &o->precondition)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--precondition \"%s\": expected full, fast, random or none", precond);
        return FALSE;
    }
    return TRUE;
}

/* pts, its options parsed into c and o. */
static int pts_main(CmdCommon *c, GOptionContext *ctx, PtsOptions *o, const char *test,
                    const char *threads, const char *iodepth, const char *round_time,
                    const char *max_rounds, const char *precond, const char *spec)
{
    GError *error = NULL;
    if (c->drive_arg && !test)
        return cmd_usage(ctx, "pts needs --test NAME");
    if (!cmd_common_finish(c, ctx))
        return CMD_EXIT_INPUT;
    if (!pts_parse(o, test, threads, iodepth, round_time, max_rounds, precond, spec, &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    o->drive = c->drive;
    o->sets = (const char *const *)c->sets;
    o->out = c->out;
    o->force = c->force;
    o->seed = (uint64_t)c->seed;
    o->quiet = c->quiet;
    o->plot = c->plot;
    o->plot_format = c->plot_format;
    o->dry_run = c->dry_run;
    session_catch_signals();
    if (!pts_run(o, &error))
        return cmd_fail_run(error);
    return 0;
}

int cmd_pts(int argc, char **argv)
{
    CmdCommon c = CMD_COMMON_INIT(CMD_OPT_DRIVE | CMD_OPT_SET | CMD_OPT_OUT | CMD_OPT_FORCE |
                                      CMD_OPT_SEED | CMD_OPT_PLOT | CMD_OPT_QUIET |
                                      CMD_OPT_DRY_RUN,
                                  "pts");
    c.set_help = "Override a drive key (repeatable), e.g. --set gc.policy=cost_benefit";
    c.dry_run_help = "Check every input and make the drive, then stop: nothing is simulated or "
                     "written";
    PtsOptions o;
    pts_options_init(&o);
    g_autofree char *test = NULL, *threads = NULL, *iodepth = NULL;
    g_autofree char *round_time = NULL, *max_rounds = NULL, *precond = NULL, *bs = NULL;
    g_autofree char *mix = NULL, *spec = NULL;
    /* what each test is and its defaults, from the tests' descriptors */
    g_autofree char *test_help = pts_test_names(TRUE);
    g_autofree char *threads_defaults = pts_test_defaults(FALSE, FALSE);
    g_autofree char *iodepth_defaults = pts_test_defaults(TRUE, FALSE);
    g_autofree char *client_defaults = pts_test_defaults(FALSE, TRUE);
    g_autofree char *spec_help = g_strdup_printf(
        "enterprise: SNIA PTS-E 1.1 (default); client: PTS-C 1.2, its threads x QD by default "
        "(%s), the stimulus on the first %d%% of the LBAs, TP at 1024 KiB only",
        client_defaults, PTS_CLIENT_ACTIVE_PCT);
    g_autofree char *threads_help =
        g_strdup_printf("Threads (fio jobs) per cell (%s)", threads_defaults);
    g_autofree char *iodepth_help =
        g_strdup_printf("Queue depth per thread (%s); above the interface's queue, commands wait "
                        "in the host", iodepth_defaults);
    GOptionEntry entries[] = {
        {"test", 't', 0, G_OPTION_ARG_STRING, &test, test_help, "NAME"},
        {"spec", 0, 0, G_OPTION_ARG_STRING, &spec, spec_help, "enterprise|client"},
        {"threads", 'T', 0, G_OPTION_ARG_STRING, &threads, threads_help, "N"},
        {"iodepth", 'Q', 0, G_OPTION_ARG_STRING, &iodepth, iodepth_help, "N"},
        {"round-time", 0, 0, G_OPTION_ARG_STRING, &round_time,
         "Time each cell runs in a round, or an interval of xsr (60s, as the PTS; 10s for quick "
         "runs; at least 1ms)",
         "TIME"},
        {"max-rounds", 0, 0, G_OPTION_ARG_STRING, &max_rounds,
         "Rounds before giving up on steady state (25; wsat: until 4 x capacity written)", "N"},
        {"precondition", 0, 0, G_OPTION_ARG_STRING, &precond,
         "full: 2 x capacity of 128 KiB sequential writes, simulated (default but for wsat and xsr); "
         "fast: the state of a sequential fill, set at once; random: of a fill and a capacity "
         "of random overwrites (an aged drive), set at once; none: the purged drive (wsat's "
         "and xsr's default)",
         "HOW"},
        {"bs", 0, 0, G_OPTION_ARG_STRING, &bs, "Only these of the test's block sizes, e.g. 4k,128k",
         "LIST"},
        {"mix", 0, 0, G_OPTION_ARG_STRING, &mix,
         "Only these of the test's read/write mixes, e.g. 100/0,0/100", "LIST"},
        G_OPTION_ENTRY_NULL,
    };
    g_autofree char *scripts = plot_script_dir();
    g_autoptr(GOptionContext) ctx = cmd_options(
        "- run a SNIA PTS test (purge, precondition, rounds to steady state)", &c, entries, "Example:\n  ftlsim pts --drive configs/pm863a.ini --test iops --round-time 10s "
             "--out results/pts-iops --plot\n  ftlsim pts -d configs/860pro.ini --test wsat "
             "--round-time 10s -o results/wsat\n  ftlsim pts -d configs/860evo.ini --spec client "
             "--test iops --round-time 10s -o results/pts-c-iops\n", TRUE, &argc, &argv);
    o.bs = bs;
    o.mix = mix;
    o.script_dir = scripts;
    int rc = !ctx ? CMD_EXIT_INPUT
                  : pts_main(&c, ctx, &o, test, threads, iodepth, round_time, max_rounds, precond,
                             spec);
    cmd_common_clear(&c);
    return rc;
}
