/*
 * report.c - series rows, phases, and the run summary (text and JSON).
 *
 * MB/s and GB are decimal (10^6, 10^9 bytes) as in the reviews; WAF is NAND
 * bytes programmed over host bytes written.
 */
#include "sim/output/report.h"

#include "sim/config/config.h"
#include "sim/cmd/version.h"

#include <math.h>

const double report_series_pcts[REPORT_SERIES_PCTS] = {50, 99, 99.9};

void report_series_header(FILE *f, gboolean latency)
{
    fprintf(f, "%s%s%s\n", REPORT_SERIES_HEADER, latency ? "," : "",
            latency ? REPORT_SERIES_LATENCY_HEADER : "");
}

void report_series_row(FILE *f, const SeriesRow *r)
{
    char hit[32];
    if (isnan(r->l2p_hit_ratio))
        g_strlcpy(hit, "", sizeof hit);
    else
        g_snprintf(hit, sizeof hit, "%.4f", r->l2p_hit_ratio);
    fprintf(f,
            "%.3f,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.2f,%.2f,%.1f,%" G_GUINT64_FORMAT
            ",%.2f,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.2f,%s,%s,%.4f",
            r->t_s, r->host_write_bytes, r->host_read_bytes, r->write_MBps, r->read_MBps, r->iops,
            r->free_blocks, r->gc_MBps, r->pslc_used_bytes, r->pslc_limit_bytes, r->fold_MBps, hit,
            drive_phase_name(r->phase), (double)r->host_write_bytes / 1e9);
    for (int w = 0; w < DIE_WORKS; w++)
        fprintf(f, ",%.4f", r->die_work[w]);
    fprintf(f, ",%.4f,%u,%.4f,%u", r->chan_busy, r->wear_min, r->wear_mean, r->wear_max);
    /* An interval without reads (writes) leaves its columns empty, as gnuplot skips them. */
    for (int op = 0; r->has_latency && op < 2; op++)
        for (int i = 0; i < REPORT_SERIES_PCTS; i++) {
            if (isnan(r->lat_us[op][i]))
                fputs(",", f);
            else
                fprintf(f, ",%.1f", r->lat_us[op][i]);
        }
    fputc('\n', f);
}

/* Consecutive rows of one kind, as they come. */
static void phases_raw(GArray *rows, GArray *phases)
{
    uint64_t prev_bytes = 0;
    double prev_t = 0;
    for (guint i = 0; i < rows->len; i++) {
        const SeriesRow *r = &g_array_index(rows, SeriesRow, i);
        PhaseSpan *last = phases->len ? &g_array_index(phases, PhaseSpan, phases->len - 1) : NULL;
        if (last && last->kind == r->phase) {
            last->end_host_bytes = r->host_write_bytes;
            last->end_s = r->t_s;
        } else {
            PhaseSpan s = {r->phase, prev_bytes, r->host_write_bytes, prev_t, r->t_s, 0, 0};
            g_array_append_val(phases, s);
            last = &g_array_index(phases, PhaseSpan, phases->len - 1);
        }
        double busy = 0;
        for (int k = 0; k < DIE_WORKS; k++)
            busy += r->die_work[k];
        last->die_busy_s += busy * (r->t_s - prev_t);
        last->chan_busy_s += r->chan_busy * (r->t_s - prev_t);
        prev_bytes = r->host_write_bytes;
        prev_t = r->t_s;
    }
}

/* Whether a span is too short to be a phase a reader sees: less than
 * REPORT_PHASE_MIN of the run's host writes and of its time. */
static gboolean span_short(const PhaseSpan *s, uint64_t bytes, double t)
{
    return (double)(s->end_host_bytes - s->start_host_bytes) < REPORT_PHASE_MIN * (double)bytes &&
           s->end_s - s->start_s < REPORT_PHASE_MIN * t;
}

/* Spans [from, to) into one: folding when folding took a tenth of their
 * time or more (native writes and folding taking turns is folding while
 * writing), else the kind that took the most time among them. */
static PhaseSpan span_merge(const GArray *in, guint from, guint to)
{
    double t_kind[PHASE_READ + 1] = {0};
    PhaseSpan m = g_array_index(in, PhaseSpan, from);
    m.die_busy_s = m.chan_busy_s = 0;
    for (guint i = from; i < to; i++) {
        const PhaseSpan *s = &g_array_index(in, PhaseSpan, i);
        t_kind[s->kind] += s->end_s - s->start_s;
        m.end_host_bytes = s->end_host_bytes;
        m.end_s = s->end_s;
        m.die_busy_s += s->die_busy_s;
        m.chan_busy_s += s->chan_busy_s;
    }
    double total = 0;
    for (int k = 0; k <= PHASE_READ; k++) {
        total += t_kind[k];
        if (t_kind[k] > t_kind[m.kind])
            m.kind = k;
    }
    if (to - from > 1 && t_kind[PHASE_FOLDING] >= 0.1 * total)
        m.kind = PHASE_FOLDING;
    return m;
}

