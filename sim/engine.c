/*
 * engine.c - event heap and clock.
 *
 * A 4-ary min-heap of events stored by value. The key is (time, seq); seq
 * increases with every schedule, so ties fire in scheduling order and the
 * pair is unique. Cancelled ids are kept in a hash set and
 * skipped when they surface; the set is empty on most runs, so the check is
 * one branch.
 */
#include "sim/engine.h"

#include <string.h>

typedef struct SimEvent {
    SimTime time;
    uint64_t seq;
    SimEventFn fn;
    void *ctx;
    uint64_t arg;
} SimEvent;

struct SimEngine {
    SimEvent *heap;
    size_t len;
    size_t cap;
    SimTime now;
    uint64_t next_seq; /* also the SimEventId of the next event */
    uint64_t fired;
    bool stop;
    GHashTable *cancelled; /* seq -> 1; NULL while nothing was cancelled */
};

SimEngine *sim_engine_new(void)
{
    SimEngine *e = g_new0(SimEngine, 1);
    e->cap = 1024;
    e->heap = g_new(SimEvent, e->cap);
    e->next_seq = 1;
    return e;
}

void sim_engine_free(SimEngine *e)
{
    if (!e)
        return;
    if (e->cancelled)
        g_hash_table_destroy(e->cancelled);
    g_free(e->heap);
    g_free(e);
}

SimTime sim_now(const SimEngine *e) { return e->now; }
size_t sim_pending(const SimEngine *e) { return e->len; }
uint64_t sim_fired(const SimEngine *e) { return e->fired; }
void sim_stop(SimEngine *e) { e->stop = true; }

static inline unsigned __int128 ev_key(const SimEvent *a)
{
    return ((unsigned __int128)a->time << 64) | a->seq;
}

static inline bool ev_less(const SimEvent *a, const SimEvent *b) { return ev_key(a) < ev_key(b); }

SimEventId sim_schedule(SimEngine *e, SimTime at, SimEventFn fn, void *ctx, uint64_t arg)
{
    g_return_val_if_fail(fn != NULL, 0);
    if (at < e->now)
        at = e->now; /* the past is not reachable; fire as soon as possible */
    if (e->len == e->cap) {
        e->cap *= 2;
        e->heap = g_renew(SimEvent, e->heap, e->cap);
    }
    SimEvent ev = {at, e->next_seq++, fn, ctx, arg};
    size_t i = e->len++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!ev_less(&ev, &e->heap[p]))
            break;
        e->heap[i] = e->heap[p];
        i = p;
    }
    e->heap[i] = ev;
    return ev.seq;
}

SimEventId sim_schedule_in(SimEngine *e, SimTime delay, SimEventFn fn, void *ctx, uint64_t arg)
{
    return sim_schedule(e, e->now + delay, fn, ctx, arg);
}

void sim_cancel(SimEngine *e, SimEventId id)
{
    if (id == 0 || id >= e->next_seq)
        return;
    if (!e->cancelled)
        e->cancelled = g_hash_table_new(g_int64_hash, g_int64_equal);
    if (g_hash_table_contains(e->cancelled, &id))
        return;
    uint64_t *key = g_new(uint64_t, 1);
    *key = id;
    g_hash_table_add(e->cancelled, key);
}

/* Remove the root and restore the heap. Bottom-up (Floyd): the hole at the
 * root follows the smaller child down to a leaf, three comparisons a level,
 * then the last event rises from there, which is rarely more than a step
 * since it came from the bottom. */
static void heap_pop(SimEngine *e)
{
    size_t n = --e->len, i = 0;
    if (n == 0)
        return;
    SimEvent *h = e->heap;
    for (;;) {
        size_t c = 4 * i + 1, best;
        if (c + 3 < n) { /* all four children: a tournament of three comparisons */
            /* index arithmetic rather than branches: the outcomes are
             * random, so branches would mispredict half the time */
            size_t a = c + ev_less(&h[c + 1], &h[c]);
            size_t b = c + 2 + ev_less(&h[c + 3], &h[c + 2]);
            best = a + (b - a) * ev_less(&h[b], &h[a]);
        } else if (c < n) {
            best = c;
            for (size_t k = c + 1; k < n; k++)
                if (ev_less(&h[k], &h[best]))
                    best = k;
        } else {
            break;
        }
        h[i] = h[best];
        i = best;
    }
    SimEvent last = h[n];
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!ev_less(&last, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = last;
}

/* True when the event was cancelled; forgets the cancellation. */
static bool take_cancelled(SimEngine *e, uint64_t seq)
{
    if (!e->cancelled || g_hash_table_size(e->cancelled) == 0)
        return false;
    uint64_t key = seq;
    gpointer orig;
    if (!g_hash_table_lookup_extended(e->cancelled, &key, &orig, NULL))
        return false;
    g_hash_table_remove(e->cancelled, &key);
    g_free(orig);
    return true;
}

bool sim_run(SimEngine *e, SimTime until)
{
    e->stop = false;
    while (e->len > 0) {
        SimEvent ev = e->heap[0];
        if (ev.time > until) {
            e->now = until;
            return true;
        }
        heap_pop(e);
        if (e->cancelled && take_cancelled(e, ev.seq))
            continue;
        e->now = ev.time;
        e->fired++;
        ev.fn(ev.ctx, ev.arg);
        if (e->stop)
            break;
    }
    return e->len > 0;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void sim_rng_init(SimRng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}
