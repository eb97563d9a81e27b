/*
 * pts.c - the SNIA PTS tests on one simulated drive (see pts.h).
 *
 * A test is one or more "subtests" (tp has one per block size), each a
 * purge (a new Drive), preconditioning, then rounds: every cell of the test
 * (block size x read/write mix) runs round_time as an inline fio job on the
 * same drive and engine, and after each round the tracking variable's last
 * 5 rounds are judged by the PTS steady-state test (steady.h). Results are
 * the averages over the steady-state window, or over the last 5 rounds when
 * none was steady within the round limit. wsat judges no window: it runs
 * to 4 x capacity and its results are the rounds of the last capacity
 * written, with the trend over them. pts_report.c writes the files.
 */
#include "sim/cmd/pts_impl.h"

#include "sim/cmd/run.h"
#include "sim/cmd/session.h"
#include "sim/config/config.h"
#include "sim/output/report.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

void pts_options_init(PtsOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->round_time = 60 * SIM_SEC;
    o->seed = 1;
    o->plot_format = PLOT_PNG;
    o->script_dir = FTLSIM_SOURCE_DIR "/scripts/plot";
}

/* "4k", "0.5k", "512", "1m", "128KiB" (binary units) into bytes. */
static gboolean pts_parse_bs(const char *text, uint64_t *out)
{
    char *end = NULL;
    double v = g_ascii_strtod(text, &end);
    if (end == text || !(v > 0))
        return FALSE;
    double mult = 1;
    if (g_ascii_strcasecmp(end, "k") == 0 || g_ascii_strcasecmp(end, "kib") == 0)
        mult = 1024;
    else if (g_ascii_strcasecmp(end, "m") == 0 || g_ascii_strcasecmp(end, "mib") == 0)
        mult = 1048576;
    else if (*end && g_ascii_strcasecmp(end, "b") != 0)
        return FALSE;
    double b = v * mult;
    if (b != floor(b) || b > 1e12)
        return FALSE;
    *out = (uint64_t)b;
    return TRUE;
}

/* "65/35" (read/write, summing to 100) into the read share. */
static gboolean pts_parse_mix(const char *text, uint32_t *read_pct)
{
    guint64 r = 0, w = 0;
    g_auto(GStrv) rw = g_strsplit(text, "/", -1);
    if (g_strv_length(rw) != 2 || !g_ascii_string_to_unsigned(rw[0], 10, 0, 100, &r, NULL) ||
        !g_ascii_string_to_unsigned(rw[1], 10, 0, 100, &w, NULL) || r + w != 100)
        return FALSE;
    *read_pct = (uint32_t)r;
    return TRUE;
}

/* Which of the test's block sizes (bits of *bs_mask) and mixes a --bs or
 * --mix list keeps; NULL keeps all. */
static gboolean pts_pick(const PtsOptions *o, uint32_t *bs_mask, uint32_t *mix_mask, GError **error)
{
    const PtsTestDesc *t = o->test;
    /* PTS-C runs fewer block sizes of some tests (tp: 1024 KiB only) */
    unsigned n_bs = o->spec == PTS_SPEC_CLIENT ? t->client_n_bs : t->n_bs;
    *bs_mask = (1u << n_bs) - 1;
    *mix_mask = (1u << t->n_mix) - 1;
    if (o->bs && t->bs[0] == 0) { /* its job mixes the block sizes (ecw) */
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--bs \"%s\": found a block size, expected none: the %s test mixes its own",
                    o->bs, t->name);
        return FALSE;
    }
    if (o->bs) {
        *bs_mask = 0;
        g_auto(GStrv) items = g_strsplit(o->bs, ",", -1);
        for (int i = 0; items[i]; i++) {
            uint64_t b = 0;
            unsigned k = 0;
            if (pts_parse_bs(items[i], &b))
                while (k < n_bs && t->bs[k] != b)
                    k++;
            if (!pts_parse_bs(items[i], &b) || k == n_bs) {
                g_autoptr(GString) list = g_string_new(NULL);
                for (unsigned j = 0; j < n_bs; j++) {
                    g_autofree char *l = pts_bs_label(t->bs[j]);
                    g_string_append_printf(list, "%s%s", j ? ", " : "", l);
                }
                g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                            "--bs \"%s\": found \"%s\", expected block sizes of the %s "
                            "test%s: %s",
                            o->bs, items[i], t->name,
                            o->spec == PTS_SPEC_CLIENT ? " of PTS-C" : "", list->str);
                return FALSE;
            }
            *bs_mask |= 1u << k;
        }
    }
    if (o->mix) {
        *mix_mask = 0;
        g_auto(GStrv) items = g_strsplit(o->mix, ",", -1);
        for (int i = 0; items[i]; i++) {
            uint32_t r = 0;
            unsigned k = 0;
            if (pts_parse_mix(items[i], &r))
                while (k < t->n_mix && t->mix[k] != r)
                    k++;
            if (!pts_parse_mix(items[i], &r) || k == t->n_mix) {
                g_autoptr(GString) list = g_string_new(NULL);
                for (unsigned j = 0; j < t->n_mix; j++)
                    g_string_append_printf(list, "%s%u/%u", j ? ", " : "", t->mix[j],
                                           100 - t->mix[j]);
                g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                            "--mix \"%s\": found \"%s\", expected read/write mixes of the "
                            "%s test: %s",
                            o->mix, items[i], t->name, list->str);
                return FALSE;
            }
            *mix_mask |= 1u << k;
        }
    }
    if (!*bs_mask || !*mix_mask) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--%s: found an empty list",
                    *bs_mask ? "mix" : "bs");
        return FALSE;
    }
    return TRUE;
}

