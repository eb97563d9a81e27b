/*
 * run_report.c - report.html of a run's results folder: the summary, the
 * phases with what bounds each, the figures (with --plot), the drive's
 * derived bounds as `ftlsim check` gives them, and the files. Written
 * after the folder is committed, from what the run measured and the
 * files it wrote.
 */
#include "sim/cmd/run.h"

#include "sim/config/config.h"
#include "sim/output/html.h"
#include "sim/output/report.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>

/* The files of a results folder a reader may want: every table and text. */
const char *const run_report_files[] = {".csv", ".json", ".txt", ".ini", NULL};

/* What held a phase back, from its busy shares: a resource that was busy
 * most of the phase's time bounds it; when none was, the rate came from
 * the host side (link, firmware or the workload's queue depth). */
static char *run_phase_bound(const PhaseSpan *s, const DriveParams *p)
{
    double dt = s->end_s - s->start_s;
    if (dt <= 0)
        return g_strdup("-");
    double dies = s->die_busy_s / dt, chans = s->chan_busy_s / dt;
    double mbps = (double)(s->end_host_bytes - s->start_host_bytes) / 1e6 / dt;
    double link = drive_params_link_bw(p, true) / 1e6;
    if (dies >= 0.9 && dies >= chans)
        return g_strdup_printf("the dies (%s work %.0f%% of the time)", drive_phase_name(s->kind),
                               100 * dies);
    if (chans >= 0.9)
        return g_strdup_printf("the channels (busy %.0f%%)", 100 * chans);
    if (link > 0 && mbps >= 0.9 * link)
        return g_strdup_printf("the host link (%.0f of %.0f MB/s)", mbps, link);
    return g_strdup_printf("the host side: the workload's queue depth, the link or the firmware "
                           "(dies %.0f%%, channels %.0f%% busy)",
                           100 * dies, 100 * chans);
}

static void run_report_phases(HtmlPage *page, const RunResult *res)
{
    static const char *const header[] = {"phase",    "from GB",    "to GB",         "seconds",
                                         "MB/s",     "dies busy",  "channels busy", "bounded by",
                                         NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (guint i = 0; res->phases && i < res->phases->len; i++) {
        const PhaseSpan *s = &g_array_index(res->phases, PhaseSpan, i);
        double dt = s->end_s - s->start_s;
        char **r = g_new0(char *, 9);
        r[0] = g_strdup(drive_phase_name(s->kind));
        r[1] = g_strdup_printf("%.2f", (double)s->start_host_bytes / 1e9);
        r[2] = g_strdup_printf("%.2f", (double)s->end_host_bytes / 1e9);
        r[3] = g_strdup_printf("%.2f", dt);
        r[4] = g_strdup_printf("%.1f", dt > 0 ? (double)(s->end_host_bytes - s->start_host_bytes) /
                                                    1e6 / dt
                                              : 0.0);
        r[5] = g_strdup_printf("%.1f%%", dt > 0 ? 100 * s->die_busy_s / dt : 0.0);
        r[6] = g_strdup_printf("%.1f%%", dt > 0 ? 100 * s->chan_busy_s / dt : 0.0);
        r[7] = run_phase_bound(s, res->params);
        g_ptr_array_add(rows, r);
    }
    html_heading(page, "Phases");
    if (rows->len == 0)
        html_paragraph(page, "The run wrote no phase: it was too short for one series row.");
    else
        html_table(page, header, rows, NULL);
    g_ptr_array_free(rows, TRUE);
}

void run_report_drive(HtmlPage *page, const DriveParams *p)
{
    g_autoptr(GString) text = g_string_new(NULL);
    config_describe(p, text);
    html_heading(page, "The drive, derived (ftlsim check)");
    html_label_table(page, text->str);
}

void run_report_figures(HtmlPage *page, const char *dir, const char *const *names,
                        const char *const *captions, gboolean plot, PlotFormat fmt)
{
    html_heading(page, "Figures");
    if (!plot) {
        html_paragraph(page, "No figures: run with --plot to draw them here.");
        return;
    }
    if (html_svg_figures(page, dir, names, captions, fmt == PLOT_SVG) == 0)
        html_paragraph(page, "No figures could be drawn (is gnuplot installed?).");
}

void run_write_report(const RunOptions *o, const RunResult *res)
{
    static const char *const names[] = {"write_curve", "throughput",  "cache",
                                        "utilization", "latency_cdf", NULL};
    static const char *const captions[] = {
        "Write speed against data written, by phase", "Throughput and IOPS over time",
        "The pSLC cache and free blocks over time", "What the dies, channels and cores did",
        "Latency, cumulative distribution", NULL};
    if (o->plot && o->plot_format != PLOT_SVG) {
        /* the PNGs are drawn; the page needs the same figures as SVG */
        GError *perr = NULL;
        if (!plot_results(o->out, o->script_dir, PLOT_SVG, &perr))
            g_error_free(perr); /* plot_results() already warned about the PNGs */
    }
    g_autofree char *title = g_strdup_printf("ftlsim run: %s", res->params->name);
    g_autoptr(HtmlPage) page = html_page_new(title);
    g_autofree char *what = g_strdup_printf(
        "Drive %s (%s), workload %s, seed %" G_GUINT64_FORMAT "%s.", res->params->name, o->drive,
        o->spec ? o->spec : o->job ? o->job : o->trace ? o->trace : "-", o->seed,
        res->interrupted ? "; interrupted: the results so far" : "");
    html_paragraph(page, what);
    if (res->interrupted)
        html_warning(page, "The run was interrupted: these are the results up to the signal.");
    g_autofree char *summary_path = g_build_filename(o->out, "summary.txt", NULL);
    g_autofree char *summary = NULL;
    html_heading(page, "Summary");
    if (g_file_get_contents(summary_path, &summary, NULL, NULL))
        html_pre(page, summary);
    run_report_phases(page, res);
    run_report_figures(page, o->out, names, captions, o->plot, o->plot_format);
    run_report_drive(page, res->params);
    html_heading(page, "Files");
    html_file_links(page, o->out, run_report_files);
    GError *e = NULL;
    if (!html_page_write(page, o->out, &e)) {
        fprintf(stderr, "ftlsim: %s: %s\n", HTML_REPORT_NAME, e->message);
        g_error_free(e);
    }
}
