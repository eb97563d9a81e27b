/*
 * histogram.c - log-linear latency histogram (HDR style), see histogram.h.
 * One bucket per ns below 128 ns; each power of two [2^e, 2^(e+1)), e = 7..36,
 * split into 128 equal buckets (width <= 1/128 of the value); from 2^37 ns
 * (~137 s) up, the last bucket. Count, sum, min and max are exact.
 */
#include "sim/engine/histogram.h"

#include <math.h>
#include <string.h>

#define LAT_SUB_BITS 7
#define LAT_SUB_COUNT (1u << LAT_SUB_BITS)          /* buckets per power of two */
#define LAT_TOP_EXP 36                              /* highest power of two covered */
#define LAT_GROUPS (LAT_TOP_EXP - LAT_SUB_BITS + 2) /* the linear group + one per exponent */
#define LAT_BUCKETS (LAT_GROUPS * LAT_SUB_COUNT)
#define LAT_LIMIT (UINT64_C(1) << (LAT_TOP_EXP + 1)) /* ns; first clamped value */

struct LatHist {
    uint64_t count;                /* values recorded */
    uint64_t sum;                  /* ns; sum of all values */
    uint64_t min;                  /* ns; UINT64_MAX when empty */
    uint64_t max;                  /* ns; 0 when empty */
    uint64_t buckets[LAT_BUCKETS]; /* values per bucket */
};

size_t lat_hist_bytes(void)
{
    return sizeof(LatHist);
}

LatHist *lat_hist_new(void)
{
    LatHist *h = g_new(LatHist, 1);
    lat_hist_reset(h);
    return h;
}

void lat_hist_free(LatHist *h)
{
    g_free(h);
}

void lat_hist_reset(LatHist *h)
{
    g_return_if_fail(h != NULL);
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

/* Bucket index of a value: O(1), one count-leading-zeros and no other
 * branch below the clamp. With s = max(0, e - 7) for ns in [2^e, 2^(e+1)),
 * the index is s * 128 + (ns >> s): the linear group below 256 ns (s = 0)
 * and, above, group e - 6 at sub-bucket (ns >> s) - 128. */
static inline unsigned lat_bucket_of(uint64_t ns)
{
    if (ns >= LAT_LIMIT)
        return LAT_BUCKETS - 1;
    unsigned e = 63u - (unsigned)__builtin_clzll(ns | 1);
    unsigned s = e > LAT_SUB_BITS ? e - LAT_SUB_BITS : 0;
    return (s << LAT_SUB_BITS) + (unsigned)(ns >> s);
}

/* Lower edge (inclusive) and width of a bucket, ns. */
static void lat_bucket_range(unsigned idx, uint64_t *low, uint64_t *width)
{
    if (idx < LAT_SUB_COUNT) {
        *low = idx;
        *width = 1;
        return;
    }
    unsigned group = idx / LAT_SUB_COUNT; /* 1 for [128, 256) */
    unsigned sub = idx % LAT_SUB_COUNT;
    *width = UINT64_C(1) << (group - 1);
    *low = (uint64_t)(LAT_SUB_COUNT + sub) << (group - 1);
}

static inline void lat_hist_add(LatHist *h, unsigned idx, uint64_t ns)
{
    h->buckets[idx]++;
    h->count++;
    h->sum += ns;
    if (ns < h->min)
        h->min = ns;
    if (ns > h->max)
        h->max = ns;
}

void lat_hist_record(LatHist *h, uint64_t ns)
{
    lat_hist_add(h, lat_bucket_of(ns), ns);
}

void lat_hist_record2(LatHist *a, LatHist *b, uint64_t ns)
{
    unsigned idx = lat_bucket_of(ns);
    lat_hist_add(a, idx, ns);
    lat_hist_add(b, idx, ns);
}

void lat_hist_merge(LatHist *dst, const LatHist *src)
{
    g_return_if_fail(dst != NULL && src != NULL);
    for (unsigned i = 0; i < LAT_BUCKETS; i++)
        dst->buckets[i] += src->buckets[i];
    dst->count += src->count;
    dst->sum += src->sum;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
}

gboolean lat_hist_next_bucket(const LatHist *h, unsigned *idx, uint64_t *low_ns, uint64_t *count)
{
    for (; *idx < LAT_BUCKETS; (*idx)++) {
        if (h->buckets[*idx]) {
            uint64_t width;
            lat_bucket_range(*idx, low_ns, &width);
            *count = h->buckets[(*idx)++];
            return TRUE;
        }
    }
    return FALSE;
}

uint64_t lat_hist_count(const LatHist *h)
{
    return h->count;
}

double lat_hist_mean(const LatHist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

uint64_t lat_hist_min(const LatHist *h)
{
    return h->count ? h->min : 0;
}

uint64_t lat_hist_max(const LatHist *h)
{
    return h->max;
}

/* The smallest bucket whose cumulative count reaches rank = ceil(pct% of
 * count); its midpoint, kept within the exact [min, max], is the answer. */
uint64_t lat_hist_percentile(const LatHist *h, double pct)
{
    g_return_val_if_fail(h != NULL, 0);
    if (h->count == 0)
        return 0;
    if (!(pct > 0.0))
        return h->min;
    if (pct >= 100.0)
        return h->max;
    double r = ceil(pct / 100.0 * (double)h->count);
    uint64_t rank = r < 1.0 ? 1 : (r >= (double)h->count ? h->count : (uint64_t)r);
    if (rank == h->count)
        return h->max;
    uint64_t cum = 0;
    unsigned i = 0;
    for (; i < LAT_BUCKETS - 1; i++) {
        cum += h->buckets[i];
        if (cum >= rank)
            break;
    }
    uint64_t low, width;
    lat_bucket_range(i, &low, &width);
    uint64_t mid = low + (width - 1) / 2;
    return CLAMP(mid, h->min, h->max);
}

/* One CSV row per non-empty bucket; bucket_high_ns is the exclusive upper
 * edge. Returns FALSE when the stream reports a write error. */
gboolean lat_hist_write_csv(const LatHist *h, FILE *f)
{
    g_return_val_if_fail(h != NULL && f != NULL, FALSE);
    fputs("bucket_low_ns,bucket_high_ns,count,cumulative_fraction\n", f);
    uint64_t cum = 0;
    for (unsigned i = 0; i < LAT_BUCKETS; i++) {
        if (h->buckets[i] == 0)
            continue;
        uint64_t low, width;
        lat_bucket_range(i, &low, &width);
        cum += h->buckets[i];
        char frac[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd(frac, sizeof frac, "%.10g", (double)cum / (double)h->count);
        fprintf(f, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s\n", low,
                low + width, h->buckets[i], frac);
    }
    return !ferror(f);
}
