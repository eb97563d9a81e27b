/*
 * hostif.c - the host interface: commands from submission to completion.
 *
 * A command first costs firmware time on a controller core (per command,
 * and per 4 KiB mapped for writes; models/ctrl.c); then reads go to the dies, writes to the write
 * buffer (after reading partial slots), trims go to trim.c, and flushes
 * wait for the buffer to drain (ftl.c). On SATA, TRIM and FLUSH are
 * non-queued. Completion (cmd_complete(), from below) is an engine event
 * that calls the host's callback. A plain read or write (drive_submit())
 * takes a short path to the controller: the same checks and steps, without
 * those of zone commands, TRIM, FLUSH and the mapping cache.
 */
#include "models/hostif.h"
#include "models/cmd.h"
#include "models/sched.h"
#include "models/pslc.h"
#include "models/gc.h"
#include "models/ctrl.h"
#include "models/map.h"
#include "models/ftl.h"
#include "models/l2p_cache.h"
#include "models/trim.h"
#include "models/zns.h"
#include "models/fdp.h"

/* The queue as the host sees it (the records are cmd.c's). */
typedef struct HostIf {
    uint32_t inflight;             /* sent to the controller and not completed */
    uint32_t nq;                   /* the non-queued command (SATA TRIM, FLUSH) or NO_IDX */
    bool nq_sent;                  /* it has gone to the controller */
    uint32_t held_head, held_tail; /* commands the host holds behind it */
    DriveDoneFn done;              /* the host's callback */
    void *done_ctx;
    bool quick;                    /* reads and writes may take drive_submit()'s short path
                                    * (no mapping cache; hostif_general_only() clears it) */
    bool warmed;                   /* the host warms its commands' entries (drive_warm()) */
} HostIf;

static HostIf *hostif(const Drive *d) { return drive_part(d, DP_HOSTIF); }

/* A Zone Append whose place in its zone was assigned: on to the buffer. */
static void append_go(void *ctx, uint64_t arg) { ftl_write_arrive(ctx, (uint32_t)arg); }

/* On a zoned drive, a write or zone command is checked against its zone
 * first: one that fails, or an open or close (firmware state only: the
 * drive keeps its buffered data safe from power loss), completes now. A
 * finish waits for the write buffer to reach the NAND (the zone's last
 * program unit partly filled) before its blocks are closed
 * (zns_finished()); a reset unmaps the zone's written part (the TRIM
 * path); an append first passes its zone's append stage. True if the
 * command goes on to the FTL as its op. Out of line: inlined, its zone
 * checks would make every command's arrival save their registers. */
static G_GNUC_NO_INLINE bool zoned_arrive(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    SimTime now = sim_now(drive_engine(d));
    if (!zns_arrive(d, c)) {
        cmd->length = 0;
        cmd_complete(d, c, now);
        return false;
    }
    switch (cmd->zop) {
    case ZOP_OPEN:
    case ZOP_CLOSE:
        cmd_complete(d, c, now);
        return false;
    case ZOP_FINISH:
        ftl_flush_start(d, c);
        return false;
    case ZOP_RESET:
        if (cmd->length == 0) {
            cmd_complete(d, c, now);
            return false;
        }
        cmd->slots = (uint32_t)((cmd->length - 1) / SLOT_SIZE + 1);
        return true;
    case ZOP_APPEND:
        if (drive_params(d)->zns_append_cost == 0)
            return true;
        sim_schedule(drive_engine(d), zns_append_stage(d, c), append_go, d, c);
        return false;
    }
    return true;
}

/* cmd_arrive() for a command on a zoned drive, a TRIM or a FLUSH. */
static G_GNUC_NO_INLINE void arrive_other(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    if (zns_on(d) && (cmd->op == IO_WRITE || cmd->zop != ZOP_NONE) && !zoned_arrive(d, c))
        return;
    switch (cmd->op) {
    case IO_READ:
        ftl_read_start(d, c);
        break;
    case IO_WRITE:
        ftl_write_arrive(d, c);
        break;
    case IO_TRIM:
        trim_start(d, c);
        break;
    case IO_FLUSH:
        ftl_flush_start(d, c);
        break;
    }
}

