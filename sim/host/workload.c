/*
 * workload.c - fio-style jobs issuing I/O on the engine (closed loop).
 *
 * Each job keeps up to iodepth commands in flight through preallocated slots;
 * the sum over jobs is capped by the target's queue limit (jobs that find it
 * full wait in a FIFO ring). Jobs run in phases: a stonewalled job starts
 * when every job before it has finished; a wait_for job when the job it
 * names has; an exitall job's end stops its phase. Flows, verify read-back,
 * steady state and logs hook in here (workload_verify.c, workload_ss.c,
 * workload_log.c). A plain job, one that uses none of these, runs its
 * I/Os through a short path chosen at its start (wl_fill_fast and its
 * kin). Nothing here allocates per I/O.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <signal.h>
#include <string.h>

#define WL_STREAM 0x574b4c4400000000ull /* RNG streams of jobs: this | job index */
#define WL_FIO_DEF_SEED 0x89ull          /* fio's randseed default */

/* ---- Choosing the next I/O ---------------------------------------------- */

/* fio's rate_ddir: a mixed job whose direction is ahead of its rate goes
 * on with the other one if that one is behind its own (or has none), else
 * with whichever may go first; the choice becomes the job's current
 * direction. So rate_iops=2000,1000 gives each direction its own rate
 * instead of holding both to the one that waits. */
static IoOp wl_rate_dir(WlJob *j, IoOp d)
{
    const WorkloadJobSpec *s = j->spec;
    IoOp o = d == IO_READ ? IO_WRITE : IO_READ;
    SimTime now = sim_now(j->w->e);
    uint32_t other_share = o == IO_READ ? s->rwmixread : 100 - s->rwmixread;
    if (j->rate_next[d] <= now || !other_share)
        return d;
    if (j->rate_next[o] <= now || j->rate_next[o] < j->rate_next[d])
        d = o;
    j->rwmix_dir = (uint8_t)d;
    return d;
}

/* fio's get_rw_ddir: a mixed job keeps a direction for a number of I/Os set
 * when it switches (that direction's share of the I/Os issued in the other
 * one), and draws again once it has issued them. The direction, before
 * rate caps: j->rwmix_dir. */
static inline void wl_mix_dir(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    if (j->dir_issues[j->rwmix_dir] >= j->rwmix_issues) {
        uint8_t d = wl_frand_pct(&j->fr_mix) <= s->rwmixread ? IO_READ : IO_WRITE;
        if (d != j->rwmix_dir) {
            uint32_t share = d == IO_READ ? s->rwmixread : 100 - s->rwmixread;
            j->rwmix_issues = j->dir_issues[j->rwmix_dir] * share / 100;
        }
        j->rwmix_dir = d;
    }
}

/* The direction of the job's next I/O: its one direction, or the mix's
 * (wl_mix_dir) as the rate caps allow. */
static IoOp wl_pick_op(WlJob *j)
{
    if (j->fixed_op != WL_OP_MIXED)
        return (IoOp)j->fixed_op;
    wl_mix_dir(j);
    /* without caps every direction may go now: wl_rate_dir keeps d */
    return j->rated ? wl_rate_dir(j, (IoOp)j->rwmix_dir) : (IoOp)j->rwmix_dir;
}

/* The IoOp of every I/O of a job of one direction; WL_OP_MIXED for rw
 * and randrw, which wl_pick_op draws. */
static uint8_t wl_fixed_op(WorkloadRw rw)
{
    switch (rw) {
    case WL_RW_READ:
    case WL_RW_RANDREAD:
        return IO_READ;
    case WL_RW_WRITE:
    case WL_RW_RANDWRITE:
        return IO_WRITE;
    case WL_RW_RW:
    case WL_RW_RANDRW:
        return WL_OP_MIXED;
    default:
        return IO_TRIM;
    }
}

/* The end of a pass over the region (fio's keep_running): another pass
 * while loops remain, or io_size is not yet done (by at least the largest
 * block), or the job is time based; false when the job is done. */
static bool wl_next_pass(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    bool empty = j->pass_ios == 0;
    j->passes++;
    if (empty && j->passes > 1)
        return false; /* a fresh pass found nothing to do: it never will */
    if (s->time_based || j->passes < s->loops ||
        (s->io_size && j->issued < s->io_size && s->io_size - j->issued >= j->max_bs)) {
        wl_pass_reset(j);
        return true;
    }
    return false;
}

/* fio's should_fsync: a sync is due before any I/O while the writes issued
 * are a multiple of fsync and the last I/O was not a sync (flush_due marks
 * it, any other I/O clears it), so each read of a mixed job between two
 * writes finds it due again, and a new pass (which clears it) too. */
