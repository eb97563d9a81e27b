/*
 * sched.c - the flash scheduler: one queue per die, by priority.
 *
 * A die runs one operation at a time. When it falls idle it takes its host
 * and translation-page reads first, then asks the registered sources of
 * work in rank order (models/sched_rank.h has the order and why). Each
 * operation carries its completion, called when it ends; the scheduler
 * only counts its die time by activity and applies the suspend rules.
 * An operation reserves its channel transfers when it starts (the bus serves
 * reservations in order) and fires one completion event at its end. With
 * cache read a read holds the die only until its last round reaches the
 * cache registers and completes by its own event when the data is out; a
 * read queued by then starts sensing at once, anything else waits for the
 * cache registers to empty. With [controller] max_program_dies at most that
 * many dies program or erase at once: while they do, an idle die serves only
 * its reads, and the end of one of theirs offers work to every idle die.
 * A source's any function that is watched (GC's) is asked again, once it
 * has said no, only after its owner wakes it (sched_wake()).
 */
#include "models/chan.h"
#include "models/sched.h"

#define IDLE 0xff /* DieOp.work of an idle die */
#define MAX_TRIES 16
#define MAX_CLIENTS 4

/* A read of some pages of one die on behalf of a client. */
typedef struct ReadOp {
    uint32_t arg;    /* the client's */
    uint32_t pages;  /* distinct NAND pages */
    uint32_t slots;  /* 4 KiB units to move over the channel */
    uint32_t next;
    uint8_t client;
    SimTime t_round; /* ns of sensing per round: tR of the slowest page type read */
    SimTime t_retry; /* ns of read retries, added to its first round */
    SimTime queued;  /* put on its die's queue */
    SimTime started; /* the die began it (sensing, or the suspend that lets it in) */
} ReadOp;

typedef struct DieOp {
    SimTime busy_until;   /* ns; the die runs one operation at a time */
    uint32_t done_gen;    /* generation of its completion event; a read suspending an erase moves it */
    SimTime susp_until;   /* reads served during a suspended program or erase hold the die until */
    SimTime susp_from;    /* the suspension that ends at susp_until began at */
    SimTime acct_from;    /* die time before this is in DriveStats.die_busy_ns */
    uint64_t pass2_bytes; /* two-pass program in its first pass: data to move in for the second */
    SimTime pass2_time;   /* and the second pass's share of tPROG */
    SimTime out_end;      /* cache read: the last read's data leaves the cache register at */
    uint8_t work;         /* DieWork in progress, IDLE if none */
    bool out_wait;        /* only waiting for a read's data to leave the cache registers */
    SchedDoneFn done;     /* completion of the operation in progress, or NULL */
    void *done_ctx;
    uint32_t done_arg;
    uint32_t rd_head, rd_tail; /* FIFO of ReadOp indices */
} DieOp;

typedef struct SchedTry {
    int rank;
    SchedTryFn fn;
    SchedAnyFn any;
    void *ctx;
    bool stripes;
    bool watch;       /* its any function is asked again only when woken (sched_watch()) */
    uint32_t any_idx; /* its any function's place in Sched.anys */
} SchedTry;

typedef struct SchedClient {
    SchedReadFn fn;
    void *ctx;
} SchedClient;

