/*
 * workload_priv.h - what the workload files share: the Workload struct, the
 * per-job runtime state, and the entry points of the fio parser, the named
 * workloads and trace replay. Not for use outside sim/workload*.c, replay.c.
 */
#ifndef FTLSIM_WORKLOAD_PRIV_H
#define FTLSIM_WORKLOAD_PRIV_H

#include "sim/host/workload.h"

#include <stdbool.h>

/* Completed I/O counters and latencies of one job (or the replay). */
typedef struct WlStats {
    LatHist *lat[IO_OPS];
    uint64_t ios[IO_OPS];
    uint64_t bytes[IO_OPS];
} WlStats;

/* One I/O, chosen but maybe not yet submitted, or in flight in a slot. */
typedef struct WlIo {
    SimTime submit; /* ns */
    uint64_t offset; /* bytes */
    uint64_t length; /* bytes */
    uint8_t op;      /* IoOp */
    uint8_t then_write; /* trimwrite: write the same range when the trim is done */
} WlIo;

typedef struct WlJob WlJob;       /* workload.c */
typedef struct WlReplay WlReplay; /* replay.c */

struct Workload {
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
    WorkloadLatencyFn lat_sink; /* NULL: none */
    void *lat_sink_ctx;
    uint64_t sub_bytes[IO_OPS];
    uint64_t sub_ios[IO_OPS];
    WlReplay *replay; /* non-NULL for trace replay */
    GError *run_error;
};

/* workload.c: shared by replay */
void wl_stats_init(WlStats *s);
void wl_stats_clear(WlStats *s);
void wl_stats_json(JsonWriter *jw, const WlStats *s, IoOp op, double runtime_s);
void wl_submit(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint64_t tag);
void wl_record(Workload *w, WlStats *s, IoOp op, uint64_t length, SimTime latency);
Workload *wl_new(char *description);

/* workload_fio.c */
void wl_spec_defaults(WorkloadJobSpec *s);
GArray *wl_fio_parse_spec(const char *spec, GError **error);
GArray *wl_fio_parse_text(const char *text, const char *where, GError **error);
GArray *wl_fio_parse_file(const char *path, GError **error);
const char *wl_rw_name(WorkloadRw rw);

/* workload_named.c: job-file text for a named workload, or NULL. Sets
 * *named FALSE (and no error) when spec is not a named workload. */
char *wl_named_expand(const char *spec, gboolean *named, GError **error);

/* replay.c */
WlReplay *wl_replay_new(const char *path, const TraceOptions *topt, const ReplayOptions *ropt,
                        GError **error);
void wl_replay_free(WlReplay *r);
gboolean wl_replay_bind(Workload *w, GError **error);
void wl_replay_start(Workload *w);
void wl_replay_done(Workload *w, uint64_t tag);
gboolean wl_replay_finished(const Workload *w);
double wl_replay_progress(const Workload *w);
void wl_replay_json(const Workload *w, JsonWriter *jw);

#endif