static bool wl_pick_sync(WlJob *j)
{
    uint32_t n = j->spec->fsync;
    if (!n || j->flush_due || j->iolog_in || !j->dir_issues[IO_WRITE] ||
        j->dir_issues[IO_WRITE] % n != 0)
        return false;
    j->flush_due = true;
    j->pick.op = IO_FLUSH;
    j->pick.offset = j->last_write;
    j->have_pick = true;
    return true;
}

/* Choose the next I/O into j->pick; false when the job has done its amount. */
static bool wl_pick(WlJob *j)
{
    WlIo *p = &j->pick;
    if (j->verifying)
        return wl_verify_pick(j);
    /* a due flush goes before the next I/O, as fio picks its sync: none when
     * the job has no I/O left */
    if (j->issued >= j->limit || j->ios_issued >= j->max_ios)
        return false;
    memset(p, 0, sizeof *p);
    if (wl_pick_sync(j))
        return true;
    if (j->iolog_in) {
        if (!wl_iolog_pick(j))
            return false;
    } else {
        IoOp op;
        uint64_t off, len;
        for (;;) {
            op = wl_pick_op(j);
            if (wl_next_io(j, op, &off, &len)) {
                if (!j->zbd_on || !wl_zbd_skip_gap(j, op, off))
                    break;
                continue;
            }
            if (!wl_next_pass(j))
                return false;
            j->flush_due = false; /* fio's reset_io_counters: last_was_sync = 0 */
            if (wl_pick_sync(j))
                return true;
        }
        p->op = (uint8_t)op;
        p->length = len;
        p->offset = off;
        j->dir_issues[op]++;
    }
    if (j->w->t.warm && p->op != IO_FLUSH)
        j->w->t.warm(j->w->t.ctx, p->offset, UINT64_MAX);
    p->then_write = j->then_write;
    j->issued += p->length;
    j->ios_issued++;
    j->flush_due = false;
    if (p->op == IO_WRITE) {
        j->last_write = p->offset;

    }
    j->have_pick = true;
    return true;
}

/* wl_pick for a job with a short path (j->fast): the same I/O, without
 * the tests of what such a job cannot have (a flush due, an iolog, zones,
 * verify, trimwrite) and without the state only those read (flush_due and
 * last_write, for fsync; the pick's other fields, which stay 0). A
 * sequential job at its region's end goes through wl_pick, which ends the
 * pass. */
static inline bool wl_pick_fast(WlJob *j)
{
    if (j->issued >= j->limit || j->ios_issued >= j->max_ios)
        return false;
    IoOp op;
    uint64_t off, len;
    if (j->fast == WL_FAST_SEQ) {
        op = (IoOp)j->fixed_op;
        if (!wl_next_seq(j, op, &off, &len))
            return wl_pick(j);
    } else {
        op = (IoOp)j->fixed_op;
        if (j->fixed_op == WL_OP_MIXED) { /* a short path's job has no rate caps */
            wl_mix_dir(j);
            op = (IoOp)j->rwmix_dir;
        }
        wl_next_perm(j, op, &off, &len);
    }
    j->pick.op = (uint8_t)op;
    j->pick.offset = off;
    j->pick.length = len;
    j->dir_issues[op]++;
    if (j->w->t.warm) /* at random, the next pick too: a whole I/O before its lookup */
        j->w->t.warm(j->w->t.ctx, off, j->fast == WL_FAST_PERM ? wl_peek_perm(j) : UINT64_MAX);
    j->issued += len;
    j->ios_issued++;
    j->have_pick = true;
    return true;
}

/* ---- Running jobs ------------------------------------------------------- */

static void wl_start_phase(Workload *w);
static void ev_job_start(void *ctx, uint64_t arg);

static void ev_wake(void *ctx, uint64_t arg);
static void ev_stop(void *ctx, uint64_t arg);
static void wl_job_stop(WlJob *j);

/* Wake j in an event of its own (never from inside another job's loop). */
static void wl_wake(WlJob *j)
{
    if (!j->wake_pending && j->state == WL_JOB_RUN) {
        j->wake_pending = true;
        sim_schedule(j->w->e, sim_now(j->w->e), ev_wake, j->w, j->index);
    }
}

static bool wl_spec_done(const Workload *w, uint32_t spec_index)
{
    for (uint32_t i = 0; i < w->njobs; i++)
        if (w->jobs[i].spec_index == spec_index && w->jobs[i].state != WL_JOB_DONE)
            return false;
    return true;
}

