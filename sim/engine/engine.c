/*
 * engine.c - event queue and clock.
 *
 * Pending events are kept in a radix queue: a hierarchical timing wheel over
 * the whole 64-bit time range. Time is read as eight 8-bit digits, and every
 * pending event is at or after `base`, a time no later than the clock. An
 * event whose highest digit differing from base is digit l sits in level l,
 * in the bucket of its own digit l (an event differing from base in digit 0
 * only, or not at all, is in level 0). So a level-0 bucket holds a single
 * time, every event of a lower level is earlier than every event of a higher
 * one, and within a level a lower digit means earlier events. The next event
 * is therefore in the lowest non-empty bucket, which two bit scans find (a
 * bitmap of non-empty buckets and one of its non-zero words): at its front
 * if the bucket is in level 0. A bucket of a higher level that holds only a
 * few events (SCAN_MAX) is searched for the earliest; a larger one is dealt
 * out: base moves up to the start of the bucket's time range and the
 * bucket's events go to the levels below, where they now belong. Each move
 * takes an event down at least one level, so it moves at most as many times
 * as the level it was scheduled into (delays of microseconds to
 * milliseconds: levels 1 to 3), each move an append. Events are compared
 * with each other only in those small buckets.
 *
 * Events of equal time fire in scheduling order without a sequence number:
 * an event's bucket depends on its time only, so the pending events of one
 * time are all in the same bucket; buckets are appended to, dealing one out
 * keeps the order of its events, taking an event out of a small bucket
 * keeps the order of the rest and takes the first of the earliest, and
 * level-0 buckets are read first-in first-out.
 *
 * Bucket entries are whole events (time, function, context, argument, id):
 * firing one reads it where it is found, with no second array of payloads
 * to index and keep a free list of. Bucket arrays are pooled (below).
 *
 * The clock goes back only when sim_run() is given an until earlier than
 * now; scheduling before base then rebuilds the queue around the new time.
 *
 * Cancelled ids are kept in a hash set and skipped when they surface; the
 * set is empty on most runs, so the check is one branch.
 */
#include "sim/engine/engine.h"

#include <signal.h>
#include <string.h>

typedef struct SimEntry {
    SimTime time;
    SimEventFn fn;
    void *ctx;
    uint64_t arg;
    SimEventId id;
} SimEntry;

typedef struct Bucket {
    SimEntry *v;
    uint32_t len;
    uint32_t cap;
} Bucket;

#define DIGIT_BITS 8
#define DIGITS (1u << DIGIT_BITS)  /* buckets a level */
#define LEVELS (64 / DIGIT_BITS)   /* 8 */
#define NBUCKETS (LEVELS * DIGITS) /* bucket (l, d) is b[l * DIGITS + d] */
#define WORDS (NBUCKETS / 64)      /* of the bitmap of non-empty buckets */
#define MIN_CAP 16u /* entries in the smallest bucket array */
#define KEEP_CAP 64 /* an emptied bucket keeps an array up to this size */
#define SCAN_MAX 8  /* a bucket above level 0 this small is not dealt out */
#define CLASSES 28  /* array sizes MIN_CAP << k, k < CLASSES */

struct SimEngine {
    Bucket b[NBUCKETS];
    uint32_t head0[DIGITS];  /* level-0 buckets are FIFOs: v[head0 .. len) are pending */
    uint64_t used[WORDS];    /* bit i % 64 of word i / 64: bucket i is not empty */
    uint32_t words;          /* bit w: used[w] != 0 */
    SimTime base;            /* buckets are relative to this time; <= now */
    size_t count;            /* pending events */
    SimEntry *pool[CLASSES]; /* arrays of MIN_CAP << k entries not in use */
    uint32_t pooled;         /* bit k: pool[k] != NULL */
    SimTime now;
    SimEventId next_id;
    uint64_t fired;
    bool stop;
    GHashTable *cancelled; /* set of ids; NULL while nothing was cancelled */
};

/* The next array in a pool list (see pool_put()). */
static inline SimEntry *pool_next(const SimEntry *a)
{
    return (SimEntry *)(uintptr_t)a[0].time;
}

SimEngine *sim_engine_new(void)
{
    SimEngine *e = g_new0(SimEngine, 1);
    e->next_id = 1;
    return e;
}