/* Whether a kind occurs twice among spans [from, to). */
static gboolean kinds_repeat(const GArray *in, guint from, guint to)
{
    guint seen = 0;
    for (guint i = from; i < to; i++) {
        guint bit = 1u << g_array_index(in, PhaseSpan, i).kind;
        if (seen & bit)
            return TRUE;
        seen |= bit;
    }
    return FALSE;
}

/* Append s to out, joining it to the last span when of the same kind. */
static void span_push(GArray *out, PhaseSpan s)
{
    PhaseSpan *last = out->len ? &g_array_index(out, PhaseSpan, out->len - 1) : NULL;
    if (last && last->kind == s.kind) {
        last->end_host_bytes = s.end_host_bytes;
        last->end_s = s.end_s;
        last->die_busy_s += s.die_busy_s;
        last->chan_busy_s += s.chan_busy_s;
        return;
    }
    g_array_append_val(out, s);
}

void report_phases_from_rows(GArray *rows, GArray *phases)
{
    g_array_set_size(phases, 0);
    g_autoptr(GArray) raw = g_array_new(FALSE, FALSE, sizeof(PhaseSpan));
    phases_raw(rows, raw);
    if (raw->len < 2) {
        g_array_append_vals(phases, raw->data, raw->len);
        return;
    }
    const PhaseSpan *end = &g_array_index(raw, PhaseSpan, raw->len - 1);
    uint64_t bytes = end->end_host_bytes;
    double t = end->end_s - g_array_index(raw, PhaseSpan, 0).start_s;
    /* A run of short spans in which a kind comes back (native and folding
     * taking turns every few hundred MB as the cache empties) is one phase
     * of its main kind; short spans of kinds that follow each other once (a
     * burst, a read, a pause) stay what they are. */
    g_autoptr(GArray) grouped = g_array_new(FALSE, FALSE, sizeof(PhaseSpan));
    for (guint i = 0; i < raw->len;) {
        guint j = i;
        while (j < raw->len && span_short(&g_array_index(raw, PhaseSpan, j), bytes, t))
            j++;
        if (j > i + 2 && kinds_repeat(raw, i, j)) {
            span_push(grouped, span_merge(raw, i, j));
        } else {
            for (guint k = i; k < MAX(j, i + 1); k++)
                span_push(grouped, g_array_index(raw, PhaseSpan, k));
            j = MAX(j, i + 1);
        }
        i = j;
    }
    /* A short blip between two phases of one kind joins them. */
    for (guint i = 0; i < grouped->len; i++) {
        PhaseSpan s = g_array_index(grouped, PhaseSpan, i);
        PhaseSpan *last = phases->len ? &g_array_index(phases, PhaseSpan, phases->len - 1) : NULL;
        if (last && i + 1 < grouped->len && span_short(&s, bytes, t) &&
            g_array_index(grouped, PhaseSpan, i + 1).kind == last->kind)
            s.kind = last->kind;
        span_push(phases, s);
    }
}

static double span_MBps(const PhaseSpan *s)
{
    double dt = s->end_s - s->start_s;
    return dt > 0 ? (double)(s->end_host_bytes - s->start_host_bytes) / 1e6 / dt : 0;
}

/* Shares of the dies' and channels' time busy over the phase. */
static double span_share(const PhaseSpan *s, double busy_s)
{
    double dt = s->end_s - s->start_s;
    return dt > 0 ? busy_s / dt : 0;
}

void report_phases_csv(const RunResult *r, GString *out)
{
    g_string_append(out, "kind,start_host_bytes,end_host_bytes,mean_write_MBps,dies_busy,"
                         "channels_busy\n");
    for (guint i = 0; i < r->phases->len; i++) {
        const PhaseSpan *s = &g_array_index(r->phases, PhaseSpan, i);
        g_string_append_printf(out, "%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.2f,%.4f,%.4f\n",
                               drive_phase_name(s->kind), s->start_host_bytes, s->end_host_bytes,
                               span_MBps(s), span_share(s, s->die_busy_s),
                               span_share(s, s->chan_busy_s));
    }
}

/* NAND bytes written per byte of host data the flash has to store: the
 * data still held in the write buffer at the end counts as written (a
 * flush or standby programs it), and data overwritten or trimmed while in
 * the buffer, which never needs storing, is not host data to store. So a
 * run too short to empty the buffer does not show a WAF below 1; see
 * docs/outputs.md. */
