/*
 * sched.c - the flash scheduler: one queue per die, by priority.
 *
 * A die runs one operation at a time. When it falls idle it takes, in this
 * order: host reads (and translation-page reads); GC when its free blocks
 * are at or below the hard threshold (host writes to it are blocked
 * meanwhile); dirty translation pages waiting to be written; below the soft
 * threshold, GC owed for the host data written (see below); folding that
 * cannot wait (SLC data no longer foldable with the reserve kept, or active
 * folding owed for host data written, models/pslc.c); a program unit of host
 * data from the write buffer; idle folding once the host has been quiet for
 * fold_idle_delay; the erase of a full block with no valid data left
 * (gc_reclaim_dead); background GC below the soft threshold when nothing else
 * is waiting.
 *
 * Below the soft threshold GC is paced rather than left to the hard stop:
 * every host slot written there costs a free slot, and reclaiming a victim
 * with v of its cap slots valid frees cap - v slots for v moved, so each host
 * slot adds v / (cap - v) slots to the die's GC debt, paid before its next
 * host program. Free space then holds steady under sustained writes instead
 * of falling to the hard threshold and stalling the host for whole victims.
 * An operation reserves its channel transfers when it starts (the bus serves
 * reservations in order) and fires one completion event at its end. With
 * cache read a read holds the die only until its last round reaches the
 * cache registers and completes by its own event when the data is out; a
 * read queued by then starts sensing at once, anything else waits for the
 * cache registers to empty (OP_READ_OUT).
 */
#include "models/ftl_impl.h"

static void die_done(void *ctx, uint64_t arg);

/* The activity an operation counts as. */
static DieWork work_of(uint8_t op)
{
    switch (op) {
    case OP_PROG_HOST:
        return WORK_HOST;
    case OP_GC_COPY:
        return WORK_GC;
    case OP_FOLD:
        return WORK_FOLD;
    case OP_ERASE:
        return WORK_ERASE;
    case OP_MAP_PROG:
        return WORK_MAP;
    default: /* OP_READ, and OP_READ_OUT: data still leaving the cache registers */
        return WORK_READ;
    }
}

/* The die's operation in progress is counted from acct_from to upto, the
 * part in its suspension window [susp_from, susp_until) as reads (the
 * window holds the suspend overhead and the reads served in it); an idle
 * die counts nothing. */
void sched_account(Drive *d, uint32_t i, SimTime upto)
{
    Die *die = &d->die[i];
    SimTime from = die->acct_from;
    if (upto <= from)
        return;
    die->acct_from = upto;
    if (die->op == OP_NONE)
        return;
    SimTime s0 = MAX(from, die->susp_from), s1 = MIN(upto, die->susp_until);
    SimTime susp = s1 > s0 ? s1 - s0 : 0;
    d->st.die_busy_ns[WORK_READ] += susp;
    d->st.die_busy_ns[work_of(die->op)] += upto - from - susp;
}

void drive_account(Drive *d)
{
    SimTime now = sim_now(d->eng);
    for (uint32_t i = 0; i < d->dies; i++)
        sched_account(d, i, now);
    d->st.buf_held_bytes = (uint64_t)d->ring_live * SLOT_SIZE;
}

void sched_program(Drive *d, uint32_t i, uint8_t op, uint32_t arg, SimTime in, uint64_t bytes,
                   CellMode m)
{
    Die *die = &d->die[i];
    SimTime t = d->p.timing[m].t_prog;
    die->pass2_bytes = d->p.timing[m].two_pass ? bytes : 0;
    if (die->pass2_bytes) {
        die->pass2_time = t - t / 2;
        t /= 2;
    }
    sched_die_op(d, i, op, arg, in + t);
}

void sched_die_op(Drive *d, uint32_t i, uint8_t op, uint32_t arg, SimTime end)
{
    Die *die = &d->die[i];
    sched_account(d, i, sim_now(d->eng));
    die->op = op;
    die->op_arg = arg;
    die->busy_until = end;
    sim_schedule(d->eng, end, die_done, d, i | (uint64_t)die->done_gen << 32);
}

static void read_done(Drive *d, uint32_t r);
static void read_out_done(void *ctx, uint64_t arg);