/* Command c has passed the controller's firmware: on to the FTL. */
static void cmd_arrive(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t c = (uint32_t)arg;
    uint8_t op = cmd_at(d, c)->op;
    if (G_UNLIKELY(zns_on(d) || op > IO_WRITE))
        arrive_other(d, c);
    else if (op == IO_WRITE)
        ftl_write_arrive(d, c);
    else
        ftl_read_start(d, c);
}

/* SATA's DSM TRIM and FLUSH CACHE are non-queued (NCQ) commands: the host
 * sends one only once every queued command has completed, and sends nothing
 * else until it completes. The queued TRIM of SATA 3.1 is not modelled (the
 * Samsung 8xx drives' queued TRIM is disabled by Linux and unused by
 * Windows). NVMe queues every command. */
static bool non_queued(const Drive *d, IoOp op)
{
    return drive_params(d)->interface == HOSTIF_SATA && (op == IO_TRIM || op == IO_FLUSH);
}

/* Command c goes to the controller: its firmware work on a core, then on
 * to the FTL. */
static void dispatch(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    HostIf *h = hostif(d);
    h->inflight++;
    /* the map entry is needed when the command reaches the FTL, microseconds
     * from now: fetch it meanwhile, so random I/O overlaps its cache misses
     * (unless the host asked for it as it chose the command) */
    if (cmd->op <= IO_WRITE && !h->warmed)
        map_prefetch_one(d, cmd->offset / SLOT_SIZE);
    SimTime at = ctrl_run_now(d, drive_params(d)->cmd_cost, CW_SUBMIT);
    /* the map updates follow on a core while the data comes in: they hold
     * the core from the next command, not this one from its transfer */
    if (cmd->op == IO_WRITE && drive_params(d)->page_cost > 0)
        ctrl_run(d, at, (SimTime)cmd->slots * drive_params(d)->page_cost, CW_MAP);
    sim_schedule(drive_engine(d), at, cmd_arrive, d, c);
}

/* Send command c, or hold it behind a non-queued command. */
static void send(Drive *d, uint32_t c)
{
    HostIf *h = hostif(d);
    if (h->nq != NO_IDX) {
        cmd_at(d, c)->next = NO_IDX;
        if (h->held_tail == NO_IDX)
            h->held_head = c;
        else
            cmd_at(d, h->held_tail)->next = c;
        h->held_tail = c;
        return;
    }
    if (!non_queued(d, cmd_at(d, c)->op)) {
        dispatch(d, c);
        return;
    }
    h->nq = c;
    h->nq_sent = h->inflight == 0;
    if (h->nq_sent)
        dispatch(d, c);
}

/* A zone command's own checks (a zoned drive; an append's extent); its
 * record's op: an append is a write, an action takes the TRIM path. */
static bool zone_cmd_ok(const Drive *d, const DriveCmd *c)
{
    uint64_t cap = drive_params(d)->user_capacity;
    g_return_val_if_fail(zns_on(d) && c->zop < ZONE_OPS && c->offset < cap, false);
    g_return_val_if_fail(c->zop != ZOP_APPEND || (c->length > 0 && c->offset + c->length <= cap), false);
    return true;
}

/* Take a record for command c of the host, as op of length bytes, and
 * fill it: every field read before the FTL reaches the command (which sets
 * its times from t_start on, and a write's rmw and merge fields), field by
 * field. A compound literal would clear the whole record first, every
 * command. */
