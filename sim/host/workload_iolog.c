/*
 * workload_iolog.c - fio's iolog for jobs. write_iolog records every I/O a
 * job issues as fio 3.33 writes it: "fio version 3 iolog", then rows
 * "TIME_US FILE ACTION [OFFSET LENGTH]" (add and open at 0, one row per I/O
 * as it is issued, close at the job's end), so a run can be diffed against
 * fio's. read_iolog issues the I/Os of a recorded log (version 2 or 3, read
 * by trace_fio.c) in its order instead of generating them: at their times
 * from the job's start, or as fast as the queue allows with replay_no_stall.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

static const char *wl_iolog_action(const WlJob *j, IoOp op)
{
    switch (op) {
    case IO_READ:
        return "read";
    case IO_WRITE:
        return "write";
    case IO_TRIM:
        return "trim";
    default:
        return j->spec->datasync ? "datasync" : "sync";
    }
}

static uint64_t wl_iolog_us(const WlJob *j)
{
    return (sim_now(j->w->e) - j->t_start) / SIM_US;
}

void wl_iolog_write(WlJob *j, IoOp op, uint64_t offset, uint64_t length)
{
    fprintf(j->iolog, "%" G_GUINT64_FORMAT " %s %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
            wl_iolog_us(j), j->iolog_file, wl_iolog_action(j, op), offset, length);
}

gboolean wl_iolog_open_all(Workload *w, WorkloadLogOpenFn open_fn, void *ctx, GError **error)
{
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *j = &w->jobs[i];
        const WorkloadJobSpec *s = j->spec;
        if (!s->iolog_out[0])
            continue;
        /* numjobs clones each write their own file, NAME.CLONE */
        g_autofree char *name = s->numjobs > 1 ? g_strdup_printf("%s.%u", s->iolog_out, j->clone)
                                               : g_strdup(s->iolog_out);
        if (!(j->iolog = open_fn(ctx, name, error)))
            return FALSE;
        /* fio names a job's file JOB.CLONE.0 unless filename= says */
        j->iolog_file = s->filename[0] ? g_strdup(s->filename)
                                       : g_strdup_printf("%s.%u.0", s->name, j->clone);
        fprintf(j->iolog, "fio version 3 iolog\n0 %s add\n0 %s open\n", j->iolog_file,
                j->iolog_file);
    }
    return TRUE;
}

gboolean wl_iolog_close_all(Workload *w, WorkloadLogCloseFn close_fn, void *ctx, GError **error)
{
    gboolean ok = TRUE;
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *j = &w->jobs[i];
        if (!j->iolog)
            continue;
        SimTime end = j->state == WL_JOB_DONE ? j->t_finish : sim_now(w->e);
        fprintf(j->iolog, "%" G_GUINT64_FORMAT " %s close\n",
                end > j->t_start ? (end - j->t_start) / SIM_US : 0, j->iolog_file);
        if (ok)
            ok = close_fn(ctx, j->iolog, error);
        else
            close_fn(ctx, j->iolog, NULL);
        j->iolog = NULL;
    }
    return ok;
}

gboolean wl_iolog_bind(WlJob *j, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    TraceOptions topt = {.format = NULL, .device = -1};
    GError *err = NULL;
    TraceReader *r = trace_open(s->iolog_in, &topt, &err);
    if (!r) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND, "job \"%s\": option \"read_iolog\": %s",
                    j->name, err->message);
        g_error_free(err);
        return FALSE;
    }
    const char *fmt = trace_format_name(r);
    if (strcmp(fmt, "fio2") != 0 && strcmp(fmt, "fio3") != 0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"read_iolog\": %s: found a %s trace, expected a fio iolog "
                    "(\"fio version 2 iolog\" or \"fio version 3 iolog\" on its first line; other "
                    "traces replay with --trace)", j->name, s->iolog_in, fmt);
        trace_close(r);
        return FALSE;
    }
    j->iolog_in = r;
    return TRUE;
}

bool wl_iolog_pick(WlJob *j)
{
    Workload *w = j->w;
    HostIo io;
    GError *err = NULL;
    int got = trace_next(j->iolog_in, &io, &err);
    if (got < 0) {
        if (!w->run_error)
            g_propagate_prefixed_error(&w->run_error, err, "job \"%s\": option \"read_iolog\": ",
                                       j->name);
        else
            g_error_free(err);
        return false;
    }
    if (got == 0)
        return false;
    if (io.zop != ZOP_NONE) { /* a job's commands are its own: zones are the zbd mode's */
        if (!w->run_error)
            g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
                        "%s:%" G_GUINT64_FORMAT ": a zone action at offset %" G_GUINT64_FORMAT
                        ", expected read, write, trim, sync or datasync in a job's read_iolog "
                        "(job \"%s\"; zone actions replay with --trace on a zoned drive)",
                        j->spec->iolog_in, trace_line(j->iolog_in), io.offset, j->name);
        return false;
    }
    if (io.op != IO_FLUSH &&
        (io.offset >= w->t.capacity || io.length > w->t.capacity - io.offset)) {
        if (!w->run_error)
            g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
                        "%s:%" G_GUINT64_FORMAT ": offset %" G_GUINT64_FORMAT " + length %"
                        G_GUINT64_FORMAT " ends beyond the drive capacity of %" G_GUINT64_FORMAT
                        " bytes, expected I/Os on the drive (job \"%s\", read_iolog)",
                        j->spec->iolog_in, trace_line(j->iolog_in), io.offset, io.length,
                        w->t.capacity, j->name);
        return false;
    }
    j->pick.op = io.op;
    j->pick.offset = io.offset;
    j->pick.length = io.length;
    j->iolog_at = j->spec->replay_no_stall ? 0 : j->t_start + io.time;
    return true;
}

void wl_iolog_free(WlJob *j)
{
    trace_close(j->iolog_in);
    j->iolog_in = NULL;
    g_clear_pointer(&j->iolog_file, g_free);
}
