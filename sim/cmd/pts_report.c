/*
 * pts_report.c - the files of a PTS test (docs/pts.md#outputs): every
 * cell of every round (rounds.csv), the tracking variable and its verdicts
 * (steady_state.csv), the test's own table (NAME.csv, from its descriptor's
 * hook), summary.txt and summary.json, and the figures.
 */
#include "sim/cmd/pts_impl.h"

#include "sim/engine/version.h"
#include "sim/engine/json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *pts_access(const PtsCell *c)
{
    return c->seq ? "seq" : "random";
}

static void pts_rounds_csv(const Pts *p, GString *out)
{
    g_string_append(out, "round,bs_bytes,read_pct,access,seconds,t_end_s,iops,MBps,mean_us,"
                         "p99_us,max_us,host_GB_written,waf,threads,iodepth\n");
    for (guint i = 0; i < p->rows->len; i++) {
        const PtsRow *r = &g_array_index(p->rows, PtsRow, i);
        const PtsCell *c = &p->cells[r->cell];
        g_string_append_printf(out,
                               "%u,%" G_GUINT64_FORMAT ",%u,%s,%.3f,%.3f,%.1f,%.2f,%.2f,%.2f,%.2f,"
                               "%.3f,%.3f,%u,%u\n",
                               r->round, c->bs, c->read_pct, pts_access(c), r->seconds, r->t_end_s,
                               r->iops, r->MBps, r->mean_us, r->p99_us, r->max_us,
                               r->host_written / 1e9, isnan(r->waf) ? 0.0 : r->waf,
                               c->threads ? c->threads : p->threads,
                               c->iodepth ? c->iodepth : p->iodepth);
    }
}

static void pts_steady_csv(const Pts *p, GString *out)
{
    g_string_append(out, "bs_bytes,read_pct,round,value,window_first,window_avg,excursion_pct,"
                         "slope_pct,steady\n");
    for (uint32_t s = 0; s < p->n_subs; s++) {
        const PtsSub *sub = &p->subs[s];
        const PtsCell *c = &p->cells[sub->track];
        for (guint i = 0; i < sub->values->len; i++) {
            const SteadyWindow *w = &g_array_index(sub->windows, SteadyWindow, i);
            g_string_append_printf(out, "%" G_GUINT64_FORMAT ",%u,%u,%.4g", c->bs, c->read_pct,
                                   i + 1, g_array_index(sub->values, double, i));
            if (w->last == 0)
                g_string_append(out, ",,,,,-\n");
            else
                g_string_append_printf(out, ",%zu,%.4g,%.2f,%.2f,%s\n", w->first, w->avg,
                                       100 * w->excursion, 100 * w->slope_excursion,
                                       w->steady ? "yes" : "no");
        }
    }
}


double pts_active_bytes(const Pts *p)
{
    return (double)p->capacity * p->active_pct / 100;
}

char *pts_written_range(const Pts *p)
{
    if (p->written_lo > p->written_hi)
        return g_strdup("the rounds wrote nothing");
    return g_strdup_printf("the rounds wrote LBAs from %.1f to %.1f GB (%.1f%% of the capacity)",
                           (double)p->written_lo * 4096 / 1e9, (double)p->written_hi * 4096 / 1e9,
                           100.0 * (double)p->written_hi * 4096 / (double)p->capacity);
}

double pts_capacities_written(const Pts *p)
{
    return g_array_index(p->rows, PtsRow, p->rows->len - 1).test_written / (double)p->capacity;
}

const char *pts_end_text(const Pts *p, const PtsSub *s)
{
    switch (s->end) {
    case PTS_END_FILLS:
        return p->t->fills == 4 ? "at 4 x capacity" : "at the capacities asked";
    case PTS_END_SIGNAL:
        return "by a signal";
    case PTS_END_STEADY:
        return "at steady state";
    default:
        return "at the round limit";
    }
}

/* wsat's lines: how the rounds ended and the trend over the last capacity
 * written (no steady-state judgement). */
