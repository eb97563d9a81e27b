/*
 * curve.h - measured curves and what a run yields to compare with them.
 *
 * A Curve is a measured series (a review's digitised write curve): host GB
 * written or seconds against MB/s or IOPS. A RunTrace is what a simulated
 * run leaves for the comparison: cumulative host bytes and commands by
 * simulated time, the phase of each interval and the run's summary measures.
 * Both are plain data; the functions are pure, so the loss of calibration
 * (docs/calibration.md) can be checked on hand-made series.
 */
#ifndef FTLSIM_CURVE_H
#define FTLSIM_CURVE_H

#include <glib.h>

#define CURVE_ERROR (curve_error_quark())
GQuark curve_error_quark(void);
typedef enum CurveError {
    CURVE_ERROR_INPUT, /* a file or text that is not what is expected */
} CurveError;

typedef enum CurveKind {
    CURVE_GB_MBPS, /* GB,MBps: write rate against host GB written */
    CURVE_T_MBPS,  /* t_s,MBps: write rate against simulated seconds */
    CURVE_T_IOPS,  /* t_s,IOPS: commands per second against seconds */
} CurveKind;

#define CURVE_MIN_POINTS 3

typedef struct Curve {
    CurveKind kind;
    char *name;  /* the file, for messages */
    guint n;     /* points */
    double *x;   /* GB or s, strictly increasing */
    double *y;   /* MB/s or IOPS */
    guint *line; /* line in the file of each point */
} Curve;

/* Parse a curve: a header naming the columns (GB,MBps or t_s,MBps or
 * t_s,IOPS), then one point a line; '#' lines and blank lines are skipped.
 * name stands for the file in messages. Returns an owned Curve, or NULL with
 * one line naming name:line in error. */
Curve *curve_parse(const char *text, const char *name, GError **error);
Curve *curve_load(const char *path, GError **error);
void curve_free(Curve *c); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Curve, curve_free)

/* The x and y column names of a kind ("GB", "MBps"). */
const char *curve_x_name(CurveKind kind);
const char *curve_y_name(CurveKind kind);

/* ---- What a run yields ---------------------------------------------------- */

typedef struct RunTrace {
    guint n;        /* intervals */
    double *t_s;    /* end of interval i, s (interval 0 starts at 0) */
    double *wbytes; /* host bytes written by then */
    double *ios;    /* host commands completed by then */
    char **phase;   /* the drive state of interval i (pslc, native, ...) */
    guint cap;
    GHashTable *summary; /* the run's summary measures by name (double *) */
} RunTrace;

RunTrace *run_trace_new(void);
void run_trace_free(RunTrace *t); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RunTrace, run_trace_free)
/* Add interval i: its end time (s), cumulative host bytes written and
 * commands completed, and its phase name. */
void run_trace_append(RunTrace *t, double t_s, double wbytes, double ios, const char *phase);
void run_trace_set_summary(RunTrace *t, const char *name, double value);
/* A summary measure; FALSE when the run has none of that name. */
gboolean run_trace_summary(const RunTrace *t, const char *name, double *out);
/* From a results folder's series.csv text (columns t_s, host_write_bytes,
 * iops, phase) and a row of the sweep table (report_sweep_header() columns,
 * empty fields left out). */
RunTrace *run_trace_from_csv(const char *series_csv, const char *sweep_row, GError **error);

/* Cumulative host bytes written by time t (linear between intervals, held
 * at the end), and the time by which b bytes were written (NAN beyond the
 * run). */
double run_trace_bytes_at(const RunTrace *t, double t_s);
double run_trace_ios_at(const RunTrace *t, double t_s);
double run_trace_time_at_bytes(const RunTrace *t, double bytes);

/* ---- The comparison ------------------------------------------------------- */

/* Half the window the simulated value at each point is averaged over: half
 * the median spacing of the curve's x values. */
double curve_half_window(const Curve *c);

/* The run's value at every point of c into out[c->n]: the mean rate over
 * x - h .. x + h (h = curve_half_window, the window clipped to the run),
 * from the cumulative series. NAN at a point beyond what the run covers.
 * Returns how many points the run covers. */
guint curve_sim_values(const Curve *c, const RunTrace *t, double *out);

/* The normalisation of the curve's residuals: the mean of |y|. */
double curve_norm(const Curve *c);

/* Curve residuals into r[c->n]: (sim - y) / (norm * sqrt(n)), a NAN
 * simulated value counting as 0 (the run did not get there). The sum of
 * their squares is the normalised RMSE squared. */
void curve_residuals(const Curve *c, const double *sim, double *r);

#endif