static inline uint32_t cmd_start(Drive *d, const DriveCmd *c, IoOp op, uint64_t length)
{
    uint32_t k = cmd_take(d, op);
    Cmd *cmd = cmd_at(d, k);
    if (op == IO_WRITE) {
        pslc_host_busy(d);
        gc_host_busy(d);
    }
    cmd->tag = c->tag;
    cmd->offset = c->offset;
    cmd->length = length;
    cmd->pending = 0;
    cmd->next = NO_IDX;
    cmd->slots = length > 0 ? (uint32_t)((c->offset + length - 1) / SLOT_SIZE - c->offset / SLOT_SIZE + 1) : 0;
    cmd->map_wait = 0;
    cmd->sent = cmd->landed = 0;
    cmd->op = (uint8_t)op;
    cmd->pid = c->zop == ZOP_NONE ? c->pid : 0;
    cmd->zop = c->zop;
    cmd->status = 0;
    cmd->t_sub = sim_now(drive_engine(d));
    return k;
}

/* The host will submit a command at offset soon, and next (UINT64_MAX:
 * not known) after it. Where next is known, the lines its lookup will read
 * are asked for without waiting on any (its lookup is an I/O away); offset's
 * were asked for by the call that knew it as next. From the first call on,
 * dispatch() leaves the warming to the host. */
void drive_warm(const Drive *d, uint64_t offset, uint64_t next)
{
    uint64_t cap = drive_params(d)->user_capacity;
    hostif(d)->warmed = true;
    if (next < cap)
        map_prefetch_ahead(d, next / SLOT_SIZE);
    else if (offset < cap)
        map_prefetch_one(d, offset / SLOT_SIZE);
}

/* drive_submit() for any command: zone commands, TRIM, FLUSH, a placement
 * identifier, a mapping cache, a command held. */
static G_GNUC_NO_INLINE void submit_any(Drive *d, const DriveCmd *c)
{
    IoOp op = c->zop == ZOP_NONE ? (IoOp)c->op : c->zop == ZOP_APPEND ? IO_WRITE : IO_TRIM;
    uint64_t length = c->zop == ZOP_NONE || c->zop == ZOP_APPEND ? c->length : 0;
    g_return_if_fail(drive_outstanding(d) < drive_queue_limit(d));
    if (c->zop != ZOP_NONE) {
        if (!zone_cmd_ok(d, c))
            return;
    } else {
        g_return_if_fail(c->pid == 0 || c->pid < drive_params_fdp_pids(drive_params(d)));
        g_return_if_fail(!zns_on(d) || op != IO_WRITE || c->pid == 0); /* zones place their own data */
        g_return_if_fail(op == IO_FLUSH || (length > 0 && c->offset + length <= drive_params(d)->user_capacity));
        if (l2p_cache_on(d))
            l2p_host_command(d);
    }
    send(d, cmd_start(d, c, op, length));
}

void drive_submit(Drive *d, const DriveCmd *c)
{
    /* a read or write the host places nowhere, within the drive, with room
     * in the queue and none held, on a drive without a mapping cache: it
     * passes submit_any()'s checks, and goes to the controller at once */
    if (G_LIKELY(c->zop == ZOP_NONE && c->op <= IO_WRITE && c->pid == 0 && hostif(d)->quick &&
                 c->length > 0 && c->offset + c->length <= drive_params(d)->user_capacity &&
                 drive_outstanding(d) < drive_queue_limit(d) && hostif(d)->nq == NO_IDX)) {
        dispatch(d, cmd_start(d, c, (IoOp)c->op, c->length));
        return;
    }
    submit_any(d, c);
}

/* Command c completed: a non-queued command waiting for the queue to drain
 * goes now; one that completed lets the held commands go, in order, up to
 * the next non-queued one. */
static void nq_progress(Drive *d, uint32_t c)
{
    HostIf *h = hostif(d);
    h->inflight--;
    if (h->nq == NO_IDX)
        return;
    if (c != h->nq) {
        if (!h->nq_sent && h->inflight == 0) {
            h->nq_sent = true;
            dispatch(d, h->nq);
        }
        return;
    }
    h->nq = NO_IDX;
    while (h->held_head != NO_IDX && h->nq == NO_IDX) {
        uint32_t next = h->held_head;
        h->held_head = cmd_at(d, next)->next;
        if (h->held_head == NO_IDX)
            h->held_tail = NO_IDX;
        send(d, next);
    }
}

