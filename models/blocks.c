/*
 * blocks.c - the state of every block and each die's lists of blocks.
 *
 * Private arrays and per-die records, reached through the functions of
 * blocks.h. The record sits inside the drive record (blocks_impl.h, seen
 * by this file and parts.c only), and release builds inline the functions
 * (-flto), so blk_valid(d, b) costs one load for the array, as when it
 * was a field of the drive: the per-page paths (map.c) read and write
 * these arrays for every slot. No other file touches them.
 */
#include "models/blocks_impl.h"

#include <stdarg.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static Blocks *blocks(const Drive *d) { return drive_blocks(d); }

void blocks_init(Drive *d)
{
    const Geom *g = drive_geom(d);
    Blocks *k = blocks(d);
    k->state = g_new0(uint8_t, g->nblocks);
    k->mode = g_new0(uint8_t, g->nblocks);
    k->wp = g_new0(uint32_t, g->nblocks);
    k->valid = g_new0(uint32_t, g->nblocks);
    k->stamp = g_new0(uint64_t, g->nblocks);
    k->dead = g_new0(uint8_t, g->nblocks);
    if (drive_params(d)->l2p_kind != L2P_DRAM)
        k->kind = g_new0(uint8_t, g->nblocks);
    k->die = g_new0(BlkDie, g->dies);
    for (uint32_t i = 0; i < g->dies; i++) {
        BlkDie *die = &k->die[i];
        uint32_t ns = g->static_per_die, first = i * g->blocks_per_die;
        die->free_blocks = g_new(uint32_t, g->blocks_per_die);
        die->dead = g_new(uint32_t, g->blocks_per_die);
        die->sfree_blocks = g_new(uint32_t, ns ? ns : 1);
        /* stacks: the lowest block id is taken first */
        for (uint32_t j = 0; j < g->blocks_per_die - ns; j++)
            die->free_blocks[j] = first + (g->blocks_per_die - 1 - j);
        die->nfree = g->blocks_per_die - ns;
        for (uint32_t j = 0; j < ns; j++)
            die->sfree_blocks[j] = first + ns - 1 - j;
        die->nsfree = ns;
        for (int s = 0; s < STREAMS; s++)
            die->open[s] = NO_BLOCK;
        die->victim = NO_BLOCK;
        k->dies_low += die->nfree < drive_params(d)->gc_soft_blocks;
    }
    for (uint32_t b = 0; b < g->nblocks; b++)
        k->mode[b] = (uint8_t)(nand_is_static(d, b) ? CELL_SLC : g->native);
}

void blocks_set_held(Drive *d, BlocksHeldFn held) { blocks(d)->held = held; }
void blocks_set_on_valid(Drive *d, BlocksValidFn on_valid) { blocks(d)->on_valid = on_valid; }
void blocks_set_on_grow(Drive *d, BlocksGrowFn on_grow) { blocks(d)->on_grow = on_grow; }

void blocks_grow(Drive *d)
{
    if (blocks(d)->on_grow)
        blocks(d)->on_grow(d);
}

void blocks_release(Drive *d)
{
    Blocks *k = blocks(d);
    if (k->die)
        for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
            g_free(k->die[i].free_blocks);
            g_free(k->die[i].sfree_blocks);
            g_free(k->die[i].dead);
        }
    g_free(k->die);
    g_free(k->state);
    g_free(k->mode);
    g_free(k->wp);
    g_free(k->valid);
    g_free(k->stamp);
    g_free(k->dead);
    g_free(k->kind);
    *k = (Blocks){0};
}

int blk_state(const Drive *d, uint32_t b) { return blocks(d)->state[b]; }
CellMode blk_mode(const Drive *d, uint32_t b) { return (CellMode)blocks(d)->mode[b]; }
uint32_t blk_wp(const Drive *d, uint32_t b) { return blocks(d)->wp[b]; }
uint32_t blk_valid(const Drive *d, uint32_t b) { return blocks(d)->valid[b]; }
uint64_t blk_stamp(const Drive *d, uint32_t b) { return blocks(d)->stamp[b]; }
bool blk_is_map(const Drive *d, uint32_t b) { return blocks(d)->kind && blocks(d)->kind[b] == BLK_MAP; }
bool blk_is_dead(const Drive *d, uint32_t b) { return blocks(d)->dead[b]; }

