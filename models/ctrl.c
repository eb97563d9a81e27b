/*
 * ctrl.c - the controller's firmware cores: N timelines that every kind of
 * firmware work queues for, so a saturated controller bounds what the
 * drive does and adds latency exactly when it saturates.
 *
 * Work is served in the order it is given, each piece on the core that
 * frees first (an M/G/N queue, first come first served): with the cost of
 * each piece known when it is given, that assignment is the queue itself,
 * and a core is a timeline like the channels' and the link's, with no
 * event of its own. Firmware runs to completion: no piece preempts
 * another. Busy time is counted by kind as it is given
 * (DriveStats.ctrl_busy_ns), as the channels count transfers.
 */
#include "models/ctrl.h"
#include "models/chan.h"

typedef struct Ctrl {
    uint32_t cores;
    SimTime *free; /* per core: busy until */
} Ctrl;

static Ctrl *ctrl(const Drive *d) { return drive_part(d, DP_CTRL); }

void ctrl_init(Drive *d)
{
    Ctrl *c = g_new0(Ctrl, 1);
    c->cores = MAX(1u, drive_params(d)->ctrl_cores);
    c->free = g_new0(SimTime, c->cores);
    drive_set_part(d, DP_CTRL, c);
}

void ctrl_release(Drive *d)
{
    Ctrl *c = ctrl(d);
    if (!c)
        return;
    g_free(c->free);
    g_free(c);
    drive_set_part(d, DP_CTRL, NULL);
}

/* The core that frees first (the lowest on a tie, so one core's drive
 * runs as a single timeline). */
static uint32_t first_core(const Ctrl *c)
{
    uint32_t best = 0;
    for (uint32_t i = 1; i < c->cores; i++)
        if (c->free[i] < c->free[best])
            best = i;
    return best;
}

SimTime ctrl_first_free(const Drive *d)
{
    const Ctrl *c = ctrl(d);
    return c->free[first_core(c)];
}

static SimTime take(Drive *d, SimTime ready, SimTime cost)
{
    Ctrl *c = ctrl(d);
    uint32_t k = first_core(c);
    SimTime start = ready > c->free[k] ? ready : c->free[k];
    c->free[k] = start + cost;
    return c->free[k];
}

/* Work of no cost still waits for a core to take it up. */
SimTime ctrl_run(Drive *d, SimTime ready, SimTime cost, CtrlWork w)
{
    drive_counters(d)->ctrl_busy_ns[w] += cost;
    return take(d, ready, cost);
}

SimTime ctrl_run2(Drive *d, SimTime ready, SimTime cost_a, CtrlWork a, SimTime cost_b, CtrlWork b)
{
    drive_counters(d)->ctrl_busy_ns[a] += cost_a;
    drive_counters(d)->ctrl_busy_ns[b] += cost_b;
    return take(d, ready, cost_a + cost_b);
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
