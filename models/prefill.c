/*
 * prefill.c - aging: put a fresh drive in the state a fill would leave it
 * in, without simulating the time (mapping, block states, valid counts and
 * free lists set directly). Units stripe over dies channel-first as host
 * writes do; only gauges change in DriveStats. Layout and the random model
 * are described in docs/workloads.md ("Prefill").
 */
#include "models/blocks.h"
#include "models/sched.h"
#include "models/nand.h"
#include "models/map.h"
#include "models/gc.h"
#include "models/l2p_cache.h"
#include "models/pslc.h"
#include "models/wear.h"

#include <string.h>

/* Streams of the fill, one open block each per die. */
enum { PF_NATIVE = 0, PF_SSLC = 1, PF_SLC = 2, PF_GC = 3, PF_KINDS = 4 };

/* Uniform random overwrites applied in random mode, per prefilled page. */
#define PREFILL_OVERWRITES 1.0

typedef struct Prefill {
    Drive *d;
    uint32_t *open;   /* dies x PF_KINDS: block being filled, NO_BLOCK if none */
    uint64_t unit_no; /* program units written so far: unit u goes to die u % dies */
    SimRng rng;
} Prefill;

/* A bijection of [0, n): rounds of add, odd multiply and xor-shift on the
 * smallest power of two holding n, walked until the value falls below n. */
typedef struct PrefillPerm {
    uint64_t n, mask;
    uint32_t shift;
    uint64_t key[3];
} PrefillPerm;

static void perm_init(PrefillPerm *pm, uint64_t n, SimRng *rng)
{
    uint32_t bits = 1;
    while (bits < 63 && (1ULL << bits) < n)
        bits++;
    pm->n = n;
    pm->mask = (1ULL << bits) - 1;
    pm->shift = bits / 2 ? bits / 2 : 1;
    for (int i = 0; i < 3; i++)
        pm->key[i] = sim_rng_next(rng);
}

static uint64_t perm_apply(const PrefillPerm *pm, uint64_t x)
{
    do {
#pragma GCC unroll 3
        for (int r = 0; r < 3; r++) {
            x = (x + pm->key[r]) & pm->mask;
            x = (x * 0x9e3779b97f4a7c15ULL) & pm->mask;
            x ^= x >> pm->shift;
        }
    } while (x >= pm->n);
    return x;
}

static uint32_t *pf_open(Prefill *f, uint32_t die, int kind) { return &f->open[die * PF_KINDS + kind]; }

/* The open block of a stream with room, taking a fresh one when needed;
 * NO_BLOCK when the die has none to give. */
static uint32_t pf_block(Prefill *f, uint32_t die, int kind)
{
    Drive *d = f->d;
    uint32_t *open = pf_open(f, die, kind);
    if (*open != NO_BLOCK && blk_wp(d, *open) < nand_block_capacity(d, *open))
        return *open;
    if (*open != NO_BLOCK)
        blk_close(d, *open, blk_stamp(d, *open)); /* prefill's blocks keep their stamp */
    *open = NO_BLOCK;
    switch (kind) {
    case PF_SSLC:
        *open = nand_take_static(d, die);
        break;
    case PF_SLC:
        *open = nand_take_free(d, die, CELL_SLC);
        break;
    default:
        *open = nand_take_free(d, die, drive_geom(d)->native);
        break;
    }
    return *open;
}

/* Where the next unit of recent host data goes on die, as
 * pslc_host_stream() would choose, without marking the die exhausted. */
static int pf_slc_kind(Prefill *f, uint32_t die)
{
    Drive *d = f->d;
    if (!pslc_has_cache(d))
        return PF_NATIVE;
    uint32_t b = *pf_open(f, die, PF_SSLC);
    if ((b != NO_BLOCK && blk_wp(d, b) < nand_block_capacity(d, b)) || die_nsfree(d, die) > 0)
        return PF_SSLC;
    b = *pf_open(f, die, PF_SLC);
    if (b != NO_BLOCK && blk_wp(d, b) < nand_block_capacity(d, b))
        return PF_SLC;
    if (die_slc_dyn(d, die) < pslc_dyn_limit(d, die) && die_nfree(d, die) > drive_params(d)->gc_hard_blocks)
        return PF_SLC;
    return PF_NATIVE;
}

