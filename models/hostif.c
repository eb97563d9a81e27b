/*
 * hostif.c - the host interface: commands from submission to completion.
 *
 * A command first costs controller firmware time (per command, and per
 * 4 KiB mapped for writes); then reads go to the dies, writes to the write
 * buffer (after reading partial slots), trims go to trim.c, and flushes
 * wait for the buffer to drain (ftl.c). On SATA, TRIM and FLUSH are
 * non-queued. Completion (cmd_complete(), from below) is an engine event
 * that calls the host's callback.
 */
#include "models/ftl_impl.h"

static void cmd_arrive(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t c = (uint32_t)arg;
    Cmd *cmd = &d->cmds[c];
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

/* SATA's DSM TRIM and FLUSH CACHE are non-queued (NCQ) commands: the host
 * sends one only once every queued command has completed, and sends nothing
 * else until it completes. The queued TRIM of SATA 3.1 is not modelled (the
 * Samsung 8xx drives' queued TRIM is disabled by Linux and unused by
 * Windows). NVMe queues every command. */
static bool non_queued(const Drive *d, IoOp op)
{
    return drive_params(d)->interface == HOSTIF_SATA && (op == IO_TRIM || op == IO_FLUSH);
}

static void dispatch(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    d->inflight++;
    SimTime cost = drive_params(d)->cmd_cost;
    if (cmd->op == IO_WRITE)
        cost += (SimTime)cmd->slots * drive_params(d)->page_cost;
    /* the map entry is needed when the command reaches the FTL, microseconds
     * from now: fetch it meanwhile, so random I/O overlaps its cache misses */
    if (cmd->op == IO_WRITE || cmd->op == IO_READ)
        __builtin_prefetch(&d->l2p_tab[cmd->offset / SLOT_SIZE]);
    SimTime at = link_controller(d, cost);
    sim_schedule(drive_engine(d), at, cmd_arrive, d, c);
}

/* Send command c, or hold it behind a non-queued command. */
static void send(Drive *d, uint32_t c)
{
    if (d->nq != NO_IDX) {
        d->cmds[c].next = NO_IDX;
        if (d->held_tail == NO_IDX)
            d->held_head = c;
        else
            d->cmds[d->held_tail].next = c;
        d->held_tail = c;
        return;
    }
    if (!non_queued(d, d->cmds[c].op)) {
        dispatch(d, c);
        return;
    }
    d->nq = c;
    d->nq_sent = d->inflight == 0;
    if (d->nq_sent)
        dispatch(d, c);
}

void drive_submit(Drive *d, IoOp op, uint64_t offset, uint64_t length, uint64_t tag)
{
    g_return_if_fail(d->cmd_free != NO_IDX);
    g_return_if_fail(op == IO_FLUSH || (length > 0 && offset + length <= drive_params(d)->user_capacity));
    if (d->l2pc)
        l2p_host_command(d);
    uint32_t c = d->cmd_free;
    Cmd *cmd = &d->cmds[c];
    d->cmd_free = cmd->next;
    d->outstanding++;
    if (op == IO_WRITE) {
        d->writes_outstanding++;
        pslc_host_busy(d);
    }
    *cmd = (Cmd){.tag = tag,
                 .offset = offset,
                 .length = length,
                 .op = (uint8_t)op,
                 .next = NO_IDX,
                 .t_sub = sim_now(drive_engine(d))};
    if (length > 0)
        cmd->slots = (uint32_t)((offset + length - 1) / SLOT_SIZE - offset / SLOT_SIZE + 1);
    send(d, c);
}

/* Command c completed: a non-queued command waiting for the queue to drain
 * goes now; one that completed lets the held commands go, in order, up to
 * the next non-queued one. */
static void nq_progress(Drive *d, uint32_t c)
{
    d->inflight--;
    if (d->nq == NO_IDX)
        return;
    if (c != d->nq) {
        if (!d->nq_sent && d->inflight == 0) {
            d->nq_sent = true;
            dispatch(d, d->nq);
        }
        return;
    }
    d->nq = NO_IDX;
    while (d->held_head != NO_IDX && d->nq == NO_IDX) {
        uint32_t h = d->held_head;
        d->held_head = d->cmds[h].next;
        if (d->held_head == NO_IDX)
            d->held_tail = NO_IDX;
        send(d, h);
    }
}

static void cmd_done(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t c = (uint32_t)arg;
    Cmd *cmd = &d->cmds[c];
    drive_counters(d)->host_bytes[cmd->op] += cmd->length;
    drive_counters(d)->host_ios[cmd->op]++;
    uint64_t tag = cmd->tag;
    nq_progress(d, c);
    cmd->next = d->cmd_free;
    d->cmd_free = c;
    d->outstanding--;
    if (cmd->op == IO_WRITE && --d->writes_outstanding == 0)
        pslc_host_quiet(d);
    if (d->outstanding == 0)
        trim_idle(d);
    if (d->done)
        d->done(d->done_ctx, tag);
}

uint32_t drive_outstanding(const Drive *d) { return d->outstanding; }

void hostif_init(Drive *d)
{
    d->cmd_done = cmd_done;
}
