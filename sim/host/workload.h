/*
 * workload.h - host workloads: fio-style jobs, named review workloads and
 * trace replay, issuing I/O on the engine against a WorkloadTarget.
 *
 * A Workload is parsed once (spec, job file or trace), bound to an engine and
 * a target, then driven by completions. All per-I/O state is preallocated at
 * bind time; the event loop never allocates.
 */
#ifndef FTLSIM_WORKLOAD_H
#define FTLSIM_WORKLOAD_H

#include "models/drive.h"
#include "sim/engine/engine.h"
#include "sim/engine/histogram.h"
#include "sim/engine/json.h"
#include "sim/engine/steady.h"
#include "sim/host/trace.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#define WORKLOAD_ERROR workload_error_quark()
GQuark workload_error_quark(void);
typedef enum WorkloadErrorCode {
    WORKLOAD_ERROR_PARSE, /* spec or job file */
    WORKLOAD_ERROR_FILE,  /* cannot read a file */
    WORKLOAD_ERROR_BIND,  /* does not fit the target */
    WORKLOAD_ERROR_TRACE, /* trace content */
    WORKLOAD_ERROR_VERIFY, /* a verified read found data the workload did not write */
    WORKLOAD_ERROR_RATE,   /* a job fell below its rate_min */
} WorkloadErrorCode;

/* ---- The target the workload drives ------------------------------------ */

typedef struct Workload Workload;

/* Asked now and then during a long set-up (binding tens of thousands of
 * jobs): the signal (SIGINT, SIGTERM) that asks the run to stop, or 0. A
 * set-up it stops fails with WORKLOAD_ERROR_BIND. */
typedef int (*WorkloadStopFn)(void);

/* The drive the workload drives: what it is, and the calls into it (each
 * with ctx). Only submit is required. Copied at bind. */
typedef struct WorkloadTarget {
    void *ctx;
    /* Submit a command at sim_now() (a plain I/O, a write naming a
     * placement identifier, a Zone Append or a zone management action);
     * its completion comes back through workload_io_done(). */
    void (*submit)(void *ctx, const DriveCmd *c);
    /* A command at offset is chosen and will be submitted soon (after the
     * commands queued before it), and next (UINT64_MAX: not known) is the
     * offset of the job's command after it; the target may fetch what it
     * will need meanwhile. Must not change anything the target does. */
    void (*warm)(void *ctx, uint64_t offset, uint64_t next);
    /* Where logical 4 KiB page lpn lives (DRIVE_UNMAPPED when nowhere),
     * for verify; without it verify checks only what the workload itself wrote. */
    uint64_t (*lookup)(void *ctx, uint64_t lpn);
    WorkloadStopFn stop;     /* the run's stop request during set-up; NULL: never asked */
    uint64_t capacity;       /* bytes: user capacity of the drive */
    uint32_t queue_limit;    /* commands the drive accepts outstanding */
    uint32_t placement_ids;  /* FDP placement identifiers it takes (jobs with fdp=1); 0: no FDP */
    /* A zoned drive (models/zns.c), for zonemode=zbd jobs: zone_size 0
     * when it has no zones (zbd jobs then run on zones the host emulates,
     * as fio's on a device that is not zoned). */
    uint64_t zone_size, zone_cap; /* bytes */
    uint32_t max_open_zones;      /* the drive's limit; 0: none */
} WorkloadTarget;

/* ---- Parsed jobs (plain data, read-only for callers) -------------------- */

typedef enum WorkloadRw {
    WL_RW_READ = 0,
    WL_RW_WRITE,
    WL_RW_RANDREAD,
    WL_RW_RANDWRITE,
    WL_RW_RW, /* sequential mixed (rw, readwrite) */
    WL_RW_RANDRW,
    WL_RW_TRIM,
    WL_RW_RANDTRIM,
    WL_RW_TRIMWRITE, /* trim a block, then write the same block */
} WorkloadRw;

