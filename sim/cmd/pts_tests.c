/*
 * pts_tests.c - the SNIA PTS tests, one descriptor each (pts_impl.h): the
 * cells, defaults and rules the driver (pts.c) follows, and the hooks for
 * what only the test has: its tracking variable, its table (NAME.csv), its
 * lines of summary.txt, its tables in report.html and its figures. WSAT,
 * IOPS, TP and LAT are here; a new test is a file of its own,
 * sim/cmd/pts_test_NAME.c, which the build lists (docs/architecture.md).
 */
#include "sim/cmd/pts_impl.h"

#include <math.h>

/* ---- wsat: write saturation ------------------------------------------- */

static const uint64_t wsat_bs[] = {4096};
static const uint32_t wsat_mix[] = {0};

static double track_iops(const PtsRow *row)
{
    return row->iops;
}

static void wsat_csv(const Pts *p, GString *out)
{
    g_string_append(out, "round,t_s,host_TB_written,fills,iops,mean_us,p99_us,max_us,waf\n");
    for (guint i = 0; i < p->rows->len; i++) {
        const PtsRow *r = &g_array_index(p->rows, PtsRow, i);
        g_string_append_printf(out, "%u,%.1f,%.5f,%.4f,%.1f,%.2f,%.2f,%.2f,%.3f\n", r->round,
                               r->t_end_s - p->t0_s, r->test_written / 1e12,
                               r->test_written / (double)p->capacity, r->iops, r->mean_us,
                               r->p99_us, r->max_us, isnan(r->waf) ? 0.0 : r->waf);
    }
}

static void wsat_summary(const Pts *p, GString *out)
{
    const PtsRow *first = &g_array_index(p->rows, PtsRow, 0);
    const PtsRow *last = &g_array_index(p->rows, PtsRow, p->rows->len - 1);
    g_string_append_printf(out,
                           "wsat         %.0f IOPS in round 1, %.0f in round %u after %.1f "
                           "GB (%.2f x capacity); WAF %.2f in the last round\n",
                           first->iops, last->iops, last->round, last->test_written / 1e9,
                           last->test_written / (double)p->capacity,
                           isnan(last->waf) ? 0.0 : last->waf);
}

/* The variables of pts_wsat.gp: how the test began (its title), and the
 * trend (its window from tb0 TB, its line, its verdict); tb0 < 0: none. */
static char *wsat_figure_vars(const Pts *p)
{
    const PtsSub *s = &p->subs[0];
    /* a WSAT the PTS would start purged: the title says how it began */
    static const char *const pre[] = {" after 2 x capacity of sequential writes",
                                      " after a sequential fill", " on an aged drive", ""};
    if (s->trend.n == 0)
        return g_strdup_printf("pre='%s'; tb0=-1; ", pre[p->o->precondition]);
    return g_strdup_printf("pre='%s'; tb0=%.17g; tb1=%.17g; tslope=%.17g; tint=%.17g; "
                           "tmean=%.17g; tword='%s %+.1f%% over the last capacity written'; ",
                           pre[p->o->precondition], s->trend.x_first, s->trend.x_last,
                           s->trend.slope, s->trend.intercept, s->trend.mean,
                           pts_trend_word(&s->trend), 100 * s->trend.change);
}

/* ---- iops: the block size x read/write mix matrix --------------------- */

static const uint64_t iops_bs[] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512};
static const uint32_t iops_mix[] = {100, 95, 65, 50, 35, 5, 0};

static void iops_csv(const Pts *p, GString *out)
{
    g_string_append(out, "bs_bytes,read_pct,iops\n");
    for (uint32_t c = 0; c < p->n_cells; c++)
        g_string_append_printf(out, "%" G_GUINT64_FORMAT ",%u,%.1f\n", p->cells[c].bs,
                               p->cells[c].read_pct, p->results[c].iops);
}