struct Sched {
    DieOp *die;
    ReadOp *rops; /* pool, grown to the run's peak */
    uint32_t rop_cap, rop_free;
    uint32_t rr_die; /* sched_kick_all starts here */
    uint32_t nidle;  /* dies with no operation in progress */
    uint32_t nprog;  /* dies programming or erasing ([controller] max_program_dies) */
    uint64_t *idle;  /* bit i % 64 of word i / 64: die i has none */
    uint64_t *wake;  /* dies that fell idle with reads queued or data in the
                        cache registers: a kick starts something on them
                        even when no source has work (a superset) */
    SchedTry tries[MAX_TRIES];
    uint32_t ntries;
    /* the tries' distinct any functions (with their ctx), each with the
     * tries it answers for (bit k: tries[k]), and the tries without one:
     * offer_mask() asks each once (GC's three sources share one) */
    SchedTry anys[MAX_TRIES];
    uint32_t any_mask[MAX_TRIES];
    uint32_t nanys, always;
    uint32_t watched; /* anys (bit j: anys[j]) asked again only when woken (sched_watch()) */
    uint32_t ask;     /* anys to ask: those not watched, and the watched ones
                         that have not said no since sched_wake() */
    SchedClient clients[MAX_CLIENTS];
    uint32_t nclients;
    SimRng rng; /* read retries ([timing.<mode>] read_retry_rate) */
};

static Sched *sched(const Drive *d) { return drive_part(d, DP_SCHED); }

static void die_done(void *ctx, uint64_t arg);

/* Whether work programs or erases the die's array (what max_program_dies
 * counts): anything but a read or no work. */
static inline bool writing(uint8_t work)
{
    return work != IDLE && work != WORK_READ;
}

/* Every change of a die's work goes through here, which keeps the counts and
 * the bitmaps of idle dies that let sched_kick_all visit only those. */
static inline void set_work(Sched *s, DieOp *die, uint8_t work, SimTime now)
{
    uint32_t i = (uint32_t)(die - s->die);
    s->nidle += (work == IDLE) - (die->work == IDLE);
    s->nprog += writing(work) - writing(die->work);
    if (work == IDLE) {
        s->idle[i / 64] |= (uint64_t)1 << (i % 64);
        if (die->rd_head != NO_IDX || die->out_end > now)
            s->wake[i / 64] |= (uint64_t)1 << (i % 64);
    } else {
        s->idle[i / 64] &= ~((uint64_t)1 << (i % 64));
    }
    die->work = work;
}

void sched_init(Drive *d, uint64_t seed)
{
    Sched *s = g_new0(Sched, 1);
    s->die = g_new0(DieOp, drive_geom(d)->dies);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        s->die[i].work = IDLE;
        s->die[i].rd_head = s->die[i].rd_tail = NO_IDX;
    }
    s->nidle = drive_geom(d)->dies;
    s->idle = g_new0(uint64_t, (drive_geom(d)->dies + 63) / 64);
    s->wake = g_new0(uint64_t, (drive_geom(d)->dies + 63) / 64);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        s->idle[i / 64] |= (uint64_t)1 << (i % 64);
    s->rop_cap = (uint32_t)(sched_table_bytes(drive_queue_limit(d)) / sizeof(ReadOp));
    s->rops = g_new(ReadOp, s->rop_cap);
    for (uint32_t i = 0; i < s->rop_cap; i++)
        s->rops[i].next = i + 1 < s->rop_cap ? i + 1 : NO_IDX;
    sim_rng_init(&s->rng, seed, 0x7265747279ULL);
    drive_set_part(d, DP_SCHED, s);
}

uint64_t sched_table_bytes(uint64_t queue_limit)
{
    return MAX(64u, queue_limit * 4) * sizeof(ReadOp);
}

void sched_release(Drive *d)
{
    if (!sched(d))
        return;
    g_free(sched(d)->die);
    g_free(sched(d)->idle);
    g_free(sched(d)->wake);
    g_free(sched(d)->rops);
    g_free(sched(d));
    drive_set_part(d, DP_SCHED, NULL);
}