static double waf(const DriveStats *st)
{
    uint64_t nand = st->buf_held_bytes;
    for (int c = 0; c < CAUSES; c++)
        nand += st->nand_write_bytes[c];
    uint64_t host = st->host_bytes[IO_WRITE];
    uint64_t stored = host > st->buf_absorbed_bytes ? host - st->buf_absorbed_bytes : 0;
    return stored ? (double)nand / (double)stored : NAN;
}

static uint64_t nand_total(const DriveStats *st)
{
    uint64_t n = 0;
    for (int c = 0; c < CAUSES; c++)
        n += st->nand_write_bytes[c];
    return n;
}

static const double pcts[] = {50, 90, 99, 99.9, 99.99};
static const char *const pct_names[] = {"p50", "p90", "p99", "p99.9", "p99.99"};

static void latency_json(JsonWriter *w, const char *key, const LatHist *h)
{
    json_begin_object(w, key);
    json_u64(w, "count", lat_hist_count(h));
    json_double(w, "mean", lat_hist_mean(h) / 1e3);
    for (unsigned i = 0; i < G_N_ELEMENTS(pcts); i++)
        json_double(w, pct_names[i], (double)lat_hist_percentile(h, pcts[i]) / 1e3);
    json_double(w, "max", (double)lat_hist_max(h) / 1e3);
    json_end_object(w);
}

static const char *l2p_kind_name(L2pKind k)
{
    static const char *const names[] = {"dram", "hmb", "sram"};
    return (unsigned)k < G_N_ELEMENTS(names) ? names[k] : "?";
}

/* Bytes of the mapping table the controller holds: all of it with DRAM. */
static uint64_t l2p_cached_bytes(const DriveParams *p)
{
    return p->l2p_kind == L2P_DRAM ? drive_params_l2p_bytes(p) : p->l2p_cache;
}

static void mapping_cache_json(const RunResult *r, JsonWriter *w)
{
    const DriveStats *st = r->stats;
    uint64_t lookups = st->l2p_hits + st->l2p_misses;
    json_begin_object(w, "mapping_cache");
    json_str(w, "kind", l2p_kind_name(r->params->l2p_kind));
    json_u64(w, "table_bytes", drive_params_l2p_bytes(r->params));
    json_u64(w, "cache_bytes", l2p_cached_bytes(r->params));
    json_u64(w, "hits", st->l2p_hits);
    json_u64(w, "misses", st->l2p_misses);
    json_u64(w, "writebacks", st->l2p_writebacks);
    if (lookups)
        json_double(w, "hit_ratio", (double)st->l2p_hits / (double)lookups);
    else
        json_null(w, "hit_ratio");
    json_end_object(w);
}

static double wear_mean(const DriveWearGroup *g)
{
    return g->blocks ? (double)g->erases / g->blocks : 0.0;
}

static void wear_json(JsonWriter *w, const char *name, const DriveWearGroup *g)
{
    json_begin_object(w, name);
    json_u64(w, "blocks", g->blocks);
    json_u64(w, "erases", g->erases);
    json_u64(w, "min", g->blocks ? g->min : 0);
    json_double(w, "mean", wear_mean(g));
    json_u64(w, "max", g->max);
    json_end_object(w);
}

static void wear_text(GString *out, const char *name, const DriveWearGroup *g)
{
    g_string_append_printf(out, "%s %u blocks, P/E mean %.2f (min %u, max %u)", name, g->blocks,
                           wear_mean(g), g->blocks ? g->min : 0, g->max);
}

static void csv_num(GString *out, double v, const char *fmt)
{
    g_string_append_c(out, ',');
    if (isfinite(v))
        g_string_append_printf(out, fmt, v);
}

static void csv_latency(GString *out, const LatHist *h)
{
    gboolean any = h && lat_hist_count(h) > 0;
    csv_num(out, any ? lat_hist_mean(h) / 1e3 : NAN, "%.3f");
    csv_num(out, any ? (double)lat_hist_percentile(h, 99.0) / 1e3 : NAN, "%.3f");
}

