/*
 * map_store.c - the store behind the L2P and P2L tables (map_tab.h), and
 * the memory it takes (map_store_bytes()); the mapping's operations on it
 * are models/map.c's.
 *
 * L2P gives each 4 KiB logical page (lpn) a physical slot, NO_SLOT
 * (unmapped) or BUF_MARK + ring position (the latest data sits in the write
 * buffer); P2L the lpn of every valid slot, NO_LPN otherwise.
 *
 * Memory follows the data written, never the capacity: nothing is read
 * that was not written, so a drive costs the same on a kernel that backs
 * a page on its first read as on one that maps the zero page. Values are
 * kept where they differ from what the structure already says:
 *
 *   - the prefill formula: a sequential prefill writes native units to the
 *     dies in turn, so lpn -> slot follows from the blocks each die took in
 *     order (pf_blk), and a block's slots back to their lpns (pf_j);
 *   - runs: MAP_RUN_MIN or more consecutive lpns programmed to consecutive
 *     slots (a host program unit written in order, a piece GC or folding
 *     moves in order) are one run in the L2P of each chunk of MAP_CHUNK
 *     lpns they touch (a sorted list; a newer run cuts back, splits or
 *     replaces the runs it covers) and one in the P2L of their block
 *     (appended in slot order, dropped when the block is erased): 8 bytes
 *     each way;
 *   - overrides: single lpns written, moved or trimmed, per chunk in a hash
 *     table while few (the table sized ahead for a run's random writes,
 *     map_expect_class(); a 64-bit filter per chunk, over_may_hold(),
 *     answers a lookup at an offset none of them has without a probe);
 *     once they and the chunk's runs would cost more (CHUNK_PROMOTE), the
 *     chunk takes a dense part of its own (from a pool, BigmemPool), which
 *     the directory points to;
 *   - buffer marks (BUF_MARK + ring position) in a direct-mapped table
 *     and a small hash of their own, bounded by the write buffer: a stream
 *     passing through does not push chunks dense;
 *   - hot chunks: a write that begins at a chunk's first page (most often
 *     a stream in order) makes the chunk dense while it is written, where
 *     an entry is a load or a store, up to HOT_MAX chunks at a time; the
 *     oldest goes back to runs and overrides when another comes;
 *   - flat tables: where a random prefill would push the average chunk
 *     dense (map_expect_random()), every chunk's part lies in order in one
 *     table, which the drive holds too: an entry is one index, with no
 *     directory load (that was a miss of its own on every lookup of a
 *     drive mapped at random); the P2L's as well where the slots written
 *     at random would give most of its chunks a part anyway (a random
 *     prefill maps them first, map_expect_random_soon(), and a thread
 *     backs them while it ages the blocks);
 *   - P2L: per chunk of MAP_CHUNK slots, a part taken from a pool on the
 *     first write of a slot of it that is in no run and not prefilled; a
 *     prefilled or run slot is valid for its lpn while L2P still gives that
 *     lpn this slot.
 *
 * Dense parts and P2L entries are 4 bytes where the drive's slots and lpns
 * fit 32 bits (narrow), else 8 (wide; FTLSIM_MAP_STORE=wide for any drive,
 * to test the wide entries on small drives).
 *
 * An L2P entry is looked up in that order of precedence: a dense chunk's
 * part; a buffer mark; an override; a run; the formula. map_check()
 * verifies the structure. A fully fragmented drive costs an entry per page
 * both ways (4 or 8 bytes); 1 M random 4 KiB writes, their overrides
 * (cells of twice an entry's bytes, in a hash at most three quarters
 * full) and the P2L chunks of the slots they went to; a fill in order,
 * its runs: 16 bytes (and their lists' slack) per program unit.
 */
#include "models/map_store.h"
#include "models/blocks.h"
#include "models/pslc.h"

#include "models/bigmem.h"
#include "models/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BITS MAP_CHUNK_BITS
#define CHUNK MAP_CHUNK
/* A chunk's state (chunk_n): its overrides in the hash, CHUNK_RUNS set
 * while it has runs; or CHUNK_DENSE. */
#define CHUNK_DENSE UINT16_MAX
#define CHUNK_RUNS 0x8000u
#define CHUNK_COUNT 0x7fffu
/* A chunk goes dense when its overrides and runs would cost more than
 * half its dense part (8 bytes an lpn): the hash spends about 32 bytes on
 * an override, a run list 8 on a run; 4 * overrides + runs counts both. */
#define CHUNK_PROMOTE (CHUNK / 2)
/* An override saying "unmapped" where the formula gives a slot: in the
 * range no slot or ring position takes. */
#define HASH_MIN_BITS 10
#define HASH_WARM_MIN (4u << 20) /* a table made ahead this large is backed by a thread */
#define BMARK_MIN_BITS 10
#define RUNS_MIN_CAP 8
#define HOT_MAX 16u

typedef struct Cell {
    uint64_t key; /* lpn + 1, 0 for an empty cell */
    uint64_t val;
} Cell;

/* Open addressing with linear probing, keyed by lpn; a cell's key and
 * value side by side, so that a lookup at random is one miss. Where the
 * drive's entries are narrow a cell is 8 bytes, its key 32 bits (lpn + 1
 * fits) and its value the low 32 bits, widened as a dense part's are
 * (l2p_ent()): a table of a million overrides takes 16 MiB, not 32, and
 * more of it stays in the cache. */
typedef struct Hash {
    void *cells;
    uint64_t mask, count;
    uint32_t bits, shift; /* shift: 64 - bits, what hash_home() shifts by */
    bool narrow;
    BigmemWarm *warm;     /* the thread backing the table made ahead (map_expect_class()) */
} Hash;

/* A list of runs, 8 bytes each, grown by doubling. L2P runs (a chunk's,
 * in lpn order): slot << 24 | first offset in the chunk << 12 | last
 * offset. P2L runs (a block's, in slot order): lpn << 24 | first slot in
 * the block << 8 | length (at most RUN_P2L_MAX). */
typedef struct Runs {
    uint32_t n, cap;
    uint32_t hint; /* the run the last lookup found: lookups walk in order */
    uint64_t r[];
} Runs;
#define RUN_P2L_MAX 255u

typedef struct SparseMap {
    /* L2P, stored complemented (0: none, the formula holds). Looked up in
     * this order: a dense chunk's part; a buffer mark; an override; a run. */
    void **dense;      /* per chunk: its dense part once it is dense (drive_l2p_dir()) */
    uint16_t *chunk_n; /* per chunk: see CHUNK_DENSE */
    Hash over;         /* overrides of chunks not dense */
    /* per chunk: bit lpn % 64 set for the lpn of each of its overrides
     * (over_may_hold()), cleared when it has none left: most lookups of a
     * drive written at random are of lpns never written, and the filter
     * answers them without a probe of the hash (a miss of its own) */
    uint64_t *over_bits;
    /* BUF_MARK + ring position of buffered lpns of chunks not dense, in a
     * direct-mapped table (cell lpn & mmask, twice the write buffer's
     * pages: a stream written in order never collides) and, for an lpn
     * whose cell another holds, in the hash bmark */
    Cell *mcell;       /* key lpn + 1, 0 for an empty cell */
    uint64_t mmask;
    Hash bmark;
    uint16_t *bmark_n; /* per chunk: its buffer marks, so that a lookup elsewhere skips them */
    Runs **chunk_runs; /* per chunk with CHUNK_RUNS: its runs */
    bool runs_ok;      /* slots, lpns and blocks fit the runs' fields */
    bool narrow;       /* entries of 4 bytes: slots and lpns fit */
    /* P2L, stored complemented (0: NO_LPN, or the formula's or a run's) */
    void **p2l;        /* per chunk of slots: its part, NULL if none written (drive_p2l_dir()) */
    Runs **blk_runs;   /* per block: its runs, NULL if none */
    BigmemPool dense_pool, p2l_pool;
    /* where every chunk is dense (map_expect_random()): the parts in order
     * in one table each way, the directories pointing into them, no pool */
    void *l2p_flat, *p2l_flat;
    /* the same, mapped ahead of map_expect_random() (map_expect_random_soon())
     * and backed meanwhile by warm; NULL once taken */
    void *l2p_soon, *p2l_soon;
    BigmemWarm *warm;
    /* chunks made dense for a stream written in order (chunk_heat()), the
     * oldest first: at most HOT_MAX, each kept as runs and overrides again
     * when it is the oldest and another comes (chunk_cool()) */
    uint64_t hot[16];
    uint32_t nhot, hot_first;
    uint64_t nchunks, np2l;
    /* the prefill formula: lpns [0, pf_end) unless overridden */
    bool pf_ok;        /* the prefill has followed it so far */
    uint64_t pf_end;
    uint32_t *pf_blk;  /* dies x blocks_per_die: a die's j-th block of the prefill */
    uint32_t *pf_j;    /* nblocks: j of a block the formula covers, NO_IDX otherwise */
    uint32_t unit;     /* native unit, slots */
    uint32_t upb;      /* native units per block */
} SparseMap;

/* The store, hung on the drive as DP_MAP_STORE. */
static SparseMap *store_of(const Drive *d) { return drive_part(d, DP_MAP_STORE); }

/* ---- Entries ------------------------------------------------------------- */

static size_t ent_bytes(const SparseMap *sm) { return sm->narrow ? 4 : 8; }

/* slot's P2L entry, complemented (0: none). */
static uint64_t p2l_stored(const SparseMap *sm, uint64_t slot)
{
    const void *p = sm->p2l[slot >> CHUNK_BITS];
    return p ? p2l_ent(p, (uint32_t)(slot & (CHUNK - 1)), sm->narrow) : 0;
}

/* A chunk's dense part or a P2L part: from its pool, zeroed. Parts are
 * taken as chunks are first written, and a pool maps a slab at a time. */
static void *part_take(BigmemPool *pool)
{
    void *p = bigmem_pool_take(pool);
    if (!p)
        g_error("out of memory for the map's tables (%" G_GUINT64_FORMAT " parts of %zu bytes)",
                pool->taken, pool->piece);
    return p;
}

/* ---- The hash tables ----------------------------------------------------- */

static inline size_t cell_bytes(const Hash *h) { return h->narrow ? 8 : 16; }

static inline uint64_t cell_key(const Hash *h, uint64_t i)
{
    return h->narrow ? ((const uint32_t *)h->cells)[2 * i] : ((const uint64_t *)h->cells)[2 * i];
}

static inline uint64_t cell_val(const Hash *h, uint64_t i)
{
    return l2p_ent(h->cells, 2 * i + 1, h->narrow);
}

static inline void cell_set_key(Hash *h, uint64_t i, uint64_t key)
{
    if (h->narrow)
        ((uint32_t *)h->cells)[2 * i] = (uint32_t)key;
    else
        ((uint64_t *)h->cells)[2 * i] = key;
}

