/*
 * bench_engine.c - the event engine alone: schedule + fire per second with
 * a steady population of pending events (default 10^4), as the drive model
 * keeps. Each fired event schedules one more at a random distance, so the
 * heap size stays constant. Prints one line: events/s.
 */
#include "sim/engine/engine.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct Bench {
    SimEngine *e;
    SimRng rng;
    uint64_t left;
} Bench;

static void fire(void *ctx, uint64_t arg)
{
    Bench *b = ctx;
    (void)arg;
    if (b->left == 0)
        return;
    b->left--;
    sim_schedule_in(b->e, 1 + sim_rng_below(&b->rng, 100000), fire, b, 0);
}

int main(int argc, char **argv)
{
    uint64_t pending = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 10000;
    uint64_t total = argc > 2 ? g_ascii_strtoull(argv[2], NULL, 10) : 20000000;
    Bench b = {.e = sim_engine_new(), .left = total};
    sim_rng_init(&b.rng, 1, 1);
    for (uint64_t i = 0; i < pending; i++)
        sim_schedule(b.e, sim_rng_below(&b.rng, 100000), fire, &b, 0);
    gint64 t0 = g_get_monotonic_time();
    sim_run(b.e, SIM_TIME_MAX);
    double s = (double)(g_get_monotonic_time() - t0) / 1e6;
    printf("%.0f\n", (double)sim_fired(b.e) / s);
    sim_engine_free(b.e);
    return 0;
}
