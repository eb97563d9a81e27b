/*
 * pts_impl.h - what pts.c (the driver) and pts_report.c (its files, summary
 * and figures) share. Not for use elsewhere.
 */
#ifndef FTLSIM_PTS_IMPL_H
#define FTLSIM_PTS_IMPL_H

#include "sim/cmd/pts.h"

#include "models/drive.h"
#include "sim/engine/histogram.h"
#include "sim/engine/json.h"
#include "sim/host/workload.h"
#include "sim/output/html.h"
#include "sim/output/outdir.h"
#include "sim/output/progress.h"
#include "sim/run/runner.h"
#include "sim/engine/steady.h"

#define PTS_MAX_CELLS 64
/* lat: rounds of latencies kept per cell, the window's and one more, for
 * the round a signal cuts short */
#define PTS_RING (STEADY_WINDOW + 1)
#define PTS_MAX_SUBS 4

/* One block size and read/write mix. */
typedef struct PtsCell {
    uint64_t bs;       /* bytes; 0: the test's job sets them (ecw: a mix) */
    uint32_t read_pct; /* % reads */
    bool seq;          /* sequential (tp); random otherwise */
    uint32_t threads, iodepth; /* 0: the test's (--threads, --iodepth) */
    uint64_t offset;   /* seq: bytes from LBA 0 where it starts, its region up to the active
                          range's end (xsr's stream goes on across intervals); 0 elsewhere */
} PtsCell;

/* The share of a segment's time each resource of the drive was busy:
 * what bounds its rate is the busiest (pts_bound()). */
typedef struct PtsBusy {
    double ctrl; /* the firmware cores' work / (cores x time) */
    double dies; /* the dies' busy time / (dies x time) */
    double chan; /* the channels' transfer time / (channels x time) */
    double link; /* host bytes / (the link's rate x time), the busier direction */
} PtsBusy;

/* One cell run in one round. */
typedef struct PtsRow {
    uint32_t sub, round, cell;
    double t_end_s;                 /* simulated time at its end, since the purge */
    double seconds;                 /* simulated */
    double iops, MBps;              /* reads and writes together */
    double mean_us, p99_us, max_us; /* response times, reads and writes together */
    double host_written;            /* bytes written by the host since the purge, at its end */
    double test_written; /* of them by the test's rounds (after any preconditioning) */
    double waf; /* NAND bytes written / host bytes written in it; NAN without writes */
    PtsBusy busy; /* how busy each resource was in it */
    uint64_t ios[2], bytes[2]; /* commands and bytes the drive completed: reads, writes */
} PtsRow;

/* A purge, its preconditioning and its rounds. */
/* How a subtest's rounds ended. */
typedef enum PtsEnd {
    PTS_END_STEADY, /* steady state (tests other than wsat) */
    PTS_END_ROUNDS, /* the round limit */
    PTS_END_FILLS,  /* fills x capacity written (wsat) */
    PTS_END_SIGNAL, /* a signal: the whole rounds before it */
} PtsEnd;

typedef struct PtsSub {
    uint32_t first_cell, n_cells;
    uint32_t track;        /* the cell whose value is the tracking variable */
    GArray *values;        /* double: tracking variable per round */
    GArray *windows;       /* SteadyWindow per round: the window ending there (zero before 5) */
    uint32_t rounds;       /* rounds run */
    uint32_t steady_round; /* first steady round; 0: none within the limit */
    SteadyWindow win;      /* the reported window (steady, or the last rounds) */
    double precond_s;      /* simulated seconds of preconditioning (0: none or fast) */
    PtsEnd end;
    /* fills tests (wsat): no window is judged; the trend of the tracking
     * variable against TB written over the rounds of the last capacity
     * written (trend_first to the last round), and win is those rounds.
     * trend.n == 0: less than one capacity was written. */
    SteadyTrend trend;
    uint32_t trend_first;
} PtsSub;

/* One segment of a test's own stimulus after its rounds (HIR's access
 * periods, DIRTH's demand intensity points): a cell run once at some
 * threads x QD for some time, or an idle gap before one. */
typedef struct PtsPeriod {
    uint32_t group;           /* the part of the stimulus it belongs to (the test says) */
    uint32_t index;           /* its place in its group, from 1 */
    uint32_t threads, iodepth;
    double idle_s;            /* simulated seconds the host was idle just before it */
    double t_end_s;           /* simulated time at its end, since the purge */
    double seconds;           /* simulated */
    uint64_t ios;             /* commands completed, reads and writes (the drive's count) */
    double iops, MBps;
    double mean_us, p99_us, max_us; /* response times, reads and writes together */
    double waf;                     /* as PtsRow's */
} PtsPeriod;

/* DIRTH: response-time histograms kept of this many operating points */
#define PTS_MAX_HISTS 4