static inline void cell_set_val(Hash *h, uint64_t i, uint64_t v)
{
    l2p_ent_set(h->cells, 2 * i + 1, h->narrow, v);
}

static inline const void *cell_at(const Hash *h, uint64_t i)
{
    return (const char *)h->cells + i * cell_bytes(h);
}

/* Cell i of from into cell j of to, a table of the same width: as it is,
 * with no widening and narrowing of its value on the way. */
static inline void cell_copy(Hash *to, uint64_t j, const Hash *from, uint64_t i)
{
    memcpy((char *)to->cells + j * cell_bytes(to), cell_at(from, i), cell_bytes(to));
}

/* Fibonacci hashing of lpn into bits bits. */
static inline uint64_t hash_home(const Hash *h, uint64_t lpn)
{
    return ((lpn + 1) * 0x9e3779b97f4a7c15ULL) >> h->shift;
}

/* The cell of lpn, or of the empty cell where it would go. */
static inline uint64_t hash_cell(const Hash *h, uint64_t lpn)
{
    uint64_t i = hash_home(h, lpn);
    uint64_t k;
    while ((k = cell_key(h, i)) != 0 && k != lpn + 1)
        i = (i + 1) & h->mask;
    return i;
}

/* lpn's value in h, 0 if none. */
static inline uint64_t hash_get(const Hash *h, uint64_t lpn)
{
    uint64_t i = hash_cell(h, lpn);
    return cell_key(h, i) ? cell_val(h, i) : 0;
}

static bool hash_alloc(Hash *h, uint32_t bits)
{
    h->bits = bits;
    h->shift = 64 - bits;
    h->mask = (1ULL << bits) - 1;
    /* huge pages where large: a probe lands anywhere in the table */
    h->cells = bigmem_alloc((h->mask + 1) * cell_bytes(h), true);
    return h->cells != NULL;
}

/* The table made 2^bits cells (more than it has), its entries moved. */
static void hash_resize(Hash *h, uint32_t bits)
{
    Hash old = *h;
    bigmem_warm_stop(old.warm);
    h->warm = NULL;
    if (!hash_alloc(h, bits))
        g_error("out of memory for the map's %" G_GUINT64_FORMAT " entries", h->count);
    for (uint64_t i = 0; i <= old.mask; i++)
        if (cell_key(&old, i) != 0) {
            /* the keys are distinct: the first empty cell from home */
            uint64_t j = hash_home(h, cell_key(&old, i) - 1);
            while (cell_key(h, j) != 0)
                j = (j + 1) & h->mask;
            cell_copy(h, j, &old, i);
        }
    bigmem_free(old.cells, (old.mask + 1) * cell_bytes(&old));
}

/* Double the table at three quarters' load. Rare (each doubling), so the
 * event loop allocates only as the entries grow. */
static G_GNUC_NO_INLINE void hash_grow(Hash *h) { hash_resize(h, h->bits + 1); }

/* The bits of a table that n entries fill to three quarters at most, as
 * hash_grow() makes it (hash_bytes() counts its memory so). */
static uint32_t hash_bits_for(double n)
{
    uint32_t bits = HASH_MIN_BITS;
    while (n > (double)(1ull << bits) * 0.75)
        bits++;
    return bits;
}

/* Set lpn's value; true if lpn was not in h. */
static bool hash_put(Hash *h, uint64_t lpn, uint64_t v)
{
    uint64_t i = hash_cell(h, lpn);
    cell_set_val(h, i, v);
    if (cell_key(h, i) != 0)
        return false;
    cell_set_key(h, i, lpn + 1);
    if (++h->count > (h->mask + 1) / 4 * 3)
        hash_grow(h);
    return true;
}

/* Remove the entry at cell i, shifting later entries of its probe run back
 * (linear probing without tombstones). */
static void hash_remove(Hash *h, uint64_t i)
{
    for (uint64_t j = (i + 1) & h->mask; cell_key(h, j) != 0; j = (j + 1) & h->mask) {
        uint64_t home = hash_home(h, cell_key(h, j) - 1);
        /* the entry at j may fill the hole at i if its home is not in (i, j] */
        if (((j - home) & h->mask) >= ((j - i) & h->mask)) {
            cell_copy(h, i, h, j);
            i = j;
        }
    }
    cell_set_key(h, i, 0);
    h->count--;
}

/* Remove lpn's entry; true if it had one. */
static bool hash_drop(Hash *h, uint64_t lpn)
{
    uint64_t i = hash_cell(h, lpn);
    if (cell_key(h, i) == 0)
        return false;
    hash_remove(h, i);
    return true;
}

/* ---- Runs ---------------------------------------------------------------- */

static inline uint64_t l2p_slot(uint64_t r) { return r >> 24; }
static inline uint32_t l2p_off(uint64_t r) { return (r >> 12) & (CHUNK - 1); }
static inline uint32_t l2p_last(uint64_t r) { return r & (CHUNK - 1); }
static inline uint64_t l2p_run(uint64_t slot, uint32_t off, uint32_t last)
{
    return slot << 24 | (uint64_t)off << 12 | last;
}

static inline uint64_t p2l_lpn(uint64_t r) { return r >> 24; }
static inline uint32_t p2l_off(uint64_t r) { return (r >> 8) & 0xffff; }
static inline uint32_t p2l_len(uint64_t r) { return r & 0xff; }
static inline uint64_t p2l_run(uint64_t lpn, uint32_t off, uint32_t len)
{
    return lpn << 24 | (uint64_t)off << 8 | len;
}

/* runs_reserve() where l has no room: out of line, as it is rare. */
static G_GNUC_NO_INLINE Runs *runs_grow(Runs *l, uint32_t more)
{
    uint32_t n = l ? l->n : 0, cap = l ? l->cap : 0;
    cap = MAX(cap * 2, RUNS_MIN_CAP);
    while (cap < n + more)
        cap *= 2;
    l = realloc(l, sizeof(Runs) + (size_t)cap * sizeof(uint64_t));
    if (!l)
        g_error("out of memory for the map's runs");
    l->n = n;
    l->cap = cap;
    if (n == 0)
        l->hint = 0;
    return l;
}

/* l with room for more runs (l NULL: a new list). Lists double, so a run
 * allocates only when its list outgrows a power of two. */
static inline Runs *runs_reserve(Runs *l, uint32_t more)
{
    return l && l->n + more <= l->cap ? l : runs_grow(l, more);
}

/* The first L2P run of l whose last offset is o or more (l->n if none).
 * Without branches on the runs: lookups land anywhere in a chunk's list,
 * and a mispredicted branch per halving cost more than the search. */
static inline uint32_t l2p_find(const Runs *l, uint32_t o)
{
    if (l->n == 0 || l2p_last(l->r[l->n - 1]) < o)
        return l->n; /* beyond the last run: where a stream in order writes next */
    const uint64_t *r = l->r;
    for (uint32_t n = l->n; n > 1;) {
        uint32_t half = n / 2;
        r = l2p_last(r[half - 1]) < o ? r + half : r;
        n -= half;
    }
    return (uint32_t)(r - l->r);
}

/* The slot a run of l gives offset o (complemented), 0 if none covers it.
 * GC and folding look up the lpns of a block's runs one after another:
 * the run found last, or the next one, most often covers o. */
static inline uint64_t l2p_runs_get(Runs *l, uint32_t o)
{
    uint32_t i = l->hint;
    if (i < l->n && l2p_off(l->r[i]) <= o && l2p_last(l->r[i]) >= o)
        return ~(l2p_slot(l->r[i]) + (o - l2p_off(l->r[i])));
    if (++i < l->n && l2p_off(l->r[i]) <= o && l2p_last(l->r[i]) >= o) {
        l->hint = i;
        return ~(l2p_slot(l->r[i]) + (o - l2p_off(l->r[i])));
    }
    i = l2p_find(l, o);
    if (i == l->n || l2p_off(l->r[i]) > o)
        return 0;
    l->hint = i;
    return ~(l2p_slot(l->r[i]) + (o - l2p_off(l->r[i])));
}

/* The P2L run of l that covers slot i of its block, l->n if none. A
 * block's runs are searched for each of its slots GC or folding moves:
 * without branches on the runs, as l2p_find(). */
static uint32_t p2l_runs_find(Runs *l, uint32_t i)
{
    uint32_t h = l->hint; /* slots are looked up in order: the last run found, or the next */
    if (h < l->n && p2l_off(l->r[h]) <= i && i - p2l_off(l->r[h]) < p2l_len(l->r[h]))
        return h;
    if (++h < l->n && p2l_off(l->r[h]) <= i && i - p2l_off(l->r[h]) < p2l_len(l->r[h])) {
        l->hint = h;
        return h;
    }
    const uint64_t *r = l->r; /* the last run starting at or before i */
    if (l->n == 0 || p2l_off(r[0]) > i)
        return l->n;
    for (uint32_t n = l->n; n > 1;) {
        uint32_t half = n / 2;
        r = p2l_off(r[half]) <= i ? r + half : r;
        n -= half;
    }
    if (i - p2l_off(*r) >= p2l_len(*r))
        return l->n;
    l->hint = (uint32_t)(r - l->r);
    return l->hint;
}

/* The lpn a P2L run of l gives slot i of its block, NO_LPN if none covers it. */
static uint64_t p2l_runs_get(Runs *l, uint32_t i)
{
    uint32_t h = p2l_runs_find(l, i);
    return h == l->n ? NO_LPN : p2l_lpn(l->r[h]) + (i - p2l_off(l->r[h]));
}

/* At most: a list doubles past n, so it holds fewer than 2n runs (the
 * runs a chunk or block gets vary with what else was written around it);
 * its header and malloc's own 16 bytes. */
static double runs_list_bytes(double runs)
{
    return (double)sizeof(Runs) + 2 * MAX(runs, RUNS_MIN_CAP / 2) * sizeof(uint64_t) + 16;
}

/* ---- The L2P ------------------------------------------------------------- */

/* lpn's slot by the prefill formula: unit u = lpn / unit went to die
 * u % dies as that die's k = u / dies-th unit, unit k % upb of its
 * (k / upb)-th block. */
/* x / by, by a shift where by is a power of two (units, dies and units
 * per block mostly are), in 32 bits where x fits: the formula answers a
 * prefilled drive's every lookup. */
static inline uint64_t fdiv(uint64_t x, uint32_t by)
{
    if ((by & (by - 1)) == 0)
        return x >> __builtin_ctz(by);
    return x <= UINT32_MAX ? (uint32_t)x / by : x / by;
}

