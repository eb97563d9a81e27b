/*
 * workload_priv.h - what the workload files share: the Workload struct, the
 * per-job runtime state, and the entry points of the fio parser, the named
 * workloads, the sources' ops and trace replay. Not for use outside
 * sim/host/workload*.c, replay.c.
 */
#ifndef FTLSIM_WORKLOAD_PRIV_H
#define FTLSIM_WORKLOAD_PRIV_H

#include "sim/host/workload.h"

#include <stdbool.h>

/* fio's per-job statistics being counted (workload_fiostat.c): the
 * public figures and the windows and instants still open. */
typedef struct WlFioStat {
    WorkloadFioStat pub;
    SimTime origin;          /* ns: where the bw and iops windows start (after ramp_time) */
    SimTime count_from;      /* ns: submissions before this are not counted, or (not
                                started) SIM_TIME_MAX: the first starts the count */
    SimTime win[2];          /* ns: bw_avg_time, iops_avg_time; 0: a sample per I/O instead */
    SimTime win_end[2];      /* ns: end of the open window; 0: none open */
    SimTime open_until;      /* ns, absolute: a completion before this is within
                                both open windows (origin + the earlier end + 1);
                                0: check them */
    uint64_t win_bytes[WL_DIRS], win_ios[WL_DIRS]; /* in the open windows */
    SimTime last_submit, last_complete; /* ns: the instants being counted */
    uint32_t n_submit, n_complete;      /* I/Os at them so far; 0: none yet */
    bool started;
} WlFioStat;

/* Completed I/O counters and latencies of one job (or the replay). */
typedef struct WlStats {
    LatHist *lat[IO_OPS];
    double lat_sq[IO_OPS]; /* ns^2: sum of squared latencies, for the deviation */
    uint64_t ios[IO_OPS];
    uint64_t bytes[IO_OPS];
    WlFioStat fio;
    bool shared; /* lat[] are the workload's overall histograms, not owned
                    (wl_stats_share: the only source of completions) */
} WlStats;

/* One I/O, chosen but maybe not yet submitted, or in flight in a slot. */
typedef struct WlIo {
    SimTime submit; /* ns */
    uint64_t offset; /* bytes */
    uint64_t length; /* bytes */
    uint8_t op;      /* IoOp */
    uint8_t then_write; /* trimwrite: write the same range when the trim is done */
    uint8_t zop;     /* ZoneOp: a zone reset (before a write, or a zbd trim), an append */
    uint8_t host_only; /* done by the host, nothing sent: a trim of emulated zones */
} WlIo;

/* A job's steady-state detector (workload_ss.c) and logs (workload_log.c). */
typedef struct WlSs WlSs;
typedef struct WlLog WlLog;

enum { WL_JOB_WAIT = 0, WL_JOB_RUN, WL_JOB_DONE };
enum { WL_OP_MIXED = 0xff }; /* WlJob.fixed_op of a job that mixes reads and writes */
/* WlJob.fast: the short path a plain job's I/Os take (workload.c), by how
 * its offsets are found (workload_offset.c); NONE: the general one. */
enum { WL_FAST_NONE = 0, WL_FAST_PERM, WL_FAST_SEQ };

/* One of fio's random generators (workload_frand.c): taus88 or taus258. */
typedef struct WlFrand {
    uint32_t s[3];
    uint64_t t[5];
    bool use64;
} WlFrand;

/* fio's taus88 draw (workload_frand.c's generators), inline for the draws
 * made at every I/O. */
#define WL_TAUS(s, a, b, c, d) ((((s) & (c)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))

static inline uint32_t wl_frand32(WlFrand *f)
{
    f->s[0] = WL_TAUS(f->s[0], 13, 19, 4294967294u, 12);
    f->s[1] = WL_TAUS(f->s[1], 2, 25, 4294967288u, 4);
    f->s[2] = WL_TAUS(f->s[2], 3, 11, 4294967280u, 17);
    return f->s[0] ^ f->s[1] ^ f->s[2];
}

