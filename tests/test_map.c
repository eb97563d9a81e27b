/*
 * test_map.c - the map's store (models/map.c) against flat reference
 * arrays: whatever representation a chunk of the L2P or a block's P2L is
 * in (overrides in the hash, runs, buffer marks, a dense part, the prefill
 * formula), every lookup gives what a flat table would.
 *
 *   - the overrides' filter: lookups sharing its bits or not, over
 *     overrides a run drops and a cooled chunk puts back;
 *   - the overrides' hash sized ahead for a run (map_expect_class()), the
 *     overrides it held moved;
 *   - entries: random puts and gets, one entry at a time, over chunks
 *     kept sparse, pushed dense by their overrides, made dense for a
 *     stream (a buffer mark at a chunk's first page) and cooled back to
 *     runs and overrides when more streams come (runs a unit long, and a
 *     page longer, shorter or broken);
 *   - operations: programs of runs and of scattered lpns into open blocks,
 *     trims, relocations of whole victims and their erases, each followed
 *     by map_check() and a comparison of every lpn and slot with the
 *     reference; runs are broken by single writes inside them, and blocks
 *     with runs are relocated and erased;
 *   - a sequential prefill (the formula) overwritten at random and relocated;
 *   - a stream in order across the formula's end: buffer marks, the hot
 *     chunk's empty entries on either side of the end, runs set over them;
 *   - a random prefill (the flat tables), the same; and every representation
 *     moved into the flat tables at once.
 * Each in narrow (4-byte) and wide (8-byte) entries.
 */
#include "models/blocks.h"
#include "models/drive.h"
#include "models/map.h"
#include "models/map_store.h"
#include "models/nand.h"
#include "tests/cutest.h"
#include "tests/tiny_drive.h"

#include <glib.h>
#include <string.h>

typedef struct Ref {
    SimEngine *e;
    Drive *d;
    uint64_t nlpn, nslots;
    uint64_t *l2p; /* lpn -> slot, NO_SLOT or BUF_MARK + k */
    uint64_t *p2l; /* slot -> lpn or NO_LPN */
    SimRng rng;
} Ref;

/* A drive of 4 x blocks blocks of 48 slots, its map empty, entries wide
 * if wide. */
static void ref_open(Ref *r, uint32_t blocks, bool wide, uint64_t seed)
{
    DriveParams p;
    tiny_drive(&p, blocks, 0.1);
    if (wide)
        g_setenv("FTLSIM_MAP_STORE", "wide", TRUE);
    else
        g_unsetenv("FTLSIM_MAP_STORE");
    memset(r, 0, sizeof *r);
    r->e = sim_engine_new();
    r->d = drive_new(r->e, &p, 1);
    CUTEST_REQUIRE_PTR(r->d);
    CU_ASSERT_EQUAL(drive_map_narrow(r->d), !wide);
    r->nlpn = p.user_capacity / SLOT_SIZE;
    r->nslots = drive_slots(r->d);
    r->l2p = g_new(uint64_t, r->nlpn);
    r->p2l = g_new(uint64_t, r->nslots);
    for (uint64_t i = 0; i < r->nlpn; i++)
        r->l2p[i] = NO_SLOT;
    for (uint64_t i = 0; i < r->nslots; i++)
        r->p2l[i] = NO_LPN;
    sim_rng_init(&r->rng, seed, 0x6d6170);
}

static void ref_close(Ref *r)
{
    drive_free(r->d);
    sim_engine_free(r->e);
    g_free(r->l2p);
    g_free(r->p2l);
    g_unsetenv("FTLSIM_MAP_STORE");
}

/* Every lpn and slot as the reference has it; the first difference is
 * reported. */
static bool ref_same(const Ref *r, bool p2l)
{
    for (uint64_t lpn = 0; lpn < r->nlpn; lpn++)
        if (map_get(r->d, lpn) != r->l2p[lpn]) {
            fprintf(stderr, "\n    lpn %" G_GUINT64_FORMAT ": map %" G_GUINT64_FORMAT
                            ", reference %" G_GUINT64_FORMAT "\n",
                    lpn, map_get(r->d, lpn), r->l2p[lpn]);
            return false;
        }
    for (uint64_t s = 0; p2l && s < r->nslots; s++)
        if (map_lpn_of(r->d, s) != r->p2l[s]) {
            fprintf(stderr, "\n    slot %" G_GUINT64_FORMAT ": map %" G_GUINT64_FORMAT
                            ", reference %" G_GUINT64_FORMAT "\n",
                    s, map_lpn_of(r->d, s), r->p2l[s]);
            return false;
        }
    return true;
}

