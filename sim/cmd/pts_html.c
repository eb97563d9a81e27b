/*
 * pts_html.c - report.html of a PTS test's results folder: the header of
 * the PTS-E 1.1 (or PTS-C 1.2) report (specification, drive, purge, write cache, active
 * range, data pattern, test parameters), warnings where the steady-state
 * verdict says little, then in the order of SNIA's sample reports the
 * steady-state table, the results in the specification's orientation
 * (block sizes down from the smallest, R/W mixes across from 0/100), the
 * figures; the drive's derived bounds and the files.
 */
#include "sim/cmd/pts_impl.h"

#include "sim/cmd/run.h"
#include "sim/output/html.h"

#include "sim/engine/version.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

static void pts_html_row(GPtrArray *rows, const char *label, const char *value)
{
    char **r = g_new0(char *, 3);
    r[0] = g_strdup(label);
    r[1] = g_strdup(value);
    g_ptr_array_add(rows, r);
}

/* The header's rows on how the test was run: preconditioning, threads
 * and queue depth, rounds, the steady-state rule. */
static void pts_html_method_rows(GPtrArray *rows, const Pts *p)
{
    const PtsOptions *o = p->o;
    const char *pre = o->precondition == PTS_PRECOND_NONE
                          ? (p->t->fills > 0      ? "none: WSAT starts from the purged drive"
                             : p->t->no_rounds ? "none: the test's stimulus starts from the "
                                                 "purged drive"
                                               : "none: the rounds start from the purged drive")
                      : o->precondition == PTS_PRECOND_FAST
                          ? "workload independent: the state of a sequential fill (fast, not "
                            "simulated)"
                      : o->precondition == PTS_PRECOND_RANDOM
                          ? "workload independent: the state of a fill and a capacity of random "
                            "overwrites (not simulated)"
                      : p->t->no_rounds
                          ? "workload independent: 2 x capacity in 128 KiB sequential writes "
                            "(simulated); no workload dependent preconditioning"
                          : "workload independent: 2 x capacity in 128 KiB sequential writes "
                            "(simulated); workload dependent: the test's rounds";
    pts_html_row(rows, "preconditioning", pre);
    uint32_t oio = p->threads * p->iodepth;
    g_autofree char *tq = g_strdup_printf("%u thread%s x QD %u = %u outstanding%s", p->threads,
                                          p->threads == 1 ? "" : "s", p->iodepth, oio,
                                          oio > p->queue_limit ? " (the rest wait in the host)"
                                                               : "");
    pts_html_row(rows, "threads x queue depth", tq);
    if (p->t->no_rounds) {
        g_autofree char *iv = g_strdup_printf("none: the stimulus is measured in intervals of "
                                              "%g s of simulated time; no steady state is judged",
                                              (double)o->round_time / 1e9);
        pts_html_row(rows, "rounds", iv);
        return;
    }
    g_autofree char *rounds =
        p->max_rounds != UINT32_MAX
            ? g_strdup_printf("%g s of simulated time a cell, at most %u rounds",
                              (double)o->round_time / 1e9, p->max_rounds)
            : g_strdup_printf("%g s of simulated time a cell, until %.0f x capacity written",
                              (double)o->round_time / 1e9, p->t->fills);
    pts_html_row(rows, "rounds", rounds);
    if (p->t->fills > 0)
        pts_html_row(rows, "steady state",
                     "not judged: WSAT runs until 4 x capacity written (or the round limit); "
                     "reported instead, the least-squares trend of IOPS against TB written over "
                     "the rounds of the last capacity written, flat when its change over them is "
                     "within 10% of their average either way");
    else
        pts_html_row(rows, "steady state", "a window of 5 rounds of the tracking variable: its range "
                                           "within 20% of the window's average (±10%), and the "
                                           "least-squares line's change over the window within 10% "
                                           "(±5%)");
}

/* The header's rows on this run: seed, the keys set, date, version,
 * platform. */
static void pts_html_run_rows(GPtrArray *rows, const Pts *p)
{
    const PtsOptions *o = p->o;
    g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, o->seed);
    pts_html_row(rows, "seed", seed);
    g_autofree char *sets = o->sets && o->sets[0] ? g_strjoinv(", ", (char **)o->sets) : NULL;
    pts_html_row(rows, "drive keys set (--set)", sets ? sets : "none: the drive file as it is");
    time_t sec = (time_t)(ftlsim_clock_ms() / 1000);
    struct tm tm;
    char date[64] = "";
    if (localtime_r(&sec, &tm))
        strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", &tm);
    pts_html_row(rows, "test date", date);
    pts_html_row(rows, "ftlsim version", ftlsim_version());
    struct utsname un;
    g_autofree char *platform =
        uname(&un) == 0 ? g_strdup_printf("%s %s %s (the host that simulated; the drive is "
                                          "simulated, not measured)", un.sysname, un.release,
                                          un.machine)
                        : g_strdup("unknown");
    pts_html_row(rows, "platform", platform);
}

