/*
 * test_fdp.c - Flexible Data Placement in the FTL: random traffic naming
 * placement identifiers on tiny drives, with the integrity oracle on every
 * read, the FTL invariant checkers (fdp_check among them) and an isolation
 * check of its own. That check follows every slot the drive places, from
 * the place hook alone: host data of one handle never shares a block with
 * another handle's data, and a persistently isolated handle's data (host
 * or moved by GC) stays in blocks of that handle; data GC moves for an
 * initially isolated handle may share blocks, only with other such data.
 * A block's record starts again when its first slot is written (blocks
 * fill from slot 0 after each erase). --stress runs 10^7 operations;
 * --stress-ru as many with GC by whole reclaim units.
 */
#include "models/blocks.h"
#include "models/drive.h"
#include "models/fdp.h"
#include "tests/cutest.h"
#include "tests/oracle.h"
#include "tests/tiny_drive.h"

#define OWNER_NONE (-1)
#define OWNER_SHARED (-2)

typedef struct Iso {
    Oracle o;
    uint32_t handles;
    uint32_t spb;       /* slots per block */
    uint8_t *lpn_pid;   /* placement identifier of each lpn's latest write */
    uint8_t *slot_pid;  /* placement identifier of the data each slot holds */
    int *owner;         /* per block: the handle its data belongs to, OWNER_SHARED, OWNER_NONE */
    bool persistent[8];
    uint64_t placed, moved, mixed, shared_moves;
} Iso;

static void iso_place(void *ctx, uint64_t lpn, uint64_t dst, uint64_t src)
{
    Iso *s = ctx;
    oracle_on_place(&s->o, lpn, dst, src);
    bool host = src == DRIVE_UNMAPPED;
    uint8_t pid = host ? s->lpn_pid[lpn] : s->slot_pid[src];
    s->slot_pid[dst] = pid;
    uint32_t h = pid % s->handles;
    int want = host || s->persistent[h] ? (int)h : OWNER_SHARED;
    uint64_t b = dst / s->spb;
    if (dst % s->spb == 0)
        s->owner[b] = want;
    s->mixed += s->owner[b] != want;
    s->placed++;
    s->moved += !host;
    s->shared_moves += want == OWNER_SHARED;
}

static void fdp_drive(DriveParams *p, uint32_t handles, const char *isolation, uint32_t groups)
{
    tiny_drive(p, 24, 0.3);
    p->channels = 4; /* four dies, for two reclaim groups */
    p->user_capacity = (uint64_t)((double)drive_params_raw_capacity(p) / 1.3) / 4096 * 4096;
    p->fdp_handles = handles;
    p->fdp_groups = groups;
    g_strlcpy(p->fdp_isolation, isolation, sizeof p->fdp_isolation);
}

/* Random writes (each naming a random placement identifier; a third of
 * them to a hot eighth of the drive), reads, trims and flushes at QD 1. */
static void iso_step(Iso *s, SimRng *r)
{
    Oracle *o = &s->o;
    uint64_t x = sim_rng_below(r, 100);
    uint64_t npages = 1 + sim_rng_below(r, 8);
    uint64_t span = sim_rng_below(r, 3) == 0 ? o->nlpn / 8 : o->nlpn;
    uint64_t lpn = sim_rng_below(r, span - npages);
    uint64_t off = lpn * 4096, len = npages * 4096;
    int op = x < 60 ? IO_WRITE : x < 90 ? IO_READ : x < 98 ? IO_TRIM : IO_FLUSH;
    uint32_t pids = drive_params_fdp_pids(drive_params(o->d));
    uint32_t pid = (uint32_t)sim_rng_below(r, pids);
    if (op == IO_WRITE) {
        o->version++;
        for (uint64_t l = lpn; l < lpn + npages; l++) {
            o->shadow[l] = o->version;
            s->lpn_pid[l] = (uint8_t)pid;
        }
    } else if (op == IO_TRIM) {
        for (uint64_t l = lpn; l < lpn + npages; l++)
            o->shadow[l] = 0;
    } else if (op == IO_FLUSH) {
        off = len = 0;
    }
    oracle_submit(o, op, off, len, pid);
}