static uint64_t formula_slot(const Drive *d, const SparseMap *sm, uint64_t lpn)
{
    if (lpn >= sm->pf_end)
        return NO_SLOT;
    const Geom *g = drive_geom(d);
    uint64_t u = fdiv(lpn, sm->unit), k = fdiv(u, g->dies);
    uint32_t die = (uint32_t)(u - k * g->dies);
    uint64_t j = fdiv(k, sm->upb);
    uint32_t b = sm->pf_blk[(uint64_t)die * g->blocks_per_die + j];
    return nand_slot(d, b,
                     (uint32_t)(k - j * sm->upb) * sm->unit + (uint32_t)(lpn - u * sm->unit));
}

/* The lpn the formula put in slot i of block b (covered by it), or NO_LPN. */
static uint64_t formula_lpn(const Drive *d, const SparseMap *sm, uint32_t b, uint32_t i)
{
    uint32_t q = (uint32_t)fdiv(i, sm->unit);
    uint64_t k = (uint64_t)sm->pf_j[b] * sm->upb + q;
    uint64_t lpn = (k * drive_geom(d)->dies + nand_die_of_block(d, b)) * sm->unit + (i - q * sm->unit);
    return lpn < sm->pf_end ? lpn : NO_LPN;
}

/* Whether chunk c (not dense) may hold an override of lpn: false if it
 * holds none (one bit of 64 for every offset % 64 it holds one at). */
static inline bool over_may_hold(const SparseMap *sm, uint64_t c, uint64_t lpn)
{
    return sm->over_bits[c] >> (lpn & 63) & 1;
}

/* What the overrides and runs of chunk c (not dense) store for lpn,
 * complemented: 0 if nothing, the formula holds. */
static inline uint64_t stored_of(const SparseMap *sm, uint64_t c, uint64_t lpn)
{
    uint16_t n = sm->chunk_n[c];
    uint64_t s = over_may_hold(sm, c, lpn) ? hash_get(&sm->over, lpn) : 0;
    if (s == 0 && (n & CHUNK_RUNS))
        s = l2p_runs_get(sm->chunk_runs[c], (uint32_t)(lpn & (CHUNK - 1)));
    return s;
}

/* 4 * overrides + runs of chunk c (not dense): see CHUNK_PROMOTE. */
static uint32_t chunk_cost(const SparseMap *sm, uint64_t c)
{
    uint16_t n = sm->chunk_n[c];
    return 4u * (n & CHUNK_COUNT) + (n & CHUNK_RUNS ? sm->chunk_runs[c]->n : 0);
}

/* lpn's buffer mark (stored complemented, 0 if none); if take, it goes. */
static inline uint64_t mark_get(SparseMap *sm, uint64_t lpn, bool take)
{
    uint64_t i = lpn & sm->mmask;
    if (sm->mcell[i].key == lpn + 1) {
        if (take)
            sm->mcell[i].key = 0;
        return sm->mcell[i].val;
    }
    if (sm->bmark.count == 0)
        return 0;
    uint64_t j = hash_cell(&sm->bmark, lpn);
    if (cell_key(&sm->bmark, j) == 0)
        return 0;
    uint64_t v = cell_val(&sm->bmark, j);
    if (take)
        hash_remove(&sm->bmark, j);
    return v;
}

/* A new mark s for lpn, which has none: its cell, or the hash while
 * another lpn holds the cell. True (it is new). */
static inline bool mark_add(SparseMap *sm, uint64_t lpn, uint64_t s)
{
    uint64_t i = lpn & sm->mmask;
    if (sm->mcell[i].key == 0) {
        sm->mcell[i].key = lpn + 1;
        sm->mcell[i].val = s;
        return true;
    }
    return hash_put(&sm->bmark, lpn, s);
}

/* Set lpn's buffer mark (complemented); true if it had none. An lpn has
 * one place: its cell, or the hash while another holds the cell. */
static inline bool mark_put(SparseMap *sm, uint64_t lpn, uint64_t s)
{
    uint64_t i = lpn & sm->mmask;
    if (sm->mcell[i].key == lpn + 1) {
        sm->mcell[i].val = s;
        return false;
    }
    if (sm->bmark.count > 0) {
        uint64_t j = hash_cell(&sm->bmark, lpn);
        if (cell_key(&sm->bmark, j) != 0) {
            cell_set_val(&sm->bmark, j, s);
            return false;
        }
    }
    return mark_add(sm, lpn, s);
}

#define PROMOTE_AHEAD 16 /* lpns from a home cell's prefetch to its probe */

/* Chunk c goes dense in part (zeroed): it takes what the chunk's runs,
 * overrides and buffer marks give each lpn, in that order of precedence. */
static void chunk_promote_to(SparseMap *sm, uint64_t c, void *part)
{
    uint64_t base = c << CHUNK_BITS;
    if (sm->chunk_n[c] & CHUNK_RUNS) {
        Runs *l = sm->chunk_runs[c];
        for (uint32_t i = 0; i < l->n; i++)
            for (uint32_t o = l2p_off(l->r[i]); o <= l2p_last(l->r[i]); o++)
                l2p_ent_set(part, o, sm->narrow, ~(l2p_slot(l->r[i]) + (o - l2p_off(l->r[i]))));
        free(l);
        sm->chunk_runs[c] = NULL;
    }
    uint32_t left = sm->chunk_n[c] & CHUNK_COUNT;
    for (uint64_t lpn = base; left > 0 && lpn < base + CHUNK; lpn++) {
        /* the home cells lie anywhere in the table: each asked for
         * PROMOTE_AHEAD lpns before its probe, so the misses overlap */
        if (over_may_hold(sm, c, lpn + PROMOTE_AHEAD))
            warm_line(cell_at(&sm->over, hash_home(&sm->over, lpn + PROMOTE_AHEAD)));
        if (!over_may_hold(sm, c, lpn))
            continue; /* no override there: no probe */
        uint64_t i = hash_cell(&sm->over, lpn);
        if (cell_key(&sm->over, i) == 0)
            continue;
        l2p_ent_set(part, (uint32_t)(lpn - base), sm->narrow, cell_val(&sm->over, i));
        hash_remove(&sm->over, i);
        left--;
    }
    for (uint64_t lpn = base; sm->bmark_n[c] > 0 && lpn < base + CHUNK; lpn++) {
        uint64_t m = mark_get(sm, lpn, true);
        if (m == 0)
            continue;
        l2p_ent_set(part, (uint32_t)(lpn - base), sm->narrow, m);
        sm->bmark_n[c]--;
    }
    sm->over_bits[c] = 0;
    sm->chunk_n[c] = CHUNK_DENSE;
    sm->dense[c] = part;
}

/* Chunk c goes dense, in a part from the pool. */
static void chunk_promote(SparseMap *sm, uint64_t c) { chunk_promote_to(sm, c, part_take(&sm->dense_pool)); }

/* How many of the narrow entries from e[o] on (at most top) hold one run
 * of slots: e[o] - k at o + k (slots complemented). The length of the run
 * before (guess: a fill's runs are all a unit long) is tried first, the
 * whole of it without a branch on each load; else four a load up to the
 * first that differs. */
static inline uint32_t narrow_run(const uint32_t *e, uint32_t o, uint32_t top, uint32_t guess)
{
    uint32_t f = e[o], m = 1;
    if (guess >= MAP_RUN_MIN && guess <= top) {
        Vec32x4 want = f - (Vec32x4){1, 2, 3, 4}, diff = {0, 0, 0, 0};
#pragma GCC unroll 4 /* a unit long (24 slots on a TLC drive): a branch back every four loads */
        for (; m + 4 <= guess; m += 4, want -= 4)
            diff |= vec32_load(e + o + m) ^ want;
        diff |= vec32_load(e + o + guess - 4) ^ (f - guess + (Vec32x4){4, 3, 2, 1}); /* its last four */
        if (vec_zero((Vec64x2)diff) && (guess == top || e[o + guess] != f - guess))
            return guess;
        m = 1;
    }
    Vec32x4 want = f - (Vec32x4){1, 2, 3, 4};
    while (m + 4 <= top && vec_zero((Vec64x2)(vec32_load(e + o + m) ^ want))) {
        m += 4;
        want -= 4;
    }
    while (m < top && e[o + m] == f - m)
        m++;
    return m;
}

/* Dense chunk c back to runs, overrides and buffer marks, its part given
 * back, unless they would cost more than CHUNK_PROMOTE: it then stays
 * dense. Entries 0 are the formula's, and stay so. One pass over the part,
 * a comparison an entry within a run. */
static void chunk_cool(SparseMap *sm, uint64_t c)
{
    const void *part = sm->dense[c];
    uint64_t base = c << CHUNK_BITS;
    uint32_t nsingle = 0, nmark = 0, nrun = 0, guess = 0;
    uint32_t single[CHUNK_PROMOTE / 4], mark[CHUNK];
    uint64_t run[CHUNK / MAP_RUN_MIN]; /* listed once their number is known */
    for (uint32_t o = 0; o < CHUNK;) {
        uint64_t s = l2p_ent(part, o, sm->narrow), v = ~s;
        if (s == 0) {
            o++;
            continue;
        }
        if (v >= BUF_MARK && v != MAP_UNMAPPED) {
            mark[nmark++] = o++;
            continue;
        }
        uint32_t m = 1;
        if (v < BUF_MARK && sm->narrow) { /* 32-bit entries of slots below MAP_UNMAPPED's */
            m = narrow_run(part, o, (uint32_t)MIN((uint64_t)CHUNK - o, BUF_MARK32 - 1 - v), guess);
            guess = m;
        } else if (v < BUF_MARK) {
            while (o + m < CHUNK && l2p_ent(part, o + m, sm->narrow) == s - m)
                m++;
        }
        if (m >= MAP_RUN_MIN && sm->runs_ok) {
            run[nrun++] = l2p_run(v, o, o + m - 1);
        } else {
            for (uint32_t k = 0; k < m && nsingle < G_N_ELEMENTS(single); k++)
                single[nsingle++] = o + k;
            if (nsingle == G_N_ELEMENTS(single)) /* too many: it stays dense */
                return;
        }
        o += m;
    }
    if (4 * nsingle + nrun >= CHUNK_PROMOTE)
        return;
    sm->chunk_n[c] = 0;
    for (uint32_t k = 0; k < nsingle; k++) {
        sm->chunk_n[c] += hash_put(&sm->over, base + single[k], l2p_ent(part, single[k], sm->narrow));
        sm->over_bits[c] |= 1ull << (single[k] & 63);
    }
    for (uint32_t k = 0; k < nmark; k++)
        sm->bmark_n[c] += mark_put(sm, base + mark[k], l2p_ent(part, mark[k], sm->narrow));
    if (nrun) {
        Runs *l = runs_reserve(NULL, nrun); /* as large as it would have grown run by run */
        memcpy(l->r, run, nrun * sizeof *run);
        l->n = nrun;
        sm->chunk_runs[c] = l;
        sm->chunk_n[c] |= CHUNK_RUNS;
    }
    sm->dense[c] = NULL;
    bigmem_pool_give(&sm->dense_pool, (void *)part);
}

