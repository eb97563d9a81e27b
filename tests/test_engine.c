/* test_engine.c - the event engine: ordering, FIFO ties, cancellation,
 * run-until, stop, determinism, and the random number streams. */
#include "sim/engine/engine.h"
#include "tests/cutest.h"

typedef struct Log {
    uint64_t args[64];
    SimTime times[64];
    int n;
    SimEngine *e;
} Log;

static void record(void *ctx, uint64_t arg)
{
    Log *l = ctx;
    if (l->n < 64) {
        l->args[l->n] = arg;
        l->times[l->n] = sim_now(l->e);
    }
    l->n++;
}

static void test_order(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    SimTime t[] = {50, 10, 40, 20, 30, 0, 70, 60};
    for (unsigned i = 0; i < G_N_ELEMENTS(t); i++)
        sim_schedule(e, t[i], record, &l, t[i]);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(l.n, 8);
    for (int i = 0; i < 8; i++) {
        CUTEST_EQ(l.args[i], i * 10);
        CUTEST_EQ(l.times[i], i * 10);
    }
    CUTEST_EQ(sim_fired(e), 8);
}

static void test_fifo_ties(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    for (uint64_t i = 0; i < 40; i++)
        sim_schedule(e, 100, record, &l, i);
    sim_run(e, SIM_TIME_MAX);
    CUTEST_EQ(l.n, 40);
    for (int i = 0; i < 40; i++)
        CUTEST_EQ(l.args[i], i);
}

static void test_cancel(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    SimEventId a = sim_schedule(e, 10, record, &l, 1);
    sim_schedule(e, 20, record, &l, 2);
    SimEventId c = sim_schedule(e, 30, record, &l, 3);
    sim_cancel(e, a);
    sim_cancel(e, c);
    sim_cancel(e, c);  /* twice is harmless */
    sim_cancel(e, 0);  /* never valid */
    sim_cancel(e, 99); /* never scheduled */
    sim_run(e, SIM_TIME_MAX);
    CUTEST_EQ(l.n, 1);
    CUTEST_EQ(l.args[0], 2);
}

static void test_run_until(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    for (uint64_t i = 1; i <= 10; i++)
        sim_schedule(e, i * 100, record, &l, i);
    CU_ASSERT_TRUE(sim_run(e, 450));
    CUTEST_EQ(l.n, 4);
    CUTEST_EQ(sim_now(e), 450);
    CU_ASSERT_TRUE(sim_run(e, 500)); /* an event exactly at until fires */
    CUTEST_EQ(l.n, 5);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(l.n, 10);
    CUTEST_EQ(sim_now(e), 1000);
}

typedef struct Chain {
    SimEngine *e;
    int left;
    int fired;
} Chain;

static void chain_step(void *ctx, uint64_t arg)
{
    Chain *c = ctx;
    c->fired++;
    if (c->fired == 5)
        sim_stop(c->e);
    if (--c->left > 0)
        sim_schedule_in(c->e, arg, chain_step, c, arg);
}

static void test_stop_and_reschedule(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Chain c = {e, 100, 0};
    sim_schedule(e, 0, chain_step, &c, 7);
    CU_ASSERT_TRUE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(c.fired, 5);
    CUTEST_EQ(sim_now(e), 28);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(c.fired, 100);
    CUTEST_EQ(sim_now(e), 99 * 7);
}

/* Many random events: the fired sequence is sorted by (time, seq) and the
 * same seed gives the same sequence. */
typedef struct Trace {
    SimEngine *e;
    SimTime last_t;
    uint64_t last_arg;
    uint64_t hash;
    int bad;
    int n;
} Trace;

static void trace_ev(void *ctx, uint64_t arg)
{
    Trace *t = ctx;
    SimTime now = sim_now(t->e);
    if (now < t->last_t || (now == t->last_t && arg < t->last_arg))
        t->bad++;
    t->last_t = now;
    t->last_arg = arg;
    t->hash = t->hash * 1000003u ^ (now * 31 + arg);
    t->n++;
}

static uint64_t random_run(uint64_t seed)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Trace t = {.e = e};
    SimRng r;
    sim_rng_init(&r, seed, 1);
    for (uint64_t i = 0; i < 20000; i++)
        sim_schedule(e, sim_rng_below(&r, 5000), trace_ev, &t, i);
    sim_run(e, SIM_TIME_MAX);
    CUTEST_EQ(t.bad, 0);
    CUTEST_EQ(t.n, 20000);
    return t.hash;
}

