/*
 * test_zns.c - the zoned namespace's state machine (models/zns.c) through
 * the drive's commands: every zone state transition a write, an append and
 * each management action makes, every error status and the limits on open
 * and active zones, with the FTL invariants (zns_check among them) after
 * each command; then zones written and reset many times over, and two
 * zones written at once with every zone live: no GC moves a byte; and
 * zns_check catching a zone's page in another zone's block.
 */
#include "models/drive.h"
#include "models/fdp.h"
#include "models/geom.h"
#include "models/zns.h"
#include "tests/cutest.h"
#include "tests/tiny_drive.h"

#define KiB 1024u
#define ZONE (1024 * KiB)
#define ZCAP (768 * KiB)

typedef struct Z Z;
struct Z {
    SimEngine *e;
    Drive *d;
    uint64_t done;
    DriveCompletion last; /* the last command's completion */
    SimTime last_at;      /* and when it came */
    void (*feed)(Z *z, uint64_t tag); /* told of each completion, if set */
    uint64_t k[2], off[2], inflight[2];  /* test_two_writers_full's writers */
};

static void z_done(void *ctx, const DriveCompletion *dc)
{
    uint64_t tag = dc->tag;
    Z *z = ctx;
    z->last = *dc;
    z->last_at = sim_now(z->e);
    z->done++;
    if (z->feed)
        z->feed(z, tag);
}

static uint64_t z_append_cost; /* [zns] append_cost of the next z_init_dies() (ns) */

/* `dies` dies (one per channel) of `blocks` blocks of 384 KiB; 32 zones
 * of 1 MiB, 768 KiB writable; 2 open and 3 active at most. */
static void z_init_dies(Z *z, uint32_t dies, uint32_t blocks)
{
    DriveParams p;
    tiny_drive(&p, blocks, 0.3);
    p.channels = dies;
    p.interface = HOSTIF_NVME;
    p.pcie_gen = 3;
    p.pcie_lanes = 4;
    p.user_capacity = 32 * ZONE;
    p.zns_zone_size = ZONE;
    p.zns_zone_cap = ZCAP;
    p.zns_max_open = 2;
    p.zns_max_active = 3;
    p.zns_append_cost = z_append_cost;
    z->e = sim_engine_new();
    z->d = drive_new(z->e, &p, 1);
    z->done = 0;
    z->feed = NULL;
    drive_set_done(z->d, z_done, z);
}

static void z_init(Z *z) { z_init_dies(z, 2, 64); } /* a zone's capacity: a block on each die */

static void z_free(Z *z)
{
    drive_free(z->d);
    sim_engine_free(z->e);
}

static void z_wait(Z *z, uint64_t before)
{
    while (z->done == before && sim_run(z->e, SIM_TIME_MAX))
        ;
    CUTEST_EQ(z->done, before + 1);
    char why[256];
    if (!drive_check(z->d, why, sizeof why))
        fprintf(stderr, "%s\n", why);
    CU_ASSERT_TRUE(drive_check(z->d, why, sizeof why));
}

static ZnsStatus z_write(Z *z, uint64_t off, uint64_t len)
{
    uint64_t before = z->done;
    drive_submit(z->d, &(DriveCmd){.op = IO_WRITE, .offset = off, .length = len, .tag = before});
    z_wait(z, before);
    return (ZnsStatus)z->last.status;
}

static ZnsStatus z_op(Z *z, ZoneOp op, uint64_t zone, uint64_t len)
{
    uint64_t before = z->done;
    drive_submit(z->d, &(DriveCmd){.zop = op, .offset = zone, .length = len, .tag = before});
    z_wait(z, before);
    return (ZnsStatus)z->last.status;
}

static ZoneState z_state(Z *z, uint32_t k, uint64_t *wp) { return drive_zone_state(z->d, (uint64_t)k * ZONE, wp); }