/* What a job's end sets off: jobs that wait_for it, flow mates it held
 * back, and with exitall the end of its group (or of everything). */
static void wl_job_ended(WlJob *j)
{
    Workload *w = j->w;
    SimTime now = sim_now(w->e);
    bool spec_done = wl_spec_done(w, j->spec_index);
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *o = &w->jobs[i];
        if (o == j)
            continue;
        if (spec_done && o->state == WL_JOB_WAIT && o->phase == w->cur_phase &&
            o->spec->wait_for[0] && strcmp(o->spec->wait_for, j->spec->name) == 0)
            sim_schedule(w->e, now + o->spec->startdelay_ns, ev_job_start, w, i);
        if (o->flow_parked && j->spec->flow && o->spec->flow_id == j->spec->flow_id) {
            o->flow_parked = false;
            wl_wake(o);
        }
    }
    if (!j->spec->exitall)
        return;
    if (j->spec->exit_what == WL_EXIT_ALL)
        w->stop_at = MIN(w->stop_at, now);
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *o = &w->jobs[i];
        if (o != j && o->phase == j->phase && o->state == WL_JOB_RUN && !o->stopping)
            sim_schedule(w->e, now, ev_stop, w, i);
    }
}

static void wl_job_finish(WlJob *j)
{
    Workload *w = j->w;
    j->state = WL_JOB_DONE;
    j->t_finish = sim_now(w->e);
    wl_job_ended(j);
    if (--w->phase_left == 0) {
        w->cur_phase++;
        wl_start_phase(w);
    }
}

/* The job's end once it stops and has nothing in flight: the test,
 * inline at each I/O, before the rarely taken call. */
static inline void wl_job_maybe_finish(WlJob *j)
{
    if (j->stopping && j->state == WL_JOB_RUN && !j->busy && !j->thinking)
        wl_job_finish(j);
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
    j->think_due = false;
    wl_job_fill(j);
    wl_job_maybe_finish(j);
}

/* fio's thinktime: once thinktime_blocks I/Os were counted since the last
 * pause (completed ones, or issued ones with thinktime_blocks_type=issue),
 * the job issues nothing more, waits for its I/Os in flight and pauses.
 * fio checks after each issue and after each reap of a full queue; here
 * after each issue and each completion. count: this event is one of the
 * counted kind. */
static void wl_think_check(WlJob *j, bool count)
{
    const WorkloadJobSpec *s = j->spec;
    if (!s->thinktime_ns)
        return;
    j->think_cnt += count;
    if (!j->think_due && j->think_cnt - j->think_last >= s->thinktime_blocks) {
        j->think_due = true;
        j->think_last = j->think_cnt;
    }
}

static void ev_end(void *ctx, uint64_t arg)
{
    WlJob *j = &((Workload *)ctx)->jobs[arg];
    if (j->verify_pending || j->verifying) {
        wl_job_fill(j); /* the write part is over: on to the read-back */
        return;
    }
    j->stopping = true;
    wl_job_maybe_finish(j);
}

static void ev_stop(void *ctx, uint64_t arg)
{
    wl_job_stop(&((Workload *)ctx)->jobs[arg]);
}

static void wl_job_stop(WlJob *j)
{
    if (j->state != WL_JOB_RUN || j->stopping)
        return;
    j->verify_pending = j->verifying = false;
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
    if (s->rate_poisson) /* exponential gaps of the same mean: a Poisson arrival process */
        gap *= -log(1.0 - sim_rng_double(&j->rng));
    j->rate_next[p->op] = MAX(next, now) + (SimTime)(gap + 0.5);
    return next;
}

static void ev_null_done(void *ctx, uint64_t tag);

/* An I/O leaves the job: fio's counters, the slat log row (not for the
 * write half of trimwrite, which fio logs with its trim), the iolog, then
 * the drive; ioengine=null completes it at once instead, as fio's null
 * engine does, without the drive (nor its disk_util counts), and so does
 * the host an I/O that is its own (a trim of emulated zones). */
