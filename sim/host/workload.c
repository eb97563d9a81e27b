/*
 * workload.c - fio-style jobs issuing I/O on the engine (closed loop).
 *
 * Each job keeps up to iodepth commands in flight through preallocated slots;
 * the sum over jobs is capped by the target's queue limit (jobs that find it
 * full wait in a FIFO ring). Jobs run in phases: a stonewalled job starts
 * when every job before it has finished. Nothing here allocates per I/O.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <string.h>

#define WL_STREAM 0x574b4c4400000000ull /* RNG streams of jobs: this | job index */
#define WL_ZIPF_EXACT 1000000           /* zeta(n) summed exactly up to here */

enum { WL_JOB_WAIT = 0, WL_JOB_RUN, WL_JOB_DONE };

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
    uint32_t writes_since_flush;
    uint32_t busy, thinking; /* slots in flight, slots in thinktime */
    WlIo *slots;          /* iodepth */
    uint32_t *free_slots; /* stack of free slot numbers */
    uint32_t nfree;
    SimRng rng;
    uint32_t perm_bits;   /* random map: a keyed bijection on 2^perm_bits values */
    uint64_t perm_i, perm_key[3];
    uint64_t scatter_key[3];
    double zetan, zeta2, eta, alpha, pareto_pow;
    SimTime rate_next[WL_DIRS];
    WlStats st;
};

/* ---- Stats shared with replay ------------------------------------------ */

void wl_stats_init(WlStats *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < IO_OPS; i++)
        s->lat[i] = lat_hist_new();
}

void wl_stats_clear(WlStats *s)
{
    for (int i = 0; i < IO_OPS; i++)
        lat_hist_free(s->lat[i]);
    memset(s, 0, sizeof *s);
}

void wl_stats_json(JsonWriter *jw, const WlStats *s, IoOp op, double runtime_s)
{
    static const char *const keys[] = {"read", "write", "trim", "flush"};
    const LatHist *h = s->lat[op];
    json_begin_object(jw, keys[op]);
    json_u64(jw, "ios", s->ios[op]);
    json_u64(jw, "bytes", s->bytes[op]);
    json_double(jw, "iops", runtime_s > 0 ? (double)s->ios[op] / runtime_s : 0.0);
    json_double(jw, "MBps", runtime_s > 0 ? (double)s->bytes[op] / runtime_s / 1e6 : 0.0);
    json_begin_object(jw, "lat_us");
    json_double(jw, "mean", lat_hist_mean(h) / 1e3);
    static const double pct[] = {50, 90, 99, 99.9, 99.99};
    static const char *const pk[] = {"p50", "p90", "p99", "p99.9", "p99.99"};
    for (unsigned i = 0; i < G_N_ELEMENTS(pct); i++)
        json_double(jw, pk[i], (double)lat_hist_percentile(h, pct[i]) / 1e3);
    json_double(jw, "max", (double)lat_hist_max(h) / 1e3);
    json_end_object(jw);
    json_end_object(jw);
}

void wl_submit(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint64_t tag)
{
    w->sub_bytes[op] += length;
    w->sub_ios[op]++;
    w->t.submit(w->t.ctx, op, offset, length, tag);
}

void wl_record(Workload *w, WlStats *s, IoOp op, uint64_t length, SimTime latency)
{
    s->ios[op]++;
    s->bytes[op] += length;
    lat_hist_record(s->lat[op], latency);
    lat_hist_record(w->overall[op], latency);
    if (w->lat_sink)
        w->lat_sink(w->lat_sink_ctx, op, latency);
}

Workload *wl_new(char *description)
{
    Workload *w = g_new0(Workload, 1);
    w->description = description;
    for (int i = 0; i < IO_OPS; i++)
        w->overall[i] = lat_hist_new();
    return w;
}

/* ---- Offsets ------------------------------------------------------------ */

/* A keyed bijection on [0, 2^bits): multiply-xorshift rounds. */
static uint64_t wl_mix(uint64_t x, uint32_t bits, const uint64_t key[3])
{
    if (bits == 0)
        return 0;
    uint64_t m = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    unsigned h = (bits + 1) / 2;
    x = (x ^ key[0]) & m;
    x = (x * (key[1] | 1)) & m;
    x ^= x >> h;
    x = (x * (key[2] | 1)) & m;
    x ^= x >> h;
    return x;
}