static void test_write_transitions(void)
{
    Z z;
    z_init(&z);
    uint64_t wp;
    CUTEST_EQ(z_state(&z, 0, &wp), ZONE_EMPTY);
    CUTEST_EQ(z_write(&z, 0, 64 * KiB), ZNS_OK); /* empty -> implicitly open */
    CUTEST_EQ(z_state(&z, 0, &wp), ZONE_IMPLICIT_OPEN);
    CUTEST_EQ(wp, 64 * KiB);
    CUTEST_EQ(z_write(&z, 0, 4 * KiB), ZNS_INVALID_WRITE);        /* behind the write pointer */
    CUTEST_EQ(z_write(&z, 128 * KiB, 4 * KiB), ZNS_INVALID_WRITE); /* ahead of it */
    CUTEST_EQ(z_write(&z, 64 * KiB, ZCAP), ZNS_BOUNDARY);          /* past the capacity */
    CUTEST_EQ(z_state(&z, 0, &wp), ZONE_IMPLICIT_OPEN);
    CUTEST_EQ(wp, 64 * KiB); /* failed writes change nothing */
    CUTEST_EQ(z_write(&z, 64 * KiB, ZCAP - 64 * KiB), ZNS_OK);     /* to the capacity: full */
    CUTEST_EQ(z_state(&z, 0, &wp), ZONE_FULL);
    CUTEST_EQ(wp, ZCAP);
    CUTEST_EQ(z_write(&z, ZCAP, 4 * KiB), ZNS_FULL);
    CUTEST_EQ(z_write(&z, 0, 4 * KiB), ZNS_FULL);
    const DriveZns *s = drive_zns(z.d);
    CUTEST_EQ(s->ops[ZOP_NONE], 2);
    CUTEST_EQ(s->errors[ZNS_INVALID_WRITE], 2);
    CUTEST_EQ(s->errors[ZNS_BOUNDARY], 1);
    CUTEST_EQ(s->errors[ZNS_FULL], 2);
    CUTEST_EQ(s->implicit_opens, 1);
    CUTEST_EQ(drive_stats(z.d)->host_bytes[IO_WRITE], ZCAP); /* failed writes count no host bytes */
    CUTEST_EQ(s->by_state[ZONE_FULL], 1);
    CUTEST_EQ(s->by_state[ZONE_EMPTY], 31);
    z_free(&z);
}

static void test_open_close_finish(void)
{
    Z z;
    z_init(&z);
    /* open: empty, implicitly open, closed and explicitly open zones */
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 0, 0), ZNS_OK);
    CUTEST_EQ(z_state(&z, 0, NULL), ZONE_EXPLICIT_OPEN);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 0, 0), ZNS_OK); /* already: nothing to do */
    CUTEST_EQ(z_write(&z, ZONE, 8 * KiB), ZNS_OK);
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_IMPLICIT_OPEN);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_EXPLICIT_OPEN);
    /* close: open zones close; a closed one stays; empty and full ones cannot */
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_CLOSED);
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, 5 * ZONE, 0), ZNS_INVALID_TRANSITION);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, ZONE, 0), ZNS_OK); /* closed -> explicitly open */
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_EXPLICIT_OPEN);
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_write(&z, ZONE + 8 * KiB, 4 * KiB), ZNS_OK); /* closed -> implicitly open */
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_IMPLICIT_OPEN);
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, ZONE, 0), ZNS_OK);
    /* finish: closed, explicitly open, implicitly open, empty and full zones */
    CUTEST_EQ(z_op(&z, ZOP_FINISH, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_FULL);
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 0, 0), ZNS_OK);
    CUTEST_EQ(z_state(&z, 0, NULL), ZONE_FULL);
    CUTEST_EQ(z_write(&z, 2 * ZONE, 4 * KiB), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 2 * ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_state(&z, 2, NULL), ZONE_FULL);
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 3 * ZONE, 0), ZNS_OK); /* empty -> full */
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 3 * ZONE, 0), ZNS_OK); /* full stays full */
    CUTEST_EQ(z_state(&z, 3, NULL), ZONE_FULL);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 3 * ZONE, 0), ZNS_INVALID_TRANSITION);
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, 3 * ZONE, 0), ZNS_INVALID_TRANSITION);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 3 * ZONE + 4096, 0), ZNS_INVALID_FIELD); /* not a zone start */
    CUTEST_EQ(drive_zns(z.d)->by_state[ZONE_FULL], 4);
    z_free(&z);
}

