/*
 * wear.h - wear leveling: erase counts, which free block a die takes, and
 * the cold blocks static leveling gives GC to move (models/wear.c).
 *
 * The state (counts, their histogram, the per-die floor and cold block) is
 * private to wear.c. Block ids are the drive's (nand.c); the free stacks
 * stay nand.c's, wear.c only says which entry to take.
 */
#ifndef FTLSIM_WEAR_H
#define FTLSIM_WEAR_H

#include "models/drive.h"

#include <stdbool.h>
#include <stdint.h>

/* Sets up the counts, all zero (after nand_init: uses the geometry). */
void wear_init(Drive *d);
void wear_release(Drive *d);
/* Every erase count back to zero (a new drive, or one aged by prefill). */
void wear_reset(Drive *d);
/* Static leveling on (as configured) or off (while prefill ages the drive). */
void wear_static_enable(Drive *d, bool on);

/* The index in stack[0 .. n) of the free block to take: the top, or with
 * [wear] dynamic the least-worn one nearest the top. */
uint32_t wear_pick_free(const Drive *d, const uint32_t *stack, uint32_t n);
/* Block b was erased: its count, the pool gauges in DriveStats, and for a
 * pool block past the die's floor by the threshold, the static check. */
void wear_erased(Drive *d, uint32_t b);

/* Static leveling chose a cold block on die that GC has not taken yet. */
bool wear_cold_waiting(const Drive *d, uint32_t die);
bool wear_cold_any(const Drive *d); /* some die has one waiting */
/* The erase counts against the histogram, the gauges, the floors and the
 * cold blocks (drive_check()). */
bool wear_check(const Drive *d, char *why, size_t why_len);
/* The cold block for GC to move now, NO_BLOCK (UINT32_MAX) if none or the
 * die is below its reserve; counted in DriveStats.wl_blocks. */
uint32_t wear_take_cold(Drive *d, uint32_t die);

#endif
