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
 * seen in it, with block size and offset 0 (log_max_value: the largest
 * latency instead of the mean). A window still open when the job ends is
 * written as fio's finalize_logs() does: a latency window at the job's end,
 * a bandwidth or IOPS window not at all (fio samples those on a timer that
 * stops with the job).
 *
 * write_hist_log (PREFIX_clat_hist.N.log) is fio's histogram log: with
 * log_hist_msec, at the first completion of a direction at least that long
 * after its last row, "time, direction, block size, " and the counts of
 * fio's 1856 completion latency bins (FIO_IO_U_PLAT_*, 2^log_hist_coarseness
 * bins summed into one) that completed since that direction's last row; no
 * row at the job's end. Counts only with clat_percentiles (fio's default).
 *
 * log_store_compressed: each log is NAME.log.fz, a zlib stream of fio's
 * binary samples (struct io_sample: time, value, direction with bit 31 set
 * when an offset follows, priority, block size[, offset]), the form fio
 * stores; `fio --inflate-log=NAME.log.fz` prints the text rows. A log with
 * no rows stays empty, as fio leaves it. The histogram log stays text:
 * fio's compressed one holds pointers into its memory, which no reader can
 * use.
 */
#define _GNU_SOURCE /* fopencookie */
#include "sim/host/workload_priv.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "sim/engine/version.h"

#include <string.h>
#include <zlib.h>

enum { WL_LOG_BW, WL_LOG_IOPS, WL_LOG_LAT, WL_LOG_CLAT, WL_LOG_SLAT, WL_LOGS };

/* fio's latency bins (stat.h): groups of 64, the first two exact in ns */
#define FIO_PLAT_BITS 6
#define FIO_PLAT_VAL (1u << FIO_PLAT_BITS)
#define FIO_PLAT_NR (29u * FIO_PLAT_VAL)

typedef struct WlWindow {
    uint64_t bytes[WL_DIRS], ios[WL_DIRS];
    double lat_sum[WL_DIRS], lat_max[WL_DIRS];
    SimTime end; /* ns */
} WlWindow;

/* A log written through zlib: the FILE the rows go to is a stdio cookie
 * stream whose writes deflate into out, the file open_fn made. */
typedef struct WlGz {
    z_stream z;
    FILE *out;           /* the .fz file; closed by the close_fn */
    bool started;        /* a byte was written: the stream is finished at close */
    bool failed;
    unsigned char buf[16384];
} WlGz;

struct WlLog {
    FILE *f[WL_LOGS];    /* NULL: not asked for */
    FILE *raw[WL_LOGS + 1]; /* log_store_compressed: the files under f[] and hist */
    SimTime bw_win;      /* ns: window of the bw and iops logs */
    SimTime lat_win;     /* ns; 0: a row per I/O */
    WlWindow bw, lat;
    bool offset, prio, max;
    bool gz;             /* log_store_compressed: rows are fio's binary samples */
    FILE *hist;          /* write_hist_log; NULL: not asked for */
    SimTime hist_win;    /* ns: log_hist_msec; 0: no rows */
    uint64_t hist_last[WL_DIRS]; /* ms: the direction's last row (fio's hist_last) */
    uint64_t *cum;       /* [WL_DIRS][FIO_PLAT_NR]: bins counted so far */
    uint64_t *prev;      /* [WL_DIRS][FIO_PLAT_NR]: cum at the direction's last row */
    bool hist_count;
    uint64_t epoch_ms;   /* added to every time: log_unix_epoch; 0 otherwise */
};

void wl_log_free(WlLog *log)
{
    if (!log)
        return;
    g_free(log->cum);
    g_free(log->prev);
    g_free(log); /* files are closed by workload_close_logs */
}

