/*
 * trim.c - TRIM commands: the unmapping and the firmware work it costs.
 *
 * Under both policies the mapping table is unmapped when the command
 * arrives, so reads of trimmed pages are correct at once (the firmware's
 * trim marks). The work, per translation page the range touches: entry_cost
 * of controller time per mapped 4 KiB unit and, with a mapping cache, the
 * update of the page (a load if it is not cached, with the controller
 * waiting l2p_load_ns for it, later a write-back). immediate: the work goes
 * to a controller core at once, so later commands wait behind it, and
 * the TRIM completes at its end. deferred: the TRIM completes at once and the
 * work queues per translation page, done one page at a time while no host
 * command is outstanding.
 */
#include "models/trim.h"
#include "models/cmd.h"
#include "models/sched.h"
#include "models/pslc.h"
#include "models/ctrl.h"
#include "models/ftl.h"
#include "models/l2p_cache.h"

typedef struct TrimQueue {
    uint64_t per_tp; /* entries per translation page */
    uint32_t ntp;
    uint32_t *pend; /* mapped entries trimmed and not yet worked, per page */
    uint32_t *ring; /* pages with pend > 0, oldest first */
    uint32_t head, len;
    bool running; /* a work item is on a controller core */
} TrimQueue;

static TrimQueue *trimq(const Drive *d) { return drive_part(d, DP_TRIM); }

void trim_init(Drive *d)
{
    TrimQueue *q = g_new0(TrimQueue, 1);
    q->per_tp = l2p_entries_per_tpage(d);
    q->ntp = (uint32_t)((drive_geom(d)->nlpn + q->per_tp - 1) / q->per_tp);
    if (drive_params(d)->trim_policy == TRIM_DEFERRED) {
        q->pend = g_new0(uint32_t, q->ntp);
        q->ring = g_new(uint32_t, q->ntp);
    }
    drive_set_part(d, DP_TRIM, q);
}

void trim_release(Drive *d)
{
    if (!trimq(d))
        return;
    g_free(trimq(d)->pend);
    g_free(trimq(d)->ring);
    g_free(trimq(d));
    drive_set_part(d, DP_TRIM, NULL);
}

/* Controller time for n trimmed entries of the translation page of lpn. */
static SimTime trim_work(Drive *d, uint64_t lpn, uint64_t n)
{
    SimTime cost = n * drive_params(d)->trim_entry_cost;
    if (l2p_cache_on(d) && l2p_update(d, lpn))
        cost += l2p_load_ns(d);
    return cost;
}

void trim_start(Drive *d, uint32_t c)
{
    TrimQueue *q = trimq(d);
    const Cmd *cmd = cmd_at(d, c);
    uint64_t first = (cmd->offset + SLOT_SIZE - 1) / SLOT_SIZE;
    uint64_t end = (cmd->offset + cmd->length) / SLOT_SIZE;
    bool deferred = drive_params(d)->trim_policy == TRIM_DEFERRED;
    SimTime cost = 0;
    uint64_t unmapped = 0;
    for (uint64_t a = first, b; a < end; a = b) {
        b = MIN(end, (a / q->per_tp + 1) * q->per_tp);
        uint64_t n = ftl_unmap(d, a, b);
        if (n == 0)
            continue;
        unmapped += n;
        if (!deferred) {
            cost += trim_work(d, a, n);
            continue;
        }
        uint32_t t = (uint32_t)(a / q->per_tp);
        if (q->pend[t] == 0)
            q->ring[(q->head + q->len++) % q->ntp] = t;
        q->pend[t] += (uint32_t)n;
    }
    if (unmapped > 0)
        pslc_trimmed(d);
    ftl_unmapped(d);
    cmd_complete(d, c, deferred ? sim_now(drive_engine(d)) : ctrl_run(d, sim_now(drive_engine(d)), cost, CW_TRIM));
}

/* One translation page's deferred work, then the next while still idle. */
static void work_ev(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    TrimQueue *q = trimq(d);
    (void)arg;
    if (drive_outstanding(d) > 0 || q->len == 0) {
        q->running = false; /* resumed when the host next goes quiet */
        return;
    }
    uint32_t t = q->ring[q->head];
    q->head = (q->head + 1) % q->ntp;
    q->len--;
    SimTime cost = trim_work(d, t * q->per_tp, q->pend[t]);
    q->pend[t] = 0;
    sim_schedule(drive_engine(d), ctrl_run(d, sim_now(drive_engine(d)), cost, CW_TRIM), work_ev, d, 0);
}

void trim_idle(Drive *d)
{
    TrimQueue *q = trimq(d);
    if (q->running || q->len == 0)
        return;
    q->running = true;
    sim_schedule(drive_engine(d), sim_now(drive_engine(d)), work_ev, d, 0);
}

/* Deferred work: the ring holds each translation page with work pending
 * once, oldest first, and no other. */
bool trim_check(const Drive *d, char *why, size_t why_len)
{
    const TrimQueue *q = trimq(d);
    if (!q->pend)
        return true; /* immediate: no queue */
    CHECK(q->len <= q->ntp && q->head < q->ntp, "TRIM queue of %u pages holds %u from %u", q->ntp,
          q->len, q->head);
    g_autofree uint8_t *seen = g_new0(uint8_t, q->ntp);
    for (uint32_t k = 0; k < q->len; k++) {
        uint32_t t = q->ring[(q->head + k) % q->ntp];
        CHECK(t < q->ntp && !seen[t] && q->pend[t] > 0,
              "TRIM queue entry %u is translation page %u: beyond the table, queued twice or "
              "with no work",
              k, t);
        seen[t] = 1;
    }
    for (uint32_t t = 0; t < q->ntp; t++)
        CHECK(q->pend[t] == 0 || seen[t], "translation page %u has TRIM work but is not queued", t);
    return true;
}