static void pts_trend_lines(const Pts *p, const PtsSub *s, GString *out)
{
    const PtsCell *c = &p->cells[s->track];
    g_autofree char *bs = pts_bs_label(c->bs);
    g_string_append_printf(out, "ended        %s: %u rounds, %.2f x capacity written\n",
                           pts_end_text(p, s), s->rounds, pts_capacities_written(p));
    if (s->trend.n == 0) {
        g_string_append_printf(out, "trend        none: less than one capacity written (the "
                                    "results are those of the last rounds)\n");
        return;
    }
    g_string_append_printf(out,
                           "trend        rounds %u-%u (the last capacity written, %.4g-%.4g GB): "
                           "%s %s %u/%u %.6g %s on average, %+.1f%% over them: %s (flat: within "
                           "10%% either way",
                           s->trend_first, s->rounds, s->trend.x_first * 1e3, s->trend.x_last * 1e3,
                           bs, c->seq ? "seq" : "random", c->read_pct, 100 - c->read_pct,
                           s->trend.mean, p->t->track_unit, 100 * s->trend.change,
                           pts_trend_word(&s->trend));
    double waf = p->results[s->track].waf;
    if (!isnan(waf))
        g_string_append_printf(out, "; WAF %.2f", waf);
    g_string_append(out, ")\n");
}

static void pts_steady_line(const Pts *p, const PtsSub *s, GString *out)
{
    const PtsCell *c = &p->cells[s->track];
    g_autofree char *bs = pts_bs_label(c->bs);
    if (p->t->fills > 0) {
        pts_trend_lines(p, s, out);
        return;
    }
    if (s->steady_round)
        g_string_append_printf(out, "steady state round %u", s->steady_round);
    else
        g_string_append_printf(out, "steady state not reached in %u rounds", s->rounds);
    g_string_append_printf(out,
                           " (%s %s %u/%u; window %zu-%zu: %.6g %s, range %.1f%%, slope "
                           "%.1f%%",
                           bs, c->seq ? "seq" : "random", c->read_pct, 100 - c->read_pct,
                           s->win.first, s->win.last, s->win.avg, p->t->track_unit,
                           100 * s->win.excursion, 100 * s->win.slope_excursion);
    double waf = p->results[s->track].waf;
    if (!isnan(waf))
        g_string_append_printf(out, "; WAF %.2f", waf);
    g_string_append(out, ")\n");
}

char *pts_bound(const Pts *p, const PtsSub *s)
{
    PtsBusy b = {0};
    double n = 0;
    uint32_t sub = (uint32_t)(s - p->subs);
    for (guint i = 0; i < p->rows->len; i++) {
        const PtsRow *r = &g_array_index(p->rows, PtsRow, i);
        if (r->sub != sub || r->cell != s->track || r->round < s->win.first ||
            r->round > s->win.last)
            continue;
        b.ctrl += r->busy.ctrl, b.dies += r->busy.dies;
        b.chan += r->busy.chan, b.link += r->busy.link;
        n++;
    }
    if (n == 0)
        return g_strdup("nothing measured");
    const char *names[] = {"the controller", "the dies", "the channels", "the host link"};
    const char *short_names[] = {"controller", "dies", "channels", "link"};
    double v[] = {b.ctrl / n, b.dies / n, b.chan / n, b.link / n};
    unsigned top = 0;
    for (unsigned k = 1; k < 4; k++)
        if (v[k] > v[top])
            top = k;
    GString *t = g_string_new(NULL);
    g_string_append_printf(t, "%s (busy %.0f%%;", names[top], 100 * v[top]);
    for (unsigned k = 0, first = 1; k < 4; k++)
        if (k != top) {
            g_string_append_printf(t, "%s %s %.0f%%", first ? "" : ",", short_names[k], 100 * v[k]);
            first = 0;
        }
    g_string_append(t, v[top] < 0.9 ? "; none saturated: the host's queue depth bounds it)"
                                     : ")");
    return g_string_free(t, FALSE);
}

void pts_summary_text(const Pts *p, GString *out)
{
    pts_summary_lines(p, TRUE, out);
}