void report_sweep_row(const RunResult *r, GString *out)
{
    const DriveStats *st = r->stats;
    double t = r->sim_time_s;
    g_string_append_printf(out, "%.6f", t);
    csv_num(out, st->host_bytes[IO_WRITE] / 1e9, "%.6f");
    csv_num(out, st->host_bytes[IO_READ] / 1e9, "%.6f");
    csv_num(out, t > 0 ? st->host_bytes[IO_WRITE] / 1e6 / t : NAN, "%.3f");
    csv_num(out, t > 0 ? st->host_bytes[IO_READ] / 1e6 / t : NAN, "%.3f");
    csv_num(out, t > 0 ? (st->host_ios[IO_READ] + st->host_ios[IO_WRITE]) / t : NAN, "%.1f");
    csv_num(out, waf(st), "%.4f");
    csv_num(out, nand_total(st) / 1e9, "%.6f");
    csv_num(out, st->nand_write_bytes[CAUSE_GC] / 1e9, "%.6f");
    csv_num(out, st->nand_write_bytes[CAUSE_FOLD] / 1e9, "%.6f");
    g_string_append_printf(out, ",%" G_GUINT64_FORMAT ",%u", st->nand_erases,
                           r->wear.pool.blocks ? r->wear.pool.min : 0);
    csv_num(out, wear_mean(&r->wear.pool), "%.4f");
    g_string_append_printf(out, ",%u,%" G_GUINT64_FORMAT, r->wear.pool.max, st->wl_blocks);
    csv_num(out, st->pslc_limit_start / 1e9, "%.6f");
    csv_num(out, st->pslc_first_exhausted == UINT64_MAX ? NAN : st->pslc_first_exhausted / 1e9,
            "%.6f");
    csv_latency(out, workload_latency(r->workload, IO_WRITE));
    csv_latency(out, workload_latency(r->workload, IO_READ));
    g_string_append_c(out, '\n');
}

/* The parts of one direction's latency: their names, nanoseconds summed
 * over n commands. */
typedef struct LatParts {
    const char *key, *label; /* summary.json object, summary.txt line */
    int count;
    const char *(*name)(int k);
    const uint64_t *ns;
    uint64_t n;
} LatParts;

static const char *read_name(int k) { return read_part_name(k); }
static const char *write_name(int k) { return write_part_name(k); }

static void lat_parts(const DriveStats *st, LatParts out[2])
{
    out[0] = (LatParts){"read_parts", "read", READ_PARTS, read_name, st->read_parts_ns,
                        st->read_parts_n};
    out[1] = (LatParts){"write_parts", "write", WRITE_PARTS, write_name, st->write_parts_ns,
                        st->write_parts_n};
}

/* Mean microseconds per command in part k. */
static double part_us(const LatParts *lp, int k)
{
    return lp->n ? (double)lp->ns[k] / 1e3 / (double)lp->n : 0.0;
}

/* Shares of the dies' and channels' time over the run (0 for a run of no
 * time). */
static double die_share(const RunResult *r, uint64_t ns)
{
    double t = r->sim_time_s * 1e9 * drive_params_dies(r->params);
    return t > 0 ? (double)ns / t : 0.0;
}

static double idle_share(const RunResult *r)
{
    uint64_t busy = 0;
    for (int k = 0; k < DIE_WORKS; k++)
        busy += r->stats->die_busy_ns[k];
    return 1.0 - die_share(r, busy);
}

static double chan_share(const RunResult *r)
{
    double t = r->sim_time_s * 1e9 * r->params->channels;
    return t > 0 ? (double)r->stats->chan_busy_ns / t : 0.0;
}

/* ---- The ss=pts job's rounds --------------------------------------------- */

static double steady_round_waf(const RunSteady *s, uint32_t from, uint32_t to)
{
    double host = s->host_bytes[to] - s->host_bytes[from];
    return host > 0 ? (s->nand_bytes[to] - s->nand_bytes[from]) / host : NAN;
}

void report_steady_csv(const RunSteady *s, GString *out)
{
    g_string_append(out, "round,t_end_s,iops,waf,host_GB_written,window_first,window_avg,"
                         "excursion_pct,slope_pct,steady\n");
    const WorkloadSteady *ws = &s->ws;
    for (uint32_t r = 1; r <= ws->rounds; r++) {
        double waf_r = steady_round_waf(s, r - 1, r);
        g_string_append_printf(out, "%u,%.3f,%.1f,", r, (double)ws->round_end[r - 1] / 1e9,
                               ws->iops[r - 1]);
        if (isnan(waf_r))
            g_string_append_c(out, ',');
        else
            g_string_append_printf(out, "%.3f,", waf_r);
        g_string_append_printf(out, "%.3f", s->host_bytes[r] / 1e9);
        if (r < STEADY_WINDOW) {
            g_string_append(out, ",,,,,-\n");
            continue;
        }
        SteadyWindow w;
        steady_judge(ws->iops + r - STEADY_WINDOW, STEADY_WINDOW, r - STEADY_WINDOW + 1,
                     STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &w);
        g_string_append_printf(out, ",%zu,%.1f,%.2f,%.2f,%s\n", w.first, w.avg,
                               100 * w.excursion, 100 * w.slope_excursion,
                               w.steady ? "yes" : "no");
    }
}

