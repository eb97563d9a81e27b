/*
 * fio_text.c - a run's jobs in fio's text outputs, --output-format=normal
 * and terse (version 3), line for line and field for field as fio 3.33's
 * stat.c writes them, from the figures fio's JSON shows (fio_json.c). What
 * ftlsim does not simulate is written as fio writes it for a job without
 * it: the host's CPU 0, no errors, slat 0.
 */
#include "sim/output/fio_text.h"

#include "sim/engine/version.h"
#include "sim/output/fio_priv.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { N2S_NONE, N2S_PERSEC, N2S_BYTE, N2S_BIT, N2S_BYTEPERSEC, N2S_BITPERSEC };

/* fio's num2str(): num in at most maxlen digits, a unit prefix (SI, or IEC
 * with pow2) and the unit, into buf. */
static const char *fio_num2str(char *buf, size_t size, uint64_t num, int maxlen, int base,
                               gboolean pow2, int units)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P"};
    static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    static const char *const unit[] = {"", "/s", "B", "bit", "B/s", "bit/s"};
    const char *const *prefix = pow2 ? iec : si;
    unsigned thousand = pow2 ? 1024 : 1000, modulo = UINT_MAX;
    int post = 0;
    gboolean carry = FALSE;
    char tmp[32];
    for (; base > 1; post++)
        base /= (int)thousand;
    if (units == N2S_BIT || units == N2S_BITPERSEC)
        num *= 8;
    while (post < (int)G_N_ELEMENTS(si)) {
        g_snprintf(tmp, sizeof tmp, "%" G_GUINT64_FORMAT, num);
        if ((int)strlen(tmp) <= maxlen)
            break;
        modulo = (unsigned)(num % thousand);
        num /= thousand;
        carry = modulo >= thousand / 2;
        post++;
    }
    if (post >= (int)G_N_ELEMENTS(si))
        post = 0;
    g_snprintf(tmp, sizeof tmp, "%" G_GUINT64_FORMAT, num);
    if (modulo == UINT_MAX || maxlen - (int)strlen(tmp) <= 1) {
        if (modulo != UINT_MAX && carry)
            num++;
        g_snprintf(buf, size, "%" G_GUINT64_FORMAT "%s%s", num, prefix[post], unit[units]);
        return buf;
    }
    char frac[32];
    g_snprintf(frac, sizeof frac, "%.*f", maxlen - (int)strlen(tmp) - 1,
               (double)modulo / (double)thousand);
    g_snprintf(buf, size, "%" G_GUINT64_FORMAT ".%s%s%s", num, frac + 2, prefix[post],
               unit[units]);
    return buf;
}

/* fio's calc_lat() on a latency histogram: FALSE when it has no samples. */
static gboolean fio_calc_lat(const LatHist *h, uint64_t n, double sq, uint64_t *min,
                             uint64_t *max, double *mean, double *dev)
{
    if (!n || !h)
        return FALSE;
    *min = lat_hist_min(h);
    *max = lat_hist_max(h);
    *mean = lat_hist_mean(h);
    double var = n > 1 ? (sq - (double)n * *mean * *mean) / (double)(n - 1) : 0;
    *dev = var > 0 ? sqrt(var) : 0;
    return TRUE;
}

/* fio's display_lat(): nsec, or usec / msec when the figures are large. */
static void fio_display_lat(GString *o, const char *name, uint64_t min, uint64_t max, double mean,
                            double dev)
{
    const char *base = "(nsec)";
    if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
        min /= 1000000, max /= 1000000, mean /= 1e6, dev /= 1e6;
        base = "(msec)";
    } else if (min > 2000 && max > 99999 && dev > 1000.0) {
        min /= 1000, max /= 1000, mean /= 1e3, dev /= 1e3;
        base = "(usec)";
    }
    char a[64], b[64];
    g_string_append_printf(o, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base,
                           fio_num2str(a, sizeof a, min, 6, 1, FALSE, N2S_NONE),
                           fio_num2str(b, sizeof b, max, 6, 1, FALSE, N2S_NONE), mean, dev);
}

