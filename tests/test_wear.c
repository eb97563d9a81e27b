/*
 * test_wear.c - wear leveling on tiny drives. Hot data rewritten over cold
 * data: without leveling the blocks holding the cold data are never erased
 * again while the others cycle; static leveling moves the cold data so the
 * spread stays near its threshold, at the cost of the moves in GC writes.
 * Repeated overwrites of a small region of an empty drive: without dynamic
 * leveling the same few blocks come back from the free list every pass;
 * with it the erases spread over every block. And the FTL oracle with both
 * kinds on and a threshold small enough to move cold data all the time.
 */
#include "models/drive.h"
#include "tests/cutest.h"
#include "tests/oracle.h"
#include "tests/tiny_drive.h"

#define KIB 1024ull

/* A closed loop of 4 KiB-aligned writes of `size` bytes over [base, base +
 * span), random or in order (wrapping), qd outstanding. */
typedef struct Loop {
    SimEngine *e;
    Drive *d;
    uint64_t base, span, size, next, issued, done, total;
    bool random;
    SimRng rng;
} Loop;

static void loop_submit(Loop *l)
{
    uint64_t off;
    if (l->random) {
        off = sim_rng_below(&l->rng, l->span / l->size) * l->size;
    } else {
        off = l->next;
        l->next = (l->next + l->size) % l->span;
    }
    drive_submit(l->d, &(DriveCmd){.op = IO_WRITE, .offset = l->base + off, .length = l->size, .tag = l->issued++});
}

static void loop_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Loop *l = ctx;
    (void)tag;
    l->done++;
    if (l->issued < l->total)
        loop_submit(l);
}

/* Write n commands and let the drive go idle (its background work done). */
static void loop_run(Loop *l, uint64_t base, uint64_t span, uint64_t size, uint64_t n, bool random)
{
    l->base = base;
    l->span = span;
    l->size = size;
    l->next = 0;
    l->random = random;
    l->total = l->issued + n;
    drive_set_done(l->d, loop_done, l);
    for (int k = 0; k < 4 && l->issued < l->total; k++)
        loop_submit(l);
    sim_run(l->e, SIM_TIME_MAX);
    CUTEST_EQ(l->done, l->total);
}

static void loop_init(Loop *l, const DriveParams *p)
{
    memset(l, 0, sizeof(*l));
    l->e = sim_engine_new();
    l->d = drive_new(l->e, p, 1);
    sim_rng_init(&l->rng, 11, 0);
}

static void loop_release(Loop *l)
{
    drive_free(l->d);
    sim_engine_free(l->e);
}

typedef struct HotCold {
    DriveWear wear;
    uint64_t gc_bytes, moves;
} HotCold;

/* Fill the drive in order, then 4 KiB random writes over its first tenth
 * only: 150 times that tenth. */
static void hot_cold(bool dynamic, uint32_t threshold, HotCold *out)
{
    DriveParams p;
    tiny_drive(&p, 64, 0.25);
    p.wear_dynamic = dynamic;
    p.wear_static_threshold = threshold;
    Loop l;
    loop_init(&l, &p);
    uint64_t user = p.user_capacity / (64 * KIB) * (64 * KIB);
    loop_run(&l, 0, user, 64 * KIB, user / (64 * KIB), false);
    uint64_t hot = user / 10 / (4 * KIB) * (4 * KIB);
    loop_run(&l, 0, hot, 4 * KIB, 150 * hot / (4 * KIB), true);
    char why[256];
    CU_ASSERT_TRUE(drive_check(l.d, why, sizeof why));
    drive_wear(l.d, &out->wear);
    const DriveStats *st = drive_stats(l.d);
    out->gc_bytes = st->nand_write_bytes[CAUSE_GC];
    out->moves = st->wl_blocks;
    CUTEST_EQ(out->wear.pool.erases, st->nand_erases);
    loop_release(&l);
}