/* Add cell c, or for a test with a matrix of threads x QD (tq) one cell
 * at each of its points up to p->threads x p->iodepth. */
static void pts_plan_cell(Pts *p, const PtsCell *c)
{
    const PtsTestDesc *t = p->t;
    if (!t->n_tq) {
        p->cells[p->n_cells++] = *c;
        return;
    }
    for (unsigned i = 0; i < t->n_tq; i++)
        for (unsigned k = 0; k < t->n_tq && t->tq[i] <= p->threads; k++)
            if (t->tq[k] <= p->iodepth && p->n_cells < PTS_MAX_CELLS) {
                p->cells[p->n_cells] = *c;
                p->cells[p->n_cells].threads = t->tq[i];
                p->cells[p->n_cells++].iodepth = t->tq[k];
            }
}

/* The cells of the test and its subtests, from the options. */
static gboolean pts_plan(Pts *p, GError **error)
{
    const PtsOptions *o = p->o;
    uint32_t bs_mask, mix_mask;
    if (!pts_pick(o, &bs_mask, &mix_mask, error))
        return FALSE;
    const PtsTestDesc *t = o->test;
    if (t->no_rounds && (o->bs || o->mix || o->max_rounds)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--%s: found it with --test %s, expected none: the test runs its stimulus "
                    "whole, with no rounds",
                    o->bs ? "bs" : o->mix ? "mix" : "max-rounds", t->name);
        return FALSE;
    }
    gboolean client = o->spec == PTS_SPEC_CLIENT;
    p->threads = o->threads ? o->threads : client ? t->client_threads : t->threads;
    p->iodepth = o->iodepth ? o->iodepth : client ? t->client_iodepth : t->iodepth;
    p->active_pct = client ? PTS_CLIENT_ACTIVE_PCT : 100;
    p->max_rounds = t->no_rounds ? 0 : o->max_rounds ? o->max_rounds : t->max_rounds;
    if (t->seq) {
        /* one purge a block size; a round is its read then its write */
        for (unsigned k = 0; k < t->n_bs; k++) {
            if (!(bs_mask & (1u << k)))
                continue;
            PtsSub *s = &p->subs[p->n_subs++];
            s->first_cell = p->n_cells;
            for (unsigned m = 0; m < t->n_mix; m++)
                if (mix_mask & (1u << m))
                    p->cells[p->n_cells++] =
                        (PtsCell){t->bs[k], t->mix[m], true, 0, 0, 0};
            s->n_cells = p->n_cells - s->first_cell;
            s->track = s->first_cell + s->n_cells - 1; /* the write if kept, else the read */
        }
        return TRUE;
    }
    PtsSub *s = &p->subs[p->n_subs++];
    for (unsigned m = 0; m < t->n_mix; m++)
        for (unsigned k = 0; k < t->n_bs; k++)
            if ((mix_mask & (1u << m)) && (bs_mask & (1u << k)))
                pts_plan_cell(p, &(PtsCell){t->bs[k], t->mix[m], false, 0, 0, 0});
    s->n_cells = p->n_cells;
    /* the PTS tracks 4 KiB random writes; without that cell, the last one;
     * a matrix of threads x QD its most outstanding point */
    s->track = t->n_tq ? 0 : p->n_cells - 1;
    for (unsigned c = 0; c < p->n_cells && !t->n_tq; c++)
        if (p->cells[c].bs == 4096 && p->cells[c].read_pct == 0)
            s->track = c;
    return TRUE;
}

/* ---- Running workload segments on the drive ----------------------------- */

/* Run one inline fio spec on the drive until it is done; its latencies
 * (reads and writes together) go into p->seg_hist. Each segment gets its
 * own seed, so rounds do not repeat each other's offsets. */
