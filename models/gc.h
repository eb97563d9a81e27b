/*
 * gc.h - garbage collection and its pacing, die by die (models/gc.c).
 */
#ifndef FTLSIM_GC_H
#define FTLSIM_GC_H

#include "models/parts.h"

uint32_t gc_pick_victim(Drive *d, uint32_t die);
void gc_init(Drive *d); /* registers GC's work with the scheduler */
void gc_release(Drive *d);
void gc_set_ratio(Drive *d, uint32_t die, double ratio);
/* The most GC's pacing ratio may be: a full drive's steady state. */
double gc_ratio_cap(const Drive *d);
bool gc_paced(const Drive *d, uint32_t die); /* below the soft threshold: host programs owe GC */
void gc_owe(Drive *d, uint32_t die, bool paced, uint32_t slots);
/* Each die's debt and ratio: finite, not negative, the ratio at most a
 * block's slots (drive_check()). */
void gc_host_quiet(Drive *d); /* no host write outstanding: arms idle GC ([gc] idle_blocks) */
void gc_host_busy(Drive *d);  /* a host write arrived: ends idle GC after the step under way */
bool gc_check(const Drive *d, char *why, size_t why_len);

#endif