/* The IOPS matrix: block sizes down, mixes across. */
static void iops_summary(const Pts *p, GString *out)
{
    uint32_t mixes[PTS_MAX_CELLS], n_mix;
    uint64_t sizes[PTS_MAX_CELLS];
    uint32_t n_bs;
    pts_report_axes(p, sizes, &n_bs, mixes, &n_mix);
    g_string_append(out, "IOPS (steady-state window average)\n  block   ");
    for (uint32_t m = 0; m < n_mix; m++) {
        g_autofree char *h = g_strdup_printf("%u/%u", mixes[m], 100 - mixes[m]);
        g_string_append_printf(out, "%9s", h);
    }
    g_string_append_c(out, '\n');
    for (uint32_t b = 0; b < n_bs; b++) {
        g_autofree char *bs = pts_bs_label(sizes[b]);
        g_string_append_printf(out, "  %-8s", bs);
        for (uint32_t m = 0; m < n_mix; m++)
            for (uint32_t c = 0; c < p->n_cells; c++)
                if (p->cells[c].bs == sizes[b] && p->cells[c].read_pct == mixes[m])
                    g_string_append_printf(out, "%9.0f", p->results[c].iops);
        g_string_append_c(out, '\n');
    }
}

static double value_iops(const Pts *p, uint32_t c)
{
    return p->results[c].iops;
}

static void iops_html(HtmlPage *page, const Pts *p)
{
    pts_html_pivot(page, p, "IOPS, steady-state window average: block size by R/W mix",
                   value_iops, "%.0f");
}

static const PtsFigure iops_figures[] = {{"pts_iops_3d", "iops_3d", NULL}};

/* ---- tp: sequential throughput ---------------------------------------- */

static const uint64_t tp_bs[] = {1048576, 131072};
static const uint32_t tp_mix[] = {100, 0};

static double track_MBps(const PtsRow *row)
{
    return row->MBps;
}

static void tp_csv(const Pts *p, GString *out)
{
    g_string_append(out, "bs_bytes,read_pct,MBps,MiBps,steady_round\n");
    for (uint32_t s = 0; s < p->n_subs; s++)
        for (uint32_t c = p->subs[s].first_cell; c < p->subs[s].first_cell + p->subs[s].n_cells;
             c++)
            g_string_append_printf(out, "%" G_GUINT64_FORMAT ",%u,%.2f,%.2f,%u\n", p->cells[c].bs,
                                   p->cells[c].read_pct, p->results[c].MBps,
                                   p->results[c].MBps * 1e6 / 1048576.0, p->subs[s].steady_round);
}

static void tp_summary(const Pts *p, GString *out)
{
    uint32_t order[PTS_MAX_CELLS];
    pts_cells_in_report_order(p, order);
    for (uint32_t k = 0; k < p->n_cells; k++) {
        uint32_t c = order[k];
        g_autofree char *bs = pts_bs_label(p->cells[c].bs);
        g_string_append_printf(out, "  %-7s %-5s %8.1f MB/s\n", bs,
                               p->cells[c].read_pct ? "read" : "write", p->results[c].MBps);
    }
}

static double value_mbps(const Pts *p, uint32_t c)
{
    return p->results[c].MBps;
}

static void tp_html(HtmlPage *page, const Pts *p)
{
    pts_html_pivot(page, p, "Throughput (MB/s), steady-state window average: block size by "
                            "R/W mix (100/0 read, 0/100 write)",
                   value_mbps, "%.1f");
}

/* ---- lat: response times at 1 thread QD 1 ----------------------------- */

static const uint64_t lat_bs[] = {8192, 4096, 512};
static const uint32_t lat_mix[] = {100, 65, 0};

static double track_mean_us(const PtsRow *row)
{
    return row->mean_us;
}

static void lat_csv(const Pts *p, GString *out)
{
    g_string_append(out,
                    "bs_bytes,read_pct,iops,mean_us,p99_us,p99_9_us,p99_99_us,p99_999_us,max_us,"
                    "min_us\n");
    for (uint32_t c = 0; c < p->n_cells; c++) {
        const PtsResult *r = &p->results[c];
        g_string_append_printf(out,
                               "%" G_GUINT64_FORMAT ",%u,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n",
                               p->cells[c].bs, p->cells[c].read_pct, r->iops, r->mean_us, r->p99_us,
                               r->p999_us, r->p9999_us, r->p99999_us, r->max_us, r->min_us);
    }
}

static void lat_summary(const Pts *p, GString *out)
{
    g_string_append(out, "response times (us)     IOPS       min      mean       p99     p99.9    p99.99 "
                         "  p99.999       max\n");
    uint32_t order[PTS_MAX_CELLS];
    pts_cells_in_report_order(p, order);
    for (uint32_t k = 0; k < p->n_cells; k++) {
        uint32_t c = order[k];
        const PtsResult *r = &p->results[c];
        g_autofree char *bs = pts_bs_label(p->cells[c].bs);
        g_string_append_printf(out, "  %-7s %3u/%-3u %9.0f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n",
                               bs, p->cells[c].read_pct, 100 - p->cells[c].read_pct, r->iops,
                               r->min_us, r->mean_us, r->p99_us, r->p999_us, r->p9999_us, r->p99999_us,
                               r->max_us);
    }
}

