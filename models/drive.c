/*
 * drive.c - the Drive object: creation, command intake and completion.
 *
 * A command first costs controller firmware time (per command, and per
 * 4 KiB mapped for writes); then reads go to the dies, writes to the write
 * buffer (after reading partial slots), trims go to trim.c, and flushes
 * wait for the buffer to drain. With a mapping cache, reads (and writes
 * that merge partial slots) first wait for their translation pages
 * (l2p_cache.c). Completion is an engine event that calls the host's
 * callback.
 */
#include "models/ftl_impl.h"

#include "models/bigmem.h"

#include <string.h>

const char *io_op_name(IoOp op)
{
    static const char *const names[] = {"read", "write", "trim", "flush"};
    return op < IO_OPS ? names[op] : "?";
}

const char *die_work_name(DieWork w)
{
    static const char *const names[] = {"read", "host_program", "gc", "fold", "erase", "map"};
    return (unsigned)w < G_N_ELEMENTS(names) ? names[w] : "?";
}

const char *read_part_name(ReadPart p)
{
    static const char *const names[] = {"front", "map", "die_wait", "nand", "back"};
    return (unsigned)p < G_N_ELEMENTS(names) ? names[p] : "?";
}

const char *write_part_name(WritePart p)
{
    static const char *const names[] = {"front", "merge", "buffer_wait", "data"};
    return (unsigned)p < G_N_ELEMENTS(names) ? names[p] : "?";
}

const char *drive_phase_name(DrivePhase p)
{
    static const char *const names[] = {"idle", "pslc", "folding", "native", "gc", "read"};
    return p <= PHASE_READ ? names[p] : "?";
}

Drive *drive_new(SimEngine *engine, const DriveParams *p, uint64_t seed)
{
    Drive *d = g_new0(Drive, 1);
    d->eng = engine;
    d->p = *p;
    sim_rng_init(&d->rng, seed, 0x64726976ULL);
    nand_init(d);
    g_return_val_if_fail(d->nslots < BUF_MARK, (drive_free(d), NULL));
    d->nlpn = p->user_capacity / SLOT_SIZE;
    d->l2p = bigmem_alloc_filled(d->nlpn * sizeof(uint32_t), 0xff);
    d->p2l = bigmem_alloc_filled(d->nslots * sizeof(uint32_t), 0xff);
    if (!d->l2p || !d->p2l) {
        drive_free(d);
        return NULL;
    }

    d->queue_limit = p->queue_depth * (p->interface == HOSTIF_NVME ? p->queue_count : 1);
    d->cmds = g_new0(Cmd, d->queue_limit);
    for (uint32_t i = 0; i < d->queue_limit; i++)
        d->cmds[i].next = i + 1 < d->queue_limit ? i + 1 : NO_IDX;
    d->cmd_free = 0;
    d->nq = d->held_head = d->held_tail = NO_IDX;

    uint32_t max_unit = 0;
    for (int m = CELL_SLC; m <= CELL_QLC; m++)
        max_unit = MAX(max_unit, d->unit_slots[m]);
    /* the buffer holds at least two program units, so one can fill while
     * the other programs */
    d->buf_cap = MAX(p->write_buffer / SLOT_SIZE, 2 * (uint64_t)max_unit);
    d->ring_cap = (uint32_t)d->buf_cap;
    d->ring = g_new(uint32_t, d->ring_cap);
    d->stage = g_new(uint32_t, max_unit);
    d->wait_head = d->wait_tail = d->flush_head = NO_IDX;

    d->rop_cap = MAX(64u, d->queue_limit * 4);
    d->rops = g_new(ReadOp, d->rop_cap);
    for (uint32_t i = 0; i < d->rop_cap; i++)
        d->rops[i].next = i + 1 < d->rop_cap ? i + 1 : NO_IDX;
    d->rop_free = 0;

    d->st.pslc_first_exhausted = UINT64_MAX;
    pslc_init(d);
    l2p_cache_init(d);
    trim_init(d);
    return d;
}