static uint32_t wl_bits_for(uint64_t n)
{
    uint32_t b = 0;
    while (b < 64 && (1ull << b) < n)
        b++;
    return b;
}

/* A bijection on [0, n) by cycle walking, to scatter ranks of skewed
 * distributions over the region as fio's hash does. */
static uint64_t wl_scatter(const WlJob *j, uint64_t x)
{
    uint32_t bits = wl_bits_for(j->nblocks);
    do
        x = wl_mix(x, bits, j->scatter_key);
    while (x >= j->nblocks);
    return x;
}

/* Random map: walk a fresh keyed permutation of 2^bits values per pass and
 * skip those >= nblocks, so each block comes once per pass. */
static uint64_t wl_map_next(WlJob *j)
{
    uint64_t x;
    do {
        if (j->perm_i >> j->perm_bits) {
            j->perm_i = 0;
            for (int k = 0; k < 3; k++)
                j->perm_key[k] = sim_rng_next(&j->rng);
        }
        x = wl_mix(j->perm_i++, j->perm_bits, j->perm_key);
    } while (x >= j->nblocks);
    return x;
}

/* fio's zipf (Gray et al.): rank 0 is the most popular. */
static uint64_t wl_zipf_next(WlJob *j)
{
    double theta = j->spec->dist_param, u = sim_rng_double(&j->rng);
    double uz = u * j->zetan;
    if (uz < 1.0)
        return 0;
    if (uz < 1.0 + pow(0.5, theta))
        return 1;
    double v = (double)j->nblocks * pow(j->eta * u - j->eta + 1.0, j->alpha);
    return v >= (double)j->nblocks ? j->nblocks - 1 : (uint64_t)v;
}

static uint64_t wl_normal_next(WlJob *j)
{
    double n = (double)j->nblocks, sd = j->spec->dist_param / 100.0 * n;
    for (int tries = 0; tries < 64; tries++) {
        double u1 = sim_rng_double(&j->rng), u2 = sim_rng_double(&j->rng);
        double z = sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * G_PI * u2);
        double v = n / 2.0 + z * sd;
        if (v >= 0 && v < n)
            return (uint64_t)v;
    }
    return j->nblocks / 2;
}

static uint64_t wl_random_block(WlJob *j)
{
    switch (j->spec->dist) {
    case WL_DIST_ZIPF:
        return wl_scatter(j, wl_zipf_next(j));
    case WL_DIST_PARETO: {
        double v = (double)(j->nblocks - 1) * pow(sim_rng_double(&j->rng), j->pareto_pow);
        return wl_scatter(j, (uint64_t)v);
    }
    case WL_DIST_NORMAL:
        return wl_normal_next(j);
    default:
        return j->spec->norandommap ? sim_rng_below(&j->rng, j->nblocks) : wl_map_next(j);
    }
}

static bool wl_rw_random(WorkloadRw rw)
{
    return rw == WL_RW_RANDREAD || rw == WL_RW_RANDWRITE || rw == WL_RW_RANDRW ||
           rw == WL_RW_RANDTRIM;
}

static uint64_t wl_offset(WlJob *j, uint64_t len)
{
    if (!wl_rw_random(j->spec->rw)) {
        if (j->seq_pos + len > j->size)
            j->seq_pos = 0;
        uint64_t off = j->start + j->seq_pos;
        j->seq_pos += len;
        return off;
    }
    uint64_t rel = wl_random_block(j) * j->unit;
    if (rel + len > j->size)
        rel = (j->size - len) / j->unit * j->unit;
    return j->start + rel;
}

/* ---- Choosing the next I/O ---------------------------------------------- */

static IoOp wl_pick_op(WlJob *j)
{
    switch (j->spec->rw) {
    case WL_RW_READ:
    case WL_RW_RANDREAD:
        return IO_READ;
    case WL_RW_WRITE:
    case WL_RW_RANDWRITE:
        return IO_WRITE;
    case WL_RW_RW:
    case WL_RW_RANDRW:
        return sim_rng_below(&j->rng, 100) < j->spec->rwmixread ? IO_READ : IO_WRITE;
    default:
        return IO_TRIM;
    }
}