typedef enum WorkloadDist {
    WL_DIST_RANDOM = 0, /* uniform */
    WL_DIST_ZIPF,       /* param: theta */
    WL_DIST_PARETO,     /* param: h */
    WL_DIST_NORMAL,     /* param: standard deviation, % of the region */
    WL_DIST_ZONED,      /* zones: share of accesses, % of the region */
    WL_DIST_ZONED_ABS,  /* zones: share of accesses, bytes */
    WL_DIST_SEQUENCE,   /* a fixed order of block indices */
} WorkloadDist;

/* Directions for per-direction options (bs=R,W,T, rate=R,W,T). */
#define WL_DIRS 3 /* IO_READ, IO_WRITE, IO_TRIM */
#define WL_BSSPLIT_MAX 16
#define WL_NAME_MAX 64
#define WL_ZONES_MAX 16
#define WL_SEQUENCE_MAX 64
#define WL_LOG_NAME_MAX 128
#define WL_PCT_MAX 20 /* percentile_list: fio's FIO_IO_U_LIST_MAX_LEN */
#define WL_PATH_MAX 256

/* One zone of random_distribution=zoned / zoned_abs. */
typedef struct WorkloadZone {
    uint32_t access_pct; /* share of the I/Os, % */
    double size_pct;     /* zoned: share of the region, % */
    uint64_t size;       /* zoned_abs: bytes */
} WorkloadZone;

/* ss=: fio's steady-state detection, or (ftlsim) the SNIA PTS test on
 * IOPS per round. */
typedef enum WorkloadSsKind { WL_SS_NONE = 0, WL_SS_IOPS, WL_SS_BW, WL_SS_PTS } WorkloadSsKind;
#define WL_SS_ROUNDS_MAX 100000 /* ss_rounds */

/* exit_what=: which jobs an exitall job stops when it ends. */
typedef enum WorkloadExitWhat { WL_EXIT_GROUP = 0, WL_EXIT_STONEWALL, WL_EXIT_ALL } WorkloadExitWhat;
/* fio's unified_rw_reporting: per direction (none), the directions summed
 * into "mixed" (mixed), or both. */
typedef enum WorkloadUnified { WL_UNIFIED_NONE = 0, WL_UNIFIED_MIXED, WL_UNIFIED_BOTH } WorkloadUnified;

typedef struct WorkloadBsSplit {
    uint64_t bs;  /* bytes */
    uint32_t pct; /* share of I/Os, % */
} WorkloadBsSplit;

/* fio's data placement options: fdp=1 (dataplacement=fdp) and the placement
 * identifiers a job's writes name, fdp_pli= (plids=) as indices into the
 * drive's list of them, chosen per write by fdp_pli_select= (plid_select=). */
#define WL_FDP_PLI_MAX 16 /* fio's FIO_MAX_DP_IDS */
typedef struct WorkloadFdp {
    gboolean on;
    uint32_t n;                    /* indices given; 0: every identifier of the drive */
    uint16_t pli[WL_FDP_PLI_MAX];
    gboolean random;               /* fdp_pli_select=random (default roundrobin) */
} WorkloadFdp;

/* fio's zonemode=zbd and its options (sim/host/workload_zbd.c); sizes
 * given in zones ("8z") are resolved against the drive's zone size. */
typedef struct WorkloadZbd {
    gboolean on;                   /* zonemode=zbd */
    uint64_t zonecapacity, zonerange; /* bytes; a zoned drive's zones rule; emulated: the first job's */
    gboolean read_beyond_wp;
    gboolean ignore_zone_limits;
    uint32_t max_open_zones;       /* 0: the drive's limit */
    uint32_t job_max_open_zones;   /* 0: none */
    double reset_threshold;        /* zone_reset_threshold, 0..1 */
    double reset_frequency;        /* zone_reset_frequency, 0..1; 0: no threshold resets */
    gboolean append;               /* zone_append=1 (ftlsim's): writes as Zone Append */
    uint64_t size_nz, offset_nz, io_size_nz, offset_increment_nz; /* in zones; 0: not so given */
} WorkloadZbd;

