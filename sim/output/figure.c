/*
 * figure.c - the figure language of calibration (see figure.h and
 * docs/calibration.md): parsing an ID, and its value in a run.
 */
#include "sim/output/figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static gboolean figure_number(const char *s, double *out)
{
    char *end = NULL;
    if (!s || !*s)
        return FALSE;
    *out = g_ascii_strtod(s, &end);
    return end && *end == '\0' && isfinite(*out);
}

/* "A..B" with 0 <= A < B. */
static gboolean figure_range(const char *s, double *a, double *b)
{
    const char *dots = strstr(s, "..");
    if (!dots)
        return FALSE;
    g_autofree char *lo = g_strndup(s, (gsize)(dots - s));
    return figure_number(lo, a) && figure_number(dots + 2, b) && *a >= 0 && *a < *b;
}

static gboolean figure_bad(GError **error, const char *spec, const char *what)
{
    g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT, "--figure \"%s\": %s", spec, what);
    return FALSE;
}

/* The ID part: which figure and its arguments. */
static gboolean figure_parse_id(const char *id, Figure *f)
{
    double v;
    if (strcmp(id, "cliff_gb") == 0) {
        f->kind = FIG_CLIFF_GB;
        f->a = 50;
        return TRUE;
    }
    if (g_str_has_prefix(id, "cliff_gb:")) {
        f->kind = FIG_CLIFF_GB;
        return figure_number(id + 9, &f->a) && f->a > 0 && f->a < 100;
    }
    static const struct {
        const char *prefix;
        FigureKind kind;
    } ranges[] = {{"rate@GB=", FIG_RATE_GB}, {"rate@t=", FIG_RATE_T}, {"iops@t=", FIG_IOPS_T}};
    for (guint i = 0; i < G_N_ELEMENTS(ranges); i++)
        if (g_str_has_prefix(id, ranges[i].prefix)) {
            f->kind = ranges[i].kind;
            return figure_range(id + strlen(ranges[i].prefix), &f->a, &f->b);
        }
    if (g_str_has_prefix(id, "phase_rate:")) {
        f->kind = FIG_PHASE_RATE;
        if (!figure_number(id + 11, &v) || v < 1 || v != floor(v) || v > 1e6)
            return FALSE;
        f->n = (guint)v;
        return TRUE;
    }
    if (strcmp(id, "waf") == 0) {
        f->kind = FIG_SUMMARY;
        g_strlcpy(f->column, "waf", sizeof f->column);
        return TRUE;
    }
    if (g_str_has_prefix(id, "summary:") && id[8] && strlen(id + 8) < sizeof f->column) {
        f->kind = FIG_SUMMARY;
        g_strlcpy(f->column, id + 8, sizeof f->column);
        return TRUE;
    }
    return FALSE;
}

gboolean figure_parse(const char *spec, Figure *f, GError **error)
{
    memset(f, 0, sizeof *f);
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec)
        return figure_bad(error, spec, "expected ID=VALUE, e.g. cliff_gb=42");
    g_autofree char *id = g_strndup(spec, (gsize)(eq - spec));
    if (strlen(id) >= sizeof f->id || !figure_parse_id(id, f))
        return figure_bad(error, spec,
                          "unknown figure; expected cliff_gb[:PCT], rate@GB=A..B, rate@t=A..B, "
                          "iops@t=A..B, phase_rate:N, waf or summary:NAME (A < B)");
    g_strlcpy(f->id, id, sizeof f->id);
    g_auto(GStrv) vw = g_strsplit(eq + 1, ":", 2);
    f->weight = 1;
    if (!figure_number(vw[0], &f->value))
        return figure_bad(error, spec, "the value is not a number; expected ID=VALUE[:WEIGHT]");
    if (vw[0] && vw[1] && (!figure_number(vw[1], &f->weight) || f->weight <= 0))
        return figure_bad(error, spec,
                          "the weight is not a number above 0; expected ID=VALUE[:WEIGHT]");
    return TRUE;
}

/* Write rate of interval i, MB/s; 0 for an interval of no length. */
static double row_rate(const RunTrace *t, guint i)
{
    double t0 = i ? t->t_s[i - 1] : 0, b0 = i ? t->wbytes[i - 1] : 0;
    double dt = t->t_s[i] - t0;
    return dt > 0 ? (t->wbytes[i] - b0) / 1e6 / dt : 0;
}

