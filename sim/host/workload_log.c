/*
 * workload_log.c - fio's logs: write_bw_log, write_lat_log, write_iops_log.
 *
 * fio's file names (PREFIX_bw.N.log, PREFIX_lat.N.log, PREFIX_clat.N.log,
 * PREFIX_slat.N.log, PREFIX_iops.N.log, N the job's number from 1) and
 * format, as fio 3.33 writes them: "time (ms since the job's ramp_time
 * ended), value, direction (0 read, 1 write, 2 trim), block size, [offset,]
 * priority" (0, or with log_prio fio's 0x0000: ftlsim issues every I/O at
 * one priority). Without log_avg_msec every log has a row per I/O: latency
 * in ns (slat at submission, 0 here; clat and lat at completion, equal
 * here), bandwidth as fio computes it per I/O (bytes x 10^6 / clat ns) and
 * IOPS as 1. With log_avg_msec each window's mean, one row per direction
 * seen in it, with block size and offset 0.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

enum { WL_LOG_BW, WL_LOG_IOPS, WL_LOG_LAT, WL_LOG_CLAT, WL_LOG_SLAT, WL_LOGS };

typedef struct WlWindow {
    uint64_t bytes[WL_DIRS], ios[WL_DIRS];
    double lat_sum[WL_DIRS];
    SimTime end; /* ns */
} WlWindow;

struct WlLog {
    FILE *f[WL_LOGS];    /* NULL: not asked for */
    SimTime bw_win;      /* ns: window of the bw and iops logs */
    SimTime lat_win;     /* ns; 0: a row per I/O */
    WlWindow bw, lat;
    bool offset, prio;
};

void wl_log_free(WlLog *log)
{
    g_free(log); /* files are closed by workload_close_logs */
}

gboolean workload_wants_logs(const Workload *w)
{
    g_return_val_if_fail(w != NULL, FALSE);
    for (guint i = 0; w->specs && i < w->specs->len; i++) {
        const WorkloadJobSpec *s = &g_array_index(w->specs, WorkloadJobSpec, i);
        if (s->bw_log[0] || s->lat_log[0] || s->iops_log[0] || s->iolog_out[0])
            return TRUE;
    }
    return FALSE;
}

static gboolean wl_log_open(WlJob *j, int kind, const char *prefix, WorkloadLogOpenFn open_fn,
                            void *ctx, GError **error)
{
    static const char *const suffix[] = {"bw", "iops", "lat", "clat", "slat"};
    const char *p = prefix[0] == '\001' ? j->spec->name : prefix;
    g_autofree char *name = g_strdup_printf("%s_%s.%u.log", p, suffix[kind], j->index + 1);
    for (char *c = name; *c; c++)
        if (*c == '/')
            *c = '_';
    j->log->f[kind] = open_fn(ctx, name, error);
    return j->log->f[kind] != NULL;
}

gboolean workload_open_logs(Workload *w, WorkloadLogOpenFn open_fn, void *ctx, GError **error)
{
    g_return_val_if_fail(w && w->bound && !w->started, FALSE);
    if (!wl_iolog_open_all(w, open_fn, ctx, error))
        return FALSE;
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *j = &w->jobs[i];
        const WorkloadJobSpec *s = j->spec;
        if (!s->bw_log[0] && !s->lat_log[0] && !s->iops_log[0])
            continue;
        j->log = g_new0(WlLog, 1);
        j->log->bw_win = s->log_avg_ns; /* 0: a row per I/O */
        j->log->lat_win = s->log_avg_ns;
        j->log->offset = s->log_offset;
        j->log->prio = s->log_prio;
        if ((s->bw_log[0] && !wl_log_open(j, WL_LOG_BW, s->bw_log, open_fn, ctx, error)) ||
            (s->iops_log[0] && !wl_log_open(j, WL_LOG_IOPS, s->iops_log, open_fn, ctx, error)))
            return FALSE;
        for (int k = WL_LOG_LAT; s->lat_log[0] && k <= WL_LOG_SLAT; k++)
            if (!wl_log_open(j, k, s->lat_log, open_fn, ctx, error))
                return FALSE;
    }
    return TRUE;
}

