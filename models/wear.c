/*
 * wear.c - wear leveling: every block's erase count, dynamic leveling (a
 * die takes its least-worn free block) and static leveling (the data of a
 * block left far behind in erases is cold: GC moves it, so the block goes
 * back in use).
 *
 * Nothing here runs per page: dynamic leveling scans a die's free stack
 * once per block taken, the gauges cost O(1) per erase (a histogram of the
 * pool's counts), and the static check scans a die's blocks only when an
 * erase lifts a block past the die's floor by the threshold. Static SLC
 * blocks are counted apart from the pool and never leveled: they stay SLC.
 */
#include "models/wear.h"

#include "models/blocks.h"
#include "models/fdp.h"
#include "models/sched.h"

#include <string.h>

typedef struct Wear Wear;

struct Wear {
    uint32_t *erases; /* per block */
    uint32_t *hist;   /* pool blocks by erase count, for DriveStats.wear_min in O(1) */
    uint32_t hist_len;
    uint32_t pool_blocks; /* blocks outside the static SLC part */
    uint32_t *floor;      /* per die: no pool block of the die has fewer erases */
    uint32_t *cold;       /* per die: cold block whose data GC is to move, NO_BLOCK if none */
    uint32_t ncold;       /* dies with one */
    uint32_t threshold;   /* [wear] static_threshold in force; 0: off */
    bool dynamic;         /* [wear] dynamic */
};

static Wear *wear(const Drive *d) { return drive_part(d, DP_WEAR); }

void wear_init(Drive *d)
{
    Wear *w = g_new0(Wear, 1);
    w->erases = g_new0(uint32_t, drive_geom(d)->nblocks);
    w->pool_blocks = drive_geom(d)->nblocks - drive_geom(d)->dies * drive_geom(d)->static_per_die;
    w->floor = g_new0(uint32_t, drive_geom(d)->dies);
    w->cold = g_new(uint32_t, drive_geom(d)->dies);
    w->dynamic = drive_params(d)->wear_dynamic;
    drive_set_part(d, DP_WEAR, w);
    wear_static_enable(d, true);
    wear_reset(d);
}

void wear_release(Drive *d)
{
    Wear *w = wear(d);
    if (!w)
        return;
    g_free(w->erases);
    g_free(w->hist);
    g_free(w->floor);
    g_free(w->cold);
    g_free(w);
    drive_set_part(d, DP_WEAR, NULL);
}

void wear_reset(Drive *d)
{
    Wear *w = wear(d);
    memset(w->erases, 0, (size_t)drive_geom(d)->nblocks * sizeof(*w->erases));
    g_free(w->hist);
    w->hist_len = 64;
    w->hist = g_new0(uint32_t, w->hist_len);
    w->hist[0] = w->pool_blocks;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        w->floor[i] = 0;
        w->cold[i] = NO_BLOCK;
    }
    w->ncold = 0;
    drive_counters(d)->wear_min = drive_counters(d)->wear_max = 0;
    drive_counters(d)->wear_erases = 0;
}

void wear_static_enable(Drive *d, bool on)
{
    wear(d)->threshold = on ? drive_params(d)->wear_static_threshold : 0;
}

/* Among equals the one nearest the top, so that the order is the stack's. */
uint32_t wear_pick_free(const Drive *d, const uint32_t *stack, uint32_t n)
{
    const Wear *w = wear(d);
    uint32_t k = n - 1;
    if (w->dynamic) {
        for (uint32_t j = k; j-- > 0;)
            if (w->erases[stack[j]] < w->erases[stack[k]])
                k = j;
    }
    return k;
}

/* A pool block went from e - 1 erases to e: the histogram, the most and
 * the fewest (which only ever move up). */
static void wear_count(Drive *d, uint32_t e)
{
    Wear *w = wear(d);
    if (e >= w->hist_len) {
        uint32_t n = w->hist_len * 2;
        w->hist = g_renew(uint32_t, w->hist, n);
        memset(w->hist + w->hist_len, 0, (size_t)(n - w->hist_len) * sizeof(uint32_t));
        w->hist_len = n;
    }
    w->hist[e - 1]--;
    w->hist[e]++;
    drive_counters(d)->wear_erases++;
    drive_counters(d)->wear_max = MAX(drive_counters(d)->wear_max, e);
    while (w->hist[drive_counters(d)->wear_min] == 0)
        drive_counters(d)->wear_min++;
}

/* Whether static leveling may give block b to GC: full of native data
 * (not translation pages), or with GC by whole reclaim units open for the
 * unit a handle fills, which a cold handle may never fill (GC closes it,
 * models/fdp.c). */
static bool levelable(const Drive *d, uint32_t b)
{
    int st = blk_state(d, b);
    return (st == BLK_FULL || (st == BLK_OPEN && fdp_ru_filling(d, b))) &&
           blk_mode(d, b) == drive_geom(d)->native && !blk_is_map(d, b);
}