static void test_static_leveling(void)
{
    HotCold none, dyn, both;
    hot_cold(false, 0, &none);
    hot_cold(true, 0, &dyn);
    hot_cold(true, 8, &both);
    /* the cold data's blocks stay at their fill-time count: 0 */
    CUTEST_EQ(none.wear.pool.min, 0);
    CUTEST_EQ(dyn.wear.pool.min, 0);
    CU_ASSERT(none.wear.pool.max > 40);
    CU_ASSERT(dyn.wear.pool.max > 40);
    CUTEST_EQ(none.moves, 0);
    CUTEST_EQ(dyn.moves, 0);
    /* moving cold data keeps every block near the mean: within the
     * threshold on each die, give or take the erases done while a move
     * waits its turn, and the two dies apart by a few */
    double mean = (double)both.wear.pool.erases / both.wear.pool.blocks;
    CU_ASSERT(both.moves > 0);
    CU_ASSERT(both.wear.pool.max - both.wear.pool.min <= 8 + 4);
    CU_ASSERT(both.wear.pool.max <= mean + 8);
    CU_ASSERT(both.wear.pool.min + 8 >= mean);
    CU_ASSERT(both.wear.pool.max < none.wear.pool.max * 2 / 3);
    /* the moves are GC writes: at least a block of data each, mostly valid */
    CU_ASSERT(both.gc_bytes > dyn.gc_bytes + both.moves * 96 * 4 * KIB / 2);
    if (both.wear.pool.max - both.wear.pool.min > 12 || none.wear.pool.max <= 40)
        fprintf(stderr, "none %u..%u, dynamic %u..%u, both %u..%u (%" G_GUINT64_FORMAT " moves)\n",
                none.wear.pool.min, none.wear.pool.max, dyn.wear.pool.min, dyn.wear.pool.max,
                both.wear.pool.min, both.wear.pool.max, both.moves);
}

/* An empty drive, the same tenth written 30 times over in order: the
 * blocks it empties are erased in idle die time and go back on the free
 * list. */
static void overwrite_passes(bool dynamic, DriveWear *w, uint64_t *erases)
{
    DriveParams p;
    tiny_drive(&p, 64, 0.25);
    p.wear_dynamic = dynamic;
    Loop l;
    loop_init(&l, &p);
    uint64_t span = p.user_capacity / 10 / (64 * KIB) * (64 * KIB);
    for (int pass = 0; pass < 30; pass++)
        loop_run(&l, 0, span, 64 * KIB, span / (64 * KIB), false);
    char why[256];
    CU_ASSERT_TRUE(drive_check(l.d, why, sizeof why));
    drive_wear(l.d, w);
    *erases = drive_stats(l.d)->nand_erases;
    loop_release(&l);
}

static void test_dynamic_leveling(void)
{
    DriveWear lifo, dyn;
    uint64_t e_lifo, e_dyn;
    overwrite_passes(false, &lifo, &e_lifo);
    overwrite_passes(true, &dyn, &e_dyn);
    /* the same work either way: every pass empties the blocks of the last */
    CUTEST_EQ(e_lifo, e_dyn);
    CU_ASSERT(e_lifo > 0);
    double mean = (double)e_dyn / dyn.pool.blocks;
    /* last-erased first: two sets of blocks take turns (one is erased while
     * the pass writes the other), the rest never */
    CU_ASSERT(lifo.pool.max >= 14);
    CU_ASSERT(lifo.pool.max > 3 * mean);
    CUTEST_EQ(lifo.pool.min, 0);
    /* least-worn first: every block within about one erase of the mean */
    CU_ASSERT(dyn.pool.max <= mean + 2);
    CU_ASSERT(dyn.pool.min + 2 >= mean);
}

/* The oracle's random traffic with both kinds of leveling and a threshold
 * of 2, on a drive where GC runs all the time: invariants after every
 * command, data checked on every read. */
static void test_oracle(void)
{
    static const OracleMix mix = {.max_pages = 16, .write_pct = 60, .unaligned = true};
    DriveParams p;
    tiny_drive(&p, 24, 0.15);
    p.wear_dynamic = true;
    p.wear_static_threshold = 2;
    Oracle o;
    oracle_init(&o, &p, true);
    SimRng r;
    sim_rng_init(&r, 5, 0);
    uint64_t bad = 0;
    const uint64_t steps = 30000;
    for (uint64_t i = 0; i < steps; i++) {
        oracle_step(&o, &r, &mix);
        if (i % 1000 == 999) /* idle time: the moves run in the background */
            oracle_idle(&o, 50 * SIM_MS);
        oracle_check(&o, i, &bad);
    }
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(o.mismatches, 0);
    CU_ASSERT(o.reads_checked > steps / 4);
    const DriveStats *st = drive_stats(o.d);
    CU_ASSERT(st->wl_blocks > 10);
    CU_ASSERT(st->gc_blocks > 100);
    oracle_release(&o);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"static leveling bounds the spread", test_static_leveling},
        {"dynamic leveling spreads free-block reuse", test_dynamic_leveling},
        {"oracle with leveling", test_oracle},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("wear", tests);
}