/* fio's show_clat_percentiles(): the job's list, scaled as fio scales it. */
static void fio_show_pcts(GString *o, const char *pre, const LatHist *h, const WorkloadJobSpec *s)
{
    unsigned len, prec;
    const double *list = fio_pct_list(s, &len, &prec);
    uint64_t v[WL_PCT_MAX > 17 ? WL_PCT_MAX : 17], minv = UINT64_MAX, maxv = 0;
    for (unsigned j = 0; j < len; j++) {
        v[j] = lat_hist_percentile(h, list[j]);
        minv = MIN(minv, v[j]);
        maxv = MAX(maxv, v[j]);
    }
    int scale = 0;
    uint64_t div = 1;
    if (minv > 2000000 && maxv > 99999999ULL)
        scale = 2, div = 1000000;
    else if (minv > 2000 && maxv > 99999)
        scale = 1, div = 1000;
    g_string_append_printf(o, "    %s percentiles (%s):\n     |", pre,
                           scale == 2 ? "msec" : scale == 1 ? "usec" : "nsec");
    int width = MAX(5, (int)(log10((double)(maxv / div)) + 1));
    int per_line = (80 - 7) / ((int)prec + 10 + width);
    for (unsigned j = 0; j < len; j++) {
        if (j && j % (unsigned)per_line == 0)
            g_string_append(o, "     |");
        for (int k = 0; k < scale; k++)
            v[j] = (v[j] + 999) / 1000;
        gboolean last = j == len - 1;
        g_string_append_printf(o, " %*.*fth=[%*" G_GUINT64_FORMAT "]%c", (int)prec + 3, (int)prec,
                               list[j], width, v[j], last ? '\n' : ',');
        if (!last && j % (unsigned)per_line == (unsigned)per_line - 1)
            g_string_append_c(o, '\n');
    }
}

