/*
 * calibrate_out.c - the results folder of ftlsim calibrate: calibrated.ini
 * (the drive file with the fitted keys changed and marked), fit.json,
 * curves.csv and fit.png. Written through an OutDir: all or nothing.
 */
#include "sim/cmd/calibrate_priv.h"

#include "sim/engine/json.h"
#include "sim/cmd/run.h"
#include "sim/output/html.h"
#include "sim/output/outdir.h"
#include "sim/output/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* sqrt of the curve's share of a point's loss: the normalised RMSE. */
static double cal_nrmse(const Cal *c, const CalPoint *pt)
{
    double s = 0;
    for (guint i = 0; c->curve && i < c->curve->n; i++)
        s += pt->res[i] * pt->res[i];
    return sqrt(s);
}

/* What the fit was made on, for comments: "curve.csv and cliff_gb=42". */
static char *cal_sources(const Cal *c)
{
    GString *s = g_string_new(NULL);
    if (c->curve)
        g_string_append(s, c->curve->name);
    for (guint i = 0; i < c->nf; i++) {
        const char *sep = s->len ? (i + 1 == c->nf ? " and " : ", ") : "";
        if (c->plan)
            g_string_append_printf(s, "%s%s (%s: %s=%g)", sep,
                                   c->fig_src[i] ? c->fig_src[i] : c->fig[i].id,
                                   cal_fig_run(c, i, FALSE)->name, c->fig[i].id, c->fig[i].value);
        else
            g_string_append_printf(s, "%s%s=%g", sep, c->fig[i].id, c->fig[i].value);
    }
    return g_string_free(s, FALSE);
}

static gboolean cal_identifiable(const CalParam *p)
{
    return !p->flat && p->correlated < 0;
}

/* Set [group] key = value in the INI lines, with comment lines above it:
 * the key's line is replaced, or the key added under its group's header,
 * or the group added at the end. */
static void ini_set(GPtrArray *lines, const char *group, const char *key, const char *value,
                    const char *comment)
{
    g_autofree char *header = g_strdup_printf("[%s]", group);
    gint hdr = -1, at = -1;
    g_autofree char *cur = NULL;
    for (guint i = 0; i < lines->len; i++) {
        g_autofree char *l = g_strstrip(g_strdup(g_ptr_array_index(lines, i)));
        if (l[0] == '[') {
            g_free(cur);
            cur = g_strdup(l);
            if (strcmp(l, header) == 0)
                hdr = (gint)i;
            continue;
        }
        if (!cur || strcmp(cur, header) != 0 || l[0] == '#' || l[0] == ';')
            continue;
        const char *eq = strchr(l, '=');
        if (!eq)
            continue;
        g_autofree char *k = g_strstrip(g_strndup(l, (gsize)(eq - l)));
        if (strcmp(k, key) == 0)
            at = (gint)i;
    }
    g_autofree char *line = g_strdup_printf("%s = %s", key, value);
    if (at >= 0) {
        g_free(g_ptr_array_index(lines, at));
        g_ptr_array_index(lines, at) = g_steal_pointer(&line);
    } else {
        if (hdr < 0) {
            g_ptr_array_add(lines, g_strdup(""));
            g_ptr_array_add(lines, g_strdup(header));
            hdr = (gint)lines->len - 1;
        }
        at = hdr + 1;
        g_ptr_array_insert(lines, at, g_steal_pointer(&line));
    }
    g_auto(GStrv) cl = g_strsplit(comment, "\n", -1);
    for (guint i = g_strv_length(cl); i-- > 0;)
        g_ptr_array_insert(lines, at, g_strdup_printf("# %s", cl[i]));
}

/* Fitted key i into the INI's lines: its value and how it was fitted, or
 * why it was left (a workload's value: a comment line only). */