static uint64_t wl_pick_len(WlJob *j, IoOp op)
{
    const WorkloadJobSpec *s = j->spec;
    if (s->n_bssplit) {
        uint64_t r = sim_rng_below(&j->rng, 100), acc = 0;
        for (uint32_t i = 0; i < s->n_bssplit; i++) {
            acc += s->bssplit[i].pct;
            if (r < acc)
                return s->bssplit[i].bs;
        }
        return s->bssplit[s->n_bssplit - 1].bs;
    }
    if (s->bs_min[op])
        return s->bs_min[op] * (1 + sim_rng_below(&j->rng, s->bs_max[op] / s->bs_min[op]));
    return s->bs[op];
}

/* Choose the next I/O into j->pick; false when the job has done its amount. */
static bool wl_pick(WlJob *j)
{
    WlIo *p = &j->pick;
    if (!j->flush_due && j->issued >= j->limit)
        return false;
    memset(p, 0, sizeof *p);
    if (j->flush_due) {
        j->flush_due = false;
        p->op = IO_FLUSH;
        j->have_pick = true;
        return true;
    }
    IoOp op = wl_pick_op(j);
    p->op = (uint8_t)op;
    p->length = wl_pick_len(j, op);
    p->offset = wl_offset(j, p->length);
    p->then_write = j->spec->rw == WL_RW_TRIMWRITE;
    j->issued += p->length;
    if (op == IO_WRITE && j->spec->fsync && ++j->writes_since_flush >= j->spec->fsync) {
        j->writes_since_flush = 0;
        j->flush_due = true;
    }
    j->have_pick = true;
    return true;
}

/* ---- Running jobs ------------------------------------------------------- */

static void wl_job_fill(WlJob *j);
static void wl_start_phase(Workload *w);

static void wl_job_maybe_finish(WlJob *j)
{
    Workload *w = j->w;
    if (j->state != WL_JOB_RUN || !j->stopping || j->busy || j->thinking)
        return;
    j->state = WL_JOB_DONE;
    j->t_finish = sim_now(w->e);
    if (--w->phase_left == 0) {
        w->cur_phase++;
        wl_start_phase(w);
    }
}

static void ev_wake(void *ctx, uint64_t arg)
{
    WlJob *j = &((Workload *)ctx)->jobs[arg];
    j->wake_pending = false;
    wl_job_fill(j);
}

static void ev_think(void *ctx, uint64_t arg)
{
    WlJob *j = &((Workload *)ctx)->jobs[arg];
    j->thinking--;
    wl_job_fill(j);
    wl_job_maybe_finish(j);
}

static void ev_end(void *ctx, uint64_t arg)
{
    WlJob *j = &((Workload *)ctx)->jobs[arg];
    j->stopping = true;
    wl_job_maybe_finish(j);
}

/* Earliest time the rate caps allow an I/O of op; charges it when now. */
static SimTime wl_rate_gate(WlJob *j, const WlIo *p, bool charge)
{
    if (p->op >= WL_DIRS)
        return 0;
    const WorkloadJobSpec *s = j->spec;
    SimTime now = sim_now(j->w->e), next = j->rate_next[p->op];
    if (!charge || (!s->rate[p->op] && !s->rate_iops[p->op]))
        return next;
    double gap = 0;
    if (s->rate[p->op])
        gap = (double)p->length * 1e9 / (double)s->rate[p->op];
    if (s->rate_iops[p->op])
        gap = MAX(gap, 1e9 / (double)s->rate_iops[p->op]);
    j->rate_next[p->op] = MAX(next, now) + (SimTime)(gap + 0.5);
    return next;
}

static void wl_job_submit(WlJob *j)
{
    Workload *w = j->w;
    uint32_t slot = j->free_slots[--j->nfree];
    WlIo *io = &j->slots[slot];
    *io = j->pick;
    io->submit = sim_now(w->e);
    j->have_pick = false;
    j->busy++;
    w->outstanding++;
    wl_rate_gate(j, io, true);
    wl_submit(w, io->op, io->offset, io->length, (uint64_t)j->index << 32 | slot);
}