void sched_add(Drive *d, int rank, SchedTryFn fn, SchedAnyFn any, void *ctx, bool stripes)
{
    Sched *s = sched(d);
    g_return_if_fail(s->ntries < MAX_TRIES);
    uint32_t k = s->ntries++;
    for (; k > 0 && s->tries[k - 1].rank > rank; k--)
        s->tries[k] = s->tries[k - 1];
    s->tries[k] = (SchedTry){.rank = rank, .fn = fn, .any = any, .ctx = ctx, .stripes = stripes};
    for (uint32_t j = 0; j < s->ntries; j++) /* a watched any function stays watched */
        s->tries[k].watch |= j != k && any && s->tries[j].any == any && s->tries[j].ctx == ctx &&
                             s->tries[j].watch;
    /* the tries moved: their any functions' masks are made again, and
     * each is asked at its next offer */
    s->nanys = s->always = s->watched = 0;
    s->ask = ~0u;
    for (k = 0; k < s->ntries; k++) {
        const SchedTry *t = &s->tries[k];
        uint32_t j = 0;
        while (j < s->nanys && (s->anys[j].any != t->any || s->anys[j].ctx != t->ctx))
            j++;
        if (!t->any) {
            s->always |= 1u << k;
            continue;
        }
        if (j == s->nanys) {
            s->anys[s->nanys] = *t;
            s->any_mask[s->nanys++] = 0;
        }
        s->any_mask[j] |= 1u << k;
        s->watched |= (uint32_t)t->watch << j;
        s->tries[k].any_idx = j;
    }
}

/* The place in s->anys of any with ctx, or nanys if not there. */
static uint32_t any_index(const Sched *s, SchedAnyFn any, void *ctx)
{
    uint32_t j = 0;
    while (j < s->nanys && (s->anys[j].any != any || s->anys[j].ctx != ctx))
        j++;
    return j;
}

void sched_watch(Drive *d, SchedAnyFn any, void *ctx)
{
    Sched *s = sched(d);
    uint32_t j = any_index(s, any, ctx);
    g_return_if_fail(j < s->nanys);
    for (uint32_t k = 0; k < s->ntries; k++)
        s->tries[k].watch |= s->tries[k].any == any && s->tries[k].ctx == ctx;
    s->watched |= 1u << j;
}

void sched_wake(Drive *d, SchedAnyFn any, void *ctx)
{
    Sched *s = sched(d);
    s->ask |= 1u << any_index(s, any, ctx); /* an unknown one sets a bit past nanys */
}

uint32_t sched_read_client(Drive *d, SchedReadFn fn, void *ctx)
{
    Sched *s = sched(d);
    g_return_val_if_fail(s->nclients < MAX_CLIENTS, 0);
    s->clients[s->nclients] = (SchedClient){fn, ctx};
    return s->nclients++;
}

/* The die's operation in progress is counted from acct_from to upto, the
 * part in its suspension window [susp_from, susp_until) as reads (the
 * window holds the suspend overhead and the reads served in it); an idle
 * die counts nothing. */
static inline void sched_account(Drive *d, uint32_t i, SimTime upto)
{
    DieOp *die = &sched(d)->die[i];
    SimTime from = die->acct_from;
    if (upto <= from)
        return;
    die->acct_from = upto;
    if (die->work == IDLE)
        return;
    SimTime s0 = MAX(from, die->susp_from), s1 = MIN(upto, die->susp_until);
    SimTime susp = s1 > s0 ? s1 - s0 : 0;
    drive_counters(d)->die_busy_ns[WORK_READ] += susp;
    drive_counters(d)->die_busy_ns[die->work] += upto - from - susp;
}

void sched_account_all(Drive *d)
{
    SimTime now = sim_now(drive_engine(d));
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        sched_account(d, i, now);
}

/* tPROG of a program of mode m writing the slots first .. last: t_prog,
 * or with program_by_page the slowest type among its pages (a unit is one
 * page of every plane, so a whole one has one type; a partial unit that a
 * flush left may make the next one straddle two). */
static SimTime prog_time(const Drive *d, uint64_t first, uint64_t last, CellMode m)
{
    const ModeTiming *t = &drive_params(d)->timing[m];
    if (!t->t_prog_page[0])
        return t->t_prog;
    return MAX(t->t_prog_page[nand_page_type(d, first, m)], t->t_prog_page[nand_page_type(d, last, m)]);
}

