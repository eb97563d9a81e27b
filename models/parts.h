/*
 * parts.h - what every part of the drive reaches through the Drive: the
 * engine, the parameters, the counters, the geometry, and each part's own
 * state (models/parts.c).
 *
 * The Drive record is private to parts.c. A part keeps its state in a
 * struct private to its .c file and hangs it on the drive at creation
 * (drive_set_part()); the others call its functions. The block state is
 * held in place instead (blocks_impl.h), being on every per-page path. Every accessor is a
 * one-line function: release builds link with -flto, which inlines them.
 */
#ifndef FTLSIM_PARTS_H
#define FTLSIM_PARTS_H

#include "models/drive.h"
#include "models/geom.h"

#define NO_IDX UINT32_MAX /* end of an index-linked list, or none */

/* Each part's private state, one slot per part. */
typedef enum DrivePart {
    DP_CHAN,   /* channel timelines (chan.c) */
    DP_CMDS,   /* struct CmdPool: the command records (cmd.c) */
    DP_HOSTIF, /* struct HostIf: the queue, non-queued commands (hostif.c) */
    DP_LINK,   /* struct Link (link.c) */
    DP_CTRL,   /* struct Ctrl: the firmware cores (ctrl.c) */
    DP_SCHED,  /* struct Sched (sched.c) */
    DP_WEAR,   /* struct Wear (wear.c) */
    DP_PSLC,   /* struct Pslc (pslc.c) */
    DP_GC,     /* struct Gc: victims and pacing per die (gc.c) */
    DP_FOLD,   /* struct Fold: fold victims per die (fold.c) */
    DP_L2PC,   /* struct L2pCache (l2p_cache.c); NULL with l2p_kind dram */
    DP_TRIM,   /* struct TrimQueue (trim.c) */
    DP_WBUF,   /* struct Wbuf (ftl.c) */
    DP_MAP,    /* struct Map: who is told of changes (map.c) */
    DP_MAP_STORE, /* struct SparseMap: the L2P and P2L entries (map_store.c) */
    DP_ZNS,    /* struct Zns: zone states and write pointers (zns.c); NULL without zones */
    DP_FDP,    /* struct Fdp: reclaim unit handles, their open blocks and counts (fdp.c); NULL without FDP */
    DRIVE_PARTS
} DrivePart;

/* A drive record with no parts yet; drive_new() adds them. */
Drive *drive_record_new(SimEngine *eng, const DriveParams *p, const Geom *g);
void drive_record_free(Drive *d);

SimEngine *drive_engine(const Drive *d);
DriveStats *drive_counters(Drive *d); /* drive_stats() is the read-only view */
void *drive_part(const Drive *d, DrivePart k);
void drive_set_part(Drive *d, DrivePart k, void *state);

/* The test hook drive_set_place_hook() set, NULL if none. */
DrivePlaceFn drive_place_hook(const Drive *d);
void *drive_place_ctx(const Drive *d);

/* For the invariant checkers (bool f(..., char *why, size_t why_len)): when
 * cond is false, describe it in why and return false. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (why)                                                                               \
                g_snprintf(why, why_len, __VA_ARGS__);                                             \
            return false;                                                                          \
        }                                                                                          \
    } while (0)

#endif