typedef struct WorkloadJobSpec {
    char name[WL_NAME_MAX];
    gboolean idle;              /* an idle phase: nothing submitted for runtime_ns */
    WorkloadRw rw;
    uint64_t bs[WL_DIRS];       /* bytes, per direction */
    uint64_t bs_min[WL_DIRS];   /* bytes: bsrange low; 0 when unset */
    uint64_t bs_max[WL_DIRS];   /* bytes: bsrange high */
    WorkloadBsSplit bssplit[WL_DIRS][WL_BSSPLIT_MAX]; /* per direction */
    uint32_t n_bssplit[WL_DIRS]; /* 0: no bssplit for that direction */
    uint32_t iodepth;
    uint32_t numjobs;
    uint32_t loops;
    uint32_t rwmixread;         /* % of reads in mixed jobs */
    uint32_t fsync;             /* FLUSH after every N writes; 0: never */
    uint64_t size;              /* bytes; 0 with size_pct 0: whole drive */
    double size_pct;            /* % of the drive when > 0 */
    uint64_t offset;            /* bytes */
    double offset_pct;          /* % of the drive when > 0 */
    uint64_t io_size;           /* bytes; 0: size x loops */
    SimTime runtime_ns;         /* 0: no time limit */
    SimTime ramp_ns;
    SimTime thinktime_ns;       /* fio's thinktime: the job's pause (see thinktime_blocks) */
    uint32_t thinktime_blocks;  /* I/Os between pauses; default 1 */
    gboolean thinktime_issue;   /* thinktime_blocks_type=issue: count issued, not completed */
    SimTime startdelay_ns;
    gboolean time_based;
    gboolean stonewall;
    gboolean norandommap;
    gboolean randrepeat;        /* default TRUE: seed from the run seed + job index */
    gboolean has_randseed;
    uint64_t randseed;
    uint64_t rate[WL_DIRS];      /* bytes/s cap; 0: none */
    uint64_t rate_iops[WL_DIRS]; /* I/O per s cap; 0: none */
    WorkloadDist dist;
    double dist_param;
    uint32_t kb_base;            /* 1024 or 1000: how later numbers are read */
    /* fio compatibility */
    int64_t seq_add;             /* bytes: rw=read:8k (skip) or read:-8k (back) after each I/O */
    uint64_t filesize;           /* bytes: the region when size is unset; 0: none */
    gboolean fill_device;        /* size: the rest of the drive */
    uint64_t offset_increment;   /* bytes: clone k starts k x this further */
    uint64_t number_ios;         /* stop after this many I/Os; 0: no limit */
    uint64_t blockalign;         /* bytes: random offsets on this boundary; 0: smallest bs */
    WorkloadZone zones[WL_ZONES_MAX];
    uint32_t n_zones;
    uint64_t sequence[WL_SEQUENCE_MAX]; /* block indices of random_distribution=sequence */
    uint32_t n_sequence;
    gboolean sequence_stride;    /* random_sequence_stride=1: the pattern moves on */
    gboolean zone_strided;       /* zonemode=strided */
    uint64_t zonesize, zoneskip; /* bytes */
    int32_t flow;                /* weight among the jobs of flow_id; 0: none */
    uint32_t flow_id;
    gboolean rate_poisson;       /* rate_process=poisson: exponential gaps */
    gboolean engine_null;        /* ioengine=null: moves no data */
    char wait_for[WL_NAME_MAX];  /* start when this job has ended; "" none */
    gboolean exitall;
    WorkloadExitWhat exit_what;
    gboolean verify;             /* verify=: read back what was written */
    gboolean do_verify;          /* default TRUE */
    WorkloadSsKind ss;
    gboolean ss_slope, ss_pct;   /* ss=iops_slope:..., ...:10% */
    double ss_limit;
    SimTime ss_dur, ss_ramp;     /* ns */
    SimTime ss_round;            /* ns: ss=pts round length (default 60 s) */
    uint32_t ss_rounds;          /* ss=pts: rounds before giving up (default 25) */
    char bw_log[WL_LOG_NAME_MAX], lat_log[WL_LOG_NAME_MAX], iops_log[WL_LOG_NAME_MAX];
    SimTime log_avg_ns;          /* log_avg_msec; 0: per I/O (lat) or 500 ms (bw, iops) */
    SimTime bw_avg_ns, iops_avg_ns; /* fio's bwavgtime, iopsavgtime: sample windows; 0: 500 ms */
    gboolean log_offset, log_prio;
    /* Reporting only (sim/host/workload_fio_report.c): what fio's outputs
     * and logs show, never what the drive sees. */
    double pct_list[WL_PCT_MAX]; /* percentile_list; pct_n 0: fio's default list */
    uint32_t pct_n, pct_prec;    /* pct_prec: decimals fio prints them with (the most written) */
    gboolean clat_pct, lat_pct, slat_pct; /* latencies given percentiles (clat by default) */
    WorkloadUnified unified;     /* unified_rw_reporting */
    uint32_t sig_figs;           /* significant_figures: normal output's digits (default 4) */
    gboolean unit_bits;          /* unit_base=8: normal output's rates in bits */
    gboolean datasync;           /* fdatasync=: the syncs are fio's datasync */
    char hist_log[WL_LOG_NAME_MAX]; /* write_hist_log: prefix; "" none */
    SimTime hist_ns;             /* log_hist_msec (ns); 0: the log gets no rows */
    uint32_t hist_coarse;        /* log_hist_coarseness: 2^N bins summed into one */
    gboolean log_max;            /* log_max_value: windows log their maximum */
    SimTime latency_target;      /* ns: fio's JSON shows it (no depth probing here) */
    gboolean no_disk_util;       /* disk_util=0: fio's outputs leave disk_util out */
    gboolean no_stats;           /* stats=0: fio's outputs show no I/O for the job */
    gboolean no_lat, no_clat, no_slat, no_bw; /* disable_*: that measurement shows none */
    gboolean log_gz_store;       /* log_store_compressed: the logs as NAME.log.fz, zlib
                                    streams of the text (fio --inflate-log reads them) */
    gboolean log_epoch;          /* log_unix_epoch, log_alternate_epoch: log times are
                                  * Unix ms (SOURCE_DATE_EPOCH, or when the run began) */
    WorkloadFdp fdp;             /* fdp=1, fdp_pli=, fdp_pli_select= (sim/host/workload_fdp.c) */
    uint64_t rate_min[WL_DIRS];  /* bytes/s the job must keep up over each ratecycle; 0: none */
    SimTime ratecycle_ns;        /* default 1 s */
    gboolean group_reporting;    /* fio JSON: one entry for the job's reporting group */
    gboolean new_group;          /* starts a reporting group (as stonewall does) */
    /* The options as written, for fio's JSON "job options" and "global
     * options": one "KEY=VALUE" a line, in order (options without a value
     * are left out, as fio does). Interned strings (g_intern_string), so
     * copies of the spec share them; NULL: none. */
    const char *opts;            /* the job's own section */
    const char *global_opts;     /* every [global] section of its file */
    /* fio's I/O generation beyond the basics (workload_offset.c) */
    uint32_t seq_nr;             /* rw=randread:N: a new random offset every N I/Os; 0 none */
    gboolean rw_seq_identical;   /* rw_sequencer=identical: the I/Os between repeat the offset */
    uint32_t perc_rand[WL_DIRS]; /* percentage_random: % of a random job's I/Os at random */
    gboolean zonesize_set;       /* zonesize given (refused without zonemode=strided) */
    char filename[WL_PATH_MAX];  /* filename=: the file named in write_iolog; "" the job's */
    char iolog_out[WL_PATH_MAX]; /* write_iolog: file in the results folder; "" none */
    char iolog_in[WL_PATH_MAX];  /* read_iolog: the I/Os to issue, from this iolog; "" none */
    gboolean replay_no_stall;    /* read_iolog: ignore the log's times, issue at once */
    gboolean lfsr;               /* random_generator=lfsr: each block once without a map */
    gboolean rand64;             /* random_generator=tausworthe64 */
    WorkloadZbd zbd;             /* zonemode=zbd (sim/host/workload_zbd.c) */
} WorkloadJobSpec;

