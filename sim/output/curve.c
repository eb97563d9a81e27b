/*
 * curve.c - measured curves, run traces and the curve part of the
 * calibration loss (see curve.h and docs/calibration.md).
 */
#include "sim/output/curve.h"
#include "sim/engine/textfile.h"

#include "sim/output/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
G_DEFINE_QUARK(ftlsim-curve-error-quark, curve_error)
/* clang-format on */

static const struct {
    CurveKind kind;
    const char *x, *y;
} curve_kinds[] = {
    {CURVE_GB_MBPS, "GB", "MBps"},
    {CURVE_T_MBPS, "t_s", "MBps"},
    {CURVE_T_IOPS, "t_s", "IOPS"},
};

const char *curve_x_name(CurveKind kind)
{
    return curve_kinds[kind].x;
}

const char *curve_y_name(CurveKind kind)
{
    return curve_kinds[kind].y;
}

void curve_free(Curve *c)
{
    if (!c)
        return;
    g_free(c->name);
    g_free(c->x);
    g_free(c->y);
    g_free(c->line);
    g_free(c);
}

/* A finite number filling the whole cell (spaces around allowed). */
static gboolean cell_number(const char *cell, double *out)
{
    g_autofree char *s = g_strstrip(g_strdup(cell));
    char *end = NULL;
    if (!*s)
        return FALSE;
    *out = g_ascii_strtod(s, &end);
    return end && *end == '\0' && isfinite(*out);
}

static gboolean curve_header(Curve *c, const char *line, guint lineno, GError **error)
{
    g_auto(GStrv) f = g_strsplit(line, ",", -1);
    if (g_strv_length(f) == 2) {
        g_strstrip(f[0]);
        g_strstrip(f[1]);
        for (guint i = 0; i < G_N_ELEMENTS(curve_kinds); i++)
            if (strcmp(f[0], curve_kinds[i].x) == 0 && strcmp(f[1], curve_kinds[i].y) == 0) {
                c->kind = curve_kinds[i].kind;
                return TRUE;
            }
    }
    g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                "%s:%u: found \"%s\", expected a header GB,MBps or t_s,MBps or t_s,IOPS", c->name,
                lineno, line);
    return FALSE;
}

static gboolean curve_point(Curve *c, const char *line, guint lineno, GArray *pts, GError **error)
{
    g_auto(GStrv) f = g_strsplit(line, ",", -1);
    double v[2];
    if (g_strv_length(f) != 2 || !cell_number(f[0], &v[0]) || !cell_number(f[1], &v[1])) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                    "%s:%u: found \"%s\", expected two numbers %s,%s", c->name, lineno, line,
                    curve_x_name(c->kind), curve_y_name(c->kind));
        return FALSE;
    }
    if (v[0] < 0 || v[1] < 0) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                    "%s:%u: found \"%s\", expected values of 0 or more", c->name, lineno, line);
        return FALSE;
    }
    if (pts->len && v[0] <= g_array_index(pts, double, pts->len - 3)) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                    "%s:%u: %s %g is not above the previous point's; expected increasing %s",
                    c->name, lineno, curve_x_name(c->kind), v[0], curve_x_name(c->kind));
        return FALSE;
    }
    double l = lineno;
    g_array_append_vals(pts, v, 2);
    g_array_append_val(pts, l);
    return TRUE;
}

Curve *curve_parse(const char *text, const char *name, GError **error)
{
    g_autoptr(Curve) c = g_new0(Curve, 1);
    c->name = g_strdup(name);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GArray) pts = g_array_new(FALSE, FALSE, sizeof(double)); /* x, y, line */
    gboolean header = FALSE;
    for (guint i = 0; lines[i]; i++) {
        char *l = g_strstrip(lines[i]);
        if (!*l || *l == '#')
            continue;
        if (!header) {
            if (!curve_header(c, l, i + 1, error))
                return NULL;
            header = TRUE;
        } else if (!curve_point(c, l, i + 1, pts, error)) {
            return NULL;
        }
    }
    if (!header) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                    "%s: empty; expected a header GB,MBps or t_s,MBps or t_s,IOPS and points",
                    name);
        return NULL;
    }
    c->n = pts->len / 3;
    if (c->n < CURVE_MIN_POINTS) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                    "%s: found %u points, expected at least %d", name, c->n, CURVE_MIN_POINTS);
        return NULL;
    }
    c->x = g_new(double, c->n);
    c->y = g_new(double, c->n);
    c->line = g_new(guint, c->n);
    for (guint i = 0; i < c->n; i++) {
        c->x[i] = g_array_index(pts, double, 3 * i);
        c->y[i] = g_array_index(pts, double, 3 * i + 1);
        c->line[i] = (guint)g_array_index(pts, double, 3 * i + 2);
    }
    return g_steal_pointer(&c);
}