/* fio's rand_between(1, 100) on a 32-bit generator (the read/write mix,
 * percentage_random, zones; wl_frand_between): fio computes 1 + 100 x
 * (r / 2^32) in doubles and truncates; 100 r is below 2^53, so that double
 * is exact, and the integer 1 + (100 r >> 32) is the same value. */
static inline uint32_t wl_frand_pct(WlFrand *f)
{
    return 1 + (uint32_t)((uint64_t)100 * wl_frand32(f) >> 32);
}

/* fio's random map (workload_frand.c). */
typedef struct WlAxmap WlAxmap;

typedef struct WlJob WlJob;
struct WlJob {
    Workload *w;
    const WorkloadJobSpec *spec;
    uint32_t index;       /* in w->jobs; tags carry it in the high 32 bits */
    uint32_t phase;
    char name[WL_NAME_MAX + 8];
    uint64_t start, size; /* bytes: the region */
    uint64_t unit;        /* bytes: offset alignment (smallest block size) */
    uint64_t nblocks;     /* size / unit */
    uint64_t limit;       /* bytes to issue; UINT64_MAX when only time ends the job */
    SimTime t_start, t_ramp_end, t_end, t_finish; /* ns; t_end SIM_TIME_MAX: none */
    int state;
    bool stopping, have_pick, queued, wake_pending, flush_due;
    WlIo pick;            /* chosen, not yet submitted */
    uint64_t issued;      /* bytes counted against limit */
    uint64_t seq_pos;     /* bytes from start: next sequential offset */
    uint32_t busy, thinking; /* slots in flight; 1 while the job pauses (thinktime, idle) */
    uint64_t think_cnt;   /* I/Os counted for thinktime_blocks (completed, or issued) */
    uint64_t think_last;  /* think_cnt when the last pause was decided */
    bool think_due;       /* a pause is decided: issue nothing, pause once none in flight */
    WlIo *slots;          /* iodepth */
    uint32_t *free_slots; /* stack of free slot numbers */
    uint32_t nfree;
    SimRng rng;           /* what fio does not draw: distributions, thinktime, placement */
    WlFrand fr_off;       /* fio's generators: random offsets, */
    WlFrand fr_bs[WL_DIRS]; /* block sizes, */
    WlFrand fr_mix;       /* the read/write mix, */
    WlFrand fr_seq[WL_DIRS]; /* percentage_random, */
    WlFrand fr_zone;      /* zoned distributions */
    uint64_t fr_seed, fr_block_seed; /* wl_frand_seed_job's, again at each pass */
    uint32_t fdp_rr;      /* fdp_pli_select=roundrobin: the next index */
    uint32_t perm_bits;   /* random map: a keyed bijection on 2^perm_bits values */
    uint32_t perm_h;      /* its rounds' shift: (perm_bits + 1) / 2 */
    uint64_t perm_mask;   /* 2^perm_bits - 1 */
    uint64_t perm_i, perm_key[3];
    uint64_t ahead_i, ahead_x;    /* wl_peek_perm()'s draw: x, and perm_i after it (0: none) */
    uint64_t scatter_key[3];
    double zetan, zeta2, eta, alpha, pareto_pow;
    SimTime rate_next[WL_DIRS];
    WlStats st;
    /* fio compatibility */
    uint32_t clone;       /* index among its spec's numjobs clones */
    uint32_t spec_index;  /* in w->specs */
    uint32_t wait_spec;   /* wait_for: the spec waited for */
    bool verify_all;      /* a read job with verify: every read is checked */
    uint64_t ios_issued;  /* for number_ios */
    uint64_t zone_done;   /* zonemode=strided: bytes done in the current zone */
    uint64_t zone_base;   /* bytes from start: the current zone */
    uint64_t zlo[WL_ZONES_MAX], zn[WL_ZONES_MAX]; /* zoned: first block, blocks */
    uint64_t seq_i;       /* random_distribution=sequence: position */
    uint64_t flow_count;  /* I/Os counted against the flow */
    bool flow_parked;
    bool verify_pending, verifying;
    uint64_t verify_pos;  /* bytes from start: next block to read back */
    uint64_t verify_reads, verify_bytes, verify_bad;
    WlSs *ss;             /* ss= on the first clone; NULL otherwise */
    WlSs *ss_pts;         /* ss=pts: the first clone's detector, on every clone */
    WlLog *log;           /* write_*_log; NULL: none */
    uint64_t rate_mark[WL_DIRS]; /* rate_min: bytes completed at the last check */
    /* fio's generation state (workload_offset.c) */
    uint64_t last_pos[WL_DIRS];   /* bytes, absolute: end of the direction's last I/O */
    uint64_t last_start[WL_DIRS]; /* bytes, absolute: its start; UINT64_MAX: none yet */
    uint64_t dir_issues[WL_DIRS]; /* I/Os issued per direction */
    uint64_t rwmix_issues;        /* rw mix: keep rwmix_dir until its issues reach this */
    uint8_t rwmix_dir;
    uint32_t seq_nr_left;         /* rw=randread:N: I/Os until the next random offset */
    uint64_t max_bs;              /* bytes: largest block size the job issues */
    /* per-job constants of the common path, set at bind (wl_job_offsets,
     * wl_job_bind) so that an I/O does not derive them from the spec */
    uint64_t bs_lo[WL_DIRS], bs_hi[WL_DIRS]; /* bytes: each direction's smallest, largest block */
    uint64_t max_ios;             /* number_ios; UINT64_MAX: none */
    uint32_t iodepth;             /* spec->iodepth */
    uint8_t fixed_op;             /* the IoOp of a job of one direction; WL_OP_MIXED: rw, randrw */
    bool rand;                    /* rw is one of the random ones */
    bool rated;                   /* a rate or rate_iops cap in some direction */
    bool zbd_on;                  /* spec->zbd.on */
    bool then_write;              /* rw=trimwrite without read_iolog: each trim's write after it */
    bool direct;                  /* every I/O goes to the target as it is: no ioengine=null,
                                     zbd or fdp */
    bool plain_done;              /* a completion needs no zone, zbd or verify step and is the
                                     drive's (not ioengine=null): set once the jobs are bound */
    uint8_t fast;                 /* WL_FAST_*: set at the job's start when it uses none of
                                     rate, thinktime, flow, fsync, verify, zones, logs, iologs,
                                     ss=pts, trimwrite, and its offsets have a short path */
    WlAxmap *map;                 /* fio's random map: a bit per unit; NULL: none */
    bool perm_walk;               /* a pass walks the keyed permutation instead (lfsr, or a
                                     map over WL_MAP_EXACT_MAX) */
    uint64_t map_n;               /* units in the map: the region, or a strided zone */
    uint32_t passes;              /* passes over the region ended */
    uint64_t pass_ios;            /* I/Os of the current pass */
    uint64_t seed;                /* what the job's generator was seeded with */
    FILE *iolog;                  /* write_iolog; NULL: none */
    char *iolog_file;             /* the file its rows name */
    uint64_t last_write;          /* bytes: offset of the last write, for sync rows */
    TraceReader *iolog_in;        /* read_iolog; NULL: none */
    SimTime iolog_at;             /* ns: the picked record's time (not before) */
    uint64_t iolog_line;          /* the picked record's line, for errors */
    /* zonemode=zbd (workload_zbd.c) */
    uint32_t zmin, zmax;          /* the job's zones: [zmin, zmax) */
    uint32_t zopen;               /* zones this job opened (job_max_open_zones) */
    bool zparked;                 /* waiting for a zone's write or reset to end */
    uint64_t zresets, zerrors;    /* zone resets issued; commands the drive failed */
};