/* Submit while the job has free slots, amount left, rate allowance and the
 * target has room. */
static void wl_job_fill(WlJob *j)
{
    Workload *w = j->w;
    SimTime now = sim_now(w->e);
    while (j->state == WL_JOB_RUN && !j->stopping && j->busy + j->thinking < j->spec->iodepth) {
        if (now >= j->t_end) {
            j->stopping = true;
            break;
        }
        if (!j->have_pick && !wl_pick(j)) {
            j->stopping = true;
            break;
        }
        SimTime at = wl_rate_gate(j, &j->pick, false);
        if (at > now) {
            if (!j->wake_pending)
                sim_schedule(w->e, at, ev_wake, w, j->index);
            j->wake_pending = true;
            break;
        }
        if (w->outstanding >= w->t.queue_limit) {
            if (!j->queued) {
                w->wait_ring[(w->wait_head + w->wait_len++) % w->njobs] = j->index;
                j->queued = true;
            }
            break;
        }
        wl_job_submit(j);
    }
    wl_job_maybe_finish(j);
}

static void ev_job_start(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlJob *j = &w->jobs[arg];
    const WorkloadJobSpec *s = j->spec;
    SimTime now = sim_now(w->e);
    j->state = WL_JOB_RUN;
    j->t_start = now;
    j->t_ramp_end = now + s->ramp_ns;
    j->t_end = s->runtime_ns ? now + s->ramp_ns + s->runtime_ns : SIM_TIME_MAX;
    if (s->idle) {
        /* Nothing to submit: the job is done when its one "think" ends. */
        j->stopping = true;
        j->thinking = 1;
        sim_schedule(w->e, j->t_end, ev_think, w, j->index);
        return;
    }
    if (j->t_end != SIM_TIME_MAX)
        sim_schedule(w->e, j->t_end, ev_end, w, j->index);
    wl_job_fill(j);
}

static void wl_start_phase(Workload *w)
{
    if (w->cur_phase >= w->nphases)
        return;
    SimTime now = sim_now(w->e);
    w->phase_left = 0;
    for (uint32_t i = 0; i < w->njobs; i++) {
        if (w->jobs[i].phase != w->cur_phase)
            continue;
        w->phase_left++;
        sim_schedule(w->e, now + w->jobs[i].spec->startdelay_ns, ev_job_start, w, i);
    }
}

/* Hand freed queue slots to jobs waiting for them, in arrival order. */
static void wl_kick(Workload *w)
{
    while (w->wait_len && w->outstanding < w->t.queue_limit) {
        WlJob *j = &w->jobs[w->wait_ring[w->wait_head]];
        w->wait_head = (w->wait_head + 1) % w->njobs;
        w->wait_len--;
        j->queued = false;
        wl_job_fill(j);
    }
}

static void wl_job_done(Workload *w, WlJob *j, uint32_t slot)
{
    WlIo *io = &j->slots[slot];
    SimTime now = sim_now(w->e);
    if (now >= j->t_ramp_end)
        wl_record(w, &j->st, io->op, io->length, now - io->submit);
    if (io->then_write) {
        io->op = IO_WRITE;
        io->then_write = 0;
        io->submit = now;
        wl_submit(w, IO_WRITE, io->offset, io->length, (uint64_t)j->index << 32 | slot);
        return;
    }
    j->free_slots[j->nfree++] = slot;
    j->busy--;
    w->outstanding--;
    wl_kick(w);
    if (j->spec->thinktime_ns && !j->stopping) {
        j->thinking++;
        sim_schedule_in(w->e, j->spec->thinktime_ns, ev_think, w, j->index);
    } else {
        wl_job_fill(j);
    }
    wl_job_maybe_finish(j);
}

void workload_io_done(Workload *w, uint64_t tag)
{
    g_return_if_fail(w && w->started);
    if (w->replay) {
        wl_replay_done(w, tag);
        return;
    }
    uint32_t ji = (uint32_t)(tag >> 32), slot = (uint32_t)tag;
    g_return_if_fail(ji < w->njobs && slot < w->jobs[ji].spec->iodepth);
    wl_job_done(w, &w->jobs[ji], slot);
}