static void wl_io_issue(WlJob *j, const WlIo *io, uint32_t slot, bool log_slat)
{
    uint64_t tag = (uint64_t)j->index << 32 | slot;
    wl_fio_stat_submit(&j->st.fio, io->submit, j->busy, (IoOp)io->op);
    if (log_slat && j->log)
        wl_log_submit(j, (IoOp)io->op, io->offset, io->length);
    if (j->iolog)
        wl_iolog_write(j, io->op, io->offset, io->length);
    if (j->direct) {
        wl_submit(j->w, io->op, io->offset, io->length, tag);
        return;
    }
    if (j->zbd_on)
        wl_zbd_issued(j, io);
    if (j->spec->engine_null || io->host_only)
        sim_schedule(j->w->e, sim_now(j->w->e), ev_null_done, j->w, tag);
    else if (io->zop != ZOP_NONE)
        wl_zbd_submit(j, io, tag);
    else if (j->spec->fdp.on && io->op == IO_WRITE)
        wl_submit_placed(j->w, io->op, io->offset, io->length, tag,
                         wl_fdp_next(j->spec, &j->w->t, &j->fdp_rr, &j->rng));
    else
        wl_submit(j->w, io->op, io->offset, io->length, tag);
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
    w->outstanding += !j->spec->engine_null;
    j->flow_count += j->spec->flow != 0;
    if (j->rated)
        wl_rate_gate(j, io, true);
    wl_think_check(j, j->spec->thinktime_issue);
    wl_io_issue(j, io, slot, true);
}

/* fio's flow: a job of a flow_id keeps its share of the flow's I/Os to
 * its weight's share; one that is ahead waits for a mate to submit. Only
 * running jobs count: among them one is always at or below its share, so
 * the flow never holds every job at once. */
static bool wl_flow_held(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    if (!s->flow)
        return false;
    Workload *w = j->w;
    uint64_t count = 0, weight = 0;
    bool mates = false;
    for (uint32_t i = 0; i < w->njobs; i++) {
        const WlJob *o = &w->jobs[i];
        if (!o->spec->flow || o->spec->flow_id != s->flow_id || o->state != WL_JOB_RUN ||
            (o->stopping && o != j))
            continue;
        count += o->flow_count;
        weight += (uint64_t)ABS(o->spec->flow);
        mates |= o != j;
    }
    if (!mates || count == 0 ||
        (double)j->flow_count / (double)count <= (double)ABS(s->flow) / (double)weight)
        return false;
    j->flow_parked = true;
    return true;
}

static void wl_flow_kick(WlJob *j)
{
    Workload *w = j->w;
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *o = &w->jobs[i];
        if (o->flow_parked && o->spec->flow_id == j->spec->flow_id) {
            o->flow_parked = false;
            wl_wake(o);
        }
    }
}

/* The target has no room for the job's next I/O: the job waits its turn
 * in the ring (once), which wl_kick serves as I/Os complete. */
static inline void wl_wait_room(Workload *w, WlJob *j)
{
    if (!j->queued) {
        w->wait_ring[(w->wait_head + w->wait_len++) % w->njobs] = j->index;
        j->queued = true;
    }
}

/* wl_job_fill and wl_job_submit for a job with a short path (j->fast): no
 * thinktime, verify, flow, rate, iolog or zones to wait for, and each I/O
 * goes to the drive as it is. Inline in wl_job_fill and in the short
 * completion, which so makes one frame for the completion and the next
 * I/O. */
static inline __attribute__((always_inline)) void wl_fill_fast(WlJob *j, SimTime now)
{
    Workload *w = j->w;
    if (j->state != WL_JOB_RUN)
        return;
    /* a running job stays so while it is not stopping */
    while (!j->stopping && j->busy < j->iodepth) {
        if (now >= w->stop_at || now >= j->t_end || (!j->have_pick && !wl_pick_fast(j))) {
            j->stopping = true;
            break;
        }
        if (w->outstanding >= w->t.queue_limit) {
            wl_wait_room(w, j);
            break;
        }
        uint32_t slot = j->free_slots[--j->nfree];
        WlIo *io = &j->slots[slot];
        /* field by field, as the pick was just stored: a copy of the whole
         * read it 16 bytes at a time, which the processor cannot forward
         * from the pick's 8- and 1-byte stores (the copy waited for them to
         * reach the cache); a short path's pick has no other field set */
        io->submit = now;
        io->offset = j->pick.offset;
        io->length = j->pick.length;
        io->op = j->pick.op;
        io->then_write = io->zop = io->host_only = 0;
        j->have_pick = false;
        j->busy++;
        w->outstanding++;
        wl_fio_stat_submit(&j->st.fio, now, j->busy, (IoOp)io->op);
        wl_submit(w, io->op, io->offset, io->length, (uint64_t)j->index << 32 | slot);
    }
    wl_job_maybe_finish(j);
}

/* Submit while the job has free slots, amount left, rate allowance and the
 * target has room. */
