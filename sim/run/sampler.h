/*
 * sampler.h - the series of a run: one row a closed interval (of simulated
 * time or of host bytes written), what the drive did in it (the phase), the
 * interval's latency percentiles when asked, and the drive's write counters
 * at the round boundaries of an ss=pts job.
 */
#ifndef FTLSIM_SAMPLER_H
#define FTLSIM_SAMPLER_H

#include "models/drive.h"
#include "sim/host/workload.h"
#include "sim/output/plot.h"
#include "sim/output/report.h"

#include <stdio.h>

#define RUN_ROWS_MAX 1000000 /* series rows a run may write */

typedef struct Sampler Sampler;

/* Rows of drive d (run by e, workload w) every interval_bytes host bytes
 * written, or (0) when the run's clock asks (sampler_tick); latency: the
 * interval's percentiles in each row (w's latencies go through the
 * sampler). Also hooks the rounds of w's ss=pts job, if it has one. */
Sampler *sampler_new(SimEngine *e, Drive *d, const DriveParams *p, Workload *w,
                     uint64_t interval_bytes, gboolean latency);
void sampler_free(Sampler *s); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sampler, sampler_free)

/* Where each row also goes as a series.csv line (NULL: nowhere): the
 * results folder's file, and the live copy and its plot (--live). */
void sampler_write_to(Sampler *s, FILE *series, FILE *live_csv, PlotLive *live);

/* The run's clock ticked: a row when rows go by time. FALSE when the row
 * limit is reached (the run must stop). */
gboolean sampler_tick(Sampler *s);
/* A command completed: a row when rows go by bytes and the host wrote past
 * the next boundary. FALSE when the row limit is reached. */
gboolean sampler_io(Sampler *s);
/* The run ended: the last, partial interval's row (unless at the limit). */
void sampler_finish(Sampler *s);

/* The rows so far (SeriesRow), owned by the sampler; the last or NULL. */
GArray *sampler_rows(const Sampler *s);
const SeriesRow *sampler_last_row(const Sampler *s);
/* The run stopped at RUN_ROWS_MAX rows. */
gboolean sampler_full(const Sampler *s);

/* What the ss=pts job's rounds came to (window WAF from the round
 * boundaries, its latencies into lat); FALSE when the run has none. */
gboolean sampler_steady(const Sampler *s, RunSteady *out, LatHist *lat);

#endif