/* fio's show_ddir_status() for direction d of e (name: fio's, or "mixed"). */
static void fio_ddir_normal(GString *o, const FioEntry *e, const FioGroup *g, int d,
                            const char *name)
{
    const WorkloadJobSpec *s = e->last;
    uint64_t rt = e->runtime_ms[d];
    if (!rt || s->no_stats)
        return;
    char io[64], bw[64], bwalt[64], iops[64];
    int unit = s->unit_bits ? N2S_BITPERSEC : N2S_BYTEPERSEC;
    gboolean i2p = s->kb_base == 1024;
    uint64_t b = 1000 * e->bytes[d] / rt, n = e->ios[d];
    /* fio 3.33 ends a write's line with its zone resets: none here */
    g_string_append_printf(
        o, "  %s: IOPS=%s, BW=%s (%s)(%s/%" G_GUINT64_FORMAT "msec)%s\n", name,
        fio_num2str(iops, sizeof iops, 1000 * n / rt, (int)s->sig_figs, 1, FALSE, N2S_NONE),
        fio_num2str(bw, sizeof bw, b, (int)s->sig_figs, 1, i2p, unit),
        fio_num2str(bwalt, sizeof bwalt, b, (int)s->sig_figs, 1, !i2p, unit),
        fio_num2str(io, sizeof io, e->bytes[d], (int)s->sig_figs, 1, i2p, N2S_BYTE), rt,
        d == IO_WRITE && strcmp(name, "mixed") ? "; 0 zone resets" : "");
    uint64_t min, max;
    double mean, dev;
    /* fio measures slat where the engine queues (iodepth above 1): 0 here,
     * submission is instant; at depth 1 it has none, as fio's sync engines */
    gboolean slat = !s->no_slat && n && s->iodepth > 1;
    if (slat)
        fio_display_lat(o, "slat", 0, 0, 0, 0);
    if (!s->no_clat && fio_calc_lat(e->lat[d], n, e->lat_sq[d], &min, &max, &mean, &dev))
        fio_display_lat(o, "clat", min, max, mean, dev);
    if (!s->no_lat && fio_calc_lat(e->lat[d], n, e->lat_sq[d], &min, &max, &mean, &dev))
        fio_display_lat(o, " lat", min, max, mean, dev);
    if (s->slat_pct && slat) {
        g_autoptr(LatHist) zero = lat_hist_new();
        lat_hist_record(zero, 0);
        fio_show_pcts(o, "slat", zero, s);
    }
    if (s->clat_pct && !s->no_clat && n)
        fio_show_pcts(o, "clat", e->lat[d], s);
    if (s->lat_pct && !s->no_lat && n)
        fio_show_pcts(o, "lat", e->lat[d], s);
    const WorkloadRateStat *r = &e->fio.bw[d];
    if (r->samples && !s->no_bw) {
        double kb = (double)s->kb_base, mn = (double)r->min, mx = (double)r->max;
        double avg = r->mean, sd = fio_rate_dev(r), agg = 100.0;
        uint64_t group_bw = g->max_run_ms[d] ? g->bytes[d] * 1000 / g->max_run_ms[d] : 0;
        if (group_bw > 1024)
            agg = MIN(100.0, (double)(int)avg * 100.0 / ((double)group_bw / 1024.0));
        const char *str = s->unit_bits ? (i2p ? "Kibit" : "kbit") : (i2p ? "KiB" : "kB");
        if (s->unit_bits)
            mn *= 8, mx *= 8, avg *= 8, sd *= 8;
        if (avg > kb * kb) {
            mn /= kb, mx /= kb, avg /= kb, sd /= kb;
            str = s->unit_bits ? "Mibit" : "MiB";
        }
        g_string_append_printf(o, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
                               "stdev=%5.02f, samples=%" G_GUINT64_FORMAT "\n", str,
                               (unsigned long long)mn, (unsigned long long)mx, agg, avg, sd,
                               r->samples);
    }
    r = &e->fio.iops[d];
    if (r->samples && !s->no_bw)
        g_string_append_printf(o, "   iops        : min=%5" G_GUINT64_FORMAT ", max=%5"
                               G_GUINT64_FORMAT ", avg=%5.02f, stdev=%5.02f, samples=%"
                               G_GUINT64_FORMAT "\n", r->min, r->max, r->mean, fio_rate_dev(r),
                               r->samples);
}

/* fio's stat_calc_dist() and stat_calc_lat(): shares in %, a non-zero one
 * at least 0.1 (0.01). */
static double fio_share(uint64_t v, uint64_t total, double least)
{
    double p = total ? (double)v / (double)total * 100.0 : 0.0;
    return p < least && v ? least : p;
}

static void fio_show_lat(GString *o, const uint64_t *v, int n, uint64_t total, const char *msg)
{
    static const char *const ranges[] = {"2=",   "4=",   "10=",  "20=",   "50=",   "100=",
                                         "250=", "500=", "750=", "1000=", "2000=", ">=2000="};
    int line = 0;
    gboolean shown = FALSE, new_line = TRUE;
    for (int i = 0; i < n; i++) {
        double p = fio_share(v[i], total, 0.01);
        if (p <= 0.0)
            continue;
        shown = TRUE;
        if (new_line) {
            if (line)
                g_string_append_c(o, '\n');
            g_string_append_printf(o, "  lat (%s)   : ", msg);
            new_line = FALSE;
            line = 0;
        }
        if (line)
            g_string_append(o, ", ");
        g_string_append_printf(o, "%s%3.2f%%", ranges[i], p);
        if (++line == 5)
            new_line = TRUE;
    }
    if (shown)
        g_string_append_c(o, '\n');
}

static void fio_dist_line(GString *o, const char *head, const char *const *names,
                          const uint64_t *v, uint64_t total)
{
    g_string_append(o, head);
    for (int i = 0; i < WL_FIO_DEPTHS; i++)
        g_string_append_printf(o, "%s%s=%3.1f%%", i ? ", " : "", names[i],
                               fio_share(v[i], total, 0.1));
    g_string_append_c(o, '\n');
}