static uint64_t below(Ref *r, uint64_t n) { return sim_rng_below(&r->rng, n); }

/* A value an L2P entry may hold: a slot, none, or a buffer position. */
static uint64_t any_value(Ref *r)
{
    uint32_t k = (uint32_t)below(r, 10);
    if (k == 0)
        return NO_SLOT;
    if (k == 1)
        return BUF_MARK + below(r, 1u << 16);
    return below(r, r->nslots);
}

static void put(Ref *r, uint64_t lpn, uint64_t v)
{
    map_put(r->d, lpn, v);
    r->l2p[lpn] = v;
}

/* Entry by entry: the L2P of each representation against the reference,
 * the P2L entries beside it. */
static void entries(bool wide)
{
    Ref r;
    ref_open(&r, 1024, wide, wide ? 2 : 1); /* 41 chunks of lpns */
    uint64_t chunks = (r.nlpn + MAP_CHUNK - 1) / MAP_CHUNK;
    CUTEST_REQUIRE(chunks >= 41);
    bool ok = true;
    /* a few overrides in every chunk: sparse */
    for (int i = 0; i < 300; i++)
        put(&r, below(&r, r.nlpn), any_value(&r));
    CU_ASSERT_TRUE(ref_same(&r, false));
    /* chunk 3 overwritten at many lpns: dense by its overrides */
    for (int i = 0; i < 3000; i++)
        put(&r, 3 * MAP_CHUNK + below(&r, MAP_CHUNK), any_value(&r));
    CU_ASSERT_PTR_NOT_NULL(drive_l2p_dir(r.d)[3]);
    CU_ASSERT_TRUE(ref_same(&r, false));
    /* streams entering 20 chunks at their first page: each goes dense, the
     * oldest back to runs and overrides as more come */
    for (uint64_t c = 0; c < 20; c++)
        put(&r, c * MAP_CHUNK, BUF_MARK + c);
    for (uint64_t c = 0; c < 20; c++)
        for (uint32_t k = 1; k < 40; k++)
            put(&r, c * MAP_CHUNK + k, k % 3 ? BUF_MARK + 100 * c + k : 50000 + 64 * c + k);
    CU_ASSERT_TRUE(ref_same(&r, false));
    for (uint64_t c = 0; c < chunks && c < 21; c++)
        put(&r, c * MAP_CHUNK, c % 2 ? NO_SLOT : 7 * c);
    CU_ASSERT_TRUE(ref_same(&r, false));
    /* hot chunks cooled where their runs are a unit long, the length the
     * cooling tries first, and where one is a page longer or shorter, or
     * breaks in its middle or at its last page; then 16 more streams */
    static const uint32_t len[] = {24, 24, 25, 24, 23, 24, 24, 24, 24};
    for (uint64_t c = 21; c < 25; c++) {
        put(&r, c * MAP_CHUNK, BUF_MARK + c);
        uint32_t k = 0, mid = 0, last = 0;
        for (uint32_t j = 0; j < G_N_ELEMENTS(len); j++)
            for (uint32_t i = 0; i < len[j]; i++, k++) {
                put(&r, c * MAP_CHUNK + k, 4000 * c + 100 * j + i);
                mid = j == 5 && i == 10 + c % 4 ? k : mid;
                last = j == 7 && i == len[j] - 1 ? k : last;
            }
        put(&r, c * MAP_CHUNK + mid, 7);
        put(&r, c * MAP_CHUNK + last, 9);
    }
    for (uint64_t c = 25; c < 41; c++)
        put(&r, c * MAP_CHUNK, BUF_MARK + c);
    CU_ASSERT_PTR_NULL(drive_l2p_dir(r.d)[21]);
    CU_ASSERT_PTR_NULL(drive_l2p_dir(r.d)[24]);
    CU_ASSERT_TRUE(ref_same(&r, false));
    /* then anything, anywhere, with the P2L side too */
    for (int i = 0; i < 200000 && ok; i++) {
        uint64_t lpn = below(&r, 4) == 0 ? below(&r, r.nlpn)
                                         : (below(&r, chunks) * MAP_CHUNK + below(&r, 64)) % r.nlpn;
        put(&r, lpn, any_value(&r));
        uint64_t s = below(&r, r.nslots), l = below(&r, 3) ? below(&r, r.nlpn) : NO_LPN;
        map_put_lpn(r.d, s, l);
        r.p2l[s] = l;
        ok = map_get(r.d, lpn) == r.l2p[lpn] && map_lpn_of(r.d, s) == l;
        if (i % 20000 == 0)
            ok = ok && ref_same(&r, true);
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(ref_same(&r, true));
    /* mapped at random from here on: every chunk, dense, sparse, hot or
     * with runs, moves into one flat table each way, and keeps its entries */
    CU_ASSERT_PTR_NULL(drive_l2p_flat(r.d));
    CU_ASSERT_TRUE(map_expect_random(r.d, r.nlpn));
    CUTEST_REQUIRE_PTR(drive_l2p_flat(r.d));
    CU_ASSERT_PTR_NOT_NULL(drive_p2l_flat(r.d));
    char why[256] = "";
    CU_ASSERT_TRUE(map_store_check(r.d, why, sizeof why));
    CU_ASSERT_TRUE(ref_same(&r, true));
    for (int i = 0; i < 20000 && ok; i++) {
        uint64_t lpn = below(&r, r.nlpn), s = below(&r, r.nslots);
        uint64_t l = below(&r, 3) ? below(&r, r.nlpn) : NO_LPN;
        put(&r, lpn, any_value(&r));
        map_put_lpn(r.d, s, l);
        r.p2l[s] = l;
        ok = map_get(r.d, lpn) == r.l2p[lpn] && map_lpn_of(r.d, s) == l;
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(ref_same(&r, true));
    ref_close(&r);
}

/* The overrides' filter (a bit per offset % 64 of a chunk: a lookup
 * whose bit is clear skips the hash): lookups of lpns that share a bit
 * with an override and of lpns that share none; a chunk whose overrides a
 * run drops, all of them (its filter emptied), written again; and a chunk
 * made hot and cooled back, its overrides put in the hash again. */
static void filter(bool wide)
{
    Ref r;
    ref_open(&r, 1024, wide, wide ? 10 : 9);
    CUTEST_REQUIRE(map_store_runs_ok(r.d));
    char why[256] = "";
    uint64_t base = 5 * MAP_CHUNK;
    put(&r, base + 3, 100);
    CU_ASSERT_EQUAL(map_get(r.d, base + 3 + 64), NO_SLOT); /* the same bit */
    CU_ASSERT_EQUAL(map_get(r.d, base + 4), NO_SLOT);
    put(&r, base + 3 + 64, 101);
    put(&r, base + 4000, 102);
    put(&r, base + 200, NO_SLOT);
    CU_ASSERT_TRUE(ref_same(&r, false));
    /* a run over the first 300 lpns drops four overrides; then over the
     * whole chunk, the last */
    for (uint64_t lpn = base; lpn < base + 300; lpn++) {
        map_store_take(r.d, lpn);
        r.l2p[lpn] = 5000 + lpn - base;
    }
    map_store_put_chunk_run(r.d, base, 300, 5000);
    CU_ASSERT_TRUE(ref_same(&r, false));
    for (uint64_t lpn = base; lpn < base + MAP_CHUNK; lpn++) {
        map_store_take(r.d, lpn);
        r.l2p[lpn] = 9000 + lpn - base;
    }
    map_store_put_chunk_run(r.d, base, MAP_CHUNK, 9000);
    CU_ASSERT_TRUE(ref_same(&r, false));
    put(&r, base + 3, 200); /* over the run, sharing a bit with others */
    put(&r, base + 3 + 64 * 9, 201);
    CU_ASSERT_TRUE(ref_same(&r, false));
    /* chunk 7 hot (a mark at its first page), written at single pages,
     * then cooled by 16 more streams: its overrides back in the hash */
    uint64_t hot = 7 * MAP_CHUNK;
    put(&r, hot, BUF_MARK + 1);
    for (uint64_t k = 5; k < MAP_CHUNK; k += 331)
        put(&r, hot + k, 300 + k);
    put(&r, hot + 5 + 64, 299);
    for (uint64_t c = 8; c < 8 + 16; c++)
        put(&r, c * MAP_CHUNK, BUF_MARK + c);
    CU_ASSERT_PTR_NULL(drive_l2p_dir(r.d)[7]);
    CU_ASSERT_TRUE(ref_same(&r, false));
    CU_ASSERT_TRUE(map_store_check(r.d, why, sizeof why));
    if (why[0])
        fprintf(stderr, "\n    map_store_check: %s\n", why);
    ref_close(&r);
}

/* The overrides' hash sized ahead for a run's random writes
 * (map_expect_class()): the overrides it held moved to the larger table,
 * as many more put after without its doubling, every lookup as the
 * reference has it; a class that pushes chunks dense leaves it alone. */
static void expect_class(bool wide)
{
    Ref r;
    ref_open(&r, 1024, wide, wide ? 12 : 11);
    char why[256] = "";
    for (int i = 0; i < 500; i++) /* below the first doubling */
        put(&r, below(&r, r.nlpn), below(&r, r.nslots));
    MemoryClass c = {.random_bytes = 12000ull * SLOT_SIZE, .random_bs = SLOT_SIZE};
    map_expect_class(r.d, &c);
    CU_ASSERT_TRUE(map_store_check(r.d, why, sizeof why));
    CU_ASSERT_TRUE(ref_same(&r, false));
    for (int i = 0; i < 12000; i++)
        put(&r, below(&r, r.nlpn), below(&r, 3) ? below(&r, r.nslots) : NO_SLOT);
    CU_ASSERT_TRUE(map_store_check(r.d, why, sizeof why));
    CU_ASSERT_TRUE(ref_same(&r, false));
    MemoryClass all = {.random_bytes = UINT64_MAX};
    map_expect_class(r.d, &all);
    CU_ASSERT_TRUE(ref_same(&r, false));
    CU_ASSERT_TRUE(map_store_check(r.d, why, sizeof why));
    if (why[0])
        fprintf(stderr, "\n    map_store_check: %s\n", why);
    ref_close(&r);
}

static void test_expect_narrow(void) { expect_class(false); }
static void test_expect_wide(void) { expect_class(true); }
static void test_filter_narrow(void) { filter(false); }
static void test_filter_wide(void) { filter(true); }
static void test_entries_narrow(void) { entries(false); }
static void test_entries_wide(void) { entries(true); }

/* ---- Operations, under map_check() ------------------------------------ */

typedef struct Ops {
    Ref r;
    uint32_t open[4]; /* an open block per die, NO_BLOCK if none */
    uint32_t dies;
    uint64_t checks, collected;
} Ops;

static bool checked(Ops *o)
{
    char why[256] = "";
    o->checks++;
    if (!map_check(o->r.d, why, sizeof why)) {
        fprintf(stderr, "\n    map_check: %s\n", why);
        return false;
    }
    return ref_same(&o->r, true);
}

/* Point lpns[0, n) at the next n slots of die's open block (n at most
 * what it has room for), as a program does. */
static void program(Ops *o, uint32_t die, const uint64_t *lpns, uint32_t n)
{
    Drive *d = o->r.d;
    uint32_t b = o->open[die];
    uint64_t first = nand_slot(d, b, blk_wp(d, b));
    for (uint32_t k = 0; k < n; k++) {
        uint64_t old = o->r.l2p[lpns[k]];
        if (old != NO_SLOT)
            o->r.p2l[old] = NO_LPN;
        o->r.l2p[lpns[k]] = first + k;
        o->r.p2l[first + k] = lpns[k];
    }
    map_set_run(d, lpns, n, first);
    blk_advance(d, b, n);
    if (blk_wp(d, b) == nand_block_capacity(d, b)) {
        blk_close(d, b, 0);
        o->open[die] = NO_BLOCK;
    }
}

/* Room left in die's open block, taking a free one if it has none. */
static uint32_t room(Ops *o, uint32_t die)
{
    Drive *d = o->r.d;
    if (o->open[die] == NO_BLOCK)
        o->open[die] = nand_take_free(d, die, drive_geom(d)->native);
    if (o->open[die] == NO_BLOCK)
        return 0;
    return nand_block_capacity(d, o->open[die]) - blk_wp(d, o->open[die]);
}

static void trim(Ops *o, uint64_t lpn)
{
    Drive *d = o->r.d;
    uint64_t v = map_get(d, lpn);
    if (v == NO_SLOT)
        return;
    map_invalidate_slot(d, v);
    map_put(d, lpn, NO_SLOT);
    --*drive_mapped(d);
    o->r.p2l[v] = NO_LPN;
    o->r.l2p[lpn] = NO_SLOT;
}

/* Move every valid slot of the full block with the fewest into die's open
 * blocks, then erase it; false if no such block, or if check asks for
 * map_check() after each move (the victim's moved slots still unerased
 * then: each must read as invalid) and it fails. */
static bool collect(Ops *o, uint32_t die, bool check)
{
    Drive *d = o->r.d;
    uint32_t per = drive_geom(d)->blocks_per_die, v = NO_BLOCK, dead;
    while ((dead = die_pop_dead(d, die)) != NO_BLOCK) { /* nothing to move */
        blk_take_victim(d, dead);
        nand_put_free(d, dead);
    }
    for (uint32_t b = die * per; b < (die + 1) * per; b++)
        if (blk_state(d, b) == BLK_FULL && (v == NO_BLOCK || blk_valid(d, b) < blk_valid(d, v)))
            v = b;
    if (v == NO_BLOCK)
        return false;
    blk_take_victim(d, v);
    uint32_t cursor = 0;
    while (cursor < blk_wp(d, v)) {
        if (room(o, die) == 0)
            return false;
        uint32_t dst = o->open[die], at = blk_wp(d, dst), from = cursor, pages;
        uint32_t n = map_relocate(d, v, &cursor, dst, MAP_OWN_BLOCK, &pages);
        /* the valid slots of [from, cursor) moved in order */
        uint32_t k = 0;
        for (uint32_t i = from; i < cursor; i++) {
            uint64_t s = nand_slot(d, v, i), lpn = o->r.p2l[s];
            if (lpn == NO_LPN)
                continue;
            uint64_t t = nand_slot(d, dst, at + k++);
            o->r.p2l[s] = NO_LPN;
            o->r.p2l[t] = lpn;
            o->r.l2p[lpn] = t;
        }
        CU_ASSERT_EQUAL(k, n);
        if (blk_state(d, dst) == BLK_FULL)
            o->open[die] = NO_BLOCK;
        if (check && !checked(o))
            return false;
    }
    CU_ASSERT_EQUAL(blk_valid(d, v), 0);
    nand_put_free(d, v);
    o->collected++;
    return true;
}

/* prefill: none, 60% in order (the formula) or 60% at random (the flat
 * tables). */
enum { PF_NONE, PF_ORDER, PF_RANDOM };
/* The reference drive and no block open on any die; false (the test
 * failed) when the drive has more dies than the test tracks. */
static bool ops_open(Ops *o, bool wide, uint64_t seed)
{
    ref_open(&o->r, 256, wide, seed);
    o->dies = drive_geom(o->r.d)->dies;
    bool fits = o->dies <= G_N_ELEMENTS(o->open);
    CU_ASSERT_TRUE(fits);
    for (uint32_t i = 0; i < G_N_ELEMENTS(o->open); i++)
        o->open[i] = NO_BLOCK;
    return fits;
}

static void operations(bool wide, uint64_t seed, int prefill)
{
    Ops o = {.dies = 0};
    if (!ops_open(&o, wide, seed))
        return;
    Drive *d = o.r.d;
    Ref *r = &o.r;
    if (prefill) {
        /* a sequential prefill: the formula gives every entry */
        DrivePrefill pf = {.fill = 0.6, .random = prefill == PF_RANDOM, .seed = seed};
        CUTEST_REQUIRE(drive_prefill(d, &pf));
        CU_ASSERT_EQUAL(drive_l2p_flat(d) != NULL, prefill == PF_RANDOM);
        CU_ASSERT_EQUAL(drive_p2l_flat(d) != NULL, prefill == PF_RANDOM);
        for (uint64_t lpn = 0; lpn < r->nlpn; lpn++) {
            r->l2p[lpn] = map_get(d, lpn);
            if (r->l2p[lpn] != NO_SLOT)
                r->p2l[r->l2p[lpn]] = lpn;
        }
        CU_ASSERT_TRUE(checked(&o));
    }
    uint64_t lpns[96];
    bool ok = true;
    uint32_t target = (uint32_t)(r->nlpn * 7 / 10);
    /* map_check() after every step at first, then every 8th (it reads the
     * whole map) */
    for (int step = 0; step < 4000 && ok; step++) {
        bool check = step < 800 || step % 8 == 0;
        uint32_t die = (uint32_t)below(r, o.dies);
        if (die_nfree(d, die) < 4) {
            ok = collect(&o, die, check) && (!check || checked(&o));
            continue;
        }
        uint32_t have = room(&o, die);
        if (have == 0)
            break;
        uint32_t n = 1 + (uint32_t)below(r, MIN(have, 64u));
        uint32_t kind = (uint32_t)below(r, 10);
        if (kind < 4) {
            /* in order: a run, or several if it crosses a chunk */
            uint64_t a = below(r, target - n);
            if (below(r, 2))
                a = (a / MAP_CHUNK) * MAP_CHUNK + MAP_CHUNK - 1 - below(r, 20); /* across */
            a = MIN(a, (uint64_t)target - n);
            for (uint32_t k = 0; k < n; k++)
                lpns[k] = a + k;
        } else if (kind < 8) {
            /* scattered: single entries, some inside runs written before */
            for (uint32_t k = 0; k < n; k++) {
                uint64_t l;
                bool dup;
                do {
                    l = below(r, target);
                    dup = false;
                    for (uint32_t j = 0; j < k; j++)
                        dup |= lpns[j] == l;
                } while (dup);
                lpns[k] = l;
            }
        } else {
            for (uint32_t k = 0; k < 1 + below(r, 40); k++)
                trim(&o, below(r, target));
            ok = !check || checked(&o);
            continue;
        }
        program(&o, die, lpns, n);
        ok = !check || checked(&o);
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(o.checks > 1000);
    CU_ASSERT_TRUE(o.collected > 20); /* GC ran, blocks with runs among its victims */
    /* and the P2L of erased blocks is gone: every block collected once more */
    for (uint32_t die = 0; ok && die < o.dies; die++)
        for (int i = 0; ok && i < 8; i++)
            ok = collect(&o, die, false) && checked(&o);
    CU_ASSERT_TRUE(ok);
    ref_close(&o.r);
}

/* A stream written in order across the end of the prefill formula, as
 * the write path does it: each page's old slot invalidated and a buffer
 * mark put (the first, at the chunk's first page, makes the chunk dense
 * while the stream writes it, its empty entries the formula's below its
 * end and unmapped past it), then programs of runs over the marks, which
 * set the dense entries in place. */
static void stream_over_formula(bool wide)
{
    Ops o = {.dies = 0};
    if (!ops_open(&o, wide, 9))
        return;
    Drive *d = o.r.d;
    Ref *r = &o.r;
    DrivePrefill pf = {.fill = 0.6, .seed = 9};
    CUTEST_REQUIRE(drive_prefill(d, &pf));
    uint64_t end = drive_map_pf_end(d), a = end / MAP_CHUNK * MAP_CHUNK;
    CUTEST_REQUIRE(end % MAP_CHUNK != 0 && a + 2 * MAP_CHUNK < r->nlpn);
    for (uint64_t lpn = 0; lpn < r->nlpn; lpn++) {
        r->l2p[lpn] = map_get(d, lpn);
        if (r->l2p[lpn] != NO_SLOT)
            r->p2l[r->l2p[lpn]] = lpn;
    }
    bool ok = checked(&o);
    uint64_t lpns[32];
    for (uint64_t lpn = a; ok && lpn < a + 2 * MAP_CHUNK;) {
        uint32_t die = (uint32_t)below(r, o.dies);
        uint64_t want = 1 + below(r, 32); /* drawn once: MIN evaluates its arguments twice */
        uint32_t n = (uint32_t)MIN(MIN(room(&o, die), want), a + 2 * MAP_CHUNK - lpn);
        CUTEST_REQUIRE(n > 0);
        for (uint32_t k = 0; k < n; k++) {
            uint64_t old = map_get(d, lpn + k);
            if (old == NO_SLOT) {
                ++*drive_mapped(d);
            } else {
                map_invalidate_slot(d, old);
                r->p2l[old] = NO_LPN;
            }
            map_put(d, lpn + k, BUF_MARK + k);
            r->l2p[lpn + k] = BUF_MARK + k;
            lpns[k] = lpn + k;
        }
        CU_ASSERT_PTR_NOT_NULL(drive_l2p_dir(d)[lpn / MAP_CHUNK]);
        ok = checked(&o);
        for (uint32_t k = 0; k < n; k++)
            r->l2p[lpns[k]] = NO_SLOT; /* program() takes the reference from none */
        program(&o, die, lpns, n);
        ok = ok && checked(&o);
        lpn += n;
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(drive_map_pf_end(d), end);
    ref_close(&o.r);
}

/* Blocks written in runs of 8 lpns striped over the dies (a pSLC cache's
 * units), then runs of 8 to 31 written again over them, so that a block's
 * runs and the L2P's cut each other anywhere; then every block collected
 * (map_relocate() moves a block with runs a stretch at a time), each move
 * checked against the reference. */
static void relocate_runs(bool wide)
{
    Ops o = {.dies = 0};
    if (!ops_open(&o, wide, 11))
        return;
    Ref *r = &o.r;
    uint64_t lpns[40], span = MIN(4 * (uint64_t)MAP_CHUNK, r->nlpn / 3) / 8 * 8;
    bool ok = true;
    for (uint64_t a = 0; ok && a < span; a += 8) {
        uint32_t die = (uint32_t)(a / 8 % o.dies);
        CUTEST_REQUIRE(room(&o, die) >= 8);
        for (uint32_t k = 0; k < 8; k++)
            lpns[k] = a + k;
        program(&o, die, lpns, 8);
    }
    ok = checked(&o);
    for (int step = 0; ok && step < 200; step++) {
        uint32_t die = (uint32_t)below(r, o.dies);
        /* runs alone (a piece shorter than MAP_RUN_MIN would be single
         * entries): a block's last piece takes what would be left short */
        uint32_t have = room(&o, die), n = 8 + (uint32_t)below(r, 24);
        n = have < n + 8 ? have : n;
        uint64_t a = below(r, span - n);
        for (uint32_t k = 0; k < n; k++)
            lpns[k] = a + k;
        program(&o, die, lpns, n);
        ok = step % 16 != 0 || checked(&o);
    }
    for (uint32_t die = 0; ok && die < o.dies; die++)
        for (int i = 0; ok && i < 6; i++)
            ok = collect(&o, die, false) && checked(&o);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(o.collected >= 6 * o.dies);
    ref_close(&o.r);
}

static void test_relocate_runs_narrow(void) { relocate_runs(false); }
static void test_relocate_runs_wide(void) { relocate_runs(true); }
static void test_stream_narrow(void) { stream_over_formula(false); }
static void test_stream_wide(void) { stream_over_formula(true); }
static void test_operations_narrow(void) { operations(false, 3, PF_NONE); }
static void test_operations_wide(void) { operations(true, 4, PF_NONE); }
static void test_prefilled_narrow(void) { operations(false, 5, PF_ORDER); }
static void test_prefilled_wide(void) { operations(true, 6, PF_ORDER); }
static void test_random_narrow(void) { operations(false, 7, PF_RANDOM); }
static void test_random_wide(void) { operations(true, 8, PF_RANDOM); }

int main(void)
{
    CU_TestInfo tests[] = {
        {"entries, narrow", test_entries_narrow},
        {"entries, wide", test_entries_wide},
        {"the overrides' filter, narrow", test_filter_narrow},
        {"the overrides' filter, wide", test_filter_wide},
        {"the overrides' hash sized ahead, narrow", test_expect_narrow},
        {"the overrides' hash sized ahead, wide", test_expect_wide},
        {"operations, narrow", test_operations_narrow},
        {"operations, wide", test_operations_wide},
        {"prefilled, narrow", test_prefilled_narrow},
        {"prefilled, wide", test_prefilled_wide},
        {"random prefill, narrow", test_random_narrow},
        {"random prefill, wide", test_random_wide},
        {"a stream over the formula's end, narrow", test_stream_narrow},
        {"a stream over the formula's end, wide", test_stream_wide},
        {"blocks of runs relocated, narrow", test_relocate_runs_narrow},
        {"blocks of runs relocated, wide", test_relocate_runs_wide},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("map", tests);
}