/* A stream written in order enters chunk c: dense while the stream writes
 * it, where an entry is one load or store (runs and marks cost a search
 * and a hash each), and as runs again later (chunk_cool()). */
static void chunk_heat(SparseMap *sm, uint64_t c)
{
    if (sm->nhot == HOT_MAX) {
        uint64_t old = sm->hot[sm->hot_first];
        sm->hot_first = (sm->hot_first + 1) % HOT_MAX;
        sm->nhot--;
        if (sm->chunk_n[old] == CHUNK_DENSE)
            chunk_cool(sm, old);
    }
    chunk_promote(sm, c);
    sm->hot[(sm->hot_first + sm->nhot++) % HOT_MAX] = c;
}

/* The rarer parts of sparse_get(), out of line so that its own path (an
 * override or nothing: a drive written at random) keeps to a few
 * registers: lpn's buffer mark (counted out of chunk c if take), and what
 * chunk c's runs give lpn. */
static G_GNUC_NO_INLINE uint64_t mark_get_counted(SparseMap *sm, uint64_t c, uint64_t lpn, bool take)
{
    uint64_t s = mark_get(sm, lpn, take);
    sm->bmark_n[c] -= take && s != 0;
    return s;
}

static G_GNUC_NO_INLINE uint64_t chunk_runs_get(const SparseMap *sm, uint64_t c, uint64_t lpn)
{
    return l2p_runs_get(sm->chunk_runs[c], (uint32_t)(lpn & (CHUNK - 1)));
}

/* lpn's L2P entry in a chunk c that is not dense; if take, its buffer
 * mark (if it has one) goes. (stored_of() where the marks are asked first.) */
static inline uint64_t sparse_get(const Drive *d, SparseMap *sm, uint64_t c, uint64_t lpn, bool take)
{
    uint64_t s = 0;
    if (sm->bmark_n[c] > 0)
        s = mark_get_counted(sm, c, lpn, take);
    if (s == 0) {
        uint16_t n = sm->chunk_n[c];
        if (over_may_hold(sm, c, lpn))
            s = hash_get(&sm->over, lpn);
        if (s == 0 && (n & CHUNK_RUNS))
            s = chunk_runs_get(sm, c, lpn);
    }
    if (s == 0)
        return formula_slot(d, sm, lpn);
    return ~s == MAP_UNMAPPED ? NO_SLOT : ~s;
}

/* map_get_sparse() past its first test: lpn's entry in chunk c. */
static G_GNUC_NO_INLINE uint64_t get_stored(const Drive *d, SparseMap *sm, uint64_t c,
                                            uint64_t lpn)
{
    if (sm->chunk_n[c] != CHUNK_DENSE)
        return sparse_get(d, sm, c, lpn, false);
    return formula_slot(d, sm, lpn); /* map_get() read the dense part: nothing there */
}

/* A dense chunk's entry is read here, with as little as possible around
 * it: random writes wait on it, and the less the code between two of
 * them, the more of them the processor has in flight at once. Most often
 * (a drive written at random) the lpn was never written: in a chunk
 * without marks or runs whose filter says it has no override, past the
 * formula's end. That is answered from four loads, with nothing to save
 * and restore around them; the rest is get_stored()'s. */
uint64_t map_get_sparse(const Drive *d, uint64_t lpn)
{
    SparseMap *sm = store_of(d);
    uint64_t c = lpn >> CHUNK_BITS;
    if (!(sm->chunk_n[c] & CHUNK_RUNS) && sm->bmark_n[c] == 0 && !over_may_hold(sm, c, lpn) &&
        lpn >= sm->pf_end)
        return NO_SLOT;
    return get_stored(d, sm, c, lpn);
}


/* lpn's L2P entry, its buffer mark gone: the first step of storing a run
 * over it (chunk_put_run() expects the marks gone). */
static uint64_t sparse_take(const Drive *d, uint64_t lpn)
{
    SparseMap *sm = store_of(d);
    uint64_t c = lpn >> CHUNK_BITS;
    if (sm->chunk_n[c] == CHUNK_DENSE)
        return map_dense_get(d, sm->dense[c], lpn & (CHUNK - 1), lpn);
    return sparse_get(d, sm, c, lpn, true);
}

/* Override lpn of chunk c (not dense) with s (complemented) at cell i of
 * the hash, where hash_cell() put it: counted in the chunk if new, which
 * goes dense once that costs more (map_put_sparse()). */
static inline __attribute__((always_inline)) void over_put_at(SparseMap *sm, uint64_t c,
                                                               uint64_t i, uint64_t lpn, uint64_t s)
{
    Hash *h = &sm->over;
    cell_set_val(h, i, s);
    if (cell_key(h, i) != 0)
        return;
    cell_set_key(h, i, lpn + 1);
    if (++h->count > (h->mask + 1) / 4 * 3)
        hash_grow(h);
    sm->chunk_n[c]++;
    sm->over_bits[c] |= 1ull << (lpn & 63);
    if (chunk_cost(sm, c) >= CHUNK_PROMOTE)
        chunk_promote(sm, c);
}

/* Buffer mark s (complemented) for lpn in chunk c, not dense: at the
 * chunk's first page it makes the chunk hot (a write beginning there is
 * most often a stream in order, about to write the whole chunk); else it
 * is kept apart from the overrides, so that marks, which come and go with
 * every write, do not push chunks a stream passes through dense. fresh:
 * lpn is known to have no mark (mark_add()). */
static inline void mark_in(SparseMap *sm, uint64_t c, uint64_t lpn, uint64_t s, bool fresh)
{
    if ((lpn & (CHUNK - 1)) == 0) {
        chunk_heat(sm, c);
        l2p_ent_set(sm->dense[c], 0, sm->narrow, s);
        return;
    }
    sm->bmark_n[c] += fresh ? mark_add(sm, lpn, s) : mark_put(sm, lpn, s);
}

void map_put_sparse(Drive *d, uint64_t lpn, uint64_t v)
{
    SparseMap *sm = store_of(d);
    uint64_t c = lpn >> CHUNK_BITS;
    if (sm->chunk_n[c] == CHUNK_DENSE) {
        /* unmapping what neither an override nor the formula maps (a TRIM
         * of unwritten space) stores nothing */
        uint32_t o = (uint32_t)(lpn & (CHUNK - 1));
        if (v == NO_SLOT && l2p_ent(sm->dense[c], o, sm->narrow) == 0 &&
            formula_slot(d, sm, lpn) == NO_SLOT)
            return;
        l2p_ent_set(sm->dense[c], o, sm->narrow, ~(v == NO_SLOT ? MAP_UNMAPPED : v));
        return;
    }
    if (v >= BUF_MARK && v != NO_SLOT) {
        mark_in(sm, c, lpn, ~v, false);
        return;
    }
    if (sm->bmark_n[c] > 0)
        sm->bmark_n[c] -= mark_get(sm, lpn, true) != 0;
    if (v == NO_SLOT) {
        if (stored_of(sm, c, lpn) == 0 && formula_slot(d, sm, lpn) == NO_SLOT)
            return;
        v = MAP_UNMAPPED;
    }
    over_put_at(sm, c, hash_cell(&sm->over, lpn), lpn, ~v);
}

/* map_get() of lpn, whose chunk has no dense part, then map_put() of slot
 * (not NO_SLOT) over it: the program of a page the write buffer held. Its
 * buffer mark is taken as it is read, and where it had none, the hash cell
 * that held nothing or its override takes the slot: one lookup each, where
 * the two calls looked the mark up twice and the hash once more. */
uint64_t map_set_sparse(Drive *d, uint64_t lpn, uint64_t slot)
{
    SparseMap *sm = store_of(d);
    uint64_t c = lpn >> CHUNK_BITS, s = 0;
    g_assert(sm->chunk_n[c] != CHUNK_DENSE);
    if (sm->bmark_n[c] > 0) {
        s = mark_get(sm, lpn, true);
        sm->bmark_n[c] -= s != 0;
    }
    uint64_t i = hash_cell(&sm->over, lpn), old;
    if (s != 0) { /* a mark: what the hash holds is older, and is overwritten */
        old = ~s;
    } else {
        uint16_t n = sm->chunk_n[c];
        s = n & CHUNK_COUNT ? (cell_key(&sm->over, i) ? cell_val(&sm->over, i) : 0) : 0;
        if (s == 0 && (n & CHUNK_RUNS))
            s = l2p_runs_get(sm->chunk_runs[c], (uint32_t)(lpn & (CHUNK - 1)));
        old = s == 0 ? formula_slot(d, sm, lpn) : ~s == MAP_UNMAPPED ? NO_SLOT : ~s;
    }
    over_put_at(sm, c, i, lpn, ~slot); /* (inlined: here once, every random page comes here) */
    return old;
}

/* map_get() of lpn, whose chunk has no dense part, then, unless that is
 * a buffer mark already, map_put() of mark (BUF_MARK + a ring position)
 * over it: a page entering the write buffer. Read and set in one call;
 * an lpn found without a mark has none to look for again. */
uint64_t map_mark_sparse(Drive *d, uint64_t lpn, uint64_t mark)
{
    SparseMap *sm = store_of(d);
    uint64_t c = lpn >> CHUNK_BITS;
    g_assert(sm->chunk_n[c] != CHUNK_DENSE);
    uint64_t old = sparse_get(d, sm, c, lpn, false);
    if (old >= BUF_MARK && old != NO_SLOT)
        return old;
    mark_in(sm, c, lpn, ~mark, true); /* none found: none to look for again */
    return old;
}

/* Offsets [o, o + m) of chunk c, which have no buffer marks
 * (sparse_take()), map to the slots from slot on: the overrides there go
 * (they are older), the runs there are cut back, split or replaced, and the
 * new run joins a neighbour it continues. */