void workload_start(Workload *w)
{
    g_return_if_fail(w && w->bound && !w->started);
    w->started = true;
    if (w->replay)
        wl_replay_start(w);
    else
        wl_start_phase(w);
}

/* ---- Binding ------------------------------------------------------------ */

/* Directions a job uses, as a bit mask of IoOp. */
static unsigned wl_dirs_used(WorkloadRw rw)
{
    switch (rw) {
    case WL_RW_READ:
    case WL_RW_RANDREAD:
        return 1u << IO_READ;
    case WL_RW_WRITE:
    case WL_RW_RANDWRITE:
        return 1u << IO_WRITE;
    case WL_RW_RW:
    case WL_RW_RANDRW:
        return 1u << IO_READ | 1u << IO_WRITE;
    case WL_RW_TRIMWRITE:
        return 1u << IO_TRIM | 1u << IO_WRITE;
    default:
        return 1u << IO_TRIM;
    }
}

/* Smallest and largest block size the job may issue. */
static void wl_bs_bounds(const WorkloadJobSpec *s, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    if (s->n_bssplit) {
        for (uint32_t i = 0; i < s->n_bssplit; i++) {
            *lo = MIN(*lo, s->bssplit[i].bs);
            *hi = MAX(*hi, s->bssplit[i].bs);
        }
        return;
    }
    unsigned used = wl_dirs_used(s->rw);
    for (int d = 0; d < WL_DIRS; d++) {
        if (!(used & (1u << d)))
            continue;
        *lo = MIN(*lo, s->bs_min[d] ? s->bs_min[d] : s->bs[d]);
        *hi = MAX(*hi, s->bs_min[d] ? s->bs_max[d] / s->bs_min[d] * s->bs_min[d] : s->bs[d]);
    }
}

static gboolean wl_job_region(WlJob *j, uint64_t cap, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t hi;
    wl_bs_bounds(s, &j->unit, &hi);
    j->start = s->offset_pct > 0 ? (uint64_t)((double)cap * s->offset_pct / 100.0) : s->offset;
    j->start = j->start / j->unit * j->unit;
    if (s->size_pct > 0)
        j->size = (uint64_t)((double)cap * s->size_pct / 100.0);
    else
        j->size = s->size ? s->size : (cap > j->start ? cap - j->start : 0);
    if (j->size < hi) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"bs\": block size %" G_GUINT64_FORMAT
                    " is larger than the job's region of %" G_GUINT64_FORMAT " bytes",
                    j->name, hi, j->size);
        return FALSE;
    }
    j->size = j->size / j->unit * j->unit;
    if (j->start >= cap || j->size > cap - j->start) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"size\": offset %" G_GUINT64_FORMAT " + size %"
                    G_GUINT64_FORMAT " ends beyond the drive capacity of %" G_GUINT64_FORMAT
                    " bytes", j->name, j->start, j->size, cap);
        return FALSE;
    }
    j->nblocks = j->size / j->unit;
    return TRUE;
}

/* Constants of the skewed distributions over nblocks ranks. */
static void wl_job_dist(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    double n = (double)j->nblocks, th = s->dist_param;
    if (s->dist == WL_DIST_PARETO)
        j->pareto_pow = log(th) / log(1.0 - th);
    if (s->dist != WL_DIST_ZIPF)
        return;
    uint64_t exact = MIN(j->nblocks, (uint64_t)WL_ZIPF_EXACT);
    double z = 0;
    for (uint64_t i = 1; i <= exact; i++)
        z += pow((double)i, -th);
    if (j->nblocks > exact) /* the tail by its integral */
        z += (pow(n + 0.5, 1 - th) - pow((double)exact + 0.5, 1 - th)) / (1 - th);
    j->zetan = z;
    j->zeta2 = 1.0 + pow(0.5, th);
    j->alpha = 1.0 / (1.0 - th);
    j->eta = (1.0 - pow(2.0 / n, 1.0 - th)) / (1.0 - j->zeta2 / z);
}

