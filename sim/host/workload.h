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
#include "sim/output/json.h"
#include "sim/host/trace.h"

#include <glib.h>
#include <stdint.h>

#define WORKLOAD_ERROR workload_error_quark()
GQuark workload_error_quark(void);
typedef enum WorkloadErrorCode {
    WORKLOAD_ERROR_PARSE, /* spec or job file */
    WORKLOAD_ERROR_FILE,  /* cannot read a file */
    WORKLOAD_ERROR_BIND,  /* does not fit the target */
    WORKLOAD_ERROR_TRACE, /* trace content */
} WorkloadErrorCode;

/* ---- The target the workload drives ------------------------------------ */

typedef struct WorkloadTarget {
    /* Submit a command at sim_now(); the runner later calls workload_io_done(tag). */
    void (*submit)(void *ctx, IoOp op, uint64_t offset, uint64_t length, uint64_t tag);
    void *ctx;
    uint64_t capacity;    /* bytes: user capacity of the drive */
    uint32_t queue_limit; /* commands the drive accepts outstanding */
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
} WorkloadDist;

/* Directions for per-direction options (bs=R,W,T, rate=R,W,T). */
#define WL_DIRS 3 /* IO_READ, IO_WRITE, IO_TRIM */
#define WL_BSSPLIT_MAX 16
#define WL_NAME_MAX 64

typedef struct WorkloadBsSplit {
    uint64_t bs;  /* bytes */
    uint32_t pct; /* share of I/Os, % */
} WorkloadBsSplit;

typedef struct WorkloadJobSpec {
    char name[WL_NAME_MAX];
    gboolean idle;              /* an idle phase: nothing submitted for runtime_ns */
    WorkloadRw rw;
    uint64_t bs[WL_DIRS];       /* bytes, per direction */
    uint64_t bs_min[WL_DIRS];   /* bytes: bsrange low; 0 when unset */
    uint64_t bs_max[WL_DIRS];   /* bytes: bsrange high */
    WorkloadBsSplit bssplit[WL_BSSPLIT_MAX];
    uint32_t n_bssplit;         /* 0: no bssplit */
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
    SimTime thinktime_ns;
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

typedef struct Workload Workload;

/* An inline spec ("rw=write,bs=128k;idle=60s;rw=read") or a named workload
 * ("fill", "cdm:size=1g"). Returns an owned workload or NULL with error. */
Workload *workload_from_spec(const char *spec, GError **error);
/* An fio job file. */
Workload *workload_from_jobfile(const char *path, GError **error);
/* A trace replay. topt and ropt are copied. */
Workload *workload_from_trace(const char *path, const TraceOptions *topt, const ReplayOptions *ropt,
                              GError **error);
void workload_free(Workload *w); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Workload, workload_free)

/* Resolve sizes in % of the drive, check every job fits the capacity, make
 * the RNGs from seed, preallocate per-I/O state. Errors name job and option.
 * The engine and the target's ctx must outlive the workload. */
gboolean workload_bind(Workload *w, SimEngine *e, const WorkloadTarget *t, uint64_t seed,
                       GError **error);
void workload_start(Workload *w);                 /* first phase at sim_now() */
void workload_io_done(Workload *w, uint64_t tag); /* the drive completed tag, at sim_now() */
gboolean workload_finished(const Workload *w);    /* every phase done, nothing outstanding */
/* TRUE and sets error if a trace read failed mid-run (finished is TRUE too). */
gboolean workload_error(const Workload *w, GError **error);
double workload_progress(const Workload *w);         /* 0..1 estimate */
const char *workload_description(const Workload *w); /* normalized spec text; owned by w */
/* Write "jobs": [ {...}, ... ] into the current JSON object. */
void workload_write_jobs_json(const Workload *w, JsonWriter *jw);
const LatHist *workload_latency(const Workload *w, IoOp op); /* all jobs; owned by w */

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
/* Bytes and commands submitted so far, by op (cheap counters). */
uint64_t workload_submitted_bytes(const Workload *w, IoOp op);
uint64_t workload_submitted_ios(const Workload *w, IoOp op);

/* The parsed jobs in order (numjobs clones not expanded); owned by w. */
guint workload_job_count(const Workload *w);
const WorkloadJobSpec *workload_job_spec(const Workload *w, guint i);

/* ---- fio units (also used by other option parsers) --------------------- */

/* A byte count in fio's units: "4096", "4k" (k, kb: kb_base; kib: the other
 * base, as fio does), m, g, t, p; case-insensitive; optional "0x" prefix. */
gboolean workload_parse_bytes(const char *text, uint32_t kb_base, uint64_t *out, GError **error);
/* A duration: a number with us, ms, s, m, h, d (or ns); unit when bare. */
gboolean workload_parse_time(const char *text, SimTime bare_unit, SimTime *out, GError **error);

#endif
