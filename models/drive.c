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
#include "models/map_store.h"
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
    sched_init(d, seed); /* read retries draw from it */
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
/* A run's class when nothing better is known: every page mapped at random. */
static const MemoryClass worst_class = {.random_fill = 1.0, .random_bytes = UINT64_MAX};

uint64_t drive_memory_estimate(const DriveParams *p, const MemoryClass *c)
{
    if (!c)
        c = &worst_class;
    uint64_t blocks = drive_params_blocks(p);
    uint64_t lpns = p->user_capacity / SLOT_SIZE;
    uint64_t tables = map_store_bytes(p, c);
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

void drive_expect(Drive *d, const MemoryClass *c) { map_expect_class(d, c); }

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
    {"commands", cmd_pool_check},         /* cmd.c: the free list, the counts outstanding */
    {"host interface", hostif_check}, /* hostif.c: in flight, held, non-queued */
    {"channels", chan_check},        /* chan.c: busy time within the timelines */
    {"link", link_check},            /* link.c: the kept transfer times, SATA's one lane */
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