/* Program up to max slots into the stream's block (at most to its end) as
 * valid data; returns the slots written and the first slot in *first. */
static uint32_t pf_write(Prefill *f, uint32_t die, int kind, uint32_t max, uint64_t *first)
{
    Drive *d = f->d;
    uint32_t b = pf_block(f, die, kind);
    if (b == NO_BLOCK)
        return 0;
    uint32_t room = nand_block_capacity(d, b) - blk_wp(d, b);
    uint32_t n = max < room ? max : room;
    *first = nand_slot(d, b, blk_wp(d, b));
    blk_advance(d, b, n);
    blk_add_valid(d, b, n);
    return n;
}

/* The next program unit of host data: its die (round robin over the
 * channel-first die numbering), stream and size. */
static uint32_t pf_next_unit(Prefill *f, bool slc, int *kind)
{
    Drive *d = f->d;
    uint32_t die = (uint32_t)(f->unit_no++ % drive_geom(d)->dies);
    *kind = slc ? pf_slc_kind(f, die) : PF_NATIVE;
    return die;
}

static uint32_t pf_unit_slots(const Prefill *f, int kind)
{
    return drive_geom(f->d)->unit_slots[kind == PF_NATIVE || kind == PF_GC ? drive_geom(f->d)->native : CELL_SLC];
}

/* Write lpns [first, first + count) in order; with place, map them too
 * (otherwise only the block counts change). False if the drive is full. */
static bool pf_sequential(Prefill *f, uint64_t first, uint64_t count, bool slc, bool place)
{
    Drive *d = f->d;
    uint64_t lpn = first, end = first + count;
    uint32_t stuck = 0;
    while (lpn < end) {
        int kind;
        uint32_t die = pf_next_unit(f, slc, &kind);
        uint64_t s0;
        uint32_t want = (uint32_t)MIN((uint64_t)pf_unit_slots(f, kind), end - lpn);
        uint32_t n = pf_write(f, die, kind, want, &s0);
        if (n == 0) {
            if (++stuck > drive_geom(d)->dies)
                return false;
            continue;
        }
        stuck = 0;
        /* the map keeps in-order native units as a formula */
        bool stored = place && map_prefill_run(d, lpn, die, s0, n, kind == PF_NATIVE);
        for (uint32_t k = 0; place && !stored && k < n; k++) {
            map_put(d, lpn + k, s0 + k);
            map_put_lpn(d, s0 + k, lpn + k);
        }
        lpn += n;
    }
    return true;
}

/* Drop n valid slots, each chosen uniformly among all valid slots (a
 * uniform random overwrite's victim): a block and an index drawn
 * uniformly, kept when the index falls below the block's valid count.
 * The generator is a local copy, kept in registers across the valid
 * count's hook (blocks_set_on_valid()), which cannot reach it. */
static void pf_invalidate_random(Prefill *f, uint32_t n)
{
    Drive *d = f->d;
    SimRng rng = f->rng;
    uint64_t nblocks = drive_geom(d)->nblocks, spb = drive_geom(d)->slots_per_block;
    while (n > 0) {
        uint64_t x = sim_rng_next(&rng);
        uint32_t b = (uint32_t)(((x >> 32) * nblocks) >> 32);
        uint32_t r = (uint32_t)(((x & 0xffffffffULL) * spb) >> 32);
        if (r < blk_valid(d, b)) {
            blk_drop_valid(d, b, 1);
            n--;
        }
    }
    f->rng = rng;
}

/* Reclaim one victim of die (gc_pick_victim(): the drive's own policy),
 * moving its valid count into the GC stream. */