/* Finish makes the zone's buffered data durable before it completes (the
 * last program unit partly filled, a program's time), then closes the
 * zone's open blocks: what is left of them stays unwritten. Without it a
 * finish completes after its firmware cost with the data still buffered. */
static void test_finish_programs(void)
{
    Z z;
    z_init(&z);
    /* under a program unit, buffered when the finish comes */
    SimTime t0 = sim_now(z.e);
    drive_submit(z.d, &(DriveCmd){.op = IO_WRITE, .offset = ZONE, .length = 16 * KiB});
    drive_submit(z.d, &(DriveCmd){.zop = ZOP_FINISH, .offset = ZONE, .tag = 1});
    while (z.done < 2 && sim_run(z.e, SIM_TIME_MAX))
        ;
    CUTEST_EQ(z.last.tag, 1);
    CUTEST_EQ(z.last.status, ZNS_OK);
    const DriveParams *p = drive_params(z.d);
    CU_ASSERT(z.last_at - t0 >= p->timing[p->native_mode].t_prog);
    CUTEST_EQ(drive_stats(z.d)->nand_write_bytes[CAUSE_HOST], 16 * KiB);
    for (uint32_t die = 0; die < drive_geom(z.d)->dies; die++)
        CUTEST_EQ(*fdp_host_open(z.d, die, 1), UINT32_MAX); /* NO_BLOCK */
    /* an empty zone's finish has nothing to program */
    t0 = sim_now(z.e);
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 2 * ZONE, 0), ZNS_OK);
    CU_ASSERT(sim_now(z.e) - t0 < p->timing[p->native_mode].t_prog);
    CUTEST_EQ(z_op(&z, ZOP_RESET, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_write(&z, ZONE, 16 * KiB), ZNS_OK); /* a reset zone takes fresh blocks */
    z_free(&z);
}

/* Zone Appends to one zone pass its append stage one at a time
 * ([zns] append_cost): four at once end at least 4 stages after they were
 * sent; two appends to two zones at once overlap their stages. */
static SimTime z_appends(Z *z, int n, int zones)
{
    SimTime t0 = sim_now(z->e);
    uint64_t before = z->done;
    for (int i = 0; i < n; i++)
        drive_submit(z->d, &(DriveCmd){.zop = ZOP_APPEND, .offset = (uint64_t)(4 + i % zones) * ZONE,
                                       .length = 4 * KiB, .tag = (uint64_t)i});
    while (z->done < before + (uint64_t)n && sim_run(z->e, SIM_TIME_MAX))
        ;
    CUTEST_EQ(z->done, before + (uint64_t)n);
    CUTEST_EQ(z->last.status, ZNS_OK);
    return z->last_at - t0;
}

static void test_append_stage(void)
{
    Z z;
    const SimTime cost = 200 * SIM_US;
    z_append_cost = cost;
    z_init(&z);
    z_append_cost = 0;
    CU_ASSERT(z_appends(&z, 4, 1) >= 4 * cost);
    CU_ASSERT(z_appends(&z, 2, 2) < 2 * cost);
    z_free(&z);
}

/* One zone written alone goes to every die: its units take whichever die
 * is free among those with room in the zone, so it writes at all the
 * dies' program rate, not at one die's. */
static uint32_t dies_seen;
static void die_seen(void *ctx, uint64_t lpn, uint64_t dst, uint64_t src)
{
    const Drive *d = ctx;
    (void)lpn, (void)src;
    dies_seen |= 1u << (dst / drive_geom(d)->slots_per_block / drive_geom(d)->blocks_per_die);
}

static void test_single_zone_striped(void)
{
    Z z;
    z_init_dies(&z, 4, 64);
    dies_seen = 0;
    drive_set_place_hook(z.d, die_seen, z.d);
    for (uint64_t off = 0; off < ZCAP; off += 128 * KiB)
        CUTEST_EQ(z_write(&z, 3 * ZONE + off, 128 * KiB), ZNS_OK);
    sim_run(z.e, SIM_TIME_MAX);
    CUTEST_EQ(dies_seen, 0xFu);
    z_free(&z);
}