uint64_t drive_memory_bytes(const DriveParams *p)
{
    uint64_t blocks = drive_params_blocks(p);
    uint64_t lpns = p->user_capacity / SLOT_SIZE;
    uint64_t slots = drive_params_raw_capacity(p) / SLOT_SIZE;
    /* l2p and p2l; per block: state, mode, write pointer, valid count,
     * erases, stamp, dead flag, free lists, mapping kind (about 40 bytes,
     * rounded up); the mapping cache's per-translation-page arrays */
    uint64_t bytes = lpns * 4 + slots * 4 + blocks * 64;
    if (p->l2p_kind != L2P_DRAM)
        bytes += drive_params_l2p_bytes(p) / p->page_size * 48;
    return bytes + p->write_buffer + (16u << 20); /* the buffer's ring, queues, the rest */
}

void drive_free(Drive *d)
{
    if (!d)
        return;
    trim_release(d);
    l2p_cache_release(d);
    nand_release(d);
    bigmem_free(d->l2p, d->nlpn * sizeof(uint32_t));
    bigmem_free(d->p2l, d->nslots * sizeof(uint32_t));
    g_free(d->cmds);
    g_free(d->ring);
    g_free(d->stage);
    g_free(d->rops);
    g_free(d);
}

void drive_set_done(Drive *d, DriveDoneFn fn, void *ctx)
{
    d->done = fn;
    d->done_ctx = ctx;
}

uint32_t drive_queue_limit(const Drive *d) { return d->queue_limit; }
uint32_t drive_outstanding(const Drive *d) { return d->outstanding; }
uint64_t drive_capacity(const Drive *d) { return d->p.user_capacity; }
const DriveParams *drive_params(const Drive *d) { return &d->p; }
const DriveStats *drive_stats(const Drive *d) { return &d->st; }
bool drive_quiescent(const Drive *d) { return d->outstanding == 0; }
uint64_t drive_slots(const Drive *d) { return d->nslots; }

static void wear_add(DriveWearGroup *g, uint32_t erases)
{
    if (g->blocks == 0 || erases < g->min)
        g->min = erases;
    if (erases > g->max)
        g->max = erases;
    g->blocks++;
    g->erases += erases;
}

void drive_wear(const Drive *d, DriveWear *w)
{
    memset(w, 0, sizeof(*w));
    for (uint32_t b = 0; b < d->nblocks; b++)
        wear_add(nand_is_static(d, b) ? &w->static_slc : &w->pool, d->blk_erases[b]);
}

uint32_t drive_lookup(const Drive *d, uint64_t lpn)
{
    g_return_val_if_fail(lpn < d->nlpn, DRIVE_UNMAPPED);
    uint32_t v = d->l2p[lpn];
    if (v == NO_SLOT)
        return DRIVE_UNMAPPED;
    return v >= BUF_MARK ? DRIVE_BUFFERED : v;
}

void drive_set_place_hook(Drive *d, DrivePlaceFn fn, void *ctx)
{
    d->place_hook = fn;
    d->place_ctx = ctx;
}

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
    return d->p.interface == HOSTIF_SATA && (op == IO_TRIM || op == IO_FLUSH);
}

static void dispatch(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    d->inflight++;
    SimTime cost = d->p.cmd_cost;
    if (cmd->op == IO_WRITE)
        cost += (SimTime)cmd->slots * d->p.page_cost;
    /* the map entry is needed when the command reaches the FTL, microseconds
     * from now: fetch it meanwhile, so random I/O overlaps its cache misses */
    if (cmd->op == IO_WRITE || cmd->op == IO_READ)
        __builtin_prefetch(&d->l2p[cmd->offset / SLOT_SIZE]);
    SimTime at = hostif_controller(d, cost);
    sim_schedule(d->eng, at, cmd_arrive, d, c);
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
    g_return_if_fail(op == IO_FLUSH || (length > 0 && offset + length <= d->p.user_capacity));
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
                 .t_sub = sim_now(d->eng)};
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
    d->st.host_bytes[cmd->op] += cmd->length;
    d->st.host_ios[cmd->op]++;
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

void drive_complete_now(Drive *d, uint32_t c) { cmd_done(d, c); }

void drive_complete(Drive *d, uint32_t c, SimTime at)
{
    sim_schedule(d->eng, at, cmd_done, d, c);
}