/* ---- Trace replay options ----------------------------------------------- */

typedef enum ReplayMode { REPLAY_OPEN, REPLAY_CLOSED } ReplayMode;
typedef enum LbaMap { LBA_ERROR, LBA_WRAP, LBA_SCALE } LbaMap;

typedef struct ReplayOptions {
    ReplayMode mode;
    double time_scale;       /* simulated gap = trace gap x time_scale; 0 means 1 */
    uint64_t max_idle_ns;    /* scaled gaps longer than this shrink to it; 0: keep gaps */
    uint32_t iodepth;        /* closed mode: commands kept outstanding; 0 means 1 */
    LbaMap lba_map;
    uint64_t trace_capacity; /* bytes, for LBA_SCALE; 0: found by a first pass */
} ReplayOptions;

/* ---- Workloads ---------------------------------------------------------- */

/* An inline spec ("rw=write,bs=128k;idle=60s;rw=read") or a named workload
 * ("fill", "cdm:size=1g"). Returns an owned workload or NULL with error. */
Workload *workload_from_spec(const char *spec, GError **error);
/* An fio job file. */
Workload *workload_from_jobfile(const char *path, GError **error);
/* The same, stop (may be NULL) asked before each line: a signal it returns
 * ends the parse of a file of many jobs with an error, nothing made. */