static bool pf_gc_one(Prefill *f, uint32_t die)
{
    Drive *d = f->d;
    uint32_t v = gc_pick_victim(d, die);
    uint64_t s0;
    if (v == NO_BLOCK || blk_is_map(d, v))
        return false;
    uint32_t left = blk_valid(d, v), cap = drive_geom(d)->slots_per_block;
    gc_set_ratio(d, die, MIN((double)left / (double)(cap - left), gc_ratio_cap(d)));
    blk_take_victim(d, v); /* not a destination */
    while (left > 0) {
        uint32_t n = pf_write(f, die, PF_GC, left, &s0);
        if (n == 0) {
            blk_return_victim(d, v);
            return false;
        }
        left -= n;
        blk_drop_valid(d, v, n);
    }
    nand_put_free(d, v);
    return true;
}

/* Keep the die at its soft GC threshold, as paced GC does. */
static void pf_gc(Prefill *f, uint32_t die)
{
    Drive *d = f->d;
    for (uint32_t guard = 0; die_nfree(d, die) < drive_params(d)->gc_soft_blocks && guard < drive_geom(d)->blocks_per_die;
         guard++)
        if (!pf_gc_one(f, die))
            return;
}

/* count uniform random overwrites of the mapped data, on block counts:
 * each unit is programmed on the next die, then as many valid slots are
 * dropped anywhere. Stops early if a die can take no more. */
static void pf_overwrite(Prefill *f, uint64_t count, bool slc)
{
    Drive *d = f->d;
    uint64_t done = 0;
    uint32_t stuck = 0;
    while (done < count) {
        int kind;
        uint32_t die = pf_next_unit(f, slc, &kind);
        uint64_t s0;
        uint32_t want = (uint32_t)MIN((uint64_t)pf_unit_slots(f, kind), count - done);
        uint32_t n = pf_write(f, die, kind, want, &s0);
        if (n == 0) {
            pf_gc(f, die);
            if (++stuck > 2 * drive_geom(d)->dies)
                return;
            continue;
        }
        stuck = 0;
        pf_invalidate_random(f, n);
        done += n;
        if (die_nfree(d, die) < drive_params(d)->gc_soft_blocks)
            pf_gc(f, die);
    }
}

/* L2P stores for random lpns miss the TLB on a large map (a page walk
 * each). They are gathered per region of the table (PF_BUCKETS regions by
 * the lpn's top bits, each small enough for the TLB) and a region's stores
 * are made together when its buffer fills: 32 MiB of scratch in all, 5x
 * faster on a 1 TB table than storing each at once. */
#define PF_BUCKETS 256u
#define PF_BUCKET_PAIRS 16384u

typedef struct PfPairs {
    uint64_t *pair; /* PF_BUCKETS x cap of lpn << 32 | slot (narrow entries: 32-bit) */
    uint32_t len[PF_BUCKETS];
    uint32_t cap;
    uint32_t shift;
    void *l2p; /* the L2P's flat table (map_expect_random()), NULL if none */
} PfPairs;

static void pf_pairs_init(PfPairs *pp, uint64_t n, uint32_t cap, void *l2p)
{
    memset(pp, 0, sizeof *pp);
    pp->pair = g_new(uint64_t, (size_t)PF_BUCKETS * cap);
    pp->cap = cap;
    pp->l2p = l2p;
    while (((n - 1) >> pp->shift) >= PF_BUCKETS)
        pp->shift++;
}

static void pf_store_bucket(Drive *d, PfPairs *pp, uint32_t b)
{
    const uint64_t *p = pp->pair + (size_t)b * pp->cap;
    if (pp->l2p) /* narrow (pairs), every chunk dense: the entries in place */
        for (uint32_t i = 0; i < pp->len[b]; i++)
            l2p_ent_set(pp->l2p, p[i] >> 32, true, ~p[i]);
    else
        for (uint32_t i = 0; i < pp->len[b]; i++)
            map_put(d, p[i] >> 32, (uint32_t)p[i]);
    pp->len[b] = 0;
}