static gboolean pts_segment(Pts *p, const char *spec, GError **error)
{
    g_autoptr(Workload) w = workload_from_spec(spec, error);
    if (!w)
        return FALSE;
    uint64_t seed = p->o->seed + UINT64_C(0x9e3779b97f4a7c15) * ++p->segments;
    if (!runner_bind(p->run, w, seed, error)) {
        /* a signal between two segments stops the next one's set-up */
        p->interrupted = runner_signal() != 0;
        return FALSE;
    }
    gboolean went = runner_go(p->run);
    if (runner_interrupted(p->run)) {
        p->interrupted = TRUE;
        g_set_error(error, RUN_ERROR, RUN_ERROR_INTERRUPTED, "interrupted running \"%s\"", spec);
        return FALSE;
    }
    if (!went) {
        /* a drive whose free blocks explain the stall cannot work: bad input */
        char why[320];
        gboolean locked = drive_stall_reason(p->d, why, sizeof why);
        g_set_error(error, RUN_ERROR, locked ? RUN_ERROR_INPUT : RUN_ERROR_FAILED,
                    "%s: the simulation stalled at %.6f s running \"%s\" (%s)", p->o->drive,
                    (double)sim_now(p->e) / 1e9, spec, why);
        return FALSE;
    }
    lat_hist_reset(p->seg_hist);
    lat_hist_merge(p->seg_hist, workload_latency(w, IO_READ));
    lat_hist_merge(p->seg_hist, workload_latency(w, IO_WRITE));
    return !workload_error(w, error);
}

/* Purge: a new drive, as a secure erase leaves it. */
static gboolean pts_purge(Pts *p, GError **error)
{
    g_clear_pointer(&p->run, runner_free);
    p->run = runner_new(&p->params, p->o->seed);
    if (!p->run) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "%s: cannot allocate the drive's tables",
                    p->o->drive);
        return FALSE;
    }
    p->e = runner_engine(p->run);
    p->d = runner_drive(p->run);
    return TRUE;
}

/* Workload-independent preconditioning: twice the capacity in 128 KiB
 * sequential writes (simulated), the state a sequential fill leaves
 * (--precondition fast) or an aged drive's (random), or none: the purged
 * drive (wsat's default, as the PTS runs it). */
static gboolean pts_precondition(Pts *p, PtsSub *s, GError **error)
{
    SimTime t0 = sim_now(p->e);
    if (p->o->precondition == PTS_PRECOND_NONE)
        return TRUE;
    if (p->o->precondition != PTS_PRECOND_FULL) {
        gboolean random = p->o->precondition == PTS_PRECOND_RANDOM;
        DrivePrefill pf = {.fill = 1.0, .random = random, .seed = p->o->seed};
        if (!drive_prefill(p->d, &pf)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                        "--precondition %s: the drive cannot hold a full prefill",
                        random ? "random" : "fast");
            return FALSE;
        }
        return TRUE;
    }
    /* a status line with an ETA while it runs (it can take most of the
     * test), then one line that stays */
    gboolean show = !p->o->quiet;
    g_autoptr(Progress) pr = progress_new(stderr, show && isatty(fileno(stderr)));
    runner_set_clock(p->run, SIM_SEC, 0, NULL, pr);
    g_snprintf(p->progress_label, sizeof p->progress_label, "%s precondition", p->t->name);
    runner_set_progress_scope(p->run, p->progress_label, 0, 1);
    gint64 wall0 = g_get_monotonic_time();
    gboolean ok = pts_segment(p, "rw=write,bs=128k,iodepth=32,loops=2", error);
    runner_set_clock(p->run, 0, 0, NULL, NULL);
    progress_finish(pr);
    if (!ok)
        return FALSE;
    s->precond_s = (double)(sim_now(p->e) - t0) / 1e9;
    if (show)
        fprintf(stderr, "%s precondition: 2 x capacity in 128 KiB sequential writes, %.0f s "
                        "simulated in %.1f s\n",
                p->t->name, s->precond_s, (double)(g_get_monotonic_time() - wall0) / 1e6);
    return TRUE;
}

/* The inline fio job of cell c at threads x iodepth for runtime. */
static void pts_cell_spec(const Pts *p, const PtsCell *c, uint32_t threads, uint32_t iodepth,
                          SimTime runtime, GString *spec)
{
    const char *rw = c->seq ? (c->read_pct ? "read" : "write")
                            : (c->read_pct == 100 ? "randread"
                               : c->read_pct == 0 ? "randwrite"
                                                  : "randrw");
    g_string_printf(spec, "rw=%s,iodepth=%u,numjobs=%u", rw, iodepth, threads);
    if (c->bs)
        g_string_append_printf(spec, ",bs=%" G_GUINT64_FORMAT, c->bs);
    if (!c->seq && c->read_pct != 0 && c->read_pct != 100)
        g_string_append_printf(spec, ",rwmixread=%u", c->read_pct);
    if (p->t->job)
        g_string_append_printf(spec, ",%s", p->t->job);
    /* PTS-C's active range: the stimulus stays on the first LBAs; a
     * stream that starts further on keeps to the same end */
    if (c->offset)
        g_string_append_printf(spec, ",offset=%" G_GUINT64_FORMAT ",size=%" G_GUINT64_FORMAT,
                               c->offset, (uint64_t)pts_active_bytes(p) - c->offset);
    else if (p->active_pct < 100)
        g_string_append_printf(spec, ",size=%u%%", p->active_pct);
    g_string_append_printf(spec, ",runtime=%" G_GUINT64_FORMAT "us,time_based", runtime / 1000);
}