void sim_engine_free(SimEngine *e)
{
    if (!e)
        return;
    if (e->cancelled)
        g_hash_table_destroy(e->cancelled);
    for (unsigned i = 0; i < NBUCKETS; i++)
        g_free(e->b[i].v);
    for (unsigned k = 0; k < CLASSES; k++)
        for (SimEntry *a = e->pool[k], *next; a; a = next) {
            next = pool_next(a);
            g_free(a);
        }
    g_free(e);
}

SimTime sim_now(const SimEngine *e) { return e->now; }
size_t sim_pending(const SimEngine *e) { return e->count; }
uint64_t sim_fired(const SimEngine *e) { return e->fired; }
void sim_stop(SimEngine *e) { e->stop = true; }

/* Bucket arrays come in sizes MIN_CAP << k and go back to a pool, by size,
 * when a bucket outgrows them or empties while larger than KEEP_CAP. Arrays
 * circulate between buckets (those of one level fill up in turn as time
 * advances), so the buckets' memory is set by the peak number of events
 * pending rather than by the sum of every bucket's own peak, and a steady
 * run allocates nothing. A bucket that grows takes the largest pooled array
 * up to 16 times the size it needs, which saves most of the copying as it
 * fills. A pooled array holds the address of the next one of its size in
 * its first entry. */
static inline unsigned cap_class(uint32_t cap)
{
    return (unsigned)__builtin_ctz(cap / MIN_CAP);
}

static void pool_put(SimEngine *e, SimEntry *a, uint32_t cap)
{
    unsigned k = cap_class(cap);
    a[0].time = (uintptr_t)e->pool[k];
    e->pool[k] = a;
    e->pooled |= 1u << k;
}

/* An array of at least cap entries; *cap is set to its size. */
static SimEntry *pool_take(SimEngine *e, uint32_t *cap)
{
    unsigned k = cap_class(*cap);
    uint32_t fit = e->pooled & ((2u << MIN(k + 4, CLASSES - 1)) - 1) & ~((1u << k) - 1);
    if (!fit)
        return g_new(SimEntry, *cap);
    k = 31 - (unsigned)__builtin_clz(fit);
    SimEntry *a = e->pool[k];
    e->pool[k] = pool_next(a);
    if (!e->pool[k])
        e->pooled &= ~(1u << k);
    *cap = MIN_CAP << k;
    return a;
}

/* b is full: make room for one more entry. */
static G_NO_INLINE void bucket_grow(SimEngine *e, Bucket *b)
{
    size_t i = (size_t)(b - e->b);
    uint32_t from = i < DIGITS ? e->head0[i] : 0; /* entries before it are read */
    if (from > 0 && from >= b->cap / 2) {
        /* a level-0 bucket read half-way (say events that schedule more at
         * the same time, over and over): drop the entries read instead */
        memmove(b->v, b->v + from, (size_t)(b->len - from) * sizeof *b->v);
        b->len -= from;
        e->head0[i] = 0;
        return;
    }
    if (b->cap >= (MIN_CAP << (CLASSES - 1)))
        g_error("sim: more than %u events pending in one bucket", b->cap);
    uint32_t cap = b->cap ? 2 * b->cap : MIN_CAP;
    SimEntry *v = pool_take(e, &cap);
    if (b->cap) {
        memcpy(v, b->v + from, (size_t)(b->len - from) * sizeof *v);
        pool_put(e, b->v, b->cap);
    }
    b->v = v;
    b->len -= from;
    b->cap = cap;
    if (i < DIGITS)
        e->head0[i] = 0;
}

/* An emptied bucket with a large array hands it back to the pool. */
static G_NO_INLINE void bucket_trim(SimEngine *e, Bucket *b)
{
    pool_put(e, b->v, b->cap);
    b->v = NULL;
    b->cap = 0;
}

/* The bucket of an event at time t relative to base (t >= base), marked as
 * not empty. A bucket's bit is set exactly while its len is not 0 (an
 * emptied bucket's len goes to 0 as its bit is cleared): one already
 * holding events is marked already. */
