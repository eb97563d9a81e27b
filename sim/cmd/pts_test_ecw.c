/*
 * pts_test_ecw.c - PTS-E 1.1 Enterprise Composite Workload (ECW): random
 * 40/60 reads/writes in JESD219's enterprise mix of block sizes (0.5 to
 * 64 KiB, 4 KiB for 67%) and access ranges (50% of the accesses to the
 * first 5% of the LBAs, 30% to the next 15%, 20% to the other 80%). Each
 * round runs every threads x QD of 32, 16, 8, 6, 4, 2, 1 (threads outer,
 * from the most outstanding down); steady state is judged on the IOPS of
 * the first point. The results are the window's: IOPS, average and
 * maximum response time per point (the demand intensity curve) and the
 * response time histograms of three points (ecw_histogram.csv).
 */
#include "sim/cmd/pts_impl.h"

#include <math.h>

static const uint32_t ecw_tq[] = {32, 16, 8, 6, 4, 2, 1};
static const uint64_t ecw_bs[] = {0}; /* the job's bssplit */
static const uint32_t ecw_mix[] = {40};
/* fio's options of the mixes: block sizes by share of the commands, the
 * access ranges as random_distribution=zoned (share of the accesses / share
 * of the LBAs) */
#define ECW_JOB                                                                                    \
    "bssplit=512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3,"             \
    "random_distribution=zoned:50/5:30/15:20/80,blockalign=4k"
static const char *const ecw_points[] = {"max IOPS", "mid IOPS", "min IOPS"};

static double ecw_track(const PtsRow *row)
{
    return row->iops;
}

/* The cells (threads x QD points) with the highest and the lowest window
 * IOPS, and the one whose IOPS are nearest their middle. */
static void ecw_pick(const Pts *p, uint32_t pick[3])
{
    uint32_t hi = 0, lo = 0, mid = 0;
    for (uint32_t c = 0; c < p->n_cells; c++) {
        hi = p->results[c].iops > p->results[hi].iops ? c : hi;
        lo = p->results[c].iops < p->results[lo].iops ? c : lo;
    }
    double target = (p->results[hi].iops + p->results[lo].iops) / 2;
    for (uint32_t c = 0; c < p->n_cells; c++)
        if (fabs(p->results[c].iops - target) < fabs(p->results[mid].iops - target))
            mid = c;
    pick[0] = hi;
    pick[1] = mid;
    pick[2] = lo;
}

/* Cell c's response times over the reported window (the ring of the
 * window's rounds, as pts_results() merges them); lat_hist_free it. */
static LatHist *ecw_window_hist(const Pts *p, uint32_t c)
{
    LatHist *h = lat_hist_new();
    const PtsSub *s = &p->subs[0];
    for (uint32_t r = s->win.first; r <= s->win.last && r > 0; r++)
        lat_hist_merge(h, p->win_hist[c * PTS_RING + (r - 1) % PTS_RING]);
    return h;
}

/* Commands and bytes cell c (or every cell, c = UINT32_MAX) completed in
 * the window's rounds, reads and writes. */
static void ecw_window_ios(const Pts *p, uint32_t c, uint64_t ios[2], uint64_t bytes[2])
{
    const PtsSub *s = &p->subs[0];
    ios[0] = ios[1] = bytes[0] = bytes[1] = 0;
    for (guint i = 0; i < p->rows->len; i++) {
        const PtsRow *row = &g_array_index(p->rows, PtsRow, i);
        if ((c != UINT32_MAX && row->cell != c) || row->round < s->win.first ||
            row->round > s->win.last)
            continue;
        for (int d = 0; d < 2; d++) {
            ios[d] += row->ios[d];
            bytes[d] += row->bytes[d];
        }
    }
}

static void ecw_csv(const Pts *p, GString *out)
{
    g_string_append(out, "threads,iodepth,outstanding,iops,MBps,mean_us,p99_us,p99_99_us,max_us,"
                         "read_ios,write_ios,read_bytes,write_bytes,waf\n");
    for (uint32_t c = 0; c < p->n_cells; c++) {
        const PtsCell *cell = &p->cells[c];
        const PtsResult *r = &p->results[c];
        uint64_t ios[2], bytes[2];
        ecw_window_ios(p, c, ios, bytes);
        g_string_append_printf(out,
                               "%u,%u,%u,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f,%" G_GUINT64_FORMAT
                               ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                               ",%.3f\n",
                               cell->threads, cell->iodepth, cell->threads * cell->iodepth, r->iops,
                               r->MBps, r->mean_us, r->p99_us, r->p9999_us, r->max_us, ios[0],
                               ios[1], bytes[0], bytes[1], r->waf);
    }
}