/* Add what the subtest's rounds wrote (the drive's count since they
 * began, pts_rounds()) to the test's range, in 4 KiB pages. */
static void pts_take_written(Pts *p)
{
    const DriveStats *st = drive_stats(p->d);
    if (st->written_hi == 0)
        return;
    p->written_lo = MIN(p->written_lo, st->written_lo / 4096);
    p->written_hi = MAX(p->written_hi, (st->written_hi + 4095) / 4096);
}

/* Host bytes written since the subtest's rounds began (after its
 * preconditioning). */
static double pts_rounds_written(const Pts *p)
{
    return (double)drive_stats(p->d)->host_bytes[IO_WRITE] - p->host0;
}

/* What one segment did, from the drive's counters before it (s0, t0) and
 * its latencies (p->seg_hist). */
typedef struct PtsMeasure {
    double secs, iops, MBps, waf;
    uint64_t ios;
    uint64_t dir_ios[2], dir_bytes[2]; /* reads, writes */
    PtsBusy busy;
} PtsMeasure;

static uint64_t pts_sum(const uint64_t *v, unsigned n)
{
    uint64_t s = 0;
    for (unsigned i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* The drive's utilisation counters between s0 and st over secs. */
static void pts_busy(const Pts *p, const DriveStats *s0, const DriveStats *st, double secs,
                     PtsBusy *b)
{
    const DriveParams *dp = &p->params;
    double ns = secs * 1e9;
    memset(b, 0, sizeof *b);
    if (!(ns > 0))
        return;
    b->ctrl = (double)(pts_sum(st->ctrl_busy_ns, CTRL_WORKS) - pts_sum(s0->ctrl_busy_ns, CTRL_WORKS)) /
              ((dp->ctrl_cores ? dp->ctrl_cores : 1) * ns);
    b->dies = (double)(pts_sum(st->die_busy_ns, DIE_WORKS) - pts_sum(s0->die_busy_ns, DIE_WORKS)) /
              (drive_params_dies(dp) * ns);
    b->chan = (double)(st->chan_busy_ns - s0->chan_busy_ns) / ((dp->channels ? dp->channels : 1) * ns);
    double to = drive_params_link_bw(dp, true), from = drive_params_link_bw(dp, false);
    double w = (double)(st->host_bytes[IO_WRITE] - s0->host_bytes[IO_WRITE]) / secs;
    double r = (double)(st->host_bytes[IO_READ] - s0->host_bytes[IO_READ]) / secs;
    b->link = MAX(to > 0 ? w / to : 0, from > 0 ? r / from : 0);
}

/* Run cell c at threads x iodepth for runtime and measure it. */
static gboolean pts_measure(Pts *p, const PtsCell *c, uint32_t threads, uint32_t iodepth,
                            SimTime runtime, PtsMeasure *m, GError **error)
{
    const DriveStats *st = drive_stats(p->d);
    drive_account(p->d); /* the buffer's held bytes, for the WAF */
    DriveStats s0 = *st;
    SimTime t0 = sim_now(p->e);
    g_autoptr(GString) spec = g_string_new(NULL);
    pts_cell_spec(p, c, threads, iodepth, runtime, spec);
    if (!pts_segment(p, spec->str, error))
        return FALSE;
    drive_account(p->d);
    m->secs = (double)(sim_now(p->e) - t0) / 1e9;
    m->ios = st->host_ios[IO_READ] + st->host_ios[IO_WRITE] - s0.host_ios[IO_READ] -
             s0.host_ios[IO_WRITE];
    uint64_t bytes = st->host_bytes[IO_READ] + st->host_bytes[IO_WRITE] - s0.host_bytes[IO_READ] -
                     s0.host_bytes[IO_WRITE];
    for (int d = IO_READ; d <= IO_WRITE; d++) {
        m->dir_ios[d] = st->host_ios[d] - s0.host_ios[d];
        m->dir_bytes[d] = st->host_bytes[d] - s0.host_bytes[d];
    }
    m->iops = m->secs > 0 ? (double)m->ios / m->secs : 0;
    m->MBps = m->secs > 0 ? (double)bytes / 1e6 / m->secs : 0;
    /* as run reports it: what the buffer absorbed never needed storing */
    m->waf = report_waf(st, &s0);
    pts_busy(p, &s0, st, m->secs, &m->busy);
    return TRUE;
}

/* Run one cell of round r and append its row. */
static gboolean pts_cell(Pts *p, uint32_t sub, uint32_t r, uint32_t cell, GError **error)
{
    PtsMeasure m;
    const PtsCell *c = &p->cells[cell];
    if (!pts_measure(p, c, c->threads ? c->threads : p->threads,
                     c->iodepth ? c->iodepth : p->iodepth, p->o->round_time, &m, error))
        return FALSE;
    const DriveStats *st = drive_stats(p->d);
    PtsRow row = {
        .sub = sub,
        .round = r,
        .cell = cell,
        .t_end_s = (double)sim_now(p->e) / 1e9,
        .seconds = m.secs,
        .iops = m.iops,
        .MBps = m.MBps,
        .mean_us = lat_hist_mean(p->seg_hist) / 1e3,
        .p99_us = (double)lat_hist_percentile(p->seg_hist, 99) / 1e3,
        .max_us = (double)lat_hist_max(p->seg_hist) / 1e3,
        .host_written = (double)st->host_bytes[IO_WRITE],
        .test_written = pts_rounds_written(p),
        .waf = m.waf,
        .busy = m.busy,
        .ios = {m.dir_ios[IO_READ], m.dir_ios[IO_WRITE]},
        .bytes = {m.dir_bytes[IO_READ], m.dir_bytes[IO_WRITE]},
    };
    g_array_append_val(p->rows, row);
    if (p->win_hist) {
        LatHist *h = p->win_hist[cell * PTS_RING + (r - 1) % PTS_RING];
        lat_hist_reset(h);
        lat_hist_merge(h, p->seg_hist);
    }
    return TRUE;
}

gboolean pts_period(Pts *p, const PtsCell *c, uint32_t threads, uint32_t iodepth,
                    SimTime runtime, uint32_t group, uint32_t index, LatHist *hist,
                    GError **error)
{
    PtsMeasure m;
    double idle_s = p->idle_s;
    p->idle_s = 0;
    if (!pts_measure(p, c, threads, iodepth, runtime, &m, error))
        return FALSE;
    PtsPeriod per = {
        .group = group,
        .index = index,
        .threads = threads,
        .iodepth = iodepth,
        .idle_s = idle_s,
        .t_end_s = (double)sim_now(p->e) / 1e9,
        .seconds = m.secs,
        .ios = m.ios,
        .iops = m.iops,
        .MBps = m.MBps,
        .mean_us = lat_hist_mean(p->seg_hist) / 1e3,
        .p99_us = (double)lat_hist_percentile(p->seg_hist, 99) / 1e3,
        .max_us = (double)lat_hist_max(p->seg_hist) / 1e3,
        .waf = m.waf,
    };
    g_array_append_val(p->periods, per);
    if (hist)
        lat_hist_merge(hist, p->seg_hist);
    return TRUE;
}

gboolean pts_idle(Pts *p, SimTime t, GError **error)
{
    SimTime t0 = sim_now(p->e);
    char spec[48];
    t -= t % 2000; /* whole us, an even number of them */
    g_snprintf(spec, sizeof spec, "idle=%" G_GUINT64_FORMAT "us", (uint64_t)t / 1000);
    /* an idle phase completes no command: the run sees its end at its
     * clock's next tick, so the clock ticks at t / 2 and at t, the second
     * tick scheduled after the phase's end and so firing after it */
    runner_set_clock(p->run, t / 2, 0, NULL, p->progress);
    gboolean ok = pts_segment(p, spec, error);
    runner_set_clock(p->run, SIM_SEC, 0, NULL, p->progress);
    if (!ok)
        return FALSE;
    p->idle_s += (double)(sim_now(p->e) - t0) / 1e9;
    return TRUE;
}

/* One line a finished round on stderr (unless quiet), kept, so that the
 * history of the rounds stays on the screen: the test, the tracked cell's
 * block size and mix, its value, and the verdict so far (wsat: the
 * capacities written and the trend over the last one). */
static void pts_show_round(const Pts *p, const PtsSub *s, uint32_t r, double v)
{
    if (p->o->quiet)
        return;
    const PtsCell *c = &p->cells[s->track];
    g_autofree char *bs = pts_bs_label(c->bs);
    const SteadyWindow *w = &g_array_index(s->windows, SteadyWindow, r - 1);
    fprintf(stderr, "%s round %u: %s %u/%u %.6g %s", p->t->name, r, bs, c->read_pct,
            100 - c->read_pct, v, p->t->unit);
    if (p->t->fills > 0) {
        fprintf(stderr, ", %.2f x capacity written", pts_rounds_written(p) / (double)p->capacity);
        if (s->trend.n >= 2)
            fprintf(stderr, "; over the last capacity %+.1f%% (%s)", 100 * s->trend.change,
                    pts_trend_word(&s->trend));
        else
            fprintf(stderr, "; no trend before one capacity is written");
    } else if (w->last) {
        fprintf(stderr, ", window %zu-%zu range %.1f%% slope %.1f%%: %s", w->first, w->last,
                100 * w->excursion, 100 * w->slope_excursion,
                w->steady ? "steady" : "not steady yet");
    } else {
        fprintf(stderr, ": not judged before round %d", STEADY_WINDOW);
    }
    fputc('\n', stderr);
    fflush(stderr);
}

/* wsat: the trend of the tracking variable against TB written over the
 * rounds that began after the host had written all but one capacity of
 * what it wrote (the last capacity written); none before one capacity. */
static void pts_trend(const Pts *p, PtsSub *s)
{
    uint32_t n = s->values->len, sub = (uint32_t)(s - p->subs);
    g_autofree double *x = g_new(double, n ? n : 1);
    for (guint i = 0, k = 0; i < p->rows->len && k < n; i++) {
        const PtsRow *row = &g_array_index(p->rows, PtsRow, i);
        if (row->sub == sub && row->cell == s->track)
            x[k++] = row->test_written / 1e12;
    }
    memset(&s->trend, 0, sizeof s->trend);
    s->trend_first = 0;
    double cap = (double)p->capacity / 1e12;
    if (n == 0 || x[n - 1] < cap)
        return;
    /* round i (0-based) began where round i - 1 ended (round 0 at 0): take
     * round first - 1 too while it began within the last capacity */
    uint32_t first = n - 1;
    while (first > 0 && (first >= 2 ? x[first - 2] : 0) >= x[n - 1] - cap)
        first--;
    s->trend_first = first + 1;
    steady_trend(x + first, (double *)s->values->data + first, n - first, STEADY_TREND_MAX_CHANGE,
                 &s->trend);
}

/* Rounds until steady state or the round limit (none for a test whose
 * after hook is its whole stimulus). wsat instead runs until 4 x
 * capacity (the PTS) or the round limit and judges no window: its IOPS fall
 * from the fresh drive's plateau over the write cliff and then slowly, so
 * a 5-round window passes on a curve still falling. It reports how it
 * ended and the trend over the last capacity written (pts_trend()). */
/* The test's stimulus begins (after the preconditioning): the drive's
 * count of the LBAs written and the host's bytes and time start here, and
 * the status line follows the run. */
static void pts_stimulus_begin(Pts *p)
{
    drive_restart_written(p->d);
    p->host0 = (double)drive_stats(p->d)->host_bytes[IO_WRITE];
    p->t0_s = (double)sim_now(p->e) / 1e9;
    runner_set_clock(p->run, SIM_SEC, 0, NULL, p->progress);
}

static gboolean pts_rounds(Pts *p, uint32_t sub, GError **error)
{
    PtsSub *s = &p->subs[sub];
    double cap = (double)drive_capacity(p->d);
    /* the status line during the rounds: the round, and the share of the
     * whole test (every subtest to its round limit: the ETA is an upper
     * bound, steady state may come sooner) */
    pts_stimulus_begin(p);
    s->end = PTS_END_ROUNDS;
    if (p->t->no_rounds)
        return TRUE; /* the after hook is the stimulus */
    double per_round = 1.0 / ((double)p->n_subs * p->max_rounds);
    for (uint32_t r = 1; r <= p->max_rounds; r++) {
        guint row_track = 0, round_rows = p->rows->len;
        g_snprintf(p->progress_label, sizeof p->progress_label, "%s round %u of at most %u",
                   p->t->name, r, p->max_rounds);
        for (uint32_t c = s->first_cell; c < s->first_cell + s->n_cells && !p->interrupted; c++) {
            if (c == s->track)
                row_track = p->rows->len;
            double done = (double)(c - s->first_cell) / s->n_cells;
            runner_set_progress_scope(p->run, p->progress_label,
                                      (sub * p->max_rounds + (r - 1) + done) * per_round,
                                      per_round / s->n_cells);
            gboolean ok = pts_cell(p, sub, r, c, error);
            progress_finish(p->progress);
            if (!ok && !p->interrupted)
                return FALSE;
        }
        if (p->interrupted) {
            /* a round cut short is no round: the rounds before it are judged */
            g_clear_error(error);
            g_array_set_size(p->rows, round_rows);
            s->end = PTS_END_SIGNAL;
            break;
        }
        double v = p->t->track(&g_array_index(p->rows, PtsRow, row_track));
        g_array_append_val(s->values, v);
        SteadyWindow w = {0};
        size_t n = s->values->len;
        if (n >= STEADY_WINDOW && p->t->fills == 0)
            steady_judge((double *)s->values->data + n - STEADY_WINDOW, STEADY_WINDOW,
                         n - STEADY_WINDOW + 1, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &w);
        g_array_append_val(s->windows, w);
        s->rounds = r;
        if (w.steady) {
            s->steady_round = r;
            s->win = w;
        }
        if (p->t->fills > 0)
            pts_trend(p, s);
        pts_show_round(p, s, r, v);
        if (p->t->fills == 0 && w.steady) {
            s->end = PTS_END_STEADY;
            break;
        }
        if (p->t->fills > 0 &&
            pts_rounds_written(p) >= p->t->fills * cap) {
            s->end = PTS_END_FILLS;
            break;
        }
    }
    if (p->t->fills > 0) { /* the trend as of the last whole round (pts_trend() above) */
        if (s->trend.n > 0) {
            s->win = (SteadyWindow){
                .first = s->trend_first, .last = s->rounds, .avg = s->trend.mean};
            return TRUE;
        }
    }
    if (!s->steady_round)
        steady_last((double *)s->values->data, s->values->len, STEADY_WINDOW, &s->win);
    return TRUE;
}

/* Window averages of every cell of sub into p->results (and for lat the
 * response times of the window's merged histograms). */
static void pts_results(Pts *p, uint32_t sub)
{
    PtsSub *s = &p->subs[sub];
    for (uint32_t c = s->first_cell; c < s->first_cell + s->n_cells; c++) {
        PtsResult *res = &p->results[c];
        memset(res, 0, sizeof(*res));
        double n = 0, nw = 0;
        for (guint i = 0; i < p->rows->len; i++) {
            const PtsRow *row = &g_array_index(p->rows, PtsRow, i);
            if (row->sub != sub || row->cell != c || row->round < s->win.first ||
                row->round > s->win.last)
                continue;
            res->iops += row->iops;
            res->MBps += row->MBps;
            res->mean_us += row->mean_us;
            if (!isnan(row->waf)) {
                res->waf += row->waf;
                nw++;
            }
            n++;
        }
        if (n > 0) {
            res->iops /= n;
            res->MBps /= n;
            res->mean_us /= n;
        }
        res->waf = nw > 0 ? res->waf / nw : NAN;
        if (!p->win_hist)
            continue;
        /* the window is the last rounds run: the ring holds exactly them */
        g_autoptr(LatHist) h = lat_hist_new();
        for (uint32_t r = s->win.first; r <= s->win.last; r++)
            lat_hist_merge(h, p->win_hist[c * PTS_RING + (r - 1) % PTS_RING]);
        res->mean_us = lat_hist_mean(h) / 1e3;
        res->p99_us = (double)lat_hist_percentile(h, 99) / 1e3;
        res->p999_us = (double)lat_hist_percentile(h, 99.9) / 1e3;
        res->p9999_us = (double)lat_hist_percentile(h, 99.99) / 1e3;
        res->p99999_us = (double)lat_hist_percentile(h, 99.999) / 1e3;
        res->max_us = (double)lat_hist_max(h) / 1e3;
        res->min_us = (double)lat_hist_min(h) / 1e3;
    }
}

static void pts_free(Pts *p)
{
    g_clear_pointer(&p->run, runner_free);
    g_clear_pointer(&p->progress, progress_free);
    g_clear_pointer(&p->seg_hist, lat_hist_free);
    if (p->win_hist) {
        for (unsigned i = 0; i < p->n_win_hist; i++)
            lat_hist_free(p->win_hist[i]);
        g_free(p->win_hist);
    }
    for (unsigned i = 0; i < p->n_subs; i++) {
        if (p->subs[i].values)
            g_array_free(p->subs[i].values, TRUE);
        if (p->subs[i].windows)
            g_array_free(p->subs[i].windows, TRUE);
    }
    if (p->rows)
        g_array_free(p->rows, TRUE);
    if (p->periods)
        g_array_free(p->periods, TRUE);
    for (unsigned i = 0; i < p->n_hists; i++)
        lat_hist_free(p->hists[i]);
}

static gboolean pts_check_options(const PtsOptions *o, GError **error)
{
    if (!o->test) {
        g_autofree char *names = pts_test_names(FALSE);
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--test: expected %s", names);
        return FALSE;
    }
    if (o->round_time < PTS_ROUND_TIME_MIN) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "--round-time: found %" G_GUINT64_FORMAT "ns, expected at least 1ms",
                    (uint64_t)o->round_time);
        return FALSE;
    }
    return TRUE;
}