#ifdef __SSE2__
/* Four lanes of the scan below: the blocks' valid counts v, all ones
 * where their mask m says full, else INT32_MAX (counts fit a signed int);
 * each lane keeps its least count and the first index (idx) it saw it at. */
static inline void fewest_lanes(__m128i v, __m128i m, __m128i idx, __m128i *least, __m128i *at)
{
    v = _mm_or_si128(_mm_and_si128(v, m), _mm_andnot_si128(m, _mm_set1_epi32(INT32_MAX)));
    __m128i lower = _mm_cmpgt_epi32(*least, v);
    *least = _mm_or_si128(_mm_and_si128(lower, v), _mm_andnot_si128(lower, *least));
    *at = _mm_or_si128(_mm_and_si128(lower, idx), _mm_andnot_si128(lower, *at));
}

/* The first full block of [lo, hi) with the fewest valid slots, if fewer
 * than below (NO_BLOCK if none), in a drive without map blocks: sixteen
 * blocks a step, without a branch on them. A random prefill picks a
 * victim per block it reclaims, over the die's blocks: the scan a block
 * at a time was a fifth of its instructions. */
static uint32_t fewest_full(const Blocks *k, uint32_t lo, uint32_t hi, uint32_t below)
{
    __m128i least[4], at[4];
    for (int j = 0; j < 4; j++) {
        least[j] = _mm_set1_epi32(INT32_MAX);
        at[j] = _mm_setzero_si128();
    }
    uint32_t b = lo;
    for (; b + 16 <= hi; b += 16) {
        __m128i full = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)&k->state[b]),
                                      _mm_set1_epi8(BLK_FULL));
        __m128i lo8 = _mm_unpacklo_epi8(full, full), hi8 = _mm_unpackhi_epi8(full, full);
        __m128i m[4] = {_mm_unpacklo_epi16(lo8, lo8), _mm_unpackhi_epi16(lo8, lo8),
                        _mm_unpacklo_epi16(hi8, hi8), _mm_unpackhi_epi16(hi8, hi8)};
        __m128i base = _mm_set1_epi32((int32_t)(b - lo)); /* each lane's index: b - lo + its place */
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
            fewest_lanes(_mm_loadu_si128((const __m128i *)&k->valid[b + 4 * j]), m[j],
                         _mm_add_epi32(base, _mm_setr_epi32(4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3)),
                         &least[j], &at[j]);
    }
    uint32_t m = UINT32_MAX, best = NO_BLOCK;
    for (int j = 0; j < 4; j++) { /* the least, at the first index that has it */
        int32_t l[4], a[4];
        _mm_storeu_si128((__m128i *)l, least[j]);
        _mm_storeu_si128((__m128i *)a, at[j]);
        for (int i = 0; i < 4; i++) /* INT32_MAX: the lane saw no full block */
            if (l[i] != INT32_MAX &&
                ((uint32_t)l[i] < m || ((uint32_t)l[i] == m && lo + (uint32_t)a[i] < best))) {
                m = (uint32_t)l[i];
                best = lo + (uint32_t)a[i];
            }
    }
    for (; b < hi; b++) /* after every block of the lanes */
        if (k->state[b] == BLK_FULL && k->valid[b] < m) {
            m = k->valid[b];
            best = b;
        }
    return m < below ? best : NO_BLOCK;
}
#endif

