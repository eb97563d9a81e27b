/*
 * pts_test_dirth.c - PTS-E 1.1 Demand Intensity / Response Time Histogram
 * (DIRTH): 8 KiB random 65/35 reads/writes to steady state at 32 threads x
 * QD 32 (the rounds), then the demand intensity sweep (every thread count
 * by every queue depth, from the most outstanding down, one round time
 * each), then ten round times at each of three operating points (the
 * highest IOPS, the lowest, the one nearest their middle) with every
 * response time kept in a histogram (dirth_histogram.csv).
 */
#include "sim/cmd/pts_impl.h"

#include <math.h>

static const uint32_t dirth_tq[] = {32, 16, 8, 6, 4, 2, 1};
/* the histogram captures: ten rounds long (the PTS's 10 minutes against
 * its 1-minute rounds) */
#define DIRTH_HIST_ROUNDS 10
enum { DIRTH_SWEEP = 1, DIRTH_HIST = 2 };
static const char *const dirth_points[] = {"max IOPS", "mid IOPS", "min IOPS"};

static const uint64_t dirth_bs[] = {8192};
static const uint32_t dirth_mix[] = {65};

/* The sweep's periods with the highest and the lowest IOPS, and the one
 * whose IOPS are nearest their middle. */
static void dirth_pick(const Pts *p, guint pick[3])
{
    guint hi = 0, lo = 0, mid = 0;
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        if (q->iops > g_array_index(p->periods, PtsPeriod, hi).iops)
            hi = i;
        if (q->iops < g_array_index(p->periods, PtsPeriod, lo).iops)
            lo = i;
    }
    double target = (g_array_index(p->periods, PtsPeriod, hi).iops +
                     g_array_index(p->periods, PtsPeriod, lo).iops) / 2;
    for (guint i = 0; i < p->periods->len; i++)
        if (fabs(g_array_index(p->periods, PtsPeriod, i).iops - target) <
            fabs(g_array_index(p->periods, PtsPeriod, mid).iops - target))
            mid = i;
    pick[0] = hi;
    pick[1] = mid;
    pick[2] = lo;
}

static gboolean dirth_after(Pts *p, uint32_t sub, GError **error)
{
    const PtsCell *c = &p->cells[p->subs[sub].track];
    uint32_t n = 0;
    for (unsigned t = 0; t < G_N_ELEMENTS(dirth_tq); t++)
        for (unsigned q = 0; q < G_N_ELEMENTS(dirth_tq); q++)
            if (!pts_period(p, c, dirth_tq[t], dirth_tq[q], p->o->round_time, DIRTH_SWEEP, ++n,
                            NULL, error))
                return FALSE;
    guint pick[3];
    dirth_pick(p, pick);
    for (uint32_t k = 0; k < 3; k++) {
        const PtsPeriod q = g_array_index(p->periods, PtsPeriod, pick[k]);
        p->hists[k] = lat_hist_new();
        p->hist_period[k] = p->periods->len;
        p->n_hists = k + 1;
        if (!pts_period(p, c, q.threads, q.iodepth, DIRTH_HIST_ROUNDS * p->o->round_time,
                        DIRTH_HIST, k + 1, p->hists[k], error))
            return FALSE;
    }
    return TRUE;
}

static double track_iops(const PtsRow *row)
{
    return row->iops;
}

static void dirth_csv(const Pts *p, GString *out)
{
    g_string_append(out, "stage,point,threads,iodepth,outstanding,seconds,ios,iops,MBps,mean_us,"
                         "p99_us,max_us\n");
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        g_string_append_printf(
            out, "%s,%s,%u,%u,%u,%.4f,%" G_GUINT64_FORMAT ",%.1f,%.2f,%.2f,%.2f,%.2f\n",
            q->group == DIRTH_SWEEP ? "demand" : "histogram",
            q->group == DIRTH_SWEEP ? "" : dirth_points[q->index - 1], q->threads, q->iodepth,
            q->threads * q->iodepth, q->seconds, q->ios, q->iops, q->MBps, q->mean_us, q->p99_us,
            q->max_us);
    }
}

static void dirth_hist_csv(const Pts *p, GString *out)
{
    g_string_append(out, "point,threads,iodepth,bucket_low_us,count,cumulative_fraction\n");
    for (uint32_t k = 0; k < p->n_hists; k++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, p->hist_period[k]);
        pts_hist_csv(out, dirth_points[k], q->threads, q->iodepth, p->hists[k]);
    }
}

