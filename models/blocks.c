/*
 * blocks.c - the state of every block and each die's lists of blocks.
 *
 * Private arrays and per-die records, reached through the functions of
 * blocks.h. The record sits inside the drive record (blocks_impl.h, seen
 * by this file and parts.c only), and release builds inline the functions
 * (-flto), so indexing blk_valid(d)[b] costs one load for the array, as
 * when it was a field of the drive: the per-page paths (map.c) index
 * these arrays for every slot.
 */
#include "models/blocks_impl.h"

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

uint8_t *blk_state(const Drive *d) { return blocks(d)->state; }
uint8_t *blk_mode(const Drive *d) { return blocks(d)->mode; }
uint32_t *blk_wp(const Drive *d) { return blocks(d)->wp; }
uint32_t *blk_valid(const Drive *d) { return blocks(d)->valid; }
uint64_t *blk_stamp(const Drive *d) { return blocks(d)->stamp; }
uint8_t *blk_kind(const Drive *d) { return blocks(d)->kind; }
bool blk_is_map(const Drive *d, uint32_t b) { return blocks(d)->kind && blocks(d)->kind[b] == BLK_MAP; }
bool blk_is_dead(const Drive *d, uint32_t b) { return blocks(d)->dead[b]; }

uint32_t nand_block_capacity(const Drive *d, uint32_t b)
{
    return drive_geom(d)->mode_slots[blocks(d)->mode[b]];
}

uint32_t *die_free_stack(const Drive *d, uint32_t die, bool stat, uint32_t **n)
{
    BlkDie *dd = &blocks(d)->die[die];
    *n = stat ? &dd->nsfree : &dd->nfree;
    return stat ? dd->sfree_blocks : dd->free_blocks;
}

uint32_t die_nfree(const Drive *d, uint32_t die) { return blocks(d)->die[die].nfree; }
uint32_t die_nsfree(const Drive *d, uint32_t die) { return blocks(d)->die[die].nsfree; }
uint32_t die_slc_dyn(const Drive *d, uint32_t die) { return blocks(d)->die[die].slc_dyn; }
void die_add_slc_dyn(Drive *d, uint32_t die, int n) { blocks(d)->die[die].slc_dyn += (uint32_t)n; }
uint32_t *die_open(const Drive *d, uint32_t die) { return blocks(d)->die[die].open; }
uint32_t die_victim(const Drive *d, uint32_t die) { return blocks(d)->die[die].victim; }

void die_set_victim(Drive *d, uint32_t die, uint32_t b)
{
    Blocks *k = blocks(d);
    k->victims += (b != NO_BLOCK) - (k->die[die].victim != NO_BLOCK);
    k->die[die].victim = b;
}

void die_free_changed(Drive *d, uint32_t die, uint32_t before)
{
    uint32_t soft = drive_params(d)->gc_soft_blocks;
    blocks(d)->dies_low += (blocks(d)->die[die].nfree < soft) - (before < soft);
}

uint32_t blocks_dies_low(const Drive *d) { return blocks(d)->dies_low; }
uint32_t blocks_victims(const Drive *d) { return blocks(d)->victims; }
uint32_t blocks_dead(const Drive *d) { return blocks(d)->ndead; }
uint32_t *die_victim_cursor(const Drive *d, uint32_t die) { return &blocks(d)->die[die].victim_cursor; }

void die_push_dead(Drive *d, uint32_t b)
{
    Blocks *k = blocks(d);
    BlkDie *dd = &k->die[nand_die_of_block(d, b)];
    k->dead[b] = 1;
    dd->dead[dd->ndead++] = b;
    k->ndead++;
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
uint32_t die_dead_at(const Drive *d, uint32_t die, uint32_t k) { return blocks(d)->die[die].dead[k]; }