/* fio's plat_val_to_idx(): the bin of a latency in ns. */
static unsigned fio_plat_idx(uint64_t ns)
{
    unsigned msb = ns ? 63u - (unsigned)__builtin_clzll(ns) : 0;
    if (msb <= FIO_PLAT_BITS)
        return (unsigned)ns;
    unsigned err = msb - FIO_PLAT_BITS;
    unsigned idx = ((err + 1) << FIO_PLAT_BITS) + ((FIO_PLAT_VAL - 1) & (unsigned)(ns >> err));
    return MIN(idx, FIO_PLAT_NR - 1);
}

/* A row of the histogram log: the bins since the direction's last row. */
static void wl_hist_row(WlLog *log, int dir, uint64_t ms, uint64_t bs, uint32_t coarse)
{
    const uint64_t *cum = log->cum + dir * FIO_PLAT_NR;
    uint64_t *prev = log->prev + dir * FIO_PLAT_NR;
    unsigned stride = 1u << coarse;
    fprintf(log->hist, "%" G_GUINT64_FORMAT ", %d, %" G_GUINT64_FORMAT, log->epoch_ms + ms, dir,
            bs);
    for (unsigned i = 0; i < FIO_PLAT_NR; i += stride) {
        uint64_t sum = 0;
        for (unsigned k = i; k < i + stride; k++)
            sum += cum[k] - prev[k];
        fprintf(log->hist, ", %" G_GUINT64_FORMAT, sum);
    }
    fputc('\n', log->hist);
    memcpy(prev, cum, FIO_PLAT_NR * sizeof *prev);
}

/* fio's add_clat_sample(): the bin counted, then a row when the window passed. */
static void wl_hist_record(WlJob *j, int op, uint64_t bs, SimTime rel, SimTime latency)
{
    WlLog *log = j->log;
    if (log->hist_count)
        log->cum[op * FIO_PLAT_NR + fio_plat_idx(latency)]++;
    if (!log->hist_win)
        return;
    uint64_t ms = rel / SIM_MS, win = log->hist_win / SIM_MS;
    if (!log->hist_last[op])
        log->hist_last[op] = ms;
    uint64_t this_window = ms - log->hist_last[op];
    if (this_window < win)
        return;
    wl_hist_row(log, op, ms, bs, j->spec->hist_coarse);
    log->hist_last[op] = ms - (this_window - win);
}

gboolean workload_wants_logs(const Workload *w)
{
    g_return_val_if_fail(w != NULL, FALSE);
    for (guint i = 0; w->specs && i < w->specs->len; i++) {
        const WorkloadJobSpec *s = &g_array_index(w->specs, WorkloadJobSpec, i);
        if (s->bw_log[0] || s->lat_log[0] || s->iops_log[0] || s->hist_log[0] ||
            s->iolog_out[0])
            return TRUE;
    }
    return FALSE;
}

/* Deflate n bytes (flush: Z_NO_FLUSH or Z_FINISH) into the .fz file. */
static bool wl_gz_push(WlGz *g, const void *data, size_t n, int flush)
{
    g->z.next_in = (Bytef *)(uintptr_t)data;
    g->z.avail_in = (uInt)n;
    do {
        g->z.next_out = g->buf;
        g->z.avail_out = sizeof g->buf;
        int rc = deflate(&g->z, flush);
        if (rc == Z_STREAM_ERROR)
            return false;
        size_t have = sizeof g->buf - g->z.avail_out;
        if (have && fwrite(g->buf, 1, have, g->out) != have)
            return false;
    } while (g->z.avail_out == 0 || (flush == Z_FINISH && g->z.avail_in));
    return true;
}

static ssize_t wl_gz_write(void *cookie, const char *data, size_t n)
{
    WlGz *g = cookie;
    g->started = true;
    if (g->failed || !wl_gz_push(g, data, n, Z_NO_FLUSH)) {
        g->failed = true;
        errno = EIO;
        return -1;
    }
    return (ssize_t)n;
}

static int wl_gz_close(void *cookie)
{
    WlGz *g = cookie;
    bool ok = !g->failed && (!g->started || wl_gz_push(g, NULL, 0, Z_FINISH));
    deflateEnd(&g->z);
    g_free(g);
    return ok ? 0 : EOF;
}