static void test_reset(void)
{
    Z z;
    z_init(&z);
    CUTEST_EQ(z_write(&z, 0, 256 * KiB), ZNS_OK);
    CU_ASSERT(drive_lookup(z.d, 0) != DRIVE_UNMAPPED);
    CUTEST_EQ(z_op(&z, ZOP_RESET, 0, 0), ZNS_OK); /* implicitly open -> empty */
    uint64_t wp;
    CUTEST_EQ(z_state(&z, 0, &wp), ZONE_EMPTY);
    CUTEST_EQ(wp, 0);
    for (uint64_t lpn = 0; lpn < 256 * KiB / 4096; lpn++)
        CUTEST_EQ(drive_lookup(z.d, lpn), DRIVE_UNMAPPED);
    CUTEST_EQ(z_write(&z, 0, 4 * KiB), ZNS_OK); /* from the start again */
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 0, 0), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_RESET, 0, 0), ZNS_OK); /* explicitly open -> empty */
    CUTEST_EQ(z_write(&z, 0, 4 * KiB), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, 0, 0), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_RESET, 0, 0), ZNS_OK); /* closed -> empty */
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 0, 0), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_RESET, 0, 0), ZNS_OK); /* full -> empty */
    CUTEST_EQ(z_op(&z, ZOP_RESET, 0, 0), ZNS_OK); /* empty stays empty */
    CUTEST_EQ(z_state(&z, 0, NULL), ZONE_EMPTY);
    CUTEST_EQ(z_op(&z, ZOP_RESET, 4096, 0), ZNS_INVALID_FIELD);
    CUTEST_EQ(drive_zns(z.d)->ops[ZOP_RESET], 5);
    z_free(&z);
}

static void test_limits(void)
{
    Z z;
    z_init(&z);
    /* two explicitly open zones: no room for a third, explicit or implicit */
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 0, 0), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 2 * ZONE, 0), ZNS_TOO_MANY_OPEN);
    CUTEST_EQ(z_write(&z, 2 * ZONE, 4 * KiB), ZNS_TOO_MANY_OPEN);
    /* a closed zone stays active: with two open, three are active */
    CUTEST_EQ(z_op(&z, ZOP_CLOSE, ZONE, 0), ZNS_OK);
    CUTEST_EQ(z_write(&z, 2 * ZONE, 4 * KiB), ZNS_OK);
    CUTEST_EQ(z_op(&z, ZOP_OPEN, 3 * ZONE, 0), ZNS_TOO_MANY_ACTIVE);
    CUTEST_EQ(z_write(&z, 3 * ZONE, 4 * KiB), ZNS_TOO_MANY_ACTIVE);
    /* writing the closed zone again needs an open slot: the implicitly
     * opened zone 2 is closed to make room */
    CUTEST_EQ(z_write(&z, ZONE, 4 * KiB), ZNS_OK);
    CUTEST_EQ(z_state(&z, 2, NULL), ZONE_CLOSED);
    CUTEST_EQ(z_state(&z, 1, NULL), ZONE_IMPLICIT_OPEN);
    CUTEST_EQ(drive_zns(z.d)->implicit_closes, 1);
    /* a full zone gives its resources back */
    CUTEST_EQ(z_op(&z, ZOP_FINISH, 0, 0), ZNS_OK);
    CUTEST_EQ(z_write(&z, 3 * ZONE, 4 * KiB), ZNS_OK);
    const DriveZns *s = drive_zns(z.d);
    CUTEST_EQ(s->errors[ZNS_TOO_MANY_OPEN], 2);
    CUTEST_EQ(s->errors[ZNS_TOO_MANY_ACTIVE], 2);
    z_free(&z);
}

