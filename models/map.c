/*
 * map.c - the page-level mapping: L2P and P2L and the valid counts.
 *
 * L2P gives each 4 KiB logical page (lpn) a physical slot, NO_SLOT
 * (unmapped) or BUF_MARK + ring position (the latest data sits in the write
 * buffer). P2L holds the lpn of every valid slot, NO_LPN otherwise, and
 * blk_valid counts the valid slots per block; drive_check() verifies all
 * three agree. Every change of the table made by map_set_run() is reported
 * to the function given to map_watch() (the mapping cache's, l2p_cache.c);
 * unmapping (ftl_unmap(), for TRIM) leaves that to its caller.
 *
 * Two stores hold them. Drives whose slots and lpns fit 32 bits use flat
 * tables (map_tab.h): a uint32_t per lpn and per slot, backed by the
 * kernel where written. Larger drives (or any, with FTLSIM_MAP_STORE=sparse)
 * use the sparse map, 64-bit values kept where they differ from a formula:
 *
 *   - the prefill formula: a sequential prefill writes native units to the
 *     dies in turn, so lpn -> slot follows from the blocks each die took in
 *     order (pf_blk), and a block's slots back to their lpns (pf_j);
 *   - overrides: lpns whose value differs from the formula (written, moved
 *     or trimmed since), per chunk of CHUNK lpns in a hash table while few,
 *     in the chunk's part of a dense table once many (a chunk written in
 *     order soon goes dense);
 *   - P2L: a flat 64-bit table backed where written, in small pages; the
 *     slots of prefilled blocks are not stored: a slot is valid for its
 *     formula lpn while L2P still gives that lpn this slot.
 *
 * A 60 TB drive prefilled to 90% in order and given 20 GB of random writes
 * then costs its overrides (16-byte cells of a hash table at most half
 * full) and the P2L of the blocks written, not the 250 GB of two flat
 * 64-bit tables.
 */
#include "models/map.h"
#include "models/blocks.h"

#include "models/bigmem.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_BITS 12
#define CHUNK (1u << CHUNK_BITS)
/* Overrides of one chunk held in the hash before it goes dense: the hash
 * spends about 32 bytes on each, the dense part 8 per lpn of the chunk. */
#define CHUNK_PROMOTE (CHUNK / 8)
#define CHUNK_DENSE UINT16_MAX
/* An override saying "unmapped" where the formula gives a slot: in the
 * range no slot or ring position takes. */
#define UNMAPPED (BUF_MARK - 1)
#define HASH_MIN_BITS 16

typedef struct SparseMap {
    /* L2P overrides, stored complemented (0: none, the formula holds) */
    uint64_t *dense;   /* nlpn; a chunk's part used once it is dense */
    uint16_t *chunk_n; /* per chunk: overrides in the hash, or CHUNK_DENSE */
    uint64_t *hkey;    /* lpn + 1, 0 for an empty cell */
    uint64_t *hval;
    uint64_t hmask, hcount;
    uint32_t hbits;
    /* P2L, stored complemented (0: NO_LPN, or the formula's for a prefilled block) */
    uint64_t *p2l;
    /* the prefill formula: lpns [0, pf_end) unless overridden */
    bool pf_ok;        /* the prefill has followed it so far */
    uint64_t pf_end;
    uint32_t *pf_blk;  /* dies x blocks_per_die: a die's j-th block of the prefill */
    uint32_t *pf_j;    /* nblocks: j of a block the formula covers, NO_IDX otherwise */
    uint32_t unit;     /* native unit, slots */
    uint32_t upb;      /* native units per block */
} SparseMap;

/* The map's own state, hung on the drive as DP_MAP. */
typedef struct Map {
    void (*changed)(Drive *d, uint64_t lpn); /* map_watch() */
    SparseMap *sm;                           /* NULL: the flat tables */
    BigmemWarm *warm;                        /* map_warm() */
} Map;

static Map *map_of(const Drive *d) { return drive_part(d, DP_MAP); }

bool map_sparse(const Drive *d) { return map_of(d)->sm != NULL; }

/* Fibonacci hashing of lpn into hbits bits. */
static inline uint64_t hash_home(const SparseMap *sm, uint64_t lpn)
{
    return ((lpn + 1) * 0x9e3779b97f4a7c15ULL) >> (64 - sm->hbits);
}

/* The cell of lpn, or of the empty cell where it would go. */
static inline uint64_t hash_cell(const SparseMap *sm, uint64_t lpn)
{
    uint64_t i = hash_home(sm, lpn);
    while (sm->hkey[i] != 0 && sm->hkey[i] != lpn + 1)
        i = (i + 1) & sm->hmask;
    return i;
}