/* A stream whose text goes deflated into out; NULL when zlib has no memory. */
static FILE *wl_gz_open(FILE *out)
{
    WlGz *g = g_new0(WlGz, 1);
    g->out = out;
    if (deflateInit(&g->z, Z_DEFAULT_COMPRESSION) != Z_OK) {
        g_free(g);
        return NULL;
    }
    cookie_io_functions_t fns = {.write = wl_gz_write, .close = wl_gz_close};
    FILE *f = fopencookie(g, "w", fns);
    if (!f) {
        deflateEnd(&g->z);
        g_free(g);
    }
    return f;
}

/* The log file of a job: PREFIX_SUFFIX.N.log, or .log.fz through zlib with
 * log_store_compressed (*raw then gets the file under it). */
static FILE *wl_log_file(WlJob *j, const char *suffix, const char *prefix,
                         WorkloadLogOpenFn open_fn, void *ctx, FILE **raw, GError **error)
{
    const char *p = prefix[0] == '\001' ? j->spec->name : prefix;
    bool gz = j->spec->log_gz_store && raw;
    g_autofree char *name =
        g_strdup_printf("%s_%s.%u.log%s", p, suffix, j->index + 1, gz ? ".fz" : "");
    for (char *c = name; *c; c++)
        if (*c == '/')
            *c = '_';
    FILE *f = open_fn(ctx, name, error);
    if (!f || !gz)
        return f;
    *raw = f;
    FILE *z = wl_gz_open(f);
    if (!z)
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "%s: cannot start zlib for log_store_compressed", name);
    return z;
}

static gboolean wl_log_open(WlJob *j, int kind, const char *prefix, WorkloadLogOpenFn open_fn,
                            void *ctx, GError **error)
{
    static const char *const suffix[] = {"bw", "iops", "lat", "clat", "slat"};
    j->log->f[kind] = wl_log_file(j, suffix[kind], prefix, open_fn, ctx, &j->log->raw[kind], error);
    return j->log->f[kind] != NULL;
}

static gboolean wl_hist_open(WlJob *j, WorkloadLogOpenFn open_fn, void *ctx, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    WlLog *log = j->log;
    log->hist_win = s->hist_ns;
    log->hist_count = s->clat_pct;
    log->cum = g_new0(uint64_t, WL_DIRS * FIO_PLAT_NR);
    log->prev = g_new0(uint64_t, WL_DIRS * FIO_PLAT_NR);
    log->hist = wl_log_file(j, "clat_hist", s->hist_log, open_fn, ctx, NULL, error);
    return log->hist != NULL;
}