static double value_mean(const Pts *p, uint32_t c) { return p->results[c].mean_us; }
static double value_max(const Pts *p, uint32_t c) { return p->results[c].max_us; }
static double value_min(const Pts *p, uint32_t c) { return p->results[c].min_us; }
static double value_p999(const Pts *p, uint32_t c) { return p->results[c].p999_us; }
static double value_p9999(const Pts *p, uint32_t c) { return p->results[c].p9999_us; }
static double value_p99999(const Pts *p, uint32_t c) { return p->results[c].p99999_us; }

static void lat_html(HtmlPage *page, const Pts *p)
{
    pts_html_pivot(page, p, "Average response time (us)", value_mean, "%.1f");
    pts_html_pivot(page, p, "Maximum response time (us)", value_max, "%.1f");
    pts_html_pivot(page, p, "Minimum response time (us): exact, as the maximum; the percentiles "
                            "are within 1%", value_min, "%.2f");
    pts_html_pivot(page, p, "99.9% response time, three nines (us)", value_p999, "%.1f");
    pts_html_pivot(page, p, "99.99% response time, four nines (us)", value_p9999, "%.1f");
    pts_html_pivot(page, p, "99.999% response time, five nines (us)", value_p99999, "%.1f");
    pts_html_pivot(page, p, "IOPS", value_iops, "%.0f");
}

/* PTS-E's LAT report draws its average and its maximum response time
 * tables as 3D bars too */
static const PtsFigure lat_figures[] = {{"pts_lat_3d", "lat_3d_mean", "stat='mean'; "},
                                        {"pts_lat_3d", "lat_3d_max", "stat='max'; "}};

/* ---- The tests, in the order --help and errors list them -------------- */

#define CELLS(bs_, mix_) .bs = bs_, .n_bs = G_N_ELEMENTS(bs_), .mix = mix_, .n_mix = G_N_ELEMENTS(mix_)

/* Threads and queue depth per thread: the PM863a review's (R3.2) for
 * PTS-E, which leaves them to the tester but for LAT. Under --spec client
 * those of the Client specification (docs/pts.md, "PTS-C"): IOPS T2Q16,
 * TP T1Q32 at 1024 KiB only, LAT T1Q1; WSAT keeps PTS-E's (no client value
 * found). */
static const PtsTestDesc wsat_test = {
    .name = "wsat", .about = "write saturation", .title = "write saturation (WSAT)",
    CELLS(wsat_bs, wsat_mix), .threads = 8, .iodepth = 16, .client_threads = 8,
    .client_iodepth = 16, .client_n_bs = 1, .max_rounds = UINT32_MAX, .fills = 4.0,
    .unit = "IOPS", .track_unit = "IOPS", .track_column = "iops", .track = track_iops, .table_csv = wsat_csv,
    .summary = wsat_summary, .figure_vars = wsat_figure_vars
};

static const PtsTestDesc iops_test = {
    .name = "iops", .about = "block size x R/W mix matrix", .title = "IOPS",
    CELLS(iops_bs, iops_mix), .threads = 16, .iodepth = 8, .client_threads = 2,
    .client_iodepth = 16, .client_n_bs = G_N_ELEMENTS(iops_bs), .max_rounds = 25,
    .unit = "IOPS", .track_unit = "IOPS", .track_column = "iops", .track = track_iops, .table_csv = iops_csv,
    .summary = iops_summary, .html_tables = iops_html, .figures = iops_figures,
    .n_figures = G_N_ELEMENTS(iops_figures)
};

static const PtsTestDesc tp_test = {
    .name = "tp", .about = "sequential MB/s", .title = "throughput (TP)", CELLS(tp_bs, tp_mix),
    .threads = 8, .iodepth = 16, .client_threads = 1, .client_iodepth = 32, .client_n_bs = 1,
    .max_rounds = 25, .seq = true, .unit = "MB/s", .track_unit = "MB/s", .track_column = "MBps",
    .track = track_MBps, .table_csv = tp_csv, .summary = tp_summary, .html_tables = tp_html
};

