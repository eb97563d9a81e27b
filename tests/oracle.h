/*
 * oracle.h - the integrity oracle the FTL suites share.
 *
 * A shadow array holds the version last written to each logical page (0
 * after TRIM); the drive's place hook tells which version every physical
 * slot receives (from the buffer: the page's latest version; from GC or
 * folding: the version of the source slot). Every read checks that each
 * page it covers maps to a slot holding its latest version, or is
 * unmapped exactly when it was never written or was trimmed.
 */
#ifndef FTLSIM_ORACLE_H
#define FTLSIM_ORACLE_H

#include "models/drive.h"
#include "tests/cutest.h"

#include <string.h>

typedef struct Oracle {
    SimEngine *e;
    Drive *d;
    uint64_t nlpn;
    uint32_t *shadow;   /* version last written per lpn, 0 after TRIM */
    uint32_t *slot_ver; /* version each physical slot holds */
    uint32_t version;
    uint64_t done, mismatches, reads_checked;
    uint64_t last_off, last_len;
    int last_op;
    bool stop_on_done; /* return to the test at each completion, background work pending */
} Oracle;

/* The random traffic of oracle_step(): up to max_pages pages, write_pct % writes,
 * reads up to 90 %, trims up to 98 %, the rest flushes; one write in eight
 * unaligned (a read-modify-write) when asked. */
typedef struct OracleMix {
    uint32_t max_pages;
    uint32_t write_pct;
    bool unaligned;
} OracleMix;

static void oracle_on_place(void *ctx, uint64_t lpn, uint64_t dst, uint64_t src)
{
    Oracle *o = ctx;
    o->slot_ver[dst] = src == DRIVE_UNMAPPED ? o->shadow[lpn] : o->slot_ver[src];
}

static void oracle_check_read(Oracle *o, uint64_t off, uint64_t len)
{
    for (uint64_t lpn = off / 4096; lpn <= (off + len - 1) / 4096; lpn++) {
        uint64_t loc = drive_lookup(o->d, lpn);
        o->reads_checked++;
        if (loc == DRIVE_UNMAPPED)
            o->mismatches += o->shadow[lpn] != 0;
        else if (loc != DRIVE_BUFFERED)
            o->mismatches += o->slot_ver[loc] != o->shadow[lpn];
    }
}

static void oracle_on_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Oracle *o = ctx;
    (void)tag;
    if (o->last_op == IO_READ)
        oracle_check_read(o, o->last_off, o->last_len);
    o->done++;
    if (o->stop_on_done)
        sim_stop(o->e);
}

static inline void oracle_init(Oracle *o, const DriveParams *p, bool stop_on_done)
{
    memset(o, 0, sizeof(*o));
    o->e = sim_engine_new();
    o->d = drive_new(o->e, p, 1);
    o->nlpn = p->user_capacity / 4096;
    o->shadow = g_new0(uint32_t, o->nlpn);
    o->slot_ver = g_new0(uint32_t, drive_slots(o->d));
    o->stop_on_done = stop_on_done;
    drive_set_done(o->d, oracle_on_done, o);
    drive_set_place_hook(o->d, oracle_on_place, o);
}

static inline void oracle_release(Oracle *o)
{
    drive_free(o->d);
    sim_engine_free(o->e);
    g_free(o->shadow);
    g_free(o->slot_ver);
}

/* One random command at QD 1, run to completion. */
/* Submit one command (a write naming placement identifier pid), remember
 * it for the failure message, and run until it completes: QD 1. */
static inline void oracle_submit(Oracle *o, int op, uint64_t off, uint64_t len, uint32_t pid)
{
    o->last_op = op;
    o->last_off = off;
    o->last_len = len;
    uint64_t before = o->done;
    drive_submit(o->d, &(DriveCmd){.op = (IoOp)op, .offset = off, .length = len, .tag = o->done, .pid = op == IO_WRITE ? pid : 0});
    while (o->done == before && sim_run(o->e, SIM_TIME_MAX))
        ;
    CUTEST_EQ(o->done, before + 1);
}

static inline void oracle_step(Oracle *o, SimRng *r, const OracleMix *mix)
{
    uint64_t x = sim_rng_below(r, 100);
    uint64_t npages = 1 + sim_rng_below(r, mix->max_pages);
    uint64_t lpn = sim_rng_below(r, o->nlpn - npages);
    uint64_t off = lpn * 4096, len = npages * 4096;
    if (mix->unaligned && sim_rng_below(r, 8) == 0) { /* read-modify-write */
        off += 512 * (1 + sim_rng_below(r, 7));
        len -= 512 * sim_rng_below(r, 7) + 512;
    }
    int op = x < mix->write_pct ? IO_WRITE : x < 90 ? IO_READ : x < 98 ? IO_TRIM : IO_FLUSH;
    if (op == IO_WRITE) {
        o->version++;
        for (uint64_t l = off / 4096; l <= (off + len - 1) / 4096; l++)
            o->shadow[l] = o->version;
    } else if (op == IO_TRIM) {
        for (uint64_t l = (off + 4095) / 4096; l < (off + len) / 4096; l++)
            o->shadow[l] = 0;
    } else if (op == IO_FLUSH) {
        off = len = 0;
    }
    oracle_submit(o, op, off, len, 0);
}

static void oracle_nop(void *ctx, uint64_t arg)
{
    (void)ctx;
    (void)arg;
}

/* Leave the drive idle for gap: its background work (folding, GC, wear
 * leveling) runs meanwhile. */
static inline void oracle_idle(Oracle *o, SimTime gap)
{
    sim_schedule_in(o->e, gap, oracle_nop, NULL, 0);
    sim_run(o->e, sim_now(o->e) + gap);
}

/* drive_check() after command i; counts failures in *bad, printing the first. */
static inline void oracle_check(Oracle *o, uint64_t i, uint64_t *bad)
{
    char why[256];
    if (!drive_check(o->d, why, sizeof why) && (*bad)++ == 0)
        fprintf(stderr, "step %" G_GUINT64_FORMAT ": %s\n", i, why);
}

#endif
