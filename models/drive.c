/*
 * drive.c - the Drive object: made of its parts, and what the host side
 * reads of it (counters, lookups, the invariant checker).
 *
 * drive_new() creates the parts bottom up; each part that has work for
 * the dies registers it with the scheduler as it is created
 * (models/sched_rank.h gives the order). docs/architecture.md draws the
 * parts and who calls whom.
 */
#include "models/blocks.h"
#include "models/cmd.h"
#include "models/sched.h"
#include "models/pslc.h"
#include "models/nand.h"
#include "models/chan.h"
#include "models/link.h"
#include "models/ctrl.h"
#include "models/map.h"
#include "models/bigmem.h"
#include "models/ftl.h"
#include "models/fdp.h"
#include "models/zns.h"
#include "models/gc.h"
#include "models/fold.h"
#include "models/l2p_cache.h"
#include "models/trim.h"
#include "models/hostif.h"

#include "models/wear.h"

#include <math.h>
#include <string.h>

const char *die_work_name(DieWork w)
{
    static const char *const names[] = {"read", "host_program", "gc", "fold", "erase", "map"};
    return (unsigned)w < G_N_ELEMENTS(names) ? names[w] : "?";
}

const char *read_part_name(ReadPart p)
{
    static const char *const names[] = {"front", "map", "die_wait", "nand", "back"};
    return (unsigned)p < G_N_ELEMENTS(names) ? names[p] : "?";
}

const char *write_part_name(WritePart p)
{
    static const char *const names[] = {"front", "merge", "buffer_wait", "data"};
    return (unsigned)p < G_N_ELEMENTS(names) ? names[p] : "?";
}

const char *drive_phase_name(DrivePhase p)
{
    static const char *const names[] = {"idle", "pslc", "folding", "native", "gc", "read"};
    return p <= PHASE_READ ? names[p] : "?";
}

Drive *drive_new(SimEngine *engine, const DriveParams *p, uint64_t seed)
{
    Geom g;
    nand_geometry(&g, p);
    Drive *d = drive_record_new(engine, p, &g);
    (void)seed; /* nothing in the drive draws random numbers */
    nand_init(d);
    chan_init(d);
    wear_init(d);
    if (!map_init(d)) {
        drive_free(d);
        return NULL;
    }

    cmd_init(d);
    drive_counters(d)->pslc_first_exhausted = UINT64_MAX;
    link_init(d);
    ctrl_init(d);
    sched_init(d);
    hostif_init(d);
    pslc_init(d);
    l2p_cache_init(d); /* registers map writes with the scheduler */
    trim_init(d);
    gc_init(d);
    fold_init(d);
    zns_init(d);
    fdp_init(d);
    ftl_init(d);
    return d;
}

/* Measured (peak RSS of short runs of 2 to 1000 GB drives): the process
 * itself, its libraries, the engine, the histograms and pools take 4-7
 * MiB. */
#define MEMORY_BASE (7u << 20)
/* A random prefill sorts its map stores in buckets (models/prefill.c):
 * 8 bytes per page, up to 32 MiB. */
#define PREFILL_SORT_MAX (32u << 20)
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
    return lpns / MAP_CHUNK * map_runs_bytes((double)MAP_CHUNK / run) +
           copies * lpns / spb * map_runs_bytes(spb / run);
}

/* The overrides' hash (models/map.c): 16-byte cells, doubled past three
 * quarters' load, the old table held while the new one fills. */
static double hash_bytes(double n)
{
    double cells = 1024;
    while (n > cells * 0.75)
        cells *= 2;
    return cells > 1024 ? 24 * cells : 16 * cells;
}

/* A page-aligned mapping of n bytes. */
static double mapped(double n) { return ceil(n / 4096) * 4096; }

/* The map's memory (models/map.c) for a run of class c:
 *   - its directories, mapped whole: per chunk of MAP_CHUNK lpns a dense
 *     part's pointer, a count and a run list's pointer; per chunk of slots
 *     a P2L part's pointer; per block a run list's pointer and the
 *     formula's two indexes;
 *   - data written in order: runs of a program unit, of SLC for the share
 *     a pSLC cache takes first (folding moves it in pieces that long),
 *     native for the rest; as single pages where a unit is shorter than
 *     MAP_RUN_MIN;
 *   - pages changed at random: overrides in the hash, or, once a chunk
 *     would hold more than CHUNK_PROMOTE / 4 of them (map_expect_random()
 *     for a random prefill), a dense part per chunk;
 *   - P2L parts (4096 entries) for the slots written outside runs and the
 *     prefill formula; parts and dense parts come from 2 MiB slabs;
 *   - the write buffer's marks in a hash of their own. */
