/*
 * sched_rank.h - the order in which an idle die takes work, after its reads.
 *
 * Each owner registers its work at one of these ranks (sched_add()):
 * GC when the die's free blocks are at or below the hard threshold (host
 * writes to it are blocked meanwhile); dirty translation pages waiting to
 * be written (l2p_cache.c); below the soft threshold, GC owed for the host
 * data written (below); folding that cannot wait (SLC data no longer
 * foldable with the reserve kept), then active folding owed for host data
 * written (fold.c, pslc.c); a program unit of host data from the write
 * buffer (ftl.c); with [pslc] fold_background, folding in the die time
 * host writes leave; idle folding once the host has been quiet for
 * fold_idle_delay; the erase of a full block with no valid data left
 * (gc_reclaim_dead); background GC below the soft threshold when nothing
 * else is waiting; with [gc] idle_blocks, idle GC up to that many free
 * blocks once the host has not written for [gc] idle_delay.
 *
 * Below the soft threshold GC is paced rather than left to the hard stop:
 * every host slot written there costs a free slot, and reclaiming a victim
 * with v of its cap slots valid frees cap - v slots for v moved, so each host
 * slot adds v / (cap - v) slots to the die's GC debt, paid before its next
 * host program. Free space then holds steady under sustained writes instead
 * of falling to the hard threshold and stalling the host for whole victims.
 */
#ifndef FTLSIM_SCHED_RANK_H
#define FTLSIM_SCHED_RANK_H

enum {
    RANK_GC_HARD = 10,
    RANK_MAP_FLUSH = 20,
    RANK_GC_PACED = 30,
    RANK_FOLD_FORCED = 40,
    RANK_FOLD_OWED = 50,
    RANK_HOST_PROGRAM = 60,
    RANK_FOLD_BACKGROUND = 65,
    RANK_FOLD_IDLE = 70,
    RANK_RECLAIM_DEAD = 80,
    RANK_GC_BACKGROUND = 90,
    RANK_GC_IDLE = 95,
};

#endif
