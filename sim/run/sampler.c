/*
 * sampler.c - the series rows of a run (see sampler.h): each row the
 * change of the drive's counters since the last, over the interval's
 * length.
 */
#include "sim/run/sampler.h"

#include <math.h>

struct Sampler {
    SimEngine *e;
    Drive *d;
    Workload *w;
    uint64_t interval_bytes; /* 0: rows by time */
    uint64_t next_bytes;     /* bytes mode: next row when host writes pass this */
    DriveStats last;         /* counters at the last row */
    double last_t;           /* s */
    double dies, channels, cores;
    double pool_blocks; /* blocks outside the static SLC part */
    GArray *rows;       /* SeriesRow */
    gboolean full;      /* stopped at RUN_ROWS_MAX rows */
    FILE *series, *live_csv;
    PlotLive *live;
    LatHist *ivl[2];                 /* latency: this interval's read, write latencies */
    double *round_host, *round_nand; /* ss=pts: bytes written at each round boundary */
};

static void record_latency(void *ctx, IoOp op, uint64_t ns)
{
    Sampler *s = ctx;
    if (op == IO_READ || op == IO_WRITE)
        lat_hist_record(s->ivl[op], ns);
}

/* The ss=pts job's round boundary: the drive's write counters. */
static void on_round(void *ctx, uint32_t round)
{
    Sampler *s = ctx;
    const DriveStats *st = drive_stats(s->d);
    uint64_t nand = 0;
    for (int c = 0; c < CAUSES; c++)
        nand += st->nand_write_bytes[c];
    s->round_host[round] = (double)st->host_bytes[IO_WRITE];
    s->round_nand[round] = (double)nand;
}

Sampler *sampler_new(SimEngine *e, Drive *d, const DriveParams *p, Workload *w,
                     uint64_t interval_bytes, gboolean latency)
{
    Sampler *s = g_new0(Sampler, 1);
    s->e = e;
    s->d = d;
    s->w = w;
    s->interval_bytes = interval_bytes;
    s->next_bytes = interval_bytes;
    s->rows = g_array_new(FALSE, FALSE, sizeof(SeriesRow));
    s->dies = drive_params_dies(p);
    s->channels = p->channels;
    s->cores = MAX(1u, p->ctrl_cores);
    DriveWear w0;
    drive_wear(d, &w0);
    s->pool_blocks = w0.pool.blocks;
    WorkloadSteady ws;
    if (workload_steady(w, &ws)) {
        s->round_host = g_new0(double, ws.max_rounds + 1);
        s->round_nand = g_new0(double, ws.max_rounds + 1);
        workload_set_round_hook(w, on_round, s);
    }
    if (latency) {
        s->ivl[IO_READ] = lat_hist_new();
        s->ivl[IO_WRITE] = lat_hist_new();
        workload_set_latency_sink(w, record_latency, s);
    }
    return s;
}

void sampler_free(Sampler *s)
{
    if (!s)
        return;
    g_array_free(s->rows, TRUE);
    lat_hist_free(s->ivl[IO_READ]);
    lat_hist_free(s->ivl[IO_WRITE]);
    g_free(s->round_host);
    g_free(s->round_nand);
    g_free(s);
}

void sampler_write_to(Sampler *s, FILE *series, FILE *live_csv, PlotLive *live)
{
    s->series = series;
    s->live_csv = live_csv;
    s->live = live;
}

/* What the drive did with host writes over an interval; busy is the
 * dies' busy share in it (an interval without host writes is idle only
 * when the dies are: a host held up while the dies fold or collect is not
 * idle). */
static DrivePhase classify(const DriveStats *a, const DriveStats *b, double busy)
{
    uint64_t host_w = b->host_bytes[IO_WRITE] - a->host_bytes[IO_WRITE];
    uint64_t nand_host = b->nand_write_bytes[CAUSE_HOST] - a->nand_write_bytes[CAUSE_HOST];
    uint64_t slc = b->host_slc_bytes - a->host_slc_bytes;
    uint64_t gc = b->nand_write_bytes[CAUSE_GC] - a->nand_write_bytes[CAUSE_GC];
    uint64_t fold = b->nand_write_bytes[CAUSE_FOLD] - a->nand_write_bytes[CAUSE_FOLD];
    if (host_w == 0 && nand_host == 0) {
        uint64_t host_r = b->host_bytes[IO_READ] - a->host_bytes[IO_READ];
        if ((fold || gc) && busy >= 0.5)
            return fold >= gc ? PHASE_FOLDING : PHASE_GC;
        if (host_r)
            return PHASE_READ;
        return busy < 0.5 ? PHASE_IDLE : PHASE_GC;
    }
    if (2 * slc > nand_host)
        return PHASE_PSLC;
    if (fold > 0)
        return PHASE_FOLDING;
    if (4 * gc > nand_host) /* GC moves more than a quarter of what the host writes */
        return PHASE_GC;
    return PHASE_NATIVE;
}