void pts_summary_lines(const Pts *p, gboolean tables, GString *out)
{
    const PtsOptions *o = p->o;
    g_string_append_printf(out, "drive        %s (%s)\n", p->params.name, o->drive);
    g_string_append_printf(out, "test         SNIA %s %s, %u thread%s x QD %u",
                           o->spec == PTS_SPEC_CLIENT ? pts_spec_short(o->spec) : "PTS",
                           p->t->title, p->threads, p->threads == 1 ? "" : "s", p->iodepth);
    uint32_t oio = p->threads * p->iodepth;
    if (oio > p->queue_limit)
        g_string_append_printf(out,
                               " (%u outstanding; %u at the drive, the rest in the host queue)",
                               oio, p->queue_limit);
    if (p->t->no_rounds)
        g_string_append_printf(out, "\nrounds       none: the stimulus is measured in intervals of "
                                    "%g s", (double)o->round_time / 1e9);
    else if (p->max_rounds != UINT32_MAX)
        g_string_append_printf(out, "\nrounds       %g s a cell, at most %u",
                               (double)o->round_time / 1e9, p->max_rounds);
    else
        g_string_append_printf(out, "\nrounds       %g s a cell, until %.0f x capacity written",
                               (double)o->round_time / 1e9, p->t->fills);
    g_string_append_printf(out, "; seed %" G_GUINT64_FORMAT "\n", o->seed);
    if (o->precondition == PTS_PRECOND_NONE)
        g_string_append(out, "precondition none (purged drive)\n");
    else if (o->precondition == PTS_PRECOND_FAST)
        g_string_append(out, "precondition fast: the state of a sequential fill, not simulated\n");
    else if (o->precondition == PTS_PRECOND_RANDOM)
        g_string_append(out, "precondition random: the state of a fill and a capacity of random "
                             "overwrites, not simulated\n");
    else
        g_string_append_printf(out,
                               "precondition 2 x capacity in 128 KiB sequential writes: %.0f s "
                               "simulated\n",
                               p->subs[0].precond_s);
    if (p->active_pct < 100) {
        g_autofree char *written = pts_written_range(p);
        g_string_append_printf(out, "active range %u%% of the LBAs (0 to %.1f GB) for the rounds; "
                                    "%s\n",
                               p->active_pct, pts_active_bytes(p) / 1e9, written);
    }
    if (p->interrupted)
        g_string_append(out, "stopped      by a signal: the whole rounds before it\n");
    for (uint32_t s = 0; s < p->n_subs && !p->t->no_rounds; s++) {
        pts_steady_line(p, &p->subs[s], out);
        g_autofree char *bound = pts_bound(p, &p->subs[s]);
        g_autofree char *bs = pts_bs_label(p->cells[p->subs[s].track].bs);
        g_string_append_printf(out, "bounded by   %s over rounds %zu-%zu of %s %u/%u\n", bound,
                               p->subs[s].win.first, p->subs[s].win.last, bs,
                               p->cells[p->subs[s].track].read_pct,
                               100 - p->cells[p->subs[s].track].read_pct);
    }
    if (tables)
        p->t->summary(p, out);
    g_string_append_printf(out, "simulated    %.0f s, %" G_GUINT64_FORMAT " events, %.1f s wall\n",
                           p->sim_s, p->events, p->wall_s);
}

/* wsat's summary: how it ended and the trend; no steady state is judged. */
static void pts_wsat_json(const Pts *p, JsonWriter *jw)
{
    const PtsSub *sub = &p->subs[0];
    static const char *const ends[] = {"steady", "rounds", "fills", "signal"};
    json_begin_object(jw, "wsat");
    json_str(jw, "end", ends[sub->end]);
    json_u64(jw, "rounds_run", sub->rounds);
    json_double(jw, "capacities_written", pts_capacities_written(p));
    if (sub->trend.n > 0) {
        json_begin_object(jw, "trend");
        json_u64(jw, "first_round", sub->trend_first);
        json_u64(jw, "last_round", sub->rounds);
        json_double(jw, "first_TB", sub->trend.x_first);
        json_double(jw, "last_TB", sub->trend.x_last);
        json_double(jw, "mean", sub->trend.mean);
        json_double(jw, "slope_per_TB", sub->trend.slope);
        json_double(jw, "intercept", sub->trend.intercept);
        json_double(jw, "change", sub->trend.change);
        json_str(jw, "verdict", pts_trend_word(&sub->trend));
        json_end_object(jw);
    } else {
        json_null(jw, "trend");
    }
    json_end_object(jw);
}

