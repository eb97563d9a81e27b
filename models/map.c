/*
 * map.c - the page-level mapping: pointing lpns at the slots a program
 * wrote, invalidating what they had, relocating a victim's valid slots,
 * and the checker of the whole (map.h). The entries themselves, L2P and P2L,
 * are kept by the store (models/map_store.c), which this reads and writes
 * through map_tab.h and map_store.h.
 *
 * L2P gives each 4 KiB logical page (lpn) a physical slot, NO_SLOT
 * (unmapped) or BUF_MARK + ring position (the latest data sits in the write
 * buffer). P2L holds the lpn of every valid slot, NO_LPN otherwise, and
 * blk_valid() counts the valid slots per block; map_check() verifies all
 * three agree. Every change of the table made by map_set_run() is reported
 * to the function given to map_watch() (the mapping cache's, l2p_cache.c);
 * unmapping (ftl_unmap(), for TRIM) leaves that to its caller.
 */
#include "models/map.h"
#include "models/blocks.h"
#include "models/map_store.h"
#include "models/vec.h"

/* The mapping's own state, hung on the drive as DP_MAP. */
typedef struct Map {
    void (*changed)(Drive *d, uint64_t lpn); /* map_watch() */
} Map;

static Map *map_of(const Drive *d) { return drive_part(d, DP_MAP); }

bool map_init(Drive *d)
{
    drive_set_part(d, DP_MAP, g_new0(Map, 1));
    return map_store_init(d);
}

void map_release(Drive *d)
{
    map_store_release(d);
    g_free(map_of(d));
    drive_set_part(d, DP_MAP, NULL);
}

void map_watch(Drive *d, void (*fn)(Drive *d, uint64_t lpn)) { map_of(d)->changed = fn; }

/* The L2P and P2L agree: every mapped lpn points to a slot written in a
 * block in use that maps back to it (or to a buffer entry: ftl_check()),
 * every valid slot to an lpn that maps to it; the valid counts are the
 * valid slots, and the mapped pages the counter's. */
static bool entries_check(const Drive *d, char *why, size_t why_len)
{
    const Geom *g = drive_geom(d);
    uint64_t mapped = 0;
    g_autofree uint64_t *vals = g_new(uint64_t, MAX(MAP_CHUNK, g->slots_per_block));
    for (uint64_t lpn = 0; lpn < g->nlpn; lpn++) {
        if (lpn % MAP_CHUNK == 0)
            map_store_get_chunk(d, lpn / MAP_CHUNK, vals);
        uint64_t v = vals[lpn % MAP_CHUNK];
        if (v == NO_SLOT)
            continue;
        mapped++;
        if (v >= BUF_MARK)
            continue;
        CHECK(v < g->nslots,
              "lpn %" G_GUINT64_FORMAT " maps to slot %" G_GUINT64_FORMAT " beyond the drive", lpn, v);
        CHECK(map_lpn_of(d, v) == lpn,
              "lpn %" G_GUINT64_FORMAT " maps to slot %" G_GUINT64_FORMAT " which maps back to %" G_GUINT64_FORMAT,
              lpn, v, map_lpn_of(d, v));
        uint32_t b = nand_block_of(d, v);
        CHECK(blk_state(d, b) != BLK_FREE, "lpn %" G_GUINT64_FORMAT " maps into free block %u", lpn,
              b);
        CHECK(v - nand_slot(d, b, 0) < blk_wp(d, b),
              "lpn %" G_GUINT64_FORMAT " maps past the write pointer of block %u", lpn, b);
    }
    CHECK(mapped == *drive_mapped(d), "%" G_GUINT64_FORMAT " pages mapped, counter says %" G_GUINT64_FORMAT,
          mapped, *drive_mapped(d));
    for (uint32_t b = 0; b < g->nblocks; b++) {
        uint32_t valid = 0;
        uint64_t base = nand_slot(d, b, 0);
        if (blk_is_map(d, b))
            continue; /* holds translation pages: l2p_check() */
        map_store_block_lpns(d, b, vals);
        for (uint32_t s = 0; s < g->slots_per_block; s++) {
            uint64_t lpn = vals[s];
            if (lpn == NO_LPN)
                continue;
            CHECK(s < blk_wp(d, b), "block %u has a valid slot past its write pointer", b);
            CHECK(lpn < g->nlpn && map_get(d, lpn) == base + s,
                  "slot %" G_GUINT64_FORMAT " is valid for lpn %" G_GUINT64_FORMAT " which maps elsewhere",
                  base + s, lpn);
            valid++;
        }
        CHECK(valid == blk_valid(d, b), "block %u counts %u valid slots, has %u", b,
              blk_valid(d, b), valid);
    }
    return true;
}