static void pf_pairs_flush(Drive *d, PfPairs *pp)
{
    for (uint32_t b = 0; b < PF_BUCKETS; b++)
        pf_store_bucket(d, pp, b);
    g_free(pp->pair);
}

static inline void pf_store(Drive *d, PfPairs *pp, uint64_t lpn, uint64_t slot)
{
    if (!drive_map_narrow(d)) { /* 64-bit values do not pack with their lpn */
        map_put(d, lpn, slot);
        return;
    }
    uint32_t b = (uint32_t)(lpn >> pp->shift);
    pp->pair[(size_t)b * pp->cap + pp->len[b]++] = lpn << 32 | slot;
    if (pp->len[b] == pp->cap)
        pf_store_bucket(d, pp, b);
}

/* Mark m of the positions [0, wp) in the bitmap (Floyd's sampling). */
static void pf_pick(SimRng *rng, uint64_t *bits, uint32_t wp, uint32_t m)
{
    memset(bits, 0, (wp + 63) / 64 * sizeof(uint64_t));
    for (uint32_t j = wp - m; j < wp; j++) {
        uint32_t t = (uint32_t)sim_rng_below(rng, (uint64_t)j + 1);
        if (bits[t / 64] >> (t % 64) & 1)
            t = j;
        bits[t / 64] |= 1ULL << (t % 64);
    }
}

/* The valid positions of block b, words of its bitmap: a draw of the
 * smaller set, the valid positions or the invalid ones. */
static void pf_valid_set(Prefill *f, uint32_t b, uint64_t *set, uint32_t words)
{
    Drive *d = f->d;
    uint32_t v = blk_valid(d, b), wp = blk_wp(d, b);
    bool pick_valid = v <= wp - v;
    pf_pick(&f->rng, set, wp, pick_valid ? v : wp - v);
    for (uint32_t w = 0; w < words; w++) {
        if (!pick_valid)
            set[w] = ~set[w];
        if (w * 64 >= wp)
            set[w] = 0;
        else if (wp - w * 64 < 64)
            set[w] &= (1ULL << (wp - w * 64)) - 1;
    }
}

/* One share of a batch of blocks: their valid slots in order take the
 * lpns perm(k) from k on. */
typedef struct PfShare {
    Drive *d;
    const PrefillPerm *pm;
    bool narrow;
    void *p2l;          /* the P2L's flat table, or NULL */
    PfPairs *pp;
    const uint64_t *set; /* words a block, from block b0 on */
    uint32_t words, b0, b1;
    uint64_t k;
} PfShare;

static void pf_share_deal(PfShare *sh)
{
    Drive *d = sh->d;
    uint64_t k = sh->k;
    for (uint32_t b = sh->b0; b < sh->b1; b++) {
        const uint64_t *set = sh->set + (size_t)(b - sh->b0) * sh->words;
        uint64_t base = nand_slot(d, b, 0);
        for (uint32_t w = 0; w < sh->words; w++)
            for (uint64_t m = set[w]; m != 0; m &= m - 1) {
                uint64_t slot = base + w * 64 + (uint32_t)__builtin_ctzll(m);
                uint64_t lpn = perm_apply(sh->pm, k++);
                if (sh->p2l)
                    p2l_ent_set(sh->p2l, slot, sh->narrow, ~lpn);
                else
                    map_put_lpn(d, slot, lpn);
                pf_store(d, sh->pp, lpn, slot);
            }
    }
    sh->k = k;
}

static gpointer pf_share_main(gpointer arg)
{
    pf_share_deal(arg);
    return NULL;
}

/* Blocks drawn a batch at a time: their bitmaps (PF_BATCH x words). */
#define PF_BATCH 4096u