static void test_determinism(void)
{
    CU_ASSERT_EQUAL(random_run(42), random_run(42));
    CU_ASSERT_NOT_EQUAL(random_run(42), random_run(43));
}

/* Randomized comparison with a reference: every event is also kept in a
 * GTree ordered by (time, scheduling order). Handlers check that the engine
 * fires the first event of the tree (cancelled ones in front of it are
 * skipped), then schedule more events at mixed distances (same time, short,
 * long, near the end of time), cancel random events (pending, fired or
 * cancelled already) and now and then stop the run. The driver runs to
 * random limits, sometimes earlier than the clock (moving it back), and
 * schedules from outside handlers too. */
typedef struct RefEv {
    SimTime time;
    SimEventId id;
    bool cancelled;
    bool gone; /* fired or skipped */
} RefEv;

typedef struct Ref {
    SimEngine *e;
    SimRng rng;
    RefEv *ev;
    size_t n, max;
    GTree *pending; /* indices by (time, index); cancelled ones until skipped */
    SimTime last_fired;
    uint64_t fired;
    bool stopped; /* a handler called sim_stop() */
    int bad;
} Ref;

static gint ref_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
    const Ref *r = data;
    size_t x = GPOINTER_TO_SIZE(a), y = GPOINTER_TO_SIZE(b);
    if (r->ev[x].time != r->ev[y].time)
        return r->ev[x].time < r->ev[y].time ? -1 : 1;
    return (x > y) - (x < y);
}

static void ref_fire(void *ctx, uint64_t arg);

static void ref_schedule(Ref *r, SimTime at)
{
    if (r->n == r->max)
        return;
    size_t i = r->n++;
    SimTime now = sim_now(r->e);
    r->ev[i] = (RefEv){.time = at < now ? now : at};
    r->ev[i].id = sim_schedule(r->e, at, ref_fire, r, i);
    if (r->ev[i].id == 0 || (i > 0 && r->ev[i].id == r->ev[i - 1].id))
        r->bad++;
    g_tree_insert(r->pending, GSIZE_TO_POINTER(i), GSIZE_TO_POINTER(i));
}

/* A time at a random distance from now, of every order of magnitude. */
static SimTime ref_time(Ref *r)
{
    SimTime now = sim_now(r->e), d;
    uint64_t kind = sim_rng_below(&r->rng, 100);
    if (kind < 10)
        d = 0;
    else if (kind < 30)
        d = sim_rng_below(&r->rng, 300);
    else if (kind < 60)
        d = sim_rng_below(&r->rng, 100000);
    else if (kind < 75)
        d = 1000 * sim_rng_below(&r->rng, 50); /* many ties */
    else if (kind < 97)
        d = sim_rng_next(&r->rng) >> (24 + sim_rng_below(&r->rng, 30));
    else if (kind < 99)
        return now - sim_rng_below(&r->rng, 1000); /* the past: fires now */
    else
        return SIM_TIME_MAX - sim_rng_below(&r->rng, 3) * sim_rng_below(&r->rng, 1u << 20);
    return d > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + d;
}

/* Forget cancelled events at the front of the tree that come before key,
 * or with time <= until when key is NULL. */
static void ref_skip(Ref *r, gpointer key, SimTime until)
{
    for (;;) {
        GTreeNode *first = g_tree_node_first(r->pending);
        if (!first)
            return;
        gpointer k = g_tree_node_key(first);
        size_t f = GPOINTER_TO_SIZE(k);
        if (key ? k == key : r->ev[f].time > until)
            return;
        if (!r->ev[f].cancelled) { /* the engine passed over a live event */
            r->bad++;
            return;
        }
        r->ev[f].gone = true;
        g_tree_remove(r->pending, k);
    }
}

