/*
 * workload_fiostat.c - the figures of fio's JSON that fio counts as I/Os
 * come and go, counted here from the simulated submissions and completions:
 * bandwidth and IOPS samples per averaging window (bwavgtime and
 * iopsavgtime, 500 ms by default) or per I/O, the I/O depth at submission, how many
 * I/Os are submitted and completed at one instant, latencies in fio's
 * coarse buckets, and the drive's counts as /proc/diskstats would show
 * them. Constant work per I/O, nothing allocated; the steps of each
 * submission and completion are inline in workload_priv.h, the windows'
 * closing and opening here.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

enum { FS_BW, FS_IOPS };

#define FS_AVG_DEFAULT (500 * SIM_MS) /* fio's default bwavgtime and iopsavgtime */

void wl_fio_stat_init(WlFioStat *f)
{
    memset(f, 0, sizeof *f);
    f->count_from = SIM_TIME_MAX;
    f->win[FS_BW] = f->win[FS_IOPS] = FS_AVG_DEFAULT;
}

void wl_fio_stat_start(WlFioStat *f, const WorkloadJobSpec *s, SimTime origin)
{
    wl_fio_stat_init(f);
    f->origin = f->count_from = origin;
    f->started = true;
    if (s->bw_avg_ns)
        f->win[FS_BW] = s->bw_avg_ns;
    if (s->iops_avg_ns)
        f->win[FS_IOPS] = s->iops_avg_ns;
    /* fio: a bw or iops log without log_avg_msec takes a sample per I/O
     * into the job's statistics too, in place of the windows */
    if (s->bw_log[0] && !s->log_avg_ns)
        f->win[FS_BW] = 0;
    if (s->iops_log[0] && !s->log_avg_ns)
        f->win[FS_IOPS] = 0;
}

/* fio's add_stat_sample(): Welford's running mean and squared deviations. */
static void fs_sample(WorkloadRateStat *r, uint64_t v)
{
    double val = (double)v, delta;
    if (r->samples == 0 || v < r->min)
        r->min = v;
    if (v > r->max)
        r->max = v;
    delta = val - r->mean;
    if (delta != 0) {
        r->mean += delta / ((double)r->samples + 1.0);
        r->S += delta * (val - r->mean);
    }
    r->samples++;
}

/* The samples of the window ending at f->win_end[k] (a direction that
 * moved nothing in it has none): KiB/s for bandwidth, 1/s for IOPS, in
 * fio's integer arithmetic over the window's milliseconds. */
static void fs_close(WorkloadFioStat *out, const WlFioStat *f, int k)
{
    uint64_t ms = f->win[k] / SIM_MS;
    for (int d = 0; d < WL_DIRS && ms; d++) {
        if (k == FS_BW && f->win_bytes[d])
            fs_sample(&out->bw[d], f->win_bytes[d] * 1000 / ms / 1024);
        if (k == FS_IOPS && f->win_ios[d])
            fs_sample(&out->iops[d], f->win_ios[d] * 1000 / ms);
    }
}

/* wl_fio_depth_bucket's: the top bit of the depth, 0 for 0. */
const uint8_t wl_fio_depth_buckets[64] = {
    [0 ... 1] = 0, [2 ... 3] = 1, [4 ... 7] = 2, [8 ... 15] = 3, [16 ... 31] = 4, [32 ... 63] = 5,
};

/* fio's io_u_mark_latency() (wl_fio_stat_latency): each bucket named by
 * its upper bound, the ranges as fio's: the edges 2, 4, 10, 20, 50, 100,
 * 250, 500, 750, 1000 and 2000, a value's bucket the number of edges at or
 * below it (one look-up, not a search). Below 1000 (ns and us) that is at
 * most 9, the last of their WL_FIO_LAT_N and _U buckets; ms values from
 * 2000 up share the last of WL_FIO_LAT_M. */
const uint8_t wl_fio_lat_bucket[2001] = {
    [0 ... 1] = 0,     [2 ... 3] = 1,     [4 ... 9] = 2,      [10 ... 19] = 3,
    [20 ... 49] = 4,   [50 ... 99] = 5,   [100 ... 249] = 6,  [250 ... 499] = 7,
    [500 ... 749] = 8, [750 ... 999] = 9, [1000 ... 1999] = 10, [2000] = 11,
};
G_STATIC_ASSERT(WL_FIO_LAT_N == 10 && WL_FIO_LAT_U == 10 && WL_FIO_LAT_M == 12);

/* The rest of wl_fio_stat_record() when a window is to be closed or
 * opened, or samples are taken per I/O: out of line, so that the common
 * completion saves fewer registers. */
void wl_fio_stat_windows(WlFioStat *f, SimTime now, IoOp op, uint64_t length, SimTime latency)
{
    WorkloadFioStat *p = &f->pub;
    SimTime rel = now > f->origin ? now - f->origin : 0;
    for (int k = FS_BW; k <= FS_IOPS; k++) {
        if (!f->win[k]) { /* per I/O: fio's bytes x 10^6 / ns, and 1 */
            if (k == FS_BW)
                fs_sample(&p->bw[op], latency ? length * 1000000 / latency : 0);
            else
                fs_sample(&p->iops[op], 1);
            continue;
        }
        /* windows (end - win, end]: a completion at the end is in */
        if (f->win_end[k] && rel > f->win_end[k]) {
            fs_close(p, f, k);
            for (int d = 0; d < WL_DIRS; d++) {
                if (k == FS_BW)
                    f->win_bytes[d] = 0;
                else
                    f->win_ios[d] = 0;
            }
            f->win_end[k] = 0;
        }
        if (!f->win_end[k])
            f->win_end[k] = rel ? (rel - 1) / f->win[k] * f->win[k] + f->win[k] : f->win[k];
    }
    f->open_until = f->win[FS_BW] && f->win[FS_IOPS]
                        ? f->origin + MIN(f->win_end[FS_BW], f->win_end[FS_IOPS]) + 1
                        : 0;
    f->win_bytes[op] += length;
    f->win_ios[op]++;
}

void wl_fio_stat_result(const WlFioStat *f, SimTime end, WorkloadFioStat *out)
{
    *out = f->pub;
    SimTime rel = end > f->origin ? end - f->origin : 0;
    /* the open window counts when it is whole: fio samples on its timer,
     * so the part of a window after the job ended has no sample */
    for (int k = FS_BW; k <= FS_IOPS; k++)
        if (f->win[k] && f->win_end[k] && f->win_end[k] <= rel)
            fs_close(out, f, k);
    if (f->n_submit) {
        out->submit[wl_fio_batch_bucket(f->n_submit)]++;
        out->total_submit++;
    }
    if (f->n_complete) {
        out->complete[wl_fio_batch_bucket(f->n_complete)]++;
        out->total_complete++;
    }
}

/* ---- The drive, as /proc/diskstats counts it ----------------------------- */

void workload_disk_stat(const Workload *w, WorkloadDiskStat *out)
{
    g_return_if_fail(w && out);
    *out = w->disk;
    if (w->disk_inflight && w->e)
        out->busy_ns += sim_now(w->e) - w->disk_busy_since;
}