typedef struct WlReplay WlReplay; /* replay.c */
typedef struct WlZbd WlZbd;       /* workload_zbd.c */

/* A source of I/O: what fio jobs (workload.c, workload_query.c) and trace
 * replay (replay.c) each do behind the public calls of workload.h, which
 * workload_core.c hands on to these. */
typedef struct WlSource {
    gboolean (*bind)(Workload *w, uint64_t seed, GError **error); /* w->e, w->t are set */
    void (*start)(Workload *w);
    void (*io_done)(Workload *w, uint64_t tag);
    gboolean (*finished)(const Workload *w); /* once started */
    double (*progress)(const Workload *w);   /* once started */
    guint (*results)(const Workload *w);     /* how many WorkloadJobResults */
    void (*result)(const Workload *w, guint i, WorkloadJobResult *out);
    void (*json)(const Workload *w, JsonWriter *jw); /* the entries of summary.json's "jobs" */
    void (*free)(Workload *w);                      /* the source's state */
} WlSource;

typedef void (*WlJobFn)(WlJob *j);

struct Workload {
    const WlSource *src;
    char *description;
    GArray *specs;      /* WorkloadJobSpec, as parsed */
    WlJob *jobs;        /* numjobs clones expanded; NULL until bound */
    uint32_t njobs;
    uint32_t nphases;
    uint32_t cur_phase;
    uint32_t phase_left; /* jobs of cur_phase not finished */
    uint32_t *wait_ring; /* jobs waiting for a queue slot; njobs entries */
    uint32_t wait_head, wait_len;
    SimEngine *e;
    WorkloadTarget t;
    bool bound, started;
    uint32_t outstanding; /* commands at the target */
    LatHist *overall[IO_OPS];
    LatHist *zone_lat[ZONE_OPS]; /* zone commands by ZoneOp, from submission to completion (ZOP_NONE unused) */
    WorkloadLatencyFn lat_sink; /* NULL: none */
    void *lat_sink_ctx;
    uint64_t sub_bytes[IO_OPS];
    uint64_t sub_ios[IO_OPS];
    WlReplay *replay; /* trace replay's state (replay.c); NULL for jobs */
    WlJobFn job_stop; /* ends a job as if its runtime were over (workload.c), for the
                         parts that end jobs early: steady state and rate_min */
    SimTime stop_at;  /* workload_set_stop_time; SIM_TIME_MAX: none */
    WlSs *pts;        /* the ss=pts job's detector; NULL: none */
    WorkloadRoundFn round_fn; /* NULL: none */
    void *round_ctx;
    WorkloadDiskStat disk; /* the drive as the block layer counts it (workload_fiostat.c) */
    uint32_t disk_inflight;
    SimTime disk_busy_since; /* ns: when disk_inflight last rose from 0 */
    const DriveCompletion *done; /* the completion being reported (workload_io_done()); else NULL */
    WlZbd *zbd;       /* zonemode=zbd: the host's view of the zones; NULL: no zbd job */
    uint8_t *stamp;   /* per 4 KiB page: 1 written by the workload, 0 not; NULL: no verify */
    uint64_t stamp_pages;
    GError *run_error;
};