/* Sense the rounds of read op r on die i from `start`, with the cache read
 * commands: a round's data moves from the page registers to the cache
 * registers once the previous round's (or previous op's) data has left
 * them, and from then on the die senses the next round while the channel
 * carries this one. Returns when the die's array is free again (the last
 * round has reached the cache registers); *out is when its data is out. */
static SimTime cached_rounds(Drive *d, uint32_t i, SimTime start, const ReadOp *ro, SimTime *out)
{
    uint32_t rounds = (ro->pages + d->planes - 1) / d->planes;
    SimTime t_read = d->p.timing[ro->mode].t_read;
    SimTime s = start, prev = d->die[i].out_end;
    for (uint32_t k = 0; k < rounds; k++) {
        uint64_t bytes = (uint64_t)(ro->slots * (k + 1) / rounds - ro->slots * k / rounds) * SLOT_SIZE;
        SimTime sensed = s + t_read;
        SimTime copy = sensed > prev ? sensed : prev;
        s = nand_channel_start(d, i, copy); /* the page registers free up as it begins */
        prev = nand_channel_xfer(d, i, copy, bytes);
    }
    *out = prev;
    return s;
}

static void start_read(Drive *d, uint32_t i)
{
    Die *die = &d->die[i];
    uint32_t r = die->rd_head;
    ReadOp *ro = &d->rops[r];
    die->rd_head = ro->next;
    if (die->rd_head == NO_IDX)
        die->rd_tail = NO_IDX;
    ro->started = sim_now(d->eng);
    d->st.nand_read_bytes += (uint64_t)ro->slots * SLOT_SIZE;
    if (d->p.cache_read) {
        SimTime out;
        SimTime free_at = cached_rounds(d, i, sim_now(d->eng), ro, &out);
        die->out_end = out;
        sim_schedule(d->eng, out, read_out_done, d, r);
        sched_die_op(d, i, OP_READ, NO_IDX, free_at);
        return;
    }
    /* the planes of a die read in parallel: pages pair up across planes */
    uint32_t rounds = (ro->pages + d->planes - 1) / d->planes;
    SimTime sensed = sim_now(d->eng) + (SimTime)rounds * d->p.timing[ro->mode].t_read;
    SimTime end = nand_channel_xfer(d, i, sensed, (uint64_t)ro->slots * SLOT_SIZE);
    sched_die_op(d, i, OP_READ, r, end);
}

/* Erased blocks die k can still fill with host data: its free list and its
 * static SLC blocks. Counting both keeps the dies in step through the
 * static part of the cache as well: balanced on the free list alone, the
 * dies that the channels happen to favour used up their static blocks
 * tens of blocks ahead of the others, and then had to wait for them. */
static uint32_t die_room(const Drive *d, uint32_t k)
{
    return d->die[k].nfree + d->die[k].nsfree;
}

/* Most room any die has. */
static uint32_t max_room(const Drive *d)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < d->dies; k++)
        m = MAX(m, die_room(d, k));
    return m;
}

/* Program one unit of buffered host data on die i, if the buffer has one and
 * the die has room for it without eating into the GC reserve. Units go to
 * whichever die is free first, but a die opens a new block for host data
 * only while it has nearly as much room (erased blocks, static SLC ones
 * included) as any other (within
 * BALANCE_SLACK), so the dies fill evenly and a die that fell behind (busy
 * with GC, or slower on a crowded channel) is not overtaken by the others
 * until the drive is full. The slack lets dies run a few blocks apart; held
 * to one block they wait on each other at every block boundary, which with
 * small SLC blocks costs a tenth of the throughput. */