static void steady_json(const RunSteady *s, JsonWriter *w)
{
    const WorkloadSteady *ws = &s->ws;
    json_begin_object(w, "steady_state");
    json_str(w, "job", ws->job);
    json_double(w, "round_s", (double)ws->round_ns / 1e9);
    json_u64(w, "max_rounds", ws->max_rounds);
    json_u64(w, "rounds", ws->rounds);
    json_bool(w, "reached", ws->steady_round > 0);
    json_u64(w, "round", ws->steady_round);
    json_u64(w, "window_first", ws->win.first);
    json_u64(w, "window_last", ws->win.last);
    json_double(w, "iops", ws->win.avg);
    json_double(w, "excursion_pct", 100 * ws->win.excursion);
    json_double(w, "slope_pct", 100 * ws->win.slope_excursion);
    json_double(w, "waf", s->window_waf);
    if (s->window_lat)
        latency_json(w, "latency_us", s->window_lat);
    json_end_object(w);
}

static void steady_text(const RunSteady *s, GString *out)
{
    const WorkloadSteady *ws = &s->ws;
    if (ws->steady_round)
        g_string_append_printf(out, "steady    PTS steady state at round %u", ws->steady_round);
    else
        g_string_append_printf(out, "steady    PTS steady state not reached in %u rounds",
                               ws->rounds);
    g_string_append_printf(out, " of job %s (%g s rounds, at most %u)\n", ws->job,
                           (double)ws->round_ns / 1e9, ws->max_rounds);
    if (ws->win.last == 0)
        return;
    g_string_append_printf(out,
                           "          %s %zu-%zu: %.0f IOPS, range %.1f%%, slope %.1f%%, WAF "
                           "%.3f\n",
                           ws->steady_round ? "window" : "last rounds", ws->win.first,
                           ws->win.last, ws->win.avg, 100 * ws->win.excursion,
                           100 * ws->win.slope_excursion, s->window_waf);
    const LatHist *h = s->window_lat;
    if (h && lat_hist_count(h))
        g_string_append_printf(out,
                               "          latency (us) mean %.1f, p99 %.1f, p99.9 %.1f, "
                               "p99.99 %.1f, max %.1f\n",
                               lat_hist_mean(h) / 1e3, (double)lat_hist_percentile(h, 99) / 1e3,
                               (double)lat_hist_percentile(h, 99.9) / 1e3,
                               (double)lat_hist_percentile(h, 99.99) / 1e3,
                               (double)lat_hist_max(h) / 1e3);
}