uint32_t blk_fewest_valid(const Drive *d, uint32_t lo, uint32_t hi, uint32_t below,
                          uint32_t map_cost)
{
    const Blocks *k = blocks(d);
    uint32_t best = NO_BLOCK;
#ifdef __SSE2__
    if (!k->kind)
        return fewest_full(k, lo, hi, below);
#endif
    for (uint32_t b = lo; b < hi; b++) {
        if (k->state[b] != BLK_FULL)
            continue;
        uint64_t v = k->valid[b];
        if (k->kind && k->kind[b] == BLK_MAP)
            v *= map_cost;
        if (v < below) {
            below = (uint32_t)v;
            best = b;
            if (v == 0)
                break; /* nothing can beat it */
        }
    }
    return best;
}

uint32_t nand_block_capacity(const Drive *d, uint32_t b)
{
    return drive_geom(d)->mode_slots[blocks(d)->mode[b]];
}

/* ---- Transitions ---------------------------------------------------------- */

#ifdef FTLSIM_DEBUG
static const char *const state_names[] = {"free", "open", "full", "a victim"};

static const char *state_name(uint8_t st)
{
    return st <= BLK_VICTIM ? state_names[st] : "unknown";
}

/* A precondition of a transition failed: to the drive's hook if it has
 * one (the transition is then not applied), else abort. */
G_GNUC_PRINTF(3, 4) static bool blk_fault(const Drive *d, uint32_t b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (!blocks(d)->fault)
        g_error("block %u of die %u: %s", b, nand_die_of_block(d, b), what);
    blocks(d)->fault(d, b, what);
    return false;
}

/* True when cond holds; else the fault is reported (see blk_fault()). */
#define BLK_REQUIRE(cond, d, b, ...) ((cond) || blk_fault(d, b, __VA_ARGS__))
#else
/* Release builds: no check, the arguments are not evaluated. */
#define BLK_REQUIRE(cond, d, b, ...) true
#endif

bool blocks_set_fault_hook(Drive *d, BlocksFaultFn fault)
{
    blocks(d)->fault = fault;
#ifdef FTLSIM_DEBUG
    return true;
#else
    return false;
#endif
}

void blk_open(Drive *d, uint32_t b, CellMode m)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->state[b] == BLK_FREE, d, b, "opened while %s", state_name(k->state[b])))
        return;
    k->state[b] = BLK_OPEN;
    k->mode[b] = (uint8_t)m;
    k->wp[b] = 0;
    k->valid[b] = 0;
}

void blk_close(Drive *d, uint32_t b, uint64_t at)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->state[b] == BLK_OPEN, d, b, "closed while %s", state_name(k->state[b])))
        return;
    k->state[b] = BLK_FULL;
    k->stamp[b] = at;
}

void blk_take_victim(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->state[b] == BLK_FULL, d, b, "taken as a victim while %s",
                     state_name(k->state[b])))
        return;
    k->state[b] = BLK_VICTIM;
}

void blk_return_victim(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->state[b] == BLK_VICTIM, d, b, "given back as a victim while %s",
                     state_name(k->state[b])))
        return;
    k->state[b] = BLK_FULL;
}

void blk_erase(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->state[b] == BLK_VICTIM && k->valid[b] == 0, d, b,
                     "erased while %s with %u valid slots", state_name(k->state[b]), k->valid[b]))
        return;
    k->state[b] = BLK_FREE;
    k->wp[b] = 0;
}

void blk_make_map(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->kind && k->state[b] == BLK_OPEN && k->wp[b] == 0, d, b,
                     "made a map block while %s with %u slots written%s", state_name(k->state[b]),
                     k->wp[b], k->kind ? "" : ", without a mapping cache"))
        return;
    k->mode[b] = CELL_SLC;
    k->kind[b] = BLK_MAP;
}

void blk_make_data(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->kind && k->kind[b] == BLK_MAP && k->state[b] == BLK_VICTIM, d, b,
                     "made a data block while %s, %s", state_name(k->state[b]),
                     k->kind && k->kind[b] == BLK_MAP ? "a map block" : "not a map block"))
        return;
    k->mode[b] = (uint8_t)drive_geom(d)->native;
    k->kind[b] = BLK_DATA;
}