static void cal_ini_param(const Cal *c, guint i, const char *from, GPtrArray *lines)
{
    const CalParam *p = &c->p[i];
    char v[CONFIG_VALUE_LEN], was[CONFIG_VALUE_LEN];
    config_numeric_format(p->k.kind, p->fitted, v, sizeof v);
    config_numeric_format(p->k.kind, p->k.value, was, sizeof was);
    g_autofree char *comment = NULL;
    g_autofree char *rmse = c->curve ? g_strdup_printf(" (curve normalised RMSE %.2f%%)",
                                                       100 * cal_nrmse(c, c->best))
                                     : g_strdup("");
    if (cal_identifiable(p))
        comment = g_strdup_printf("C: calibrated to %s: loss %.6g%s, fitted in\n"
                                  "%s; the %s had %s. Never check it on these figures.",
                                  from, c->best->loss, rmse, c->o->fits[i],
                                  c->plan ? "config" : "drive file", was);
    else
        comment = g_strdup_printf("C: not identifiable from %s (%s); left at %s.", from,
                                  p->flat ? "the loss is flat in it"
                                          : "correlated with another "
                                            "fitted key",
                                  was);
    if (p->workload) /* the host tool's, not the drive's: fit.json has it */
        g_ptr_array_insert(lines, 1,
                           g_strdup_printf("# The workload's %s was fitted too: %s "
                                           "(fit.json).",
                                           p->name + (p->env ? 0 : strlen("workload.")),
                                           cal_identifiable(p) ? v : "unidentifiable"));
    else
        ini_set(lines, p->k.group, p->k.key, cal_identifiable(p) ? v : was, comment);
}

static char *cal_ini(const Cal *c, GError **error)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(c->target, &text, NULL, error))
        return NULL;
    g_auto(GStrv) src = g_strsplit(text, "\n", -1);
    g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *from = cal_sources(c);
    if (c->plan)
        g_ptr_array_add(lines, g_strdup_printf("# Calibrated by ftlsim calibrate from %s on the "
                                               "fit runs of plan %s (seed %" G_GUINT64_FORMAT
                                               "); fit.json holds the search and the checks. "
                                               "C: calibrated.",
                                               c->target, c->o->plan, c->o->run.seed));
    else
        g_ptr_array_add(lines,
                        g_strdup_printf("# Calibrated by ftlsim calibrate from %s on %s (workload "
                                        "%s, seed %" G_GUINT64_FORMAT "); fit.json holds the "
                                        "search. C: calibrated.",
                                        c->o->run.drive, from,
                                        c->o->run.spec  ? c->o->run.spec
                                        : c->o->run.job ? c->o->run.job
                                                        : c->o->run.trace,
                                        c->o->run.seed));
    if (c->interrupted)
        g_ptr_array_add(lines, g_strdup("# Interrupted by a signal: the fitted keys are the best "
                                        "point the search had reached, their identifiability "
                                        "not judged."));
    for (guint i = 0; src[i]; i++) {
        g_autofree char *include = NULL;
        if (config_include_line(src[i], &include)) { /* the copy lives elsewhere: a full path */
            g_autofree char *path = config_include_path(c->target, include);
            g_autofree char *real = g_canonicalize_filename(path, NULL);
            g_ptr_array_add(lines, g_strdup_printf("%s = %s", CONFIG_INCLUDE_KEY, real));
        } else if (src[i + 1] || src[i][0]) {
            g_ptr_array_add(lines, g_strdup(src[i]));
        }
    }
    for (guint s = 0; c->o->run.sets && c->o->run.sets[s]; s++) {
        const char *set = c->o->run.sets[s], *eq = strchr(set, '='), *dot = NULL;
        for (const char *p = set; eq && p < eq; p++)
            if (*p == '.')
                dot = p;
        if (!eq || !dot)
            continue;
        g_autofree char *group = g_strndup(set, (gsize)(dot - set));
        g_autofree char *key = g_strndup(dot + 1, (gsize)(eq - dot - 1));
        ini_set(lines, group, key, eq + 1, "set by --set for the calibration");
    }
    for (guint i = 0; i < c->np; i++)
        cal_ini_param(c, i, from, lines);
    g_ptr_array_add(lines, g_strdup(""));
    g_ptr_array_add(lines, NULL);
    return g_strjoinv("\n", (char **)lines->pdata);
}

