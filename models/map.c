/*
 * map.c - the page-level mapping: L2P and P2L and the valid counts.
 *
 * L2P holds one uint32_t per 4 KiB logical page: a physical slot, NO_SLOT
 * (unmapped) or BUF_MARK + ring position (the latest data sits in the write
 * buffer). P2L holds the logical page of every valid slot, NO_LPN otherwise,
 * and blk_valid counts the valid slots per block; drive_check() verifies all
 * three agree. Every change of the table made by map_set_run() is reported
 * to the mapping cache (l2p_cache.c), when there is one; unmapping
 * (ftl_unmap(), for TRIM) leaves that to its caller.
 */
#include "models/map.h"
#include "models/blocks.h"
#include "models/l2p_cache.h"

void map_invalidate_slot(Drive *d, uint32_t slot)
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
void map_prefetch(const Drive *d, const uint32_t *lpns, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        __builtin_prefetch(&drive_l2p_tab(d)[lpns[k]], 1);
}

/* Point the n lpns at the n slots from slot on, all in one block (the
 * program of a unit), invalidating the slots they had. The block's counters
 * change once. An old
 * slot in the same block is invalidated before the new ones count, which
 * is safe: the block is open, so it cannot be marked dead meanwhile. */
void map_set_run(Drive *d, const uint32_t *lpns, uint32_t n, uint32_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t lpn = lpns[k], old = map_get(d, lpn);
        if (old == NO_SLOT)
            ++*drive_mapped(d);
        else if (old < BUF_MARK)
            map_invalidate_slot(d, old);
        map_put(d, lpn, slot + k);
        map_put_lpn(d, slot + k, lpn);
        if (l2p_cache_on(d))
            l2p_update(d, lpn);
    }
    blk_valid(d)[b] += n;
    if (blk_mode(d)[b] == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        drive_counters(d)->pslc_used += (uint64_t)n * SLOT_SIZE;
}

/* Map n relocated slots (lpns, from srcs) to the next slots of dst. */
#define RELOCATE_RUN 64
static void relocate_run(Drive *d, uint32_t dst, const uint32_t *lpns, const uint32_t *srcs,
                         uint32_t n)
{
    uint32_t first = dst * drive_geom(d)->slots_per_block + blk_wp(d)[dst];
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
    uint32_t vbase = v * drive_geom(d)->slots_per_block;
    uint32_t n = 0, last_page = NO_IDX;
    *pages = 0;
    /* the map entries of the slots about to move are scattered over the
     * whole table: ask for them all before the first is needed */
    for (uint32_t c = *cursor, seen = 0; seen < want && c < blk_wp(d)[v]; c++) {
        uint32_t lpn = map_lpn_of(d, vbase + c);
        if (lpn != NO_LPN) {
            __builtin_prefetch(&drive_l2p_tab(d)[lpn], 1);
            seen++;
        }
    }
    /* the slots found go to dst in order: mapped a run at a time */
    uint32_t lpns[RELOCATE_RUN], srcs[RELOCATE_RUN], got = 0;
    while (n < want && *cursor < blk_wp(d)[v]) {
        uint32_t src = vbase + (*cursor)++;
        uint32_t lpn = map_lpn_of(d, src);
        if (lpn == NO_LPN)
            continue;
        uint32_t page = src / drive_geom(d)->slots_per_page;
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