/* workload.c: shared by the job files */
void wl_job_fill(WlJob *j);

/* workload_offset.c */
/* The next I/O of direction op into *off, *len (bytes), as fio's get_next_offset and
 * get_next_buflen choose them; false when the current pass over the region is over. */
bool wl_next_io(WlJob *j, IoOp op, uint64_t *off, uint64_t *len);
/* A new pass over the region: positions and the random map start again. */
void wl_pass_reset(WlJob *j);
/* The random map of a job with varying block sizes (NULL when not needed). */
void wl_map_bind(WlJob *j);
/* The per-job constants of offsets and lengths (block sizes, the
 * permutation's width); at bind, before wl_map_bind. */
void wl_job_offsets(WlJob *j);
uint32_t wl_bits_for(uint64_t n);           /* smallest b with 2^b >= n */
/* Three keys of the job's keyed permutation from its generator (after
 * wl_job_offsets, which sets the permutation's width). */
void wl_mix_keys(WlJob *j, uint64_t key[3]);
/* The short path a plain job's offsets may take (WL_FAST_*), and its
 * steps: the I/O wl_next_io would give, without its tests of options the
 * job does not use. wl_next_seq is false, with nothing changed, where
 * wl_next_io must decide (the region's end). */
uint8_t wl_fast_kind(const WlJob *j);
void wl_next_perm(WlJob *j, IoOp op, uint64_t *off, uint64_t *len);
uint64_t wl_peek_perm(WlJob *j); /* wl_next_perm's next offset, undrawn; UINT64_MAX: unknown */
bool wl_next_seq(WlJob *j, IoOp op, uint64_t *off, uint64_t *len);
gboolean wl_job_zones(WlJob *j, GError **error);
void wl_job_dist(WlJob *j);