/* Give the valid slots of every block (positions drawn uniformly among its
 * written slots) the lpns [0, n) in a pseudo-random order. Where the map
 * took flat tables (map_expect_random(): most chunks would go dense), the
 * entries are set in them directly, not through the store's entry
 * functions: every chunk is dense, and no entry was set before. There,
 * with narrow entries and a second CPU, a batch's blocks are dealt on two
 * threads, each its share of the blocks and of the lpns they take: the
 * draws are made first, in order, so the entries set are the same as on
 * one thread. The tables are written at random on both (distinct
 * entries); a thread's stores are gathered as one thread's are, in half
 * the scratch each. */
static void pf_deal(Prefill *f, uint64_t n)
{
    Drive *d = f->d;
    PrefillPerm pm;
    perm_init(&pm, n, &f->rng);
    map_expect_random(d, n);
    bool narrow = drive_map_narrow(d);
    void *p2l = drive_p2l_flat(d), *l2p = narrow ? drive_l2p_flat(d) : NULL;
    bool two = p2l && l2p && g_get_num_processors() > 1; /* (its CPUs: sched_getaffinity()) */
    PfPairs pp[2];
    pf_pairs_init(&pp[0], n, two ? PF_BUCKET_PAIRS / 2 : PF_BUCKET_PAIRS, l2p);
    if (two)
        pf_pairs_init(&pp[1], n, PF_BUCKET_PAIRS / 2, l2p);
    uint32_t nblocks = drive_geom(d)->nblocks;
    uint32_t words = (drive_geom(d)->slots_per_block + 63) / 64;
    uint64_t *set = g_new(uint64_t, (size_t)PF_BATCH * words);
    uint64_t k = 0;
    for (uint32_t b0 = 0; b0 < nblocks; b0 += PF_BATCH) {
        uint32_t b1 = MIN(nblocks, b0 + PF_BATCH), mid = b1;
        uint64_t batch = 0;
        for (uint32_t b = b0; b < b1; b++) {
            uint64_t *bs = set + (size_t)(b - b0) * words;
            if (blk_valid(d, b) == 0)
                memset(bs, 0, words * sizeof *bs);
            else
                pf_valid_set(f, b, bs, words);
            batch += blk_valid(d, b);
        }
        PfShare sh[2] = {{d, &pm, narrow, p2l, &pp[0], set, words, b0, b1, k},
                         {d, &pm, narrow, p2l, &pp[1], NULL, words, b1, b1, 0}};
        GThread *t = NULL;
        if (two) {
            /* the second share from the block where half the lpns are dealt */
            uint64_t half = 0;
            for (mid = b0; mid < b1 && 2 * half < batch; mid++)
                half += blk_valid(d, mid);
            sh[0].b1 = sh[1].b0 = mid;
            sh[1].set = set + (size_t)(mid - b0) * words;
            sh[1].k = k + half;
            t = mid < b1 ? g_thread_try_new("prefill", pf_share_main, &sh[1], NULL) : NULL;
            if (!t)
                sh[0].b1 = b1; /* no thread: all of it here */
        }
        pf_share_deal(&sh[0]);
        if (t)
            g_thread_join(t);
        k += batch;
    }
    pf_pairs_flush(d, &pp[0]);
    if (two)
        pf_pairs_flush(d, &pp[1]);
    g_free(set);
    g_assert(k == n);
}

/* The valid slots in SLC blocks (pSLC data). */
static uint64_t pf_slc_valid(const Drive *d)
{
    uint64_t slc = 0;
    if (drive_geom(d)->native != CELL_SLC)
        for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++)
            if (blk_mode(d, b) == CELL_SLC)
                slc += blk_valid(d, b);
    return slc;
}

/* Close the open blocks, then set what the block arrays imply: mapped
 * pages, the pSLC gauges; monotonic counters stay at zero. */