Workload *workload_from_jobfile_stoppable(const char *path, WorkloadStopFn stop, GError **error);
/* A trace replay. topt and ropt are copied. */
Workload *workload_from_trace(const char *path, const TraceOptions *topt, const ReplayOptions *ropt,
                              GError **error);
/* A live replay: no trace, the records handed in as they arrive
 * (ftlsim emulate). Results report it as one job named name. After bind
 * and start, workload_live_submit() submits a command at sim_now() (once
 * the drive's queue is full, it waits its turn; at most 1024 wait); done
 * gets id back at the command's completion. FALSE when the command
 * cannot be taken (beyond the capacity, or 1024 waiting). It is finished
 * once workload_live_close() was called and nothing is outstanding. */
typedef void (*WorkloadLiveDoneFn)(void *ctx, uint32_t id);
Workload *workload_live_new(const char *name, WorkloadLiveDoneFn done, void *ctx);
gboolean workload_live_submit(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint32_t id);
void workload_live_close(Workload *w);
void workload_free(Workload *w); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Workload, workload_free)

/* Resolve sizes in % of the drive, check every job fits the capacity, make
 * the RNGs from seed, preallocate per-I/O state. Errors name job and option.
 * The engine and the target's ctx must outlive the workload. */
gboolean workload_bind(Workload *w, SimEngine *e, const WorkloadTarget *t, uint64_t seed,
                       GError **error);
void workload_start(Workload *w);                 /* first phase at sim_now() */
/* The drive completed c->tag, at sim_now(). TRUE when the workload is
 * finished after it: what workload_finished() would answer, without the
 * call at every completion. */
gboolean workload_io_done(Workload *w, const DriveCompletion *c);
gboolean workload_finished(const Workload *w);    /* every phase done, nothing outstanding */
/* TRUE and sets error if a trace read failed mid-run (finished is TRUE too). */
gboolean workload_error(const Workload *w, GError **error);
double workload_progress(const Workload *w);         /* 0..1 estimate */
const char *workload_description(const Workload *w); /* normalized spec text; owned by w */
/* Write "jobs": [ {...}, ... ] into the current JSON object. */
void workload_write_jobs_json(const Workload *w, JsonWriter *jw);
const LatHist *workload_latency(const Workload *w, IoOp op); /* all jobs; owned by w */
/* Zone commands (zone management actions from a trace, zbd resets,
 * appends) from submission to completion, by op; owned by w. */
const LatHist *workload_zone_latency(const Workload *w, ZoneOp op);

/* What a trace replay read: FALSE for other workloads. */
typedef struct WorkloadTraceInfo {
    const char *path, *format; /* owned by w; format as trace_format_label() */
    gboolean detected;         /* the format came from the content */
    gboolean header_skipped;   /* a column header line was skipped */
    uint64_t bad_lines;        /* malformed lines skipped (--skip-bad-lines) */
} WorkloadTraceInfo;
gboolean workload_trace_info(const Workload *w, WorkloadTraceInfo *info);
/* Called with every latency the workload records (op, ns), after its own
 * histograms; for per-interval statistics. fn NULL (the default) turns it off. */
typedef void (*WorkloadLatencyFn)(void *ctx, IoOp op, uint64_t ns);
void workload_set_latency_sink(Workload *w, WorkloadLatencyFn fn, void *ctx);
/* Stop every job when the simulated clock reaches t (ns): running jobs end
 * as if their runtime were over, later ones do not start. Before start. */
