/*
 * fdp.h - NVMe Flexible Data Placement (TP4146) in the FTL (models/fdp.c).
 *
 * A write names a placement identifier: a reclaim group (a set of dies)
 * and a reclaim unit handle. Each handle fills blocks of its own on each
 * die of its group; a block remembers the handle it was taken for (its
 * tag). GC keeps a persistently isolated handle's data in blocks of that
 * handle; an initially isolated handle's data GC moves into blocks the
 * handles share (FDP_SHARED), and that is counted as moved across.
 */
#ifndef FTLSIM_FDP_H
#define FTLSIM_FDP_H

#include "models/parts.h"

#define FDP_SHARED 0xFFFFu /* block tag: shared by the handles (GC of initial handles, prefill) */

void fdp_init(Drive *d); /* nothing without [fdp] handles */
void fdp_release(Drive *d);
bool fdp_on(const Drive *d);
uint32_t fdp_handles(const Drive *d);
/* The reclaim group die belongs to (dies split into equal runs). */
uint32_t fdp_group_of_die(const Drive *d, uint32_t die);
/* Slot of handle h's open block for host data on die (NO_BLOCK if none). */
uint32_t *fdp_host_open(const Drive *d, uint32_t die, uint32_t h);
/* Block b was taken for handle tag's host data (or FDP_SHARED); the same
 * for GC's copies (the reclaim unit it joins is GC's, not the host's). */
void fdp_block_taken(Drive *d, uint32_t b, uint32_t tag);
void fdp_gc_block_taken(Drive *d, uint32_t b, uint32_t tag);
/* [fdp] gc_unit = reclaim_unit: GC reclaims whole units. */
bool fdp_ru_gc(const Drive *d);
/* Blocks of units GC chose, waiting on die (any die), to be moved and erased. */
uint32_t fdp_pending(const Drive *d, uint32_t die);
bool fdp_pending_any(const Drive *d);
/* With gc_unit = reclaim_unit: b is an open block of a unit GC has not
 * chosen, which a handle (or a group's shared GC unit) is filling. */
bool fdp_ru_filling(const Drive *d, uint32_t b);
/* GC's victim on die with whole units: the next block of a unit chosen
 * before, else the best unit by score (over all its blocks' cap and
 * moved slots, their latest fill time) with a full block on die, all of
 * whose blocks go to be reclaimed; a block in no unit is scored alone.
 * cold: static wear leveling's block (or NO_BLOCK), whose unit goes first
 * unless GC is moving it already; a unit still being filled is closed for
 * it (its open blocks full, written to their end or not) while the dies
 * of its open blocks hold more than gc_soft_blocks free blocks.
 * NO_BLOCK when nothing can go. */
typedef uint32_t (*FdpMovedFn)(const Drive *d, uint32_t b);
typedef double (*FdpScoreFn)(const Drive *d, uint64_t cap, uint64_t v, SimTime stamp, SimTime now);
uint32_t fdp_ru_victim(Drive *d, uint32_t die, uint32_t cold, FdpMovedFn moved, FdpScoreFn score);
/* Dead block b (full, no valid data): whether it may be erased alone (it
 * is in no unit); else its unit goes to be reclaimed when all of its
 * blocks are dead, and false. */
bool fdp_ru_dead(Drive *d, uint32_t b);
uint32_t fdp_block_tag(const Drive *d, uint32_t b);
/* For tests: n more valid slots counted for block b's reclaim unit than
 * its blocks hold, as an update missed would leave (fdp_check() fails). */
void fdp_test_skew_valid(Drive *d, uint32_t b, int64_t n);
/* Where GC moves victim v's data on die: the slot of the handle's own
 * open block for GC, or NULL for the die's GC stream (STREAM_GC, shared
 * by the handles); in *tag the tag a new block there takes. */
uint32_t *fdp_gc_open(const Drive *d, uint32_t die, uint32_t v, uint32_t *tag);
/* Counters: host bytes of a write naming placement identifier pid, once
 * the drive accepted the command (also while its data is still in the
 * write buffer; nothing without FDP); host data of handle h programmed;
 * bytes GC moved from a block tagged from into one tagged to. */
void fdp_host_accepted(Drive *d, uint32_t pid, uint64_t bytes);
void fdp_host_programmed(Drive *d, uint32_t h, uint64_t bytes);
void fdp_gc_moved(Drive *d, uint32_t from, uint32_t to, uint64_t bytes);
/* Close every open host block of handle h, written or not to its end: a
 * reset zone's blocks, erased once empty (models/zns.c). */
void fdp_close_handle(Drive *d, uint32_t h);
/* Open blocks tagged as their handle, counters adding up to the drive's;
 * with gc_unit = reclaim_unit the units (their blocks, tags, valid slots
 * against their blocks', the lists to reclaim). */
bool fdp_check(const Drive *d, char *why, size_t why_len);

#endif