static const PtsTestDesc lat_test = {
    .name = "lat", .about = "response times at 1 thread QD 1", .title = "latency (LAT)",
    CELLS(lat_bs, lat_mix), .threads = 1, .iodepth = 1, .client_threads = 1,
    .client_iodepth = 1, .client_n_bs = G_N_ELEMENTS(lat_bs), .max_rounds = 25,
    .window_latency = true, .unit = "us", .track_unit = "us mean response",
    .track_column = "mean_us", .track = track_mean_us, .table_csv = lat_csv,
    .summary = lat_summary, .html_tables = lat_html, .figures = lat_figures,
    .n_figures = G_N_ELEMENTS(lat_figures)
};

/* The tests in files of their own (sim/cmd/pts_test_NAME.c, each defining
 * the descriptor pts_test_NAME): the build finds them and lists them in
 * pts_test_list.h, generated, so a new test touches no other code file. */
#define PTS_TEST(n) extern const PtsTestDesc n;
#include "pts_test_list.h"
#undef PTS_TEST

static const PtsTestDesc *const pts_tests[] = {
    &wsat_test, &iops_test, &tp_test, &lat_test,
#define PTS_TEST(n) &n,
#include "pts_test_list.h"
#undef PTS_TEST
};

const PtsTestDesc *pts_test_find(const char *name)
{
    for (unsigned t = 0; t < G_N_ELEMENTS(pts_tests); t++)
        if (g_strcmp0(name, pts_tests[t]->name) == 0)
            return pts_tests[t];
    return NULL;
}

const char *pts_test_name(const PtsTestDesc *test)
{
    return test ? test->name : "?";
}

gboolean pts_test_purged(const PtsTestDesc *test)
{
    return test && (test->fills > 0 || test->purged);
}

static const char *const precondition_names[] = {
    [PTS_PRECOND_FULL] = "full",
    [PTS_PRECOND_FAST] = "fast",
    [PTS_PRECOND_RANDOM] = "random",
    [PTS_PRECOND_NONE] = "none",
};

const char *pts_precondition_name(PtsPrecondition how)
{
    return precondition_names[how];
}

gboolean pts_precondition_find(const char *name, PtsPrecondition *how)
{
    for (size_t k = 0; k < G_N_ELEMENTS(precondition_names); k++)
        if (strcmp(name, precondition_names[k]) == 0) {
            *how = (PtsPrecondition)k;
            return TRUE;
        }
    return FALSE;
}

/* "A, B, C or D" of each test's NAME (with " (ABOUT)" when about). */
static char *pts_test_list(gboolean about, const char *(*value)(const PtsTestDesc *t))
{
    GString *s = g_string_new(NULL);
    unsigned n = G_N_ELEMENTS(pts_tests);
    for (unsigned t = 0; t < n; t++) {
        g_string_append(s, t == 0 ? "" : t + 1 == n && !value ? " or " : ", ");
        g_string_append(s, pts_tests[t]->name);
        if (about)
            g_string_append_printf(s, " (%s)", pts_tests[t]->about);
        if (value)
            g_string_append_printf(s, " %s", value(pts_tests[t]));
    }
    return g_string_free(s, FALSE);
}

char *pts_test_names(gboolean about)
{
    return pts_test_list(about, NULL);
}

/* t's place in pts_tests[] */
static unsigned pts_test_index(const PtsTestDesc *t)
{
    unsigned i = 0;
    while (pts_tests[i] != t)
        i++;
    return i;
}

static const char *threads_of(const PtsTestDesc *t)
{
    static char buf[G_N_ELEMENTS(pts_tests)][12];
    g_snprintf(buf[pts_test_index(t)], sizeof buf[0], "%u", t->threads);
    return buf[pts_test_index(t)];
}

static const char *iodepth_of(const PtsTestDesc *t)
{
    static char buf[G_N_ELEMENTS(pts_tests)][12];
    g_snprintf(buf[pts_test_index(t)], sizeof buf[0], "%u", t->iodepth);
    return buf[pts_test_index(t)];
}

/* "2 x 16": a test's threads x queue depth under --spec client */
static const char *client_of(const PtsTestDesc *t)
{
    static char buf[G_N_ELEMENTS(pts_tests)][24];
    g_snprintf(buf[pts_test_index(t)], sizeof buf[0], "%u x %u", t->client_threads,
               t->client_iodepth);
    return buf[pts_test_index(t)];
}

char *pts_test_defaults(gboolean iodepth, gboolean client)
{
    return pts_test_list(FALSE, client ? client_of : iodepth ? iodepth_of : threads_of);
}