static void pf_finish(Prefill *f, uint64_t n, uint64_t erases)
{
    Drive *d = f->d;
    for (uint32_t i = 0; i < drive_geom(d)->dies * PF_KINDS; i++)
        if (f->open[i] != NO_BLOCK)
            blk_close(d, f->open[i], blk_stamp(d, f->open[i]));
    *drive_mapped(d) = n;
    drive_counters(d)->pslc_used = pf_slc_valid(d) * SLOT_SIZE;
    /* A table in NAND is stored now, not at the first command, so that the
     * cache at the start is what the first host program finds: its map
     * blocks come out of the free space the cache is sized from. */
    if (l2p_cache_on(d) && n > 0)
        l2p_host_command(d);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        pslc_update_limit(d, i);
    drive_counters(d)->pslc_limit_start = drive_counters(d)->pslc_limit;
    drive_counters(d)->nand_erases = erases;
    wear_reset(d);
}

/* Pages of the latest data the pSLC cache can hold once the rest is
 * folded: the cache's size depends on the native data, so shrink the
 * request until it fits (pslc.h evaluates the drive's sizing rule). */
static uint64_t pf_slc_fit(const Drive *d, uint64_t n, uint64_t want)
{
    if (!pslc_has_cache(d))
        return 0;
    uint64_t s = want, stat = pslc_static_capacity(drive_params(d)) / SLOT_SIZE;
    for (int i = 0; i < 64; i++) {
        double fill = (double)(n - s) / (double)drive_geom(d)->nlpn;
        uint64_t cap = stat + pslc_dynamic_limit_at(drive_params(d), fill) / SLOT_SIZE;
        if (cap >= s)
            break;
        s = cap;
    }
    return s;
}

bool drive_prefill(Drive *d, const DrivePrefill *pf)
{
    g_return_val_if_fail(d && pf, false);
    g_return_val_if_fail(pf->fill >= 0.0 && pf->fill <= 1.0, false);
    g_return_val_if_fail(*drive_mapped(d) == 0 && drive_outstanding(d) == 0 && drive_counters(d)->free_blocks == drive_geom(d)->nblocks,
                         false);
    uint64_t n = (uint64_t)(pf->fill * (double)drive_geom(d)->nlpn + 0.5);
    n = MIN(n, drive_geom(d)->nlpn);
    if (n == 0)
        return true;
    uint64_t slc = MIN((pf->slc_bytes + SLOT_SIZE - 1) / SLOT_SIZE, n);
    Prefill f = {.d = d, .open = g_new(uint32_t, drive_geom(d)->dies * PF_KINDS)};
    for (uint32_t i = 0; i < drive_geom(d)->dies * PF_KINDS; i++)
        f.open[i] = NO_BLOCK;
    sim_rng_init(&f.rng, pf->seed, 0x70726566696c6cULL);
    uint64_t erases = drive_counters(d)->nand_erases;
    /* no static wear leveling while aging: the counts start at zero after */
    wear_static_enable(d, false);
    bool ok;
    if (!pf->random) {
        slc = pf_slc_fit(d, n, slc);
        ok = pf_sequential(&f, 0, n - slc, false, true) && pf_sequential(&f, n - slc, slc, true, true);
    } else {
        /* the tables pf_deal() fills are zeroed by the kernel on another
         * core while the blocks age */
        map_expect_random_soon(d, n);
        ok = pf_sequential(&f, 0, n, false, false);
        if (ok) {
            uint64_t k = (uint64_t)(PREFILL_OVERWRITES * (double)n);
            pf_overwrite(&f, k > slc ? k - slc : 0, false);
            pf_overwrite(&f, slc, true);
            /* An overwrite drops a page drawn among all valid ones, the
             * SLC data written just before included: the last overwrites
             * go on in SLC until slc pages of it are valid there. A
             * round falls short by its own hits (about slc / 2n of what
             * it writes); one that adds nothing (the cache takes no
             * more) ends it. */
            for (uint64_t have = pf_slc_valid(d), was = 0; pslc_has_cache(d) && have < slc && have > was;
                 was = have, have = pf_slc_valid(d))
                pf_overwrite(&f, slc - have, true);
            pf_deal(&f, n);
        }
        map_expect_done(d);
    }
    pf_finish(&f, ok ? n : 0, erases);
    wear_static_enable(d, true);
    g_free(f.open);
    return ok;
}