Curve *curve_load(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    GError *e = NULL;
    if (!text_file_read(path, TEXT_FILE_MAX_CURVE, "a curve CSV", &text, NULL, &e)) {
        /* a file too big is named in the message already */
        if (g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_FAILED))
            g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT, "%s", e->message);
        else
            g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT, "%s: %s", path, e->message);
        g_error_free(e);
        return NULL;
    }
    return curve_parse(text, path, error);
}

/* ---- Run traces ----------------------------------------------------------- */

RunTrace *run_trace_new(void)
{
    RunTrace *t = g_new0(RunTrace, 1);
    t->summary = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    return t;
}

void run_trace_free(RunTrace *t)
{
    if (!t)
        return;
    for (guint i = 0; i < t->n; i++)
        g_free(t->phase[i]);
    g_free(t->t_s);
    g_free(t->wbytes);
    g_free(t->ios);
    g_free(t->phase);
    g_hash_table_destroy(t->summary);
    g_free(t);
}

void run_trace_append(RunTrace *t, double t_s, double wbytes, double ios, const char *phase)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->t_s = g_renew(double, t->t_s, t->cap);
        t->wbytes = g_renew(double, t->wbytes, t->cap);
        t->ios = g_renew(double, t->ios, t->cap);
        t->phase = g_renew(char *, t->phase, t->cap);
    }
    t->t_s[t->n] = t_s;
    t->wbytes[t->n] = wbytes;
    t->ios[t->n] = ios;
    t->phase[t->n] = g_strdup(phase);
    t->n++;
}

void run_trace_set_summary(RunTrace *t, const char *name, double value)
{
    g_hash_table_replace(t->summary, g_strdup(name), g_memdup2(&value, sizeof value));
}

gboolean run_trace_summary(const RunTrace *t, const char *name, double *out)
{
    const double *v = g_hash_table_lookup(t->summary, name);
    if (v)
        *out = *v;
    return v != NULL;
}

static int column_of(GStrv names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* The sweep row's measures, by the names of report_sweep_header(). */
static void trace_summary_from_row(RunTrace *t, const char *header, const char *row)
{
    g_auto(GStrv) names = g_strsplit(header, ",", -1);
    g_autofree char *r = g_strchomp(g_strdup(row));
    g_auto(GStrv) cells = g_strsplit(r, ",", -1);
    for (guint i = 0; names[i] && cells[i]; i++) {
        double v;
        if (cell_number(cells[i], &v))
            run_trace_set_summary(t, names[i], v);
    }
}

RunTrace *run_trace_from_csv(const char *series_csv, const char *sweep_row, GError **error)
{
    g_autoptr(RunTrace) t = run_trace_new();
    g_auto(GStrv) lines = g_strsplit(series_csv, "\n", -1);
    if (!lines[0]) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT, "series.csv: empty");
        return NULL;
    }
    g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
    int ct = column_of(head, "t_s"), cb = column_of(head, "host_write_bytes"),
        ci = column_of(head, "iops"), cp = column_of(head, "phase");
    if (ct < 0 || cb < 0 || ci < 0 || cp < 0) {
        g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT,
                    "series.csv: expected columns t_s, host_write_bytes, iops and phase");
        return NULL;
    }
    int need = MAX(MAX(ct, cb), MAX(ci, cp));
    double prev_t = 0, ios = 0;
    for (guint i = 1; lines[i]; i++) {
        if (!lines[i][0])
            continue;
        g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
        double tt, b, iops;
        if ((int)g_strv_length(f) <= need || !cell_number(f[ct], &tt) || !cell_number(f[cb], &b) ||
            !cell_number(f[ci], &iops)) {
            g_set_error(error, CURVE_ERROR, CURVE_ERROR_INPUT, "series.csv:%u: malformed row",
                        i + 1);
            return NULL;
        }
        ios += iops * (tt - prev_t);
        prev_t = tt;
        run_trace_append(t, tt, b, ios, f[cp]);
    }
    if (sweep_row)
        trace_summary_from_row(t, report_sweep_header(), sweep_row);
    return g_steal_pointer(&t);
}

