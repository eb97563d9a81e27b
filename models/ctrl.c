/*
 * ctrl.c - the controller's firmware cores: N timelines that every kind of
 * firmware work queues for, so a saturated controller bounds what the
 * drive does and adds latency exactly when it saturates.
 *
 * Each piece of work goes to the core on which it can start first, at the
 * first moment from its ready time that the core is free for its whole
 * cost: with the cost of each piece known when it is given, that
 * placement is the queue itself, and a core is a timeline like the
 * channels' and the link's, with no event of its own. Pieces ready now
 * queue first come first served (an M/G/N queue); a piece ready later
 * (relocation work waiting for its data) holds its place on the core
 * without idling it before. Firmware runs to completion: no piece
 * preempts another. Busy time is counted by kind as it is given
 * (DriveStats.ctrl_busy_ns), as the channels count transfers.
 */
#include "models/ctrl.h"
#include "models/chan.h"

#include <string.h>

/* Each core keeps the pieces of work it has taken that have not ended,
 * in time order: a piece that is ready later than others given after it
 * (a relocation waits for its data to come out of the die) leaves the core
 * free before it, and a later piece that fits that gap takes it. At most
 * CTRL_SLOTS pieces a core are kept apart; beyond, the two oldest merge
 * (the gap between them is lost). */
#define CTRL_SLOTS 64

typedef struct Ctrl {
    uint32_t cores;
    uint32_t *n;       /* per core: pieces kept */
    SimTime *start;    /* [core * CTRL_SLOTS + i] */
    SimTime *end;
} Ctrl;

static Ctrl *ctrl(const Drive *d) { return drive_part(d, DP_CTRL); }

void ctrl_init(Drive *d)
{
    Ctrl *c = g_new0(Ctrl, 1);
    c->cores = MAX(1u, drive_params(d)->ctrl_cores);
    c->n = g_new0(uint32_t, c->cores);
    c->start = g_new0(SimTime, (size_t)c->cores * CTRL_SLOTS);
    c->end = g_new0(SimTime, (size_t)c->cores * CTRL_SLOTS);
    drive_set_part(d, DP_CTRL, c);
}

void ctrl_release(Drive *d)
{
    Ctrl *c = ctrl(d);
    if (!c)
        return;
    g_free(c->n);
    g_free(c->start);
    g_free(c->end);
    g_free(c);
    drive_set_part(d, DP_CTRL, NULL);
}

/* Drop core k's pieces that ended by now, but the last (where the core
 * frees). */
static void prune(Ctrl *c, uint32_t k, SimTime now)
{
    SimTime *s = c->start + (size_t)k * CTRL_SLOTS, *e = c->end + (size_t)k * CTRL_SLOTS;
    uint32_t n = c->n[k], drop = 0;
    while (drop + 1 < n && e[drop] <= now)
        drop++;
    if (drop == 0)
        return;
    memmove(s, s + drop, (n - drop) * sizeof *s);
    memmove(e, e + drop, (n - drop) * sizeof *e);
    c->n[k] = n - drop;
}

/* Where on core k a piece of cost ready at `ready` would start: the first
 * gap it fits, else after the last piece; *at: the index it goes in. A
 * piece of no cost needs a moment the core is not working. */
static SimTime fit(const Ctrl *c, uint32_t k, SimTime ready, SimTime cost, uint32_t *at)
{
    const SimTime *s = c->start + (size_t)k * CTRL_SLOTS, *e = c->end + (size_t)k * CTRL_SLOTS;
    uint32_t n = c->n[k];
    SimTime prev = 0;
    for (uint32_t i = 0; i < n; prev = e[i], i++) {
        SimTime t = ready > prev ? ready : prev;
        if (t + cost < s[i] || (cost > 0 && t + cost == s[i])) {
            *at = i;
            return t;
        }
    }
    *at = n;
    return ready > prev ? ready : prev;
}

/* The core whose fit starts first (the lowest on a tie, so one core's
 * drive runs as a single timeline). */
static uint32_t best_core(Ctrl *c, SimTime now, SimTime ready, SimTime cost, SimTime *t, uint32_t *at)
{
    uint32_t best = 0;
    for (uint32_t k = 0; k < c->cores; k++) {
        prune(c, k, now);
        uint32_t i;
        SimTime tk = fit(c, k, ready, cost, &i);
        if (k == 0 || tk < *t) {
            best = k;
            *t = tk;
            *at = i;
        }
    }
    return best;
}

SimTime ctrl_first_free(const Drive *d)
{
    Ctrl *c = ctrl(d);
    SimTime now = sim_now(drive_engine(d)), t = 0;
    uint32_t at;
    best_core(c, now, now, 0, &t, &at);
    return t;
}

/* The general placement: any number of cores, a gap to look for. Kept
 * out of line (G_GNUC_NO_INLINE) so that take()'s one-core path, taken
 * by every command of most drives, carries none of its registers and
 * stack frame. */