static gboolean row_writes(const RunTrace *t, guint i)
{
    return t->wbytes[i] > (i ? t->wbytes[i - 1] : 0);
}

/* cliff_gb: the initial level is the median rate of the first
 * FIGURE_CLIFF_ROWS intervals that write (one or two slow ones among them
 * do not move it); the cliff is the host GB written by the end of the last
 * writing interval before the first one below PCT% of that level.
 * Intervals without host writes are skipped. */
static gboolean eval_cliff(const Figure *f, const RunTrace *t, double *out)
{
    double first[FIGURE_CLIFF_ROWS];
    guint k = 0;
    for (guint i = 0; i < t->n && k < FIGURE_CLIFF_ROWS; i++)
        if (row_writes(t, i))
            first[k++] = row_rate(t, i);
    if (k < FIGURE_CLIFF_ROWS)
        return FALSE;
    for (guint a = 1; a < k; a++) /* insertion sort of five */
        for (guint b = a; b > 0 && first[b] < first[b - 1]; b--) {
            double x = first[b];
            first[b] = first[b - 1];
            first[b - 1] = x;
        }
    double level = first[k / 2], limit = level * f->a / 100;
    double before = 0;
    for (guint j = 0; j < t->n; j++) {
        if (!row_writes(t, j))
            continue;
        if (row_rate(t, j) < limit) {
            *out = before / 1e9;
            return TRUE;
        }
        before = t->wbytes[j];
    }
    return FALSE;
}

static gboolean eval_phase(const Figure *f, const RunTrace *t, double *out)
{
    guint phase = 0;
    double t0 = 0, b0 = 0;
    for (guint i = 0; i < t->n; i++) {
        if (i == 0 || strcmp(t->phase[i], t->phase[i - 1]) != 0) {
            phase++;
            t0 = i ? t->t_s[i - 1] : 0;
            b0 = i ? t->wbytes[i - 1] : 0;
        }
        gboolean last = i + 1 == t->n || strcmp(t->phase[i], t->phase[i + 1]) != 0;
        if (phase == f->n && last) {
            double dt = t->t_s[i] - t0;
            *out = dt > 0 ? (t->wbytes[i] - b0) / 1e6 / dt : 0;
            return TRUE;
        }
    }
    return FALSE;
}

gboolean figure_eval(const Figure *f, const RunTrace *t, double *out)
{
    double end_t = t->n ? t->t_s[t->n - 1] : 0;
    switch (f->kind) {
    case FIG_CLIFF_GB:
        return eval_cliff(f, t, out);
    case FIG_RATE_GB: {
        double ta = run_trace_time_at_bytes(t, f->a * 1e9),
               tb = run_trace_time_at_bytes(t, f->b * 1e9);
        if (isnan(ta) || isnan(tb) || tb <= ta)
            return FALSE;
        *out = (f->b - f->a) * 1e3 / (tb - ta);
        return TRUE;
    }
    case FIG_RATE_T:
    case FIG_IOPS_T:
        if (f->b > end_t)
            return FALSE;
        *out =
            f->kind == FIG_RATE_T
                ? (run_trace_bytes_at(t, f->b) - run_trace_bytes_at(t, f->a)) / 1e6 / (f->b - f->a)
                : (run_trace_ios_at(t, f->b) - run_trace_ios_at(t, f->a)) / (f->b - f->a);
        return TRUE;
    case FIG_PHASE_RATE:
        return eval_phase(f, t, out);
    case FIG_SUMMARY:
        return run_trace_summary(t, f->column, out);
    }
    return FALSE;
}

const char *figure_missing_reason(const Figure *f)
{
    switch (f->kind) {
    case FIG_CLIFF_GB:
        return "the write rate never drops below that share of its initial level";
    case FIG_RATE_GB:
        return "the workload does not write that far";
    case FIG_RATE_T:
    case FIG_IOPS_T:
        return "the run ends before that time";
    case FIG_PHASE_RATE:
        return "the run has fewer phases";
    case FIG_SUMMARY:
        return "the run's summary has no such measure (see sweep.csv in docs/outputs.md)";
    }
    return "";
}

double figure_residual(const Figure *f, gboolean yielded, double sim)
{
    double s = yielded ? sim : 0;
    double d = f->value != 0 ? (s - f->value) / fabs(f->value) : s - f->value;
    return sqrt(f->weight) * d;
}