void blk_advance(Drive *d, uint32_t b, uint32_t n)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(n == 0 ||
                         (k->state[b] == BLK_OPEN && n <= nand_block_capacity(d, b) - k->wp[b]),
                     d, b, "%u slots written while %s at %u of %u", n, state_name(k->state[b]),
                     k->wp[b], nand_block_capacity(d, b)))
        return;
    k->wp[b] += n;
}

void blk_add_valid(Drive *d, uint32_t b, uint32_t n)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(n == 0 ||
                         (k->state[b] == BLK_OPEN && n <= nand_block_capacity(d, b) - k->valid[b]),
                     d, b, "%u more valid slots while %s with %u of %u", n, state_name(k->state[b]),
                     k->valid[b], nand_block_capacity(d, b)))
        return;
    k->valid[b] += n;
    if (k->on_valid)
        k->on_valid(d, b, (int64_t)n);
}

uint32_t blk_drop_valid(Drive *d, uint32_t b, uint32_t n)
{
    Blocks *k = blocks(d);
    if (!BLK_REQUIRE(k->state[b] != BLK_FREE && n <= k->valid[b], d, b,
                     "%u valid slots dropped while %s with %u", n, state_name(k->state[b]),
                     k->valid[b]))
        return k->valid[b];
    k->valid[b] -= n;
    if (k->on_valid)
        k->on_valid(d, b, -(int64_t)n);
    return k->valid[b];
}

void blk_corrupt(Drive *d, uint32_t b, int state, uint32_t valid)
{
    blocks(d)->state[b] = (uint8_t)state;
    blocks(d)->valid[b] = valid;
}

/* The free stack of die went from before blocks deep: the count of dies
 * below gc_soft_blocks follows. */
static void free_changed(Drive *d, uint32_t die, uint32_t before)
{
    uint32_t soft = drive_params(d)->gc_soft_blocks;
    bool low = blocks(d)->die[die].nfree < soft;
    blocks(d)->dies_low += low - (before < soft);
    if (low && before >= soft)
        blocks_grow(d);
}

const uint32_t *die_free_list(const Drive *d, uint32_t die, bool stat, uint32_t *n)
{
    const BlkDie *dd = &blocks(d)->die[die];
    *n = stat ? dd->nsfree : dd->nfree;
    return stat ? dd->sfree_blocks : dd->free_blocks;
}

uint32_t die_remove_free(Drive *d, uint32_t die, bool stat, uint32_t k)
{
    BlkDie *dd = &blocks(d)->die[die];
    uint32_t *stack = stat ? dd->sfree_blocks : dd->free_blocks, *n = stat ? &dd->nsfree : &dd->nfree;
    uint32_t b = stack[k];
    memmove(stack + k, stack + k + 1, (size_t)(*n - 1 - k) * sizeof(*stack));
    (*n)--;
    if (!stat)
        free_changed(d, die, *n + 1);
    return b;
}

void die_push_free(Drive *d, uint32_t b)
{
    uint32_t die = nand_die_of_block(d, b);
    BlkDie *dd = &blocks(d)->die[die];
    if (nand_is_static(d, b)) {
        dd->sfree_blocks[dd->nsfree++] = b;
        return;
    }
    dd->free_blocks[dd->nfree++] = b;
    free_changed(d, die, dd->nfree - 1);
}

uint32_t die_nfree(const Drive *d, uint32_t die) { return blocks(d)->die[die].nfree; }
uint32_t die_nsfree(const Drive *d, uint32_t die) { return blocks(d)->die[die].nsfree; }
uint32_t die_slc_dyn(const Drive *d, uint32_t die) { return blocks(d)->die[die].slc_dyn; }
void die_add_slc_dyn(Drive *d, uint32_t die, int n) { blocks(d)->die[die].slc_dyn += (uint32_t)n; }
uint32_t die_open(const Drive *d, uint32_t die, int stream) { return blocks(d)->die[die].open[stream]; }
void die_set_open(Drive *d, uint32_t die, int stream, uint32_t b) { blocks(d)->die[die].open[stream] = b; }
uint32_t die_victim(const Drive *d, uint32_t die) { return blocks(d)->die[die].victim; }
uint32_t die_cursor(const Drive *d, uint32_t die) { return blocks(d)->die[die].victim_cursor; }
void die_set_cursor(Drive *d, uint32_t die, uint32_t c) { blocks(d)->die[die].victim_cursor = c; }