/* The store first (chunks, runs, hashes, counts: what a lookup reads),
 * then the entries it gives. */
bool map_check(const Drive *d, char *why, size_t why_len)
{
    return map_store_check(d, why, why_len) && entries_check(d, why, why_len);
}

/* n of block b's valid slots are no longer (their P2L entries the
 * caller's): its counts change once (it can reach no valid slot only at
 * the last). */
static inline void drop_valid(Drive *d, uint32_t b, uint32_t n)
{
    /* (whether the slots were valid drive_check() verifies: for a slot of a
     * run it is a search, on a path every page written takes) */
    g_assert(blk_valid(d, b) >= n);
    if (blk_drop_valid(d, b, n) == 0 && blk_state(d, b) == BLK_FULL && !blk_is_dead(d, b)) {
        /* nothing left to move: GC can have it for an erase (gc_reclaim_dead) */
        die_push_dead(d, b);
    }
    if (blk_mode(d, b) == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        drive_counters(d)->pslc_used -= (uint64_t)n * SLOT_SIZE;
}

/* The n slots from slot on, in one block, all valid, are no longer: the
 * block's counts change once. */
static inline void invalidate_slots(Drive *d, uint64_t slot, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        map_put_lpn(d, slot + k, NO_LPN);
    drop_valid(d, nand_block_of(d, slot), n);
}

void map_invalidate_slot(Drive *d, uint64_t slot) { invalidate_slots(d, slot, 1); }

/* Warm the map entries of lpns, which the caller is about to set. lpns
 * that span no more than their number (a stream in order; a buffer holds
 * an lpn once) lie on consecutive lines: one prefetch a line, not a page. */
void map_prefetch(const Drive *d, const uint64_t *lpns, uint32_t n)
{
    if (n > 1 && lpns[n - 1] - lpns[0] == n - 1) {
        for (uint64_t lpn = lpns[0]; lpn <= lpns[n - 1]; lpn += 8) /* 8 entries of 8 bytes a line */
            map_prefetch_one(d, lpn);
        return;
    }
    for (uint32_t k = 0; k < n; k++)
        map_prefetch_one(d, lpns[k]);
}

/* The n lpns from lpn on changed: told to the mapping's watcher. */
static inline void changed_run(Drive *d, uint64_t lpn, uint32_t n)
{
    void (*changed)(Drive *, uint64_t) = map_of(d)->changed;
    for (uint32_t k = 0; changed && k < n; k++)
        changed(d, lpn + k);
}

/* Block b holds n more valid slots (and the pSLC cache as much more data
 * when b is an SLC block of a drive whose native mode is not). */
static inline void add_valid(Drive *d, uint32_t b, uint32_t n)
{
    blk_add_valid(d, b, n);
    if (blk_mode(d, b) == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        drive_counters(d)->pslc_used += (uint64_t)n * SLOT_SIZE;
}

enum { SET_DENSE, SET_TAKE };

/* Point the n lpns at the n slots from slot on, both ways, one by one:
 * the slots they had are invalidated, newly mapped lpns counted and every
 * change reported. What does not
 * change while a unit is mapped (the watcher, the width of the entries,
 * the flat tables and the directories, the mapped pages' counter) is
 * looked up once a unit, not once a page: a drive written at random comes
 * here with every program. */
static G_GNUC_NO_INLINE void set_single(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot)
{
    void (*changed)(Drive *, uint64_t) = map_of(d)->changed;
    bool narrow = drive_map_narrow(d);
    void *l2p = drive_l2p_flat(d), *p2l = drive_p2l_flat(d);
    void **l2p_dir = drive_l2p_dir(d), **p2l_dir = drive_p2l_dir(d);
    uint64_t *mapped = drive_mapped(d);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t lpn = lpns[k], s = slot + k, old;
        size_t eo = l2p ? lpn : lpn & (MAP_CHUNK - 1);
        void *tab = l2p ? l2p : l2p_dir[lpn >> MAP_CHUNK_BITS];
        /* the entry set as it is read where the chunk is not dense: its
         * old slot is invalidated after, which leaves the L2P alone */
        old = tab ? map_dense_get_as(d, tab, eo, lpn, narrow) : map_set_sparse(d, lpn, s);
        if (old == NO_SLOT)
            ++*mapped;
        else if (old < BUF_MARK)
            map_invalidate_slot(d, old);
        if (tab)
            l2p_ent_set(tab, eo, narrow, ~s);
        /* map_put_lpn() with the tables at hand */
        void *part = p2l ? p2l : p2l_dir[s >> MAP_CHUNK_BITS];
        if (part)
            p2l_ent_set(part, p2l ? s : s & (MAP_CHUNK - 1), narrow, ~lpn);
        else
            map_put_lpn_new(d, s, lpn);
        if (changed)
            changed(d, lpn);
    }
}

/* Point the n lpns at the n slots from slot on: the slots they had are
 * invalidated, newly mapped lpns counted and every change reported; the
 * L2P entries stored as what says (SET_DENSE: the lpns consecutive in one
 * dense chunk, whose part is looked up once; SET_TAKE: nothing, the buffer
 * marks taken). The P2L of these slots is the block's run. */
static inline void set_each(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot, int what)
{
    void (*changed)(Drive *, uint64_t) = map_of(d)->changed;
    void *part = what == SET_DENSE ? map_dense_part(d, lpns[0]) : NULL;
    bool narrow = drive_map_narrow(d);
    size_t o = lpns[0] & (MAP_CHUNK - 1);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t lpn = lpns[k];
        uint64_t old = what == SET_DENSE ? map_dense_get(d, part, o + k, lpn) : map_store_take(d, lpn);
        if (old == NO_SLOT)
            ++*drive_mapped(d);
        else if (old < BUF_MARK)
            map_invalidate_slot(d, old);
        if (what == SET_DENSE)
            l2p_ent_set(part, o + k, narrow, ~(slot + k));
        if (changed)
            changed(d, lpn);
    }
}

