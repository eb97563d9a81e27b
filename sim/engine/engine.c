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
 * bitmap of non-empty buckets and one of its non-zero words).
 *
 * A bucket is kept in time order where it costs nothing, and read from its
 * front (v[head .. len) are pending): an event no earlier than the
 * bucket's last is appended, and one earlier than its front, with room
 * before it, goes in front. The drive's events come from timelines (the
 * link, a firmware core, a die), each in time order, and a handler mostly
 * schedules either at the end of such a timeline or shortly after now,
 * into the bucket being read, ahead of its front. Any other event is
 * appended and marks the bucket out of order. When the lowest bucket is
 * out of order and holds only a few events (SCAN_MAX) it is sorted (an
 * insertion sort, stable); a larger one is dealt out: base moves up to the
 * start of the bucket's time range and the bucket's events go to the
 * levels below, where they now belong. Each move takes an event down at
 * least one level, so it moves at most as many times as the level it was
 * scheduled into (delays of microseconds to milliseconds: levels 1 to 3),
 * each move a put as above.
 *
 * Events of equal time fire in scheduling order without a sequence number:
 * an event's bucket depends on its time only, so the pending events of one
 * time are all in the same bucket; an event goes in front of a bucket only
 * when it is earlier than all of its events, the sort is stable, and
 * dealing a bucket out keeps the order of its events.
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
    uint32_t head;  /* v[head .. len) are pending; 0 when empty */
    uint32_t len;
    uint32_t cap;
    bool unsorted;  /* v[head .. len) may be out of time order */
} Bucket;

#define DIGIT_BITS 8
#define DIGITS (1u << DIGIT_BITS)  /* buckets a level */
#define LEVELS (64 / DIGIT_BITS)   /* 8 */
#define NBUCKETS (LEVELS * DIGITS) /* bucket (l, d) is b[l * DIGITS + d] */
#define WORDS (NBUCKETS / 64)      /* of the bitmap of non-empty buckets */
#define MIN_CAP 16u /* entries in the smallest bucket array */
#define KEEP_CAP 64 /* an emptied bucket keeps an array up to this size */
#define SCAN_MAX 8  /* a bucket out of order this small is sorted, not dealt out */
#define CLASSES 28  /* array sizes MIN_CAP << k, k < CLASSES */