void wl_job_fill(WlJob *j)
{
    if (j->fast) {
        wl_fill_fast(j, sim_now(j->w->e));
        return;
    }
    Workload *w = j->w;
    SimTime now = sim_now(w->e);
    while (j->busy + j->thinking < j->iodepth && j->state == WL_JOB_RUN && !j->stopping &&
           !j->think_due) {
        bool over = !j->verifying && now >= j->t_end;
        if (now >= w->stop_at || (over && !j->verify_pending)) {
            j->stopping = true;
            break;
        }
        if (!j->verifying && (over || (!j->have_pick && !wl_pick(j)))) {
            if (!j->verify_pending) {
                j->stopping = true;
                break;
            }
            /* the writes are done: read them back once all have completed */
            j->have_pick = false;
            if (j->busy)
                break;
            j->verify_pending = false;
            j->verifying = true;
        }
        if (!j->have_pick && !wl_pick(j)) {
            j->stopping = true;
            break;
        }
        if (wl_flow_held(j))
            break;
        SimTime at = j->rated ? MAX(wl_rate_gate(j, &j->pick, false), j->iolog_at) : j->iolog_at;
        if (at > now) {
            if (!j->wake_pending)
                sim_schedule(w->e, at, ev_wake, w, j->index);
            j->wake_pending = true;
            break;
        }
        if (w->outstanding >= w->t.queue_limit && !j->spec->engine_null) {
            wl_wait_room(w, j);
            break;
        }
        if (j->zbd_on) { /* fio's zbd_adjust_block, as the I/O goes */
            int r = wl_zbd_ready(j);
            if (r == WL_ZBD_WAIT)
                break; /* woken when a zone's write or reset ends */
            if (r == WL_ZBD_EOF) {
                j->have_pick = false;
                j->stopping = true;
                break;
            }
        }
        wl_job_submit(j);
        if (j->spec->flow)
            wl_flow_kick(j);
    }
    wl_job_maybe_finish(j);
}

