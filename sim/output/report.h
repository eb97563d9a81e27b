/*
 * report.h - what a run reports: the time series, the phases, and the
 * summary in text and JSON. Pure formatting of what a run (sim/run/)
 * measured.
 */
#ifndef FTLSIM_REPORT_H
#define FTLSIM_REPORT_H

#include "sim/engine/json.h"
#include "sim/host/workload.h"

#include <stdio.h>

/* Per-interval latency percentiles of series.csv (--series-percentiles). */
#define REPORT_SERIES_PCTS 3
extern const double report_series_pcts[REPORT_SERIES_PCTS]; /* 50, 99, 99.9 */

/* One row of series.csv: one interval of simulated time (or of host bytes). */
typedef struct SeriesRow {
    double t_s;                 /* end of the interval, simulated seconds */
    uint64_t host_write_bytes;  /* cumulative */
    uint64_t host_read_bytes;   /* cumulative */
    double write_MBps, read_MBps, iops;
    uint64_t free_blocks;
    double gc_MBps, fold_MBps;
    uint64_t pslc_used_bytes, pslc_limit_bytes;
    double l2p_hit_ratio;       /* NAN when no lookups in the interval */
    DrivePhase phase;
    double die_work[DIE_WORKS]; /* share of the dies' time in the interval, by activity */
    double chan_busy;           /* share of the channels' time carrying data */
    double ctrl_busy;           /* share of the firmware cores' time busy */
    uint32_t wear_min, wear_max; /* erases of the least- and most-worn pool block so far */
    double wear_mean;
    gboolean has_latency;       /* --series-percentiles: lat_us is filled */
    /* us, [IO_READ, IO_WRITE][p50, p99, p99.9] of the interval; NAN: no such I/O */
    double lat_us[2][REPORT_SERIES_PCTS];
} SeriesRow;

/* What a series row is made of: the drive's counters at the last row and
 * now, the interval's end and length. */
typedef struct SeriesSample {
    const DriveStats *last, *now;
    double t_s, dt;        /* s: the end of the interval, its length (> 0) */
    double dies, channels; /* of the drive */
    double cores;          /* the controller's firmware cores (at least 1) */
    double pool_blocks;    /* blocks outside the static SLC part */
} SeriesSample;

/* Every field of row that the drive's counters give (each series.csv
 * column's filler, beside its row in report_table.c); not the phase and
 * the latency percentiles, which the run's sampler knows. */
void report_series_fill(SeriesRow *row, const SeriesSample *s);

/* A stretch of the run in one drive state. */
typedef struct PhaseSpan {
    DrivePhase kind;
    uint64_t start_host_bytes, end_host_bytes; /* host bytes written */
    double start_s, end_s;
    double die_busy_s, chan_busy_s; /* busy shares of its rows x their length */
} PhaseSpan;

/* The rounds of a workload's ss=pts job (PTS steady state): IOPS and the
 * verdict from the workload, the drive's write counters at each round
 * boundary from the run. */
typedef struct RunSteady {
    WorkloadSteady ws;
    const double *host_bytes;  /* host bytes written at boundary 0 (the rounds begin) .. rounds */
    const double *nand_bytes;  /* NAND bytes written (every cause) at the same boundaries */
    double window_waf;         /* NAND / host bytes over the window's rounds; NAN: none */
    const LatHist *window_lat; /* reads and writes completed in the window's rounds */
} RunSteady;

typedef struct RunResult {
    const char *drive;       /* the INI file */
    const char *prefill;     /* --prefill SPEC; NULL: a fresh drive */
    const char *const *sets; /* --set overrides, or NULL */
    uint64_t seed;
    const DriveParams *params;
    const DriveStats *stats;
    DriveWear wear; /* erase counts per block at the end */
    const Workload *workload;
    double sim_time_s;
    double wall_s;       /* s, wall clock: the simulation */
    double setup_wall_s; /* s, wall clock before it: loading, --prefill, binding the workload */
    uint64_t events;
    uint64_t peak_rss; /* bytes, of the whole process */
    GArray *rows;   /* SeriesRow */
    GArray *phases; /* PhaseSpan */
    gboolean interrupted; /* stopped by SIGINT, SIGTERM or SIGHUP before the workload ended */
    const RunSteady *steady; /* the ss=pts job's rounds; NULL: none */
    const DriveFdpHandle *fdp; /* FDP: fdp_handles + 1 rows (the last: shared units); NULL: none */
    uint32_t fdp_handles;
    const DriveZns *zns;       /* a zoned drive's zones and commands; NULL: not zoned */
} RunResult;

/* report_fdp.c: the FDP statistics, per handle, in summary.json and
 * summary.txt (present only on a drive with FDP). */
gboolean report_has_fdp(const RunResult *r);
void report_fdp_json(const RunResult *r, JsonWriter *w, const char *key);
void report_fdp_text(const RunResult *r, GString *out);
/* ... and a zoned drive's zones and zone commands, with their errors. */
gboolean report_has_zns(const RunResult *r);
void report_zns_json(const RunResult *r, JsonWriter *w, const char *key);
void report_zns_text(const RunResult *r, GString *out);

/* The header line of series.csv, with the latency columns when asked. */
void report_series_header(FILE *f, gboolean latency);
/* One line of series.csv; the latency columns when r->has_latency. */
void report_series_row(FILE *f, const SeriesRow *r);
/* Phases shorter than this share of the run's host writes and of its time
 * are merged with their neighbours. */
#define REPORT_PHASE_MIN 0.02

/* The phases a reader sees: consecutive rows of one kind, then runs of
 * short spans in which a kind comes back (alternation) merged into one
 * phase (folding when folding took a tenth of their time, else the kind
 * that took most), and a short blip between two phases of one kind
 * joined to them. */
void report_phases_from_rows(GArray *rows, GArray *phases);
void report_phases_csv(const RunResult *r, GString *out);
/* summary.txt lists at most this many phases: the first, "... N more",
 * the last three. */
#define REPORT_TEXT_PHASES 16
void report_summary_text(const RunResult *r, GString *out);
/* Write amplification between two snapshots of a drive's counters (from
 * NULL: since the start), both taken after drive_account(): NAND bytes
 * programmed, with the host data the write buffer still holds counted as
 * programmed, per byte of host data the flash has to store (host writes
 * less those overwritten or trimmed while still in the buffer, which never
 * reach NAND). NAN when nothing was written. run's summary and pts's
 * rounds both use it (docs/outputs.md). */
double report_waf(const DriveStats *now, const DriveStats *before);
/* steady_state.csv: one line a round of the ss=pts job: round, t_end_s,
 * iops, waf, host_GB_written, and from round 5 the window's first round,
 * average, excursion_pct, slope_pct and steady (yes, no; - before). */
void report_steady_csv(const RunSteady *s, GString *out);

/* The measures of one run in a sweep table (ftlsim run --vary), after
 * columns naming the run: the header (without a newline; static) and one
 * row (with one). Empty fields for what the run did not have. */
const char *report_sweep_header(void);
void report_sweep_row(const RunResult *r, GString *out);
/* summary.json's steady_state object (under key; r->steady set). */
void report_steady_json(const RunResult *r, JsonWriter *w, const char *key);
/* summary.json's phases[] (under key). */
void report_phases_json(const RunResult *r, JsonWriter *w, const char *key);
void report_summary_json(const RunResult *r, JsonWriter *w);

#endif