static void ref_fire(void *ctx, uint64_t arg)
{
    Ref *r = ctx;
    size_t i = arg;
    ref_skip(r, GSIZE_TO_POINTER(i), 0);
    GTreeNode *first = g_tree_node_first(r->pending);
    if (!first || GPOINTER_TO_SIZE(g_tree_node_key(first)) != i || r->ev[i].cancelled ||
        r->ev[i].gone || sim_now(r->e) != r->ev[i].time) {
        r->bad++;
        return;
    }
    g_tree_remove(r->pending, GSIZE_TO_POINTER(i));
    r->ev[i].gone = true;
    r->last_fired = r->ev[i].time;
    r->fired++;
    for (uint64_t k = sim_rng_below(&r->rng, 3); k > 0; k--)
        ref_schedule(r, ref_time(r));
    if (sim_rng_below(&r->rng, 4) == 0 && r->n > 0) {
        size_t c = sim_rng_below(&r->rng, r->n);
        sim_cancel(r->e, r->ev[c].id);
        if (!r->ev[c].gone)
            r->ev[c].cancelled = true;
    }
    if (sim_rng_below(&r->rng, 1000) == 0) {
        sim_stop(r->e);
        r->stopped = true;
    }
}

static void test_reference(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Ref r = {.e = e, .max = 200000};
    r.ev = g_new0(RefEv, r.max);
    r.pending = g_tree_new_with_data(ref_cmp, &r);
    sim_rng_init(&r.rng, 99, 0);
    for (int i = 0; i < 3000; i++)
        ref_schedule(&r, ref_time(&r));
    int runs = 0, backwards = 0;
    while (g_tree_nnodes(r.pending) > 0 && r.bad == 0) {
        SimTime now = sim_now(e), until;
        uint64_t kind = sim_rng_below(&r.rng, 100);
        if (kind < 3)
            until = now - sim_rng_below(&r.rng, 5000), backwards++;
        else if (kind < 10)
            until = SIM_TIME_MAX;
        else
            until = now + (sim_rng_next(&r.rng) >> (30 + sim_rng_below(&r.rng, 34)));
        if (until < now && kind >= 3)
            until = SIM_TIME_MAX; /* the sum overflowed */
        uint64_t fired = r.fired;
        r.stopped = false;
        bool more = sim_run(e, until);
        runs++;
        bool stopped = r.stopped;
        if (!stopped) /* every event up to until is done */
            ref_skip(&r, NULL, until);
        else
            CUTEST_EQ(sim_now(e), r.last_fired);
        guint left = g_tree_nnodes(r.pending);
        CU_ASSERT_EQUAL(more, left > 0);
        CUTEST_EQ(sim_pending(e), left);
        if (left > 0 && !stopped)
            CUTEST_EQ(sim_now(e), until);
        if (left == 0)
            CUTEST_EQ(sim_now(e), r.fired > fired ? r.last_fired : now);
        /* and from outside any handler */
        for (uint64_t k = sim_rng_below(&r.rng, 3); k > 0; k--)
            ref_schedule(&r, ref_time(&r));
    }
    CUTEST_EQ(r.bad, 0);
    CUTEST_EQ(sim_fired(e), r.fired);
    CU_ASSERT(r.n == r.max); /* the whole budget was scheduled */
    CU_ASSERT(r.fired > r.max / 2);
    CU_ASSERT(backwards > 10);
    CU_ASSERT(runs > 100);
    g_tree_destroy(r.pending);
    g_free(r.ev);
}

/* Times on either side of every digit boundary of the queue, and the very
 * end of time, scheduled in a scrambled order, fire sorted; equal times
 * keep their order. */
static void test_time_range(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    SimTime t[3 * 64 * 2];
    int n = 0;
    for (int b = 1; b < 64; b++) {
        SimTime p = (SimTime)1 << b;
        t[n++] = p - 1;
        t[n++] = p;
        t[n++] = p + 1;
    }
    t[n++] = SIM_TIME_MAX;
    t[n++] = SIM_TIME_MAX - 1;
    t[n++] = SIM_TIME_MAX;
    int m = n;
    for (int i = 0; i < m; i++)
        t[n++] = t[i]; /* each time twice */
    SimRng r;
    sim_rng_init(&r, 5, 0);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sim_rng_below(&r, (uint64_t)i + 1);
        SimTime x = t[i];
        t[i] = t[j];
        t[j] = x;
    }
    Trace tr = {.e = e};
    for (int i = 0; i < n; i++)
        sim_schedule(e, t[i], trace_ev, &tr, (uint64_t)i);
    CUTEST_EQ(sim_pending(e), n);
    /* trace_ev wants args rising at equal times: they are scheduling order */
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(tr.n, n);
    CUTEST_EQ(tr.bad, 0);
    CU_ASSERT(sim_now(e) == SIM_TIME_MAX);
    /* the clock at the end of time still takes events (at that time) */
    Log l = {.e = e};
    sim_schedule_in(e, 5, record, &l, 1);
    sim_schedule(e, 3, record, &l, 2);
    sim_run(e, SIM_TIME_MAX);
    CUTEST_EQ(l.n, 2);
    /* now + 5 wrapped to 4, and 3: both the past, so both now, in order */
    CUTEST_EQ(l.args[0], 1);
    CUTEST_EQ(l.args[1], 2);
    CU_ASSERT(l.times[0] == SIM_TIME_MAX && l.times[1] == SIM_TIME_MAX);
}