static void ev_job_start(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlJob *j = &w->jobs[arg];
    const WorkloadJobSpec *s = j->spec;
    SimTime now = sim_now(w->e);
    if (j->state != WL_JOB_WAIT)
        return;
    j->state = WL_JOB_RUN;
    j->t_start = now;
    j->t_ramp_end = now + s->ramp_ns;
    j->t_end = s->runtime_ns ? now + s->ramp_ns + s->runtime_ns : SIM_TIME_MAX;
    j->t_end = MIN(j->t_end, w->stop_at);
    if (s->idle || now >= w->stop_at) {
        /* Nothing to submit (an idle phase): the job is done when its one
         * "think" ends. */
        j->stopping = true;
        j->thinking = 1;
        sim_schedule(w->e, s->idle ? MAX(j->t_end, now) : now, ev_think, w, j->index);
        return;
    }
    if (j->t_end != SIM_TIME_MAX)
        sim_schedule(w->e, j->t_end, ev_end, w, j->index);
    if (j->ss)
        wl_ss_start(j);
    wl_fio_stat_start(&j->st.fio, s, j->t_ramp_end);
    wl_rate_min_start(j);
    /* the logs and iologs are open by now */
    bool plain = j->plain_done && j->direct && !j->rated && !s->thinktime_ns && !s->flow &&
                 !s->fsync && !j->then_write && !j->verify_pending && !j->verify_all &&
                 !j->log && !j->iolog && !j->iolog_in && !j->ss_pts;
    j->fast = plain ? wl_fast_kind(j) : WL_FAST_NONE;
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
        if (w->jobs[i].spec->wait_for[0] && !wl_spec_done(w, w->jobs[i].wait_spec))
            continue; /* started by wl_job_ended */
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

/* A completion's steps before its statistics for a job that is not
 * plain_done: the drive's counts unless the host did it, zones (a plain
 * job's write refused by a zoned drive, zbd's accounting) and verify
 * stamps. *failed: the drive refused it. True when the I/O went out again
 * (the write after a zbd reset): the completion is over. */
static bool wl_job_done_special(Workload *w, WlJob *j, uint32_t slot, SimTime now, bool *failed_out)
{
    WlIo *io = &j->slots[slot];
    if (!j->spec->engine_null && !io->host_only)
        wl_disk_done(w, (IoOp)io->op, now - io->submit);
    bool failed = false;
    if (w->t.zone_size && !j->zbd_on && io->op == IO_WRITE && !j->spec->engine_null &&
        w->done && w->done->status != ZNS_OK) {
        /* a plain job on a zoned drive: a write off the zone's write
         * pointer fails as a zbd job's does, counted, not written */
        j->zerrors++;
        failed = true;
    } else if (j->zbd_on) {
        failed = !wl_zbd_done(j, io);
        for (uint32_t i = 0; i < w->njobs; i++) /* a zone's write or reset ended */
            if (w->jobs[i].zparked) {
                w->jobs[i].zparked = false;
                wl_wake(&w->jobs[i]);
            }
        if (!failed && !io->host_only && !j->spec->engine_null && io->zop != ZOP_NONE)
            wl_zone_record(w, io->zop, now - io->submit);
        if (!failed && io->zop == ZOP_RESET && io->then_write) { /* the reset before a write */
            io->op = IO_WRITE;
            io->zop = j->spec->zbd.append ? ZOP_APPEND : ZOP_NONE;
            io->then_write = 0;
            io->host_only = 0;
            io->submit = now;
            wl_io_issue(j, io, slot, false);
            return true;
        }
    }
    if (failed) {
        /* the drive refused it: nothing recorded, and the job ends, as fio
         * ends a job on an I/O error */
    } else if (w->stamp) {
        if (io->op == IO_READ && (j->verifying || j->verify_all))
            wl_verify_check(w, j, io->offset, io->length);
        else
            wl_verify_written(w, io->op, io->offset, io->length);
    }
    *failed_out = failed;
    return false;
}

static void wl_job_done(Workload *w, WlJob *j, uint32_t slot)
{
    WlIo *io = &j->slots[slot];
    SimTime now = sim_now(w->e);
    bool failed = false;
    if (j->plain_done)
        wl_disk_done(w, (IoOp)io->op, now - io->submit);
    else if (wl_job_done_special(w, j, slot, now, &failed))
        return;
    if (now >= j->t_ramp_end && !failed) {
        wl_record(w, &j->st, now, io->op, io->length, now - io->submit);
        if (j->ss_pts && io->op != IO_TRIM)
            wl_ss_pts_record(j->ss_pts, now - io->submit);
        if (j->log)
            wl_log_record(j, io->op, io->offset, io->length, now - io->submit);
    }
    if (io->then_write && !failed) {
        io->op = IO_WRITE;
        io->then_write = 0;
        io->submit = now;
        wl_io_issue(j, io, slot, false);
        return;
    }
    j->free_slots[j->nfree++] = slot;
    j->busy--;
    if (!j->spec->engine_null) {
        w->outstanding--;
        wl_kick(w);
    }
    wl_think_check(j, !j->spec->thinktime_issue);
    if (j->think_due && !j->stopping) {
        if (!j->busy && !j->thinking) { /* the last in flight: the pause begins */
            j->thinking = 1;
            sim_schedule_in(w->e, j->spec->thinktime_ns, ev_think, w, j->index);
        }
    } else if (failed) {
        wl_job_stop(j);
    } else {
        wl_job_fill(j);
    }
    wl_job_maybe_finish(j);
}

/* wl_job_done for a job with a short path (j->fast): a plain completion
 * (wl_job_done's plain_done case) with nothing after it but the next
 * I/Os. */
static inline __attribute__((always_inline)) void wl_job_done_fast(Workload *w, WlJob *j, uint32_t slot)
{
    const WlIo *io = &j->slots[slot];
    SimTime now = sim_now(w->e), lat = now - io->submit;
    wl_disk_done(w, (IoOp)io->op, lat);
    if (now >= j->t_ramp_end)
        wl_record(w, &j->st, now, io->op, io->length, lat);
    j->free_slots[j->nfree++] = slot;
    j->busy--;
    w->outstanding--;
    if (w->wait_len)
        wl_kick(w);
    wl_fill_fast(j, now);
}

static void ev_null_done(void *ctx, uint64_t tag)
{
    Workload *w = ctx;
    wl_job_done(w, &w->jobs[tag >> 32], (uint32_t)tag);
}

static void wl_jobs_io_done(Workload *w, uint64_t tag)
{
    uint32_t ji = (uint32_t)(tag >> 32), slot = (uint32_t)tag;
    g_return_if_fail(ji < w->njobs && slot < w->jobs[ji].iodepth);
    if (w->jobs[ji].fast)
        wl_job_done_fast(w, &w->jobs[ji], slot);
    else
        wl_job_done(w, &w->jobs[ji], slot);
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
    unsigned used = wl_dirs_used(s->rw);
    for (int d = 0; d < WL_DIRS; d++) {
        if (!(used & (1u << d)))
            continue;
        for (uint32_t i = 0; i < s->n_bssplit[d]; i++) {
            *lo = MIN(*lo, s->bssplit[d][i].bs);
            *hi = MAX(*hi, s->bssplit[d][i].bs);
        }
        if (s->n_bssplit[d])
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
    j->max_bs = hi;
    if (s->blockalign)
        j->unit = s->blockalign;
    j->start = s->offset_pct > 0 ? (uint64_t)((double)cap * s->offset_pct / 100.0) : s->offset;
    j->start += (uint64_t)j->clone * s->offset_increment;
    j->start = j->start / j->unit * j->unit;
    if (j->start >= cap) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"offset\": offset %" G_GUINT64_FORMAT " is at or beyond "
                    "the end of the drive (capacity %" G_GUINT64_FORMAT " bytes)", j->name, j->start,
                    cap);
        return FALSE;
    }
    uint64_t rest = cap - j->start;
    if (s->size_pct > 0)
        j->size = (uint64_t)((double)cap * s->size_pct / 100.0);
    else if (s->fill_device)
        j->size = rest;
    else
        j->size = s->size ? s->size : s->filesize ? s->filesize : rest;
    /* as fio does on a block device: a size beyond its end stops at the end */
    if ((s->size || s->filesize) && !s->size_pct && j->size > rest)
        j->size = rest;
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
    return wl_job_zones(j, error);
}