gboolean workload_open_logs(Workload *w, WorkloadLogOpenFn open_fn, void *ctx, GError **error)
{
    g_return_val_if_fail(w && w->bound && !w->started, FALSE);
    if (!wl_iolog_open_all(w, open_fn, ctx, error))
        return FALSE;
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *j = &w->jobs[i];
        const WorkloadJobSpec *s = j->spec;
        if (!s->bw_log[0] && !s->lat_log[0] && !s->iops_log[0] && !s->hist_log[0])
            continue;
        j->log = g_new0(WlLog, 1);
        j->log->bw_win = s->log_avg_ns; /* 0: a row per I/O */
        j->log->lat_win = s->log_avg_ns;
        j->log->offset = s->log_offset;
        j->log->prio = s->log_prio;
        j->log->max = s->log_max;
        j->log->gz = s->log_gz_store;
        j->log->epoch_ms = s->log_epoch ? (uint64_t)ftlsim_clock_ms() : 0; /* the run's start */
        if (s->hist_log[0] && !wl_hist_open(j, open_fn, ctx, error))
            return FALSE;
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
    if (log->gz) { /* fio's struct io_sample (+ offset), little-endian */
        struct {
            uint64_t time, value;
            uint32_t ddir; /* bit 31: an offset follows; bit 30: log_prio */
            uint16_t prio, pad;
            uint64_t bs, offset;
        } r = {log->epoch_ms + t / SIM_MS, (uint64_t)nearbyint(value), /* as %.0f rounds */
               (uint32_t)dir | (log->offset ? 0x80000000u : 0) | (log->prio ? 0x40000000u : 0),
               0, 0, bs, offset};
        fwrite(&r, log->offset ? sizeof r : offsetof(__typeof__(r), offset), 1, f);
        return;
    }
    const char *prio = log->prio ? "0x0000" : "0";
    if (log->offset)
        fprintf(f, "%" G_GUINT64_FORMAT ", %.0f, %d, %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                   ", %s\n", log->epoch_ms + t / SIM_MS, value, dir, bs, offset, prio);
    else
        fprintf(f, "%" G_GUINT64_FORMAT ", %.0f, %d, %" G_GUINT64_FORMAT ", %s\n",
                log->epoch_ms + t / SIM_MS, value, dir, bs, prio);
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
 * windows without I/O have no row, as in fio). At the job's end (final) a
 * latency window still open is written at that time, a bandwidth window
 * only if it ended before. */
static void wl_log_flush(WlLog *log, SimTime now, bool final)
{
    WlWindow *b = &log->bw, *l = &log->lat;
    if (log->bw_win && b->end && now > b->end) {
        double sec = (double)log->bw_win / 1e9;
        for (int d = 0; d < WL_DIRS; d++) {
            if (!b->ios[d])
                continue;
            wl_log_row(log, log->f[WL_LOG_BW], b->end, (double)b->bytes[d] / 1024.0 / sec, d, 0, 0);
            wl_log_row(log, log->f[WL_LOG_IOPS], b->end, (double)b->ios[d] / sec, d, 0, 0);
        }
        memset(b, 0, sizeof *b);
    }
    if (log->lat_win && l->end && (final || now > l->end)) {
        SimTime at = final ? MIN(now, l->end) : l->end;
        for (int d = 0; d < WL_DIRS; d++) {
            if (!l->ios[d])
                continue;
            double v = log->max ? l->lat_max[d] : l->lat_sum[d] / (double)l->ios[d];
            wl_log_row(log, log->f[WL_LOG_LAT], at, v, d, 0, 0);
            wl_log_row(log, log->f[WL_LOG_CLAT], at, v, d, 0, 0);
            wl_log_row(log, log->f[WL_LOG_SLAT], at, 0, d, 0, 0);
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
    if (log->hist)
        wl_hist_record(j, op, length, rel, latency);
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
    log->lat.lat_max[op] = MAX(log->lat.lat_max[op], (double)latency);
}

gboolean workload_close_logs(Workload *w, WorkloadLogCloseFn close_fn, void *ctx, GError **error)
{
    g_return_val_if_fail(w != NULL, FALSE);
    gboolean ok = wl_iolog_close_all(w, close_fn, ctx, error);
    for (uint32_t i = 0; i < w->njobs; i++) {
        const WlJob *j = &w->jobs[i];
        WlLog *log = j->log;
        if (!log)
            continue;
        SimTime end = j->state == WL_JOB_DONE ? j->t_finish : sim_now(w->e);
        wl_log_flush(log, end > j->t_ramp_end ? end - j->t_ramp_end : 0, true);
        FILE **files[WL_LOGS + 1];
        for (int k = 0; k < WL_LOGS; k++)
            files[k] = &log->f[k];
        files[WL_LOGS] = &log->hist;
        for (int k = 0; k <= WL_LOGS; k++) {
            if (log->raw[k] && *files[k] && fclose(*files[k]) != 0 && ok) {
                g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                            "job \"%s\": cannot write a compressed log (log_store_compressed)",
                            j->name);
                ok = FALSE;
            }
            if (log->raw[k])
                *files[k] = log->raw[k];
            log->raw[k] = NULL;
            if (*files[k] && ok)
                ok = close_fn(ctx, *files[k], error);
            else if (*files[k])
                close_fn(ctx, *files[k], NULL);
            *files[k] = NULL;
        }
    }
    return ok;
}