static void ecw_hist_csv(const Pts *p, GString *out)
{
    g_string_append(out, "point,threads,iodepth,bucket_low_us,count,cumulative_fraction\n");
    uint32_t pick[3];
    ecw_pick(p, pick);
    for (unsigned k = 0; k < 3; k++) {
        g_autoptr(LatHist) h = ecw_window_hist(p, pick[k]);
        pts_hist_csv(out, ecw_points[k], p->cells[pick[k]].threads, p->cells[pick[k]].iodepth, h);
    }
}

/* The mixes the drive saw over the window, against the job's: the share
 * of reads and the mean size of a command. */
static void ecw_issued_line(const Pts *p, GString *out)
{
    uint64_t ios[2], bytes[2];
    ecw_window_ios(p, UINT32_MAX, ios, bytes);
    double n = (double)(ios[0] + ios[1]);
    g_string_append_printf(out,
                           "issued       %.1f%% reads of %.0f commands; mean size %.0f B (reads "
                           "%.0f B, writes %.0f B)\n",
                           n > 0 ? 100 * (double)ios[0] / n : 0, n,
                           n > 0 ? (double)(bytes[0] + bytes[1]) / n : 0,
                           ios[0] ? (double)bytes[0] / (double)ios[0] : 0,
                           ios[1] ? (double)bytes[1] / (double)ios[1] : 0);
}

/* A threads x QD table of one value per cell in summary.txt. */
static void ecw_summary_table(const Pts *p, const char *what, double (*value)(const PtsResult *r),
                              GString *out)
{
    g_string_append_printf(out, "%s by threads (down) x queue depth (across)\n  T \\ Q ", what);
    for (uint32_t c = 0; c < p->n_cells && p->cells[c].threads == p->cells[0].threads; c++)
        g_string_append_printf(out, "%9u", p->cells[c].iodepth);
    for (uint32_t c = 0; c < p->n_cells; c++) {
        if (c == 0 || p->cells[c].threads != p->cells[c - 1].threads)
            g_string_append_printf(out, "\n  %-6u", p->cells[c].threads);
        g_string_append_printf(out, "%9.0f", value(&p->results[c]));
    }
    g_string_append_c(out, '\n');
}

static double ecw_iops(const PtsResult *r)
{
    return r->iops;
}

static double ecw_mean(const PtsResult *r)
{
    return r->mean_us;
}

static double ecw_max(const PtsResult *r)
{
    return r->max_us;
}

/* The job's mixes and those the drive saw. */
static void ecw_stimulus_lines(const Pts *p, GString *out)
{
    g_string_append(out, "stimulus     randrw 40/60, " ECW_JOB "\n");
    ecw_issued_line(p, out);
}

static void ecw_summary(const Pts *p, GString *out)
{
    ecw_stimulus_lines(p, out);
    ecw_summary_table(p, "demand intensity: IOPS", ecw_iops, out);
    ecw_summary_table(p, "average response time (us)", ecw_mean, out);
    ecw_summary_table(p, "maximum response time (us)", ecw_max, out);
    g_string_append(out, "response time histograms   T x Q      IOPS   mean us    p99 us "
                         "p99.99 us    max us\n");
    uint32_t pick[3];
    ecw_pick(p, pick);
    for (unsigned k = 0; k < 3; k++) {
        const PtsCell *c = &p->cells[pick[k]];
        const PtsResult *r = &p->results[pick[k]];
        g_autofree char *tq = g_strdup_printf("%u x %u", c->threads, c->iodepth);
        g_string_append_printf(out, "  %-24s %-7s %9.0f %9.1f %9.1f %9.1f %9.1f\n", ecw_points[k],
                               tq, r->iops, r->mean_us, r->p99_us, r->p9999_us, r->max_us);
    }
}