/* set_single() where both tables are flat (a drive mapped at
 * random; an aged drive's host programs): each entry one index into its
 * table, and the width of the entries a constant in each of set_flat()'s
 * two loops rather than a test per entry. */
static inline __attribute__((always_inline)) void set_flat_as(Drive *d, const uint64_t *lpns,
                                                              uint32_t n, uint64_t slot, void *l2p,
                                                              void *p2l, bool narrow)
{
    void (*changed)(Drive *, uint64_t) = map_of(d)->changed;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t lpn = lpns[k], old = map_dense_get_as(d, l2p, lpn, lpn, narrow);
        if (old == NO_SLOT)
            ++*drive_mapped(d);
        else if (old < BUF_MARK)
            map_invalidate_slot(d, old);
        l2p_ent_set(l2p, lpn, narrow, ~(slot + k));
        p2l_ent_set(p2l, slot + k, narrow, ~lpn);
        if (changed)
            changed(d, lpn);
    }
}

static void set_flat(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot)
{
    void *l2p = drive_l2p_flat(d), *p2l = drive_p2l_flat(d);
    if (drive_map_narrow(d))
        set_flat_as(d, lpns, n, slot, l2p, p2l, true);
    else
        set_flat_as(d, lpns, n, slot, l2p, p2l, false);
}

/* The n consecutive lpns from lpn, in the dense part of their chunk, all
 * in the write buffer (map_dense_marks(): a program of a stream's unit),
 * to the slots from slot on: what set_each() does for them, without an
 * old slot to invalidate or a page newly mapped, in one pass. */