/* Moving the clock back (until < now) and scheduling before events already
 * pending. */
static void test_clock_back(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    sim_schedule(e, 1000, record, &l, 1);
    sim_schedule(e, 1 << 20, record, &l, 2);
    CU_ASSERT_TRUE(sim_run(e, 5000));
    CUTEST_EQ(sim_now(e), 5000);
    CU_ASSERT_TRUE(sim_run(e, 100)); /* nothing due: the clock goes to until */
    CUTEST_EQ(sim_now(e), 100);
    sim_schedule(e, 200, record, &l, 3);
    sim_schedule(e, 1 << 20, record, &l, 4);
    sim_schedule(e, 150, record, &l, 5);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(l.n, 5);
    uint64_t want[] = {1, 5, 3, 2, 4};
    for (int i = 0; i < 5; i++)
        CUTEST_EQ(l.args[i], want[i]);
}

static void stop_ev(void *ctx, uint64_t arg)
{
    Log *l = ctx;
    record(l, arg);
    sim_stop(l->e);
}

/* The same, with the run stopped half-way through the events of one time. */
static void test_clock_back_mid_time(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    sim_schedule(e, 7000, stop_ev, &l, 1);
    sim_schedule(e, 7000, record, &l, 2);
    sim_schedule(e, 7000, record, &l, 3);
    sim_schedule(e, 9000, record, &l, 4);
    CU_ASSERT_TRUE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(l.n, 1);
    CUTEST_EQ(sim_now(e), 7000);
    CU_ASSERT_TRUE(sim_run(e, 10)); /* back */
    CUTEST_EQ(sim_now(e), 10);
    CUTEST_EQ(sim_pending(e), 3);
    sim_schedule(e, 7000, record, &l, 5);
    sim_schedule(e, 20, record, &l, 6);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    uint64_t want[] = {1, 6, 2, 3, 5, 4};
    CUTEST_EQ(l.n, 6);
    for (int i = 0; i < 6; i++)
        CUTEST_EQ(l.args[i], want[i]);
}

/* Events that schedule more at the same time, a long way: they keep
 * their order (the FIFO of one time is read and written at once). */
typedef struct Relay {
    SimEngine *e;
    uint64_t left;
    uint64_t expect;
    int bad;
} Relay;

static void relay(void *ctx, uint64_t arg)
{
    Relay *r = ctx;
    if (arg != r->expect || sim_now(r->e) != 50)
        r->bad++;
    r->expect = arg + 1;
    if (r->left > 0) {
        r->left--;
        sim_schedule_in(r->e, 0, relay, r, arg + 3);
    }
}

static void test_same_time_chain(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Relay r = {.e = e, .left = 300000};
    Log l = {.e = e};
    sim_schedule(e, 51, record, &l, 7);
    for (uint64_t i = 0; i < 3; i++)
        sim_schedule(e, 50, relay, &r, i);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    CUTEST_EQ(r.bad, 0);
    CUTEST_EQ(r.expect, 300003);
    CUTEST_EQ(l.n, 1);
    CUTEST_EQ(l.times[0], 51);
}

/* A burst of events at one time and many at spread times: all fire, in
 * order, and the engine can be reused afterwards. */