/* Linear interpolation of y over x (both non-decreasing, n points after an
 * implicit (0, 0)) at xv; held at the last value beyond it. */
static double interp(const double *x, const double *y, guint n, double xv)
{
    if (n == 0 || xv <= 0)
        return 0;
    guint lo = 0, hi = n; /* first index with x >= xv */
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        if (x[mid] < xv)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == n)
        return y[n - 1];
    double x0 = lo ? x[lo - 1] : 0, y0 = lo ? y[lo - 1] : 0;
    if (x[lo] <= x0)
        return y[lo];
    return y0 + (y[lo] - y0) * (xv - x0) / (x[lo] - x0);
}

double run_trace_bytes_at(const RunTrace *t, double t_s)
{
    return interp(t->t_s, t->wbytes, t->n, t_s);
}

double run_trace_ios_at(const RunTrace *t, double t_s)
{
    return interp(t->t_s, t->ios, t->n, t_s);
}

double run_trace_time_at_bytes(const RunTrace *t, double bytes)
{
    if (t->n == 0 || bytes > t->wbytes[t->n - 1])
        return NAN;
    return interp(t->wbytes, t->t_s, t->n, bytes);
}

/* ---- The comparison ------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double curve_half_window(const Curve *c)
{
    g_autofree double *d = g_new(double, c->n - 1);
    for (guint i = 1; i < c->n; i++)
        d[i - 1] = c->x[i] - c->x[i - 1];
    qsort(d, c->n - 1, sizeof *d, cmp_double);
    guint m = c->n - 1;
    double med = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
    return med / 2;
}

guint curve_sim_values(const Curve *c, const RunTrace *t, double *out)
{
    double h = curve_half_window(c);
    double end_t = t->n ? t->t_s[t->n - 1] : 0, end_b = t->n ? t->wbytes[t->n - 1] : 0;
    guint covered = 0;
    for (guint i = 0; i < c->n; i++) {
        out[i] = NAN;
        if (c->kind == CURVE_GB_MBPS) {
            /* a point a little past the end (a curve written by a run
             * rounds its last GB up) is measured over what its window
             * holds; one whose window starts past the end is not */
            double b0 = MAX(0, (c->x[i] - h) * 1e9), b1 = MIN(end_b, (c->x[i] + h) * 1e9);
            if (b1 <= b0)
                continue;
            double dt = run_trace_time_at_bytes(t, b1) - run_trace_time_at_bytes(t, b0);
            out[i] = dt > 0 ? (b1 - b0) / 1e6 / dt : 0;
        } else {
            double t0 = MAX(0, c->x[i] - h), t1 = MIN(end_t, c->x[i] + h);
            if (t1 <= t0)
                continue;
            out[i] = c->kind == CURVE_T_MBPS
                         ? (run_trace_bytes_at(t, t1) - run_trace_bytes_at(t, t0)) / 1e6 / (t1 - t0)
                         : (run_trace_ios_at(t, t1) - run_trace_ios_at(t, t0)) / (t1 - t0);
        }
        covered++;
    }
    return covered;
}

double curve_norm(const Curve *c)
{
    double s = 0;
    for (guint i = 0; i < c->n; i++)
        s += fabs(c->y[i]);
    return s > 0 ? s / c->n : 1;
}

void curve_residuals(const Curve *c, const double *sim, double *r)
{
    double k = curve_norm(c) * sqrt((double)c->n);
    for (guint i = 0; i < c->n; i++)
        r[i] = ((isnan(sim[i]) ? 0 : sim[i]) - c->y[i]) / k;
}