static void set_buffered(Drive *d, void *part, uint64_t lpn, uint32_t n, uint64_t slot)
{
    map_dense_fill(d, part, lpn & (MAP_CHUNK - 1), n, slot);
    changed_run(d, lpn, n);
}

/* The n consecutive lpns from lpns[0] (n >= MAP_RUN_MIN) to the slots from
 * slot on, in block b, one run: chunk by chunk, a dense chunk's entries set
 * in place (a stream in order writes its chunks dense: one store each), a
 * chunk of runs given the run once its marks are taken; then the block's
 * P2L takes the whole run. Inlined: a fill's every program comes here from
 * map_set_run(), which has the block already (a division less). */
static inline __attribute__((always_inline)) void set_run(Drive *d, uint32_t b, const uint64_t *lpns,
                                                           uint32_t n, uint64_t slot)
{
    for (uint32_t k = 0; k < n;) {
        uint64_t lpn = lpns[k];
        uint32_t m = MIN(n - k, MAP_CHUNK - (uint32_t)(lpn & (MAP_CHUNK - 1)));
        void *part = map_dense_part(d, lpn);
        if (part && map_dense_marks(d, part, lpn & (MAP_CHUNK - 1), m)) {
            set_buffered(d, part, lpn, m, slot + k);
        } else if (part) {
            set_each(d, lpns + k, m, slot + k, SET_DENSE);
        } else {
            set_each(d, lpns + k, m, slot + k, SET_TAKE);
            map_store_put_chunk_run(d, lpn, m, slot + k);
        }
        k += m;
    }
    map_store_put_slot_run(d, b, slot, n, lpns[0]);
}

/* Whether the n lpns (n >= 2) follow the first one by one: four a step,
 * two a load, without a branch on them. */
static inline bool in_order(const uint64_t *lpns, uint32_t n)
{
    Vec64x2 want = lpns[0] + (Vec64x2){0, 1}, diff = {0, 0};
    uint32_t k = 0;
    for (; k + 4 <= n; k += 4, want += 4)
        diff |= (vec64_load(lpns + k) ^ want) | (vec64_load(lpns + k + 2) ^ (want + 2));
    for (; k < n; k++)
        diff[0] |= lpns[k] ^ (lpns[0] + k);
    return vec_zero(diff);
}

/* How many of the n lpns, from the first on, follow it one by one (at
 * least 1): four at a time while all four do (a unit of a stream in order
 * is one run), then one by one. */
static inline uint32_t consecutive(const uint64_t *lpns, uint32_t n)
{
    uint64_t first = lpns[0];
    uint32_t m = 1;
    if (n < 2 || lpns[1] != first + 1)
        return 1; /* pages written at random: most often */
    while (m + 4 <= n && ((lpns[m] - (first + m)) | (lpns[m + 1] - (first + m + 1)) |
                          (lpns[m + 2] - (first + m + 2)) | (lpns[m + 3] - (first + m + 3))) == 0)
        m += 4;
    while (m < n && lpns[m] == first + m)
        m++;
    return m;
}

/* Whether the n lpns hold a piece that map_set_run() stores as a run:
 * MAP_RUN_MIN (8) or more consecutive ones. Such a piece, wherever it
 * starts, holds one of the places 0, 4, 8 ... and the place 4 after it,
 * whose lpns then differ by 4: where none such do (random pages), a test
 * every 4th lpn, there is none, and the lpns are followed one by one only
 * where there may be. */
G_STATIC_ASSERT(MAP_RUN_MIN >= 8);
static bool has_run(const uint64_t *lpns, uint32_t n)
{
    bool may = false;
    for (uint32_t k = 0; k + 4 < n; k += 4)
        may |= lpns[k + 4] - lpns[k] == 4;
    if (!may)
        return false;
    for (uint32_t k = 1, m = 1; k < n; k++) {
        m = lpns[k] == lpns[k - 1] + 1 ? m + 1 : 1;
        if (m >= MAP_RUN_MIN)
            return true;
    }
    return false;
}

