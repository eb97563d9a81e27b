/*
 * report.c - series rows, phases, the sweep row, and the run summary (text
 * and JSON), each written from the table of figures (report_table.c).
 *
 * MB/s and GB are decimal (10^6, 10^9 bytes) as in the reviews; WAF is NAND
 * bytes programmed over host bytes written. summary.json follows the
 * table's order; summary.txt keeps its own layout (below), each value taken
 * from the table by its summary.json key.
 */
#include "sim/output/report.h"

#include "sim/output/report_table.h"

#include <math.h>
#include <string.h>

const double report_series_pcts[REPORT_SERIES_PCTS] = {50, 99, 99.9};

void report_series_header(FILE *f, gboolean latency)
{
    const ReportFigure *const *cols = report_series_columns(latency);
    for (int i = 0; cols[i]; i++)
        fprintf(f, "%s%s", i ? "," : "", cols[i]->series);
    fputc('\n', f);
}

void report_series_row(FILE *f, const SeriesRow *r)
{
    const ReportFigure *const *cols = report_series_columns(r->has_latency);
    for (int i = 0; cols[i]; i++) {
        if (i)
            fputc(',', f);
        report_series_cell(f, cols[i], r);
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

const char *report_sweep_header(void)
{
    static char *header;
    static gsize done;
    if (g_once_init_enter(&done)) {
        GString *h = g_string_new(NULL);
        const ReportFigure *const *cols = report_sweep_columns();
        for (int i = 0; cols[i]; i++)
            g_string_append_printf(h, "%s%s", i ? "," : "", cols[i]->sweep);
        header = g_string_free(h, FALSE);
        g_once_init_leave(&done, 1);
    }
    return header;
}

void report_sweep_row(const RunResult *r, GString *out)
{
    const ReportFigure *const *cols = report_sweep_columns();
    for (int i = 0; cols[i]; i++) {
        if (i)
            g_string_append_c(out, ',');
        report_sweep_cell(out, cols[i], r);
    }
    g_string_append_c(out, '\n');
}

void report_phases_json(const RunResult *r, JsonWriter *w, const char *key)
{
    json_begin_array(w, key);
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
}

/* A latency object of summary.json from a histogram of its own (the
 * steady window's); the run's latencies are figures of the table. */
static void latency_json(JsonWriter *w, const char *key, const LatHist *h)
{
    static const double pcts[] = {50, 90, 99, 99.9, 99.99};
    static const char *const pct_names[] = {"p50", "p90", "p99", "p99.9", "p99.99"};
    json_begin_object(w, key);
    json_u64(w, "count", lat_hist_count(h));
    json_double(w, "mean", lat_hist_mean(h) / 1e3);
    for (unsigned i = 0; i < G_N_ELEMENTS(pcts); i++)
        json_double(w, pct_names[i], (double)lat_hist_percentile(h, pcts[i]) / 1e3);
    json_double(w, "max", (double)lat_hist_max(h) / 1e3);
    json_end_object(w);
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

void report_steady_json(const RunResult *r, JsonWriter *w, const char *key)
{
    const RunSteady *s = r->steady;
    const WorkloadSteady *ws = &s->ws;
    json_begin_object(w, key);
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

/* Open and close objects so that the innermost open one is `group` (a
 * dotted path); open[] holds the components open now. */
static void json_enter(JsonWriter *w, GPtrArray *open, const char *group)
{
    g_auto(GStrv) want = *group ? g_strsplit(group, ".", -1) : g_new0(char *, 1);
    guint same = 0;
    while (same < open->len && want[same] && strcmp(open->pdata[same], want[same]) == 0)
        same++;
    while (open->len > same) {
        json_end_object(w);
        g_ptr_array_remove_index(open, open->len - 1);
    }
    for (guint i = same; want[i]; i++) {
        json_begin_object(w, want[i]);
        g_ptr_array_add(open, g_strdup(want[i]));
    }
}

void report_summary_json(const RunResult *r, JsonWriter *w)
{
    size_t n;
    const ReportFigure *t = report_table(&n);
    g_autoptr(GPtrArray) open = g_ptr_array_new_with_free_func(g_free);
    json_begin_object(w, NULL);
    for (size_t i = 0; i < n; i++) {
        const ReportFigure *f = &t[i];
        if (!(f->out & OUT_JSON) || (f->present && !f->present(r)))
            continue;
        json_enter(w, open, f->group);
        if (f->json) {
            f->json(r, w, f->key);
            continue;
        }
        FigValue v = report_figure_value(f, r);
        switch (v.kind) {
        case FIG_NULL:
            json_null(w, f->key);
            break;
        case FIG_U64:
            json_u64(w, f->key, v.u);
            break;
        case FIG_F64:
            json_double(w, f->key, v.f);
            break;
        case FIG_STR:
            json_str(w, f->key, v.s);
            break;
        case FIG_BOOL:
            json_bool(w, f->key, v.u != 0);
            break;
        }
    }
    json_enter(w, open, "");
    json_end_object(w);
}

/* Append tmpl with every {group.key} replaced by that figure as summary.txt
 * prints it (report_table.c). */
static void text_fill(GString *out, const RunResult *r, const char *tmpl)
{
    for (const char *p = tmpl; *p;) {
        const char *open = strchr(p, '{');
        if (!open) {
            g_string_append(out, p);
            return;
        }
        g_string_append_len(out, p, open - p);
        const char *close = strchr(open, '}');
        g_autofree char *path = g_strndup(open + 1, (gsize)(close - open - 1));
        const ReportFigure *f = report_figure(path);
        g_assert(f && (f->out & OUT_TEXT));
        report_text_value(out, f, r);
        p = close + 1;
    }
}

/* " KEY VALUEafter" for each summary.txt figure of a summary.json group
 * but `skip`, labelled by its key. */
static void text_group(GString *out, const RunResult *r, const char *group, const char *skip,
                       const char *after)
{
    size_t n;
    const ReportFigure *t = report_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (!(t[i].out & OUT_TEXT) || !t[i].group || strcmp(t[i].group, group) != 0 ||
            strcmp(t[i].key, skip) == 0)
            continue;
        g_string_append_printf(out, " %s ", t[i].key);
        report_text_value(out, &t[i], r);
        g_string_append(out, after);
    }
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

static void overrides_text(const RunResult *r, GString *out)
{
    g_autofree char *sets = g_strjoinv(", ", (char **)r->sets);
    g_string_append_printf(out, "overrides %s\n", sets);
}

static void trace_text(const RunResult *r, GString *out)
{
    WorkloadTraceInfo ti;
    if (workload_trace_info(r->workload, &ti))
        g_string_append_printf(out, "trace     %s format (%s)%s, %" G_GUINT64_FORMAT
                                    " malformed lines skipped\n",
                               ti.format, ti.detected ? "detected" : "named",
                               ti.header_skipped ? ", header line skipped" : "", ti.bad_lines);
}

static void busy_text(const RunResult *r, GString *out)
{
    g_string_append(out, "busy      dies:");
    text_group(out, r, "utilization.dies", "idle", "%,");
    text_fill(out, r, " idle {utilization.dies.idle}%; channels {utilization.channels}%; "
                      "controller {utilization.controller}%\n");
}

static void verify_text(const RunResult *r, GString *out) { verify_line(out, r->workload); }

static void read_parts_text(const RunResult *r, GString *out)
{
    g_string_append(out, "  read mean, by part:");
    text_group(out, r, "latency_us.read_parts", "count", "");
    g_string_append(out, " us\n");
}

static void write_parts_text(const RunResult *r, GString *out)
{
    g_string_append(out, "  write mean, by part:");
    text_group(out, r, "latency_us.write_parts", "count", "");
    g_string_append(out, " us\n");
}

/* The phases table; a trace with idle gaps can make thousands of phases:
 * the first and the last few, phases.csv has them all. */
static void phases_text(const RunResult *r, GString *out)
{
    g_string_append(out, "phases    kind        from GB      to GB       MB/s  dies busy  "
                         "channels busy\n");
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

static void steady_piece(const RunResult *r, GString *out) { steady_text(r->steady, out); }

/* When a piece of summary.txt is there. */
static gboolean has_overrides(const RunResult *r) { return r->sets && r->sets[0]; }
static gboolean has_prefill(const RunResult *r) { return r->prefill != NULL; }
static gboolean was_interrupted(const RunResult *r) { return r->interrupted; }
static gboolean has_static_slc(const RunResult *r) { return r->wear.static_slc.blocks != 0; }
static gboolean has_static_moves(const RunResult *r) { return r->stats->wl_blocks != 0; }
static gboolean has_reads(const RunResult *r) { return lat_hist_count(workload_latency(r->workload, IO_READ)) > 0; }
static gboolean has_writes(const RunResult *r) { return lat_hist_count(workload_latency(r->workload, IO_WRITE)) > 0; }
static gboolean has_trims(const RunResult *r) { return lat_hist_count(workload_latency(r->workload, IO_TRIM)) > 0; }
static gboolean has_read_parts(const RunResult *r) { return r->stats->read_parts_n != 0; }
static gboolean has_write_parts(const RunResult *r) { return r->stats->write_parts_n != 0; }
static gboolean has_pslc(const RunResult *r) { return r->stats->pslc_static || r->stats->pslc_limit_start; }
static gboolean pslc_ran_out(const RunResult *r) { return has_pslc(r) && r->stats->pslc_first_exhausted != UINT64_MAX; }
static gboolean has_lookups(const RunResult *r) { return r->stats->l2p_hits + r->stats->l2p_misses != 0; }
static gboolean has_phases(const RunResult *r) { return r->phases->len != 0; }
static gboolean has_steady(const RunResult *r) { return r->steady != NULL; }
/* Map units above 4 KiB: what partly covered units cost, read and rewritten. */
static gboolean big_map_unit(const RunResult *r) { return drive_params_map_unit(r->params) > SLOT_SIZE; }
static gboolean small_map_unit(const RunResult *r) { return !big_map_unit(r); }

/* summary.txt, piece by piece: a template of figures ({group.key}, see
 * text_fill) or a function, each when its condition holds. */
static const struct {
    gboolean (*when)(const RunResult *r); /* NULL: always */
    const char *tmpl;
    void (*fn)(const RunResult *r, GString *out);
} summary_text[] = {
    {NULL, "drive     {drive} ({drive_file})\n", NULL},
    {has_overrides, NULL, overrides_text},
    {NULL, "workload  {workload}\n", NULL},
    {NULL, NULL, trace_text},
    {NULL, "seed      {seed}\n", NULL},
    {was_interrupted, "stopped   interrupted (SIGINT, SIGTERM or SIGHUP): the results so far\n", NULL},
    {has_prefill, "prefill   {prefill}\n", NULL},
    {NULL, "simulated {sim_time_s} s in {wall_time_s} s wall ({setup_wall_s} s set-up and prefill "
           "before it, {total_wall_s} s in all; {events} events, peak RSS {peak_rss_bytes} MiB)\n",
     NULL},
    {NULL, "host      wrote {host.write_bytes} GB ({host.write_ios} IOs), read {host.read_bytes} GB "
           "({host.read_ios} IOs), trimmed {host.trim_bytes} GB\n", NULL},
    {NULL, "nand      wrote {nand.write_bytes.total} GB (host {nand.write_bytes.by_cause.host}, gc "
           "{nand.write_bytes.by_cause.gc}, fold {nand.write_bytes.by_cause.fold}, map "
           "{nand.write_bytes.by_cause.map}", NULL},
    {big_map_unit, ", rmw {nand.write_bytes.by_cause.rmw}), read {nand.read_bytes} GB "
                   "({nand.rmw_read_bytes} of it to merge units)", NULL},
    {small_map_unit, "), read {nand.read_bytes} GB", NULL},
    {NULL, ", {nand.erases} erases\n", NULL},
    {NULL, "wear      pool {nand.wear.pool.blocks} blocks, P/E mean {nand.wear.pool.mean} (min "
           "{nand.wear.pool.min}, max {nand.wear.pool.max})", NULL},
    {has_static_slc, "; static SLC {nand.wear.static_slc.blocks} blocks, P/E mean "
                     "{nand.wear.static_slc.mean} (min {nand.wear.static_slc.min}, max "
                     "{nand.wear.static_slc.max})", NULL},
    {has_static_moves, "; {nand.wear.static_moves} cold blocks moved", NULL},
    {NULL, "\n", NULL},
    {NULL, "buffer    absorbed {write_buffer.absorbed_bytes} GB (overwritten or trimmed before "
           "programming), {write_buffer.held_at_end_bytes} MB held at the end\n", NULL},
    {NULL, "waf       {waf}\n", NULL},
    {NULL, NULL, busy_text},
    {NULL, "speed     write {throughput.write_MBps} MB/s, read {throughput.read_MBps} MB/s, "
           "{throughput.iops} IOPS\n", NULL},
    {NULL, NULL, verify_text},
    {NULL, "latency   (us)     count       mean        p50        p90        p99      p99.9     "
           "p99.99        max\n", NULL},
    {has_reads, "  read   {latency_us.read.count} {latency_us.read.mean} {latency_us.read.p50} "
                "{latency_us.read.p90} {latency_us.read.p99} {latency_us.read.p99.9} "
                "{latency_us.read.p99.99} {latency_us.read.max}\n", NULL},
    {has_writes, "  write  {latency_us.write.count} {latency_us.write.mean} {latency_us.write.p50} "
                 "{latency_us.write.p90} {latency_us.write.p99} {latency_us.write.p99.9} "
                 "{latency_us.write.p99.99} {latency_us.write.max}\n", NULL},
    {has_trims, "  trim   {latency_us.trim.count} {latency_us.trim.mean} {latency_us.trim.p50} "
                "{latency_us.trim.p90} {latency_us.trim.p99} {latency_us.trim.p99.9} "
                "{latency_us.trim.p99.99} {latency_us.trim.max}\n", NULL},
    {has_read_parts, NULL, read_parts_text},
    {has_write_parts, NULL, write_parts_text},
    {has_pslc, "pslc      static {pslc.static_bytes} GB, limit {pslc.limit_bytes} GB now "
               "({pslc.limit_start_bytes} GB at start), {pslc.used_bytes} GB in SLC; host wrote "
               "{pslc.host_slc_bytes} GB to SLC\n", NULL},
    {pslc_ran_out, "          cache first ran out after {pslc.first_exhausted_at_host_bytes} GB "
                   "written\n", NULL},
    {NULL, "mapping   {mapping_cache.kind}, {mapping_cache.cache_bytes} MiB of a "
           "{mapping_cache.table_bytes} MiB table cached", NULL},
    {has_lookups, "; {mapping_cache.hits} hits, {mapping_cache.misses} misses "
                  "({mapping_cache.hit_percent}% hit), {mapping_cache.writebacks} write-backs", NULL},
    {NULL, "\n", NULL},
    {report_has_fdp, NULL, report_fdp_text},
    {report_has_zns, NULL, report_zns_text},
    {has_steady, NULL, steady_piece},
    {has_phases, NULL, phases_text},
};

void report_summary_text(const RunResult *r, GString *out)
{
    for (size_t i = 0; i < G_N_ELEMENTS(summary_text); i++) {
        if (summary_text[i].when && !summary_text[i].when(r))
            continue;
        if (summary_text[i].tmpl)
            text_fill(out, r, summary_text[i].tmpl);
        else
            summary_text[i].fn(r, out);
    }
}