static uint64_t fio_entry_ios(const FioEntry *e)
{
    return e->last->no_stats ? 0 : e->ios[IO_READ] + e->ios[IO_WRITE] + e->ios[IO_TRIM];
}

/* fio's show_thread_status_normal(). */
static void fio_entry_normal(GString *o, const FioEntry *e, const FioGroup *g, const char *when)
{
    static const char *const names[] = {"read", "write", "trim"};
    static const char *const level[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const batch[] = {"0", "4", "8", "16", "32", "64", ">=64"};
    const WorkloadJobSpec *s = e->last;
    uint64_t total = fio_entry_ios(e);
    if (!total)
        return;
    g_string_append_printf(o, "%s: (groupid=%u, jobs=%u): err= 0: pid=%d: %s\n", s->name,
                           e->first.group, e->jobs, (int)getpid(), when);
    if (s->unified != WL_UNIFIED_MIXED)
        for (int d = 0; d < WL_DIRS; d++)
            if (e->bytes[d])
                fio_ddir_normal(o, e, g, d, names[d]);
    if (s->unified != WL_UNIFIED_NONE) {
        FioEntry m;
        FioGroup mg;
        fio_entry_mixed(e, g, &m, &mg);
        fio_ddir_normal(o, &m, &mg, IO_READ, "mixed");
        lat_hist_free(m.lat[IO_READ]);
    }
    fio_show_lat(o, e->fio.lat_n, WL_FIO_LAT_N, total, "nsec");
    fio_show_lat(o, e->fio.lat_u, WL_FIO_LAT_U, total, "usec");
    fio_show_lat(o, e->fio.lat_m, WL_FIO_LAT_M, total, "msec");
    uint64_t min, max;
    double mean, dev;
    if (fio_calc_lat(e->sync_lat, e->sync_ios, e->sync_sq, &min, &max, &mean, &dev)) {
        const char *sync = s->datasync ? "datasync" : "sync";
        g_string_append(o, "  fsync/fdatasync/sync_file_range:\n");
        fio_display_lat(o, sync, min, max, mean, dev);
        fio_show_pcts(o, sync, e->sync_lat, s);
    }
    g_string_append(o, "  cpu          : usr=0.00%, sys=0.00%, ctx=0, majf=0, minf=0\n");
    fio_dist_line(o, "  IO depths    : ", level, e->fio.depth, total);
    fio_dist_line(o, "     submit    : ", batch, e->fio.submit, e->fio.total_submit);
    fio_dist_line(o, "     complete  : ", batch, e->fio.complete, e->fio.total_complete);
    g_string_append_printf(o, "     issued rwts: total=%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                           ",%" G_GUINT64_FORMAT ",0 short=0,0,0,0 dropped=0,0,0,0\n",
                           e->ios[IO_READ], e->ios[IO_WRITE], e->ios[IO_TRIM]);
    g_string_append_printf(o, "     latency   : target=%" G_GUINT64_FORMAT ", window=0, "
                           "percentile=100.00%%, depth=%u\n", (uint64_t)s->latency_target,
                           s->iodepth);
}

/* fio's show_group_stats(): a line per direction that ran, and MIXED. */
static void fio_group_normal(GString *o, const FioGroup *g, const WorkloadJobSpec *s)
{
    static const char *const str[] = {"   READ", "  WRITE", "   TRIM"};
    gboolean i2p = s->kb_base == 1024;
    int sf = (int)s->sig_figs, unit = s->unit_bits ? N2S_BITPERSEC : N2S_BYTEPERSEC;
    g_string_append_printf(o, "\nRun status group %u (all jobs):\n", g->id);
    uint64_t mix[5] = {0, 0, UINT64_MAX, 0, UINT64_MAX}; /* io, agg, min bw, max bw, min run */
    uint64_t mix_max_run = 0;
    gboolean any = FALSE;
    for (int d = 0; d <= WL_DIRS; d++) {
        uint64_t io, agg, mn, mx, r0, r1;
        if (d < WL_DIRS) {
            if (!g->max_run_ms[d])
                continue;
            io = g->bytes[d], agg = g->bytes[d] * 1000 / g->max_run_ms[d];
            mn = g->min_bw[d], mx = g->max_bw[d], r0 = g->min_run_ms[d], r1 = g->max_run_ms[d];
            mix[0] += io, mix[1] += agg, mix[2] = MIN(mix[2], mn), mix[3] = MAX(mix[3], mx);
            mix[4] = MIN(mix[4], r0), mix_max_run = MAX(mix_max_run, r1);
            any = TRUE;
            if (s->unified == WL_UNIFIED_MIXED)
                continue; /* one line, the directions summed, as fio keeps them in one */
        } else {
            if (s->unified == WL_UNIFIED_NONE || !any)
                break;
            io = mix[0], mn = mix[2], mx = mix[3], r0 = mix[4], r1 = mix_max_run;
            agg = s->unified == WL_UNIFIED_MIXED ? io * 1000 / r1 : mix[1];
        }
        char a[64], aa[64], b[64], c[64], ba[64], ca[64], i[64], ia[64];
        g_string_append_printf(
            o,
            "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" G_GUINT64_FORMAT
            "-%" G_GUINT64_FORMAT "msec\n",
            d == WL_DIRS || s->unified == WL_UNIFIED_MIXED ? "  MIXED" : str[d],
            fio_num2str(a, 64, agg, sf, 1, i2p, unit), fio_num2str(aa, 64, agg, sf, 1, !i2p, unit),
            fio_num2str(b, 64, mn, sf, 1, i2p, unit), fio_num2str(c, 64, mx, sf, 1, i2p, unit),
            fio_num2str(ba, 64, mn, sf, 1, !i2p, unit), fio_num2str(ca, 64, mx, sf, 1, !i2p, unit),
            fio_num2str(i, 64, io, sf, 1, i2p, N2S_BYTE),
            fio_num2str(ia, 64, io, sf, 1, !i2p, N2S_BYTE), r0, r1);
    }
}

/* fio's job lines before the run: "NAME: (g=G): rw=..., bs=(R) ..., ioengine=..., iodepth=N". */
static void fio_job_lines(GString *o, const Workload *w, const char *version)
{
    guint n = workload_result_count(w);
    const WorkloadJobSpec *prev = NULL;
    for (guint i = 0; i < n; i++) {
        WorkloadJobResult r;
        workload_result(w, i, &r);
        const WorkloadJobSpec *s = r.spec;
        if (s == prev)
            continue;
        prev = s;
        char bs[6][64];
        for (int d = 0; d < WL_DIRS; d++) {
            uint64_t lo = s->bs[d], hi = s->bs[d];
            if (s->bs_max[d])
                lo = s->bs_min[d], hi = s->bs_max[d];
            fio_num2str(bs[2 * d], 64, lo, (int)s->sig_figs, 1, TRUE, N2S_BYTE);
            fio_num2str(bs[2 * d + 1], 64, hi, (int)s->sig_figs, 1, TRUE, N2S_BYTE);
        }
        g_string_append_printf(o, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, "
                               "ioengine=%s, iodepth=%u\n", s->name, r.group, workload_rw_name(s),
                               bs[0], bs[1], bs[2], bs[3], bs[4], bs[5],
                               s->engine_null ? "null" : "libaio", s->iodepth);
        if (s->numjobs > 1)
            g_string_append(o, "...\n");
    }
    g_string_append_printf(o, "ftlsim-%s\nStarting %u process%s\n", version, n, n == 1 ? "" : "es");
}

/* fio's print_disk_util() for the simulated drive. */
static void fio_disk_line(GString *o, const Workload *w, const FioTextOptions *to, gboolean terse)
{
    WorkloadDiskStat ds;
    workload_disk_stat(w, &ds);
    double run_ns = to->sim_time_s * 1e9;
    double util = run_ns > 0 ? MIN(100.0, 100.0 * (double)ds.busy_ns / run_ns) : 0;
    g_string_append_printf(o, terse ? ";%s;%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";0;0;%"
                                      G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
                                      ";%3.2f%%"
                                    : "  %s: ios=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                                      ", merge=0/0, ticks=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                                      ", in_queue=%" G_GUINT64_FORMAT ", util=%3.2f%%\n",
                           to->disk_name ? to->disk_name : "", ds.ios[IO_READ], ds.ios[IO_WRITE],
                           ds.ticks_ns[IO_READ] / SIM_MS, ds.ticks_ns[IO_WRITE] / SIM_MS,
                           ds.in_queue_ns / SIM_MS, util);
}

static gboolean fio_text_disk(const Workload *w, const FioTextOptions *to)
{
    guint n = workload_result_count(w);
    for (guint i = 0; i < n; i++) {
        WorkloadJobResult r;
        workload_result(w, i, &r);
        if (!r.spec->no_disk_util && !r.spec->engine_null)
            return to->sim_time_s > 0;
    }
    return FALSE;
}

/* fio's show_ddir_status_terse(): KiB, KiB/s, IOPS, runtime, then slat,
 * clat, 20 percentiles, lat in usec, bandwidth statistics. */
static void fio_ddir_terse(GString *o, const FioEntry *e, const FioGroup *g, int d)
{
    const WorkloadJobSpec *s = e->last;
    uint64_t rt = e->runtime_ms[d], n = s->no_stats ? 0 : e->ios[d];
    uint64_t bytes = s->no_stats ? 0 : e->bytes[d];
    uint64_t bw = rt ? 1000 * bytes / rt / 1024 : 0, iops = rt ? 1000 * n / rt : 0;
    g_string_append_printf(o, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
                           ";%" G_GUINT64_FORMAT, bytes >> 10, bw, iops, rt);
    uint64_t min = 0, max = 0;
    double mean = 0, dev = 0;
    g_string_append_printf(o, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0); /* slat */
    if (s->no_clat || !fio_calc_lat(e->lat[d], n, e->lat_sq[d], &min, &max, &mean, &dev))
        min = max = 0, mean = dev = 0;
    g_string_append_printf(o, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";%f;%f", min / 1000,
                           max / 1000, mean / 1000, dev / 1000);
    unsigned len = 0, prec;
    const double *list = fio_pct_list(s, &len, &prec);
    if (!(s->lat_pct || s->clat_pct) || !n)
        len = 0;
    for (unsigned i = 0; i < WL_PCT_MAX; i++) {
        if (i >= len)
            g_string_append(o, ";0%=0");
        else
            g_string_append_printf(o, ";%f%%=%" G_GUINT64_FORMAT, list[i],
                                   lat_hist_percentile(e->lat[d], list[i]) / 1000);
    }
    if (s->no_lat || !fio_calc_lat(e->lat[d], n, e->lat_sq[d], &min, &max, &mean, &dev))
        min = max = 0, mean = dev = 0;
    g_string_append_printf(o, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";%f;%f", min / 1000,
                           max / 1000, mean / 1000, dev / 1000);
    const WorkloadRateStat *r = &e->fio.bw[d];
    if (r->samples && !s->no_bw && !s->no_stats) {
        double agg = 100.0;
        uint64_t group_bw = g->max_run_ms[d] ? g->bytes[d] * 1000 / g->max_run_ms[d] : 0;
        if (group_bw)
            agg = MIN(100.0, r->mean * 100 / (double)(group_bw / 1024));
        g_string_append_printf(o, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";%f%%;%f;%f",
                               r->min, r->max, agg, r->mean, fio_rate_dev(r));
    } else {
        g_string_append_printf(o, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
    }
}

/* fio's show_thread_status_terse_all(), version 3. */
static void fio_entry_terse(GString *o, const FioEntry *e, const FioGroup *g, const Workload *w,
                            const FioTextOptions *to)
{
    const WorkloadJobSpec *s = e->last;
    uint64_t total = fio_entry_ios(e);
    g_string_append_printf(o, "3;ftlsim-%s;%s;%u;0", to->version, s->name, e->first.group);
    if (s->unified != WL_UNIFIED_MIXED) {
        fio_ddir_terse(o, e, g, IO_READ);
        fio_ddir_terse(o, e, g, IO_WRITE);
    }
    if (s->unified != WL_UNIFIED_NONE) {
        FioEntry m;
        FioGroup mg;
        fio_entry_mixed(e, g, &m, &mg);
        fio_ddir_terse(o, &m, &mg, IO_READ);
        lat_hist_free(m.lat[IO_READ]);
    }
    g_string_append_printf(o, ";%f%%;%f%%;%llu;%llu;%llu", 0.0, 0.0, 0ULL, 0ULL, 0ULL);
    for (int i = 0; i < WL_FIO_DEPTHS; i++)
        g_string_append_printf(o, ";%3.1f%%", fio_share(e->fio.depth[i], total, 0.1));
    uint64_t ns = 0; /* fio's stat_calc_lat_nu(): ns buckets into the first us one */
    for (int i = 0; i < WL_FIO_LAT_N; i++)
        ns += e->fio.lat_n[i];
    for (int i = 0; i < WL_FIO_LAT_U; i++) {
        double p = fio_share(e->fio.lat_u[i], total, 0.01);
        if (i == 0 && total)
            p += 100.0 * (double)ns / (double)total;
        g_string_append_printf(o, ";%3.2f%%", p);
    }
    for (int i = 0; i < WL_FIO_LAT_M; i++)
        g_string_append_printf(o, ";%3.2f%%", fio_share(e->fio.lat_m[i], total, 0.01));
    if (fio_text_disk(w, to))
        fio_disk_line(o, w, to, TRUE);
    g_string_append_c(o, '\n');
}

void fio_text_write(const Workload *w, const FioTextOptions *to, GString *out)
{
    g_autoptr(GArray) entries = g_array_new(FALSE, TRUE, sizeof(FioEntry));
    uint32_t ngroups = 0;
    const char *global_opts = NULL;
    g_autofree FioGroup *groups = NULL;
    fio_collect(w, entries, &groups, &ngroups, &global_opts);
    time_t sec = (time_t)(ftlsim_clock_ms() / 1000);
    struct tm tm;
    char when[64] = "";
    if (localtime_r(&sec, &tm))
        strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm); /* ctime()'s form */
    if (!to->terse) {
        fio_job_lines(out, w, to->version);
        g_string_append_c(out, '\n');
    }
    for (guint i = 0; i < entries->len; i++) {
        const FioEntry *x = &g_array_index(entries, FioEntry, i);
        if (to->terse)
            fio_entry_terse(out, x, &groups[x->first.group], w, to);
        else
            fio_entry_normal(out, x, &groups[x->first.group], when);
    }
    for (uint32_t gi = 0; !to->terse && gi < ngroups; gi++) {
        const WorkloadJobSpec *s = NULL;
        for (guint i = 0; i < entries->len && !s; i++)
            if (g_array_index(entries, FioEntry, i).first.group == gi)
                s = g_array_index(entries, FioEntry, i).last;
        if (s)
            fio_group_normal(out, &groups[gi], s);
    }
    if (!to->terse && fio_text_disk(w, to)) {
        g_string_append(out, "\nDisk stats (read/write):\n");
        fio_disk_line(out, w, to, FALSE);
    }
    for (guint i = 0; i < entries->len; i++)
        fio_entry_clear(&g_array_index(entries, FioEntry, i));
}