/* workload_frand.c */
void wl_frand_init(WlFrand *f, uint64_t seed, bool use64);
uint64_t wl_frand_next(WlFrand *f);
double wl_frand_unit(WlFrand *f);                              /* [0, 1) */
uint64_t wl_frand_between(WlFrand *f, uint64_t lo, uint64_t hi); /* [lo, hi] */
/* The job's generators as fio seeds them from rand_seed (fio's randseed);
 * with repeat (randrepeat), the offsets from fio's fixed seed moved on by
 * block_seed (0: fio's own). */
void wl_frand_seed_job(WlJob *j, uint64_t rand_seed, uint64_t block_seed, bool repeat);
WlAxmap *wl_axmap_new(uint64_t nbits); /* owned: wl_axmap_free() */
void wl_axmap_free(WlAxmap *a);
void wl_axmap_reset(WlAxmap *a);
bool wl_axmap_isset(const WlAxmap *a, uint64_t b);
uint64_t wl_axmap_set_nr(WlAxmap *a, uint64_t b, uint64_t n); /* bits it set */
uint64_t wl_axmap_next_free(WlAxmap *a, uint64_t b);          /* UINT64_MAX: full */

/* workload_verify.c */
gboolean wl_verify_bind(Workload *w, GError **error);
void wl_verify_written(Workload *w, IoOp op, uint64_t offset, uint64_t length);
void wl_verify_check(Workload *w, WlJob *j, uint64_t offset, uint64_t length);
/* The next read-back into j->pick; false when the region is done. */
bool wl_verify_pick(WlJob *j);

/* workload_ss.c */
gboolean wl_ss_bind(Workload *w, WlJob *j, GError **error);
void wl_ss_start(WlJob *j);
void wl_ss_free(WlSs *ss);
void wl_ss_json(const WlSs *ss, JsonWriter *jw);
bool wl_ss_attained(const WlSs *ss, double *criterion);
void wl_ss_result(const WlSs *ss, WorkloadJobResult *out); /* the ss_ fields */
/* ss=pts: a completion's latency, into the running round's histogram */
void wl_ss_pts_record(WlSs *ss, SimTime latency);

/* workload_ss.c: rate_min, checked like steady state once a ratecycle */
void wl_rate_min_start(WlJob *j);

/* workload_fiostat.c: fio's per-job statistics and the drive's block-layer
 * counts, fed by the sources at each submission and completion */
void wl_fio_stat_init(WlFioStat *f); /* a replay's defaults: windows from its first I/O */
/* A job's start of measurement (its ramp_time's end) and its logs' effect
 * on the samples, as fio has it. */
void wl_fio_stat_start(WlFioStat *f, const WorkloadJobSpec *s, SimTime origin);
/* A completion of op at now (wl_fio_stat_record, inline below) when a
 * window is to be closed or opened, or samples are taken per I/O. */
void wl_fio_stat_windows(WlFioStat *f, SimTime now, IoOp op, uint64_t length, SimTime latency);
/* The figures up to end (ns; the job's end or now), the open window and
 * instants included. */
void wl_fio_stat_result(const WlFioStat *f, SimTime end, WorkloadFioStat *out);

/* The steps of each submission and completion, inline here so that the
 * sources' per-I/O paths make no call for them: fio's counts
 * (workload_fiostat.h, the inline part of workload_fiostat.c's), the
 * drive's block-layer counts, a completion's record, a submission. */

#include "sim/host/workload_fiostat.h"

static inline void wl_disk_submit(Workload *w)
{
    if (w->disk_inflight++ == 0)
        w->disk_busy_since = sim_now(w->e);
}

