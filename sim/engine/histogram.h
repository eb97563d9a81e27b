/*
 * histogram.h - latency histograms with logarithmic buckets (HDR style).
 *
 * Fixed memory, no allocation on record. Buckets cover ~100 ns to ~100 s
 * (values outside are clamped into the end buckets but min/max stay exact)
 * with at most 1% relative error on any percentile.
 */
#ifndef FTLSIM_HISTOGRAM_H
#define FTLSIM_HISTOGRAM_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

typedef struct LatHist LatHist;

LatHist *lat_hist_new(void);
/* Bytes one histogram takes (for memory estimates). */
size_t lat_hist_bytes(void);
void lat_hist_free(LatHist *h); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LatHist, lat_hist_free)

void lat_hist_reset(LatHist *h);
void lat_hist_record(LatHist *h, uint64_t ns);
/* The same value into two histograms (a job's and the overall one), its
 * bucket found once. */
void lat_hist_record2(LatHist *a, LatHist *b, uint64_t ns);
void lat_hist_merge(LatHist *dst, const LatHist *src);

uint64_t lat_hist_count(const LatHist *h);
double lat_hist_mean(const LatHist *h); /* ns; exact (from a running sum) */
uint64_t lat_hist_min(const LatHist *h); /* ns; exact */
uint64_t lat_hist_max(const LatHist *h); /* ns; exact */
/* The value at percentile pct (0..100], ns, within 1%. 0 when empty. */
uint64_t lat_hist_percentile(const LatHist *h, double pct);
/* The next non-empty bucket from *idx (start at 0): its lower edge (ns) and
 * count; *idx moves past it. FALSE when there is none. */
gboolean lat_hist_next_bucket(const LatHist *h, unsigned *idx, uint64_t *low_ns, uint64_t *count);

/* Write the non-empty buckets as CSV: header
 * "bucket_low_ns,bucket_high_ns,count,cumulative_fraction". */
gboolean lat_hist_write_csv(const LatHist *h, FILE *f);

#endif