/* The PTS writes at random over the whole LBA space, which a zoned
 * namespace refuses write by write: say so before anything runs. */
static gboolean pts_conventional(const PtsOptions *o, const DriveParams *p, GError **error)
{
    if (!p->zns_zone_size)
        return TRUE;
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                "%s: [zns] zone_size: found a zoned namespace, expected a conventional one (the PTS "
                "writes at random over the whole drive, which zones refuse)", o->drive);
    return FALSE;
}

/* The test's inputs checked and its tables made, before the drive. */
static gboolean pts_setup(Pts *p, GError **error)
{
    const PtsOptions *o = p->o;
    if (!pts_check_options(o, error) ||
        !config_load_file_set(o->drive, o->sets, &p->params, error) ||
        !pts_conventional(o, &p->params, error) ||
        !run_check_fits(o->drive, &p->params, NULL, error) || !pts_plan(p, error))
        return FALSE; /* the worst case: the PTS tests write every page at random */
    p->rows = g_array_new(FALSE, FALSE, sizeof(PtsRow));
    p->periods = g_array_new(FALSE, FALSE, sizeof(PtsPeriod));
    p->seg_hist = lat_hist_new();
    for (unsigned i = 0; i < p->n_subs; i++) {
        p->subs[i].values = g_array_new(FALSE, FALSE, sizeof(double));
        p->subs[i].windows = g_array_new(FALSE, FALSE, sizeof(SteadyWindow));
    }
    if (p->t->window_latency) {
        p->n_win_hist = p->n_cells * PTS_RING;
        p->win_hist = g_new0(LatHist *, p->n_win_hist);
        for (unsigned i = 0; i < p->n_win_hist; i++)
            p->win_hist[i] = lat_hist_new();
    }
    return TRUE;
}

