/*
 * pts_format.c - how the PTS's cells, specifications and verdicts are
 * written: block size labels, the specification's short name, the trend's
 * word, and a table of one value per cell for report.html. A leaf: the
 * driver, its files, its page and every test's descriptor use it.
 */
#include "sim/cmd/pts_impl.h"

#include <math.h>
#include <stdlib.h>

char *pts_bs_label(uint64_t bs)
{
    if (bs == 0) /* the test's job sets a mix of sizes (ecw) */
        return g_strdup("mixed-size");
    if (bs < 1024)
        return g_strdup_printf("%.1fKiB", (double)bs / 1024);
    if (bs < 1048576)
        return g_strdup_printf("%" G_GUINT64_FORMAT "KiB", bs / 1024);
    return g_strdup_printf("%" G_GUINT64_FORMAT "MiB", bs / 1048576);
}

const char *pts_spec_short(PtsSpec spec)
{
    return spec == PTS_SPEC_CLIENT ? "PTS-C 1.2" : "PTS-E 1.1";
}

const char *pts_trend_word(const SteadyTrend *t)
{
    return t->flat ? "flat" : t->change < 0 ? "falling" : "rising";
}

static int pts_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int pts_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void pts_report_axes(const Pts *p, uint64_t *bs, uint32_t *n_bs, uint32_t *read_pct,
                     uint32_t *n_mix)
{
    *n_bs = *n_mix = 0;
    for (uint32_t c = 0; c < p->n_cells; c++) {
        uint32_t m = 0, b = 0;
        while (m < *n_mix && read_pct[m] != p->cells[c].read_pct)
            m++;
        if (m == *n_mix)
            read_pct[(*n_mix)++] = p->cells[c].read_pct;
        while (b < *n_bs && bs[b] != p->cells[c].bs)
            b++;
        if (b == *n_bs)
            bs[(*n_bs)++] = p->cells[c].bs;
    }
    qsort(bs, *n_bs, sizeof *bs, pts_cmp_u64);
    qsort(read_pct, *n_mix, sizeof *read_pct, pts_cmp_u32);
}

void pts_cells_in_report_order(const Pts *p, uint32_t *order)
{
    for (uint32_t c = 0; c < p->n_cells; c++)
        order[c] = c;
    /* insertion sort: a test has at most PTS_MAX_CELLS cells */
    for (uint32_t i = 1; i < p->n_cells; i++)
        for (uint32_t j = i; j > 0; j--) {
            const PtsCell *a = &p->cells[order[j - 1]], *b = &p->cells[order[j]];
            if (a->bs < b->bs || (a->bs == b->bs && a->read_pct <= b->read_pct))
                break;
            uint32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

void pts_html_pivot(HtmlPage *page, const Pts *p, const char *caption,
                    double (*value)(const Pts *p, uint32_t c), const char *fmt)
{
    uint32_t mix_pct[PTS_MAX_CELLS], n_mix;
    uint64_t bss[PTS_MAX_CELLS];
    uint32_t n_bs;
    pts_report_axes(p, bss, &n_bs, mix_pct, &n_mix);
    GPtrArray *header = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(header, g_strdup("block size"));
    for (uint32_t m = 0; m < n_mix; m++)
        g_ptr_array_add(header, g_strdup_printf("%u/%u", mix_pct[m], 100 - mix_pct[m]));
    g_ptr_array_add(header, NULL);
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    for (uint32_t b = 0; b < n_bs; b++) {
        char **r = g_new0(char *, n_mix + 2);
        r[0] = pts_bs_label(bss[b]);
        for (uint32_t m = 0; m < n_mix; m++) {
            double v = NAN;
            for (uint32_t c = 0; c < p->n_cells; c++)
                if (p->cells[c].bs == bss[b] && p->cells[c].read_pct == mix_pct[m])
                    v = value(p, c);
            r[m + 1] = isnan(v) ? g_strdup("") : g_strdup_printf(fmt, v);
        }
        g_ptr_array_add(rows, r);
    }
    html_table(page, (const char *const *)header->pdata, rows, caption);
    g_ptr_array_free(rows, TRUE);
    g_ptr_array_free(header, TRUE);
}

void pts_html_tq(HtmlPage *page, const char *caption, const uint32_t *threads,
                 const uint32_t *iodepth, const double *values, guint n, const char *fmt)
{
    GArray *qd = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *header = g_ptr_array_new();
    g_ptr_array_add(header, "threads \\ QD");
    for (guint i = 0; i < n; i++) {
        gboolean seen = FALSE;
        for (guint k = 0; k < qd->len; k++)
            seen |= g_array_index(qd, uint32_t, k) == iodepth[i];
        if (!seen) {
            g_array_append_val(qd, iodepth[i]);
            g_ptr_array_add(labels, g_strdup_printf("%u", iodepth[i]));
            g_ptr_array_add(header, g_ptr_array_index(labels, labels->len - 1));
        }
    }
    g_ptr_array_add(header, NULL);
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    char **r = NULL;
    for (guint i = 0; i < n; i++) {
        if (i == 0 || threads[i] != threads[i - 1]) {
            r = g_new0(char *, qd->len + 2);
            r[0] = g_strdup_printf("%u", threads[i]);
            for (guint k = 0; k < qd->len; k++)
                r[k + 1] = g_strdup("");
            g_ptr_array_add(rows, r);
        }
        for (guint k = 0; k < qd->len; k++)
            if (g_array_index(qd, uint32_t, k) == iodepth[i]) {
                g_free(r[k + 1]);
                r[k + 1] = g_strdup_printf(fmt, values[i]);
            }
    }
    html_table(page, (const char *const *)header->pdata, rows, caption);
    g_ptr_array_free(rows, TRUE);
    g_ptr_array_free(header, TRUE);
    g_ptr_array_free(labels, TRUE);
    g_array_free(qd, TRUE);
}

void pts_hist_csv(GString *out, const char *point, uint32_t threads, uint32_t iodepth,
                  const LatHist *h)
{
    uint64_t total = lat_hist_count(h), sum = 0, low = 0, count = 0;
    unsigned idx = 0;
    while (lat_hist_next_bucket(h, &idx, &low, &count)) {
        sum += count;
        g_string_append_printf(out, "%s,%u,%u,%.3f,%" G_GUINT64_FORMAT ",%.6f\n", point, threads,
                               iodepth, (double)low / 1e3, count,
                               total ? (double)sum / (double)total : 0.0);
    }
}