/* The report header of PTS-E 1.1 or PTS-C 1.2 (their "Test and Device
 * Information"). */
static void pts_html_header(HtmlPage *page, const Pts *p)
{
    const PtsOptions *o = p->o;
    static const char *const header[] = {"item", "value", NULL};
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    g_autofree char *drive = g_strdup_printf("%s (%s), %.1f GB user capacity", p->params.name,
                                             o->drive, (double)p->capacity / 1e9);
    gboolean client = o->spec == PTS_SPEC_CLIENT;
    pts_html_row(rows, "specification",
                 client ? "SNIA Solid State Storage Performance Test Specification, Client "
                          "(PTS-C) 1.2"
                        : "SNIA Solid State Storage Performance Test Specification, Enterprise "
                          "(PTS-E) 1.1");
    g_autofree char *test = g_strdup_printf("%s (%s)", p->t->title, p->t->about);
    pts_html_row(rows, "test", test);
    pts_html_row(rows, "drive", drive);
    pts_html_row(rows, "purge method",
                 p->t->seq ? "the simulated drive made new before each block size (every block "
                             "erased, the mapping empty), as a Secure Erase leaves it"
                           : "the simulated drive made new (every block erased, the mapping "
                             "empty), as a Secure Erase leaves it");
    g_autofree char *wc = g_strdup_printf(
        "enabled: %.1f MiB of host data held before it is programmed (the drive's write buffer)",
        (double)drive_params_write_buffer(&p->params) / (1 << 20));
    pts_html_row(rows, "write cache", wc);
    g_autofree char *written = pts_written_range(p);
    g_autofree char *range =
        client ? g_strdup_printf("preconditioning: 100%% of the LBAs; test stimulus: the first "
                                 "%u%% (0 to %.1f GB); measured: %s",
                                 p->active_pct, pts_active_bytes(p) / 1e9, written)
               : g_strdup_printf("100%% of the LBAs (0 to the user capacity), for "
                                 "preconditioning and for the test; measured: %s",
                                 written);
    pts_html_row(rows, "active range", range);
    pts_html_row(rows, "data pattern", "random; the simulated drive does not compress or "
                                       "deduplicate, so every pattern gives the same result");
    pts_html_method_rows(rows, p);
    pts_html_run_rows(rows, p);
    html_heading(page, "Test and device");
    html_table(page, header, rows, NULL);
    g_ptr_array_free(rows, TRUE);
}

/* wsat's warnings: a test that ended before 4 x capacity, less than one
 * capacity written (no trend), or a trend that is not flat. */
static void pts_html_wsat_warnings(HtmlPage *page, const Pts *p)
{
    const PtsSub *s = &p->subs[0];
    if (s->end != PTS_END_FILLS) {
        g_autofree char *w = g_strdup_printf(
            "WSAT ended %s after %u rounds and %.2f x capacity written, short of the %.0f x "
            "capacity the PTS writes.",
            pts_end_text(p, s), s->rounds, pts_capacities_written(p), p->t->fills);
        html_warning(page, w);
    }
    if (s->trend.n == 0) {
        html_warning(page, "Less than one capacity was written: there is no trend over the last "
                           "capacity written, and the results are those of the last rounds.");
    } else if (!s->trend.flat) {
        g_autofree char *w = g_strdup_printf(
            "IOPS were still %s over the last capacity written (rounds %u-%u: %+.1f%%, beyond "
            "10%% either way): the drive had not settled, and the average of those rounds is "
            "not a steady figure.",
            s->trend.change < 0 ? "falling" : "rising", s->trend_first, s->rounds,
            100 * s->trend.change);
        html_warning(page, w);
    }
}

/* Warnings where a verdict of steady state tells little: a write cell that
 * never made the drive collect garbage (its WAF stays at 1, so the rounds
 * never reached the state the test is about), no steady state at all;
 * wsat's own (pts_html_wsat_warnings()). */