void die_set_victim(Drive *d, uint32_t die, uint32_t b)
{
    Blocks *k = blocks(d);
    k->victims += (b != NO_BLOCK) - (k->die[die].victim != NO_BLOCK);
    k->die[die].victim = b;
    if (b != NO_BLOCK)
        blocks_grow(d);
}

uint32_t blocks_dies_low(const Drive *d) { return blocks(d)->dies_low; }
uint32_t blocks_victims(const Drive *d) { return blocks(d)->victims; }
uint32_t blocks_dead(const Drive *d) { return blocks(d)->ndead; }

void die_push_dead(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    BlkDie *dd = &k->die[nand_die_of_block(d, b)];
    k->dead[b] = 1;
    dd->dead[dd->ndead++] = b;
    k->ndead++;
    blocks_grow(d);
}

uint32_t die_pop_dead(Drive *d, uint32_t die)
{
    Blocks *k = blocks(d);
    BlkDie *dd = &k->die[die];
    if (dd->ndead == 0)
        return NO_BLOCK;
    uint32_t b = dd->dead[--dd->ndead];
    k->dead[b] = 0;
    k->ndead--;
    return b;
}

uint32_t die_ndead(const Drive *d, uint32_t die) { return blocks(d)->die[die].ndead; }

/* ---- Invariants ---------------------------------------------------------- */

/* Every block: a known state and mode, a write pointer within what its
 * mode holds, no more valid slots than written, nothing in a free one. */
static bool each_block_check(const Drive *d, char *why, size_t why_len)
{
    const Blocks *k = blocks(d);
    for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++) {
        CHECK(k->state[b] <= BLK_VICTIM && k->mode[b] >= CELL_SLC && k->mode[b] < CELL_MODES,
              "block %u has state %u, mode %u", b, k->state[b], k->mode[b]);
        CHECK(k->wp[b] <= nand_block_capacity(d, b) && k->valid[b] <= k->wp[b],
              "block %u: %u valid of %u written, holds %u", b, k->valid[b], k->wp[b],
              nand_block_capacity(d, b));
        CHECK(k->state[b] != BLK_FREE || (k->wp[b] == 0 && k->valid[b] == 0),
              "free block %u has %u slots written", b, k->wp[b]);
    }
    return true;
}

/* Die i's free stacks hold its free blocks, each once, static ones on the
 * static stack; *nfree: the free blocks found. */
static bool free_check(const Drive *d, uint32_t i, uint8_t *seen, uint64_t *nfree, char *why,
                       size_t why_len)
{
    const Blocks *k = blocks(d);
    const BlkDie *dd = &k->die[i];
    uint32_t first = i * drive_geom(d)->blocks_per_die, free_blocks = 0;
    for (int stat = 0; stat < 2; stat++) {
        uint32_t n = stat ? dd->nsfree : dd->nfree;
        const uint32_t *stack = stat ? dd->sfree_blocks : dd->free_blocks;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t b = stack[j];
            CHECK(b >= first && b < first + drive_geom(d)->blocks_per_die && !seen[b - first] &&
                      k->state[b] == BLK_FREE && nand_is_static(d, b) == stat,
                  "die %u's %s free stack holds block %u: another die's, twice, not free or of the "
                  "other stack",
                  i, stat ? "static" : "normal", b);
            seen[b - first] = 1;
        }
    }
    for (uint32_t b = first; b < first + drive_geom(d)->blocks_per_die; b++) {
        free_blocks += k->state[b] == BLK_FREE;
        CHECK(k->state[b] != BLK_FREE || seen[b - first], "free block %u is on no free stack", b);
    }
    memset(seen, 0, drive_geom(d)->blocks_per_die);
    *nfree += free_blocks;
    return true;
}