static void cal_json_point(const Cal *c, JsonWriter *w, const char *key, const CalPoint *pt)
{
    json_begin_object(w, key);
    json_double(w, "loss", pt->loss);
    if (c->curve && pt->sim) /* a failed run has no curve */
        json_double(w, "curve_nrmse", cal_nrmse(c, pt));
    json_begin_object(w, "params");
    for (guint i = 0; i < c->np; i++)
        json_double(w, c->p[i].name, config_numeric_si(c->p[i].k.kind, pt->theta[i]));
    json_end_object(w);
    json_end_object(w);
}

static void cal_json_params(const Cal *c, JsonWriter *w)
{
    json_begin_object(w, "fitted");
    for (guint i = 0; i < c->np; i++) {
        const CalParam *p = &c->p[i];
        if (cal_identifiable(p))
            json_double(w, p->name, config_numeric_si(p->k.kind, p->fitted));
        else
            json_null(w, p->name);
    }
    json_end_object(w);
    json_begin_object(w, "parameters");
    for (guint i = 0; i < c->np; i++) {
        const CalParam *p = &c->p[i];
        json_begin_object(w, p->name);
        json_str(w, "unit", config_numeric_si_unit(p->k.kind));
        json_double(w, "lo", config_numeric_si(p->k.kind, p->lo));
        json_double(w, "hi", config_numeric_si(p->k.kind, p->hi));
        json_double(w, "config", config_numeric_si(p->k.kind, p->k.value));
        json_double(w, "best", config_numeric_si(p->k.kind, p->fitted));
        json_double(w, "sensitivity", p->sensitivity);
        json_double(w, "uncertainty", config_numeric_si(p->k.kind, p->sigma));
        json_str(w, "uncertainty_from",
                 isnan(p->sigma)      ? NULL
                 : p->sigma_second ? "second difference of the loss"
                                   : "Gauss-Newton curvature of the loss (at a bound)");
        json_bool(w, "identifiable", cal_identifiable(p));
        g_autofree char *words = cal_identity_words(c, p);
        json_str(w, "identifiability", words);
        if (p->flat)
            json_str(w, "unidentifiable", "flat");
        else if (p->correlated >= 0) {
            json_str(w, "unidentifiable", "correlated");
            json_str(w, "correlated_with", c->p[p->correlated].name);
            json_double(w, "correlation", p->corr);
        }
        json_end_object(w);
    }
    json_end_object(w);
}