static gboolean wl_job_bind(Workload *w, WlJob *j, uint64_t seed, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    j->w = w;
    j->t_end = SIM_TIME_MAX;
    wl_stats_init(&j->st);
    j->iodepth = s->iodepth;
    j->max_ios = s->number_ios ? s->number_ios : UINT64_MAX;
    j->fixed_op = wl_fixed_op(s->rw);
    j->zbd_on = s->zbd.on;
    j->then_write = s->rw == WL_RW_TRIMWRITE && !s->iolog_in[0];
    j->direct = !s->engine_null && !s->zbd.on && !s->fdp.on;
    for (int d = 0; d < WL_DIRS; d++)
        j->rated |= s->rate[d] || s->rate_iops[d];
    if (s->idle)
        return TRUE;
    if (!wl_fdp_bind(s, j->name, &w->t, error))
        return FALSE;
    if (s->zone_strided && !s->zonesize) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"zonemode\": found strided without a zone size, expected "
                    "zonesize=SIZE as well", j->name);
        return FALSE;
    }
    if (s->zonesize_set && !s->zone_strided && !s->zbd.on) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"zonesize\": found zonesize without a zone mode, expected "
                    "zonemode=strided or zbd as well (fio refuses zonesize with zonemode=none)", j->name);
        return FALSE;
    }
    if (s->engine_null && s->time_based) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"time_based\": found it with ioengine=null, expected one "
                    "or the other: null I/Os complete in no simulated time, so the job would never "
                    "reach its runtime", j->name);
        return FALSE;
    }
    unsigned dirs = wl_dirs_used(s->rw);
    j->verify_pending = s->verify && s->do_verify && (dirs & 1u << IO_WRITE);
    j->verify_all = s->verify && s->do_verify && !(dirs & 1u << IO_WRITE);
    if (s->time_based && !s->runtime_ns) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"time_based\": found no runtime, expected "
                    "runtime=DURATION as well", j->name);
        return FALSE;
    }
    if (!wl_job_region(j, w->t.capacity, error))
        return FALSE;
    if (s->time_based || s->iolog_in[0])
        j->limit = UINT64_MAX;
    else
        j->limit = s->io_size ? s->io_size : j->size * s->loops;
    if (!wl_zbd_job_bind(j, error))
        return FALSE;
    j->slots = g_new0(WlIo, s->iodepth);
    j->free_slots = g_new(uint32_t, s->iodepth);
    for (uint32_t i = 0; i < s->iodepth; i++)
        j->free_slots[i] = s->iodepth - 1 - i;
    j->nfree = s->iodepth;
    /* randrepeat=0 (and no randseed): a seed of its own every run, as fio
     * takes one from the system's entropy; it is in summary.json */
    j->seed = s->has_randseed ? s->randseed
              : s->randrepeat ? seed
                              : (uint64_t)g_random_int() << 32 | g_random_int();
    sim_rng_init(&j->rng, j->seed, WL_STREAM | j->index);
    /* fio's generators: randseed as given; else fio's default (0x89) and
     * fio's fixed offset seed at --seed 1, moved on by other run seeds */
    j->fr_seed = s->has_randseed || !s->randrepeat ? j->seed : WL_FIO_DEF_SEED + (seed - 1);
    j->fr_block_seed = s->has_randseed ? 0 : seed - 1;
    wl_job_offsets(j);
    j->seq_nr_left = 1; /* the first I/O of a random job is at random */
    j->rwmix_dir = IO_READ;
    wl_map_bind(j);
    wl_pass_reset(j);
    if (s->iolog_in[0] && !wl_iolog_bind(j, error))
        return FALSE;
    wl_mix_keys(j, j->scatter_key);
    wl_job_dist(j);
    if (s->ss == WL_SS_PTS && j->clone > 0)
        j->ss_pts = (j - j->clone)->ss; /* the first clone was bound before */
    return j->clone == 0 && s->ss ? wl_ss_bind(w, j, error) : TRUE;
}