/* A host write completed: FDP's counts, and the range the host wrote. */
static void host_wrote(Drive *d, const Cmd *cmd)
{
    DriveStats *st = drive_counters(d);
    fdp_host_accepted(d, cmd->pid, cmd->length);
    if (st->written_hi == 0 || cmd->offset < st->written_lo)
        st->written_lo = cmd->offset;
    st->written_hi = MAX(st->written_hi, cmd->offset + cmd->length);
}

void drive_restart_written(Drive *d) { drive_counters(d)->written_lo = drive_counters(d)->written_hi = 0; }

static void cmd_done(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t c = (uint32_t)arg;
    Cmd *cmd = cmd_at(d, c);
    if (cmd->status == 0 && (cmd->zop == ZOP_NONE || cmd->zop == ZOP_APPEND)) {
        drive_counters(d)->host_bytes[cmd->op] += cmd->length;
        drive_counters(d)->host_ios[cmd->op]++;
        if (cmd->op == IO_WRITE)
            host_wrote(d, cmd);
    }
    if (cmd->zop == ZOP_FINISH && cmd->status == ZNS_OK)
        zns_finished(d, c);
    DriveCompletion done = {.tag = cmd->tag, .offset = cmd->offset, .status = cmd->status};
    nq_progress(d, c);
    if (cmd_put(d, c)) {
        pslc_host_quiet(d);
        gc_host_quiet(d);
    }
    if (drive_outstanding(d) == 0)
        trim_idle(d);
    HostIf *h = hostif(d);
    if (h->done)
        h->done(h->done_ctx, &done);
}

void drive_set_done(Drive *d, DriveDoneFn fn, void *ctx)
{
    hostif(d)->done = fn;
    hostif(d)->done_ctx = ctx;
}

void hostif_init(Drive *d)
{
    HostIf *h = g_new0(HostIf, 1);
    h->nq = h->held_head = h->held_tail = NO_IDX;
    h->quick = drive_params(d)->l2p_kind == L2P_DRAM; /* l2p_cache_on(), before its init */
    drive_set_part(d, DP_HOSTIF, h);
    cmd_set_handler(d, cmd_done);
}

void hostif_release(Drive *d) { g_free(hostif(d)); }

void hostif_general_only(Drive *d)
{
    hostif(d)->quick = false;
    ftl_general_only(d);
}

bool hostif_check(const Drive *d, char *why, size_t why_len)
{
    const HostIf *h = hostif(d);
    uint32_t held = 0, last = NO_IDX, limit = drive_queue_limit(d);
    for (uint32_t c = h->held_head; c != NO_IDX; c = cmd_at(d, c)->next) {
        CHECK(c < limit && held < limit, "the held list holds record %u after %u commands", c,
              held);
        held++;
        last = c;
    }
    CHECK(last == h->held_tail, "the held list ends at %u, its tail says %u", last, h->held_tail);
    CHECK(held == 0 || h->nq != NO_IDX, "%u commands held behind no non-queued command", held);
    CHECK(h->nq == NO_IDX || non_queued(d, (IoOp)cmd_at(d, h->nq)->op),
          "command %u waits as non-queued, but is a queued one", h->nq);
    CHECK(h->nq == NO_IDX || h->nq_sent || h->inflight > 0,
          "non-queued command %u waits for a queue with nothing in flight", h->nq);
    uint32_t waiting = h->nq != NO_IDX && !h->nq_sent;
    CHECK(h->inflight + held + waiting == drive_outstanding(d),
          "%u commands in flight, %u held, %u waiting to be sent; %u outstanding", h->inflight,
          held, waiting, drive_outstanding(d));
    return true;
}
