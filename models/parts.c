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
    void **l2p_dir;  /* per chunk of MAP_CHUNK lpns: its dense part, or NULL */
    void **p2l_dir;  /* per chunk of MAP_CHUNK slots: its P2L entries, or NULL */
    void *l2p_flat;  /* every chunk's dense part in one table, in order, or NULL */
    void *p2l_flat;  /* every chunk's P2L entries in one table, in order, or NULL */
    bool map_narrow; /* entries of 4 bytes (else 8) */
    uint64_t map_pf_end; /* lpns from here on: none the prefill formula gives */
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

void **drive_l2p_dir(const Drive *d) { return d->l2p_dir; }
void **drive_p2l_dir(const Drive *d) { return d->p2l_dir; }
bool drive_map_narrow(const Drive *d) { return d->map_narrow; }
void *drive_l2p_flat(const Drive *d) { return d->l2p_flat; }
void *drive_p2l_flat(const Drive *d) { return d->p2l_flat; }
uint64_t drive_map_pf_end(const Drive *d) { return d->map_pf_end; }
void drive_set_map_pf_end(Drive *d, uint64_t end) { d->map_pf_end = end; }
/* Like strchr(), a const drive gives a counter its callers may change:
 * the mapping's parts hold the drive const where they only read it. */
uint64_t *drive_mapped(const Drive *d) { return (uint64_t *)&d->mapped; }

void drive_set_map_dirs(Drive *d, void **l2p, void **p2l, bool narrow)
{
    d->l2p_dir = l2p;
    d->p2l_dir = p2l;
    d->map_narrow = narrow;
}

void drive_set_map_flat(Drive *d, void *l2p, void *p2l)
{
    d->l2p_flat = l2p;
    d->p2l_flat = p2l;
}

void drive_set_place_hook(Drive *d, DrivePlaceFn fn, void *ctx)
{
    d->place_hook = fn;
    d->place_ctx = ctx;
}

DrivePlaceFn drive_place_hook(const Drive *d) { return d->place_hook; }
void *drive_place_ctx(const Drive *d) { return d->place_ctx; }