#define BALANCE_SLACK 4
static bool start_host_program(Drive *d, uint32_t i)
{
    Die *die = &d->die[i];
    if (d->ring_live == 0)
        return false; /* before asking the cache: with no data it must not decide exhaustion */
    int stream = pslc_host_stream(d, i);
    CellMode mode = stream == STREAM_HOST ? d->native : CELL_SLC;
    uint32_t unit = d->unit_slots[mode];
    if (!ftl_unit_ready(d, unit))
        return false;
    uint32_t b = die->open[stream];
    if (b == NO_BLOCK) {
        if (die_room(d, i) + BALANCE_SLACK < max_room(d))
            return false; /* let the other dies catch up */
        if (stream == STREAM_SSLC)
            b = nand_take_static(d, i);
        else if (die->nfree > d->p.gc_hard_blocks)
            b = nand_take_free(d, i, mode);
        if (b == NO_BLOCK)
            return false;
        die->open[stream] = b;
    }
    uint32_t cap = nand_block_capacity(d, b);
    uint32_t room = cap - d->blk_wp[b];
    uint32_t n = ftl_take_unit(d, unit < room ? unit : room);
    uint32_t base = b * d->slots_per_block;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t lpn = d->stage[k];
        uint32_t slot = base + d->blk_wp[b]++;
        ftl_map(d, lpn, slot);
        if (d->place_hook)
            d->place_hook(d->place_ctx, lpn, slot, NO_SLOT);
    }
    if (d->blk_wp[b] == cap) {
        d->blk_state[b] = BLK_FULL;
        d->blk_stamp[b] = sim_now(d->eng);
        die->open[stream] = NO_BLOCK;
    }
    uint64_t bytes = (uint64_t)n * SLOT_SIZE;
    SimTime in = nand_channel_xfer(d, i, sim_now(d->eng), bytes);
    d->st.nand_write_bytes[CAUSE_HOST] += bytes;
    if (mode == CELL_SLC && d->native != CELL_SLC)
        d->st.host_slc_bytes += bytes;
    pslc_host_programmed(d, i, stream, n);
    sched_program(d, i, OP_PROG_HOST, n, in, bytes, mode);
    return true;
}

void sched_kick(Drive *d, uint32_t i)
{
    Die *die = &d->die[i];
    if (die->op != OP_NONE)
        return;
    if (die->rd_head != NO_IDX) {
        start_read(d, i);
        return;
    }
    if (die->out_end > sim_now(d->eng)) {
        /* the cache registers still hold a read's data: other operations
         * wait for it to leave, a read arriving meanwhile starts at once */
        sched_die_op(d, i, OP_READ_OUT, 0, die->out_end);
        return;
    }
    if (gc_needed(d, i, true)) {
        if (gc_step(d, i))
            return;
    }
    if (d->l2pc && l2p_flush_step(d, i))
        return;
    bool paced = die->nfree < d->p.gc_soft_blocks;
    if (paced && die->gc_debt > 0 && gc_step(d, i))
        return;
    if (d->has_cache) {
        if (pslc_fold_forced(d, i) && fold_step(d, i, true, true))
            return;
        if (die->fold_credit > 0 && pslc_fold_active(d, i) && fold_step(d, i, false, die->exhausted))
            return;
    }
    if (start_host_program(d, i)) {
        if (paced)
            die->gc_debt += die->op_arg * die->gc_ratio;
        return;
    }
    if (d->idle_fold && pslc_slc_blocks(d, i) > 0 && fold_step(d, i, false, true))
        return;
    if (die->ndead > 0 && gc_reclaim_dead(d, i))
        return;
    if (gc_needed(d, i, false))
        gc_step(d, i);
}

/* Offer buffered data to every idle die, starting after the last one used
 * so that successive units stripe over channels, then CEs, then dies. */
void sched_kick_all(Drive *d)
{
    for (uint32_t k = 0; k < d->dies; k++) {
        uint32_t i = (d->rr_die + k) % d->dies;
        if (d->die[i].op == OP_NONE) {
            sched_kick(d, i);
            if (d->die[i].op == OP_PROG_HOST)
                d->rr_die = (i + 1) % d->dies;
        }
    }
}

/* Read op r has its data out: free it and tell whoever asked (a host
 * command, or the mapping cache for a translation page). */
static void read_done(Drive *d, uint32_t r)
{
    uint32_t cmd = d->rops[r].cmd;
    if (!(cmd & ROP_MAP)) /* the last to end decides the command's wait */
        d->cmds[cmd].piece_wait = d->rops[r].started - d->rops[r].queued;
    d->rops[r].next = d->rop_free;
    d->rop_free = r;
    if (cmd & ROP_MAP)
        l2p_read_done(d, cmd & ~ROP_MAP);
    else
        ftl_read_piece_done(d, cmd);
}

static void read_out_done(void *ctx, uint64_t arg)
{
    read_done(ctx, (uint32_t)arg);
}