/* map_set_run() where runs fit: each piece of at least MAP_RUN_MIN
 * consecutive lpns is stored as a run, once its old slots are invalidated
 * (distinct lpns: storing one does not change what another had); the
 * lpns between such pieces are set one by one, in one loop as without runs. */
static void set_pieces(Drive *d, uint32_t b, const uint64_t *lpns, uint32_t n, uint64_t slot)
{
    for (uint32_t k = 0; k < n;) {
        uint32_t a = k, m = 0; /* the next run: m lpns from a */
        while (a < n) {
            m = consecutive(lpns + a, n - a);
            if (m >= MAP_RUN_MIN)
                break;
            a += m;
        }
        set_single(d, lpns + k, a - k, slot + k);
        if (a == n)
            break;
        set_run(d, b, lpns + a, m, slot + a);
        k = a + m;
    }
}

/* Point the n lpns at the n slots from slot on, all in one block (the
 * program of a unit), invalidating the slots they had. The block's counters
 * change once. An old slot in the same block is invalidated before the new
 * ones count, which is safe: the block is open, so it cannot be marked
 * dead meanwhile. */
void map_set_run(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    if (map_store_runs_ok(d) && n >= MAP_RUN_MIN && lpns[1] == lpns[0] + 1 && in_order(lpns, n)) {
        /* one run (a unit of a stream in order: a fill's every program):
         * what set_pieces() would find, without has_run() and a second
         * pass over the lpns first */
        map_store_warm_block_runs(d, b);
        set_run(d, b, lpns, n, slot);
    } else if (map_store_runs_ok(d) && has_run(lpns, n)) {
        map_store_warm_block_runs(d, b);
        set_pieces(d, b, lpns, n, slot);
    } else if (drive_l2p_flat(d) && drive_p2l_flat(d)) {
        set_flat(d, lpns, n, slot); /* (without a run set_pieces() sets them one by one) */
    } else {
        set_single(d, lpns, n, slot);
    }
    add_valid(d, b, n);
}

/* relocate_run()'s mapping where both tables are flat (a drive mapped at
 * random) and no run is to be stored: what map_set_run() does, knowing
 * that every lpn maps to its source slot, valid in block v: no old entry
 * read, no lookup per entry, the pair of tables written in one pass and
 * each block's counts changed once. Returns false, nothing done, where
 * map_set_run() is needed. */
static bool relocate_flat(Drive *d, uint32_t v, uint32_t dst, const uint64_t *lpns,
                          const uint64_t *srcs, uint32_t n, uint64_t first)
{
    void *l2p = drive_l2p_flat(d), *p2l = drive_p2l_flat(d);
    if (l2p == NULL || p2l == NULL || (map_store_runs_ok(d) && has_run(lpns, n)))
        return false;
    if (drive_map_narrow(d)) {
        uint32_t *l = l2p, *p = p2l;
        for (uint32_t k = 0; k < n; k++) {
            l[lpns[k]] = (uint32_t)~(first + k);
            p[srcs[k]] = P2L_DEAD;
            p[first + k] = (uint32_t)~lpns[k];
        }
    } else {
        uint64_t *l = l2p, *p = p2l;
        for (uint32_t k = 0; k < n; k++) {
            l[lpns[k]] = ~(first + k);
            p[srcs[k]] = P2L_DEAD;
            p[first + k] = ~lpns[k];
        }
    }
    drop_valid(d, v, n);
    add_valid(d, dst, n);
    void (*changed)(Drive *, uint64_t) = map_of(d)->changed;
    for (uint32_t k = 0; changed && k < n; k++)
        changed(d, lpns[k]);
    return true;
}

/* Map n relocated slots (lpns, from srcs in block v) to the next slots of
 * dst. */
#define RELOCATE_RUN 64
static void relocate_run(Drive *d, uint32_t v, uint32_t dst, const uint64_t *lpns,
                         const uint64_t *srcs, uint32_t n)
{
    if (n == 0)
        return;
    uint64_t first = nand_slot(d, dst, blk_wp(d, dst));
    if (!relocate_flat(d, v, dst, lpns, srcs, n, first))
        map_set_run(d, lpns, n, first);
    blk_advance(d, dst, n);
    for (uint32_t k = 0; drive_place_hook(d) && k < n; k++)
        drive_place_hook(d)(drive_place_ctx(d), lpns[k], first + k, srcs[k]);
}