/* Every subtest: purge, precondition, rounds, what follows them. How many
 * ran whole rounds into *done; FALSE on a failure (not on a signal). */
static gboolean pts_subtests(Pts *p, uint32_t *done, GError **error)
{
    *done = 0;
    for (uint32_t sub = 0; sub < p->n_subs; sub++) {
        if ((sub > 0 && !pts_purge(p, error)) || !pts_precondition(p, &p->subs[sub], error) ||
            (!p->interrupted && !pts_rounds(p, sub, error)) ||
            (!p->interrupted && p->t->after && !p->t->after(p, sub, error))) {
            if (!p->interrupted)
                return FALSE;
            g_clear_error(error);
        }
        /* a test without rounds reports the periods that ended before a signal */
        if (p->interrupted && (p->t->no_rounds ? p->periods->len : p->subs[sub].rounds) == 0)
            break;
        pts_take_written(p);
        pts_results(p, sub);
        drive_account(p->d);
        p->events += sim_fired(p->e);
        p->sim_s += (double)sim_now(p->e) / 1e9;
        *done = sub + 1;
        if (p->interrupted)
            break;
    }
    return TRUE;
}

/* The results of done subtests: the folder written and committed, the
 * summary printed, the figures and the page; after a signal, the rounds
 * so far and the interruption's error. */