static gboolean wl_job_bind(Workload *w, WlJob *j, uint64_t seed, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    j->w = w;
    j->t_end = SIM_TIME_MAX;
    wl_stats_init(&j->st);
    if (s->idle)
        return TRUE;
    if (s->time_based && !s->runtime_ns) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"time_based\": found no runtime, expected "
                    "runtime=DURATION as well", j->name);
        return FALSE;
    }
    if (!wl_job_region(j, w->t.capacity, error))
        return FALSE;
    if (s->time_based)
        j->limit = UINT64_MAX;
    else
        j->limit = s->io_size ? s->io_size : j->size * s->loops;
    j->slots = g_new0(WlIo, s->iodepth);
    j->free_slots = g_new(uint32_t, s->iodepth);
    for (uint32_t i = 0; i < s->iodepth; i++)
        j->free_slots[i] = s->iodepth - 1 - i;
    j->nfree = s->iodepth;
    sim_rng_init(&j->rng, s->has_randseed ? s->randseed : seed, WL_STREAM | j->index);
    j->perm_bits = wl_bits_for(j->nblocks);
    j->perm_i = 1ull << MIN(j->perm_bits, 63); /* fresh keys on the first draw */
    for (int k = 0; k < 3; k++)
        j->scatter_key[k] = sim_rng_next(&j->rng);
    wl_job_dist(j);
    return TRUE;
}

static void wl_jobs_free(Workload *w)
{
    for (uint32_t i = 0; w->jobs && i < w->njobs; i++) {
        g_free(w->jobs[i].slots);
        g_free(w->jobs[i].free_slots);
        wl_stats_clear(&w->jobs[i].st);
    }
    g_clear_pointer(&w->jobs, g_free);
    g_clear_pointer(&w->wait_ring, g_free);
    w->njobs = 0;
}

/* Expand numjobs clones and number the phases. */
static void wl_jobs_make(Workload *w)
{
    guint n = 0;
    for (guint i = 0; i < w->specs->len; i++)
        n += g_array_index(w->specs, WorkloadJobSpec, i).numjobs;
    w->jobs = g_new0(WlJob, n);
    w->wait_ring = g_new0(uint32_t, n);
    w->njobs = n;
    uint32_t k = 0, phase = 0;
    for (guint i = 0; i < w->specs->len; i++) {
        const WorkloadJobSpec *s = &g_array_index(w->specs, WorkloadJobSpec, i);
        const WorkloadJobSpec *prev = i ? s - 1 : NULL;
        if (prev && (s->stonewall || s->idle || prev->idle))
            phase++;
        for (uint32_t c = 0; c < s->numjobs; c++, k++) {
            WlJob *j = &w->jobs[k];
            j->spec = s;
            j->index = k;
            j->phase = phase;
            if (s->numjobs > 1)
                g_snprintf(j->name, sizeof j->name, "%s.%u", s->name, c);
            else
                g_strlcpy(j->name, s->name, sizeof j->name);
        }
    }
    w->nphases = phase + 1;
}

gboolean workload_bind(Workload *w, SimEngine *e, const WorkloadTarget *t, uint64_t seed,
                       GError **error)
{
    g_return_val_if_fail(w && e && t && t->submit && !w->started, FALSE);
    w->e = e;
    w->t = *t;
    if (w->t.queue_limit == 0)
        w->t.queue_limit = 1;
    if (w->replay) {
        w->bound = wl_replay_bind(w, error);
        return w->bound;
    }
    wl_jobs_free(w);
    wl_jobs_make(w);
    for (uint32_t i = 0; i < w->njobs; i++) {
        if (!wl_job_bind(w, &w->jobs[i], seed, error)) {
            wl_jobs_free(w);
            return FALSE;
        }
    }
    w->bound = true;
    return TRUE;
}

/* ---- Queries ------------------------------------------------------------ */

gboolean workload_finished(const Workload *w)
{
    g_return_val_if_fail(w != NULL, TRUE);
    if (w->replay)
        return w->started && wl_replay_finished(w);
    return w->started && w->cur_phase >= w->nphases && w->outstanding == 0;
}

gboolean workload_error(const Workload *w, GError **error)
{
    g_return_val_if_fail(w != NULL, FALSE);
    if (!w->run_error)
        return FALSE;
    g_propagate_error(error, g_error_copy(w->run_error));
    return TRUE;
}