/* Valid slots of a victim moving together (relocate_runs()): stretches of
 * consecutive slots whose lpns continue one another, from lpn on. */
typedef struct Piece {
    uint64_t lpn;
    uint32_t n, nst;
    uint64_t src[RELOCATE_RUN];
    uint32_t len[RELOCATE_RUN];
} Piece;

/* The piece to the next slots of dst. From MAP_RUN_MIN slots on, as
 * map_set_run() would store it but knowing the old slots: one run each
 * way, the stretches invalidated whole; a shorter one slot by slot. */
static void relocate_piece(Drive *d, uint32_t v, uint32_t dst, Piece *p)
{
    uint64_t first = nand_slot(d, dst, blk_wp(d, dst));
    if (p->n < MAP_RUN_MIN) { /* (a block has runs only where they fit) */
        uint64_t lpns[RELOCATE_RUN], srcs[RELOCATE_RUN];
        uint32_t n = 0;
        for (uint32_t i = 0; i < p->nst; i++)
            for (uint32_t k = 0; k < p->len[i]; k++, n++) {
                lpns[n] = p->lpn + n;
                srcs[n] = p->src[i] + k;
            }
        relocate_run(d, v, dst, lpns, srcs, n);
        p->n = p->nst = 0;
        return;
    }
    for (uint32_t i = 0; i < p->nst; i++)
        invalidate_slots(d, p->src[i], p->len[i]);
    for (uint32_t k = 0; k < p->n;) { /* the L2P chunk by chunk (no buffer marks: valid) */
        uint64_t lpn = p->lpn + k;
        uint32_t m = MIN(p->n - k, MAP_CHUNK - (uint32_t)(lpn & (MAP_CHUNK - 1)));
        map_store_put_chunk_run(d, lpn, m, first + k);
        k += m;
    }
    map_store_put_slot_run(d, dst, first, p->n, p->lpn);
    add_valid(d, dst, p->n);
    changed_run(d, p->lpn, p->n);
    blk_advance(d, dst, p->n);
    for (uint32_t i = 0, n = 0; drive_place_hook(d) && i < p->nst; i++)
        for (uint32_t k = 0; k < p->len[i]; k++, n++)
            drive_place_hook(d)(drive_place_ctx(d), p->lpn + n, first + n, p->src[i] + k);
    p->n = p->nst = 0;
}

/* map_relocate() of block v whose P2L holds runs: its valid slots found a
 * stretch at a time (map_store_block_stretch(): one search for the run,
 * one for the L2P's, where slot by slot each slot cost both), and moved a
 * piece at a time. */
static uint32_t relocate_runs(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, uint32_t want,
                              uint32_t *pages)
{
    uint32_t spp = drive_geom(d)->slots_per_page, wp = blk_wp(d, v), n = 0;
    uint64_t vbase = nand_slot(d, v, 0), last_page = NO_SLOT;
    Piece p = {.n = 0, .nst = 0};
    while (n < want && *cursor < wp) {
        uint64_t lpn;
        uint32_t k = map_store_block_stretch(d, v, *cursor, wp, &lpn);
        if (lpn == NO_LPN) {
            *cursor += k;
            continue;
        }
        k = MIN(k, want - n);
        uint64_t src = vbase + *cursor;
        uint64_t page = slot_div(src, spp), end_page = slot_div(src + k - 1, spp);
        *pages += (uint32_t)(end_page - page + (page != last_page));
        last_page = end_page;
        if (p.nst > 0 && (lpn != p.lpn + p.n || p.nst == RELOCATE_RUN))
            relocate_piece(d, v, dst, &p);
        if (p.nst == 0)
            p.lpn = lpn;
        p.src[p.nst] = src;
        p.len[p.nst++] = k;
        p.n += k;
        *cursor += k;
        n += k;
    }
    if (p.nst > 0)
        relocate_piece(d, v, dst, &p);
    return n;
}