static inline Bucket *bucket_for(SimEngine *e, SimTime t, SimTime base)
{
    /* DIGIT_BITS * level: the highest differing bit, rounded down to a digit */
    unsigned shift = (unsigned)(63 - __builtin_clzll((t ^ base) | 1)) & ~(DIGIT_BITS - 1);
    unsigned i = shift * (DIGITS / DIGIT_BITS) + ((unsigned)(t >> shift) & (DIGITS - 1));
    Bucket *b = &e->b[i];
    if (b->len == 0) {
        e->used[i / 64] |= (uint64_t)1 << (i % 64);
        e->words |= 1u << (i / 64);
    }
    return b;
}

static inline void place(SimEngine *e, SimEntry x, SimTime base)
{
    Bucket *b = bucket_for(e, x.time, base);
    if (G_UNLIKELY(b->len == b->cap))
        bucket_grow(e, b);
    b->v[b->len++] = x;
}

/* Make the buckets relative to an earlier base. Only reached when the clock
 * was moved back (sim_run() with until < now). The events of one time all
 * come out of one bucket in their order, so they go back in order. */
static G_NO_INLINE void rebase(SimEngine *e, SimTime base)
{
    SimEntry *all = g_new(SimEntry, e->count ? e->count : 1);
    size_t n = 0;
    for (unsigned i = 0; i < NBUCKETS; i++) {
        Bucket *b = &e->b[i];
        size_t from = i < DIGITS ? e->head0[i] : 0;
        if (b->len > from) {
            memcpy(all + n, b->v + from, (b->len - from) * sizeof *all);
            n += b->len - from;
        }
        b->len = 0;
    }
    memset(e->head0, 0, sizeof e->head0);
    memset(e->used, 0, sizeof e->used);
    e->words = 0;
    e->base = base;
    for (size_t i = 0; i < n; i++)
        place(e, all[i], base);
    g_free(all);
}

static G_NO_INLINE SimEventId schedule_slow(SimEngine *e, SimTime at, SimEventFn fn, void *ctx,
                                            uint64_t arg);

/* The rest of sim_schedule() when b is full: kept out of line so that the
 * common path makes no calls. */
static G_NO_INLINE SimEventId schedule_grow(SimEngine *e, Bucket *b, SimEntry x, SimEventId id)
{
    bucket_grow(e, b);
    b->v[b->len++] = x;
    return id;
}

SimEventId sim_schedule(SimEngine *e, SimTime at, SimEventFn fn, void *ctx, uint64_t arg)
{
    if (at < e->now)
        at = e->now; /* the past is not reachable; fire as soon as possible */
    if (G_UNLIKELY(fn == NULL || at < e->base))
        return schedule_slow(e, at, fn, ctx, arg);
    SimEventId id = e->next_id++;
    e->count++;
    Bucket *b = bucket_for(e, at, e->base);
    if (G_UNLIKELY(b->len == b->cap))
        return schedule_grow(e, b, (SimEntry){at, fn, ctx, arg, id}, id);
    b->v[b->len++] = (SimEntry){at, fn, ctx, arg, id};
    return id;
}

static SimEventId schedule_slow(SimEngine *e, SimTime at, SimEventFn fn, void *ctx, uint64_t arg)
{
    g_return_val_if_fail(fn != NULL, 0);
    if (at < e->base)
        rebase(e, e->now); /* not at: the next event may come earlier still */
    return sim_schedule(e, at, fn, ctx, arg);
}

SimEventId sim_schedule_in(SimEngine *e, SimTime delay, SimEventFn fn, void *ctx, uint64_t arg)
{
    return sim_schedule(e, e->now + delay, fn, ctx, arg);
}

void sim_cancel(SimEngine *e, SimEventId id)
{
    if (id == 0 || id >= e->next_id)
        return;
    if (!e->cancelled)
        e->cancelled = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    if (g_hash_table_contains(e->cancelled, &id))
        return;
    uint64_t *key = g_new(uint64_t, 1);
    *key = id;
    g_hash_table_add(e->cancelled, key);
}

static inline void mark_empty(SimEngine *e, unsigned i)
{
    if ((e->used[i / 64] &= ~((uint64_t)1 << (i % 64))) == 0)
        e->words &= ~(1u << (i / 64));
}

