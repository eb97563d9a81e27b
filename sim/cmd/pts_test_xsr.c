/*
 * pts_test_xsr.c - PTS-E 1.1 Cross Stimulus Recovery (XSR): from the
 * purged drive, three access groups back to back with no pause and no
 * rounds: 1024 KiB sequential writes, 8 KiB random writes, then 1024 KiB
 * sequential writes again, each measured in intervals of --round-time
 * (the PTS: 1 minute). How long the third group takes to reach the first
 * group's throughput again is what the random writes cost the drive.
 */
#include "sim/cmd/pts_impl.h"

#include <math.h>
#include <string.h>

/* The PTS's 8 h, 6 h and 8 h in its 1-minute intervals. */
#define XSR_GROUPS 3
static const uint32_t xsr_intervals[XSR_GROUPS] = {480, 360, 480};
static const PtsCell xsr_stimulus[XSR_GROUPS] = {
    {.bs = 1048576, .seq = true}, {.bs = 8192}, {.bs = 1048576, .seq = true}};
static const char *const xsr_names[XSR_GROUPS] = {"SEQ 1024KiB", "RND 8KiB", "SEQ 1024KiB"};

/* The cells --bs and --mix would name (refused for this test: pts_plan()). */
static const uint64_t xsr_bs[] = {1048576, 8192};
static const uint32_t xsr_mix[] = {0};

/* A sequential group's stream goes on from where its last interval ended
 * (each interval is a job of its own, which would start again at LBA 0),
 * and starts again at LBA 0 when the next interval would pass the active
 * range's end: a job wraps within its own region, which would rewrite the
 * region's tail over and over. */
static uint64_t xsr_next_offset(const Pts *p, uint64_t offset, const PtsPeriod *q, uint64_t bs)
{
    uint64_t written = (uint64_t)llround(q->MBps * q->seconds * 1e6) / bs * bs;
    uint64_t end = (uint64_t)pts_active_bytes(p) / bs * bs;
    offset += written;
    return offset + 2 * written > end ? 0 : offset;
}

static gboolean xsr_after(Pts *p, uint32_t sub, GError **error)
{
    (void)sub;
    double total = 0, done = 0;
    for (unsigned g = 0; g < XSR_GROUPS; g++)
        total += xsr_intervals[g];
    for (uint32_t g = 1; g <= XSR_GROUPS; g++) {
        PtsCell c = xsr_stimulus[g - 1];
        g_snprintf(p->progress_label, sizeof p->progress_label, "%s access group %u of %u (%s)",
                   p->t->name, g, XSR_GROUPS, xsr_names[g - 1]);
        for (uint32_t i = 1; i <= xsr_intervals[g - 1]; i++, done++) {
            runner_set_progress_scope(p->run, p->progress_label, done / total, 1 / total);
            if (!pts_period(p, &c, p->threads, p->iodepth, p->o->round_time, g, i, NULL, error))
                return FALSE;
            if (c.seq)
                c.offset = xsr_next_offset(
                    p, c.offset, &g_array_index(p->periods, PtsPeriod, p->periods->len - 1), c.bs);
        }
    }
    progress_finish(p->progress);
    return TRUE;
}

/* What one access group did over its intervals. */
typedef struct XsrGroup {
    uint32_t n;               /* intervals run */
    double first_MBps, last_MBps, avg_MBps, min_MBps;
    double first_iops, last_iops, avg_iops;
    double peak_mean_us, peak_max_us; /* the largest interval's average and maximum */
} XsrGroup;

