/*
 * engine.h - the discrete-event engine: simulated clock, event queue, RNG.
 *
 * Time is uint64_t nanoseconds. Pending events are kept in a radix queue (a
 * hierarchical timing wheel over the whole 64-bit range; see engine.c)
 * ordered by time: events due at the same time fire in the order they were
 * scheduled, so a run is deterministic. Scheduling does not allocate once
 * the queue has grown to what the run needs.
 * The engine knows nothing of SSDs.
 */
#ifndef FTLSIM_ENGINE_H
#define FTLSIM_ENGINE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef uint64_t SimTime; /* ns */

#define SIM_NS   ((SimTime)1)
#define SIM_US   ((SimTime)1000)
#define SIM_MS   ((SimTime)1000000)
#define SIM_SEC  ((SimTime)1000000000)
#define SIM_TIME_MAX UINT64_MAX

/* An event handler: ctx and arg are what was given to sim_schedule(). */
typedef void (*SimEventFn)(void *ctx, uint64_t arg);

/* Handle of a scheduled event, for sim_cancel(). 0 is never a valid id. */
typedef uint64_t SimEventId;

typedef struct SimEngine SimEngine;

/* Lifecycle. sim_engine_free() accepts NULL. */
SimEngine *sim_engine_new(void);
void sim_engine_free(SimEngine *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimEngine, sim_engine_free)

/* The current simulated time. */
SimTime sim_now(const SimEngine *e);

/* Schedule fn(ctx, arg) at absolute time at (>= now). */
SimEventId sim_schedule(SimEngine *e, SimTime at, SimEventFn fn, void *ctx, uint64_t arg);

/* Schedule fn(ctx, arg) delay ns from now. */
SimEventId sim_schedule_in(SimEngine *e, SimTime delay, SimEventFn fn, void *ctx, uint64_t arg);

/* Cancel a pending event. Cancelling an event that already fired or was
 * already cancelled is harmless. Cancellation is lazy: the event is skipped
 * when its turn comes. */
void sim_cancel(SimEngine *e, SimEventId id);

/* Fire events in order until none is pending, the next event is later
 * than until, or sim_stop() was called. The clock is left at the time of the
 * last event fired (or at until when that is reached with events pending).
 * Returns true when events remain pending. */
bool sim_run(SimEngine *e, SimTime until);

/* A time no pending event fires before: the next event's time (a
 * cancelled one's included); SIM_TIME_MAX when none is pending. For a
 * caller that paces the engine against another clock. */
SimTime sim_next_bound(const SimEngine *e);

/* Ask sim_run() to return after the event being fired. */
void sim_stop(SimEngine *e);

/* Number of events pending (cancelled ones not yet skipped included). */
size_t sim_pending(const SimEngine *e);

/* Number of events fired since the engine was made. */
uint64_t sim_fired(const SimEngine *e);

/* ---- Random numbers ----------------------------------------------------
 * xoshiro256** seeded through splitmix64. Each consumer owns a SimRng
 * derived from the run seed and a stream number, so adding a consumer never
 * changes the numbers another one draws. */
typedef struct SimRng {
    uint64_t s[4];
} SimRng;

void sim_rng_init(SimRng *r, uint64_t seed, uint64_t stream);

static inline uint64_t sim_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t sim_rng_next(SimRng *r)
{
    uint64_t *s = r->s;
    uint64_t result = sim_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = sim_rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) without modulo bias (Lemire). n > 0. */
static inline uint64_t sim_rng_below(SimRng *r, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)sim_rng_next(r) * n;
    uint64_t l = (uint64_t)m;
    if (l < n) {
        uint64_t t = -n % n;
        while (l < t) {
            m = (unsigned __int128)sim_rng_next(r) * n;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1). */
static inline double sim_rng_double(SimRng *r) { return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53; }

/* The name of a signal that stops a run (SIGINT, SIGTERM, SIGHUP), for
 * messages; "signal" for another. */
const char *sim_signal_name(int sig);

/* The one line every command ends with when a signal stopped it:
 * "interrupted by SIGNAL WHEN; LEFT", WHEN where it caught the command
 * ("after 3 rounds", "while reading FILE (line N)"), LEFT what was kept
 * ("nothing written" when nothing was). */
void sim_interrupted_error(GError **error, GQuark domain, int code, int sig, const char *when,
                           const char *left);

#endif