static void chunk_put_run(SparseMap *sm, uint64_t c, uint32_t o, uint32_t m, uint64_t slot)
{
    uint64_t base = (c << CHUNK_BITS) + o;
    if (sm->chunk_n[c] == CHUNK_DENSE) {
        for (uint32_t k = 0; k < m; k++)
            l2p_ent_set(sm->dense[c], o + k, sm->narrow, ~(slot + k));
        return;
    }
    for (uint32_t k = 0; (sm->chunk_n[c] & CHUNK_COUNT) && k < m; k++)
        if (over_may_hold(sm, c, base + k))
            sm->chunk_n[c] -= hash_drop(&sm->over, base + k);
    if ((sm->chunk_n[c] & CHUNK_COUNT) == 0)
        sm->over_bits[c] = 0; /* none left: lookups skip the hash again */
    Runs *l = runs_reserve(sm->chunk_n[c] & CHUNK_RUNS ? sm->chunk_runs[c] : NULL, 2);
    sm->chunk_runs[c] = l;
    sm->chunk_n[c] |= CHUNK_RUNS;
    uint64_t *r = l->r;
    uint32_t end = o + m, i = l2p_find(l, o);
    if (i < l->n && l2p_off(r[i]) < o && l2p_last(r[i]) >= end) {
        /* inside one run: it splits around the new one */
        uint64_t tail = l2p_run(l2p_slot(r[i]) + (end - l2p_off(r[i])), end, l2p_last(r[i]));
        memmove(&r[i + 2], &r[i + 1], (l->n - i - 1) * sizeof *r);
        r[i + 1] = tail;
        l->n++;
    }
    if (i < l->n && l2p_off(r[i]) < o) { /* keeps its head */
        r[i] = l2p_run(l2p_slot(r[i]), l2p_off(r[i]), o - 1);
        i++;
    }
    uint32_t j = i; /* r[i, j) lie within the new run */
    while (j < l->n && l2p_last(r[j]) < end)
        j++;
    if (j < l->n && l2p_off(r[j]) < end) /* keeps its tail */
        r[j] = l2p_run(l2p_slot(r[j]) + (end - l2p_off(r[j])), end, l2p_last(r[j]));
    uint32_t first = o, last = end - 1;
    if (i > 0 && l2p_last(r[i - 1]) + 1 == o &&
        l2p_slot(r[i - 1]) + (o - l2p_off(r[i - 1])) == slot) {
        i--;
        first = l2p_off(r[i]);
        slot = l2p_slot(r[i]);
    }
    if (j < l->n && l2p_off(r[j]) == end && slot + (end - first) == l2p_slot(r[j]))
        last = l2p_last(r[j++]);
    /* r[i, j) give way to the one run (most often one run gives way to
     * one: folding moves a block's runs as they were written) */
    if (j != i + 1)
        memmove(&r[i + 1], &r[j], (l->n - j) * sizeof *r);
    r[i] = l2p_run(slot, first, last);
    l->n = l->n + 1 - (j - i);
    if (chunk_cost(sm, c) >= CHUNK_PROMOTE)
        chunk_promote(sm, c);
}

/* ---- The P2L ------------------------------------------------------------- */

/* The lpn of slot (slot i of block b) with no P2L entry: the formula's or
 * a run's, if its lpn still maps to it. */
static uint64_t lpn_of_unstored(const Drive *d, const SparseMap *sm, uint32_t b, uint32_t i,
                                uint64_t slot)
{
    uint64_t lpn;
    if (sm->pf_j[b] != NO_IDX)
        lpn = formula_lpn(d, sm, b, i);
    else if (sm->blk_runs[b])
        lpn = p2l_runs_get(sm->blk_runs[b], i);
    else
        return NO_LPN;
    /* the slot is valid while its lpn still maps to it */
    return lpn != NO_LPN && map_get(d, lpn) == slot ? lpn : NO_LPN;
}

uint64_t map_lpn_of_sparse(const Drive *d, uint64_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    return lpn_of_unstored(d, store_of(d), b, (uint32_t)(slot - nand_slot(d, b, 0)), slot);
}

/* From slot i of block b (before end): see map_store.h. Where the slot's
 * lpn comes from one of the block's runs (no P2L part, no formula) and
 * that lpn's chunk is dense or holds runs alone, a stretch is found at
 * once: within one run each way, consecutive slots for consecutive lpns
 * are all valid or none is; anything else is looked up slot by slot. */
uint32_t map_store_block_stretch(const Drive *d, uint32_t b, uint32_t i, uint32_t end,
                                 uint64_t *lpn)
{
    const SparseMap *sm = store_of(d);
    uint64_t slot = nand_slot(d, b, i);
    Runs *pl = sm->blk_runs[b];
    uint32_t h;
    if (pl == NULL || sm->pf_j[b] != NO_IDX || sm->p2l[slot >> CHUNK_BITS] != NULL ||
        (h = p2l_runs_find(pl, i)) == pl->n) {
        *lpn = map_lpn_of(d, slot);
        return 1;
    }
    uint64_t first = p2l_lpn(pl->r[h]) + (i - p2l_off(pl->r[h]));
    uint64_t c = first >> CHUNK_BITS;
    uint32_t o = (uint32_t)(first & (CHUNK - 1));
    /* within the block's run, its chunk of slots (no part) and the lpns' chunk */
    uint32_t k = MIN(end, p2l_off(pl->r[h]) + p2l_len(pl->r[h])) - i;
    k = MIN(k, MIN(CHUNK - (uint32_t)(slot & (CHUNK - 1)), CHUNK - o));
    uint32_t m = 0;
    if (sm->chunk_n[c] == CHUNK_DENSE) {
        const void *part = sm->dense[c];
        while (m < k && l2p_ent(part, o + m, sm->narrow) == ~(slot + m))
            m++;
        if (m > 0) {
            *lpn = first;
            return m;
        }
        for (uint64_t s; m < k && (s = l2p_ent(part, o + m, sm->narrow)) != 0 && s != ~(slot + m);)
            m++; /* stored elsewhere (an entry 0 is the formula's: asked below) */
        if (m > 0) {
            *lpn = NO_LPN;
            return m;
        }
    } else if (sm->chunk_n[c] == CHUNK_RUNS && sm->bmark_n[c] == 0) {
        const Runs *l = sm->chunk_runs[c];
        uint32_t j = l2p_find(l, o);
        if (j < l->n && l2p_off(l->r[j]) <= o) {
            *lpn = l2p_slot(l->r[j]) + (o - l2p_off(l->r[j])) == slot ? first : NO_LPN;
            return MIN(k, l2p_last(l->r[j]) - o + 1);
        }
    }
    *lpn = map_get(d, first) == slot ? first : NO_LPN;
    return 1;
}

/* The first P2L entry of a chunk of slots: its part from the pool. */
void map_put_lpn_new(Drive *d, uint64_t slot, uint64_t lpn)
{
    SparseMap *sm = store_of(d);
    void *p = part_take(&sm->p2l_pool);
    sm->p2l[slot >> CHUNK_BITS] = p;
    p2l_ent_set(p, (uint32_t)(slot & (CHUNK - 1)), sm->narrow, ~lpn);
}

/* The n slots from slot on (one block, written in order) hold the lpns
 * from lpn on: appended to the block's runs, continuing the last if it can. */
static void block_put_run(Drive *d, SparseMap *sm, uint32_t b, uint64_t slot, uint32_t n,
                          uint64_t lpn)
{
    uint32_t off = (uint32_t)(slot - nand_slot(d, b, 0));
    Runs *l = sm->blk_runs[b];
    g_assert(sm->pf_j[b] == NO_IDX);
    while (n > 0) {
        uint64_t *last = l && l->n ? &l->r[l->n - 1] : NULL;
        if (last && p2l_off(*last) + p2l_len(*last) == off &&
            p2l_lpn(*last) + p2l_len(*last) == lpn && p2l_len(*last) < RUN_P2L_MAX) {
            uint32_t m = MIN(n, RUN_P2L_MAX - p2l_len(*last));
            *last += m; /* the length is the low bits */
            off += m, lpn += m, n -= m;
            continue;
        }
        uint32_t m = MIN(n, RUN_P2L_MAX);
        l = runs_reserve(l, 1);
        l->r[l->n++] = p2l_run(lpn, off, m);
        off += m, lpn += m, n -= m;
    }
    sm->blk_runs[b] = l;
}

/* What a lookup or a set of lpn reads in a chunk without a dense part:
 * its directory entry, counts and filter, the home cell of its override
 * (which a set writes whatever the filter says) and its buffer mark's.
 * Asked for without a load, so that nothing waits here and the misses of
 * several lpns overlap (the filter would be a miss to wait on first). */
void map_prefetch_sparse(const Drive *d, uint64_t lpn)
{
    const SparseMap *sm = store_of(d);
    uint64_t c = lpn >> CHUNK_BITS;
    warm_line(&drive_l2p_dir(d)[c]);
    warm_line(&sm->chunk_n[c]);
    warm_line(&sm->bmark_n[c]);
    warm_line(&sm->over_bits[c]);
    warm_line(cell_at(&sm->over, hash_home(&sm->over, lpn)));
    warm_line(&sm->mcell[lpn & sm->mmask]);
}

bool map_prefill_run(Drive *d, uint64_t lpn, uint32_t die, uint64_t s0, uint32_t n, bool native)
{
    SparseMap *sm = store_of(d);
    if (!sm || !sm->pf_ok)
        return false;
    const Geom *g = drive_geom(d);
    uint64_t u = lpn / sm->unit, k = u / g->dies;
    uint32_t b = nand_block_of(d, s0), j = (uint32_t)(k / sm->upb);
    uint32_t idx = (uint32_t)(k % sm->upb) * sm->unit;
    uint32_t *e = &sm->pf_blk[(uint64_t)die * g->blocks_per_die + MIN(j, g->blocks_per_die - 1)];
    /* the formula holds from lpn 0 on, one native unit after another */
    bool fits = native && lpn == sm->pf_end && lpn % sm->unit == 0 && n <= sm->unit &&
                u % g->dies == die && j < g->blocks_per_die && s0 == nand_slot(d, b, idx) &&
                (idx == 0 ? *e == NO_BLOCK && sm->pf_j[b] == NO_IDX : *e == b);
    if (!fits) {
        sm->pf_ok = false;
        return false;
    }
    *e = b;
    sm->pf_j[b] = j;
    sm->pf_end = lpn + n;
    drive_set_map_pf_end(d, sm->pf_end);
    return true;
}


void map_block_erased(Drive *d, uint32_t b)
{
    SparseMap *sm = store_of(d);
    sm->pf_j[b] = NO_IDX;
    free(sm->blk_runs[b]);
    sm->blk_runs[b] = NULL;
    /* its dead slots become slots a run or the P2L may give again */
    uint64_t s = nand_slot(d, b, 0), end = nand_slot(d, b, drive_geom(d)->slots_per_block);
    while (s < end) {
        uint64_t next = MIN(end, (s | (CHUNK - 1)) + 1);
        void *p = sm->p2l[s >> CHUNK_BITS];
        if (p)
            memset((char *)p + (s & (CHUNK - 1)) * ent_bytes(sm), 0, (next - s) * ent_bytes(sm));
        s = next;
    }
}

/* The thread backing the tables mapped ahead stopped, and those of them
 * map_expect_random() did not take given back. */
static void soon_drop(SparseMap *sm)
{
    bigmem_warm_stop(sm->warm);
    sm->warm = NULL;
    bigmem_free(sm->l2p_soon, sm->nchunks * CHUNK * ent_bytes(sm));
    bigmem_free(sm->p2l_soon, sm->np2l * CHUNK * ent_bytes(sm));
    sm->l2p_soon = sm->p2l_soon = NULL;
}