static uint64_t map_bytes(const DriveParams *p, const MemoryClass *c)
{
    double lpns = (double)(p->user_capacity / SLOT_SIZE);
    double slots = (double)(drive_params_raw_capacity(p) / SLOT_SIZE);
    double blocks = (double)drive_params_blocks(p);
    double ent = drive_params_narrow_map(p) ? 4 : 8;
    double chunks = ceil(lpns / MAP_CHUNK), pchunks = ceil(slots / MAP_CHUNK);
    double dirs = mapped(chunks * 8) * 2 + mapped(chunks * 2) + mapped(pchunks * 8) +
                  mapped(blocks * 8) + blocks * 8;

    uint64_t unit = drive_params_map_unit(p) / SLOT_SIZE;
    uint64_t bs = c->random_bs ? c->random_bs : SLOT_SIZE;
    double changed =
        MIN(random_writes(c) * (double)((bs / SLOT_SIZE + unit - 1) / unit * unit), lpns);
    double seq = MIN(c->seq_fill, 1.0) * lpns, single = 0, runs = 0;
    double spb = slots / blocks;
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
    for (int i = 0; i < 2; i++) {
        if (run[i] >= MAP_RUN_MIN)
            runs += runs_bytes(pieces[i], run[i], spb, 2 - i);
        else
            single += pieces[i];
    }
    /* a random prefill maps every page; written again at random, a page
     * is an override until its chunk holds a quarter of CHUNK_PROMOTE */
    double part = MAP_CHUNK * ent;
    double l2p;
    double at_random = MIN(single + c->random_fill * lpns + changed, lpns);
    double dense_all = (double)bigmem_pool_bytes((size_t)part, (uint64_t)chunks);
    bool prefill_dense = c->random_fill * lpns * 4 >= 2048.0 * chunks;
    if (prefill_dense)
        l2p = dense_all; /* dense from the start: map_expect_random() */
    else if (at_random * 4 >= 2048.0 * chunks)
        l2p = dense_all + hash_bytes(MIN(at_random, 512.0 * chunks));
    else
        l2p = hash_bytes(at_random);
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
    /* a direct-mapped table of twice the buffer's pages, 16 bytes a cell;
     * the few a cell already held, in a hash */
    double marks = MAX(2.0 * (double)drive_params_write_buffer(p) / SLOT_SIZE, 1024) * 16 +
                   hash_bytes((double)drive_params_write_buffer(p) / SLOT_SIZE / 4);
    return (uint64_t)(dirs + l2p + p2l + runs + marks);
}

/* A run's class when nothing better is known: every page mapped at random. */
static const MemoryClass worst_class = {.random_fill = 1.0, .random_bytes = UINT64_MAX};

uint64_t drive_memory_estimate(const DriveParams *p, const MemoryClass *c)
{
    if (!c)
        c = &worst_class;
    uint64_t blocks = drive_params_blocks(p);
    uint64_t lpns = p->user_capacity / SLOT_SIZE;
    uint64_t tables = map_bytes(p, c);
    /* per block: state, mode, write pointer, valid count, erases, stamp,
     * dead flag, free and dead stacks, mapping kind (32 bytes);
     * the mapping cache's per-translation-page arrays; the write buffer's
     * ring (a 64-bit lpn and a flag per 4 KiB: the data itself is not kept) */
    uint64_t bytes = tables + blocks * 32;
    if (p->l2p_kind != L2P_DRAM)
        bytes += drive_params_l2p_bytes(p) / p->page_size * 48;
    bytes += drive_params_write_buffer(p) / SLOT_SIZE * 9;
    /* the records of the commands in flight and of their NAND reads */
    bytes += drive_params_queue_limit(p) * sizeof(Cmd) + sched_table_bytes(drive_params_queue_limit(p));
    if (c->random_fill > 0)
        bytes += MIN(lpns * 8, PREFILL_SORT_MAX);
    return bytes + MEMORY_BASE;
}

void drive_free(Drive *d)
{
    if (!d)
        return;
    trim_release(d);
    fold_release(d);
    gc_release(d);
    l2p_cache_release(d);
    pslc_release(d);
    sched_release(d);
    ctrl_release(d);
    link_release(d);
    wear_release(d);
    chan_release(d);
    blocks_release(d);
    map_release(d);
    hostif_release(d);
    cmd_release(d);
    ftl_release(d);
    fdp_release(d);
    zns_release(d);
    drive_record_free(d);
}

void drive_account(Drive *d)
{
    sched_account_all(d);
    drive_counters(d)->buf_held_bytes = ftl_buffered_bytes(d);
}
uint64_t drive_capacity(const Drive *d) { return drive_params(d)->user_capacity; }
uint64_t drive_slots(const Drive *d) { return drive_geom(d)->nslots; }

void drive_warm(const Drive *d, uint64_t offset)
{
    if (offset < drive_params(d)->user_capacity)
        map_prefetch_one(d, offset / SLOT_SIZE);
}