static double wl_job_progress(const WlJob *j, SimTime now)
{
    if (j->state == WL_JOB_DONE)
        return 1.0;
    if (j->state == WL_JOB_WAIT)
        return 0.0;
    double f = 0;
    if (j->t_end != SIM_TIME_MAX && j->t_end > j->t_start)
        f = (double)(now - j->t_start) / (double)(j->t_end - j->t_start);
    if (j->limit != UINT64_MAX && j->limit)
        f = MAX(f, (double)j->issued / (double)j->limit);
    return MIN(f, 1.0);
}

double workload_progress(const Workload *w)
{
    g_return_val_if_fail(w != NULL, 0.0);
    if (!w->bound || !w->started)
        return 0.0;
    if (w->replay)
        return wl_replay_progress(w);
    if (w->njobs == 0)
        return 1.0;
    double sum = 0;
    for (uint32_t i = 0; i < w->njobs; i++)
        sum += wl_job_progress(&w->jobs[i], sim_now(w->e));
    return sum / w->njobs;
}

const char *workload_description(const Workload *w)
{
    g_return_val_if_fail(w != NULL, NULL);
    return w->description;
}

const LatHist *workload_latency(const Workload *w, IoOp op)
{
    g_return_val_if_fail(w && (unsigned)op < IO_OPS, NULL);
    return w->overall[op];
}

void workload_set_latency_sink(Workload *w, WorkloadLatencyFn fn, void *ctx)
{
    g_return_if_fail(w != NULL);
    w->lat_sink = fn;
    w->lat_sink_ctx = ctx;
}

uint64_t workload_submitted_bytes(const Workload *w, IoOp op)
{
    g_return_val_if_fail(w && (unsigned)op < IO_OPS, 0);
    return w->sub_bytes[op];
}

uint64_t workload_submitted_ios(const Workload *w, IoOp op)
{
    g_return_val_if_fail(w && (unsigned)op < IO_OPS, 0);
    return w->sub_ios[op];
}

guint workload_job_count(const Workload *w)
{
    g_return_val_if_fail(w != NULL, 0);
    return w->specs ? w->specs->len : 0;
}

const WorkloadJobSpec *workload_job_spec(const Workload *w, guint i)
{
    g_return_val_if_fail(w && w->specs && i < w->specs->len, NULL);
    return &g_array_index(w->specs, WorkloadJobSpec, i);
}

static void wl_job_json(const WlJob *j, JsonWriter *jw, SimTime now)
{
    const WorkloadJobSpec *s = j->spec;
    SimTime from = MAX(j->t_start, j->t_ramp_end);
    SimTime to = j->state == WL_JOB_DONE ? j->t_finish : now;
    double rt = j->state != WL_JOB_WAIT && to > from ? (double)(to - from) / 1e9 : 0.0;
    json_begin_object(jw, NULL);
    json_str(jw, "name", j->name);
    json_str(jw, "rw", s->idle ? "idle" : wl_rw_name(s->rw));
    if (!s->idle) {
        json_u64(jw, "bs", s->bs[s->rw == WL_RW_READ || s->rw == WL_RW_RANDREAD ? IO_READ
                               : s->rw == WL_RW_TRIM || s->rw == WL_RW_RANDTRIM ? IO_TRIM
                                                                                 : IO_WRITE]);
        json_u64(jw, "iodepth", s->iodepth);
        json_u64(jw, "offset", j->start);
        json_u64(jw, "size", j->size);
        for (int op = 0; op < WL_DIRS; op++)
            wl_stats_json(jw, &j->st, (IoOp)op, rt);
    }
    json_double(jw, "runtime_s", rt);
    json_end_object(jw);
}

void workload_write_jobs_json(const Workload *w, JsonWriter *jw)
{
    g_return_if_fail(w && jw);
    json_begin_array(jw, "jobs");
    if (w->replay)
        wl_replay_json(w, jw);
    for (uint32_t i = 0; !w->replay && i < w->njobs; i++)
        wl_job_json(&w->jobs[i], jw, w->e ? sim_now(w->e) : 0);
    json_end_array(jw);
}

/* ---- Construction ------------------------------------------------------- */

