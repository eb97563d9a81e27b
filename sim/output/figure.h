/*
 * figure.h - the figure language of calibration: single values a run
 * yields, each named by an ID, to compare with a measured VALUE.
 *
 *   cliff_gb[:PCT]      host GB written before the write rate first drops
 *                       below PCT% (default 50) of its initial level
 *   rate@GB=A..B        mean write MB/s while the host writes GB A to B
 *   rate@t=A..B         mean write MB/s over simulated seconds A to B
 *   iops@t=A..B         mean commands per second over seconds A to B
 *   phase_rate:N        mean write MB/s of the run's N-th phase (1-based,
 *                       as phases.csv lists them)
 *   waf                 write amplification of the run
 *   summary:NAME        a column of the sweep table (docs/outputs.md)
 *
 * docs/calibration.md defines each precisely. Pure functions on a RunTrace.
 */
#ifndef FTLSIM_FIGURE_H
#define FTLSIM_FIGURE_H

#include "sim/output/curve.h"

typedef enum FigureKind {
    FIG_CLIFF_GB,
    FIG_RATE_GB,
    FIG_RATE_T,
    FIG_IOPS_T,
    FIG_PHASE_RATE,
    FIG_SUMMARY,
} FigureKind;

/* Rows from the first that writes whose median rate is the initial level. */
#define FIGURE_CLIFF_ROWS 5

typedef struct Figure {
    FigureKind kind;
    char id[64];     /* as given, e.g. "rate@GB=50..60" */
    double a, b;     /* the range of rate@ and iops@; PCT of cliff_gb */
    guint n;         /* phase_rate:N */
    char column[32]; /* summary:NAME (waf: "waf") */
    double value;    /* measured */
    double weight;   /* of its squared relative error in the loss */
} Figure;

/* Parse "ID=VALUE[:WEIGHT]" (the value follows the last '='). FALSE with
 * one line naming spec in error. */
gboolean figure_parse(const char *spec, Figure *f, GError **error);

/* The figure's value in the run; FALSE when the run does not yield it (a
 * range beyond the run, no drop, no such phase or measure). */
gboolean figure_eval(const Figure *f, const RunTrace *t, double *out);

/* Why figure_eval() found nothing, for an error message (static string). */
const char *figure_missing_reason(const Figure *f);

/* The residual of a figure: sqrt(weight) * (sim - value) / |value| (or
 * sim - value when value is 0); a figure the run did not yield counts as
 * sim = 0. */
double figure_residual(const Figure *f, gboolean yielded, double sim);

#endif