static void run_iso(const DriveParams *p, uint64_t steps, uint64_t check_every)
{
    Iso s = {0};
    oracle_init(&s.o, p, false);
    s.handles = p->fdp_handles;
    s.spb = (uint32_t)(drive_params_block_bytes(p) / 4096);
    s.lpn_pid = g_new0(uint8_t, s.o.nlpn);
    s.slot_pid = g_new0(uint8_t, drive_slots(s.o.d));
    s.owner = g_new(int, drive_slots(s.o.d) / s.spb);
    for (uint64_t b = 0; b < drive_slots(s.o.d) / s.spb; b++)
        s.owner[b] = OWNER_NONE;
    for (uint32_t h = 0; h < s.handles; h++)
        s.persistent[h] = drive_params_fdp_persistent(p, h) == 1;
    drive_set_place_hook(s.o.d, iso_place, &s);
    SimRng r;
    sim_rng_init(&r, 7, s.handles);
    char why[256];
    uint64_t bad = 0;
    for (uint64_t i = 0; i < steps; i++) {
        iso_step(&s, &r);
        if (i % check_every == 0 && !drive_check(s.o.d, why, sizeof why) && bad++ == 0)
            fprintf(stderr, "step %" G_GUINT64_FORMAT ": %s\n", i, why);
    }
    CU_ASSERT_TRUE(drive_check(s.o.d, why, sizeof why));
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(s.o.mismatches, 0);
    CUTEST_EQ(s.mixed, 0);
    CU_ASSERT(s.o.reads_checked > steps / 4);
    CU_ASSERT(s.moved > s.placed / 20); /* GC ran: the isolation was tested under it */
    /* the per-handle counters: the host bytes the drive counted, GC's by handle */
    uint64_t host = 0, media = 0, gc = 0, across = 0;
    for (uint32_t h = 0; h <= s.handles; h++) {
        const DriveFdpHandle *f = drive_fdp_handle(s.o.d, h);
        host += f->host_bytes;
        media += f->media_bytes - f->gc_bytes;
        gc += f->gc_bytes;
        across += f->moved_across;
        if (h < s.handles && f->persistent)
            CUTEST_EQ(f->moved_across, 0);
    }
    /* what the host wrote, buffered or not; what of it was programmed */
    CUTEST_EQ(host, drive_stats(s.o.d)->host_bytes[IO_WRITE]);
    CUTEST_EQ(media, drive_stats(s.o.d)->nand_write_bytes[CAUSE_HOST]);
    CUTEST_EQ(gc, drive_stats(s.o.d)->nand_write_bytes[CAUSE_GC]);
    /* initially isolated handles' data GC moved went across, and only that */
    bool any_initial = false;
    for (uint32_t h = 0; h < s.handles; h++)
        any_initial |= !s.persistent[h];
    CU_ASSERT(any_initial ? across > 0 && s.shared_moves > 0 : across == 0 && s.shared_moves == 0);
    g_free(s.lpn_pid);
    g_free(s.slot_pid);
    g_free(s.owner);
    oracle_release(&s.o);
}

static void test_persistent(void)
{
    DriveParams p;
    fdp_drive(&p, 4, "persistent", 1);
    run_iso(&p, 40000, 100);
}

static void test_mixed_types(void)
{
    DriveParams p;
    fdp_drive(&p, 4, "persistent,initial,persistent,initial", 1);
    run_iso(&p, 40000, 100);
}

static void test_initial_groups(void)
{
    DriveParams p;
    fdp_drive(&p, 3, "initial", 2);
    run_iso(&p, 40000, 100);
}

/* GC by whole reclaim units (gc_unit = reclaim_unit): a unit of a block on
 * each die of its group, under the oracle with every check (fdp_check's
 * of the units among them) after every hundred commands. */