/* Compact fio-style size: 4k, 1m, 3g when exact, else bytes. */
static void wl_fmt_bytes(GString *g, const char *key, uint64_t v)
{
    static const char units[] = "kmgtp";
    int u = -1;
    while (v && v % 1024 == 0 && u < 4) {
        v /= 1024;
        u++;
    }
    g_string_append_printf(g, ",%s=%" G_GUINT64_FORMAT, key, v);
    if (u >= 0)
        g_string_append_c(g, units[u]);
}

/* The normalized text of one job: its main options, defaults left out. */
static void wl_describe_job(GString *g, const WorkloadJobSpec *s)
{
    if (s->idle) {
        g_string_append_printf(g, "idle=%gs", (double)s->runtime_ns / 1e9);
        return;
    }
    g_string_append_printf(g, "name=%s,rw=%s", s->name, wl_rw_name(s->rw));
    unsigned used = wl_dirs_used(s->rw);
    int d0 = used & 1u << IO_READ ? IO_READ : used & 1u << IO_WRITE ? IO_WRITE : IO_TRIM;
    if (s->n_bssplit)
        g_string_append(g, ",bssplit");
    else
        wl_fmt_bytes(g, "bs", s->bs[d0]);
    g_string_append_printf(g, ",iodepth=%u", s->iodepth);
    if (s->numjobs > 1)
        g_string_append_printf(g, ",numjobs=%u", s->numjobs);
    if (s->size_pct > 0)
        g_string_append_printf(g, ",size=%g%%", s->size_pct);
    else if (s->size)
        wl_fmt_bytes(g, "size", s->size);
    if (s->offset_pct > 0)
        g_string_append_printf(g, ",offset=%g%%", s->offset_pct);
    else if (s->offset)
        wl_fmt_bytes(g, "offset", s->offset);
    if (s->io_size)
        wl_fmt_bytes(g, "io_size", s->io_size);
    if (s->runtime_ns)
        g_string_append_printf(g, ",runtime=%gs%s", (double)s->runtime_ns / 1e9,
                               s->time_based ? ",time_based" : "");
}

static char *wl_describe(GArray *specs)
{
    GString *g = g_string_new(NULL);
    for (guint i = 0; i < specs->len; i++) {
        const WorkloadJobSpec *s = &g_array_index(specs, WorkloadJobSpec, i);
        if (i)
            g_string_append(g, s->stonewall || s->idle || s[-1].idle ? ";" : "&");
        wl_describe_job(g, s);
    }
    return g_string_free(g, FALSE);
}

static Workload *wl_from_specs(GArray *specs, char *description)
{
    if (!specs) {
        g_free(description);
        return NULL;
    }
    Workload *w = wl_new(description ? description : wl_describe(specs));
    w->specs = specs;
    return w;
}

Workload *workload_from_spec(const char *spec, GError **error)
{
    g_return_val_if_fail(spec != NULL, NULL);
    gboolean named = FALSE;
    g_autofree char *text = wl_named_expand(spec, &named, error);
    if (named && !text)
        return NULL;
    if (named) {
        g_autofree char *where = g_strdup_printf("workload \"%s\"", spec);
        return wl_from_specs(wl_fio_parse_text(text, where, error), g_strstrip(g_strdup(spec)));
    }
    return wl_from_specs(wl_fio_parse_spec(spec, error), NULL);
}

Workload *workload_from_jobfile(const char *path, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    return wl_from_specs(wl_fio_parse_file(path, error), NULL);
}

Workload *workload_from_trace(const char *path, const TraceOptions *topt, const ReplayOptions *ropt,
                              GError **error)
{
    g_return_val_if_fail(path && ropt, NULL);
    WlReplay *r = wl_replay_new(path, topt, ropt, error);
    if (!r)
        return NULL;
    Workload *w = wl_new(g_strdup_printf("trace:%s,mode=%s", path,
                                         ropt->mode == REPLAY_OPEN ? "open" : "closed"));
    w->replay = r;
    return w;
}

void workload_free(Workload *w)
{
    if (!w)
        return;
    wl_jobs_free(w);
    wl_replay_free(w->replay);
    if (w->specs)
        g_array_unref(w->specs);
    for (int i = 0; i < IO_OPS; i++)
        lat_hist_free(w->overall[i]);
    g_clear_error(&w->run_error);
    g_free(w->description);
    g_free(w);
}