static inline void wl_disk_done(Workload *w, IoOp op, SimTime latency)
{
    g_return_if_fail(w->disk_inflight > 0);
    if (op < WL_DIRS) {
        w->disk.ios[op]++;
        w->disk.ticks_ns[op] += latency;
    }
    w->disk.in_queue_ns += latency;
    if (--w->disk_inflight == 0)
        w->disk.busy_ns += sim_now(w->e) - w->disk_busy_since;
}

/* A completion at now (sim_now(), which the callers have at hand): its
 * counts and latency into s and the workload's overall histograms, and to
 * the latency sink. */
static inline __attribute__((always_inline)) void wl_record(Workload *w, WlStats *s, SimTime now, IoOp op,
                                                            uint64_t length, SimTime latency)
{
    s->ios[op]++;
    s->bytes[op] += length;
    if (s->shared)
        lat_hist_record(s->lat[op], latency);
    else
        lat_hist_record2(s->lat[op], w->overall[op], latency);
    /* as a signed value: the same double (latencies stay below 2^63 ns),
     * without the conversion's test of the top bit */
    double l = (double)(int64_t)latency;
    s->lat_sq[op] += l * l;
    wl_fio_stat_record(&s->fio, now, op, length, latency);
    if (w->lat_sink)
        w->lat_sink(w->lat_sink_ctx, op, latency);
}

/* An I/O to the target: the submitted counts, the block layer's, the call. */
static inline void wl_submit(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint64_t tag)
{
    w->sub_bytes[op] += length;
    w->sub_ios[op]++;
    wl_disk_submit(w);
    w->t.submit(w->t.ctx, &(DriveCmd){.op = (uint8_t)op, .offset = offset, .length = length, .tag = tag});
}

/* workload_log.c */
void wl_log_record(WlJob *j, IoOp op, uint64_t offset, uint64_t length, SimTime latency);
void wl_log_submit(WlJob *j, IoOp op, uint64_t offset, uint64_t length); /* at issue */
void wl_log_free(WlLog *log);

/* workload_iolog.c: fio's iolog, written (write_iolog) and read (read_iolog) */
gboolean wl_iolog_open_all(Workload *w, WorkloadLogOpenFn open_fn, void *ctx, GError **error);
gboolean wl_iolog_close_all(Workload *w, WorkloadLogCloseFn close_fn, void *ctx, GError **error);
void wl_iolog_write(WlJob *j, IoOp op, uint64_t offset, uint64_t length);
gboolean wl_iolog_bind(WlJob *j, GError **error);
/* The next record of a read_iolog job into j->pick; false at the end of the log. */
bool wl_iolog_pick(WlJob *j);
void wl_iolog_free(WlJob *j);

/* workload_core.c: shared by every source */
void wl_stats_init(WlStats *s);
void wl_stats_clear(WlStats *s);
/* s is the workload's only source of completions: its histograms become
 * the overall ones, so that each latency is recorded once (while the
 * overall ones hold nothing yet). */
void wl_stats_share(Workload *w, WlStats *s);
void wl_stats_json(JsonWriter *jw, const WlStats *s, IoOp op, double runtime_s);
Workload *wl_new(char *description, const WlSource *src);

/* workload_query.c: the jobs source's reports */
gboolean wl_jobs_finished(const Workload *w);
double wl_jobs_progress(const Workload *w);
guint wl_jobs_results(const Workload *w);
void wl_jobs_result(const Workload *w, guint i, WorkloadJobResult *out);
void wl_jobs_json(const Workload *w, JsonWriter *jw);

/* workload_fio.c: one option of the job language */
typedef gboolean (*WlOptFn)(WorkloadJobSpec *s, const char *v, GError **error);
typedef struct WlOpt {
    const char *name;
    WlOptFn fn;
    gboolean bare; /* may be given without a value */
} WlOpt;

/* workload_fio_ext.c: the options fio's example jobs need beyond the core */
const WlOpt *wl_fio_ext_find(const char *name);
/* workload_fio_report.c: options that change only what is reported */
const WlOpt *wl_report_find(const char *name);
/* workload_fdp.c: fio's data placement options, a job's check against its
 * target, and the identifier its next write names (*rr: its round-robin
 * position) */