static void sparse_free(const Drive *d, SparseMap *sm)
{
    if (!sm)
        return;
    const Geom *g = drive_geom(d);
    soon_drop(sm);
    for (uint64_t c = 0; sm->chunk_runs && c < sm->nchunks; c++)
        free(sm->chunk_runs[c]);
    for (uint32_t b = 0; sm->blk_runs && b < g->nblocks; b++)
        free(sm->blk_runs[b]);
    bigmem_pool_release(&sm->dense_pool);
    bigmem_pool_release(&sm->p2l_pool);
    bigmem_free(sm->l2p_flat, sm->nchunks * CHUNK * ent_bytes(sm));
    bigmem_free(sm->p2l_flat, sm->np2l * CHUNK * ent_bytes(sm));
    bigmem_free(sm->dense, sm->nchunks * sizeof(void *));
    bigmem_free(sm->p2l, sm->np2l * sizeof(void *));
    bigmem_free(sm->chunk_n, sm->nchunks * sizeof(uint16_t));
    bigmem_free(sm->over_bits, sm->nchunks * sizeof(uint64_t));
    bigmem_free(sm->bmark_n, sm->nchunks * sizeof(uint16_t));
    bigmem_free(sm->chunk_runs, sm->nchunks * sizeof(Runs *));
    bigmem_free(sm->blk_runs, g->nblocks * sizeof(Runs *));
    g_free(sm->pf_blk);
    g_free(sm->pf_j);
    bigmem_warm_stop(sm->over.warm);
    bigmem_free(sm->over.cells, (sm->over.mask + 1) * cell_bytes(&sm->over));
    bigmem_free(sm->mcell, (sm->mmask + 1) * sizeof(Cell));
    bigmem_free(sm->bmark.cells, (sm->bmark.mask + 1) * cell_bytes(&sm->bmark));
    g_free(sm);
}

/* The map of an empty drive, or NULL if its directories cannot be mapped.
 * The directories are read at random and written where a chunk is: a
 * pointer or two and a count per MAP_CHUNK lpns or slots, mapped whole. */
static SparseMap *sparse_new(const Drive *d)
{
    const Geom *g = drive_geom(d);
    SparseMap *sm = g_new0(SparseMap, 1);
    sm->nchunks = (g->nlpn + CHUNK - 1) / CHUNK;
    sm->np2l = (g->nslots + CHUNK - 1) / CHUNK;
    sm->narrow = drive_params_narrow_map(drive_params(d));
    sm->dense = bigmem_alloc(sm->nchunks * sizeof(void *), false);
    sm->p2l = bigmem_alloc(sm->np2l * sizeof(void *), false);
    sm->chunk_n = bigmem_alloc(sm->nchunks * sizeof(uint16_t), false);
    sm->over_bits = bigmem_alloc(sm->nchunks * sizeof(uint64_t), false);
    sm->bmark_n = bigmem_alloc(sm->nchunks * sizeof(uint16_t), false);
    sm->mmask = 1023;
    while (sm->mmask + 1 < 2 * (drive_params_write_buffer(drive_params(d)) / SLOT_SIZE))
        sm->mmask = sm->mmask * 2 + 1;
    sm->mcell = bigmem_alloc((sm->mmask + 1) * sizeof(Cell), false);
    sm->chunk_runs = bigmem_alloc(sm->nchunks * sizeof(Runs *), false);
    sm->blk_runs = bigmem_alloc(g->nblocks * sizeof(Runs *), false);
    sm->pf_blk = g_try_new(uint32_t, g->nblocks);
    sm->pf_j = g_try_new(uint32_t, g->nblocks);
    bigmem_pool_init(&sm->dense_pool, CHUNK * ent_bytes(sm));
    bigmem_pool_init(&sm->p2l_pool, CHUNK * ent_bytes(sm));
    sm->unit = g->unit_slots[g->native];
    sm->upb = g->mode_slots[g->native] / sm->unit;
    /* whole native units fill a block, or the formula does not apply */
    sm->pf_ok = g->mode_slots[g->native] % sm->unit == 0;
    /* a run packs a slot or lpn in 40 bits, a slot of its block in 16 */
    sm->runs_ok =
        g->nslots < (1ull << 40) && g->nlpn < (1ull << 40) && g->slots_per_block <= 0x10000;
    sm->over.narrow = sm->bmark.narrow = sm->narrow;
    if (!hash_alloc(&sm->over, HASH_MIN_BITS) || !hash_alloc(&sm->bmark, BMARK_MIN_BITS) ||
        !sm->dense || !sm->p2l || !sm->chunk_n || !sm->over_bits || !sm->bmark_n || !sm->mcell || !sm->chunk_runs || !sm->blk_runs || !sm->pf_blk ||
        !sm->pf_j) {
        sparse_free(d, sm);
        return NULL;
    }
    memset(sm->pf_blk, 0xff, g->nblocks * sizeof(uint32_t));
    memset(sm->pf_j, 0xff, g->nblocks * sizeof(uint32_t));
    return sm;
}

/* One table of n chunks' entries, in order (f, mapped ahead, or mapped
 * now if NULL): every part the directory dir has is copied to its place
 * and given back to pool (which is then empty: its slabs go too), and dir
 * points into the table for every chunk (promote, for L2P chunks not
 * dense: they go dense there). NULL if the table cannot be mapped. */
static void *flat_make(SparseMap *sm, char *f, void **dir, uint64_t n, BigmemPool *pool, bool promote)
{
    size_t part = CHUNK * ent_bytes(sm);
    if (!f)
        f = bigmem_alloc(n * part, true);
    if (!f)
        return NULL;
    for (uint64_t c = 0; c < n; c++) {
        char *slice = f + c * part;
        if (dir[c]) {
            memcpy(slice, dir[c], part);
            bigmem_pool_give(pool, dir[c]);
            dir[c] = slice;
        } else if (promote) {
            chunk_promote_to(sm, c, slice);
        } else {
            dir[c] = slice;
        }
    }
    g_assert(pool->taken == 0);
    bigmem_pool_release(pool);
    return f;
}

/* The P2L goes flat with the L2P where the slots written at random (the
 * n lpns and as many again, the overwrites a random prefill ages a drive
 * with) would give most chunks of slots a part anyway. */
static bool p2l_goes_flat(double n, double slots) { return 2 * n >= slots; }

/* n lpns spread at random put n / nchunks in a chunk: more than
 * CHUNK_PROMOTE / 4 overrides would push it dense anyway. */
static bool l2p_goes_flat(const SparseMap *sm, uint64_t n)
{
    return (double)n * 4 >= (double)CHUNK_PROMOTE * (double)sm->nchunks;
}

void map_expect_random_soon(Drive *d, uint64_t n)
{
    SparseMap *sm = store_of(d);
    if (!l2p_goes_flat(sm, n) || sm->l2p_flat || sm->l2p_soon)
        return;
    size_t ent = ent_bytes(sm);
    sm->l2p_soon = bigmem_alloc(sm->nchunks * CHUNK * ent, true);
    if (!sm->p2l_flat && p2l_goes_flat((double)n, (double)drive_geom(d)->nslots))
        sm->p2l_soon = bigmem_alloc(sm->np2l * CHUNK * ent, true);
    /* what the prefill writes: the entries of lpns [0, n), every slot's */
    void *p[2] = {sm->l2p_soon, sm->p2l_soon};
    size_t bytes[2] = {sm->l2p_soon ? n * ent : 0, sm->p2l_soon ? sm->np2l * CHUNK * ent : 0};
    sm->warm = bigmem_warm_start(p, bytes, 2);
}

void map_expect_done(Drive *d) { soon_drop(store_of(d)); }

/* Every chunk then goes dense in one flat table, and stays so (a chunk
 * made dense for a stream goes back to runs only from the pool:
 * chunk_cool()); the P2L too where it would be mostly written
 * (p2l_goes_flat()). */
bool map_expect_random(Drive *d, uint64_t n)
{
    SparseMap *sm = store_of(d);
    if (!l2p_goes_flat(sm, n))
        return false;
    if (!sm->l2p_flat) {
        sm->nhot = 0; /* the hot chunks' parts move to the table */
        sm->l2p_flat = flat_make(sm, sm->l2p_soon, sm->dense, sm->nchunks, &sm->dense_pool, true);
        sm->l2p_soon = NULL;
    }
    if (!sm->p2l_flat && p2l_goes_flat((double)n, (double)drive_geom(d)->nslots)) {
        sm->p2l_flat = flat_make(sm, sm->p2l_soon, sm->p2l, sm->np2l, &sm->p2l_pool, false);
        sm->p2l_soon = NULL;
    }
    drive_set_map_flat(d, sm->l2p_flat, sm->p2l_flat);
    for (uint64_t c = 0; c < sm->nchunks; c++) /* no table (no memory to map it): parts */
        if (sm->chunk_n[c] != CHUNK_DENSE)
            chunk_promote(sm, c);
    return true;
}

/* ---- Many entries at once, for the checkers -------------------------------- */

/* As map_get() and map_lpn_of() give them: the L2P of chunk c's lpns
 * (MAP_CHUNK of them, fewer in the last chunk), and the P2L of block b's
 * slots (slots_per_block). */
void map_store_get_chunk(const Drive *d, uint64_t c, uint64_t *out)
{
    const SparseMap *sm = store_of(d);
    uint64_t base = c << CHUNK_BITS;
    uint32_t n = (uint32_t)MIN((uint64_t)CHUNK, drive_geom(d)->nlpn - base);
    const void *p = sm->dense[c];
    for (uint32_t o = 0; o < n; o++) {
        uint64_t s = p ? l2p_ent(p, o, sm->narrow) : 0;
        if (p && s != 0)
            out[o] = ~s == MAP_UNMAPPED ? NO_SLOT : ~s;
        else if (p)
            out[o] = formula_slot(d, sm, base + o);
        else
            out[o] = sparse_get(d, (SparseMap *)sm, c, base + o, false);
    }
}

void map_store_block_lpns(const Drive *d, uint32_t b, uint64_t *out)
{
    const SparseMap *sm = store_of(d);
    const Geom *g = drive_geom(d);
    uint64_t base = nand_slot(d, b, 0);
    const void *p = NULL;
    for (uint32_t i = 0; i < g->slots_per_block; i++) {
        uint64_t slot = base + i;
        if (i == 0 || (slot & (CHUNK - 1)) == 0)
            p = sm->p2l[slot >> CHUNK_BITS];
        uint64_t s = p ? p2l_ent(p, (uint32_t)(slot & (CHUNK - 1)), sm->narrow) : 0;
        if (s != 0)
            out[i] = s == P2L_DEAD ? NO_LPN : ~s;
        else
            out[i] = lpn_of_unstored(d, sm, b, i, slot);
    }
}

/* ---- The map's own structure --------------------------------------------- */



