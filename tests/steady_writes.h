/*
 * steady_writes.h - uniform random writes over a full drive, for tests that
 * compare the steady-state write amplification with FIFO cleaning's closed
 * form (test_gc.c, test_mapunit.c).
 *
 * steady_start() makes the drive and steady_fill() writes the user capacity
 * sequentially; steady_run() then
 * keeps 32 random bs-aligned writes in flight for `total` writes, counting
 * the erased blocks at each completion over the second half, and copies
 * the drive's counters at the half into *half. steady_closed_waf() gives
 * the effective spare factor from that count and the FIFO closed form at it.
 */
#ifndef FTLSIM_STEADY_WRITES_H
#define FTLSIM_STEADY_WRITES_H

#include "models/drive.h"

#include <math.h>

typedef struct Steady {
    SimEngine *e;
    Drive *d;
    SimRng r;
    uint64_t units;      /* bs-sized units of the user capacity */
    uint32_t bs;         /* bytes per random write */
    uint64_t done, stop; /* writes completed, and when to stop */
    bool measuring;
    double free_sum; /* erased blocks, summed over completions while measuring */
    uint64_t free_n;
} Steady;

static inline void steady_submit(Steady *s)
{
    drive_submit(s->d, &(DriveCmd){.op = IO_WRITE, .offset = sim_rng_below(&s->r, s->units) * s->bs, .length = s->bs, .tag = 1});
}

static inline void steady_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Steady *s = ctx;
    if (tag != 1)
        return; /* the sequential fill */
    if (s->measuring) {
        s->free_sum += (double)drive_stats(s->d)->free_blocks;
        s->free_n++;
    }
    if (++s->done == s->stop) {
        sim_stop(s->e);
        return;
    }
    steady_submit(s);
}

/* Set the completion callback and write [0, capacity) in 128 KiB writes. */
static inline void steady_fill(Steady *s, uint64_t capacity)
{
    drive_set_done(s->d, steady_done, s);
    for (uint64_t off = 0; off < capacity; off += 131072) {
        drive_submit(s->d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = MIN(131072, capacity - off)});
        sim_run(s->e, SIM_TIME_MAX);
    }
}

/* A new engine and drive of p, random writes of bs bytes seeded (seed,
 * stream), the user capacity written in order. */
static inline void steady_start(Steady *s, const DriveParams *p, uint32_t bs, uint64_t seed,
                                uint64_t stream)
{
    *s = (Steady){.e = sim_engine_new(), .bs = bs};
    s->d = drive_new(s->e, p, 1);
    s->units = p->user_capacity / bs;
    sim_rng_init(&s->r, seed, stream);
    steady_fill(s, p->user_capacity);
}

/* total random writes at QD 32; *half: the counters after the first half. */
static inline void steady_run(Steady *s, uint64_t total, DriveStats *half)
{
    s->stop = total / 2;
    for (int k = 0; k < 32; k++)
        steady_submit(s);
    sim_run(s->e, SIM_TIME_MAX);
    *half = *drive_stats(s->d);
    s->measuring = true;
    s->stop = total;
    sim_run(s->e, SIM_TIME_MAX); /* the 31 writes still in flight go on */
}

/* The FIFO closed form 1 / (1 - u), u = exp(-(1 + rho)(1 - u)), at the
 * measured effective spare factor rho (set in *rho): slots in circulation
 * over user_pages, minus 1. What circulates is every slot but the erased
 * blocks and (on average) the unwritten halves of the host and GC streams'
 * open blocks: one block per die. */
static inline double steady_closed_waf(const Steady *s, uint32_t dies, uint32_t blocks_per_die,
                                       double user_pages, double *rho)
{
    double slots = (double)drive_slots(s->d), per_block = slots / (dies * blocks_per_die);
    double idle = (s->free_sum / (double)s->free_n + dies) * per_block;
    *rho = (slots - idle) / user_pages - 1.0;
    double a = 1.0 + *rho, u = 0.5;
    for (int k = 0; k < 1000; k++)
        u = exp(-a * (1.0 - u)); /* converges to the root below 1 */
    return 1.0 / (1.0 - u);
}

#endif