/* sched_die_op(), inline in sched_program(): a program of host data is
 * started for every unit the host writes. On an idle die (every caller's)
 * sched_account() only moves the start of its count up to now. */
static inline void die_start(Drive *d, uint32_t i, DieWork work, SchedDoneFn done, void *ctx,
                             uint32_t arg, SimTime end)
{
    Sched *s = sched(d);
    DieOp *die = &s->die[i];
    SimTime now = sim_now(drive_engine(d));
    if (die->work == IDLE)
        die->acct_from = MAX(die->acct_from, now);
    else
        sched_account(d, i, now);
    set_work(s, die, (uint8_t)work, now);
    die->out_wait = false;
    die->done = done;
    die->done_ctx = ctx;
    die->done_arg = arg;
    die->busy_until = end;
    sim_schedule(drive_engine(d), end, die_done, d, i | (uint64_t)die->done_gen << 32);
}

void sched_program(Drive *d, uint32_t i, DieWork work, SchedDoneFn done, void *ctx, uint32_t arg,
                   SimTime in, uint64_t first, uint64_t bytes, CellMode m)
{
    DieOp *die = &sched(d)->die[i];
    SimTime t = prog_time(d, first, first + bytes / SLOT_SIZE - 1, m);
    die->pass2_bytes = drive_params(d)->timing[m].two_pass ? bytes : 0;
    if (die->pass2_bytes) {
        die->pass2_time = t - t / 2;
        t /= 2;
    }
    die_start(d, i, work, done, ctx, arg, in + t);
}

void sched_die_op(Drive *d, uint32_t i, DieWork work, SchedDoneFn done, void *ctx, uint32_t arg,
                  SimTime end)
{
    die_start(d, i, work, done, ctx, arg, end);
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
    uint32_t rounds = (ro->pages + drive_geom(d)->planes - 1) / drive_geom(d)->planes;
    SimTime s = start, prev = sched(d)->die[i].out_end;
    for (uint32_t k = 0; k < rounds; k++) {
        uint64_t bytes = (uint64_t)(ro->slots * (k + 1) / rounds - ro->slots * k / rounds) * SLOT_SIZE;
        SimTime sensed = s + ro->t_round + (k == 0 ? ro->t_retry : 0);
        SimTime copy = sensed > prev ? sensed : prev;
        s = chan_start(d, i, copy); /* the page registers free up as it begins */
        prev = chan_xfer(d, i, copy, bytes);
    }
    *out = prev;
    return s;
}

/* Without cache read a read's die operation ends with its data out. */
static void read_op_done(void *ctx, uint32_t r)
{
    read_done(ctx, r);
}

static void start_read(Drive *d, uint32_t i)
{
    Sched *s = sched(d);
    DieOp *die = &s->die[i];
    uint32_t r = die->rd_head;
    ReadOp *ro = &s->rops[r];
    die->rd_head = ro->next;
    if (die->rd_head == NO_IDX)
        die->rd_tail = NO_IDX;
    ro->started = sim_now(drive_engine(d));
    drive_counters(d)->nand_read_bytes += (uint64_t)ro->slots * SLOT_SIZE;
    if (drive_params(d)->cache_read) {
        SimTime out;
        SimTime free_at = cached_rounds(d, i, sim_now(drive_engine(d)), ro, &out);
        die->out_end = out;
        sim_schedule(drive_engine(d), out, read_out_done, d, r);
        sched_die_op(d, i, WORK_READ, NULL, NULL, 0, free_at);
        return;
    }
    /* the planes of a die read in parallel: pages pair up across planes */
    uint32_t rounds = (ro->pages + drive_geom(d)->planes - 1) / drive_geom(d)->planes;
    SimTime sensed = sim_now(drive_engine(d)) + (SimTime)rounds * ro->t_round + ro->t_retry;
    SimTime end = chan_xfer(d, i, sensed, (uint64_t)ro->slots * SLOT_SIZE);
    sched_die_op(d, i, WORK_READ, read_op_done, d, r, end);
}