/* Every entry of h in the cell its probe from home reaches, counted. */
static bool hash_check(const Hash *h, const char *what, char *why, size_t why_len)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i <= h->mask; i++) {
        if (cell_key(h, i) == 0)
            continue;
        n++;
        CHECK(hash_cell(h, cell_key(h, i) - 1) == i,
              "%s: lpn %" G_GUINT64_FORMAT " is not where a lookup finds it", what, cell_key(h, i) - 1);
    }
    CHECK(n == h->count, "%s: %" G_GUINT64_FORMAT " entries, count says %" G_GUINT64_FORMAT, what,
          n, h->count);
    return true;
}

/* The runs of chunk c: at least one, sorted, apart, on the drive's slots. */
static bool chunk_check(const Drive *d, const SparseMap *sm, uint64_t c, char *why, size_t why_len)
{
    const Runs *l = sm->chunk_runs[c];
    CHECK(l && l->n >= 1 && l->n <= l->cap,
          "chunk %" G_GUINT64_FORMAT " is flagged with runs but has none", c);
    for (uint32_t i = 0; i < l->n; i++) {
        uint64_t r = l->r[i];
        CHECK(l2p_off(r) <= l2p_last(r) && (i == 0 || l2p_off(r) > l2p_last(l->r[i - 1])),
              "chunk %" G_GUINT64_FORMAT ": run %u overlaps or is out of order", c, i);
        CHECK((c << CHUNK_BITS) + l2p_last(r) < drive_geom(d)->nlpn &&
                  l2p_slot(r) + l2p_last(r) - l2p_off(r) < drive_geom(d)->nslots,
              "chunk %" G_GUINT64_FORMAT ": run %u maps beyond the drive", c, i);
    }
    CHECK(chunk_cost(sm, c) < CHUNK_PROMOTE, "chunk %" G_GUINT64_FORMAT " should have gone dense",
          c);
    return true;
}

/* The runs of block b: sorted, apart, below its write pointer, on slots
 * the P2L table holds nothing for; none in a free or prefilled block. */
static bool block_check(const Drive *d, const SparseMap *sm, uint32_t b, char *why, size_t why_len)
{
    const Runs *l = sm->blk_runs[b];
    CHECK(l->n >= 1 && l->n <= l->cap && blk_state(d, b) != BLK_FREE && sm->pf_j[b] == NO_IDX,
          "block %u has runs but is free, prefilled or holds none", b);
    for (uint32_t i = 0, end = 0; i < l->n; i++) {
        uint64_t r = l->r[i];
        CHECK(p2l_len(r) >= 1 && p2l_off(r) >= end && p2l_off(r) + p2l_len(r) <= blk_wp(d, b) &&
                  p2l_lpn(r) + p2l_len(r) <= drive_geom(d)->nlpn,
              "block %u: run %u overlaps, is out of order or lies beyond what was written", b, i);
        end = p2l_off(r) + p2l_len(r);
        for (uint64_t s = nand_slot(d, b, p2l_off(r)); s < nand_slot(d, b, end); s++)
            CHECK(p2l_stored(sm, s) <= P2L_DEAD,
                  "slot %" G_GUINT64_FORMAT " is both in a run and in the P2L table", s);
    }
    return true;
}

bool map_store_check(const Drive *d, char *why, size_t why_len)
{
    const SparseMap *sm = store_of(d);
    const Geom *g = drive_geom(d);
    uint64_t chunks = sm->nchunks;
    CHECK(drive_l2p_dir(d) == sm->dense && drive_p2l_dir(d) == sm->p2l,
          "the drive holds other directories than the map's");
    uint64_t dense = 0, parts = 0;
    for (uint64_t c = 0; c < sm->np2l; c++)
        parts += sm->p2l[c] != NULL;
    /* a prefilled block's slots are the formula's: none has an entry */
    for (uint32_t b = 0; b < g->nblocks; b++) {
        if (sm->pf_j[b] == NO_IDX)
            continue;
        for (uint64_t s = nand_slot(d, b, 0); s < nand_slot(d, b, g->slots_per_block); s++) {
            if (!sm->p2l[s >> CHUNK_BITS]) {
                s |= CHUNK - 1; /* no part: on to the next */
                continue;
            }
            CHECK(p2l_stored(sm, s) <= P2L_DEAD,
                  "slot %" G_GUINT64_FORMAT " has a P2L entry in a prefilled block", s);
        }
    }
    CHECK(parts == sm->p2l_pool.taken + (sm->p2l_flat ? sm->np2l : 0),
          "%" G_GUINT64_FORMAT " P2L parts in use, the pool gave %" G_GUINT64_FORMAT, parts,
          sm->p2l_pool.taken);
    CHECK(drive_l2p_flat(d) == sm->l2p_flat && drive_p2l_flat(d) == sm->p2l_flat,
          "the drive holds other flat tables than the map's");
    CHECK(drive_map_pf_end(d) == sm->pf_end,
          "the drive says the prefill formula ends at lpn %" G_GUINT64_FORMAT ", the map at %" G_GUINT64_FORMAT,
          drive_map_pf_end(d), sm->pf_end);
    for (uint64_t c = 0; sm->p2l_flat && c < sm->np2l; c++)
        CHECK(sm->p2l[c] == (char *)sm->p2l_flat + c * CHUNK * ent_bytes(sm),
              "P2L chunk %" G_GUINT64_FORMAT " is not at its place in the flat table", c);
    for (uint64_t c = 0; sm->l2p_flat && c < chunks; c++)
        CHECK(sm->dense[c] == (char *)sm->l2p_flat + c * CHUNK * ent_bytes(sm),
              "chunk %" G_GUINT64_FORMAT " is not at its place in the flat table", c);
    if (!hash_check(&sm->over, "overrides", why, why_len) ||
        !hash_check(&sm->bmark, "buffer marks", why, why_len))
        return false;
    g_autofree uint16_t *over = g_new0(uint16_t, chunks);
    g_autofree uint16_t *marks = g_new0(uint16_t, chunks);
    for (uint64_t i = 0; i <= sm->over.mask; i++) {
        uint64_t lpn = cell_key(&sm->over, i) - 1;
        if (cell_key(&sm->over, i) == 0)
            continue;
        CHECK(lpn < g->nlpn && sm->chunk_n[lpn >> CHUNK_BITS] != CHUNK_DENSE &&
                  ~cell_val(&sm->over, i) < BUF_MARK,
              "override of lpn %" G_GUINT64_FORMAT
              ": beyond the drive, in a dense chunk or a buffer mark",
              lpn);
        CHECK(over_may_hold(sm, lpn >> CHUNK_BITS, lpn),
              "override of lpn %" G_GUINT64_FORMAT " missing from its chunk's filter: lookups miss it",
              lpn);
        over[lpn >> CHUNK_BITS]++;
    }
    for (uint64_t i = 0; i <= sm->bmark.mask; i++) {
        uint64_t lpn = cell_key(&sm->bmark, i) - 1, v = ~cell_val(&sm->bmark, i);
        if (cell_key(&sm->bmark, i) == 0)
            continue;
        CHECK(lpn < g->nlpn && sm->chunk_n[lpn >> CHUNK_BITS] != CHUNK_DENSE && v >= BUF_MARK &&
                  v != NO_SLOT,
              "buffer mark of lpn %" G_GUINT64_FORMAT
              ": beyond the drive, in a dense chunk or no mark",
              lpn);
        marks[lpn >> CHUNK_BITS]++;
        CHECK(sm->mcell[lpn & sm->mmask].key != lpn + 1,
              "buffer mark of lpn %" G_GUINT64_FORMAT " both in its cell and in the hash", lpn);
    }
    for (uint64_t i = 0; i <= sm->mmask; i++) {
        uint64_t lpn = sm->mcell[i].key - 1, v = ~sm->mcell[i].val;
        if (sm->mcell[i].key == 0)
            continue;
        CHECK(lpn < g->nlpn && (lpn & sm->mmask) == i && sm->chunk_n[lpn >> CHUNK_BITS] != CHUNK_DENSE &&
                  v >= BUF_MARK && v != NO_SLOT,
              "buffer mark of lpn %" G_GUINT64_FORMAT
              ": beyond the drive, in another's cell, in a dense chunk or no mark",
              lpn);
        marks[lpn >> CHUNK_BITS]++;
    }
    for (uint64_t c = 0; c < chunks; c++) {
        uint16_t n = sm->chunk_n[c];
        CHECK((n == CHUNK_DENSE) == (sm->dense[c] != NULL),
              "chunk %" G_GUINT64_FORMAT ": dense part not as its count says", c);
        CHECK(sm->bmark_n[c] == marks[c], "chunk %" G_GUINT64_FORMAT " counts %u buffer marks, has %u",
              c, sm->bmark_n[c], marks[c]);
        if (n == CHUNK_DENSE) {
            CHECK(sm->chunk_runs[c] == NULL, "dense chunk %" G_GUINT64_FORMAT " has runs", c);
            dense++;
            continue;
        }
        CHECK((n & CHUNK_COUNT) == over[c],
              "chunk %" G_GUINT64_FORMAT " counts %u overrides, has %u", c, n & CHUNK_COUNT,
              over[c]);
        CHECK(!(n & CHUNK_RUNS) == !sm->chunk_runs[c],
              "chunk %" G_GUINT64_FORMAT ": runs not as flagged", c);
        if ((n & CHUNK_RUNS) && !chunk_check(d, sm, c, why, why_len))
            return false;
    }
    for (uint32_t i = 0; i < sm->nhot; i++)
        CHECK(sm->chunk_n[sm->hot[(sm->hot_first + i) % HOT_MAX]] == CHUNK_DENSE,
              "hot chunk %" G_GUINT64_FORMAT " is not dense", sm->hot[(sm->hot_first + i) % HOT_MAX]);
    CHECK(dense == sm->dense_pool.taken + (sm->l2p_flat ? chunks : 0),
          "%" G_GUINT64_FORMAT " dense chunks, the pool gave %" G_GUINT64_FORMAT, dense,
          sm->dense_pool.taken);
    for (uint32_t b = 0; b < g->nblocks; b++)
        if (sm->blk_runs[b] && !block_check(d, sm, b, why, why_len))
            return false;
    return true;
}

/* Narrow entries where every slot and lpn fits below their 32-bit marks
 * (MAP_UNMAPPED, BUF_MARK32 - 1, too); FTLSIM_MAP_STORE=wide makes any drive's
 * entries wide, to test them on small drives against the narrow ones. */
bool drive_params_narrow_map(const DriveParams *p)
{
    uint64_t slots = drive_params_raw_capacity(p) / SLOT_SIZE, lpns = p->user_capacity / SLOT_SIZE;
    const char *store = g_getenv("FTLSIM_MAP_STORE");
    return slots < BUF_MARK32 - 1 && lpns < UINT32_MAX - 1 &&
           !(store && strcmp(store, "wide") == 0);
}

/* The map of an empty drive, hung on it; false if its directories cannot be
 * mapped. */
