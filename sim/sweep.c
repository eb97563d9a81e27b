/*
 * sweep.c - one workload on a drive, once for each combination of values
 * of some keys (ftlsim run --vary): the what-if study in one command.
 *
 * Every combination is loaded and checked before anything is written, so a
 * bad value leaves no folder behind. The runs go to OUT/LABEL, each an
 * ordinary results folder; OUT/sweep.csv, written through its own OutDir
 * once every run succeeded, puts their measures side by side.
 */
#include "sim/run.h"

#include "sim/config.h"
#include "sim/outdir.h"
#include "sim/report.h"

#include <string.h>

#define SWEEP_MAX_RUNS 1000

typedef struct Axis {
    char *key; /* GROUP.KEY */
    GStrv values;
    guint n;
} Axis;

static void axes_free(GArray *axes)
{
    for (guint i = 0; i < axes->len; i++) {
        Axis *a = &g_array_index(axes, Axis, i);
        g_free(a->key);
        g_strfreev(a->values);
    }
    g_array_free(axes, TRUE);
}

static gboolean bad_vary(GError **error, const char *spec, const char *why)
{
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--vary \"%s\": %s", spec, why);
    return FALSE;
}

/* GROUP.KEY=V1,V2,... into an axis; the key must not be varied twice nor
 * set by --set too (which would win would not be clear). */
static gboolean parse_axis(const char *spec, const char *const *sets, GArray *axes, GError **error)
{
    const char *eq = strchr(spec, '=');
    const char *dot = strchr(spec, '.');
    if (!eq || !dot || dot > eq || dot == spec || dot + 1 == eq || eq[1] == '\0')
        return bad_vary(error, spec, "expected GROUP.KEY=V1,V2,..., e.g. pslc.static=0,6GB,12GB");
    Axis a = {.key = g_strndup(spec, (gsize)(eq - spec)), .values = g_strsplit(eq + 1, ",", -1)};
    a.n = g_strv_length(a.values);
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < a.n; i++) {
        g_strstrip(a.values[i]);
        if (a.values[i][0] == '\0')
            ok = bad_vary(error, spec, "an empty value");
        for (guint j = 0; ok && j < i; j++)
            if (strcmp(a.values[i], a.values[j]) == 0)
                ok = bad_vary(error, spec, "a value given twice");
    }
    for (guint i = 0; ok && i < axes->len; i++)
        if (strcmp(g_array_index(axes, Axis, i).key, a.key) == 0)
            ok = bad_vary(error, spec, "the key is varied twice");
    gsize klen = strlen(a.key);
    for (guint i = 0; ok && sets && sets[i]; i++)
        if (strncmp(sets[i], a.key, klen) == 0 && sets[i][klen] == '=')
            ok = bad_vary(error, spec, "the key is also given by --set");
    if (!ok) {
        g_free(a.key);
        g_strfreev(a.values);
        return FALSE;
    }
    g_array_append_val(axes, a);
    return TRUE;
}

/* The values of combination k (the last axis varies fastest). */
static void combo_values(GArray *axes, guint k, const char **vals)
{
    for (guint i = axes->len; i-- > 0;) {
        Axis *a = &g_array_index(axes, Axis, i);
        vals[i] = a->values[k % a->n];
        k /= a->n;
    }
}

/* "KEY=VALUE,KEY=VALUE": the run's folder name ('/' would make a path). */
static char *combo_label(GArray *axes, const char **vals)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < axes->len; i++)
        g_string_append_printf(s, "%s%s=%s", i ? "," : "", g_array_index(axes, Axis, i).key,
                               vals[i]);
    g_strdelimit(s->str, "/\\", '_');
    return g_string_free(s, FALSE);
}

/* o->sets followed by the combination's overrides; free with g_strfreev. */
static GStrv combo_sets(const RunOptions *o, GArray *axes, const char **vals)
{
    GPtrArray *a = g_ptr_array_new();
    for (guint i = 0; o->sets && o->sets[i]; i++)
        g_ptr_array_add(a, g_strdup(o->sets[i]));
    for (guint i = 0; i < axes->len; i++)
        g_ptr_array_add(a, g_strdup_printf("%s=%s", g_array_index(axes, Axis, i).key, vals[i]));
    g_ptr_array_add(a, NULL);
    return (GStrv)g_ptr_array_free(a, FALSE);
}

/* A CSV field: quoted when it holds a comma or a quote. */
static void csv_field(GString *out, const char *s)
{
    if (!strpbrk(s, ",\"")) {
        g_string_append(out, s);
        return;
    }
    g_string_append_c(out, '"');
    for (; *s; s++) {
        if (*s == '"')
            g_string_append_c(out, '"');
        g_string_append_c(out, *s);
    }
    g_string_append_c(out, '"');
}

