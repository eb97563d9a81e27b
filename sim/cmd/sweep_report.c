/*
 * sweep_report.c - report.html of a sweep's folder (run --vary, or sweep
 * collect of emitted jobs): a title naming the drive and the keys varied,
 * the table of sweep.csv with its figures rounded to 3 significant digits
 * (the measures that differ between runs as columns, those every run
 * shares on one line, so that the page fits a 1400 px window), the runs'
 * write curves on one figure, and a link to each run's own report.
 */
#include "sim/cmd/run.h"

#include "sim/output/html.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A figure of sweep.csv as a reader wants it: 3 significant digits, no
 * exponent, whole numbers from 100 up; text as it is. Owned by the caller. */
static char *sweep_cell(const char *text)
{
    char *end = NULL;
    double v = g_ascii_strtod(text, &end);
    if (!*text || *end || !isfinite(v))
        return g_strdup(text);
    if (v == 0)
        return g_strdup("0");
    int mag = (int)floor(log10(fabs(v)));
    int dec = mag >= 2 ? 0 : MIN(2 - mag, 6);
    char *out = g_strdup_printf("%.*f", dec, v);
    if (dec > 0) { /* 0.500 -> 0.5, 2.00 -> 2 */
        char *e = out + strlen(out) - 1;
        while (*e == '0')
            *e-- = '\0';
        if (*e == '.')
            *e = '\0';
    }
    return out;
}

/* The drive's name from a run's summary.json ("drive": "NAME"); NULL if
 * none can be read. Owned by the caller. */
static char *sweep_drive_name(const char *run_dir)
{
    g_autofree char *path = g_build_filename(run_dir, "summary.json", NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    const char *p = strstr(text, "\"drive\": \"");
    if (!p)
        return NULL;
    p += strlen("\"drive\": \"");
    GString *name = g_string_new(NULL);
    for (; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1])
            p++;
        g_string_append_c(name, *p);
    }
    return g_string_free(name, FALSE);
}

/* sweep.csv as the page shows it: the keys varied (the columns before
 * "dir") and each measure that differs between runs, rounded; the measures
 * every run shares in *same ("name value, ..."). *keys gets the keys
 * varied, joined by " and ". FALSE when the file cannot be read. */
static gboolean sweep_table(HtmlPage *page, const char *csv, char **keys, char **same)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(csv, &text, NULL, NULL) || !g_utf8_validate(text, -1, NULL))
        return FALSE;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    if (!lines[0])
        return FALSE;
    g_auto(GStrv) head = csv_fields(lines[0]);
    guint ncol = g_strv_length(head), dir = ncol;
    for (guint c = 0; c < ncol; c++)
        if (strcmp(head[c], "dir") == 0)
            dir = c;
    GPtrArray *raw = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (int i = 1; lines[i]; i++) {
        if (!*g_strstrip(lines[i]))
            continue;
        char **f = csv_fields(lines[i]);
        char **cells = g_new0(char *, ncol + 1);
        for (guint c = 0; c < ncol; c++)
            cells[c] = c < g_strv_length(f) ? (c < dir ? g_strdup(f[c]) : sweep_cell(f[c]))
                                            : g_strdup("");
        g_strfreev(f);
        g_ptr_array_add(raw, cells);
    }
    gboolean *show = g_new0(gboolean, ncol);
    GString *shared = g_string_new(NULL);
    for (guint c = 0; c < ncol; c++) {
        if (c == dir)
            continue;
        gboolean differ = c < dir;
        for (guint r = 1; !differ && r < raw->len; r++)
            differ = strcmp(((char **)g_ptr_array_index(raw, r))[c],
                            ((char **)g_ptr_array_index(raw, 0))[c]) != 0;
        const char *v = raw->len ? ((char **)g_ptr_array_index(raw, 0))[c] : "";
        show[c] = differ;
        if (!differ && *v)
            g_string_append_printf(shared, "%s%s %s", shared->len ? ", " : "", head[c], v);
    }
    GPtrArray *header = g_ptr_array_new();
    GString *varied = g_string_new(NULL);
    for (guint c = 0; c < ncol; c++)
        if (show[c])
            g_ptr_array_add(header, head[c]);
    for (guint c = 0; c < dir; c++)
        g_string_append_printf(varied, "%s%s", varied->len ? " and " : "", head[c]);
    g_ptr_array_add(header, NULL);
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (guint r = 0; r < raw->len; r++) {
        char **from = g_ptr_array_index(raw, r);
        GPtrArray *row = g_ptr_array_new();
        for (guint c = 0; c < ncol; c++)
            if (show[c])
                g_ptr_array_add(row, g_strdup(from[c]));
        g_ptr_array_add(row, NULL);
        g_ptr_array_add(rows, g_ptr_array_free(row, FALSE));
    }
    html_table(page, (const char *const *)header->pdata, rows,
               "sweep.csv, 3 significant digits");
    g_ptr_array_free(rows, TRUE);
    g_ptr_array_free(header, TRUE);
    g_ptr_array_free(raw, TRUE);
    g_free(show);
    *keys = g_string_free(varied, FALSE);
    *same = g_string_free(shared, FALSE);
    return TRUE;
}