/* The interval's latency percentiles into row, and a fresh interval. */
static void row_latency(Sampler *s, SeriesRow *row)
{
    row->has_latency = TRUE;
    for (int op = 0; op < 2; op++) {
        for (int i = 0; i < REPORT_SERIES_PCTS; i++)
            row->lat_us[op][i] =
                lat_hist_count(s->ivl[op])
                    ? (double)lat_hist_percentile(s->ivl[op], report_series_pcts[i]) / 1e3
                    : NAN;
        lat_hist_reset(s->ivl[op]);
    }
}

/* Close the interval ending now: one series row. FALSE at the row limit. */
static gboolean take_row(Sampler *s)
{
    drive_account(s->d);
    const DriveStats *st = drive_stats(s->d);
    const DriveStats *l = &s->last;
    double t = (double)sim_now(s->e) / 1e9;
    double dt = t - s->last_t;
    if (dt <= 0)
        return TRUE;
    SeriesSample sample = {.last = l, .now = st, .t_s = t, .dt = dt, .dies = s->dies,
                           .channels = s->channels, .cores = s->cores,
                           .pool_blocks = s->pool_blocks};
    SeriesRow row = {0};
    report_series_fill(&row, &sample);
    double busy = 0;
    for (int w = 0; w < DIE_WORKS; w++)
        busy += row.die_work[w];
    row.phase = classify(l, st, busy);
    if (s->ivl[0])
        row_latency(s, &row);
    if (s->rows->len >= RUN_ROWS_MAX) {
        s->full = TRUE;
        return FALSE;
    }
    g_array_append_val(s->rows, row);
    if (s->series)
        report_series_row(s->series, &row);
    if (s->live_csv) {
        report_series_row(s->live_csv, &row);
        fflush(s->live_csv);
        plot_live_update(s->live);
    }
    s->last = *st;
    s->last_t = t;
    return TRUE;
}

gboolean sampler_tick(Sampler *s)
{
    return s->interval_bytes || take_row(s);
}

gboolean sampler_io(Sampler *s)
{
    if (!s->interval_bytes || drive_stats(s->d)->host_bytes[IO_WRITE] < s->next_bytes)
        return TRUE;
    gboolean ok = take_row(s);
    s->next_bytes =
        (drive_stats(s->d)->host_bytes[IO_WRITE] / s->interval_bytes + 1) * s->interval_bytes;
    return ok;
}

void sampler_finish(Sampler *s)
{
    if (s->rows->len < RUN_ROWS_MAX)
        take_row(s);
}

GArray *sampler_rows(const Sampler *s)
{
    return s->rows;
}

const SeriesRow *sampler_last_row(const Sampler *s)
{
    return s->rows->len ? &g_array_index(s->rows, SeriesRow, s->rows->len - 1) : NULL;
}

gboolean sampler_full(const Sampler *s)
{
    return s->full;
}

gboolean sampler_steady(const Sampler *s, RunSteady *out, LatHist *lat)
{
    if (!s->round_host || !workload_steady(s->w, &out->ws))
        return FALSE;
    const SteadyWindow *win = &out->ws.win;
    out->host_bytes = s->round_host;
    out->nand_bytes = s->round_nand;
    out->window_waf = NAN;
    out->window_lat = NULL;
    if (win->last == 0)
        return TRUE;
    double host = s->round_host[win->last] - s->round_host[win->first - 1];
    if (host > 0)
        out->window_waf = (s->round_nand[win->last] - s->round_nand[win->first - 1]) / host;
    if (workload_steady_latency(s->w, (uint32_t)win->first, (uint32_t)win->last, lat))
        out->window_lat = lat;
    return TRUE;
}
