/*
 * check.c - "ftlsim check": a drive file validated and the derived drive
 * described, with the memory a run of it needs.
 */
#include "sim/cmd/builtin/builtin.h"

#include "sim/cmd/run.h"
#include "sim/config/config.h"

#include <stdio.h>

static void check_submit(void *ctx, const DriveCmd *c)
{
    (void)ctx, (void)c;
}

/* Bind the workload to the drive as run does (without running it), so that
 * jobs that do not fit it (an offset past its end, a region too small for
 * the block size) are refused here too. */
static gboolean check_fits(const DriveParams *p, Workload *w, GError **error)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    WorkloadTarget t = {.submit = check_submit,
                        .capacity = p->user_capacity,
                        .queue_limit = MAX(p->queue_depth, 1)};
    return workload_bind(w, e, &t, 1, error);
}

/* check's estimate for one run: its prefill and workload, as run takes them. */
static gboolean check_run_memory(const DriveParams *p, const char *spec, const char *job,
                                 const char *trace, const char *prefill, GString *out,
                                 GError **error)
{
    if ((spec != NULL) + (job != NULL) + (trace != NULL) > 1) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "give only one of --workload, --job and --trace");
        return FALSE;
    }
    DrivePrefill pf = {0};
    if (prefill && !run_parse_prefill(prefill, &pf, error))
        return FALSE;
    g_autoptr(Workload) w = NULL;
    if (spec && !(w = workload_from_spec(spec, error)))
        return FALSE;
    if (job && !(w = workload_from_jobfile(job, error)))
        return FALSE;
    MemoryClass mc;
    /* a trace (w NULL) is the worst case: its addresses are not read up front */
    run_memory_class(prefill ? &pf : NULL, w, p->user_capacity, &mc);
    if (!trace && !w) /* only a prefill */
        mc.random_bytes = 0;
    config_describe_run_memory(p, &mc, out);
    if (w && workload_job_count(w) > 0) {
        uint64_t clones = 0, bytes = workload_setup_bytes(w, &clones);
        g_string_append_printf(out, "%-20s %" G_GUINT64_FORMAT " (numjobs clones), about %.1f MiB "
                               "to set up\n", "jobs", clones, (double)bytes / 1048576.0);
    }
    /* a job set run would refuse is refused here too, before binding
     * sets its jobs up */
    if (!run_check_setup_fits(job ? job : "--workload", w, p, &mc, error))
        return FALSE;
    return !w || check_fits(p, w, error);
}

/* check, its options parsed into c and the others. */
static int check_main(CmdCommon *c, GOptionContext *ctx, const char *spec, const char *job,
                      const char *trace, int argc, char **argv)
{
    GError *error = NULL;
    if (argc + (c->drive_arg != NULL) != 2)
        return cmd_usage(ctx, "check takes one drive file");
    if (!c->drive_arg)
        c->drive_arg = g_strdup(argv[1]);
    if (!cmd_common_finish(c, ctx))
        return CMD_EXIT_INPUT;
    DriveParams p;
    if (!config_load_file_set(c->drive, (const char *const *)c->sets, &p, &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    g_autoptr(GString) out = g_string_new(NULL);
    config_describe(&p, out);
    if ((spec || job || trace || c->prefill) &&
        !check_run_memory(&p, spec, job, trace, c->prefill, out, &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    fputs(out->str, stdout);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    CmdCommon c = CMD_COMMON_INIT(CMD_OPT_DRIVE | CMD_OPT_SET | CMD_OPT_PREFILL, "check");
    c.drive_optional = TRUE;
    c.drive_help = "Drive config (INI or a config name), or give it as FILE";
    c.prefill_help = "The run's --prefill, PCT%[:random][:slc=SIZE]";
    g_autofree char *spec = NULL, *job = NULL, *trace = NULL;
    GOptionEntry entries[] = {
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &spec,
         "Also estimate the memory of a run of this workload (as run takes it)", "SPEC"},
        {"job", 'j', 0, G_OPTION_ARG_FILENAME, &job, "The same for an fio job file", "FILE"},
        {"trace", 't', 0, G_OPTION_ARG_FILENAME, &trace,
         "The same for a trace replay (estimated as the worst case)", "FILE"},
        G_OPTION_ENTRY_NULL,
    };
    g_autoptr(GOptionContext) ctx = cmd_options(
        "[FILE.ini] - print the derived drive and the memory to simulate it", &c, entries,
        "The simulator's memory is estimated for four workload classes: a tenth of the\n"
             "drive written in order; an empty drive filled sequentially; a drive prefilled\n"
             "sequentially, then given 20 GB of 4 KiB random writes; a fully fragmented drive\n"
             "(every page mapped at random: the worst case). With --workload, --job, --trace\n"
             "or --prefill, also for that run, and the memory the jobs take to set up (a\n"
             "job set that does not fit is refused, exit 2). The map costs what a run writes, not the\n"
             "drive's capacity; its entries are 8 bytes wide where the drive's 4 KiB slots or\n"
             "pages outnumber 32 bits, 4 otherwise. A run refuses up front (exit 2) a\n"
             "drive whose estimate exceeds the memory available (FTLSIM_MEMORY_LIMIT, or\n"
             "MemAvailable plus free swap; either held to what the address-space limit,\n"
             "ulimit -v, leaves).\n"
             "Example:\n  ftlsim check -d configs/860evo.ini --prefill 100%:random "
             "-w 'rw=randwrite,bs=4k,io_size=20g'\n",
        FALSE, &argc, &argv);
    int rc = !ctx ? CMD_EXIT_INPUT : check_main(&c, ctx, spec, job, trace, argc, argv);
    cmd_common_clear(&c);
    return rc;
}