const WlOpt *wl_fdp_find(const char *name);
gboolean wl_fdp_bind(const WorkloadJobSpec *s, const char *job, const WorkloadTarget *t, GError **error);
uint32_t wl_fdp_next(const WorkloadJobSpec *s, const WorkloadTarget *t, uint32_t *rr, SimRng *rng);
void wl_submit_placed(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint64_t tag, uint32_t pid);
/* A zone command's latency (ns), by its ZoneOp. */
void wl_zone_record(Workload *w, uint8_t zop, SimTime latency);
/* workload_zbd.c: fio's zonemode=zbd (zbd.c's rules, on the host's view
 * of the zones, shared by every job as fio shares one per device) */
const WlOpt *wl_zbd_find(const char *name);
/* "8z": a count of zones into *n; FALSE when v is not of that form. */
gboolean wl_zbd_zones_value(const char *v, uint64_t *n);
gboolean wl_zbd_bind(Workload *w, GError **error);      /* before the jobs are bound */
gboolean wl_zbd_job_bind(WlJob *j, GError **error);     /* after its region is placed */
void wl_zbd_free(Workload *w);
/* A sequential write job's next offset past a zone's capacity: jumps to the
 * zone's end (as fio's setup_zbd_zone_mode); true if it did, so pick again. */
bool wl_zbd_skip_gap(WlJob *j, IoOp op, uint64_t off);
enum { WL_ZBD_GO = 0, WL_ZBD_WAIT, WL_ZBD_EOF };
/* j->pick adjusted as fio's zbd_adjust_block does, at the moment it would
 * go: WL_ZBD_GO, WL_ZBD_WAIT (a write or reset on its zone is in flight:
 * j->zparked) or WL_ZBD_EOF (nothing more this job can do). */
int wl_zbd_ready(WlJob *j);
void wl_zbd_submit(WlJob *j, const WlIo *io, uint64_t tag); /* a zone command of the job */
void wl_zbd_issued(WlJob *j, const WlIo *io);              /* any of its I/Os left */
/* io completed; false when the drive failed it (counted). */
bool wl_zbd_done(WlJob *j, WlIo *io);
void wl_zbd_json(const WlJob *j, JsonWriter *jw);
/* zoned:, zoned_abs:, sequence:; FALSE without error when v is none of them. */
gboolean wl_fio_distribution_ext(WorkloadJobSpec *s, const char *v, GError **error);

/* workload_fio_value.c: values (and workload_parse_bytes, workload_parse_time
 * of workload.h) */
gboolean wl_fio_bool(const char *v, gboolean *out, GError **error);
/* "found V, expected WHAT" into error; FALSE */
gboolean wl_bad(GError **error, const char *v, const char *expected);
gboolean wl_fio_u32(const char *text, uint32_t lo, uint32_t hi, uint32_t *out, GError **error);
gboolean wl_fio_double(const char *text, double *out);
void wl_fio_strip_comment(char *line);                   /* " # ..." and " ; ..." */
char *wl_fio_expand_env(const char *line, GError **error); /* ${VAR}; newly allocated */
gboolean wl_fio_is_expr(const char *text);
gboolean wl_fio_eval(const char *text, uint32_t kb_base, uint64_t *out, GError **error);

/* workload_fio.c */
void wl_spec_defaults(WorkloadJobSpec *s);
GArray *wl_fio_parse_spec(const char *spec, GError **error);
GArray *wl_fio_parse_text(const char *text, const char *where, WorkloadStopFn stop,
                          GError **error);
GArray *wl_fio_parse_file(const char *path, WorkloadStopFn stop, GError **error);
const char *wl_rw_name(WorkloadRw rw);

/* workload_named.c: job-file text for a named workload, or NULL. Sets
 * *named FALSE (and no error) when spec is not a named workload. */
char *wl_named_expand(const char *spec, gboolean *named, GError **error);

#endif