static void wl_log_row(const WlLog *log, FILE *f, SimTime t, double value, int dir, uint64_t bs,
                       uint64_t offset)
{
    if (!f)
        return;
    const char *prio = log->prio ? "0x0000" : "0";
    if (log->offset)
        fprintf(f, "%" G_GUINT64_FORMAT ", %.0f, %d, %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                   ", %s\n", t / SIM_MS, value, dir, bs, offset, prio);
    else
        fprintf(f, "%" G_GUINT64_FORMAT ", %.0f, %d, %" G_GUINT64_FORMAT ", %s\n", t / SIM_MS,
                value, dir, bs, prio);
}

/* fio logs an I/O's submission latency when it is issued: the row's time
 * is then, its value 0 (the simulated submission is instant). */
void wl_log_submit(WlJob *j, IoOp op, uint64_t offset, uint64_t length)
{
    WlLog *log = j->log;
    SimTime now = sim_now(j->w->e);
    if (log->lat_win || !log->f[WL_LOG_SLAT] || op >= WL_DIRS || now < j->t_ramp_end)
        return; /* time 0 of the rows: the end of the job's ramp_time */
    wl_log_row(log, log->f[WL_LOG_SLAT], now - j->t_ramp_end, 0, op, length, offset);
}

/* Write the rows of the windows that ended by now (at most one with data:
 * windows without I/O have no row, as in fio). */
static void wl_log_flush(WlLog *log, SimTime now, bool force)
{
    WlWindow *b = &log->bw, *l = &log->lat;
    if (log->bw_win && b->end && (force || now > b->end)) {
        double sec = (double)log->bw_win / 1e9;
        for (int d = 0; d < WL_DIRS; d++) {
            if (!b->ios[d])
                continue;
            wl_log_row(log, log->f[WL_LOG_BW], b->end, (double)b->bytes[d] / 1024.0 / sec, d, 0, 0);
            wl_log_row(log, log->f[WL_LOG_IOPS], b->end, (double)b->ios[d] / sec, d, 0, 0);
        }
        memset(b, 0, sizeof *b);
    }
    if (log->lat_win && l->end && (force || now > l->end)) {
        for (int d = 0; d < WL_DIRS; d++) {
            if (!l->ios[d])
                continue;
            double mean = l->lat_sum[d] / (double)l->ios[d];
            wl_log_row(log, log->f[WL_LOG_LAT], l->end, mean, d, 0, 0);
            wl_log_row(log, log->f[WL_LOG_CLAT], l->end, mean, d, 0, 0);
            wl_log_row(log, log->f[WL_LOG_SLAT], l->end, 0, d, 0, 0);
        }
        memset(l, 0, sizeof *l);
    }
}

void wl_log_record(WlJob *j, IoOp op, uint64_t offset, uint64_t length, SimTime latency)
{
    WlLog *log = j->log;
    SimTime now = sim_now(j->w->e);
    if (op >= WL_DIRS)
        return;
    SimTime rel = now > j->t_ramp_end ? now - j->t_ramp_end : 0; /* logged after the ramp */
    wl_log_flush(log, rel, false);
    if (!log->bw_win) { /* fio's add_bw_sample() and add_iops_sample() per I/O */
        double bw = latency ? (double)(length * 1000000 / latency) : 0;
        wl_log_row(log, log->f[WL_LOG_BW], rel, bw, op, length, offset);
        wl_log_row(log, log->f[WL_LOG_IOPS], rel, 1, op, length, offset);
    } else {
        if (!log->bw.end) /* windows (end - win, end]: a completion at the end is in */
            log->bw.end = rel ? (rel - 1) / log->bw_win * log->bw_win + log->bw_win
                              : log->bw_win;
        log->bw.bytes[op] += length;
        log->bw.ios[op]++;
    }
    if (!log->lat_win) {
        wl_log_row(log, log->f[WL_LOG_LAT], rel, (double)latency, op, length, offset);
        wl_log_row(log, log->f[WL_LOG_CLAT], rel, (double)latency, op, length, offset);
        return;
    }
    if (!log->lat.end)
        log->lat.end = rel ? (rel - 1) / log->lat_win * log->lat_win + log->lat_win : log->lat_win;
    log->lat.ios[op]++;
    log->lat.lat_sum[op] += (double)latency;
}

gboolean workload_close_logs(Workload *w, WorkloadLogCloseFn close_fn, void *ctx, GError **error)
{
    g_return_val_if_fail(w != NULL, FALSE);
    gboolean ok = wl_iolog_close_all(w, close_fn, ctx, error);
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlLog *log = w->jobs[i].log;
        if (!log)
            continue;
        wl_log_flush(log, 0, true);
        for (int k = 0; k < WL_LOGS; k++) {
            if (log->f[k] && ok)
                ok = close_fn(ctx, log->f[k], error);
            else if (log->f[k])
                close_fn(ctx, log->f[k], NULL);
            log->f[k] = NULL;
        }
    }
    return ok;
}