/* Each cell's results. */
static void pts_cells_json(const Pts *p, JsonWriter *jw)
{
    json_begin_array(jw, "cells");
    for (uint32_t c = 0; c < p->n_cells && !p->t->no_rounds; c++) {
        const PtsResult *r = &p->results[c];
        json_begin_object(jw, NULL);
        json_u64(jw, "bs_bytes", p->cells[c].bs);
        json_u64(jw, "read_pct", p->cells[c].read_pct);
        json_str(jw, "access", pts_access(&p->cells[c]));
        json_double(jw, "iops", r->iops);
        json_double(jw, "MBps", r->MBps);
        json_double(jw, "mean_us", r->mean_us);
        if (!isnan(r->waf))
            json_double(jw, "waf", r->waf);
        if (p->t->window_latency) {
            json_double(jw, "p99_us", r->p99_us);
            json_double(jw, "p99_9_us", r->p999_us);
            json_double(jw, "p99_99_us", r->p9999_us);
            json_double(jw, "max_us", r->max_us);
        }
        json_end_object(jw);
    }
    json_end_array(jw);
}

static void pts_summary_json(const Pts *p, JsonWriter *jw)
{
    const PtsOptions *o = p->o;
    json_begin_object(jw, NULL);
    json_str(jw, "ftlsim", ftlsim_version());
    json_str(jw, "drive", p->params.name);
    json_str(jw, "drive_file", o->drive);
    json_begin_array(jw, "overrides");
    for (int i = 0; o->sets && o->sets[i]; i++)
        json_str(jw, NULL, o->sets[i]);
    json_end_array(jw);
    json_str(jw, "test", pts_test_name(o->test));
    json_str(jw, "spec", o->spec == PTS_SPEC_CLIENT ? "client" : "enterprise");
    json_str(jw, "specification", pts_spec_short(o->spec));
    json_bool(jw, "interrupted", p->interrupted);
    json_u64(jw, "threads", p->threads);
    json_u64(jw, "iodepth", p->iodepth);
    json_u64(jw, "queue_limit", p->queue_limit);
    json_double(jw, "round_time_s", (double)o->round_time / 1e9);
    if (p->max_rounds == UINT32_MAX || p->t->no_rounds)
        json_null(jw, "max_rounds");
    else
        json_u64(jw, "max_rounds", p->max_rounds);
    json_u64(jw, "seed", o->seed);
    json_str(jw, "precondition", pts_precondition_name(o->precondition));
    json_u64(jw, "capacity_bytes", p->capacity);
    /* what the stimulus may touch, and what the rounds wrote (4 KiB pages
     * programmed from the write buffer) */
    json_begin_object(jw, "active_range");
    json_u64(jw, "pct", p->active_pct);
    json_u64(jw, "bytes", (uint64_t)pts_active_bytes(p));
    if (p->written_lo <= p->written_hi) {
        json_u64(jw, "written_first_byte", p->written_lo * 4096);
        json_u64(jw, "written_end_byte", p->written_hi * 4096);
    }
    json_end_object(jw);
    if (p->t->fills > 0)
        pts_wsat_json(p, jw);
    json_begin_array(jw, "steady_state");
    for (uint32_t s = 0; s < p->n_subs && p->t->fills == 0 && !p->t->no_rounds; s++) {
        const PtsSub *sub = &p->subs[s];
        json_begin_object(jw, NULL);
        json_u64(jw, "bs_bytes", p->cells[sub->track].bs);
        json_u64(jw, "read_pct", p->cells[sub->track].read_pct);
        json_bool(jw, "reached", sub->steady_round != 0);
        json_u64(jw, "round", sub->steady_round);
        json_u64(jw, "rounds_run", sub->rounds);
        json_u64(jw, "window_first", sub->win.first);
        json_u64(jw, "window_last", sub->win.last);
        json_double(jw, "window_avg", sub->win.avg);
        json_double(jw, "excursion", sub->win.excursion);
        json_double(jw, "slope", sub->win.slope);
        json_double(jw, "slope_excursion", sub->win.slope_excursion);
        json_double(jw, "precondition_s", sub->precond_s);
        json_end_object(jw);
    }
    json_end_array(jw);
    if (p->t->json)
        p->t->json(p, jw);
    pts_cells_json(p, jw);
    json_double(jw, "sim_time_s", p->sim_s);
    json_double(jw, "wall_s", p->wall_s);
    json_u64(jw, "events", p->events);
    json_end_object(jw);
}