/* The operating points with the response times of their histograms. */
static void dirth_summary(const Pts *p, GString *out)
{
    g_string_append(out, "demand intensity: IOPS by threads (down) x queue depth (across)\n"
                         "  T \\ Q ");
    for (unsigned q = 0; q < G_N_ELEMENTS(dirth_tq); q++)
        g_string_append_printf(out, "%9u", dirth_tq[q]);
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        if (q->group != DIRTH_SWEEP)
            continue;
        if ((q->index - 1) % G_N_ELEMENTS(dirth_tq) == 0)
            g_string_append_printf(out, "\n  %-6u", q->threads);
        g_string_append_printf(out, "%9.0f", q->iops);
    }
    g_string_append(out, "\nresponse time histograms   T x Q      IOPS   mean us    p99 us "
                         "p99.99 us    max us        IOs\n");
    for (uint32_t k = 0; k < p->n_hists; k++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, p->hist_period[k]);
        const LatHist *h = p->hists[k];
        g_autofree char *tq = g_strdup_printf("%u x %u", q->threads, q->iodepth);
        g_string_append_printf(out, "  %-24s %-7s %9.0f %9.1f %9.1f %9.1f %9.1f %10" G_GUINT64_FORMAT
                                    "\n",
                               dirth_points[k], tq, q->iops, lat_hist_mean(h) / 1e3,
                               (double)lat_hist_percentile(h, 99) / 1e3,
                               (double)lat_hist_percentile(h, 99.99) / 1e3,
                               (double)lat_hist_max(h) / 1e3, lat_hist_count(h));
    }
}

/* A sweep table of report.html: threads down, queue depths across. */
static void dirth_html_sweep(HtmlPage *page, const Pts *p, const char *caption, gboolean iops)
{
    uint32_t threads[G_N_ELEMENTS(dirth_tq) * G_N_ELEMENTS(dirth_tq)];
    uint32_t iodepth[G_N_ELEMENTS(threads)];
    double v[G_N_ELEMENTS(threads)];
    guint n = 0;
    for (guint i = 0; i < p->periods->len && n < G_N_ELEMENTS(threads); i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        if (q->group != DIRTH_SWEEP)
            continue;
        threads[n] = q->threads;
        iodepth[n] = q->iodepth;
        v[n++] = iops ? q->iops : q->mean_us;
    }
    pts_html_tq(page, caption, threads, iodepth, v, n, iops ? "%.0f" : "%.1f");
}

static void dirth_html(HtmlPage *page, const Pts *p)
{
    dirth_html_sweep(page, p, "Demand intensity: IOPS, 8 KiB random 65/35, by threads x queue "
                              "depth",
                     TRUE);
    dirth_html_sweep(page, p, "Demand intensity: average response time (us)", FALSE);
    static const char *const header[] = {"operating point", "threads x QD", "IOPS", "mean (us)",
                                         "p99 (us)", "p99.99 (us)", "max (us)", "IOs in the "
                                         "histogram", NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (uint32_t k = 0; k < p->n_hists; k++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, p->hist_period[k]);
        const LatHist *h = p->hists[k];
        char **r = g_new0(char *, 9);
        r[0] = g_strdup(dirth_points[k]);
        r[1] = g_strdup_printf("%u x %u", q->threads, q->iodepth);
        r[2] = g_strdup_printf("%.0f", q->iops);
        r[3] = g_strdup_printf("%.1f", lat_hist_mean(h) / 1e3);
        r[4] = g_strdup_printf("%.1f", (double)lat_hist_percentile(h, 99) / 1e3);
        r[5] = g_strdup_printf("%.1f", (double)lat_hist_percentile(h, 99.99) / 1e3);
        r[6] = g_strdup_printf("%.1f", (double)lat_hist_max(h) / 1e3);
        r[7] = g_strdup_printf("%" G_GUINT64_FORMAT, lat_hist_count(h));
        g_ptr_array_add(rows, r);
    }
    g_autofree char *caption = g_strdup_printf(
        "Response time histograms: %u round times at each operating point (dirth_histogram.csv)",
        DIRTH_HIST_ROUNDS);
    html_table(page, header, rows, caption);
    g_ptr_array_free(rows, TRUE);
}

static const PtsFigure dirth_figures[] = {{"pts_dirth_hist", "dirth_histogram", NULL}};

const PtsTestDesc pts_test_dirth = {
    .name = "dirth",
    .about = "demand intensity and response time histograms",
    .title = "demand intensity / response time histogram (DIRTH)",
    .bs = dirth_bs,
    .n_bs = G_N_ELEMENTS(dirth_bs),
    .mix = dirth_mix,
    .n_mix = G_N_ELEMENTS(dirth_mix),
    .threads = 32,
    .iodepth = 32,
    .client_threads = 32,
    .client_iodepth = 32,
    .client_n_bs = 1,
    .max_rounds = 25,
    .unit = "IOPS",
    .track_unit = "IOPS",
    .track_column = "iops",
    .track = track_iops,
    .table_csv = dirth_csv,
    .summary = dirth_summary,
    .html_tables = dirth_html,
    .figures = dirth_figures,
    .n_figures = G_N_ELEMENTS(dirth_figures),
    .after = dirth_after,
    .table2 = "dirth_histogram",
    .table2_csv = dirth_hist_csv,
};
