/* test_engine.c - the event engine: ordering, FIFO ties, cancellation,
 * run-until, stop, determinism, and the random number streams. */
#include "sim/engine.h"
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
        {"rng", test_rng},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("engine", tests);
}