static void xsr_group(const Pts *p, uint32_t g, XsrGroup *x)
{
    memset(x, 0, sizeof *x);
    x->min_MBps = INFINITY;
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        if (q->group != g)
            continue;
        if (x->n++ == 0) {
            x->first_MBps = q->MBps;
            x->first_iops = q->iops;
        }
        x->last_MBps = q->MBps;
        x->last_iops = q->iops;
        x->avg_MBps += q->MBps;
        x->avg_iops += q->iops;
        x->min_MBps = MIN(x->min_MBps, q->MBps);
        x->peak_mean_us = MAX(x->peak_mean_us, q->mean_us);
        x->peak_max_us = MAX(x->peak_max_us, q->max_us);
    }
    if (x->n) {
        x->avg_MBps /= x->n;
        x->avg_iops /= x->n;
    } else {
        x->min_MBps = 0;
    }
}

/* The recovery: the first interval of group 3 whose MB/s reach group 1's
 * average (the rule of the public PTS implementation docs/pts.md names);
 * 0: none did. */
static uint32_t xsr_recovery(const Pts *p)
{
    XsrGroup g1;
    xsr_group(p, 1, &g1);
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        if (q->group == 3 && q->MBps >= g1.avg_MBps)
            return q->index;
    }
    return 0;
}

static double xsr_interval_s(const Pts *p)
{
    return (double)p->o->round_time / 1e9;
}

static void xsr_csv(const Pts *p, GString *out)
{
    g_string_append(out, "n,group,stimulus,bs_bytes,access,interval,t_s,MBps,iops,mean_us,p99_us,"
                         "max_us,waf\n");
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        const PtsCell *c = &xsr_stimulus[q->group - 1];
        g_string_append_printf(out,
                               "%u,%u,%s,%" G_GUINT64_FORMAT ",%s,%u,%.4f,%.2f,%.1f,%.2f,%.2f,"
                               "%.2f,%.3f\n",
                               i + 1, q->group, xsr_names[q->group - 1], c->bs, c->seq ? "seq" : "random",
                               q->index, q->t_end_s - p->t0_s, q->MBps, q->iops, q->mean_us,
                               q->p99_us, q->max_us, isnan(q->waf) ? 0.0 : q->waf);
    }
}

/* "after 12 intervals (1.2 s)" or "not within group 3" */
static char *xsr_recovery_text(const Pts *p)
{
    uint32_t r = xsr_recovery(p);
    if (!r)
        return g_strdup("not within access group 3");
    return g_strdup_printf("in interval %u of access group 3 (%.4g s)", r, r * xsr_interval_s(p));
}

static void xsr_summary(const Pts *p, GString *out)
{
    g_string_append_printf(out, "cross stimulus recovery (intervals of %g s)\n"
                                "  group  stimulus      intervals  first MB/s  last MB/s  "
                                "avg MB/s   avg IOPS  peak ART us  peak MRT us\n",
                           xsr_interval_s(p));
    for (uint32_t g = 1; g <= XSR_GROUPS; g++) {
        XsrGroup x;
        xsr_group(p, g, &x);
        g_string_append_printf(out, "  %-6u %-13s %9u %11.1f %10.1f %9.1f %10.0f %12.1f %12.1f\n",
                               g, xsr_names[g - 1], x.n, x.first_MBps, x.last_MBps, x.avg_MBps,
                               x.avg_iops, x.peak_mean_us, x.peak_max_us);
    }
    XsrGroup g1;
    xsr_group(p, 1, &g1);
    g_autofree char *rec = xsr_recovery_text(p);
    g_string_append_printf(out, "  recovery: group 3 reached group 1's average %.1f MB/s %s\n",
                           g1.avg_MBps, rec);
}

