/*
 * pts_test_hir.c - PTS-E 1.1 Host Idle Recovery (HIR): 4 KiB random writes
 * to steady state (the rounds), then for each wait state a run of access
 * periods of random writes each followed by that much host idle time,
 * then as long again of writes without idle (the return to baseline).
 * How much the IOPS of the access periods exceed the baseline's is what
 * the drive recovered while the host was idle (its background GC).
 */
#include "sim/cmd/pts_impl.h"

#include <math.h>

/* The PTS's access period is 5 s against 60 s rounds: a twelfth of
 * --round-time; its wait states 5, 10, 15, 25 and 50 s are these
 * multiples of it, and each wait state repeats the pair 360 times. */
#define HIR_PERIOD_DIV 12
#define HIR_REPEATS 360
static const uint32_t hir_waits[] = {1, 2, 3, 5, 10};

static const uint64_t hir_bs[] = {4096};
static const uint32_t hir_mix[] = {0};

/* Group 2k - 1: wait state k's access periods; 2k: its baseline. */
static gboolean hir_after(Pts *p, uint32_t sub, GError **error)
{
    const PtsCell *c = &p->cells[p->subs[sub].track];
    SimTime period = p->o->round_time / HIR_PERIOD_DIV;
    for (uint32_t k = 1; k <= G_N_ELEMENTS(hir_waits); k++) {
        for (uint32_t i = 1; i <= HIR_REPEATS; i++)
            if (!pts_period(p, c, p->threads, p->iodepth, period, 2 * k - 1, i, NULL, error) ||
                !pts_idle(p, period * hir_waits[k - 1], error))
                return FALSE;
        for (uint32_t i = 1; i <= HIR_REPEATS; i++)
            if (!pts_period(p, c, p->threads, p->iodepth, period, 2 * k, i, NULL, error))
                return FALSE;
    }
    return TRUE;
}

/* The average IOPS of group g's periods; NAN without any. */
static double hir_group_iops(const Pts *p, uint32_t g)
{
    double sum = 0, n = 0;
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        if (q->group == g) {
            sum += q->iops;
            n++;
        }
    }
    return n > 0 ? sum / n : NAN;
}

static double hir_wait_s(const Pts *p, uint32_t k)
{
    return (double)(p->o->round_time / HIR_PERIOD_DIV) * hir_waits[k - 1] / 1e9;
}

static double track_iops(const PtsRow *row)
{
    return row->iops;
}

static void hir_csv(const Pts *p, GString *out)
{
    g_string_append(out, "wait_state,wait_s,phase,period,t_s,idle_before_s,iops,mean_us,p99_us,"
                         "max_us,waf\n");
    for (guint i = 0; i < p->periods->len; i++) {
        const PtsPeriod *q = &g_array_index(p->periods, PtsPeriod, i);
        uint32_t k = (q->group + 1) / 2;
        g_string_append_printf(out, "%u,%.4g,%s,%u,%.4f,%.4g,%.1f,%.2f,%.2f,%.2f,%.3f\n", k,
                               hir_wait_s(p, k), q->group % 2 ? "wait" : "baseline", q->index,
                               q->t_end_s - p->t0_s, q->idle_s, q->iops, q->mean_us, q->p99_us,
                               q->max_us, isnan(q->waf) ? 0.0 : q->waf);
    }
}

/* The wait states that ran (all unless a signal stopped the test). */
static uint32_t hir_states(const Pts *p)
{
    if (p->periods->len == 0)
        return 0;
    uint32_t g = g_array_index(p->periods, PtsPeriod, p->periods->len - 1).group;
    return (g + 1) / 2;
}

static void hir_summary(const Pts *p, GString *out)
{
    double ss = p->subs[0].win.avg;
    g_string_append_printf(out, "host idle recovery (4 KiB random writes; steady state %.0f IOPS)\n"
                                "  wait state   idle   IOPS with idle   baseline IOPS   "
                                "with idle / baseline\n",
                           ss);
    for (uint32_t k = 1; k <= hir_states(p); k++) {
        double w = hir_group_iops(p, 2 * k - 1), b = hir_group_iops(p, 2 * k);
        g_string_append_printf(out, "  %-10u %6.3gs %16.0f %15.0f %22.2f\n", k, hir_wait_s(p, k),
                               w, b, isnan(b) || b <= 0 ? 0.0 : w / b);
    }
}

static void hir_html(HtmlPage *page, const Pts *p)
{
    static const char *const header[] = {"wait state",
                                         "host idle after each access period (s)",
                                         "IOPS of the access periods",
                                         "IOPS of the return to baseline",
                                         "with idle / baseline",
                                         NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (uint32_t k = 1; k <= hir_states(p); k++) {
        double w = hir_group_iops(p, 2 * k - 1), b = hir_group_iops(p, 2 * k);
        char **r = g_new0(char *, 6);
        r[0] = g_strdup_printf("%u", k);
        r[1] = g_strdup_printf("%.4g", hir_wait_s(p, k));
        r[2] = g_strdup_printf("%.0f", w);
        r[3] = isnan(b) ? g_strdup("") : g_strdup_printf("%.0f", b);
        r[4] = isnan(b) || b <= 0 ? g_strdup("") : g_strdup_printf("%.2f", w / b);
        g_ptr_array_add(rows, r);
    }
    g_autofree char *caption = g_strdup_printf(
        "Host idle recovery: 4 KiB random write IOPS of %u access periods of %.3g s each followed "
        "by the wait state's idle time, then of as many without idle; steady state before them "
        "%.0f IOPS",
        HIR_REPEATS, (double)(p->o->round_time / HIR_PERIOD_DIV) / 1e9, p->subs[0].win.avg);
    html_table(page, header, rows, caption);
    g_ptr_array_free(rows, TRUE);
}

static char *hir_figure_vars(const Pts *p)
{
    return g_strdup_printf("ss=%.17g; period=%.17g; ", p->subs[0].win.avg,
                           (double)(p->o->round_time / HIR_PERIOD_DIV) / 1e9);
}

const PtsTestDesc pts_test_hir = {
    .name = "hir",
    .about = "host idle recovery",
    .title = "host idle recovery (HIR)",
    .bs = hir_bs,
    .n_bs = G_N_ELEMENTS(hir_bs),
    .mix = hir_mix,
    .n_mix = G_N_ELEMENTS(hir_mix),
    .threads = 8,
    .iodepth = 16,
    .client_threads = 8,
    .client_iodepth = 16,
    .client_n_bs = 1,
    .max_rounds = 25,
    .unit = "IOPS",
    .track_unit = "IOPS",
    .track_column = "iops",
    .track = track_iops,
    .table_csv = hir_csv,
    .table_rows = 24, /* of 3600 periods: the table above sums them */
    .summary = hir_summary,
    .html_tables = hir_html,
    .figure_vars = hir_figure_vars,
    .after = hir_after,
};
