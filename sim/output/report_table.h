/*
 * report_table.h - every figure a run reports, described once: its name in
 * each output, unit, meaning, how to get it, how to print it.
 *
 * One table (report_table.c) feeds series.csv (header and rows),
 * summary.json, summary.txt (whose line layout stays in report.c and takes
 * each value, by its summary.json key, from here) and the sweep table.
 * docs/outputs.md lists the same names; test_report checks that it lists
 * every one and no other.
 */
#ifndef FTLSIM_REPORT_TABLE_H
#define FTLSIM_REPORT_TABLE_H

#include "sim/output/report.h"

#include <stddef.h>

/* The outputs a figure appears in. */
enum {
    OUT_JSON = 1 << 0,    /* summary.json, as group.key */
    OUT_TEXT = 1 << 1,    /* summary.txt, referred to as {group.key} */
    OUT_SERIES = 1 << 2,  /* series.csv (and series.live.csv), per interval */
    OUT_LATENCY = 1 << 3, /* with OUT_SERIES: only with --series-percentiles */
    OUT_SWEEP = 1 << 4,   /* the sweep table (sweep.csv, sweep-row.csv) */
};

/* A figure's value over the whole run. */
typedef enum FigKind { FIG_NULL, FIG_U64, FIG_F64, FIG_STR, FIG_BOOL } FigKind;
typedef struct FigValue {
    FigKind kind;
    uint64_t u;    /* FIG_U64, FIG_BOOL */
    double f;      /* FIG_F64 */
    const char *s; /* FIG_STR (NULL: null) */
} FigValue;

/* How a series row holds a figure: a field at an offset, or computed. */
typedef enum RowKind { ROW_F64, ROW_U64, ROW_U32, ROW_PHASE, ROW_FN } RowKind;

typedef struct ReportFigure {
    const char *group; /* summary.json object path, dots between ("" at the top) */
    const char *key;   /* name within it (may hold a dot: "p99.9") */
    const char *unit;
    const char *about; /* what it is, one line */
    unsigned out;      /* OUT_* */

    /* the whole run (summary.json, summary.txt, the sweep table) */
    FigValue (*get)(const RunResult *r, int arg);
    int arg;
    gboolean (*present)(
        const RunResult *r); /* NULL: always; else left out of summary.json when FALSE */
    void (*json)(const RunResult *r, JsonWriter *w,
                 const char *key); /* instead of get: arrays, objects */
    const char *text_fmt;          /* printf format in summary.txt; NULL: integer or string as is */
    double text_div;               /* summary.txt shows value / text_div (0: as is) */
    double text_mul;               /* ... or text_mul * value (0: as is) */

    /* series.csv: column number (from 1), name, where the row holds it, format */
    int series_col;
    const char *series;
    RowKind row;
    size_t row_off;
    double (*row_fn)(const SeriesRow *row);
    const char *row_fmt; /* for ROW_F64 and ROW_FN; integers print as is */
    /* fills the row's field from the counters (report_series_fill); NULL for
     * what the sampler fills (the phase, latencies) or ROW_FN computes */
    void (*fill)(SeriesRow *row, const SeriesSample *s, size_t arg);
    size_t fill_arg;

    /* the sweep table: column number (from 1), name, value / sweep_div, format */
    int sweep_col;
    const char *sweep;
    double sweep_div;
    const char *sweep_fmt; /* NULL: an integer as is */
} ReportFigure;

/* The table, in summary.json order. */
const ReportFigure *report_table(size_t *n);
/* The columns of series.csv (latency: with the OUT_LATENCY ones) or of the
 * sweep table, in order; NULL-terminated, static. */
const ReportFigure *const *report_series_columns(gboolean latency);
const ReportFigure *const *report_sweep_columns(void);
/* The position (from 0) of the sweep table's column NAME, or -1. */
int report_sweep_column(const char *name);
/* The figure with summary.json path PATH (group.key), or NULL. */
const ReportFigure *report_figure(const char *path);

FigValue report_figure_value(const ReportFigure *f, const RunResult *r);
/* One series.csv cell (no comma): empty when the value is not finite. */
void report_series_cell(FILE *out, const ReportFigure *f, const SeriesRow *row);
/* One sweep table cell (no comma): empty when null or not finite. */
void report_sweep_cell(GString *out, const ReportFigure *f, const RunResult *r);
/* The figure as summary.txt prints it. */
void report_text_value(GString *out, const ReportFigure *f, const RunResult *r);
/* Where the table disagrees with itself (column numbers not 1..n once each,
 * names missing for an output it claims, text formats for no text), a
 * description into why and FALSE. For the tests. */
gboolean report_table_check(char *why, size_t why_len);

#endif
