/*
 * parts.c - the Drive record: the engine, the parameters, the counters, the
 * geometry and a pointer to each part's private state.
 *
 * The bottom of models/: it calls nothing, so every part may reach the
 * drive's shared values through it without a cycle in the call graph.
 */
#include "models/parts.h"
#include "models/blocks_impl.h"
#include "models/map_tab.h"

struct Drive {
    SimEngine *eng;
    DriveParams p;
    DriveStats st;

    Geom g;
    void *part[DRIVE_PARTS];
    Blocks blocks; /* blocks.c's, in place (blocks_impl.h) */

    /* mapping: map_tab.h says what the values mean, map.c maintains them */
    uint32_t *l2p_tab; /* nlpn: slot, NO_SLOT, or BUF_MARK + ring position */
    uint32_t *p2l_tab; /* nslots: lpn or NO_LPN (slot not valid) */
    uint64_t mapped; /* lpns mapped (to NAND or buffer) */

    /* test hook: called for every slot programmed (src NO_SLOT: from the buffer) */
    DrivePlaceFn place_hook;
    void *place_ctx;
};

Drive *drive_record_new(SimEngine *eng, const DriveParams *p, const Geom *g)
{
    Drive *d = g_new0(Drive, 1);
    d->eng = eng;
    d->p = *p;
    d->g = *g;
    return d;
}

void drive_record_free(Drive *d) { g_free(d); }

SimEngine *drive_engine(const Drive *d) { return d->eng; }
const DriveParams *drive_params(const Drive *d) { return &d->p; }
const DriveStats *drive_stats(const Drive *d) { return &d->st; }
DriveStats *drive_counters(Drive *d) { return &d->st; }
const Geom *drive_geom(const Drive *d) { return &d->g; }
/* As drive_mapped(): the const drive of a reader still gives blocks.c its
 * state. */
Blocks *drive_blocks(const Drive *d) { return (Blocks *)&d->blocks; }
void *drive_part(const Drive *d, DrivePart k) { return d->part[k]; }
void drive_set_part(Drive *d, DrivePart k, void *state) { d->part[k] = state; }

uint32_t *drive_l2p_tab(const Drive *d) { return d->l2p_tab; }
uint32_t *drive_p2l_tab(const Drive *d) { return d->p2l_tab; }
/* Like strchr(), a const drive gives a counter its callers may change:
 * the mapping's parts hold the drive const where they only read it. */
uint64_t *drive_mapped(const Drive *d) { return (uint64_t *)&d->mapped; }

void drive_set_map_tables(Drive *d, uint32_t *l2p, uint32_t *p2l)
{
    d->l2p_tab = l2p;
    d->p2l_tab = p2l;
}

void drive_set_place_hook(Drive *d, DrivePlaceFn fn, void *ctx)
{
    d->place_hook = fn;
    d->place_ctx = ctx;
}

DrivePlaceFn drive_place_hook(const Drive *d) { return d->place_hook; }
void *drive_place_ctx(const Drive *d) { return d->place_ctx; }
