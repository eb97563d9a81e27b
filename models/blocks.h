/*
 * blocks.h - the state of every block and each die's lists of blocks
 * (models/blocks.c).
 *
 * Per block, flat arrays indexed by block id (struct of arrays, nblocks
 * each), private to blocks.c: the parts that program, map, collect and
 * fold blocks read and write them through the functions below on their
 * per-page paths. Per die: the free stacks (normal and static
 * SLC), the dead stack (full blocks with no valid slot, for GC to erase),
 * the open block of each write stream, the block being collected and the
 * dynamic SLC blocks in use. Taking and returning blocks is nand.c's, which
 * sits above wear leveling and the pSLC sizing; this file calls nothing,
 * so every part may read the blocks.
 */
#ifndef FTLSIM_BLOCKS_H
#define FTLSIM_BLOCKS_H

#include "models/parts.h"

#define NO_BLOCK UINT32_MAX

/* Block states. */
enum { BLK_FREE = 0, BLK_OPEN = 1, BLK_FULL = 2, BLK_VICTIM = 3 };

/* Write streams: one open block per die per stream. STREAM_SLC writes
 * dynamic SLC blocks (taken from the free list), STREAM_SSLC the static SLC
 * blocks, STREAM_FOLD is the native destination of folding. Translation
 * pages have their own open block per die (l2p_cache.c). */
enum { STREAM_HOST = 0, STREAM_GC = 1, STREAM_SLC = 2, STREAM_FOLD = 3, STREAM_SSLC = 4, STREAMS = 5 };

/* Block kinds (kept only with a mapping cache). */
enum { BLK_DATA = 0, BLK_MAP = 1 };

/* Every block free and erased, in the native mode (static SLC blocks in
 * SLC); each die's stacks give the lowest block id first. */
void blocks_init(Drive *d);
void blocks_release(Drive *d);

/* Per block b. The arrays stay private to blocks.c: every read and write
 * goes through these (release builds inline them, -flto). */
int blk_state(const Drive *d, uint32_t b);   /* BLK_FREE ... BLK_VICTIM */
CellMode blk_mode(const Drive *d, uint32_t b);
uint32_t blk_wp(const Drive *d, uint32_t b);    /* slots written */
uint32_t blk_valid(const Drive *d, uint32_t b); /* slots valid */
uint64_t blk_stamp(const Drive *d, uint32_t b); /* when it was filled (ns), for FIFO and cost-benefit */
bool blk_is_map(const Drive *d, uint32_t b);  /* holds translation pages (BLK_MAP) */
bool blk_is_dead(const Drive *d, uint32_t b); /* on its die's dead stack */
/* Greedy GC's scan, on the arrays: the first full block of [lo, hi) with
 * the fewest slots to move (its valid slots, times map_cost for a block of
 * translation pages), if fewer than below; NO_BLOCK if none. A victim is
 * picked this way once per block reclaimed, over all of its die's blocks. */
uint32_t blk_fewest_valid(const Drive *d, uint32_t lo, uint32_t hi, uint32_t below,
                          uint32_t map_cost);
/* slots block b holds in its current mode */
uint32_t nand_block_capacity(const Drive *d, uint32_t b);

/* ---- Transitions ---------------------------------------------------------
 * A block goes FREE -> OPEN (blk_open) -> FULL (blk_close) -> VICTIM
 * (blk_take_victim) -> FREE (blk_erase), and prefill may hand a victim
 * back (blk_return_victim). Each transition requires its from-state, and
 * the counts below their bounds. Builds with FTLSIM_DEBUG (the tests',
 * CMakeLists.txt) check these preconditions: a call out of turn aborts,
 * naming the block and what was wrong, or, with a hook set by
 * blocks_set_fault_hook(), is reported to the hook and not applied.
 * Release builds compile no check in: these stay one or two stores. */

/* FREE -> OPEN: taken off a free stack to be written in mode m, empty. */
void blk_open(Drive *d, uint32_t b, CellMode m);
/* OPEN -> FULL at time at (ns), its stamp; written to its end or not (the
 * rest stays unwritten until its erase). */
void blk_close(Drive *d, uint32_t b, uint64_t at);
/* FULL -> VICTIM: taken by GC or folding, no longer a destination. */
void blk_take_victim(Drive *d, uint32_t b);
/* VICTIM -> FULL: a victim given back before anything of it moved. */
void blk_return_victim(Drive *d, uint32_t b);
/* VICTIM -> FREE: erased, with no valid slot left; nothing written. */
void blk_erase(Drive *d, uint32_t b);
/* An open block nothing was written to becomes a map block in SLC mode
 * (BLK_MAP; with a mapping cache). */
void blk_make_map(Drive *d, uint32_t b);
/* A map block taken as a victim goes back to a native data block, as it
 * will be once erased. */
void blk_make_data(Drive *d, uint32_t b);
/* n more slots written to open block b, within what it holds (n = 0: a
 * no-op, in any state). */