/* Whether anys[j]'s sources may have work: no without asking if it is
 * watched and said no since it was last woken, else its answer (a watched
 * one that says no is not asked again until woken). */
static inline bool any_may(Sched *s, uint32_t j)
{
    if (!(s->ask >> j & 1))
        return false;
    if (s->anys[j].any(s->anys[j].ctx))
        return true;
    s->ask &= ~(s->watched & 1u << j);
    return false;
}

/* The sources that may have work for some die now (bit k: tries[k]):
 * each distinct any function to ask asked once (they change nothing). */
static inline uint32_t offer_mask(Sched *s)
{
    uint32_t mask = s->always;
    for (uint32_t m = s->ask & ((1u << s->nanys) - 1); m; m &= m - 1) {
        uint32_t j = (uint32_t)__builtin_ctz(m);
        if (any_may(s, j))
            mask |= s->any_mask[j];
    }
    return mask;
}

/* Start the die's next operation: its reads first; then, once the cache
 * registers are empty, the first registered source in mask (bit k: tries[k])
 * with work for it. ask: mask is not from offer_mask() just now, so each
 * source's any function is asked when its turn comes, and a source whose
 * any says no is not tried (it would say no and change nothing). That is
 * exact whatever the sources before it did: an any that said no stands for
 * the sources sharing it only while no try has run since, as a try that
 * says no may still change state (a pSLC cache found exhausted). Returns
 * the source that started one, or NULL. */
static const SchedTry *kick(Drive *d, uint32_t i, uint32_t mask, bool ask)
{
    Sched *s = sched(d);
    DieOp *die = &s->die[i];
    if (die->work != IDLE)
        return NULL;
    s->wake[i / 64] &= ~((uint64_t)1 << (i % 64)); /* what woke it is served below */
    if (die->rd_head != NO_IDX) {
        start_read(d, i);
        return NULL;
    }
    if (die->out_end > sim_now(drive_engine(d))) {
        /* the cache registers still hold a read's data: other operations
         * wait for it to leave, a read arriving meanwhile starts at once */
        sched_die_op(d, i, WORK_READ, NULL, NULL, 0, die->out_end);
        die->out_wait = true;
        return NULL;
    }
    uint32_t limit = drive_params(d)->ctrl_max_program_dies;
    if (limit && s->nprog >= limit)
        return NULL; /* every source programs or erases: wait for one of those to end */
    if (ask && !(offer_mask(s) & mask))
        return NULL; /* no source may have work: each would say no and change nothing */
    uint32_t none = 0; /* tries whose any said no, no try having run since */
    for (uint32_t m = mask & ((1u << s->ntries) - 1); m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        const SchedTry *t = &s->tries[k];
        if (none >> k & 1)
            continue;
        if (ask && t->any && !any_may(s, t->any_idx)) {
            none |= s->any_mask[t->any_idx]; /* and the sources sharing it */
            continue;
        }
        if (t->fn(t->ctx, i))
            return t;
        none = 0;
    }
    return NULL;
}

/* A die fell idle, or a read arrived for it: every source is offered to it,
 * each asked first whether it may have work (a die ending a program during a
 * sequential fill otherwise tried them all, each for nothing). */
static void sched_kick(Drive *d, uint32_t i)
{
    kick(d, i, ~0u, true);
}

/* The first idle die in [lo, hi) (woken: the first idle one also in
 * s->wake), or hi if none. */
static uint32_t next_idle(const Sched *s, bool woken, uint32_t lo, uint32_t hi)
{
    while (lo < hi) {
        uint64_t bits = s->idle[lo / 64] & (woken ? s->wake[lo / 64] : ~(uint64_t)0) &
                        (~(uint64_t)0 << (lo % 64));
        if (bits) {
            uint32_t i = lo / 64 * 64 + (uint32_t)__builtin_ctzll(bits);
            return i < hi ? i : hi;
        }
        lo = lo / 64 * 64 + 64;
    }
    return hi;
}