static void ru_drive(DriveParams *p, uint32_t handles, const char *isolation, uint32_t groups)
{
    fdp_drive(p, handles, isolation, groups);
    p->fdp_gc_unit = FDP_GC_RU;
    p->fdp_ru_size =
        drive_params_block_bytes(p) * (p->channels * p->ces_per_channel * p->dies_per_ce / groups);
}

static void test_ru_persistent(void)
{
    DriveParams p;
    ru_drive(&p, 4, "persistent", 1);
    run_iso(&p, 40000, 100);
}

static void test_ru_mixed_groups(void)
{
    DriveParams p;
    ru_drive(&p, 3, "persistent,initial,initial", 2);
    run_iso(&p, 40000, 100);
}

/* The units' check fails on a block taken again while its unit holds it
 * (as a caller that took a block in use would): the unit GC has not
 * chosen loses a block. */
static void test_ru_break(void)
{
    DriveParams p;
    ru_drive(&p, 2, "initial", 1);
    Oracle o;
    oracle_init(&o, &p, false);
    o.last_op = IO_WRITE;
    SimRng r;
    sim_rng_init(&r, 11, 0);
    for (int i = 0; i < 3000; i++) {
        uint64_t before = o.done;
        drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .offset = sim_rng_below(&r, o.nlpn - 1) * 4096, .length = 4096, .tag = o.done, .pid = i % 2});
        while (o.done == before && sim_run(o.e, SIM_TIME_MAX))
            ;
    }
    char why[256];
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    uint32_t victim = NO_BLOCK;
    for (uint32_t b = 0; b < drive_geom(o.d)->nblocks && victim == NO_BLOCK; b++)
        if (blk_state(o.d, b) == BLK_FULL && fdp_block_tag(o.d, b) == 1)
            victim = b;
    CU_ASSERT_FATAL(victim != NO_BLOCK);
    fdp_block_taken(o.d, victim, 1);
    why[0] = '\0';
    CU_ASSERT_FALSE(fdp_check(o.d, why, sizeof why));
    CU_ASSERT_FALSE(drive_check(o.d, why, sizeof why));
    CU_ASSERT(strstr(why, "FDP") != NULL && strstr(why, "reclaim unit") != NULL);
    fprintf(stderr, "broken: %s\n", why);
    oracle_release(&o);
}

/* The units' valid slots as fdp.c counts them against their blocks': a
 * long random run of writes and trims naming both handles, with GC by
 * whole units, leaves them equal (drive_check() every thousand commands);
 * one unit's count off by a slot, as an update missed would leave it,
 * fails fdp_check(), and put back passes again. */
static void test_ru_break_valid(void)
{
    DriveParams p;
    ru_drive(&p, 2, "persistent,initial", 1);
    Oracle o;
    oracle_init(&o, &p, false);
    SimRng r;
    sim_rng_init(&r, 13, 0);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < 60000; i++) {
        uint64_t npages = 1 + sim_rng_below(&r, 8);
        uint64_t lpn = sim_rng_below(&r, o.nlpn - npages);
        bool trim = sim_rng_below(&r, 10) == 0;
        if (!trim)
            o.version++;
        for (uint64_t l = lpn; l < lpn + npages; l++)
            o.shadow[l] = trim ? 0 : o.version;
        oracle_submit(&o, trim ? IO_TRIM : IO_WRITE, lpn * 4096, npages * 4096,
                      (uint32_t)sim_rng_below(&r, 2));
        if (i % 1000 == 0)
            oracle_check(&o, i, &bad);
    }
    CUTEST_EQ(bad, 0);
    CU_ASSERT(drive_stats(o.d)->nand_write_bytes[CAUSE_GC] > 0);
    char why[256];
    CU_ASSERT_TRUE(fdp_check(o.d, why, sizeof why));
    uint32_t b = NO_BLOCK;
    for (uint32_t x = 0; x < drive_geom(o.d)->nblocks && b == NO_BLOCK; x++)
        if (blk_state(o.d, x) == BLK_FULL && blk_valid(o.d, x) > 0 && !blk_is_map(o.d, x))
            b = x;
    CU_ASSERT_FATAL(b != NO_BLOCK);
    fdp_test_skew_valid(o.d, b, 1);
    why[0] = '\0';
    CU_ASSERT_FALSE(fdp_check(o.d, why, sizeof why));
    CU_ASSERT(strstr(why, "valid slots") != NULL);
    fprintf(stderr, "broken: %s\n", why);
    fdp_test_skew_valid(o.d, b, -1);
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    oracle_release(&o);
}