void blk_advance(Drive *d, uint32_t b, uint32_t n);
/* n more valid slots in open block b (before or after blk_advance() for
 * them), within what it holds (n = 0: a no-op, in any state). */
void blk_add_valid(Drive *d, uint32_t b, uint32_t n);
/* n of b's valid slots are no longer valid (b not free, n at most its valid
 * count); returns the valid slots left. */
uint32_t blk_drop_valid(Drive *d, uint32_t b, uint32_t n);

/* Told of a transition called out of turn (FTLSIM_DEBUG builds): the block
 * and what was wrong. Tests set one to see a misuse caught; NULL restores
 * the abort. Returns whether this build checks transitions at all. */
typedef void (*BlocksFaultFn)(const Drive *d, uint32_t b, const char *what);
bool blocks_set_fault_hook(Drive *d, BlocksFaultFn fault);

/* For tests of the checkers only: set block b's state and valid count as
 * given, unchecked, to break the invariants on purpose (tests/test_check.c).
 * The model never calls it. */
void blk_corrupt(Drive *d, uint32_t b, int state, uint32_t valid);

/* A die's free stack (stat: the static SLC one): its entries, top last,
 * and their number; taking the k-th off (the others keep their order)
 * and pushing an erased block onto its die's stack (nand.c). The count of
 * dies low on free blocks follows. */
const uint32_t *die_free_list(const Drive *d, uint32_t die, bool stat, uint32_t *n);
uint32_t die_remove_free(Drive *d, uint32_t die, bool stat, uint32_t k);
void die_push_free(Drive *d, uint32_t b);
uint32_t die_nfree(const Drive *d, uint32_t die);
uint32_t die_nsfree(const Drive *d, uint32_t die);
uint32_t die_slc_dyn(const Drive *d, uint32_t die); /* dynamic SLC blocks not free */
void die_add_slc_dyn(Drive *d, uint32_t die, int n);
/* The open block of each write stream, NO_BLOCK if none. */
uint32_t die_open(const Drive *d, uint32_t die, int stream);
void die_set_open(Drive *d, uint32_t die, int stream, uint32_t b);
uint32_t die_victim(const Drive *d, uint32_t die);         /* being collected, NO_BLOCK if none */
void die_set_victim(Drive *d, uint32_t die, uint32_t b);
uint32_t die_cursor(const Drive *d, uint32_t die); /* next slot index to scan in the victim */
void die_set_cursor(Drive *d, uint32_t die, uint32_t c);

/* Over all dies, for sources of work that ask whether any die may need
 * them (sched_add()): dies below gc_soft_blocks free blocks, dies with a
 * GC victim, blocks on dead stacks. */
uint32_t blocks_dies_low(const Drive *d);
uint32_t blocks_victims(const Drive *d);
uint32_t blocks_dead(const Drive *d);

/* Full block b has no valid slot left: onto its die's dead stack. */
void die_push_dead(Drive *d, uint32_t b);
uint32_t die_pop_dead(Drive *d, uint32_t die); /* NO_BLOCK if none */
uint32_t die_ndead(const Drive *d, uint32_t die);

/* A part that keeps open data blocks of its own, outside the die's
 * streams (FDP's reclaim unit handles, models/fdp.c), registers how many
 * it holds on a die, so that blocks_check() counts them with the streams'
 * (registered, not called by name: the part reads the blocks). */
typedef uint32_t (*BlocksHeldFn)(const Drive *d, uint32_t die);
void blocks_set_held(Drive *d, BlocksHeldFn held);
/* A part that keeps valid counts of its own over sets of blocks (FDP's
 * reclaim units) registers a function told of every change of a block's
 * valid slots, by blk_add_valid() (n > 0) and blk_drop_valid() (n < 0)
 * (registered, as above). */
typedef void (*BlocksValidFn)(Drive *d, uint32_t b, int64_t n);
void blocks_set_on_valid(Drive *d, BlocksValidFn on_valid);
/* GC registers a function told whenever blocks_dies_low(), blocks_victims()
 * or blocks_dead() grows, or a part calls blocks_grow() for a count of its
 * own that GC's sources ask about (a cold block to move, a reclaim unit's
 * blocks to reclaim): only then can GC's answer to the scheduler's "any
 * work?" turn from no to yes (sched_watch()). */
typedef void (*BlocksGrowFn)(Drive *d);
void blocks_set_on_grow(Drive *d, BlocksGrowFn on_grow);
void blocks_grow(Drive *d);

/* The block state's invariants: per block, a state and write pointer its
 * mode allows and no more valid slots than written; per die, the free
 * stacks (erased blocks of the die, each once, as many as the counts and
 * the free-blocks gauge say), the open blocks (open, of the die, with
 * room; with those a part holds), the victim and its cursor, the dead stack; the counts over all
 * dies the scheduler asks (drive_check()). */
bool blocks_check(const Drive *d, char *why, size_t why_len);

#endif