/* Whether an idle die of the n has reads or data out to serve (s->wake):
 * with no source that may have work, the only dies a kick would start. */
static bool any_woken(const Sched *s, uint32_t n)
{
    for (uint32_t w = 0; w < (n + 63) / 64; w++)
        if (s->idle[w] & s->wake[w])
            return true;
    return false;
}

/* Offer work to every idle die, starting after the last one that took
 * striped work (a unit of host data), so that successive units stripe over
 * channels, then CEs, then dies. The k-th die visited is rr_die + k as
 * rr_die stands then; the bitmap skips the busy ones between (a kick
 * changes only its own die), which a write arriving at a drive of many
 * dies, most of them busy, would otherwise test one by one. Sources that
 * say no die may want them (SchedAnyFn) are not asked; while none may, only
 * the idle dies with reads or data out to serve are kicked: a drive of 384
 * dies, most of them idle, otherwise asked each source on each of them for
 * every write that entered the buffer, and was offering work most of its
 * time. */
void sched_kick_all(Drive *d)
{
    Sched *s = sched(d);
    uint32_t n = drive_geom(d)->dies, mask = offer_mask(s);
    if (mask == 0 && !any_woken(s, n))
        return; /* no source has work and no idle die reads: most writes that enter the buffer */
    for (uint32_t k = 0; k < n && s->nidle > 0; k++) {
        uint32_t i = s->rr_die + k < n ? s->rr_die + k : s->rr_die + k - n;
        /* the next idle die at or after i, going round at most to rr_die + n - 1 */
        bool woken = mask == 0; /* then only those a kick would start something on */
        uint32_t end = i + (n - k), j = next_idle(s, woken, i, MIN(end, n));
        if (j == n && end > n)
            j = next_idle(s, woken, 0, end - n) + n;
        if (j >= end)
            break;
        k += j - i;
        i = j < n ? j : j - n;
        const SchedTry *t = kick(d, i, mask, false);
        if (t) /* what it started may give the others work */
            mask = offer_mask(s);
        if (t && t->stripes)
            s->rr_die = i + 1 < n ? i + 1 : 0;
        if (t && mask == 0 && !any_woken(s, n))
            break; /* as on entry: the rest of the round would find no die to kick */
    }
}