/* Static wear leveling with GC by whole units: a cold handle writes a
 * third of the drive once, in order, and a hot one rewrites a tenth of it
 * at random, ~100 times over. The cold handle's last unit stays open (its
 * blocks partly written: nothing more comes), and when leveling picks a
 * block of it, the unit is closed and moved, so the cold data's blocks
 * are erased as often as the others, give or take the threshold. */
static void test_ru_wear(void)
{
    DriveParams p;
    ru_drive(&p, 2, "persistent", 1);
    p.wear_dynamic = true;
    p.wear_static_threshold = 8;
    Oracle o;
    oracle_init(&o, &p, false);
    SimRng r;
    sim_rng_init(&r, 17, 0);
    uint64_t cold = o.nlpn / 3 - 5, hot = o.nlpn / 10, bad = 0;
    for (uint64_t l = 0; l < cold; l++) {
        o.shadow[l] = ++o.version;
        oracle_submit(&o, IO_WRITE, l * 4096, 4096, 0);
    }
    oracle_submit(&o, IO_FLUSH, 0, 0, 0);
    for (uint64_t i = 0; i < 110000; i++) {
        uint64_t lpn = o.nlpn - hot + sim_rng_below(&r, hot / 8) * 8;
        o.version++;
        for (uint64_t l = lpn; l < lpn + 8; l++)
            o.shadow[l] = o.version;
        oracle_submit(&o, IO_WRITE, lpn * 4096, 8 * 4096, 1);
        if (i % 5000 == 0)
            oracle_check(&o, i, &bad);
    }
    for (uint64_t l = 0; l < o.nlpn; l += 16) /* the cold data is still there */
        oracle_submit(&o, IO_READ, l * 4096, MIN(16, o.nlpn - l) * 4096, 0);
    oracle_check(&o, 0, &bad);
    CUTEST_EQ(bad, 0);
    CUTEST_EQ(o.mismatches, 0);
    DriveWear w;
    drive_wear(o.d, &w);
    fprintf(stderr, "ru wear: pool %u..%u erases, %" G_GUINT64_FORMAT " cold blocks moved\n",
            w.pool.min, w.pool.max, drive_stats(o.d)->wl_blocks);
    CU_ASSERT(w.pool.max >= 60);
    CU_ASSERT(drive_stats(o.d)->wl_blocks > 0);
    CU_ASSERT(w.pool.max - w.pool.min <= 8 + 4);
    oracle_release(&o);
}

/* A drive without FDP ignores no placement: a write naming pid 0
 * is a write naming none, and its results do not move (the FDP code is not on
 * its path). */
static void test_no_fdp_same(void)
{
    DriveParams p;
    tiny_drive(&p, 24, 0.3);
    uint64_t w[2];
    for (int k = 0; k < 2; k++) {
        Oracle o;
        oracle_init(&o, &p, false);
        o.last_op = IO_WRITE; /* no read to check at each completion */
        SimRng r;
        sim_rng_init(&r, 5, 0);
        for (int i = 0; i < 5000; i++) {
            uint64_t lpn = sim_rng_below(&r, o.nlpn - 1);
            uint64_t before = o.done;
            if (k == 0)
                drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .offset = lpn * 4096, .length = 4096, .tag = o.done});
            else
                drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .offset = lpn * 4096, .length = 4096, .tag = o.done, .pid = 0});
            while (o.done == before && sim_run(o.e, SIM_TIME_MAX))
                ;
        }
        w[k] = drive_stats(o.d)->nand_write_bytes[CAUSE_GC];
        CUTEST_EQ(drive_fdp_handles(o.d), 0);
        oracle_release(&o);
    }
    CU_ASSERT(w[0] > 0);
    CUTEST_EQ(w[0], w[1]);
}