static void xsr_json(const Pts *p, JsonWriter *jw)
{
    json_begin_object(jw, "xsr");
    json_double(jw, "interval_s", xsr_interval_s(p));
    json_begin_array(jw, "groups");
    for (uint32_t g = 1; g <= XSR_GROUPS; g++) {
        XsrGroup x;
        xsr_group(p, g, &x);
        json_begin_object(jw, NULL);
        json_u64(jw, "group", g);
        json_str(jw, "stimulus", xsr_names[g - 1]);
        json_u64(jw, "bs_bytes", xsr_stimulus[g - 1].bs);
        json_str(jw, "access", xsr_stimulus[g - 1].seq ? "seq" : "random");
        json_u64(jw, "intervals", x.n);
        json_double(jw, "first_MBps", x.first_MBps);
        json_double(jw, "last_MBps", x.last_MBps);
        json_double(jw, "avg_MBps", x.avg_MBps);
        json_double(jw, "min_MBps", x.min_MBps);
        json_double(jw, "avg_iops", x.avg_iops);
        json_double(jw, "peak_mean_us", x.peak_mean_us);
        json_double(jw, "peak_max_us", x.peak_max_us);
        json_end_object(jw);
    }
    json_end_array(jw);
    uint32_t r = xsr_recovery(p);
    if (r)
        json_u64(jw, "recovery_interval", r);
    else
        json_null(jw, "recovery_interval");
    json_end_object(jw);
}

static void xsr_html(HtmlPage *page, const Pts *p)
{
    static const char *const header[] = {"access group", "stimulus", "duration",
                                         "MB/s at its end", "average MB/s", "average IOPS",
                                         "ART, peak (us)", "MRT, peak (us)", NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (uint32_t g = 1; g <= XSR_GROUPS; g++) {
        XsrGroup x;
        xsr_group(p, g, &x);
        char **r = g_new0(char *, 9);
        r[0] = g_strdup_printf("%u", g);
        r[1] = g_strdup_printf("%s W, %u thread%s x QD %u", xsr_names[g - 1], p->threads,
                               p->threads == 1 ? "" : "s", p->iodepth);
        r[2] = g_strdup_printf("%u x %g s", x.n, xsr_interval_s(p));
        r[3] = g_strdup_printf("%.1f", x.last_MBps);
        r[4] = g_strdup_printf("%.1f", x.avg_MBps);
        r[5] = g_strdup_printf("%.0f", x.avg_iops);
        r[6] = g_strdup_printf("%.1f", x.peak_mean_us);
        r[7] = g_strdup_printf("%.1f", x.peak_max_us);
        g_ptr_array_add(rows, r);
    }
    XsrGroup g1;
    xsr_group(p, 1, &g1);
    g_autofree char *rec = xsr_recovery_text(p);
    g_autofree char *caption = g_strdup_printf(
        "Cross stimulus recovery: throughput, average (ART) and maximum (MRT) response time of "
        "each access group; recovery: group 3 reached group 1's average %.1f MB/s %s",
        g1.avg_MBps, rec);
    html_table(page, header, rows, caption);
    g_ptr_array_free(rows, TRUE);
}

static char *xsr_figure_vars(const Pts *p)
{
    XsrGroup g1;
    xsr_group(p, 1, &g1);
    return g_strdup_printf("interval=%.17g; g1avg=%.17g; recovery=%u; ", xsr_interval_s(p),
                           g1.avg_MBps, xsr_recovery(p));
}

static double track_MBps(const PtsRow *row)
{
    return row->MBps;
}

const PtsTestDesc pts_test_xsr = {
    .name = "xsr",
    .about = "cross stimulus recovery",
    .title = "cross stimulus recovery (XSR)",
    .bs = xsr_bs,
    .n_bs = G_N_ELEMENTS(xsr_bs),
    .mix = xsr_mix,
    .n_mix = G_N_ELEMENTS(xsr_mix),
    .threads = 1,
    .iodepth = 32,
    .client_threads = 1,
    .client_iodepth = 32,
    .client_n_bs = G_N_ELEMENTS(xsr_bs),
    .max_rounds = 0,
    .purged = true,
    .no_rounds = true,
    .unit = "MB/s",
    .track_unit = "MB/s",
    .track_column = "MBps",
    .track = track_MBps,
    .table_csv = xsr_csv,
    .table_rows = 24, /* of 1320 intervals: the table above sums them */
    .summary = xsr_summary,
    .html_tables = xsr_html,
    .figure_vars = xsr_figure_vars,
    .after = xsr_after,
    .json = xsr_json,
};