bool map_store_init(Drive *d)
{
    const Geom *g = drive_geom(d);
    g_assert(g->nslots == drive_params_raw_capacity(drive_params(d)) / SLOT_SIZE);
    SparseMap *sm = sparse_new(d);
    drive_set_part(d, DP_MAP_STORE, sm);
    if (sm)
        drive_set_map_dirs(d, sm->dense, sm->p2l, sm->narrow);
    drive_set_map_pf_end(d, 0);
    return sm != NULL;
}

void map_store_release(Drive *d)
{
    drive_set_map_dirs(d, NULL, NULL, false);
    drive_set_map_flat(d, NULL, NULL);
    drive_set_map_pf_end(d, 0);
    sparse_free(d, store_of(d));
    drive_set_part(d, DP_MAP_STORE, NULL);
}

uint64_t map_store_take(const Drive *d, uint64_t lpn) { return sparse_take(d, lpn); }

void map_store_put_chunk_run(Drive *d, uint64_t lpn, uint32_t n, uint64_t slot)
{
    uint32_t o = (uint32_t)(lpn & (CHUNK - 1));
    g_assert(o + n <= CHUNK);
    chunk_put_run(store_of(d), lpn >> CHUNK_BITS, o, n, slot);
}

void map_store_put_slot_run(Drive *d, uint32_t b, uint64_t slot, uint32_t n, uint64_t lpn)
{
    block_put_run(d, store_of(d), b, slot, n, lpn);
}

/* Block b's runs are about to take a run (map_set_run()): the end of its
 * list, which the table work before it has long evicted, is asked for now. */
void map_store_warm_block_runs(const Drive *d, uint32_t b)
{
    const Runs *l = store_of(d)->blk_runs[b];
    if (l)
        __builtin_prefetch(&l->r[l->n ? l->n - 1 : 0], 1);
}

bool map_store_runs_ok(const Drive *d) { return store_of(d)->runs_ok; }
bool map_store_block_has_runs(const Drive *d, uint32_t b) { return store_of(d)->blk_runs[b] != NULL; }

/* ---- The memory it takes ------------------------------------------------ */

/* Host writes a run of class c makes at random offsets. */
static double random_writes(const MemoryClass *c)
{
    return (double)c->random_bytes / (c->random_bs ? c->random_bs : SLOT_SIZE);
}

/* The runs for lpns written in order in pieces of run slots: lists per
 * chunk of MAP_CHUNK lpns (L2P) and per block of spb slots (P2L, in copies
 * blocks: 2 for data in the pSLC cache, its SLC blocks and the native ones
 * folding moves it to). */
static double runs_bytes(double lpns, uint32_t run, double spb, int copies)
{
    return lpns / MAP_CHUNK * runs_list_bytes((double)MAP_CHUNK / run) +
           copies * lpns / spb * runs_list_bytes(spb / run);
}

/* A hash of n entries: cells of ent * 2 bytes, doubled past three
 * quarters' load, the old table held while the new one fills. */
static double hash_bytes(double n, double ent)
{
    double cells = (double)(1ull << hash_bits_for(n));
    return cells > 1024 ? 3 * ent * cells : 2 * ent * cells;
}

/* Of a run of class c on a drive of p: the pages written in order that
 * the store keeps one by one (in units too short for a run), which it
 * returns; in *runs the bytes of the runs the rest takes, in *changed the
 * pages written at random. */
static double class_pages(const DriveParams *p, const MemoryClass *c, double *runs,
                          double *changed)
{
    double lpns = (double)(p->user_capacity / SLOT_SIZE);
    double slots = (double)(drive_params_raw_capacity(p) / SLOT_SIZE);
    uint64_t unit = drive_params_map_unit(p) / SLOT_SIZE;
    uint64_t bs = c->random_bs ? c->random_bs : SLOT_SIZE;
    *changed =
        MIN(random_writes(c) * (double)((bs / SLOT_SIZE + unit - 1) / unit * unit), lpns);
    double seq = MIN(c->seq_fill, 1.0) * lpns, single = 0;
    double spb = slots / (double)drive_params_blocks(p);
    uint32_t native = (uint32_t)(drive_params_program_unit(p, p->native_mode) / SLOT_SIZE);
    uint32_t slc = (uint32_t)(drive_params_program_unit(p, CELL_SLC) / SLOT_SIZE);
    bool pslc = pslc_params_cache(p);
    double dyn = p->pslc_rule == PSLC_RULE_CAPPED ? (double)p->pslc_dynamic_cap
                 : p->pslc_rule == PSLC_RULE_FREE_SHARE
                     ? p->pslc_dynamic_share * (double)p->user_capacity
                     : 0;
    double cached = pslc ? MIN(((double)p->pslc_static + dyn) / SLOT_SIZE, seq) : 0;
    double pieces[2] = {cached, seq - cached};
    uint32_t run[2] = {slc, native};
    *runs = 0;
    for (int i = 0; i < 2; i++) {
        if (run[i] >= MAP_RUN_MIN)
            *runs += runs_bytes(pieces[i], run[i], spb, 2 - i);
        else
            single += pieces[i];
    }
    return single;
}

/* The lpns a run of class c maps at random on a drive of p (single pages,
 * a random prefill, random writes), and whether they push the average
 * chunk dense (a random prefill's alone: *flat, every chunk in the flat
 * table from the start; with the rest: *dense). */
static double class_random(const DriveParams *p, const MemoryClass *c, double single,
                           double changed, bool *flat, bool *dense)
{
    double lpns = (double)(p->user_capacity / SLOT_SIZE), chunks = ceil(lpns / MAP_CHUNK);
    double at_random = MIN(single + c->random_fill * lpns + changed, lpns);
    *flat = c->random_fill * lpns * 4 >= 2048.0 * chunks;
    *dense = at_random * 4 >= 2048.0 * chunks;
    return at_random;
}

/* A page-aligned mapping of n bytes; one in 2 MiB pages (at most). */
static double mapped(double n) { return ceil(n / 4096) * 4096; }
static double huge_mapped(double n) { return ceil(n / (2 << 20)) * (2 << 20); }

/* The store's memory for a run of class c:
 *   - its directories, mapped whole: per chunk of MAP_CHUNK lpns a dense
 *     part's pointer, a count, its overrides' filter and a run list's
 *     pointer; per chunk of slots
 *     a P2L part's pointer; per block a run list's pointer and the
 *     formula's two indexes;
 *   - data written in order: runs of a program unit, of SLC for the share
 *     a pSLC cache takes first (folding moves it in pieces that long),
 *     native for the rest; as single pages where a unit is shorter than
 *     MAP_RUN_MIN;
 *   - pages changed at random: overrides in the hash, or, once a chunk
 *     would hold more than CHUNK_PROMOTE / 4 of them, a dense part per
 *     chunk (a random prefill: the flat table, map_expect_random());
 *   - P2L parts (4096 entries) for the slots written outside runs and the
 *     prefill formula (the flat table where p2l_goes_flat()); parts and
 *     dense parts come from 2 MiB slabs;
 *   - the write buffer's marks in a hash of their own. */
uint64_t map_store_bytes(const DriveParams *p, const MemoryClass *c)
{
    double lpns = (double)(p->user_capacity / SLOT_SIZE);
    double slots = (double)(drive_params_raw_capacity(p) / SLOT_SIZE);
    double blocks = (double)drive_params_blocks(p);
    double ent = drive_params_narrow_map(p) ? 4 : 8;
    double chunks = ceil(lpns / MAP_CHUNK), pchunks = ceil(slots / MAP_CHUNK);
    double dirs = mapped(chunks * 8) * 3 + mapped(chunks * 2) + mapped(pchunks * 8) +
                  mapped(blocks * 8) + blocks * 8;

    double runs, changed, single = class_pages(p, c, &runs, &changed);
    /* a random prefill maps every page; written again at random, a page
     * is an override until its chunk holds a quarter of CHUNK_PROMOTE */
    double part = MAP_CHUNK * ent;
    double l2p;
    bool prefill_dense, random_dense;
    double at_random = class_random(p, c, single, changed, &prefill_dense, &random_dense);
    double dense_all = (double)bigmem_pool_bytes((size_t)part, (uint64_t)chunks);
    if (prefill_dense)
        l2p = huge_mapped(chunks * part); /* one flat table from the start: map_expect_random() */
    else if (random_dense)
        l2p = dense_all + hash_bytes(MIN(at_random, 512.0 * chunks), ent);
    else
        l2p = hash_bytes(at_random, ent); /* (map_expect_class() makes it so large at once) */
    /* the chunks a stream in order is writing (16 at most) are dense */
    if (!prefill_dense)
        l2p += (double)bigmem_pool_bytes((size_t)part, 16);
    /* P2L: the slots written outside runs; a random prefill writes its
     * pages and the overwrites it ages the drive with, random writes
     * theirs (each rewrites whole map units) */
    double written = single + 2 * c->random_fill * lpns + changed;
    double p2l = (double)bigmem_pool_bytes(
        (size_t)part, (uint64_t)MIN(ceil(written / MAP_CHUNK) + MIN(drive_params_dies(p), written),
                                    pchunks));
    if (prefill_dense && p2l_goes_flat(c->random_fill * lpns, slots))
        p2l = huge_mapped(pchunks * part); /* a flat table too */
    /* a direct-mapped table of twice the buffer's pages, 16 bytes a cell;
     * the few a cell already held, in a hash */
    double marks = MAX(2.0 * (double)drive_params_write_buffer(p) / SLOT_SIZE, 1024) * 16 +
                   hash_bytes((double)drive_params_write_buffer(p) / SLOT_SIZE / 4, ent);
    return (uint64_t)(dirs + l2p + p2l + runs + marks);
}

/* Where the pages a run maps at random stay overrides (the average chunk
 * sparse), the hash takes the size they will grow it to now, the size
 * map_store_bytes() counts: no doubling on the way, each of which moved
 * every entry, and probes as short as at the start meanwhile. A run that
 * writes little gets a small table, one that pushes chunks dense the
 * doublings as before. */
void map_expect_class(Drive *d, const MemoryClass *c)
{
    SparseMap *sm = store_of(d);
    const DriveParams *p = drive_params(d);
    double runs, changed, single = class_pages(p, c, &runs, &changed);
    bool flat, dense;
    double n = class_random(p, c, single, changed, &flat, &dense);
    uint32_t bits = hash_bits_for(n);
    if (!flat && !dense && !sm->l2p_flat && bits > sm->over.bits) {
        hash_resize(&sm->over, bits);
        /* the kernel zeroes the pages the writes will fill (megabytes,
         * all of them at random) on the other core meanwhile */
        size_t bytes = (sm->over.mask + 1) * cell_bytes(&sm->over);
        if (bytes >= HASH_WARM_MIN)
            sm->over.warm = bigmem_warm_start(&sm->over.cells, &bytes, 1);
    }
}