/* The next valid slots of a victim, from *src on and below end, at most
 * max: their lpns and slots, each lpn's L2P entry asked for (the entries
 * lie scattered over the whole table: the batch is mapped once found).
 * p2l and l2p the flat tables, or NULL to look entries up one by one;
 * narrow a constant in each of find_valid()'s calls. Returns how many. */
static inline __attribute__((always_inline)) uint32_t
find_valid_as(const Drive *d, uint64_t *src, uint64_t end, uint32_t max, uint64_t *lpns,
              uint64_t *srcs, const void *p2l, const void *l2p, bool narrow)
{
    uint32_t got = 0;
    uint64_t s = *src;
    for (; got < max && s < end; s++) {
        uint64_t lpn = p2l ? map_lpn_at_as(d, p2l, s, s, narrow) : map_lpn_of(d, s);
        if (lpn == NO_LPN)
            continue;
        if (l2p)
            warm_line(map_ent_at(l2p, lpn, narrow));
        else
            map_prefetch_one(d, lpn);
        lpns[got] = lpn;
        srcs[got++] = s;
    }
    *src = s;
    return got;
}

static uint32_t find_valid(const Drive *d, uint64_t *src, uint64_t end, uint32_t max,
                           uint64_t *lpns, uint64_t *srcs)
{
    const void *p2l = drive_p2l_flat(d), *l2p = drive_l2p_flat(d);
    if (p2l && l2p && drive_map_narrow(d))
        return find_valid_as(d, src, end, max, lpns, srcs, p2l, l2p, true);
    if (p2l && l2p)
        return find_valid_as(d, src, end, max, lpns, srcs, p2l, l2p, false);
    return find_valid_as(d, src, end, max, lpns, srcs, NULL, NULL, false);
}

/* map_relocate() of block v without runs, slot by slot, in batches of
 * RELOCATE_RUN: one pass over the P2L finds a batch's valid slots
 * (find_valid()) before the batch is mapped. */
static uint32_t relocate_slots(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, uint32_t want,
                               uint32_t *pages)
{
    uint32_t spp = drive_geom(d)->slots_per_page, n = 0;
    uint64_t vbase = nand_slot(d, v, 0), src = vbase + *cursor, end = vbase + blk_wp(d, v);
    uint64_t page_end = 0; /* the end of the last page counted */
    uint64_t lpns[RELOCATE_RUN], srcs[RELOCATE_RUN];
    while (n < want && src < end) {
        uint32_t got = find_valid(d, &src, end, MIN(want - n, RELOCATE_RUN), lpns, srcs);
        for (uint32_t k = 0; k < got; k++) {
            if (srcs[k] >= page_end) { /* slots go up: a page not counted yet */
                (*pages)++;
                page_end = (slot_div(srcs[k], spp) + 1) * spp;
            }
        }
        relocate_run(d, v, dst, lpns, srcs, got);
        n += got;
    }
    *cursor = (uint32_t)(src - vbase);
    return n;
}

/* Move up to one native program unit of valid slots of block v, scanning
 * from *cursor, into dst (GC and folding both relocate this way). dst,
 * the open block of its die's stream (or, MAP_OWN_BLOCK, one its caller
 * keeps), is marked full and closed when it fills. Returns the slots moved and in *pages the distinct source pages
 * that had to be read. */
uint32_t map_relocate(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, int stream,
                      uint32_t *pages)
{
    uint32_t unit = drive_geom(d)->unit_slots[drive_geom(d)->native];
    uint32_t room = nand_block_capacity(d, dst) - blk_wp(d, dst);
    uint32_t want = unit < room ? unit : room;
    *pages = 0;
    uint32_t n = map_store_block_has_runs(d, v) ? relocate_runs(d, v, cursor, dst, want, pages)
                                                : relocate_slots(d, v, cursor, dst, want, pages);
    if (blk_wp(d, dst) == nand_block_capacity(d, dst)) {
        blk_close(d, dst, sim_now(drive_engine(d)));
        if (stream != MAP_OWN_BLOCK)
            die_set_open(d, nand_die_of_block(d, dst), stream, NO_BLOCK);
    }
    return n;
}