void report_summary_json(const RunResult *r, JsonWriter *w)
{
    const DriveStats *st = r->stats;
    const RunOptions *o = r->opt;
    double t = r->sim_time_s > 0 ? r->sim_time_s : NAN;
    json_begin_object(w, NULL);
    json_str(w, "ftlsim_version", ftlsim_version());
    json_str(w, "drive", r->params->name);
    json_str(w, "drive_file", o->drive);
    json_begin_array(w, "overrides");
    for (const char *const *set = o->sets; set && *set; set++)
        json_str(w, NULL, *set);
    json_end_array(w);
    json_str(w, "workload", workload_description(r->workload));
    WorkloadTraceInfo ti;
    if (workload_trace_info(r->workload, &ti)) {
        json_begin_object(w, "trace");
        json_str(w, "format", ti.format);
        json_bool(w, "format_detected", ti.detected);
        json_bool(w, "header_skipped", ti.header_skipped);
        json_u64(w, "bad_lines_skipped", ti.bad_lines);
        json_end_object(w);
    }
    json_u64(w, "seed", o->seed);
    json_str(w, "prefill", o->prefill);
    json_bool(w, "interrupted", r->interrupted);
    json_double(w, "sim_time_s", r->sim_time_s);
    json_double(w, "wall_time_s", r->wall_s);
    json_u64(w, "events", r->events);
    json_u64(w, "peak_rss_bytes", r->peak_rss);

    json_begin_object(w, "host");
    json_u64(w, "write_bytes", st->host_bytes[IO_WRITE]);
    json_u64(w, "read_bytes", st->host_bytes[IO_READ]);
    json_u64(w, "trim_bytes", st->host_bytes[IO_TRIM]);
    json_u64(w, "write_ios", st->host_ios[IO_WRITE]);
    json_u64(w, "read_ios", st->host_ios[IO_READ]);
    json_u64(w, "trim_ios", st->host_ios[IO_TRIM]);
    json_u64(w, "flush_ios", st->host_ios[IO_FLUSH]);
    json_end_object(w);

    json_begin_object(w, "nand");
    json_begin_object(w, "write_bytes");
    json_u64(w, "total", nand_total(st));
    json_begin_object(w, "by_cause");
    json_u64(w, "host", st->nand_write_bytes[CAUSE_HOST]);
    json_u64(w, "gc", st->nand_write_bytes[CAUSE_GC]);
    json_u64(w, "fold", st->nand_write_bytes[CAUSE_FOLD]);
    json_u64(w, "map", st->nand_write_bytes[CAUSE_MAP]);
    json_u64(w, "rmw", st->nand_write_bytes[CAUSE_RMW]);
    json_end_object(w);
    json_end_object(w);
    json_u64(w, "read_bytes", st->nand_read_bytes);
    json_u64(w, "rmw_read_bytes", st->rmw_read_bytes);
    json_u64(w, "erases", st->nand_erases);
    json_u64(w, "gc_blocks", st->gc_blocks);
    json_u64(w, "free_blocks", st->free_blocks);
    json_begin_object(w, "wear");
    wear_json(w, "pool", &r->wear.pool);
    wear_json(w, "static_slc", &r->wear.static_slc);
    json_u64(w, "static_moves", st->wl_blocks);
    json_end_object(w);
    json_end_object(w);
    json_begin_object(w, "write_buffer");
    json_u64(w, "absorbed_bytes", st->buf_absorbed_bytes);
    json_u64(w, "held_at_end_bytes", st->buf_held_bytes);
    json_end_object(w);
    json_double(w, "waf", waf(st));

    json_begin_object(w, "utilization");
    json_begin_object(w, "dies");
    for (int k = 0; k < DIE_WORKS; k++)
        json_double(w, die_work_name(k), die_share(r, st->die_busy_ns[k]));
    json_double(w, "idle", idle_share(r));
    json_end_object(w);
    json_double(w, "channels", chan_share(r));
    json_end_object(w);

    json_begin_object(w, "throughput");
    json_double(w, "write_MBps", (double)st->host_bytes[IO_WRITE] / 1e6 / t);
    json_double(w, "read_MBps", (double)st->host_bytes[IO_READ] / 1e6 / t);
    json_double(w, "iops", (double)(st->host_ios[IO_READ] + st->host_ios[IO_WRITE]) / t);
    json_end_object(w);

    json_begin_object(w, "latency_us");
    latency_json(w, "read", workload_latency(r->workload, IO_READ));
    latency_json(w, "write", workload_latency(r->workload, IO_WRITE));
    latency_json(w, "trim", workload_latency(r->workload, IO_TRIM));
    LatParts lp[2];
    lat_parts(st, lp);
    for (int i = 0; i < 2; i++) {
        json_begin_object(w, lp[i].key);
        json_u64(w, "count", lp[i].n);
        for (int k = 0; k < lp[i].count; k++)
            json_double(w, lp[i].name(k), part_us(&lp[i], k));
        json_end_object(w);
    }
    json_end_object(w);

    json_begin_object(w, "pslc");
    json_u64(w, "static_bytes", st->pslc_static);
    json_u64(w, "limit_bytes", st->pslc_limit);
    json_u64(w, "limit_start_bytes", st->pslc_limit_start);
    json_u64(w, "used_bytes", st->pslc_used);
    json_u64(w, "host_slc_bytes", st->host_slc_bytes);
    if (st->pslc_first_exhausted == UINT64_MAX)
        json_null(w, "first_exhausted_at_host_bytes");
    else
        json_u64(w, "first_exhausted_at_host_bytes", st->pslc_first_exhausted);
    json_end_object(w);
    mapping_cache_json(r, w);

    json_begin_array(w, "phases");
    for (guint i = 0; i < r->phases->len; i++) {
        const PhaseSpan *s = &g_array_index(r->phases, PhaseSpan, i);
        json_begin_object(w, NULL);
        json_str(w, "kind", drive_phase_name(s->kind));
        json_u64(w, "start_host_bytes", s->start_host_bytes);
        json_u64(w, "end_host_bytes", s->end_host_bytes);
        json_double(w, "start_s", s->start_s);
        json_double(w, "end_s", s->end_s);
        json_double(w, "mean_write_MBps", span_MBps(s));
        json_double(w, "dies_busy", span_share(s, s->die_busy_s));
        json_double(w, "channels_busy", span_share(s, s->chan_busy_s));
        json_end_object(w);
    }
    json_end_array(w);

    if (r->steady)
        steady_json(r->steady, w);
    workload_write_jobs_json(r->workload, w);
    config_write_json(r->params, w);
    json_end_object(w);
}

static void latency_line(GString *out, const char *name, const LatHist *h)
{
    if (lat_hist_count(h) == 0)
        return;
    g_string_append_printf(out, "  %-6s %10" G_GUINT64_FORMAT " %10.1f", name, lat_hist_count(h),
                           lat_hist_mean(h) / 1e3);
    for (unsigned i = 0; i < G_N_ELEMENTS(pcts); i++)
        g_string_append_printf(out, " %10.1f", (double)lat_hist_percentile(h, pcts[i]) / 1e3);
    g_string_append_printf(out, " %10.1f\n", (double)lat_hist_max(h) / 1e3);
}