/* Bucket i has just been emptied. */
static inline void bucket_emptied(SimEngine *e, Bucket *b, unsigned i)
{
    b->len = 0;
    mark_empty(e, i);
    if (G_UNLIKELY(b->cap > KEEP_CAP))
        bucket_trim(e, b);
}

/* The start of bucket (l, d)'s time range: base's digits above l, then d,
 * then zeros. */
static inline SimTime bucket_start(SimTime base, unsigned l, unsigned d)
{
    unsigned s = DIGIT_BITS * l;
    return ((base >> s >> DIGIT_BITS) << DIGIT_BITS | d) << s;
}

/* Levels below bucket i's are empty: move base to start, the start of
 * bucket i, and deal its events out to the levels below (never to the bucket
 * itself, so its array stays put meanwhile). */
static G_NO_INLINE void cascade(SimEngine *e, unsigned i, SimTime start)
{
    Bucket *src = &e->b[i];
    const SimEntry *v = src->v;
    uint32_t n = src->len;
    e->base = start;
    for (uint32_t k = 0; k < n; k++)
        place(e, v[k], start);
    bucket_emptied(e, src, i);
}

/* True when the event was cancelled; forgets the cancellation. */
static bool take_cancelled(SimEngine *e, SimEventId id)
{
    if (g_hash_table_size(e->cancelled) == 0)
        return false;
    uint64_t key = id;
    return g_hash_table_remove(e->cancelled, &key); /* frees the stored key */
}

bool sim_run(SimEngine *e, SimTime until)
{
    e->stop = false;
    while (e->count > 0) {
        /* the lowest non-empty bucket holds the next event */
        unsigned w = (unsigned)__builtin_ctz(e->words);
        unsigned i = 64 * w + (unsigned)__builtin_ctzll(e->used[w]);
        Bucket *b = &e->b[i];
        SimEntry x;
        if (i < DIGITS) { /* level 0: a single time, first in first out */
            x = b->v[e->head0[i]];
            if (x.time > until)
                break;
            if (++e->head0[i] == b->len) {
                e->head0[i] = 0;
                bucket_emptied(e, b, i);
            }
        } else if (b->len <= SCAN_MAX) {
            /* a few events: take the first of the earliest where it is
             * (the events of a drive's queue depth, spread over the
             * buckets of microseconds ahead, are mostly taken so) */
            SimEntry *v = b->v;
            uint32_t m = 0, len = b->len;
            SimTime t = v[0].time;
            for (uint32_t k = 1; k < len; k++)
                if (v[k].time < t) {
                    t = v[k].time;
                    m = k;
                }
            x = v[m];
            if (x.time > until)
                break;
            b->len = --len;
            if (m < len) /* the rest closes up, in order */
                memmove(v + m, v + m + 1, (len - m) * sizeof *v);
            if (len == 0)
                bucket_emptied(e, b, i);
        } else {
            SimTime start = bucket_start(e->base, i / DIGITS, i % DIGITS);
            if (start > until)
                break; /* everything pending is later */
            cascade(e, i, start);
            continue;
        }
        e->count--;
        if (e->cancelled && take_cancelled(e, x.id))
            continue;
        e->now = x.time;
        e->fired++;
        x.fn(x.ctx, x.arg);
        if (e->stop)
            return e->count > 0;
    }
    if (e->count == 0)
        return false;
    e->now = until;
    return true;
}

SimTime sim_next_bound(const SimEngine *e)
{
    if (e->count == 0)
        return SIM_TIME_MAX;
    unsigned w = (unsigned)__builtin_ctz(e->words);
    unsigned i = 64 * w + (unsigned)__builtin_ctzll(e->used[w]);
    const Bucket *b = &e->b[i];
    if (i < DIGITS)
        return b->v[e->head0[i]].time;
    if (b->len > SCAN_MAX) /* not dealt out yet: its range's start bounds it */
        return bucket_start(e->base, i / DIGITS, i % DIGITS);
    SimTime t = b->v[0].time;
    for (uint32_t k = 1; k < b->len; k++)
        t = MIN(t, b->v[k].time);
    return t;
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

const char *sim_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "signal";
}

void sim_interrupted_error(GError **error, GQuark domain, int code, int sig, const char *when,
                           const char *left)
{
    g_set_error(error, domain, code, "interrupted by %s %s; %s", sim_signal_name(sig), when, left);
}