/* Field i (0-based) of a CSV row without quotes, for the progress line. */
static char *row_field(const char *row, guint i)
{
    g_auto(GStrv) f = g_strsplit(row, ",", -1);
    return i < g_strv_length(f) ? g_strdup(f[i]) : g_strdup("");
}

/* Check every combination, then run them and write the table. */
static gboolean sweep(const RunOptions *o, GArray *axes, guint runs, GError **error)
{
    const char **vals = g_newa(const char *, axes->len);
    /* every combination must load before anything is written */
    for (guint k = 0; k < runs; k++) {
        combo_values(axes, k, vals);
        g_auto(GStrv) sets = combo_sets(o, axes, vals);
        DriveParams p;
        if (!config_load_file_set(o->drive, (const char *const *)sets, &p, error)) {
            g_autofree char *label = combo_label(axes, vals);
            g_prefix_error(error, "--vary %s: ", label);
            return FALSE;
        }
    }
    g_autoptr(OutDir) od = outdir_open(o->out, o->force, error);
    if (!od)
        return FALSE;
    g_autoptr(GString) table = g_string_new(NULL);
    for (guint i = 0; i < axes->len; i++) {
        csv_field(table, g_array_index(axes, Axis, i).key);
        g_string_append_c(table, ',');
    }
    g_string_append(table, "dir," REPORT_SWEEP_HEADER "\n");
    g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func(g_free);
    for (guint k = 0; k < runs; k++) {
        combo_values(axes, k, vals);
        g_auto(GStrv) sets = combo_sets(o, axes, vals);
        g_autofree char *label = combo_label(axes, vals);
        char *dir = g_build_filename(o->out, label, NULL);
        g_ptr_array_add(dirs, dir);
        g_autoptr(GString) row = g_string_new(NULL);
        RunOptions ro = *o;
        ro.sets = (const char *const *)sets;
        ro.out = dir;
        ro.quiet = TRUE;
        ro.plot = FALSE;
        ro.sweep_row = row;
        if (!run_simulation(&ro, error)) {
            g_prefix_error(error, "--vary %s: ", label);
            return FALSE;
        }
        for (guint i = 0; i < axes->len; i++) {
            csv_field(table, vals[i]);
            g_string_append_c(table, ',');
        }
        csv_field(table, label);
        g_string_append_printf(table, ",%s", row->str);
        if (!o->quiet) {
            g_autofree char *mbps = row_field(row->str, 3), *waf = row_field(row->str, 6);
            printf("run %u/%u  %s: write %s MB/s, WAF %s\n", k + 1, runs, label,
                   mbps[0] ? mbps : "-", waf[0] ? waf : "-");
            fflush(stdout);
        }
    }
    if (!outdir_write_text(od, "sweep.csv", table->str, error) || !outdir_commit(od, error))
        return FALSE;
    if (!o->quiet)
        printf("sweep     %u runs in %s, table %s/sweep.csv\n", runs, o->out, o->out);
    if (o->plot) {
        g_ptr_array_add(dirs, NULL);
        g_autofree char *fig =
            g_build_filename(o->out, o->plot_format == PLOT_SVG ? "sweep.svg" : "sweep.png", NULL);
        GError *perr = NULL;
        if (plot_overlay((const char *const *)dirs->pdata, fig, o->script_dir, o->plot_format,
                         &perr)) {
            if (!o->quiet)
                printf("figure    %s\n", fig);
        } else {
            fprintf(stderr, "ftlsim: %s\n",
                    g_error_matches(perr, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT) ? plot_install_hint()
                                                                             : perr->message);
            g_error_free(perr);
        }
    }
    return TRUE;
}

gboolean run_sweep(const RunOptions *o, const char *const *vary, GError **error)
{
    if (!o->out) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--vary needs --out DIR");
        return FALSE;
    }
    if (o->live) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--live does not go with --vary");
        return FALSE;
    }
    GArray *axes = g_array_new(FALSE, TRUE, sizeof(Axis));
    gboolean ok = TRUE;
    guint runs = 1;
    for (guint i = 0; ok && vary && vary[i]; i++) {
        ok = parse_axis(vary[i], o->sets, axes, error);
        if (ok)
            runs *= g_array_index(axes, Axis, axes->len - 1).n;
        if (ok && runs > SWEEP_MAX_RUNS) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "--vary: %u runs in all or more; expected at most %d", runs,
                        SWEEP_MAX_RUNS);
            ok = FALSE;
        }
    }
    if (ok && axes->len == 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--vary: no key to vary");
        ok = FALSE;
    }
    ok = ok && sweep(o, axes, runs, error);
    axes_free(axes);
    return ok;
}