static void cal_json_figures(const Cal *c, JsonWriter *w)
{
    json_begin_array(w, "figures");
    for (guint i = 0; i < c->nf; i++) {
        json_begin_object(w, NULL);
        json_str(w, "id", c->fig[i].id);
        if (c->plan) {
            json_str(w, "run", cal_fig_run(c, i, FALSE)->name);
            json_str(w, "source", c->fig_src[i]);
        }
        json_double(w, "measured", c->fig[i].value);
        json_double(w, "weight", c->fig[i].weight);
        json_double(w, "stock", c->stock->fig_ok[i] ? c->stock->figs[i] : NAN);
        json_double(w, "calibrated", c->best->fig_ok[i] ? c->best->figs[i] : NAN);
        json_end_object(w);
    }
    json_end_array(w);
    if (!c->plan)
        return;
    json_begin_array(w, "checks"); /* never in the loss */
    for (guint i = 0; i < c->nchk; i++) {
        json_begin_object(w, NULL);
        json_str(w, "id", c->chk[i].id);
        json_str(w, "run", cal_fig_run(c, i, TRUE)->name);
        json_str(w, "source", c->fig_src[c->nf + i]);
        json_double(w, "measured", c->chk[i].value);
        json_double(w, "stock", c->stock->chk_ok[i] ? c->stock->chk[i] : NAN);
        json_double(w, "calibrated", c->best->chk_ok[i] ? c->best->chk[i] : NAN);
        json_end_object(w);
    }
    json_end_array(w);
    json_begin_array(w, "runs");
    for (guint r = 0; r < c->nruns; r++) {
        const RunOptions *ro = &c->runs[r].ro;
        json_begin_object(w, NULL);
        json_str(w, "name", c->runs[r].name);
        json_str(w, "role", c->runs[r].check ? "check" : "fit");
        json_str(w, "drive", ro->drive);
        json_str(w, "workload", ro->spec);
        json_str(w, "job", ro->job);
        json_str(w, "prefill", ro->prefill);
        json_begin_array(w, "overrides");
        for (guint i = 0; ro->sets && ro->sets[i]; i++)
            json_str(w, NULL, ro->sets[i]);
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
}

static char *cal_json(const Cal *c)
{
    g_autoptr(JsonWriter) w = json_writer_new();
    json_begin_object(w, NULL);
    json_bool(w, "interrupted", c->interrupted);
    json_str(w, "drive", c->target);
    json_str(w, "plan", c->o->plan);
    json_str(w, "workload", c->o->run.spec);
    json_str(w, "job", c->o->run.job);
    json_str(w, "trace", c->o->run.trace);
    json_u64(w, "seed", c->o->run.seed);
    json_begin_array(w, "overrides");
    for (guint i = 0; c->o->run.sets && c->o->run.sets[i]; i++)
        json_str(w, NULL, c->o->run.sets[i]);
    json_end_array(w);
    json_str(w, "curve", c->curve ? c->curve->name : NULL);
    if (c->curve) {
        json_str(w, "curve_columns",
                 c->curve->kind == CURVE_GB_MBPS  ? "GB,MBps"
                 : c->curve->kind == CURVE_T_MBPS ? "t_s,MBps"
                                                  : "t_s,IOPS");
        json_double(w, "curve_norm", curve_norm(c->curve));
        json_double(w, "curve_half_window", curve_half_window(c->curve));
    }
    cal_json_figures(c, w);
    json_str(w, "loss_definition",
             "sum over curve points of ((sim - measured) / (mean |measured|))^2 / points "
             "(the normalised RMSE squared), plus sum over figures of weight * ((sim - measured) / "
             "|measured|)^2; sim at a curve point is the mean rate over x +- curve_half_window");
    json_double(w, "loss", c->best->loss);
    json_double(w, "stock_loss", c->stock->loss);
    cal_json_params(c, w);
    json_u64(w, "evaluations", c->sims);
    json_begin_object(w, "optimizer");
    json_str(w, "library", "GSL");
    json_str(w, "method", "gsl_multimin_fminimizer_nmsimplex2");
    json_str(w, "bounds", "theta = lo + (hi - lo) sin^2(y)");
    json_u64(w, "iterations", c->nm_iters);
    json_bool(w, "converged", c->converged);
    json_u64(w, "max_evals", c->o->max_evals);
    json_u64(w, "jobs", c->o->jobs);
    json_end_object(w);
    cal_json_point(c, w, "stock", c->stock);
    cal_json_point(c, w, "calibrated", c->best);
    json_begin_array(w, "history");
    for (guint i = 0; i < c->points->len; i++) {
        const CalPoint *pt = g_ptr_array_index(c->points, i);
        if (pt->done)
            cal_json_point(c, w, NULL, pt);
    }
    json_end_array(w);
    json_end_object(w);
    return g_strdup_printf("%s\n", json_writer_str(w));
}

static char *cal_curves_csv(const Cal *c)
{
    GString *s = g_string_new(NULL);
    const char *y = curve_y_name(c->curve->kind);
    g_string_append_printf(s, "%s,measured_%s,stock_%s,calibrated_%s\n",
                           curve_x_name(c->curve->kind), y, y, y);
    for (guint i = 0; i < c->curve->n; i++)
        g_string_append_printf(s, "%.6g,%.6g,%.6g,%.6g\n", c->curve->x[i], c->curve->y[i],
                               c->stock->sim[i], c->best->sim[i]);
    return g_string_free(s, FALSE);
}

void cal_format_sigma(const CalParam *p, char *buf, size_t size)
{
    static const char *const units[] = {"B", "s", "/s", "B/s", "", ""};
    double v = config_numeric_si(p->k.kind, p->sigma);
    const char *unit = units[p->k.kind];
    static const struct {
        double f;
        const char *pre;
    } big[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}},
      small[] = {{1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}};
    if (!*unit || v == 0 || !isfinite(v)) {
        g_snprintf(buf, size, "%.3g%s", v, unit);
        return;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(big); i++)
        if (fabs(v) >= big[i].f) {
            g_snprintf(buf, size, "%.3g%s%s", v / big[i].f, big[i].pre, unit);
            return;
        }
    for (unsigned i = 0; i < G_N_ELEMENTS(small) && p->k.kind == CONFIG_NUM_NS; i++)
        if (fabs(v) >= small[i].f || i + 1 == G_N_ELEMENTS(small)) {
            g_snprintf(buf, size, "%.3g%s%s", v / small[i].f, small[i].pre, unit);
            return;
        }
    g_snprintf(buf, size, "%.3g%s", v, unit);
}