/* One line: where the mapping table lives and, when the drive counted
 * lookups, how the cache did. */
static void mapping_cache_text(const RunResult *r, GString *out)
{
    const DriveStats *st = r->stats;
    const DriveParams *p = r->params;
    uint64_t lookups = st->l2p_hits + st->l2p_misses;
    g_string_append_printf(out, "mapping   %s, %.2f MiB of a %.2f MiB table cached",
                           l2p_kind_name(p->l2p_kind), l2p_cached_bytes(p) / 1048576.0,
                           drive_params_l2p_bytes(p) / 1048576.0);
    if (lookups)
        g_string_append_printf(out,
                               "; %" G_GUINT64_FORMAT " hits, %" G_GUINT64_FORMAT
                               " misses (%.1f%% hit), %" G_GUINT64_FORMAT " write-backs",
                               st->l2p_hits, st->l2p_misses,
                               100.0 * (double)st->l2p_hits / (double)lookups, st->l2p_writebacks);
    g_string_append_c(out, '\n');
}


/* fio's verify: what the jobs read back and how much of it did not match
 * (a mismatch fails the run, so a finished run says 0). */
static void verify_line(GString *out, const Workload *w)
{
    uint64_t reads = 0, bytes = 0, bad = 0;
    gboolean any = FALSE;
    for (guint i = 0; i < workload_result_count(w); i++) {
        WorkloadJobResult jr;
        workload_result(w, i, &jr);
        any |= jr.spec->verify && jr.spec->do_verify;
        reads += jr.verify_reads;
        bytes += jr.verify_bytes;
        bad += jr.verify_mismatches;
    }
    if (any)
        g_string_append_printf(out, "verify    %" G_GUINT64_FORMAT " reads (%.3f GB) checked "
                               "against what was written, %" G_GUINT64_FORMAT " mismatches\n",
                               reads, (double)bytes / 1e9, bad);
}