static bool hash_alloc(SparseMap *sm, uint32_t bits)
{
    sm->hbits = bits;
    sm->hmask = (1ULL << bits) - 1;
    sm->hkey = calloc(sm->hmask + 1, sizeof(uint64_t));
    sm->hval = malloc((sm->hmask + 1) * sizeof(uint64_t));
    return sm->hkey && sm->hval;
}

/* Double the table at half load. Rare (each doubling), so the event loop
 * allocates only as the overrides grow. */
static void hash_grow(SparseMap *sm)
{
    uint64_t *key = sm->hkey, *val = sm->hval, n = sm->hmask + 1;
    if (!hash_alloc(sm, sm->hbits + 1))
        g_error("out of memory for the sparse map's %" G_GUINT64_FORMAT " overrides", sm->hcount);
    for (uint64_t i = 0; i < n; i++)
        if (key[i] != 0) {
            uint64_t j = hash_cell(sm, key[i] - 1);
            sm->hkey[j] = key[i];
            sm->hval[j] = val[i];
        }
    free(key);
    free(val);
}

/* Remove the entry at cell i, shifting later entries of its probe run back
 * (linear probing without tombstones). */
static void hash_remove(SparseMap *sm, uint64_t i)
{
    for (uint64_t j = (i + 1) & sm->hmask; sm->hkey[j] != 0; j = (j + 1) & sm->hmask) {
        uint64_t home = hash_home(sm, sm->hkey[j] - 1);
        /* the entry at j may fill the hole at i if its home is not in (i, j] */
        if (((j - home) & sm->hmask) >= ((j - i) & sm->hmask)) {
            sm->hkey[i] = sm->hkey[j];
            sm->hval[i] = sm->hval[j];
            i = j;
        }
    }
    sm->hkey[i] = 0;
    sm->hcount--;
}

/* The chunk's overrides move from the hash to the dense table. */
static void chunk_promote(SparseMap *sm, uint64_t c)
{
    for (uint64_t lpn = c << CHUNK_BITS; sm->chunk_n[c] > 0; lpn++) {
        uint64_t i = hash_cell(sm, lpn);
        if (sm->hkey[i] == 0)
            continue;
        sm->dense[lpn] = sm->hval[i];
        hash_remove(sm, i);
        sm->chunk_n[c]--;
    }
    sm->chunk_n[c] = CHUNK_DENSE;
}

/* lpn's slot by the prefill formula: unit u = lpn / unit went to die
 * u % dies as that die's k = u / dies-th unit, unit k % upb of its
 * (k / upb)-th block. */
static uint64_t formula_slot(const Drive *d, const SparseMap *sm, uint64_t lpn)
{
    if (lpn >= sm->pf_end)
        return NO_SLOT;
    const Geom *g = drive_geom(d);
    uint64_t u = lpn / sm->unit, k = u / g->dies;
    uint32_t die = (uint32_t)(u % g->dies), j = (uint32_t)(k / sm->upb);
    uint32_t b = sm->pf_blk[(uint64_t)die * g->blocks_per_die + j];
    return nand_slot(d, b, (uint32_t)(k % sm->upb) * sm->unit + (uint32_t)(lpn % sm->unit));
}

/* The lpn the formula put in slot i of block b (covered by it), or NO_LPN. */
static uint64_t formula_lpn(const Drive *d, const SparseMap *sm, uint32_t b, uint32_t i)
{
    uint64_t k = (uint64_t)sm->pf_j[b] * sm->upb + i / sm->unit;
    uint64_t lpn = (k * drive_geom(d)->dies + nand_die_of_block(d, b)) * sm->unit + i % sm->unit;
    return lpn < sm->pf_end ? lpn : NO_LPN;
}

/* The stored override of lpn (complemented), 0 if none. */
static inline uint64_t override_of(const SparseMap *sm, uint64_t lpn)
{
    uint16_t n = sm->chunk_n[lpn >> CHUNK_BITS];
    if (n == 0)
        return 0;
    if (n == CHUNK_DENSE)
        return sm->dense[lpn];
    uint64_t i = hash_cell(sm, lpn);
    return sm->hkey[i] ? sm->hval[i] : 0;
}

static G_GNUC_NO_INLINE uint64_t map_get_sparse(const Drive *d, uint64_t lpn)
{
    const SparseMap *sm = map_of(d)->sm;
    uint64_t s = override_of(sm, lpn);
    if (s == 0)
        return formula_slot(d, sm, lpn);
    return ~s == UNMAPPED ? NO_SLOT : ~s;
}