struct SimEngine {
    Bucket b[NBUCKETS];
    uint64_t used[WORDS];    /* bit i % 64 of word i / 64: bucket i is not empty */
    uint32_t words;          /* bit w: used[w] != 0 */
    SimTime base;            /* buckets are relative to this time; <= now */
    uint64_t skipped;        /* cancelled events taken out unfired */
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
/* Every id handed out is an event scheduled, and every one taken out was
 * fired or skipped: no count kept at each event. */
size_t sim_pending(const SimEngine *e) { return (size_t)(e->next_id - 1 - e->fired - e->skipped); }
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
    uint32_t from = b->head; /* entries before it are read */
    if (from > 0 && from >= b->cap / 2) {
        /* a bucket read half-way (say events that schedule more at the
         * same time, over and over): drop the entries read instead */
        memmove(b->v, b->v + from, (size_t)(b->len - from) * sizeof *b->v);
        b->len -= from;
        b->head = 0;
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
    b->head = 0;
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

/* Put x into bucket b. An event no earlier than the bucket's last goes
 * after it. One earlier than the front, with room before the front
 * (entries already read), goes in front: the event a handler schedules
 * shortly after now, into the bucket being read. Anything else is appended
 * and the bucket marked as out of order, to be sorted or dealt out when it
 * comes up. While a bucket has room before its front, its front is its
 * earliest event (a bucket is read only once in order, and an event
 * earlier than the front goes in front while there is room), so an event
 * put in front is earlier than every other: equal times stay in
 * scheduling order. */
static inline void bucket_put(SimEngine *e, Bucket *b, SimEntry x)
{
    uint32_t len = b->len;
    if (len != 0 && x.time < b->v[len - 1].time) {
        if (b->head > 0 && x.time < b->v[b->head].time) {
            b->v[--b->head] = x;
            return;
        }
        b->unsorted = true;
    }
    if (G_UNLIKELY(len == b->cap)) {
        bucket_grow(e, b);
        len = b->len;
    }
    b->v[len] = x;
    b->len = len + 1;
}

static inline void place(SimEngine *e, SimEntry x, SimTime base)
{
    bucket_put(e, bucket_for(e, x.time, base), x);
}

/* Make the buckets relative to an earlier base. Only reached when the clock
 * was moved back (sim_run() with until < now). The events of one time all
 * come out of one bucket in their order, so they go back in order. */
static G_NO_INLINE void rebase(SimEngine *e, SimTime base)
{
    size_t pending = sim_pending(e);
    SimEntry *all = g_new(SimEntry, pending ? pending : 1);
    size_t n = 0;
    for (unsigned i = 0; i < NBUCKETS; i++) {
        Bucket *b = &e->b[i];
        if (b->len > b->head) {
            memcpy(all + n, b->v + b->head, (b->len - b->head) * sizeof *all);
            n += b->len - b->head;
        }
        b->head = b->len = 0;
        b->unsorted = false;
    }
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
static G_NO_INLINE SimEventId schedule_grow(SimEngine *e, Bucket *b, SimTime at, SimEventFn fn, void *ctx,
                                            uint64_t arg)
{
    SimEventId id = e->next_id - 1;
    bucket_put(e, b, (SimEntry){at, fn, ctx, arg, id});
    return id;
}

/* bucket_put() written out, with the full bucket's test first and its
 * growth out of line (schedule_grow()): place() in its stead costs 14% more
 * instructions here. The event is stored once, where it goes: stored at
 * the end and then copied to the front, it was read back (16 bytes at a
 * time) from the 8-byte stores just made, which the processor cannot
 * forward, and the copy waited for them to reach the cache. */
SimEventId sim_schedule(SimEngine *e, SimTime at, SimEventFn fn, void *ctx, uint64_t arg)
{
    if (at < e->now)
        at = e->now; /* the past is not reachable; fire as soon as possible */
    if (G_UNLIKELY(fn == NULL || at < e->base))
        return schedule_slow(e, at, fn, ctx, arg);
    SimEventId id = e->next_id++;
    Bucket *b = bucket_for(e, at, e->base);
    uint32_t len = b->len;
    if (G_UNLIKELY(len == b->cap))
        return schedule_grow(e, b, at, fn, ctx, arg);
    SimEntry *v = b->v;
    if (len != 0 && at < v[len - 1].time) {
        if (b->head > 0 && at < v[b->head].time) {
            v[--b->head] = (SimEntry){at, fn, ctx, arg, id};
            return id;
        }
        b->unsorted = true;
    }
    v[len] = (SimEntry){at, fn, ctx, arg, id};
    b->len = len + 1;
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
    b->head = b->len = 0;
    b->unsorted = false;
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
    for (uint32_t k = src->head; k < n; k++)
        place(e, v[k], start);
    bucket_emptied(e, src, i);
}

/* Sort a bucket out of order by time, keeping the order of equal times
 * (insertion sort: the bucket is small and mostly in order). */
static G_NO_INLINE void bucket_sort(Bucket *b)
{
    SimEntry *v = b->v;
    for (uint32_t k = b->head + 1; k < b->len; k++) {
        if (v[k].time >= v[k - 1].time)
            continue;
        SimEntry x = v[k];
        uint32_t j = k;
        do {
            v[j] = v[j - 1];
            j--;
        } while (j > b->head && v[j - 1].time > x.time);
        v[j] = x;
    }
    b->unsorted = false;
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
    while (e->words) { /* a bucket holds events */
        /* the lowest non-empty bucket holds the next event, at its front
         * once it is in order */
        unsigned w = (unsigned)__builtin_ctz(e->words);
        unsigned i = 64 * w + (unsigned)__builtin_ctzll(e->used[w]);
        Bucket *b = &e->b[i];
        if (G_UNLIKELY(b->unsorted)) {
            if (b->len - b->head > SCAN_MAX) {
                SimTime start = bucket_start(e->base, i / DIGITS, i % DIGITS);
                if (start > until)
                    break; /* everything pending is later */
                cascade(e, i, start);
                continue;
            }
            bucket_sort(b);
        }
        SimEntry x = b->v[b->head];
        if (x.time > until)
            break;
        if (++b->head == b->len)
            bucket_emptied(e, b, i);
        if (e->cancelled && take_cancelled(e, x.id)) {
            e->skipped++;
            continue;
        }
        e->now = x.time;
        e->fired++;
        x.fn(x.ctx, x.arg);
        if (e->stop)
            return e->words != 0;
    }
    if (!e->words)
        return false;
    e->now = until;
    return true;
}

SimTime sim_next_bound(const SimEngine *e)
{
    if (!e->words)
        return SIM_TIME_MAX;
    unsigned w = (unsigned)__builtin_ctz(e->words);
    unsigned i = 64 * w + (unsigned)__builtin_ctzll(e->used[w]);
    const Bucket *b = &e->b[i];
    SimTime t = b->v[b->head].time;
    if (b->unsorted)
        for (uint32_t k = b->head + 1; k < b->len; k++)
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