void sweep_write_report(const char *dir, GPtrArray *dirs, gboolean plot, PlotFormat fmt,
                        const char *script_dir)
{
    /* the run folders, without the NULL that draw_overlay() may have added */
    GPtrArray *runs = g_ptr_array_new();
    for (guint i = 0; dirs && i < dirs->len; i++)
        if (g_ptr_array_index(dirs, i))
            g_ptr_array_add(runs, g_ptr_array_index(dirs, i));
    if (plot && fmt != PLOT_SVG && runs->len > 0) {
        g_ptr_array_add(runs, NULL);
        g_autofree char *svg = g_build_filename(dir, "sweep.svg", NULL);
        GError *perr = NULL;
        if (!plot_overlay((const char *const *)runs->pdata, svg, script_dir, PLOT_SVG, &perr))
            g_error_free(perr); /* said already for the PNG */
        g_ptr_array_remove_index(runs, runs->len - 1);
    }
    g_autofree char *base = g_path_get_basename(dir);
    g_autofree char *drive = runs->len ? sweep_drive_name(g_ptr_array_index(runs, 0)) : NULL;
    /* the table once on a scratch page: the title names the keys it finds */
    HtmlPage *table = html_page_new("");
    g_autofree char *csv = g_build_filename(dir, "sweep.csv", NULL);
    g_autofree char *keys = NULL, *same = NULL;
    gboolean have_table = sweep_table(table, csv, &keys, &same);
    g_autofree char *title = g_strdup_printf(
        "ftlsim sweep of %s: %s varied (%s)", drive ? drive : "the drive",
        have_table && *keys ? keys : "the keys", base);
    html_page_free(table);
    HtmlPage *page = html_page_new(title);
    g_autofree char *what = g_strdup_printf("%u runs, one row each in sweep.csv; each run's "
                                            "folder has its own report.",
                                            runs->len);
    html_paragraph(page, what);
    html_heading(page, "Runs");
    g_clear_pointer(&keys, g_free);
    g_clear_pointer(&same, g_free);
    if (!sweep_table(page, csv, &keys, &same)) {
        html_paragraph(page, "sweep.csv could not be read.");
    } else if (*same) {
        g_autofree char *line = g_strdup_printf("The same in every run: %s.", same);
        html_paragraph(page, line);
    }
    static const char *const names[] = {"sweep", NULL};
    static const char *const captions[] = {"The runs' write curves", NULL};
    run_report_figures(page, dir, names, captions, plot, fmt);
    html_heading(page, "Each run's report");
    GString *links = g_string_new(NULL);
    GPtrArray *hrefs = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < runs->len; i++) {
        g_autofree char *name = g_path_get_basename(g_ptr_array_index(runs, i));
        g_autofree char *href = g_build_filename(name, HTML_REPORT_NAME, NULL);
        g_autofree char *path = g_build_filename(dir, href, NULL);
        if (g_file_test(path, G_FILE_TEST_EXISTS)) {
            g_ptr_array_add(hrefs, g_steal_pointer(&href));
            g_ptr_array_add(texts, g_steal_pointer(&name));
        } else {
            g_string_append_printf(links, "%s%s", links->len ? ", " : "", name);
        }
    }
    g_ptr_array_add(hrefs, NULL);
    g_ptr_array_add(texts, NULL);
    html_link_list(page, (const char *const *)hrefs->pdata, (const char *const *)texts->pdata);
    g_ptr_array_free(hrefs, TRUE);
    g_ptr_array_free(texts, TRUE);
    if (links->len) {
        g_autofree char *w = g_strdup_printf("No report.html in: %s.", links->str);
        html_paragraph(page, w);
    }
    g_string_free(links, TRUE);
    html_heading(page, "Files");
    html_file_links(page, dir, run_report_files);
    g_ptr_array_free(runs, TRUE);
    GError *e = NULL;
    if (!html_page_write(page, dir, &e)) {
        fprintf(stderr, "ftlsim: %s: %s\n", HTML_REPORT_NAME, e->message);
        g_error_free(e);
    }
    html_page_free(page);
}