static G_GNUC_NO_INLINE void map_put_sparse(Drive *d, uint64_t lpn, uint64_t v)
{
    SparseMap *sm = map_of(d)->sm;
    uint64_t c = lpn >> CHUNK_BITS;
    if (v == NO_SLOT) {
        /* unmapping what neither an override nor the formula maps (a TRIM
         * of unwritten space) stores nothing */
        if (override_of(sm, lpn) == 0 && formula_slot(d, sm, lpn) == NO_SLOT)
            return;
        v = UNMAPPED;
    }
    if (sm->chunk_n[c] == CHUNK_DENSE) {
        sm->dense[lpn] = ~v;
        return;
    }
    uint64_t i = hash_cell(sm, lpn);
    if (sm->hkey[i] != 0) {
        sm->hval[i] = ~v;
        return;
    }
    sm->hkey[i] = lpn + 1;
    sm->hval[i] = ~v;
    sm->hcount++;
    if (++sm->chunk_n[c] >= CHUNK_PROMOTE)
        chunk_promote(sm, c);
    if (sm->hcount > (sm->hmask + 1) / 2)
        hash_grow(sm);
}

static G_GNUC_NO_INLINE uint64_t map_lpn_of_sparse(const Drive *d, uint64_t slot)
{
    const SparseMap *sm = map_of(d)->sm;
    uint64_t s = sm->p2l[slot];
    if (s != 0)
        return ~s;
    uint32_t b = nand_block_of(d, slot);
    if (sm->pf_j[b] == NO_IDX)
        return NO_LPN;
    uint32_t i = (uint32_t)(slot - nand_slot(d, b, 0));
    uint64_t lpn = formula_lpn(d, sm, b, i);
    return lpn != NO_LPN && map_get_sparse(d, lpn) == slot ? lpn : NO_LPN;
}

static G_GNUC_NO_INLINE void map_put_lpn_sparse(Drive *d, uint64_t slot, uint64_t lpn)
{
    SparseMap *sm = map_of(d)->sm;
    /* a prefilled slot turns invalid by its lpn's override alone; and
     * storing NO_LPN where nothing is stored would back a page for nothing */
    if (lpn == NO_LPN && sm->p2l[slot] == 0)
        return;
    g_assert(lpn == NO_LPN || sm->pf_j[nand_block_of(d, slot)] == NO_IDX);
    sm->p2l[slot] = ~lpn;
}

/* The flat tables hold values complemented, in 32 bits: BUF_MARK32 and up
 * widen to BUF_MARK and up. These four are on every per-page path: the
 * sparse map's functions stay out of line (G_GNUC_NO_INLINE) so that they
 * stay small enough for link-time optimization to inline them. */
uint64_t map_get(const Drive *d, uint64_t lpn)
{
    const uint32_t *tab = drive_l2p_tab(d);
    if (G_UNLIKELY(!tab))
        return map_get_sparse(d, lpn);
    uint32_t v = ~tab[lpn];
    return v >= BUF_MARK32 ? v | 0xffffffff00000000ull : v;
}

void map_put(Drive *d, uint64_t lpn, uint64_t v)
{
    uint32_t *tab = drive_l2p_tab(d);
    if (G_UNLIKELY(!tab))
        map_put_sparse(d, lpn, v);
    else
        tab[lpn] = ~(uint32_t)v;
}

uint64_t map_lpn_of(const Drive *d, uint64_t slot)
{
    const uint32_t *tab = drive_p2l_tab(d);
    if (G_UNLIKELY(!tab))
        return map_lpn_of_sparse(d, slot);
    uint32_t v = ~tab[slot];
    return v == UINT32_MAX ? NO_LPN : v;
}

void map_put_lpn(Drive *d, uint64_t slot, uint64_t lpn)
{
    uint32_t *tab = drive_p2l_tab(d);
    if (G_UNLIKELY(!tab))
        map_put_lpn_sparse(d, slot, lpn);
    else
        tab[slot] = ~(uint32_t)lpn;
}

void map_prefetch_one(const Drive *d, uint64_t lpn)
{
    const uint32_t *tab = drive_l2p_tab(d);
    if (G_LIKELY(tab != NULL))
        __builtin_prefetch(&tab[lpn], 1);
}

void map_prefetch_slot(const Drive *d, uint64_t slot)
{
    const uint32_t *tab = drive_p2l_tab(d);
    if (G_LIKELY(tab != NULL))
        __builtin_prefetch(&tab[slot], 1);
}

bool map_prefill_run(Drive *d, uint64_t lpn, uint32_t die, uint64_t s0, uint32_t n, bool native)
{
    SparseMap *sm = map_of(d)->sm;
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
    return true;
}