/* Die i's open blocks (open, of the die, in the stream's mode; every open
 * data block is some stream's) and its GC victim. */
static bool open_check(const Drive *d, uint32_t i, char *why, size_t why_len)
{
    const Blocks *k = blocks(d);
    const BlkDie *dd = &k->die[i];
    uint32_t first = i * drive_geom(d)->blocks_per_die, opens = 0;
    for (int s = 0; s < STREAMS; s++) {
        uint32_t b = dd->open[s];
        if (b == NO_BLOCK)
            continue;
        bool slc = s == STREAM_SLC || s == STREAM_SSLC;
        CHECK(nand_die_of_block(d, b) == i && k->state[b] == BLK_OPEN && !blk_is_map(d, b) &&
                  nand_is_static(d, b) == (s == STREAM_SSLC) &&
                  (slc ? k->mode[b] == CELL_SLC : k->mode[b] == drive_geom(d)->native),
              "die %u's stream %d has block %u open: another die's, not open, or of another mode",
              i, s, b);
        opens++;
    }
    if (k->held)
        opens += k->held(d, i);
    for (uint32_t b = first; b < first + drive_geom(d)->blocks_per_die; b++)
        opens -= k->state[b] == BLK_OPEN && !blk_is_map(d, b);
    CHECK(opens == 0, "die %u has open data blocks no stream writes", i);
    uint32_t v = dd->victim;
    CHECK(v == NO_BLOCK || (nand_die_of_block(d, v) == i && k->state[v] == BLK_VICTIM &&
                            dd->victim_cursor <= k->wp[v]),
          "die %u's GC victim %u is another die's, not a victim, or its cursor is past what "
          "was written",
          i, v);
    return true;
}

/* The dead stacks: each entry flagged, on its own die, once. */
static bool dead_check(const Drive *d, uint64_t *stacked, char *why, size_t why_len)
{
    uint64_t flagged = 0;
    for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++)
        flagged += blk_is_dead(d, b);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        *stacked += die_ndead(d, i);
        for (uint32_t j = 0; j < die_ndead(d, i); j++) {
            uint32_t b = blocks(d)->die[i].dead[j];
            CHECK(b < drive_geom(d)->nblocks && blk_is_dead(d, b) && nand_die_of_block(d, b) == i,
                  "die %u's dead stack holds block %u, not flagged or not its own", i, b);
        }
    }
    CHECK(flagged == *stacked,
          "%" G_GUINT64_FORMAT " blocks flagged dead, %" G_GUINT64_FORMAT " stacked", flagged,
          *stacked);
    return true;
}

bool blocks_check(const Drive *d, char *why, size_t why_len)
{
    const Blocks *k = blocks(d);
    if (!each_block_check(d, why, why_len))
        return false;
    g_autofree uint8_t *seen = g_new0(uint8_t, drive_geom(d)->blocks_per_die);
    uint64_t nfree = 0, stacked = 0;
    uint32_t low = 0, victims = 0;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        if (!free_check(d, i, seen, &nfree, why, why_len) || !open_check(d, i, why, why_len))
            return false;
        low += k->die[i].nfree < drive_params(d)->gc_soft_blocks;
        victims += k->die[i].victim != NO_BLOCK;
    }
    CHECK(nfree == drive_stats(d)->free_blocks,
          "%" G_GUINT64_FORMAT " free blocks, gauge says %" G_GUINT64_FORMAT, nfree,
          drive_stats(d)->free_blocks);
    if (!dead_check(d, &stacked, why, why_len))
        return false;
    /* the counts the scheduler asks before offering GC to every die */
    CHECK(low == k->dies_low && victims == k->victims && stacked == k->ndead,
          "dies low on free blocks, with victims, dead blocks: %u, %u, %" G_GUINT64_FORMAT
          "; counted %u, %u, %u",
          low, victims, stacked, k->dies_low, k->victims, k->ndead);
    return true;
}