static gboolean pts_finish(Pts *p, Session *ses, uint32_t done, GError **error)
{
    const PtsOptions *o = p->o;
    OutDir *od = session_dir(ses);
    /* a signal after the last round, too: the results say so */
    if (session_settle(ses))
        p->interrupted = TRUE;
    if (p->interrupted && done == 0) {
        session_interrupted_error(ses, error, "before the first round ended");
        return FALSE;
    }
    if (p->interrupted) {
        /* report the subtests that ran rounds; the others' cells are left out */
        p->n_subs = done;
        p->n_cells = p->subs[done - 1].first_cell + p->subs[done - 1].n_cells;
    }
    if ((od && !pts_write_results(p, od, error)) || !session_commit(ses, error))
        return FALSE;
    if (!o->quiet) {
        g_autoptr(GString) text = g_string_new(NULL);
        pts_summary_text(p, text);
        fputs(text->str, stdout);
        if (o->out)
            printf("results      %s\n", o->out);
    }
    if (p->interrupted) {
        if (od)
            pts_write_html(p); /* the rounds so far, as the folder holds them */
        uint32_t n = p->t->no_rounds ? p->periods->len : p->subs[done - 1].rounds;
        session_interrupted_error(ses, error, "after %u %s%s", n,
                                  p->t->no_rounds ? "interval" : "round", n == 1 ? "" : "s");
        return FALSE;
    }
    if (od && o->plot)
        pts_plot(p);
    if (od)
        pts_write_html(p);
    return TRUE;
}