void map_watch(Drive *d, void (*fn)(Drive *d, uint64_t lpn)) { map_of(d)->changed = fn; }

void map_block_erased(Drive *d, uint32_t b)
{
    if (map_of(d)->sm)
        map_of(d)->sm->pf_j[b] = NO_IDX;
}

static void sparse_free(const Drive *d, SparseMap *sm)
{
    if (!sm)
        return;
    bigmem_free(sm->dense, drive_geom(d)->nlpn * sizeof(uint64_t));
    bigmem_free(sm->p2l, drive_geom(d)->nslots * sizeof(uint64_t));
    g_free(sm->chunk_n);
    g_free(sm->pf_blk);
    g_free(sm->pf_j);
    free(sm->hkey);
    free(sm->hval);
    g_free(sm);
}

/* The sparse map of an empty drive, or NULL if its tables cannot be mapped. */
static SparseMap *sparse_new(const Drive *d)
{
    const Geom *g = drive_geom(d);
    SparseMap *sm = g_new0(SparseMap, 1);
    sm->dense = bigmem_alloc_sparse(g->nlpn * sizeof(uint64_t));
    sm->p2l = bigmem_alloc_sparse(g->nslots * sizeof(uint64_t));
    sm->chunk_n = g_try_new0(uint16_t, (g->nlpn + CHUNK - 1) / CHUNK);
    sm->pf_blk = g_try_new(uint32_t, g->nblocks);
    sm->pf_j = g_try_new(uint32_t, g->nblocks);
    sm->unit = g->unit_slots[g->native];
    sm->upb = g->mode_slots[g->native] / sm->unit;
    /* whole native units fill a block, or the formula does not apply */
    sm->pf_ok = g->mode_slots[g->native] % sm->unit == 0;
    if (!hash_alloc(sm, HASH_MIN_BITS) || !sm->dense || !sm->p2l || !sm->chunk_n ||
        !sm->pf_blk || !sm->pf_j) {
        sparse_free(d, sm);
        return NULL;
    }
    memset(sm->pf_blk, 0xff, g->nblocks * sizeof(uint32_t));
    memset(sm->pf_j, 0xff, g->nblocks * sizeof(uint32_t));
    return sm;
}

/* Flat tables where every slot and lpn fits below their 32-bit marks
 * (UNMAPPED, BUF_MARK32 - 1, too); FTLSIM_MAP_STORE=sparse makes any drive
 * sparse, to test the sparse map on small drives against the flat one. */
bool drive_params_sparse_map(const DriveParams *p)
{
    uint64_t slots = drive_params_raw_capacity(p) / SLOT_SIZE, lpns = p->user_capacity / SLOT_SIZE;
    const char *store = g_getenv("FTLSIM_MAP_STORE");
    return slots >= BUF_MARK32 - 1 || lpns >= UINT32_MAX || (store && strcmp(store, "sparse") == 0);
}

bool map_init(Drive *d)
{
    const Geom *g = drive_geom(d);
    Map *m = g_new0(Map, 1);
    drive_set_part(d, DP_MAP, m);
    g_assert(g->nslots == drive_params_raw_capacity(drive_params(d)) / SLOT_SIZE);
    if (!drive_params_sparse_map(drive_params(d))) {
        uint32_t *l2p = bigmem_alloc_zeroed(g->nlpn * sizeof(uint32_t));
        uint32_t *p2l = bigmem_alloc_zeroed(g->nslots * sizeof(uint32_t));
        drive_set_map_tables(d, l2p, p2l);
        return l2p && p2l;
    }
    m->sm = sparse_new(d);
    return m->sm != NULL;
}

void map_warm(Drive *d)
{
    Map *m = map_of(d);
    if (m->sm || m->warm)
        return;
    void *p[2] = {drive_l2p_tab(d), drive_p2l_tab(d)};
    size_t bytes[2] = {drive_geom(d)->nlpn * sizeof(uint32_t), drive_geom(d)->nslots * sizeof(uint32_t)};
    m->warm = bigmem_warm(p, bytes, 2);
}

void map_release(Drive *d)
{
    const Geom *g = drive_geom(d);
    Map *m = map_of(d);
    if (m)
        bigmem_warm_stop(m->warm);
    bigmem_free(drive_l2p_tab(d), g->nlpn * sizeof(uint32_t));
    bigmem_free(drive_p2l_tab(d), g->nslots * sizeof(uint32_t));
    drive_set_map_tables(d, NULL, NULL);
    if (m)
        sparse_free(d, m->sm);
    g_free(m);
    drive_set_part(d, DP_MAP, NULL);
}