static void pts_html_warnings(HtmlPage *page, const Pts *p)
{
    if (p->interrupted) {
        uint32_t n = p->t->no_rounds ? p->periods->len : p->subs[p->n_subs - 1].rounds;
        const char *what = p->t->no_rounds ? "interval" : "round";
        g_autofree char *w = g_strdup_printf(
            "The test was interrupted after %u %s%s of its last subtest: these are the %ss run "
            "so far, not a finished test.",
            n, what, n == 1 ? "" : "s", what);
        html_warning(page, w);
    }
    if (p->t->fills > 0) {
        pts_html_wsat_warnings(page, p);
        return;
    }
    if (p->t->no_rounds)
        return; /* no steady state to judge */
    for (uint32_t s = 0; s < p->n_subs; s++) {
        const PtsSub *sub = &p->subs[s];
        const PtsCell *c = &p->cells[sub->track];
        g_autofree char *bs = pts_bs_label(c->bs);
        if (!sub->steady_round) {
            g_autofree char *w = g_strdup_printf(
                "%s %u/%u: steady state was not reached in %u rounds; the results are those of "
                "the last 5 rounds, not of a steady drive.",
                bs, c->read_pct, 100 - c->read_pct, sub->rounds);
            html_warning(page, w);
        }
    }
    gboolean no_gc = FALSE;
    for (uint32_t c = 0; c < p->n_cells; c++) {
        double waf = p->results[c].waf;
        if (p->cells[c].read_pct < 100 && !isnan(waf) && waf < 1.02 && !p->t->seq)
            no_gc = TRUE;
    }
    if (no_gc)
        html_warning(page, p->o->precondition == PTS_PRECOND_FULL
                               ? "Steady before it could be judged: cells with writes kept a "
                                 "write amplification of 1.0 over the window, so the drive never "
                                 "collected garbage in these rounds: what they wrote fitted in "
                                 "its spare area. Longer rounds (--round-time) write more."
                               : "Steady before it could be judged: cells with writes kept a "
                                 "write amplification of 1.0 over the window, so the drive never "
                                 "collected garbage in these rounds. Longer rounds "
                                 "(--round-time) or full preconditioning reach the state the "
                                 "test is about.");
}


/* The steady-state determination, then the results: the order of SNIA's
 * sample reports (docs/pts.md, "The PTS-E report, item by item"). */
static void pts_html_tables(HtmlPage *page, const Pts *p)
{
    /* WSAT judges no window (steady_state.csv's verdicts would all be
     * "-"), and a test without rounds has none */
    if (p->t->fills == 0 && !p->t->no_rounds) {
        g_autofree char *steady = g_build_filename(p->o->out, "steady_state.csv", NULL);
        html_heading(page, "Steady state");
        html_csv_file(page, steady,
                      "steady_state.csv: the tracking variable and the window ending at each round",
                      200);
    }
    html_heading(page, "Results");
    if (p->t->html_tables)
        p->t->html_tables(page, p);
    g_autofree char *table = g_strdup_printf("%s.csv", p->t->name);
    g_autofree char *path = g_build_filename(p->o->out, table, NULL);
    g_autofree char *caption = g_strdup_printf("%s (every column)", table);
    html_csv_file(page, path, caption, p->t->table_rows ? p->t->table_rows : 200);
}

void pts_write_html(const Pts *p)
{
    const PtsOptions *o = p->o;
    if (o->plot && o->plot_format != PLOT_SVG)
        pts_plot_format(p, PLOT_SVG, FALSE);
    /* the drive as tested: its name, and the keys --set changed */
    g_autofree char *sets = o->sets && o->sets[0] ? g_strjoinv(", ", (char **)o->sets) : NULL;
    g_autofree char *title = g_strdup_printf("SNIA %s %s: %s%s%s", pts_spec_short(o->spec),
                                             p->t->title, p->params.name, sets ? " with " : "",
                                             sets ? sets : "");
    g_autoptr(HtmlPage) page = html_page_new(title);
    pts_html_header(page, p);
    pts_html_warnings(page, p);
    g_autoptr(GString) summary = g_string_new(NULL);
    pts_summary_lines(p, FALSE, summary); /* the tables: once, under Results */
    html_heading(page, "Summary");
    html_pre(page, summary->str);
    pts_html_tables(page, p);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    if (!p->t->no_rounds)
        g_ptr_array_add(names, g_strdup("convergence"));
    /* wsat judges no window; a test without rounds has none */
    for (uint32_t s = 0; s < p->n_subs && p->t->fills == 0 && !p->t->no_rounds; s++) {
        g_autofree char *bs = pts_bs_label(p->cells[p->subs[s].track].bs);
        g_ptr_array_add(names, p->t->seq ? g_strdup_printf("steady_state_%s", bs)
                                         : g_strdup("steady_state"));
    }
    g_ptr_array_add(names, g_strdup(p->t->name));
    for (unsigned f = 0; f < p->t->n_figures; f++)
        g_ptr_array_add(names, g_strdup(p->t->figures[f].name));
    g_ptr_array_add(names, NULL);
    run_report_figures(page, o->out, (const char *const *)names->pdata, NULL, o->plot,
                       o->plot_format);
    g_ptr_array_free(names, TRUE);
    run_report_drive(page, &p->params);
    html_heading(page, "Files");
    html_file_links(page, o->out, run_report_files);
    GError *e = NULL;
    if (!html_page_write(page, o->out, &e)) {
        fprintf(stderr, "ftlsim: %s: %s\n", HTML_REPORT_NAME, e->message);
        g_error_free(e);
    }
}