/* Two handles, one hot and one cold: separated, GC moves far less than
 * with the same writes mixed in one handle. */
static uint64_t hot_cold_gc(uint32_t handles)
{
    DriveParams p;
    fdp_drive(&p, 2, "persistent", 1);
    p.fdp_handles = handles;
    Oracle o;
    oracle_init(&o, &p, false);
    o.last_op = IO_WRITE;
    SimRng r;
    sim_rng_init(&r, 3, 0);
    uint64_t hot = o.nlpn / 10;
    for (int i = 0; i < 60000; i++) {
        bool is_hot = sim_rng_below(&r, 10) < 8; /* 80% of writes to 10% of the drive */
        uint64_t lpn = is_hot ? sim_rng_below(&r, hot) : hot + sim_rng_below(&r, o.nlpn - hot);
        uint64_t before = o.done;
        drive_submit(o.d, &(DriveCmd){.op = IO_WRITE, .offset = lpn * 4096, .length = 4096, .tag = o.done, .pid = handles > 1 && is_hot ? 1 : 0});
        while (o.done == before && sim_run(o.e, SIM_TIME_MAX))
            ;
    }
    char why[256];
    CU_ASSERT_TRUE(drive_check(o.d, why, sizeof why));
    uint64_t gc = drive_stats(o.d)->nand_write_bytes[CAUSE_GC];
    oracle_release(&o);
    return gc;
}

static void test_hot_cold(void)
{
    uint64_t mixed = hot_cold_gc(1), apart = hot_cold_gc(2);
    fprintf(stderr, "hot/cold GC bytes: one handle %" G_GUINT64_FORMAT ", two %" G_GUINT64_FORMAT "\n",
            mixed, apart);
    CU_ASSERT(apart * 10 < mixed * 8); /* at least a fifth less */
}

static void test_stress(void)
{
    DriveParams p;
    fdp_drive(&p, 4, "persistent,initial,persistent,persistent", 2);
    run_iso(&p, 10000000, 10000);
}

/* The same with GC by whole reclaim units, and static wear leveling
 * moving cold units (closing those still being filled) all along. */
static void test_ru_stress(void)
{
    DriveParams p;
    ru_drive(&p, 4, "persistent,initial,persistent,persistent", 2);
    p.wear_dynamic = true;
    p.wear_static_threshold = 16;
    run_iso(&p, 10000000, 10000);
}

int main(int argc, char **argv)
{
    if (argc > 1 && g_strcmp0(argv[1], "--stress") == 0) {
        CU_TestInfo stress[] = {{"fdp_oracle_1e7", test_stress}, CU_TEST_INFO_NULL};
        return cutest_run("fdp_stress", stress);
    }
    if (argc > 1 && g_strcmp0(argv[1], "--stress-ru") == 0) {
        CU_TestInfo stress[] = {{"fdp_ru_oracle_1e7", test_ru_stress}, CU_TEST_INFO_NULL};
        return cutest_run("fdp_ru_stress", stress);
    }
    CU_TestInfo tests[] = {
        {"persistent", test_persistent},
        {"mixed_types", test_mixed_types},
        {"initial_groups", test_initial_groups},
        {"no_fdp_same", test_no_fdp_same},
        {"hot_cold", test_hot_cold},
        {"ru_persistent", test_ru_persistent},
        {"ru_mixed_groups", test_ru_mixed_groups},
        {"ru_break", test_ru_break},
        {"ru_break_valid", test_ru_break_valid},
        {"ru_wear", test_ru_wear},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("fdp", tests);
}