void map_invalidate_slot(Drive *d, uint64_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    g_assert(map_lpn_of(d, slot) != NO_LPN && blk_valid(d)[b] > 0);
    map_put_lpn(d, slot, NO_LPN);
    if (--blk_valid(d)[b] == 0 && blk_state(d)[b] == BLK_FULL && !blk_is_dead(d, b)) {
        /* nothing left to move: GC can have it for an erase (gc_reclaim_dead) */
        die_push_dead(d, b);
    }
    if (blk_mode(d)[b] == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        drive_counters(d)->pslc_used -= SLOT_SIZE;
}

/* Warm the map entries of lpns, which the caller is about to set. */
void map_prefetch(const Drive *d, const uint64_t *lpns, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        map_prefetch_one(d, lpns[k]);
}

/* Point the n lpns at the n slots from slot on, all in one block (the
 * program of a unit), invalidating the slots they had. The block's counters
 * change once. An old
 * slot in the same block is invalidated before the new ones count, which
 * is safe: the block is open, so it cannot be marked dead meanwhile. */
void map_set_run(Drive *d, const uint64_t *lpns, uint32_t n, uint64_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    void (*changed)(Drive *, uint64_t) = map_of(d)->changed;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t lpn = lpns[k], old = map_get(d, lpn);
        if (old == NO_SLOT)
            ++*drive_mapped(d);
        else if (old < BUF_MARK)
            map_invalidate_slot(d, old);
        map_put(d, lpn, slot + k);
        map_put_lpn(d, slot + k, lpn);
        if (changed)
            changed(d, lpn);
    }
    blk_valid(d)[b] += n;
    if (blk_mode(d)[b] == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        drive_counters(d)->pslc_used += (uint64_t)n * SLOT_SIZE;
}

/* Map n relocated slots (lpns, from srcs) to the next slots of dst. */
#define RELOCATE_RUN 64
static void relocate_run(Drive *d, uint32_t dst, const uint64_t *lpns, const uint64_t *srcs,
                         uint32_t n)
{
    uint64_t first = nand_slot(d, dst, blk_wp(d)[dst]);
    map_set_run(d, lpns, n, first);
    blk_wp(d)[dst] += n;
    for (uint32_t k = 0; drive_place_hook(d) && k < n; k++)
        drive_place_hook(d)(drive_place_ctx(d), lpns[k], first + k, srcs[k]);
}

/* Move up to one native program unit of valid slots of block v, scanning
 * from *cursor, into dst (GC and folding both relocate this way). dst is
 * marked full and *open cleared when it fills. Returns the slots moved and
 * in *pages the distinct source pages that had to be read. */
uint32_t map_relocate(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, uint32_t *open,
                      uint32_t *pages)
{
    uint32_t unit = drive_geom(d)->unit_slots[drive_geom(d)->native];
    uint32_t room = nand_block_capacity(d, dst) - blk_wp(d)[dst];
    uint32_t want = unit < room ? unit : room;
    uint64_t vbase = nand_slot(d, v, 0);
    uint32_t n = 0;
    uint64_t last_page = NO_SLOT;
    *pages = 0;
    /* the map entries of the slots about to move are scattered over the
     * whole table: ask for them all before the first is needed */
    for (uint32_t c = *cursor, seen = 0; seen < want && c < blk_wp(d)[v]; c++) {
        uint64_t lpn = map_lpn_of(d, vbase + c);
        if (lpn != NO_LPN) {
            map_prefetch_one(d, lpn);
            seen++;
        }
    }
    /* the slots found go to dst in order: mapped a run at a time */
    uint64_t lpns[RELOCATE_RUN], srcs[RELOCATE_RUN];
    uint32_t got = 0;
    while (n < want && *cursor < blk_wp(d)[v]) {
        uint64_t src = vbase + (*cursor)++;
        uint64_t lpn = map_lpn_of(d, src);
        if (lpn == NO_LPN)
            continue;
        uint64_t page = slot_div(src, drive_geom(d)->slots_per_page);
        if (page != last_page) {
            (*pages)++;
            last_page = page;
        }
        lpns[got] = lpn;
        srcs[got++] = src;
        n++;
        if (got == RELOCATE_RUN || n == want) {
            relocate_run(d, dst, lpns, srcs, got);
            got = 0;
        }
    }
    relocate_run(d, dst, lpns, srcs, got);
    if (blk_wp(d)[dst] == nand_block_capacity(d, dst)) {
        blk_state(d)[dst] = BLK_FULL;
        blk_stamp(d)[dst] = sim_now(drive_engine(d));
        *open = NO_BLOCK;
    }
    return n;
}