static void wl_jobs_free(Workload *w)
{
    for (uint32_t i = 0; w->jobs && i < w->njobs; i++) {
        g_free(w->jobs[i].slots);
        g_free(w->jobs[i].free_slots);
        wl_stats_clear(&w->jobs[i].st);
        wl_ss_free(w->jobs[i].ss);
        wl_log_free(w->jobs[i].log);
        wl_axmap_free(w->jobs[i].map);
        wl_iolog_free(&w->jobs[i]);
    }
    w->pts = NULL;
    g_clear_pointer(&w->stamp, g_free);
    wl_zbd_free(w);
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
            j->clone = c;
            j->spec_index = i;
            if (s->numjobs > 1)
                g_snprintf(j->name, sizeof j->name, "%s.%u", s->name, c);
            else
                g_strlcpy(j->name, s->name, sizeof j->name);
        }
    }
    w->nphases = phase + 1;
}

/* wait_for=NAME: a job defined earlier; it must not be in a later group. */
static gboolean wl_job_wait_for(Workload *w, WlJob *j, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    if (!s->wait_for[0])
        return TRUE;
    for (uint32_t i = 0; i < j->spec_index; i++) {
        if (strcmp(g_array_index(w->specs, WorkloadJobSpec, i).name, s->wait_for) == 0) {
            j->wait_spec = i;
            return TRUE;
        }
    }
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                "job \"%s\": option \"wait_for\": found \"%s\", expected the name of a job "
                "defined before it", j->name, s->wait_for);
    return FALSE;
}

/* Bind the jobs: expand the clones, place each job's region, seed it. */
static gboolean wl_jobs_bind(Workload *w, uint64_t seed, GError **error)
{
    wl_jobs_free(w);
    wl_jobs_make(w);
    w->job_stop = wl_job_stop;
    if (!wl_zbd_bind(w, error)) {
        wl_jobs_free(w);
        return FALSE;
    }
    for (uint32_t i = 0; i < w->njobs; i++) {
        int sig = w->t.stop ? w->t.stop() : 0; /* a job costs more than the call */
        if (sig) {
            g_autofree char *when = g_strdup_printf("while setting up job %u of %u", i + 1, w->njobs);
            sim_interrupted_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND, sig, when,
                                  "nothing written");
            wl_jobs_free(w);
            return FALSE;
        }
        if (!wl_job_bind(w, &w->jobs[i], seed, error) || !wl_job_wait_for(w, &w->jobs[i], error)) {
            wl_jobs_free(w);
            return FALSE;
        }
    }
    if (!wl_verify_bind(w, error)) {
        wl_jobs_free(w);
        return FALSE;
    }
    for (uint32_t i = 0; i < w->njobs; i++) {
        WlJob *j = &w->jobs[i];
        j->plain_done = !j->spec->engine_null && !j->zbd_on && !w->t.zone_size && !w->stamp;
    }
    if (w->njobs == 1)
        wl_stats_share(w, &w->jobs[0].st);
    return TRUE;
}

static void wl_jobs_source_free(Workload *w)
{
    wl_jobs_free(w);
    if (w->specs)
        g_array_unref(w->specs);
}

/* fio jobs (and the named workloads, which are job files) as a source. */
static const WlSource wl_jobs_source = {
    .bind = wl_jobs_bind,
    .start = wl_start_phase,
    .io_done = wl_jobs_io_done,
    .finished = wl_jobs_finished,
    .progress = wl_jobs_progress,
    .results = wl_jobs_results,
    .result = wl_jobs_result,
    .json = wl_jobs_json,
    .free = wl_jobs_source_free,
};

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
    if (s->n_bssplit[d0])
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
    Workload *w = wl_new(description ? description : wl_describe(specs), &wl_jobs_source);
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
        return wl_from_specs(wl_fio_parse_text(text, where, NULL, error), g_strstrip(g_strdup(spec)));
    }
    return wl_from_specs(wl_fio_parse_spec(spec, error), NULL);
}

Workload *workload_from_jobfile(const char *path, GError **error)
{
    return workload_from_jobfile_stoppable(path, NULL, error);
}

Workload *workload_from_jobfile_stoppable(const char *path, WorkloadStopFn stop, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    return wl_from_specs(wl_fio_parse_file(path, stop, error), NULL);
}