/* Read op r has its data out: free it and tell its client. */
static void read_done(Drive *d, uint32_t r)
{
    Sched *s = sched(d);
    ReadOp *ro = &s->rops[r];
    const SchedClient *cl = &s->clients[ro->client];
    uint32_t arg = ro->arg;
    SimTime wait = ro->started - ro->queued;
    ro->next = s->rop_free;
    s->rop_free = r;
    cl->fn(cl->ctx, arg, wait);
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

static bool suspendable(const Drive *d, const DieOp *die)
{
    if (die->work == IDLE || die->work == WORK_READ)
        return false;
    return die->work == WORK_ERASE ? drive_params(d)->erase_suspend : drive_params(d)->program_suspend;
}

static bool read_suspending(Drive *d, uint32_t i, uint32_t r)
{
    DieOp *die = &sched(d)->die[i];
    if (!suspendable(d, die))
        return false;
    ReadOp *ro = &sched(d)->rops[r];
    uint32_t rounds = (ro->pages + drive_geom(d)->planes - 1) / drive_geom(d)->planes;
    SimTime now = sim_now(drive_engine(d));
    /* Reads during one suspension go one at a time, as on an idle die: a
     * read arriving while another still has the die starts at its end and
     * pays no second suspend. */
    bool chained = die->susp_until > now;
    sched_account(d, i, now); /* the suspended operation's time so far */
    if (!chained)
        die->susp_from = now;
    SimTime start = chained ? die->susp_until : now + SUSPEND_OVERHEAD;
    ro->started = start;
    SimTime sensed = start + (SimTime)rounds * ro->t_round + ro->t_retry;
    SimTime end = chan_xfer(d, i, sensed, (uint64_t)ro->slots * SLOT_SIZE);
    drive_counters(d)->nand_read_bytes += (uint64_t)ro->slots * SLOT_SIZE;
    sim_schedule(drive_engine(d), end, read_out_done, d, r);
    /* the suspended operation ends later by the die time the read took,
     * plus the suspend and resume overheads once per suspension */
    die->busy_until += (end - (chained ? die->susp_until : now)) + (chained ? 0 : SUSPEND_OVERHEAD);
    die->susp_until = end;
    die->done_gen++; /* the completion already scheduled is now stale */
    sim_schedule(drive_engine(d), die->busy_until, die_done, d, i | (uint64_t)die->done_gen << 32);
    return true;
}

static uint32_t rop_alloc(Sched *s)
{
    if (s->rop_free == NO_IDX) {
        uint32_t old = s->rop_cap;
        s->rop_cap *= 2;
        s->rops = g_renew(ReadOp, s->rops, s->rop_cap);
        for (uint32_t i = old; i < s->rop_cap; i++)
            s->rops[i].next = i + 1 < s->rop_cap ? i + 1 : NO_IDX;
        s->rop_free = old;
    }
    uint32_t r = s->rop_free;
    s->rop_free = s->rops[r].next;
    return r;
}

/* Sensing time per round of a read of the page types in mask (bit k: type
 * k; 0: unknown) in mode m: the slowest of them by read_by_page, else tR. */
static SimTime round_time(const ModeTiming *t, uint32_t types)
{
    if (!t->t_read_page[0] || !types)
        return t->t_read;
    SimTime worst = 0;
    for (; types; types &= types - 1)
        worst = MAX(worst, t->t_read_page[__builtin_ctz(types)]);
    return worst;
}

/* Retry time of sensing pages pages in mode m: each sensing fails with
 * read_retry_rate and is repeated, at most READ_RETRY_MAX times a page. */
static SimTime retry_time(Drive *d, const ModeTiming *t, uint32_t pages)
{
    if (t->read_retry_rate <= 0)
        return 0; /* and no draw: a drive without retries simulates as before */
    uint32_t retries = 0;
    for (uint32_t k = 0; k < pages; k++)
        for (uint32_t n = 0; n < READ_RETRY_MAX && sim_rng_double(&sched(d)->rng) < t->read_retry_rate; n++)
            retries++;
    drive_counters(d)->read_retries += retries;
    return (SimTime)retries * t->read_retry_time;
}

void sched_read(Drive *d, uint32_t i, uint32_t client, uint32_t arg, CellMode m, uint32_t types,
                uint32_t pages, uint32_t slots)
{
    Sched *s = sched(d);
    DieOp *die = &s->die[i];
    uint32_t r = rop_alloc(s);
    const ModeTiming *t = &drive_params(d)->timing[m];
    s->rops[r] = (ReadOp){.arg = arg,
                          .pages = pages,
                          .slots = slots,
                          .client = (uint8_t)client,
                          .t_round = round_time(t, types),
                          .t_retry = retry_time(d, t, pages),
                          .queued = sim_now(drive_engine(d))};
    if (read_suspending(d, i, r))
        return;
    if (die->out_wait) {
        /* only waiting for data to leave the cache registers: sense now */
        sched_account(d, i, sim_now(drive_engine(d)));
        set_work(s, die, IDLE, sim_now(drive_engine(d)));
        die->out_wait = false;
        die->done_gen++;
    }
    s->rops[r].next = NO_IDX;
    if (die->rd_tail == NO_IDX)
        die->rd_head = r;
    else
        s->rops[die->rd_tail].next = r;
    die->rd_tail = r;
    sched_kick(d, i);
}

static void die_done(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t i = (uint32_t)arg;
    DieOp *die = &sched(d)->die[i];
    if ((uint32_t)(arg >> 32) != die->done_gen)
        return; /* moved by a suspend, or a wait for data out cut short */
    if (die->pass2_bytes) {
        /* the coarse pass is done: the data moves in again for the fine one */
        SimTime in = chan_xfer(d, i, sim_now(drive_engine(d)), die->pass2_bytes);
        die->pass2_bytes = 0;
        die->busy_until = in + die->pass2_time;
        sim_schedule(drive_engine(d), die->busy_until, die_done, d, i | (uint64_t)die->done_gen << 32);
        return;
    }
    sched_account(d, i, sim_now(drive_engine(d)));
    uint32_t limit = drive_params(d)->ctrl_max_program_dies;
    bool freed = limit && writing(die->work) && sched(d)->nprog == limit;
    set_work(sched(d), die, IDLE, sim_now(drive_engine(d)));
    die->out_wait = false;
    if (die->done)
        die->done(die->done_ctx, die->done_arg);
    if (freed) /* idle dies may have waited for this program or erase to end */
        sched_kick_all(d);
    else
        sched_kick(d, i);
}

/* ---- Invariants ---------------------------------------------------------- */

/* Die i's read queue: from head to tail, each record once; *queued counts
 * them into mark. */
static bool queue_check(const Sched *s, uint32_t i, uint8_t *mark, char *why, size_t why_len)
{
    const DieOp *die = &s->die[i];
    CHECK((die->rd_head == NO_IDX) == (die->rd_tail == NO_IDX),
          "die %u's read queue has a head %u and a tail %u", i, die->rd_head, die->rd_tail);
    uint32_t last = NO_IDX;
    for (uint32_t r = die->rd_head; r != NO_IDX; last = r, r = s->rops[r].next) {
        CHECK(r < s->rop_cap && !mark[r], "die %u's read queue holds record %u twice or another's",
              i, r);
        mark[r] = 1;
    }
    CHECK(last == die->rd_tail, "die %u's read queue ends at %u, its tail is %u", i, last,
          die->rd_tail);
    return true;
}

/* The idle count and bitmap against each die's work; the read queues and
 * the free records apart, each record at most once. */
bool sched_check(const Drive *d, char *why, size_t why_len)
{
    const Sched *s = sched(d);
    uint32_t idle = 0, prog = 0;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        const DieOp *die = &s->die[i];
        bool bit = s->idle[i / 64] >> (i % 64) & 1;
        CHECK(die->work == IDLE || die->work <= WORK_MAP, "die %u does work %u", i, die->work);
        CHECK(bit == (die->work == IDLE), "die %u does work %u (%u: idle) but its idle bit is %d",
              i, die->work, IDLE, bit);
        idle += die->work == IDLE;
        prog += writing(die->work);
    }
    CHECK(idle == s->nidle, "%u dies idle, counter says %u", idle, s->nidle);
    CHECK(prog == s->nprog, "%u dies program or erase, counter says %u", prog, s->nprog);
    uint32_t limit = drive_params(d)->ctrl_max_program_dies;
    CHECK(!limit || prog <= limit, "%u dies program or erase, above max_program_dies = %u", prog,
          limit);
    for (uint32_t j = 0; j < s->nanys; j++)
        CHECK(!(s->watched >> j & 1) || (s->ask >> j & 1) || !s->anys[j].any(s->anys[j].ctx),
              "source %u's any function said no, says yes now, and was not woken", j);
    g_autofree uint8_t *mark = g_new0(uint8_t, s->rop_cap);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        if (!queue_check(s, i, mark, why, why_len))
            return false;
    for (uint32_t r = s->rop_free; r != NO_IDX; r = s->rops[r].next) {
        CHECK(r < s->rop_cap && !mark[r], "read record %u is both free and queued, or twice free",
              r);
        mark[r] = 1;
    }
    return true;
}