gboolean pts_run(const PtsOptions *o, GError **error)
{
    Pts p = {.o = o, .t = o->test, .written_lo = UINT64_MAX};
    gboolean ok = FALSE;
    g_autoptr(Session) ses = session_new(
        p.t->no_rounds ? "the intervals so far are" : "the rounds so far are", "summary.json");
    uint32_t done = 0;
    /* the first purge checks that the drive takes the test's jobs before
     * any folder is made */
    if (!pts_setup(&p, error) || !pts_purge(&p, error)) {
        if (p.interrupted) {
            g_clear_error(error);
            ok = pts_finish(&p, ses, 0, error);
        }
        goto out;
    }
    p.queue_limit = drive_queue_limit(p.d);
    p.capacity = drive_capacity(p.d);
    if (o->dry_run) { /* the folder is checked too; nothing run or written */
        ok = !o->out || outdir_check(o->out, o->force, error);
        goto out;
    }
    if (o->out && !session_open(ses, o->out, o->force, error))
        goto out;
    gint64 wall0 = g_get_monotonic_time();
    p.progress = progress_new(stderr, !o->quiet && isatty(fileno(stderr)));
    if (!pts_subtests(&p, &done, error))
        goto out;
    p.wall_s = (double)(g_get_monotonic_time() - wall0) / 1e6;
    ok = pts_finish(&p, ses, done, error);
out:
    pts_free(&p);
    return ok;
}