/* One value per threads x QD point, from the window's results. */
static void ecw_html_tq(HtmlPage *page, const Pts *p, const char *caption,
                        double (*value)(const PtsResult *r), const char *fmt)
{
    uint32_t threads[PTS_MAX_CELLS], iodepth[PTS_MAX_CELLS];
    double v[PTS_MAX_CELLS];
    for (uint32_t c = 0; c < p->n_cells; c++) {
        threads[c] = p->cells[c].threads;
        iodepth[c] = p->cells[c].iodepth;
        v[c] = value(&p->results[c]);
    }
    pts_html_tq(page, caption, threads, iodepth, v, p->n_cells, fmt);
}

static void ecw_html(HtmlPage *page, const Pts *p)
{
    g_autoptr(GString) stimulus = g_string_new(NULL);
    ecw_stimulus_lines(p, stimulus);
    html_pre(page, stimulus->str);
    g_autofree char *caption = g_strdup_printf(
        "Demand intensity: IOPS of the ECW (random 40/60, mixed sizes and access ranges) by "
        "threads x queue depth, over rounds %zu-%zu",
        p->subs[0].win.first, p->subs[0].win.last);
    ecw_html_tq(page, p, caption, ecw_iops, "%.0f");
    ecw_html_tq(page, p, "Demand intensity: average response time (us)", ecw_mean, "%.1f");
    ecw_html_tq(page, p, "Demand intensity: maximum response time (us)", ecw_max, "%.0f");
    static const char *const header[] = {"operating point", "threads x QD", "IOPS", "mean (us)",
                                         "p99 (us)", "p99.99 (us)", "max (us)", NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    uint32_t pick[3];
    ecw_pick(p, pick);
    for (unsigned k = 0; k < 3; k++) {
        const PtsCell *c = &p->cells[pick[k]];
        const PtsResult *r = &p->results[pick[k]];
        char **row = g_new0(char *, 8);
        row[0] = g_strdup(ecw_points[k]);
        row[1] = g_strdup_printf("%u x %u", c->threads, c->iodepth);
        row[2] = g_strdup_printf("%.0f", r->iops);
        row[3] = g_strdup_printf("%.1f", r->mean_us);
        row[4] = g_strdup_printf("%.1f", r->p99_us);
        row[5] = g_strdup_printf("%.1f", r->p9999_us);
        row[6] = g_strdup_printf("%.1f", r->max_us);
        g_ptr_array_add(rows, row);
    }
    html_table(page, header, rows,
               "Response time histograms of the window's rounds at three operating points "
               "(ecw_histogram.csv)");
    g_ptr_array_free(rows, TRUE);
}

/* pts_ecw.gp's thread counts: those of the cells. */
static char *ecw_figure_vars(const Pts *p)
{
    GString *v = g_string_new("threads='");
    for (uint32_t c = 0; c < p->n_cells; c++)
        if (c == 0 || p->cells[c].threads != p->cells[c - 1].threads)
            g_string_append_printf(v, "%s%u", c ? " " : "", p->cells[c].threads);
    g_string_append(v, "'; ");
    return g_string_free(v, FALSE);
}

static const PtsFigure ecw_figures[] = {
    {"pts_dirth_hist", "ecw_histogram",
     "table='ecw_histogram.csv'; what='ECW: random 40/60, mixed sizes and access ranges'; "}};

const PtsTestDesc pts_test_ecw = {
    .name = "ecw",
    .about = "the enterprise composite workload over threads x queue depth",
    .title = "enterprise composite workload (ECW)",
    .bs = ecw_bs,
    .n_bs = G_N_ELEMENTS(ecw_bs),
    .mix = ecw_mix,
    .n_mix = G_N_ELEMENTS(ecw_mix),
    .threads = 32,
    .iodepth = 32,
    .client_threads = 32,
    .client_iodepth = 32,
    .client_n_bs = 1,
    .tq = ecw_tq,
    .n_tq = G_N_ELEMENTS(ecw_tq),
    .job = ECW_JOB,
    .max_rounds = 25,
    .window_latency = true,
    .unit = "IOPS",
    .track_unit = "IOPS",
    .track_column = "iops",
    .track = ecw_track,
    .table_csv = ecw_csv,
    .summary = ecw_summary,
    .html_tables = ecw_html,
    .figure_vars = ecw_figure_vars,
    .figures = ecw_figures,
    .n_figures = G_N_ELEMENTS(ecw_figures),
    .table2 = "ecw_histogram",
    .table2_csv = ecw_hist_csv,
};