uint64_t drive_lookup(const Drive *d, uint64_t lpn)
{
    g_return_val_if_fail(lpn < drive_geom(d)->nlpn, DRIVE_UNMAPPED);
    uint64_t v = map_get(d, lpn);
    if (v == NO_SLOT)
        return DRIVE_UNMAPPED;
    return v >= BUF_MARK ? DRIVE_BUFFERED : v;
}

/* ---- Invariants ----------------------------------------------------------
 * Each part with state checks it in its own file (x_check(), declared in
 * its header beside the part's other functions) and drive_check() only
 * runs them, in this order: the block state first, which the others read,
 * then the parts above it. The first that fails is reported under the
 * part's name. A new part with state adds its check here. */

typedef bool (*PartCheckFn)(const Drive *d, char *why, size_t why_len);

static const struct {
    const char *part;
    PartCheckFn check;
} part_checks[] = {
    {"blocks", blocks_check},        /* blocks.c: block state, free/open/dead lists, counts */
    {"wear", wear_check},            /* wear.c: erase counts, histogram, gauges, cold blocks */
    {"map", map_check},              /* map.c: the store, L2P against P2L, valid counts */
    {"write buffer", ftl_check},     /* ftl.c: the ring against the L2P's buffer marks */
    {"pSLC cache", pslc_check},      /* pslc.c: SLC block counts, used bytes, limits */
    {"GC", gc_check},                /* gc.c: debt and ratio per die */
    {"folding", fold_check},         /* fold.c: each die's fold victim and cursor */
    {"mapping cache", l2p_check},    /* l2p_cache.c: map blocks, versions, LRU */
    {"TRIM", trim_check},            /* trim.c: the deferred work's queue */
    {"scheduler", sched_check},      /* sched.c: idle dies, read queues */
    {"controller", ctrl_check},      /* ctrl.c: each core's pieces of work */
    {"FDP", fdp_check},              /* fdp.c: handles' open blocks, counters, reclaim units */
    {"ZNS", zns_check},              /* zns.c: zone states, open and active counts */
};

/* A best GC victim that frees less than 1 / DRIVE_CRAWL_SHARE of its
 * slots: each block freed costs over a hundred slots of relocation. */
#define DRIVE_CRAWL_SHARE 100u

bool drive_stall_reason(const Drive *d, char *why, size_t why_len)
{
    const Geom *g = drive_geom(d);
    uint32_t hard = drive_params(d)->gc_hard_blocks, worst = 0, fewest = UINT32_MAX;
    for (uint32_t i = 0; i < g->dies; i++)
        if (die_nfree(d, i) < fewest) {
            fewest = die_nfree(d, i);
            worst = i;
        }
    /* the most a GC victim of that die would give back, slots */
    uint32_t best = 0, cap = 0, full = 0;
    for (uint32_t b = worst * g->blocks_per_die; b < (worst + 1) * g->blocks_per_die; b++) {
        int st = blk_state(d, b);
        if (nand_is_static(d, b) || (st != BLK_FULL && st != BLK_VICTIM))
            continue;
        full++;
        uint32_t c = nand_block_capacity(d, b), v = blk_valid(d, b);
        if (c - MIN(v, c) >= best) {
            best = c - MIN(v, c);
            cap = c;
        }
    }
    if (fewest > hard) {
        g_snprintf(why, why_len, "every die has free blocks (%u or more, above hard_blocks = %u)",
                   fewest, hard);
        return false;
    }
    if (best == 0)
        g_snprintf(why, why_len,
                   "no free block can be made: die %u has %u free block%s (host writes wait at "
                   "hard_blocks = %u) and its %u full blocks hold only valid data, so GC has "
                   "nothing to reclaim",
                   worst, fewest, fewest == 1 ? "" : "s", hard, full);
    else
        g_snprintf(why, why_len,
                   "die %u has %u free block%s (host writes wait at hard_blocks = %u) and the "
                   "best of its %u full blocks as a GC victim frees %u of its %u slots: each "
                   "block GC frees costs %.0f slots of relocation",
                   worst, fewest, fewest == 1 ? "" : "s", hard, full, best, cap,
                   (double)(cap - best) / best);
    /* a victim that frees a useful share is GC at work, not a lock-up */
    return best == 0 || best * DRIVE_CRAWL_SHARE < cap;
}

bool drive_check(const Drive *d, char *why, size_t why_len)
{
    for (size_t k = 0; k < G_N_ELEMENTS(part_checks); k++) {
        char msg[256] = "";
        if (part_checks[k].check(d, msg, sizeof msg))
            continue;
        if (why)
            g_snprintf(why, why_len, "%s: %s", part_checks[k].part, msg);
        return false;
    }
    return true;
}