void report_summary_text(const RunResult *r, GString *out)
{
    const DriveStats *st = r->stats;
    double t = r->sim_time_s > 0 ? r->sim_time_s : NAN;
    g_string_append_printf(out, "drive     %s (%s)\n", r->params->name, r->opt->drive);
    if (r->opt->sets && r->opt->sets[0]) {
        g_autofree char *sets = g_strjoinv(", ", (char **)r->opt->sets);
        g_string_append_printf(out, "overrides %s\n", sets);
    }
    g_string_append_printf(out, "workload  %s\n", workload_description(r->workload));
    WorkloadTraceInfo ti;
    if (workload_trace_info(r->workload, &ti))
        g_string_append_printf(out, "trace     %s format (%s)%s, %" G_GUINT64_FORMAT
                                    " malformed lines skipped\n",
                               ti.format, ti.detected ? "detected" : "named",
                               ti.header_skipped ? ", header line skipped" : "", ti.bad_lines);
    g_string_append_printf(out, "seed      %" G_GUINT64_FORMAT "\n", r->opt->seed);
    if (r->interrupted)
        g_string_append(out, "stopped   interrupted (SIGINT or SIGTERM): the results so far\n");
    if (r->opt->prefill)
        g_string_append_printf(out, "prefill   %s\n", r->opt->prefill);
    g_string_append_printf(out,
                           "simulated %.3f s in %.2f s wall (%" G_GUINT64_FORMAT
                           " events, peak RSS %.0f MiB)\n",
                           r->sim_time_s, r->wall_s, r->events, r->peak_rss / 1048576.0);
    g_string_append_printf(out, "host      wrote %.3f GB (%" G_GUINT64_FORMAT " IOs), read %.3f GB (%" G_GUINT64_FORMAT
                                " IOs), trimmed %.3f GB\n",
                           st->host_bytes[IO_WRITE] / 1e9, st->host_ios[IO_WRITE],
                           st->host_bytes[IO_READ] / 1e9, st->host_ios[IO_READ],
                           st->host_bytes[IO_TRIM] / 1e9);
    g_string_append_printf(out, "nand      wrote %.3f GB (host %.3f, gc %.3f, fold %.3f, map %.3f",
                           nand_total(st) / 1e9, st->nand_write_bytes[CAUSE_HOST] / 1e9,
                           st->nand_write_bytes[CAUSE_GC] / 1e9,
                           st->nand_write_bytes[CAUSE_FOLD] / 1e9,
                           st->nand_write_bytes[CAUSE_MAP] / 1e9);
    /* map units above 4 KiB: what partly covered units cost, read and rewritten */
    if (drive_params_map_unit(r->params) > SLOT_SIZE)
        g_string_append_printf(out, ", rmw %.3f), read %.3f GB (%.3f of it to merge units)",
                               st->nand_write_bytes[CAUSE_RMW] / 1e9, st->nand_read_bytes / 1e9,
                               st->rmw_read_bytes / 1e9);
    else
        g_string_append_printf(out, "), read %.3f GB", st->nand_read_bytes / 1e9);
    g_string_append_printf(out, ", %" G_GUINT64_FORMAT " erases\n", st->nand_erases);
    g_string_append(out, "wear      ");
    wear_text(out, "pool", &r->wear.pool);
    if (r->wear.static_slc.blocks) {
        g_string_append(out, "; ");
        wear_text(out, "static SLC", &r->wear.static_slc);
    }
    if (st->wl_blocks)
        g_string_append_printf(out, "; %" G_GUINT64_FORMAT " cold blocks moved", st->wl_blocks);
    g_string_append_c(out, '\n');
    g_string_append_printf(out, "buffer    absorbed %.3f GB (overwritten or trimmed before "
                                "programming), %.3f MB held at the end\n",
                           st->buf_absorbed_bytes / 1e9, st->buf_held_bytes / 1e6);
    g_string_append_printf(out, "waf       %.3f\n", waf(st));
    g_string_append(out, "busy      dies:");
    for (int k = 0; k < DIE_WORKS; k++)
        g_string_append_printf(out, " %s %.1f%%,", die_work_name(k),
                               100 * die_share(r, st->die_busy_ns[k]));
    g_string_append_printf(out, " idle %.1f%%; channels %.1f%%\n", 100 * idle_share(r),
                           100 * chan_share(r));
    g_string_append_printf(out, "speed     write %.1f MB/s, read %.1f MB/s, %.0f IOPS\n",
                           st->host_bytes[IO_WRITE] / 1e6 / t, st->host_bytes[IO_READ] / 1e6 / t,
                           (st->host_ios[IO_READ] + st->host_ios[IO_WRITE]) / t);
    verify_line(out, r->workload);
    g_string_append(out, "latency   (us)     count       mean        p50        p90        p99      "
                         "p99.9     p99.99        max\n");
    latency_line(out, "read", workload_latency(r->workload, IO_READ));
    latency_line(out, "write", workload_latency(r->workload, IO_WRITE));
    latency_line(out, "trim", workload_latency(r->workload, IO_TRIM));
    LatParts lp[2];
    lat_parts(st, lp);
    for (int i = 0; i < 2; i++) {
        if (!lp[i].n)
            continue;
        g_string_append_printf(out, "  %s mean, by part:", lp[i].label);
        for (int k = 0; k < lp[i].count; k++)
            g_string_append_printf(out, " %s %.1f", lp[i].name(k), part_us(&lp[i], k));
        g_string_append(out, " us\n");
    }
    if (st->pslc_static || st->pslc_limit_start) {
        g_string_append_printf(out, "pslc      static %.2f GB, limit %.2f GB now (%.2f GB at start), "
                                    "%.2f GB in SLC; host wrote %.2f GB to SLC\n",
                               st->pslc_static / 1e9, st->pslc_limit / 1e9,
                               st->pslc_limit_start / 1e9, st->pslc_used / 1e9,
                               st->host_slc_bytes / 1e9);
        if (st->pslc_first_exhausted != UINT64_MAX)
            g_string_append_printf(out, "          cache first ran out after %.2f GB written\n",
                                   st->pslc_first_exhausted / 1e9);
    }
    mapping_cache_text(r, out);
    if (r->steady)
        steady_text(r->steady, out);
    if (r->phases->len) {
        g_string_append(out, "phases    kind        from GB      to GB       MB/s  dies busy  "
                             "channels busy\n");
        /* a trace with idle gaps can make thousands of phases: the first
         * and the last few, phases.csv has them all */
        guint n = r->phases->len, head = n > REPORT_TEXT_PHASES ? REPORT_TEXT_PHASES - 3 : n;
        for (guint i = 0; i < n; i++) {
            if (i == head && head < n) {
                g_string_append_printf(out, "          ... %u more (phases.csv lists them all)\n",
                                       n - head - 3);
                i = n - 3;
            }
            const PhaseSpan *s = &g_array_index(r->phases, PhaseSpan, i);
            g_string_append_printf(out, "          %-8s %9.2f  %9.2f  %9.1f  %8.1f%%  %12.1f%%\n",
                                   drive_phase_name(s->kind), s->start_host_bytes / 1e9,
                                   s->end_host_bytes / 1e9, span_MBps(s),
                                   100 * span_share(s, s->die_busy_s),
                                   100 * span_share(s, s->chan_busy_s));
        }
    }
}