static void test_burst(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Trace t = {.e = e};
    for (int round = 0; round < 3; round++) {
        SimTime now = sim_now(e);
        for (uint64_t i = 0; i < 100000; i++)
            sim_schedule(e, now + 1000, trace_ev, &t, i);
        for (uint64_t i = 0; i < 100000; i++)
            sim_schedule(e, now + 2000 + i * 977, trace_ev, &t, 100000 + i);
        CUTEST_EQ(sim_pending(e), 200000);
        t.last_t = 0;
        t.last_arg = 0;
        CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
        CUTEST_EQ(t.bad, 0);
        CUTEST_EQ(t.n, 200000 * (round + 1));
    }
}

/* The bucket being read takes an event earlier than its front in front of
 * it (entries already read leave room there); an event equal to its front,
 * or one after it, goes at the end and the bucket is sorted when read
 * again, equal times in scheduling order. */
static void ahead_ev(void *ctx, uint64_t arg)
{
    Log *l = ctx;
    record(l, arg);
    if (arg == 1) {
        sim_schedule(l->e, 0x530, record, l, 3); /* equal to the front: after it */
        sim_schedule(l->e, 0x520, record, l, 2);
        sim_schedule(l->e, 0x515, record, l, 4);
    } else if (arg == 11) {
        sim_schedule(l->e, 0x545, record, l, 5); /* before the front, in front */
        sim_schedule(l->e, 0x541, record, l, 6); /* and before that one */
    }
}

static void test_ahead_of_front(void)
{
    g_autoptr(SimEngine) e = sim_engine_new();
    Log l = {.e = e};
    sim_schedule(e, 0x510, ahead_ev, &l, 1);
    sim_schedule(e, 0x530, record, &l, 10);
    sim_schedule(e, 0x540, ahead_ev, &l, 11);
    sim_schedule(e, 0x550, record, &l, 12);
    sim_schedule(e, 0x650, record, &l, 20); /* a bucket out of order, not read yet */
    sim_schedule(e, 0x620, record, &l, 21);
    sim_schedule(e, 0x620, record, &l, 22);
    CU_ASSERT_TRUE(sim_run(e, 0x560));
    CUTEST_EQ(sim_next_bound(e), 0x620);
    CU_ASSERT_FALSE(sim_run(e, SIM_TIME_MAX));
    uint64_t want[] = {1, 4, 2, 10, 3, 11, 6, 5, 12, 21, 22, 20};
    SimTime at[] = {0x510, 0x515, 0x520, 0x530, 0x530, 0x540, 0x541, 0x545, 0x550, 0x620, 0x620, 0x650};
    CUTEST_EQ(l.n, G_N_ELEMENTS(want));
    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++) {
        CUTEST_EQ(l.args[i], want[i]);
        CUTEST_EQ(l.times[i], at[i]);
    }
}

static void test_rng(void)
{
    SimRng a, b, c;
    sim_rng_init(&a, 7, 0);
    sim_rng_init(&b, 7, 0);
    sim_rng_init(&c, 7, 1);
    int same_stream = 0, other_stream = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = sim_rng_next(&a);
        same_stream += x == sim_rng_next(&b);
        other_stream += x == sim_rng_next(&c);
    }
    CUTEST_EQ(same_stream, 1000);
    CUTEST_EQ(other_stream, 0);
    /* below(n) stays in range and is roughly uniform */
    int hist[10] = {0};
    for (int i = 0; i < 100000; i++) {
        uint64_t v = sim_rng_below(&a, 10);
        CU_ASSERT(v < 10);
        hist[v < 10 ? v : 0]++;
    }
    for (int i = 0; i < 10; i++)
        CU_ASSERT(hist[i] > 9500 && hist[i] < 10500);
    double d = sim_rng_double(&a);
    CU_ASSERT(d >= 0 && d < 1);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"order", test_order},
        {"fifo_ties", test_fifo_ties},
        {"cancel", test_cancel},
        {"run_until", test_run_until},
        {"stop_and_reschedule", test_stop_and_reschedule},
        {"determinism", test_determinism},
        {"reference", test_reference},
        {"time_range", test_time_range},
        {"clock_back", test_clock_back},
        {"clock_back_mid_time", test_clock_back_mid_time},
        {"same_time_chain", test_same_time_chain},
        {"burst", test_burst},
        {"ahead_of_front", test_ahead_of_front},
        {"rng", test_rng},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("engine", tests);
}
