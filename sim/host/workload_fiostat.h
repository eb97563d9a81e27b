/*
 * workload_fiostat.h - fio's per-job counts at each submission and
 * completion, inline for the sources' per-I/O paths (the rest is
 * workload_fiostat.c's). Part of workload_priv.h, which includes it after
 * the types it uses; not to be included on its own.
 */
#ifndef FTLSIM_WORKLOAD_FIOSTAT_H
#define FTLSIM_WORKLOAD_FIOSTAT_H

/* fio's io_u_mark_submit() and _complete(): 0, 1-4, 5-8, ... 33-64, more.
 * Above 4, bucket b holds (2^b, 2^(b+1)]: b is the top bit of n - 1. */
static inline unsigned wl_fio_batch_bucket(uint32_t n)
{
    if (n <= 4)
        return n != 0;
    return MIN(6u, 31u - (unsigned)__builtin_clz(n - 1));
}

/* fio's io_u_mark_depth(): 1, 2-3, 4-7, ... 32-63, 64 and more: the top
 * bit of depth (0 for 0), looked up below 64 (workload_fiostat.c). */
extern const uint8_t wl_fio_depth_buckets[64];

static inline unsigned wl_fio_depth_bucket(uint32_t depth)
{
    return depth < 64 ? wl_fio_depth_buckets[depth] : 6;
}

/* An I/O submitted at now with depth in flight (itself included). */
static inline void wl_fio_stat_submit(WlFioStat *f, SimTime now, uint32_t depth, IoOp op)
{
    if (G_UNLIKELY(now < f->count_from)) {
        if (f->started)
            return; /* before the origin (ramp_time) */
        f->origin = f->count_from = now; /* a replay: measured from its first I/O */
        f->started = true;
    }
    if (op >= WL_DIRS)
        return;
    f->pub.depth[wl_fio_depth_bucket(depth)]++;
    if (f->n_submit && now == f->last_submit) {
        f->n_submit++;
        return;
    }
    if (f->n_submit) {
        f->pub.submit[wl_fio_batch_bucket(f->n_submit)]++;
        f->pub.total_submit++;
    }
    f->last_submit = now;
    f->n_submit = 1;
}

/* fio's io_u_mark_latency(): below 1 us by ns, below 1 ms by us, then by
 * ms, each bucket the number of fio's edges at or below the value (the
 * table in workload_fiostat.c). */
extern const uint8_t wl_fio_lat_bucket[2001];

static inline void wl_fio_stat_latency(WorkloadFioStat *p, SimTime ns)
{
    if (ns < 1000)
        p->lat_n[wl_fio_lat_bucket[ns]]++;
    else if (ns < 1000000)
        p->lat_u[wl_fio_lat_bucket[ns / 1000]]++;
    else
        p->lat_m[wl_fio_lat_bucket[MIN(ns / 1000000, 2000)]]++;
}

/* A completion of op at now, of length bytes after latency ns: its
 * latency bucket, the instants' batch and the open windows' counts. */
static inline void wl_fio_stat_record(WlFioStat *f, SimTime now, IoOp op, uint64_t length,
                                      SimTime latency)
{
    WorkloadFioStat *p = &f->pub;
    if (op >= WL_DIRS)
        return; /* FLUSH: fio's sync figures, kept with the latencies */
    wl_fio_stat_latency(p, latency);
    if (f->n_complete && now == f->last_complete) {
        f->n_complete++;
    } else {
        if (f->n_complete) {
            p->complete[wl_fio_batch_bucket(f->n_complete)]++;
            p->total_complete++;
        }
        f->last_complete = now;
        f->n_complete = 1;
    }
    if (G_UNLIKELY(now >= f->open_until)) {
        wl_fio_stat_windows(f, now, op, length, latency);
        return;
    }
    /* both windows open and now within them: nothing to close */
    f->win_bytes[op] += length;
    f->win_ios[op]++;
}

#endif