char *cal_identity_words(const Cal *c, const CalParam *p)
{
    if (p->flat)
        return g_strdup("flat: 1% of it moves the loss by nothing measurable");
    if (p->correlated < 0)
        return g_strdup("determined");
    const CalParam *q = &c->p[p->correlated];
    gboolean same = p->k.kind == q->k.kind;
    if (same && fabs(p->combo - 1) < 0.15) {
        char v[CONFIG_VALUE_LEN];
        config_numeric_format(p->k.kind, p->fitted + q->fitted, v, sizeof v);
        return g_strdup_printf("correlated with %s, r = %.3f: only their sum is determined, "
                               "%s + %s = %s",
                               q->name, p->corr, p->name, q->name, v);
    }
    if (same && fabs(p->combo + 1) < 0.15)
        return g_strdup_printf("correlated with %s, r = %.3f: only their difference %s - %s "
                               "is determined",
                               q->name, p->corr, p->name, q->name);
    return g_strdup_printf("correlated with %s, r = %.3f: only one combination is "
                           "determined, %.3g x %s + %s",
                           q->name, p->corr, p->combo, p->name, q->name);
}

/* figures.csv: each figure's measured, stock and calibrated value. */
static char *cal_figures_csv(const Cal *c)
{
    GString *s = g_string_new(c->plan ? "id,measured,stock,calibrated,weight,run,role,source\n"
                                      : "id,measured,stock,calibrated,weight\n");
    for (guint j = 0; j < c->nf + c->nchk; j++) {
        gboolean chk = j >= c->nf;
        guint i = chk ? j - c->nf : j;
        const Figure *f = chk ? &c->chk[i] : &c->fig[i];
        const gboolean *st_ok = chk ? c->stock->chk_ok : c->stock->fig_ok;
        const gboolean *ca_ok = chk ? c->best->chk_ok : c->best->fig_ok;
        const double *st = chk ? c->stock->chk : c->stock->figs;
        const double *ca = chk ? c->best->chk : c->best->figs;
        g_string_append_printf(s, "\"%s\",%.6g,", f->id, f->value);
        if (st_ok[i])
            g_string_append_printf(s, "%.6g", st[i]);
        g_string_append_c(s, ',');
        if (ca_ok[i])
            g_string_append_printf(s, "%.6g", ca[i]);
        /* a check has no weight: it is not in the loss */
        g_string_append_printf(s, ",%g", chk ? 0 : f->weight);
        if (c->plan)
            g_string_append_printf(s, ",\"%s\",%s,\"%s\"", cal_fig_run(c, i, chk)->name,
                                   chk ? "check" : "fit", c->fig_src[j] ? c->fig_src[j] : "");
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

/* A fitted key as text: "KEY = V +- S", or how it is not determined. */
static char *cal_key_text(const CalParam *p)
{
    char v[CONFIG_VALUE_LEN], sd[CONFIG_VALUE_LEN];
    config_numeric_format(p->k.kind, p->fitted, v, sizeof v);
    if (!cal_identifiable(p))
        return g_strdup_printf("%s = %s (not determined)", p->name, v);
    if (isnan(p->sigma))
        return g_strdup_printf("%s = %s", p->name, v);
    cal_format_sigma(p, sd, sizeof sd);
    return g_strdup_printf("%s = %s ± %s", p->name, v, sd);
}

/* fit.png's title: the drive, the keys and their values, the loss. */
static char *cal_title(const Cal *c)
{
    g_autofree char *drive = g_path_get_basename(c->target);
    GString *t = g_string_new(NULL);
    DriveParams dp;
    if (config_load_file(c->target, &dp, NULL))
        g_string_append_printf(t, "Calibration of %s (%s)", dp.name, drive);
    else
        g_string_append_printf(t, "Calibration of %s", drive);
    for (guint i = 0; i < c->np; i++) {
        g_autofree char *k = cal_key_text(&c->p[i]);
        g_string_append_printf(t, "%s%s", i ? ", " : "\n", k);
    }
    g_string_append_printf(t, "\nloss %.4g (stock %.4g)", c->best->loss, c->stock->loss);
    return g_string_free(t, FALSE);
}

static void cal_html_fit(HtmlPage *page, const Cal *c)
{
    static const char *const fh[] = {"figure", "measured", "stock", "calibrated",
                                     "calibrated error", "weight", NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (guint i = 0; i < c->nf; i++) {
        const Figure *f = &c->fig[i];
        char **r = g_new0(char *, 7);
        r[0] = g_strdup(f->id);
        r[1] = g_strdup_printf("%.6g", f->value);
        r[2] = c->stock->fig_ok[i] ? g_strdup_printf("%.6g", c->stock->figs[i]) : g_strdup("-");
        r[3] = c->best->fig_ok[i] ? g_strdup_printf("%.6g", c->best->figs[i]) : g_strdup("-");
        r[4] = c->best->fig_ok[i] && f->value != 0
                   ? g_strdup_printf("%+.2f%%", 100 * (c->best->figs[i] - f->value) / fabs(f->value))
                   : g_strdup("-");
        r[5] = g_strdup_printf("%g", f->weight);
        g_ptr_array_add(rows, r);
    }
    html_heading(page, "Figures: measured, stock and calibrated");
    if (rows->len)
        html_table(page, fh, rows, NULL);
    else
        html_paragraph(page, "No single figures: the fit is on the curve alone.");
    g_ptr_array_set_size(rows, 0);
    static const char *const kh[] = {"key", "config", "fitted", "uncertainty (±)", "range",
                                     "sensitivity per 1%", "identifiability", NULL};
    for (guint i = 0; i < c->np; i++) {
        const CalParam *p = &c->p[i];
        char v[CONFIG_VALUE_LEN], was[CONFIG_VALUE_LEN], lo[CONFIG_VALUE_LEN],
            hi[CONFIG_VALUE_LEN], sd[CONFIG_VALUE_LEN] = "-";
        config_numeric_format(p->k.kind, p->fitted, v, sizeof v);
        config_numeric_format(p->k.kind, p->k.value, was, sizeof was);
        config_numeric_format(p->k.kind, p->lo, lo, sizeof lo);
        config_numeric_format(p->k.kind, p->hi, hi, sizeof hi);
        if (!isnan(p->sigma) && cal_identifiable(p))
            cal_format_sigma(p, sd, sizeof sd);
        char **r = g_new0(char *, 8);
        r[0] = g_strdup(p->name);
        r[1] = g_strdup(was);
        r[2] = g_strdup(v);
        r[3] = g_strdup(sd);
        r[4] = g_strdup_printf("%s .. %s", lo, hi);
        r[5] = g_strdup_printf("%.3g", p->sensitivity);
        r[6] = cal_identity_words(c, p);
        g_ptr_array_add(rows, r);
    }
    html_heading(page, "Fitted keys");
    html_table(page, kh, rows, NULL);
    g_ptr_array_free(rows, TRUE);
    g_autofree char *loss = g_strdup_printf(
        "Loss %.6g at the fit, %.6g with the stock config; %u simulations, %u simplex steps, %s. "
        "The uncertainty of a key is the change of it alone that raises the loss by the "
        "residuals' variance (at least the loss of a 1%% miss on one figure), from the loss's "
        "second derivative at the optimum (docs/calibration.md).",
        c->best->loss, c->stock->loss, c->sims, c->nm_iters,
        c->converged ? "converged" : "stopped at --max-evals");
    html_paragraph(page, loss);
}

/* report.html of the calibration folder. */
static void cal_write_html(const Cal *c, const char *title)
{
    const char *dir = c->o->run.out;
    g_autofree char *svg = g_build_filename(dir, "fit.svg", NULL);
    GError *e = NULL;
    if (!plot_calibration(dir, svg, c->o->run.script_dir, title, PLOT_SVG, &e))
        g_clear_error(&e); /* said for fit.png already */
    g_autofree char *drive = g_path_get_basename(c->target);
    g_autofree char *head = g_strdup_printf("ftlsim calibrate: %s", drive);
    g_autoptr(HtmlPage) page = html_page_new(head);
    g_autofree char *src = cal_sources(c);
    g_autofree char *what = c->plan ? g_strdup_printf(
        "Plan %s, the config %s fitted to %s; seed %" G_GUINT64_FORMAT ". The check runs' "
        "figures are in figures.csv and fit.json, outside the loss.", c->o->plan, c->target, src,
        c->o->run.seed) : g_strdup_printf(
        "Drive %s, workload %s, fitted to %s; seed %" G_GUINT64_FORMAT ".", c->o->run.drive,
        c->o->run.spec ? c->o->run.spec : c->o->run.job ? c->o->run.job : c->o->run.trace ? c->o->run.trace : "-",
        src, c->o->run.seed);
    html_paragraph(page, what);
    cal_html_fit(page, c);
    static const char *const names[] = {"fit", NULL};
    static const char *const captions[] = {
        "The fit: the measured curve (or each figure, in % of its measured value) against the "
        "stock and the calibrated simulation",
        NULL};
    run_report_figures(page, dir, names, captions, TRUE, PLOT_PNG);
    g_autofree char *ini = g_build_filename(dir, "calibrated.ini", NULL);
    DriveParams p;
    if (config_load_file(ini, &p, NULL))
        run_report_drive(page, &p);
    html_heading(page, "Files");
    html_file_links(page, dir, run_report_files);
    if (!html_page_write(page, dir, &e)) {
        fprintf(stderr, "ftlsim: %s: %s\n", HTML_REPORT_NAME, e->message);
        g_error_free(e);
    }
}

gboolean cal_write_results(Cal *c, GError **error)
{
    g_autofree char *ini = cal_ini(c, error);
    if (!ini)
        return FALSE;
    g_autofree char *json = cal_json(c);
    OutDir *od = session_dir(c->ses);
    if (!outdir_write_text(od, "calibrated.ini", ini, error) ||
        !outdir_write_text(od, "fit.json", json, error))
        return FALSE;
    if (c->curve) {
        g_autofree char *csv = cal_curves_csv(c);
        if (!outdir_write_text(od, "curves.csv", csv, error))
            return FALSE;
    }
    if (c->nf > 0) { /* with a plan, the checks too */
        g_autofree char *csv = cal_figures_csv(c);
        if (!outdir_write_text(od, "figures.csv", csv, error))
            return FALSE;
    }
    if (!session_commit(c->ses, error))
        return FALSE;
    if (!c->o->run.quiet)
        printf("results   %s (calibrated.ini, fit.json%s%s, report.html)\n", c->o->run.out,
               c->curve ? ", curves.csv" : "", c->nf ? ", figures.csv" : "");
    GError *perr = NULL;
    g_autofree char *fig = g_build_filename(c->o->run.out, "fit.png", NULL);
    g_autofree char *title = cal_title(c);
    if (plot_calibration(c->o->run.out, fig, c->o->run.script_dir, title, PLOT_PNG, &perr)) {
        if (!c->o->run.quiet)
            printf("figure    %s\n", fig);
    } else {
        plot_warn(perr);
    }
    cal_write_html(c, title);
    return TRUE;
}