static void test_append(void)
{
    Z z;
    z_init(&z);
    CUTEST_EQ(z_op(&z, ZOP_APPEND, 4 * ZONE, 16 * KiB), ZNS_OK);
    CUTEST_EQ(z.last.offset, 4 * ZONE);
    CUTEST_EQ(z_op(&z, ZOP_APPEND, 4 * ZONE, 8 * KiB), ZNS_OK);
    CUTEST_EQ(z.last.offset, 4 * ZONE + 16 * KiB);
    uint64_t wp;
    CUTEST_EQ(z_state(&z, 4, &wp), ZONE_IMPLICIT_OPEN);
    CUTEST_EQ(wp, 24 * KiB);
    CU_ASSERT(drive_lookup(z.d, (4 * ZONE + 16 * KiB) / 4096) != DRIVE_UNMAPPED);
    CUTEST_EQ(z_op(&z, ZOP_APPEND, 4 * ZONE + 4096, 4 * KiB), ZNS_INVALID_FIELD);
    CUTEST_EQ(z_op(&z, ZOP_APPEND, 4 * ZONE, ZCAP), ZNS_BOUNDARY);
    CUTEST_EQ(z_op(&z, ZOP_APPEND, 4 * ZONE, ZCAP - 24 * KiB), ZNS_OK);
    CUTEST_EQ(z_state(&z, 4, NULL), ZONE_FULL);
    CUTEST_EQ(z_op(&z, ZOP_APPEND, 4 * ZONE, 4 * KiB), ZNS_FULL);
    CUTEST_EQ(drive_zns(z.d)->ops[ZOP_APPEND], 3);
    CUTEST_EQ(drive_stats(z.d)->host_bytes[IO_WRITE], ZCAP);
    z_free(&z);
}

/* Three zones at a time written in 64 KiB pieces, each full zone reset
 * later, FIFO, many times the NAND over: no GC moves a byte, the blocks are
 * erased as the resets empty them. */
static void test_no_gc(void)
{
    Z z;
    z_init(&z);
    uint32_t next = 0, oldest = 0, filled = 0;
    uint64_t piece = 64 * KiB;
    for (int round = 0; round < 600; round++) {
        uint32_t k = next % 32;
        for (uint64_t off = 0; off < ZCAP; off += piece)
            CUTEST_EQ(z_write(&z, (uint64_t)k * ZONE + off, piece), ZNS_OK);
        next++;
        filled++;
        if (filled > 24) { /* keep 24 zones of data: most of the writable space */
            CUTEST_EQ(z_op(&z, ZOP_RESET, (uint64_t)(oldest % 32) * ZONE, 0), ZNS_OK);
            oldest++;
            filled--;
        }
    }
    const DriveStats *st = drive_stats(z.d);
    CU_ASSERT(st->host_bytes[IO_WRITE] > 8 * 48 * 1024 * KiB); /* eight times the raw NAND */
    CUTEST_EQ(st->nand_write_bytes[CAUSE_GC], 0);
    CU_ASSERT(st->nand_erases > 500);
    z_free(&z);
}

/* test_two_writers_full's writers: zone k[0] takes 16 KiB writes one at
 * a time (as a host's zone write lock sends them), zone k[1] 128 KiB zone
 * appends, up to 8 in flight; each sends more as its commands complete. */
static void feed(Z *z, uint64_t tag)
{
    if (tag != UINT64_MAX)
        z->inflight[tag]--;
    if (z->inflight[0] == 0 && z->off[0] < ZCAP) {
        drive_submit(z->d, &(DriveCmd){.op = IO_WRITE, .offset = z->k[0] * ZONE + z->off[0], .length = 16 * KiB});
        z->off[0] += 16 * KiB;
        z->inflight[0]++;
    }
    while (z->inflight[1] < 8 && z->off[1] < ZCAP) {
        drive_submit(z->d, &(DriveCmd){.zop = ZOP_APPEND, .offset = z->k[1] * ZONE, .length = 128 * KiB, .tag = 1});
        z->off[1] += 128 * KiB;
        z->inflight[1]++;
    }
}

