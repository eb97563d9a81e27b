/*
 * blocks_impl.h - the block state's record, for blocks.c and the drive
 * record (parts.c), which holds it in place: one load less on every
 * per-page path than a pointer to it would cost. Nothing else includes it.
 */
#ifndef FTLSIM_BLOCKS_IMPL_H
#define FTLSIM_BLOCKS_IMPL_H

#include "models/blocks.h"

typedef struct BlkDie {
    uint32_t *free_blocks; /* stack of free block ids */
    uint32_t nfree;
    uint32_t *sfree_blocks; /* stack of free static SLC blocks */
    uint32_t nsfree;
    uint32_t *dead; /* stack of full blocks whose last valid slot went */
    uint32_t ndead;
    uint32_t open[STREAMS];
    uint32_t victim, victim_cursor;
    uint32_t slc_dyn; /* dynamic SLC blocks not free (open, full, victim) */
} BlkDie;

typedef struct Blocks {
    uint8_t *state, *mode, *dead, *kind;
    uint32_t *wp, *valid;
    uint64_t *stamp;
    BlkDie *die;
    uint32_t dies_low; /* dies with fewer than gc_soft_blocks free */
    uint32_t victims;  /* dies with a victim */
    uint32_t ndead;    /* blocks on the dead stacks */
    BlocksHeldFn held; /* open blocks a part keeps outside the streams (blocks_set_held()) */
    BlocksValidFn on_valid; /* told of each change of a valid count (blocks_set_on_valid()) */
    BlocksGrowFn on_grow;   /* told when a count above grows (blocks_set_on_grow()) */
    BlocksFaultFn fault;    /* told of a transition out of turn (FTLSIM_DEBUG builds only) */
} Blocks;

/* The block state of d (parts.c). */
Blocks *drive_blocks(const Drive *d);

#endif
