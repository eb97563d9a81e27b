/*
 * sweep_report.c - report.html of a sweep's folder (run --vary, or sweep
 * collect of emitted jobs): the table sweep.csv, the runs' write curves on
 * one figure, and a link to each run's own report.
 */
#include "sim/cmd/run.h"

#include "sim/output/html.h"

#include <glib/gstdio.h>
#include <stdio.h>

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
    g_autofree char *title = g_strdup_printf("ftlsim sweep: %s", base);
    HtmlPage *page = html_page_new(title);
    g_autofree char *what = g_strdup_printf("%u runs, one row each in sweep.csv; each run's "
                                            "folder has its own report.",
                                            runs->len);
    html_paragraph(page, what);
    html_heading(page, "Runs");
    g_autofree char *csv = g_build_filename(dir, "sweep.csv", NULL);
    if (!html_csv_file(page, csv, "sweep.csv", 0))
        html_paragraph(page, "sweep.csv could not be read.");
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