static G_GNUC_NO_INLINE SimTime take_any(Drive *d, Ctrl *c, SimTime ready, SimTime cost)
{
    SimTime t = 0;
    uint32_t at = 0;
    uint32_t k = best_core(c, sim_now(drive_engine(d)), ready, cost, &t, &at);
    if (cost == 0)
        return t;
    SimTime *s = c->start + (size_t)k * CTRL_SLOTS, *e = c->end + (size_t)k * CTRL_SLOTS;
    uint32_t n = c->n[k];
    if (at == n && n > 0 && e[n - 1] == t) {
        e[n - 1] = t + cost; /* goes on from the last piece: one piece */
        return t + cost;
    }
    if (n == CTRL_SLOTS) {
        /* full: the two oldest become one */
        e[0] = e[1];
        memmove(s + 1, s + 2, (n - 2) * sizeof *s);
        memmove(e + 1, e + 2, (n - 2) * sizeof *e);
        c->n[k] = --n;
        t = fit(c, k, ready, cost, &at); /* its gap may be gone */
    }
    memmove(s + at + 1, s + at, (n - at) * sizeof *s);
    memmove(e + at + 1, e + at, (n - at) * sizeof *e);
    s[at] = t;
    e[at] = t + cost;
    c->n[k] = n + 1;
    return t + cost;
}

static SimTime take(Drive *d, SimTime ready, SimTime cost)
{
    Ctrl *c = ctrl(d);
    /* one core, and the work ready after all it holds (every command on a
     * drive without relocation costs): it starts when ready, no gap to
     * look for; what ended by now is dropped */
    if (c->cores == 1) {
        uint32_t n = c->n[0];
        SimTime last = n ? c->end[n - 1] : 0, now = sim_now(drive_engine(d));
        if (ready >= last && (last <= now || last == ready || n < CTRL_SLOTS)) {
            if (cost == 0)
                return ready;
            if (last <= now) {
                c->n[0] = 1;
                c->start[0] = ready;
                c->end[0] = ready + cost;
            } else if (last == ready) {
                c->end[n - 1] = ready + cost;
            } else {
                c->start[n] = ready;
                c->end[n] = ready + cost;
                c->n[0] = n + 1;
            }
            return ready + cost;
        }
    }
    return take_any(d, c, ready, cost);
}

/* Work of no cost still waits for a core to take it up. */
SimTime ctrl_run(Drive *d, SimTime ready, SimTime cost, CtrlWork w)
{
    drive_counters(d)->ctrl_busy_ns[w] += cost;
    return take(d, ready, cost);
}

SimTime ctrl_run_now(Drive *d, SimTime cost, CtrlWork w)
{
    Ctrl *c = ctrl(d);
    SimTime now = sim_now(drive_engine(d));
    drive_counters(d)->ctrl_busy_ns[w] += cost;
    /* one core that has finished all it holds: the work starts now, as
     * take() would place it */
    if (G_LIKELY(c->cores == 1 && cost > 0 && (c->n[0] == 0 || c->end[c->n[0] - 1] <= now))) {
        c->n[0] = 1;
        c->start[0] = now;
        c->end[0] = now + cost;
        return now + cost;
    }
    return take(d, now, cost);
}

SimTime ctrl_relocate(Drive *d, uint32_t die, SimTime sensed, uint32_t n)
{
    const DriveParams *p = drive_params(d);
    uint64_t bytes = (uint64_t)n * SLOT_SIZE;
    if (p->ctrl_relocate_cost == 0 || p->ctrl_copy_offload)
        return chan_xfer(d, die, sensed, 2 * bytes); /* out and back, no core between */
    SimTime out = chan_xfer(d, die, sensed, bytes);
    SimTime worked = ctrl_run(d, out, (SimTime)n * p->ctrl_relocate_cost, CW_RELOCATE);
    return chan_xfer(d, die, worked, bytes);
}

void ctrl_background(Drive *d, SimTime cost, CtrlWork w)
{
    if (cost > 0)
        ctrl_run(d, sim_now(drive_engine(d)), cost, w);
}

/* Each core's pieces: at most CTRL_SLOTS, each ending no earlier than it
 * starts, in time order and apart. */
bool ctrl_check(const Drive *d, char *why, size_t why_len)
{
    const Ctrl *c = ctrl(d);
    for (uint32_t k = 0; k < c->cores; k++) {
        const SimTime *s = c->start + (size_t)k * CTRL_SLOTS, *e = c->end + (size_t)k * CTRL_SLOTS;
        CHECK(c->n[k] <= CTRL_SLOTS, "controller core %u keeps %u pieces of work", k, c->n[k]);
        for (uint32_t i = 0; i < c->n[k]; i++)
            CHECK(s[i] <= e[i] && (i == 0 || e[i - 1] <= s[i]),
                  "controller core %u: piece %u (%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                  " ns) ends before it starts or overlaps the one before",
                  k, i, s[i], e[i]);
    }
    return true;
}