/* A cell's result: averages over its subtest's reported window. */
typedef struct PtsResult {
    double iops, MBps, mean_us;
    double waf;                               /* NAN for cells without writes */
    double p99_us, p999_us, p9999_us, max_us; /* lat only: over the window's merged latencies */
    double p99999_us;                         /* lat only: five nines */
    double min_us; /* lat only: exact, so that a spread below the percentiles' 1% shows */
} PtsResult;

struct Pts {
    const PtsOptions *o;
    const PtsTestDesc *t; /* o->test */
    DriveParams params;
    uint32_t threads, iodepth, max_rounds;
    uint32_t active_pct;   /* the test stimulus's active range: % of the LBAs from 0 */
    /* the LBAs the rounds wrote, in 4 KiB pages, as the drive counted the
     * host's writes (DriveStats.written_lo/hi): [written_lo, written_hi);
     * lo > hi: none */
    uint64_t written_lo, written_hi;
    PtsCell cells[PTS_MAX_CELLS];
    uint32_t n_cells;
    PtsSub subs[PTS_MAX_SUBS];
    uint32_t n_subs;
    PtsResult results[PTS_MAX_CELLS];
    GArray *rows;       /* PtsRow, every cell of every round, in order */
    LatHist *seg_hist;  /* the last segment's latencies */
    LatHist **win_hist; /* lat: per cell, a ring of the last PTS_RING rounds' latencies */
    uint32_t n_win_hist;
    gboolean interrupted; /* a signal stopped the test: the whole rounds before it are reported */
    uint32_t queue_limit;
    uint64_t capacity; /* user bytes */
    double host0;      /* host bytes written when the subtest's rounds began */
    double t0_s;       /* and the simulated time then (s since the purge) */
    double sim_s, wall_s;
    uint64_t events;
    /* the purge running: its run, engine and drive */
    Runner *run;
    SimEngine *e;
    Drive *d;
    Progress *progress;  /* the rounds' status line over the whole test (owned) */
    char progress_label[96]; /* what it says before the figures: the round */
    uint64_t segments;
    GArray *periods; /* PtsPeriod: the stimulus after the rounds (the test's after hook) */
    double idle_s;   /* simulated seconds the host idled since the last period (pts_idle()) */
    LatHist *hists[PTS_MAX_HISTS]; /* response times the after hook keeps (DIRTH) */
    uint32_t n_hists;
    uint32_t hist_period[PTS_MAX_HISTS]; /* the index in periods of each */
};

typedef struct Pts Pts;

/* A figure a test draws beside the common ones (convergence, steady
 * state, its own scripts/plot/pts_NAME.gp): scripts/plot/SCRIPT.gp drawn
 * into NAME.png (and NAME.svg for report.html). */
typedef struct PtsFigure {
    const char *script; /* scripts/plot/SCRIPT.gp */
    const char *name;   /* the figure's file name, without its extension */
    const char *vars;   /* gnuplot variables ("stat='mean'; "), or NULL */
} PtsFigure;

/* One test of the PTS: its cells, defaults and rules, and hooks for what
 * only it runs and reports. The driver, the files and the report page
 * never ask which test it is: all that differs is here. */
struct PtsTestDesc {
    const char *name;  /* --test NAME; its table NAME.csv, its figure scripts/plot/pts_NAME.gp */
    const char *about; /* what it measures, for --help */
    const char *title; /* summary.txt's test line */
    const uint64_t *bs; /* block sizes, largest first */
    unsigned n_bs;
    const uint32_t *mix; /* read percentages, in the PTS's order (outer to block sizes) */
    unsigned n_mix;
    uint32_t threads, iodepth; /* defaults */
    uint32_t client_threads, client_iodepth; /* defaults under --spec client (PTS-C) */
    unsigned client_n_bs; /* PTS-C: the first this many of bs (tp: 1024 KiB only) */
    /* thread counts and queue depths, highest first, or NULL: each block
     * size and mix becomes a cell at every pair of them up to --threads x
     * --iodepth (threads outer, QD inner), and the first, the most
     * outstanding, is tracked (ecw) */
    const uint32_t *tq;
    unsigned n_tq;
    const char *job; /* fio options added to every cell's job (ecw: its mixes), or NULL */
    uint32_t max_rounds;       /* default; UINT32_MAX: until fills x capacity written */
    double fills; /* > 0: rounds until this many capacities written, with no steady-state
                     judgement: the trend over the last capacity written instead (wsat) */
    bool seq;     /* sequential; a purge per block size, a round its read then its write (tp) */
    bool window_latency; /* response-time percentiles over the window's rounds (lat) */
    bool purged;    /* the PTS runs it from the purged drive: --precondition none by default */
    bool no_rounds; /* no rounds and no steady state: the after hook is its whole stimulus (xsr) */
    const char *unit;       /* the tracking variable's, on the round line */
    const char *track_unit; /* ... in summary.txt and the figures */
    const char *track_column; /* rounds.csv's column of the tracking variable */
    double (*track)(const PtsRow *row);            /* the tracking variable of a row */
    void (*table_csv)(const Pts *p, GString *out); /* NAME.csv */
    void (*summary)(const Pts *p, GString *out);   /* its lines of summary.txt */
    /* its tables under Results in report.html (before NAME.csv), or NULL */
    void (*html_tables)(HtmlPage *page, const Pts *p);
    /* the variables of its figure pts_NAME.gp, or NULL (none); g_free it */
    char *(*figure_vars)(const Pts *p);
    const PtsFigure *figures; /* drawn after pts_NAME.gp, in this order */
    unsigned n_figures;
    /* after a subtest's rounds (preconditioned to steady state): the test's
     * own stimulus, into p->periods (pts_period(), pts_idle()); NULL: none */
    gboolean (*after)(Pts *p, uint32_t sub, GError **error);
    unsigned table_rows; /* rows of NAME.csv report.html shows; 0: 200 */
    /* a second table, NAME2.csv (NULL: none) */
    const char *table2;
    void (*table2_csv)(const Pts *p, GString *out);
    /* its members of summary.json (json_ calls into the open object), or NULL */
    void (*json)(const Pts *p, JsonWriter *jw);
};