gboolean pts_write_results(const Pts *p, OutDir *od, GError **error)
{
    g_autoptr(GString) s = g_string_new(NULL);
    if (!p->t->no_rounds) { /* else there are no rounds to list */
        pts_rounds_csv(p, s);
        if (!outdir_write_text(od, "rounds.csv", s->str, error))
            return FALSE;
        g_string_truncate(s, 0);
        pts_steady_csv(p, s);
        if (!outdir_write_text(od, "steady_state.csv", s->str, error))
            return FALSE;
        g_string_truncate(s, 0);
    }
    p->t->table_csv(p, s);
    g_autofree char *table = g_strdup_printf("%s.csv", p->t->name);
    if (!outdir_write_text(od, table, s->str, error))
        return FALSE;
    if (p->t->table2) {
        g_string_truncate(s, 0);
        p->t->table2_csv(p, s);
        g_autofree char *table2 = g_strdup_printf("%s.csv", p->t->table2);
        if (!outdir_write_text(od, table2, s->str, error))
            return FALSE;
    }
    g_string_truncate(s, 0);
    pts_summary_text(p, s);
    if (!outdir_write_text(od, "summary.txt", s->str, error))
        return FALSE;
    g_autoptr(JsonWriter) jw = json_writer_new();
    pts_summary_json(p, jw);
    return outdir_write_text(od, "summary.json", json_writer_str(jw), error);
}

/* The convergence plot of PTS-E: the tracked mix's value per round for
 * every block size, from rounds.csv. */
static gboolean pts_plot_convergence(const Pts *p, PlotFormat fmt, GError **error)
{
    const PtsCell *c = &p->cells[p->subs[0].track];
    /* a matrix of threads x QD (ecw): the tracked point's rounds only */
    g_autofree char *vars = g_strdup_printf(
        "judged=%d; track_pct=%u; ycol='%s'; unit='%s'; what='%s'; tq_threads=%u; tq_iodepth=%u; ",
        p->t->fills == 0, c->read_pct, p->t->track_column, p->t->track_unit, p->t->title,
        c->threads, c->iodepth);
    return plot_script(p->o->out, p->o->script_dir, "pts_convergence", "convergence", vars, fmt,
                       error);
}

static gboolean pts_plot_steady(const Pts *p, const PtsSub *s, PlotFormat fmt, GError **error)
{
    const PtsCell *c = &p->cells[s->track];
    g_autofree char *bs = pts_bs_label(c->bs);
    g_autofree char *base =
        p->t->seq ? g_strdup_printf("steady_state_%s", bs) : g_strdup("steady_state");
    g_autofree char *vars = g_strdup_printf(
        "bs=%" G_GUINT64_FORMAT "; wfirst=%zu; wlast=%zu; avg=%.17g; slope=%.17g; "
        "intercept=%.17g; steady=%d; steady_round=%u; what='%s %s %u/%u'; unit='%s'; "
        "excursion=%.17g; slope_excursion=%.17g; track_pct=%u; ycol='%s'; ",
        c->bs, s->win.first, s->win.last, s->win.avg, s->win.slope, s->win.intercept,
        s->steady_round != 0, s->steady_round, bs, c->seq ? "sequential" : "random", c->read_pct,
        100 - c->read_pct, p->t->track_unit, 100 * s->win.excursion, 100 * s->win.slope_excursion,
        c->read_pct, p->t->track_column);
    return plot_script(p->o->out, p->o->script_dir, "pts_steady", base, vars, fmt, error);
}

void pts_plot_format(const Pts *p, PlotFormat fmt, gboolean warn)
{
    g_autofree char *figure = g_strdup_printf("pts_%s", p->t->name);
    g_autofree char *figure_vars = p->t->figure_vars ? p->t->figure_vars(p) : NULL;
    GError *e = NULL;
    if (!p->t->no_rounds)
        pts_plot_convergence(p, fmt, &e);
    for (uint32_t s = 0; s < p->n_subs && !e && p->t->fills == 0 && !p->t->no_rounds; s++)
        pts_plot_steady(p, &p->subs[s], fmt, &e);
    if (!e)
        plot_script(p->o->out, p->o->script_dir, figure, p->t->name, figure_vars, fmt, &e);
    for (unsigned f = 0; f < p->t->n_figures && !e; f++)
        plot_script(p->o->out, p->o->script_dir, p->t->figures[f].script, p->t->figures[f].name,
                    p->t->figures[f].vars, fmt, &e);
    if (e && warn)
        plot_warn(e);
    else if (e)
        g_error_free(e);
}

void pts_plot(const Pts *p)
{
    pts_plot_format(p, p->o->plot_format, TRUE);
}