void workload_set_stop_time(Workload *w, SimTime t);

/* fio's statistics of bandwidth or IOPS samples (its io_stat): a sample
 * per window of bw_avg_time / iops_avg_time (500 ms) in which the job
 * moved data, or one per I/O when the job writes that log without
 * log_avg_msec (sim/host/workload_fiostat.c). */
typedef struct WorkloadRateStat {
    uint64_t samples;
    uint64_t min, max; /* KiB/s (bw), 1/s (iops); per I/O: bytes x 10^6 / ns, and 1 */
    double mean, S;    /* running mean; sum of squared deviations from it */
} WorkloadRateStat;

#define WL_FIO_DEPTHS 7 /* fio's iodepth_level, _submit, _complete buckets */
#define WL_FIO_LAT_N 10 /* latency_ns buckets: 2, 4, 10, ... 1000 */
#define WL_FIO_LAT_U 10 /* latency_us */
#define WL_FIO_LAT_M 12 /* latency_ms: ... 2000, >=2000 */

/* What fio's JSON reports of a job beyond its counts and latencies,
 * counted from the simulated submissions and completions after ramp_time. */
typedef struct WorkloadFioStat {
    WorkloadRateStat bw[WL_DIRS], iops[WL_DIRS];
    uint64_t depth[WL_FIO_DEPTHS];    /* I/Os by the job's commands in flight at submission,
                                         itself included: 1, 2-3, 4-7, ... 32-63, >=64 */
    uint64_t submit[WL_FIO_DEPTHS];   /* submissions at one instant, by how many: 0, 1-4,
                                         5-8, 9-16, 17-32, 33-64, >64 */
    uint64_t complete[WL_FIO_DEPTHS]; /* completions at one instant, by how many */
    uint64_t total_submit, total_complete; /* those instants */
    uint64_t lat_n[WL_FIO_LAT_N], lat_u[WL_FIO_LAT_U], lat_m[WL_FIO_LAT_M]; /* I/Os by latency */
} WorkloadFioStat;

/* The simulated drive as the host's block layer counts it (what fio's
 * disk_util reads from /proc/diskstats), over the whole run. */
typedef struct WorkloadDiskStat {
    uint64_t ios[WL_DIRS];      /* commands completed: read, write, trim */
    uint64_t ticks_ns[WL_DIRS]; /* their latencies summed */
    uint64_t in_queue_ns;       /* every command's latency summed (flushes too) */
    uint64_t busy_ns;           /* time with at least one command outstanding */
} WorkloadDiskStat;
/* Up to now (a command still outstanding counts until now). */
void workload_disk_stat(const Workload *w, WorkloadDiskStat *out);

/* What one job (a numjobs clone) did, for fio's JSON output. */
typedef struct WorkloadJobResult {
    const char *name;
    const WorkloadJobSpec *spec;
    gboolean trace;            /* the replay of a trace (spec: defaults, name "replay") */
    uint32_t group;            /* reporting group: a new one at stonewall or new_group */
    SimTime runtime_ns;        /* after ramp_time */
    uint64_t ios[WL_DIRS], bytes[WL_DIRS];
    const LatHist *lat[WL_DIRS];  /* submission to completion */
    double lat_stddev_ns[WL_DIRS];
    double lat_sq[WL_DIRS];       /* ns^2: sum of squared latencies, to merge deviations */
    uint64_t verify_reads, verify_bytes, verify_mismatches;
    gboolean ss_attained;      /* ss= job: the criterion was met */
    double ss_criterion;       /* the last value computed */
    /* ss= (fio's kinds, not pts), as fio reports it: the job's (all its
     * clones') samples of the last ss_dur seconds, oldest first */
    uint32_t ss_samples;       /* held: up to ss_dur */
    const uint64_t *ss_iops;   /* I/Os per second; ss_samples entries from ss_first in a
                                  ring of ss_dur; owned by w */
    const uint64_t *ss_bw;     /* bytes per second, likewise */
    uint32_t ss_first, ss_ring;
    double ss_deviation, ss_slope; /* of the last window judged */
    uint64_t sync_ios;         /* FLUSH commands (fsync=) completed */
    const LatHist *sync_lat;   /* their latencies */
    double sync_lat_sq;        /* ns^2 */
    WorkloadFioStat fio;
} WorkloadJobResult;
/* fio's name of a job's rw= ("randrw"). */
const char *workload_rw_name(const WorkloadJobSpec *s);
guint workload_result_count(const Workload *w); /* bound jobs, clones expanded; 1 for a replay */
void workload_result(const Workload *w, guint i, WorkloadJobResult *out);