/* pts.c, for the after hooks: run cell c for runtime at threads x iodepth
 * and append its period (group, index as given) to p->periods; keep its
 * latencies in hist too unless NULL. Then the host idle for t: the next
 * period records it. Errors as pts_run's (a signal: p->interrupted). */
gboolean pts_period(Pts *p, const PtsCell *c, uint32_t threads, uint32_t iodepth,
                    SimTime runtime, uint32_t group, uint32_t index, LatHist *hist,
                    GError **error);
gboolean pts_idle(Pts *p, SimTime t, GError **error);

/* pts_format.c */
/* The report's name of the specification: "PTS-E 1.1" or "PTS-C 1.2". */
const char *pts_spec_short(PtsSpec spec);
/* "0.5KiB", "4KiB", "1MiB" ("mixed-size" for 0); g_free it. */
char *pts_bs_label(uint64_t bs);
/* "flat", "falling" or "rising". */
const char *pts_trend_word(const SteadyTrend *t);
/* The cells' block sizes and R/W mixes (read shares), each once, in the
 * order of SNIA's sample reports (docs/pts.md): block sizes from the
 * smallest, mixes from 0/100 to 100/0, the reverse of the order the tests
 * run them in. bs and read_pct hold PTS_MAX_CELLS. */
void pts_report_axes(const Pts *p, uint64_t *bs, uint32_t *n_bs, uint32_t *read_pct,
                     uint32_t *n_mix);
/* The cells' indices (p->n_cells of them) in that order: block size, then mix. */
void pts_cells_in_report_order(const Pts *p, uint32_t *order);
/* One value per cell as a table of report.html: block sizes down, R/W
 * mixes across, as PTS-E's tables, in the order above. value returns NAN
 * for a cell it leaves empty; fmt formats the others ("%.0f"). */
void pts_html_pivot(HtmlPage *page, const Pts *p, const char *caption,
                    double (*value)(const Pts *p, uint32_t c), const char *fmt);
/* One value per threads x QD point as a table of report.html: thread
 * counts down (a row where threads[] changes), queue depths across in the
 * order they first come; n points. */
void pts_html_tq(HtmlPage *page, const char *caption, const uint32_t *threads,
                 const uint32_t *iodepth, const double *values, guint n, const char *fmt);
/* The rows of a response time histogram (point, threads, iodepth,
 * bucket_low_us, count, cumulative_fraction), one per non-empty bucket. */
void pts_hist_csv(GString *out, const char *point, uint32_t threads, uint32_t iodepth,
                  const LatHist *h);

/* pts_report.c */
/* What bounded sub's tracked cell over its reported window: "the dies
 * (busy 97%; controller 40%, channels 31%, link 12%)". g_free it. */
char *pts_bound(const Pts *p, const PtsSub *s);
/* Capacities the host had written by the last round reported (rows not empty). */
double pts_capacities_written(const Pts *p);
/* How sub's rounds ended, in words ("at 4 x capacity", ...). */
const char *pts_end_text(const Pts *p, const PtsSub *s);
gboolean pts_write_results(const Pts *p, OutDir *od, GError **error);
void pts_summary_text(const Pts *p, GString *out);
/* The same, without the test's tables when tables is FALSE (report.html
 * shows them once, under Results). */
void pts_summary_lines(const Pts *p, gboolean tables, GString *out);
/* The active range in bytes; "the rounds wrote LBAs from A to B GB ..." (g_free it). */
double pts_active_bytes(const Pts *p);
char *pts_written_range(const Pts *p);
/* Draw the figures into the results folder; problems are reported on stderr. */
void pts_plot(const Pts *p);
/* The same figures in fmt; problems said on stderr only when warn. */
void pts_plot_format(const Pts *p, PlotFormat fmt, gboolean warn);

/* pts_html.c: report.html of the committed results folder (after the
 * figures); problems are said on stderr. */
void pts_write_html(const Pts *p);

#endif