/* Static wear leveling: a block of die has just reached more erases than
 * the least-worn pool block plus the threshold. If that block holds data
 * (levelable()), it is cold: it has not been erased since, so GC moves
 * its data next (gc_pick_victim) and puts it back in use. Erased blocks
 * are left to dynamic wear leveling. */
static void static_check(Drive *d, uint32_t die)
{
    Wear *w = wear(d);
    uint32_t first = die * drive_geom(d)->blocks_per_die + drive_geom(d)->static_per_die;
    uint32_t last = (die + 1) * drive_geom(d)->blocks_per_die;
    uint32_t floor = UINT32_MAX, cold = NO_BLOCK, max = 0;
    for (uint32_t b = first; b < last; b++) {
        uint32_t e = w->erases[b];
        floor = MIN(floor, e);
        max = MAX(max, e);
        if ((cold == NO_BLOCK || e < w->erases[cold]) && levelable(d, b))
            cold = b;
    }
    w->floor[die] = floor;
    if (w->cold[die] == NO_BLOCK && cold != NO_BLOCK && w->erases[cold] + w->threshold < max) {
        w->cold[die] = cold;
        w->ncold++;
        blocks_grow(d); /* GC may have work again */
    }
}

void wear_erased(Drive *d, uint32_t b)
{
    Wear *w = wear(d);
    uint32_t e = ++w->erases[b];
    if (nand_is_static(d, b))
        return;
    wear_count(d, e);
    uint32_t die = nand_die_of_block(d, b);
    if (w->threshold && e > w->floor[die] + w->threshold)
        static_check(d, die);
}

bool wear_cold_waiting(const Drive *d, uint32_t die)
{
    return wear(d)->cold[die] != NO_BLOCK;
}

bool wear_cold_any(const Drive *d) { return wear(d)->ncold > 0; }

/* Moving the cold block frees nothing: at the hard threshold host writes
 * wait for the move, as for any victim. */
uint32_t wear_take_cold(Drive *d, uint32_t die)
{
    Wear *w = wear(d);
    uint32_t v = w->cold[die];
    if (v == NO_BLOCK || die_nfree(d, die) < drive_params(d)->gc_hard_blocks)
        return NO_BLOCK;
    w->cold[die] = NO_BLOCK;
    w->ncold--;
    if (!levelable(d, v))
        return NO_BLOCK; /* taken or emptied meanwhile */
    drive_counters(d)->wl_blocks++;
    return v;
}

/* Erase counts per group of blocks; see drive.h. */
static void group_add(DriveWearGroup *g, uint32_t erases)
{
    if (g->blocks == 0 || erases < g->min)
        g->min = erases;
    if (erases > g->max)
        g->max = erases;
    g->blocks++;
    g->erases += erases;
}

void drive_wear(const Drive *d, DriveWear *w)
{
    memset(w, 0, sizeof(*w));
    for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++)
        group_add(nand_is_static(d, b) ? &w->static_slc : &w->pool, wear(d)->erases[b]);
}

/* The histogram and the gauges against the erase counts; each die's
 * floor at most its least-worn pool block; the cold blocks, their count. */
bool wear_check(const Drive *d, char *why, size_t why_len)
{
    const Wear *w = wear(d);
    const DriveStats *st = drive_stats(d);
    g_autofree uint32_t *hist = g_new0(uint32_t, w->hist_len);
    uint64_t erases = 0;
    uint32_t max = 0, cold = 0;
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++) {
        uint32_t first = i * drive_geom(d)->blocks_per_die;
        uint32_t floor = UINT32_MAX;
        for (uint32_t b = first + drive_geom(d)->static_per_die; b < first + drive_geom(d)->blocks_per_die; b++) {
            uint32_t e = w->erases[b];
            CHECK(e < w->hist_len, "block %u erased %u times, beyond the histogram", b, e);
            hist[e]++;
            erases += e;
            max = MAX(max, e);
            floor = MIN(floor, e);
        }
        CHECK(floor == UINT32_MAX || w->floor[i] <= floor,
              "die %u's wear floor is %u, its least-worn block has %u erases", i, w->floor[i], floor);
        CHECK(w->cold[i] == NO_BLOCK || nand_die_of_block(d, w->cold[i]) == i,
              "die %u's cold block %u is another die's", i, w->cold[i]);
        cold += w->cold[i] != NO_BLOCK;
    }
    CHECK(cold == w->ncold, "%u dies with a cold block, counter says %u", cold, w->ncold);
    for (uint32_t e = 0; e < w->hist_len; e++)
        CHECK(hist[e] == w->hist[e], "%u pool blocks erased %u times, histogram says %u", hist[e],
              e, w->hist[e]);
    uint32_t min = 0;
    while (w->pool_blocks > 0 && hist[min] == 0)
        min++;
    CHECK(w->pool_blocks == 0 ||
              (min == st->wear_min && max == st->wear_max && erases == st->wear_erases),
          "pool blocks erased %u to %u times, %" G_GUINT64_FORMAT " in all; gauges say %u to %u, "
          "%" G_GUINT64_FORMAT,
          min, max, erases, st->wear_min, st->wear_max, st->wear_erases);
    return true;
}