/* The rounds of a workload's ss=pts job (at most one a workload): the job's
 * IOPS per round and the PTS verdict on the last 5 (sim/engine/steady.h). */
typedef struct WorkloadSteady {
    const char *job;          /* the job's name (its first clone's); owned by w */
    SimTime round_ns;         /* ns */
    uint32_t max_rounds;      /* ss_rounds */
    uint32_t rounds;          /* rounds completed */
    const double *iops;       /* per round, rounds entries; owned by w */
    const SimTime *round_end; /* ns, per round; owned by w */
    uint32_t steady_round;    /* the round where the window became steady; 0: not reached */
    SteadyWindow win;         /* that window, or the last rounds' (win.steady false; all
                                 zero before 2 rounds) */
} WorkloadSteady;
/* FALSE when no job has ss=pts. Valid after bind. */
gboolean workload_steady(const Workload *w, WorkloadSteady *out);
/* Merge into h the latencies (reads and writes) of rounds first..last of
 * the ss=pts job: only the last 5 completed rounds are kept. FALSE when
 * they are not. */
gboolean workload_steady_latency(const Workload *w, uint32_t first, uint32_t last, LatHist *h);
/* Called when the ss=pts job's rounds begin (round 0) and at the end of
 * each round (1, 2, ...), before the verdict can stop the job; for
 * measures taken at round boundaries (the drive's counters). */
typedef void (*WorkloadRoundFn)(void *ctx, uint32_t round);
void workload_set_round_hook(Workload *w, WorkloadRoundFn fn, void *ctx);

/* A log file the workload writes (fio's write_*_log): opened by the caller
 * in the results folder, closed by close_fn. */
typedef FILE *(*WorkloadLogOpenFn)(void *ctx, const char *name, GError **error);
typedef gboolean (*WorkloadLogCloseFn)(void *ctx, FILE *f, GError **error);
/* Does any job ask for a log? */
gboolean workload_wants_logs(const Workload *w);
/* Open the logs of every job (after bind, before start). */
gboolean workload_open_logs(Workload *w, WorkloadLogOpenFn open_fn, void *ctx, GError **error);
/* Flush the last windows and close every log (after the run). */
gboolean workload_close_logs(Workload *w, WorkloadLogCloseFn close_fn, void *ctx, GError **error);

/* Bytes and commands submitted so far, by op (cheap counters). */
uint64_t workload_submitted_bytes(const Workload *w, IoOp op);
uint64_t workload_submitted_ios(const Workload *w, IoOp op);

/* The parsed jobs in order (numjobs clones not expanded); owned by w. */
guint workload_job_count(const Workload *w);
const WorkloadJobSpec *workload_job_spec(const Workload *w, guint i);
/* Memory that binding the jobs takes: every numjobs clone's record, its
 * latency histograms and its iodepth command slots, bytes (0 for a trace);
 * *clones gets the number of clones. Known before binding, so that a job
 * set that cannot be set up is refused before it is tried. */
uint64_t workload_setup_bytes(const Workload *w, uint64_t *clones);

/* ---- fio units (also used by other option parsers) --------------------- */

/* A byte count in fio's units: "4096", "4k" (k, kb: kb_base; kib: the other
 * base, as fio does), m, g, t, p; case-insensitive; optional "0x" prefix. */
gboolean workload_parse_bytes(const char *text, uint32_t kb_base, uint64_t *out, GError **error);
/* A duration: a number with us, ms, s, m, h, d (or ns); unit when bare. */
gboolean workload_parse_time(const char *text, SimTime bare_unit, SimTime *out, GError **error);

#endif