/* A host read that finds its die erasing or programming, on a part that can
 * suspend that operation: the operation stops, the read senses and moves its
 * data out, and the operation resumes, finishing later by the read's die
 * time plus the suspend and resume overhead. */
#define SUSPEND_OVERHEAD (20 * SIM_US) /* E: suspend + resume latency, tens of us on 3D NAND */

static bool suspendable(const Drive *d, uint8_t op)
{
    switch (op) {
    case OP_ERASE:
        return d->p.erase_suspend;
    case OP_PROG_HOST:
    case OP_GC_COPY:
    case OP_FOLD:
    case OP_MAP_PROG:
        return d->p.program_suspend;
    default:
        return false;
    }
}

static bool read_suspending(Drive *d, uint32_t i, uint32_t r)
{
    Die *die = &d->die[i];
    if (!suspendable(d, die->op))
        return false;
    ReadOp *ro = &d->rops[r];
    uint32_t rounds = (ro->pages + d->planes - 1) / d->planes;
    SimTime now = sim_now(d->eng);
    /* Reads during one suspension go one at a time, as on an idle die: a
     * read arriving while another still has the die starts at its end and
     * pays no second suspend. */
    bool chained = die->susp_until > now;
    sched_account(d, i, now); /* the suspended operation's time so far */
    if (!chained)
        die->susp_from = now;
    SimTime start = chained ? die->susp_until : now + SUSPEND_OVERHEAD;
    ro->started = start;
    SimTime sensed = start + (SimTime)rounds * d->p.timing[ro->mode].t_read;
    SimTime end = nand_channel_xfer(d, i, sensed, (uint64_t)ro->slots * SLOT_SIZE);
    d->st.nand_read_bytes += (uint64_t)ro->slots * SLOT_SIZE;
    sim_schedule(d->eng, end, read_out_done, d, r);
    /* the suspended operation ends later by the die time the read took,
     * plus the suspend and resume overheads once per suspension */
    die->busy_until += (end - (chained ? die->susp_until : now)) + (chained ? 0 : SUSPEND_OVERHEAD);
    die->susp_until = end;
    die->done_gen++; /* the completion already scheduled is now stale */
    sim_schedule(d->eng, die->busy_until, die_done, d, i | (uint64_t)die->done_gen << 32);
    return true;
}

void sched_queue_read(Drive *d, uint32_t i, uint32_t r)
{
    Die *die = &d->die[i];
    d->rops[r].queued = sim_now(d->eng);
    if (read_suspending(d, i, r))
        return;
    if (die->op == OP_READ_OUT) {
        /* only waiting for data to leave the cache registers: sense now */
        sched_account(d, i, sim_now(d->eng));
        die->op = OP_NONE;
        die->done_gen++;
    }
    d->rops[r].next = NO_IDX;
    if (die->rd_tail == NO_IDX)
        die->rd_head = r;
    else
        d->rops[die->rd_tail].next = r;
    die->rd_tail = r;
    sched_kick(d, i);
}

static void die_done(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t i = (uint32_t)arg;
    Die *die = &d->die[i];
    if ((uint32_t)(arg >> 32) != die->done_gen)
        return; /* moved by a suspend, or a wait for data out cut short */
    if (die->pass2_bytes) {
        /* the coarse pass is done: the data moves in again for the fine one */
        SimTime in = nand_channel_xfer(d, i, sim_now(d->eng), die->pass2_bytes);
        die->pass2_bytes = 0;
        die->busy_until = in + die->pass2_time;
        sim_schedule(d->eng, die->busy_until, die_done, d, i | (uint64_t)die->done_gen << 32);
        return;
    }
    uint8_t op = die->op;
    uint32_t a = die->op_arg;
    sched_account(d, i, sim_now(d->eng));
    die->op = OP_NONE;
    switch (op) {
    case OP_READ:
        if (a != NO_IDX)
            read_done(d, a); /* without cache read the op ends with its data out */
        break;
    case OP_PROG_HOST:
        ftl_program_done(d, a);
        break;
    case OP_ERASE:
        nand_put_free(d, a);
        /* a freed block may unblock host programs waiting on the reserve */
        sched_kick_all(d);
        break;
    default:
        break;
    }
    sched_kick(d, i);
}