/* Two writers at once on a full drive: every zone is live, and zones are
 * reset and rewritten two at a time, oldest first, one by writes and one by
 * appends (feed()), so that the dies take the two zones' data in whatever
 * order they come free. On 4 dies a zone owns a block on each (768 KiB
 * over 4 x 384 KiB: its blocks are partly written); the 35 blocks a die
 * needs (every zone's, the GC reserve and one) are there, so no GC moves a
 * byte. Zones that take whichever die is free fill the dies unevenly, and
 * GC moves live data. */
static void test_two_writers_full(void)
{
    Z z;
    z_init_dies(&z, 2, 36);
    char why[256];
    for (uint32_t round = 0; round < 96; round++) {
        z.feed = NULL;
        z.k[0] = (2 * round) % 32, z.k[1] = (2 * round + 1) % 32;
        if (round >= 16) /* every zone is full: reset the two about to be written */
            for (int j = 0; j < 2; j++)
                CUTEST_EQ(z_op(&z, ZOP_RESET, z.k[j] * ZONE, 0), ZNS_OK);
        z.off[0] = z.off[1] = z.inflight[0] = z.inflight[1] = 0;
        z.feed = feed;
        feed(&z, UINT64_MAX);
        sim_run(z.e, SIM_TIME_MAX);
        CUTEST_EQ(z.off[0] + z.off[1], 2 * ZCAP);
        CUTEST_EQ(z.inflight[0] + z.inflight[1], 0);
        if (!drive_check(z.d, why, sizeof why))
            fprintf(stderr, "%s\n", why);
        CU_ASSERT_TRUE(drive_check(z.d, why, sizeof why));
    }
    z.feed = NULL;
    const DriveZns *zs = drive_zns(z.d);
    CUTEST_EQ(zs->by_state[ZONE_FULL], 32);
    uint64_t errors = 0;
    for (int e = 0; e < ZNS_STATUSES; e++)
        errors += zs->errors[e];
    CUTEST_EQ(errors, 0);
    CUTEST_EQ(drive_stats(z.d)->host_bytes[IO_WRITE], 192ull * ZCAP);
    CUTEST_EQ(drive_stats(z.d)->nand_write_bytes[CAUSE_GC], 0);
    z_free(&z);
}

/* zns_check catches a zone's page in a block another zone owns, and GC
 * bytes on a zoned drive. */
static void test_check_catches(void)
{
    Z z;
    z_init(&z);
    CUTEST_EQ(z_write(&z, 0, ZCAP), ZNS_OK);
    CUTEST_EQ(z_write(&z, ZONE, ZCAP), ZNS_OK);
    while (sim_run(z.e, SIM_TIME_MAX)) /* the buffered data programmed */
        ;
    uint64_t slot = drive_lookup(z.d, 0);
    CUTEST_REQUIRE(slot < DRIVE_BUFFERED);
    uint32_t b = nand_block_of(z.d, slot);
    char why[256] = "";
    CU_ASSERT_TRUE(zns_check(z.d, why, sizeof why));
    fdp_block_taken(z.d, b, 1); /* as if zone 1 had taken it */
    CU_ASSERT_FALSE(zns_check(z.d, why, sizeof why));
    CU_ASSERT_TRUE(strstr(why, "zone 0's page") != NULL);
    fdp_block_taken(z.d, b, 0);
    CU_ASSERT_TRUE(zns_check(z.d, why, sizeof why));
    drive_counters(z.d)->nand_write_bytes[CAUSE_GC] += 4096;
    CU_ASSERT_FALSE(zns_check(z.d, why, sizeof why));
    CU_ASSERT_TRUE(strstr(why, "GC moved") != NULL);
    drive_counters(z.d)->nand_write_bytes[CAUSE_GC] -= 4096;
    z_free(&z);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"write_transitions", test_write_transitions},
        {"open_close_finish", test_open_close_finish},
        {"finish_programs", test_finish_programs},
        {"append_stage", test_append_stage},
        {"single_zone_striped", test_single_zone_striped},
        {"reset", test_reset},
        {"limits", test_limits},
        {"append", test_append},
        {"no_gc", test_no_gc},
        {"two_writers_full", test_two_writers_full},
        {"check_catches", test_check_catches},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("zns", tests);
}
