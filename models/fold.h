/*
 * fold.h - folding: moving valid SLC data into native blocks (models/fold.c).
 */
#ifndef FTLSIM_FOLD_H
#define FTLSIM_FOLD_H

#include "models/parts.h"

void fold_init(Drive *d); /* registers folding with the scheduler (after pslc_init) */
void fold_release(Drive *d);
/* Each die's fold victim: a victim SLC data block of the die, not GC's,
 * its cursor within what was written (drive_check()). */
bool fold_check(const Drive *d, char *why, size_t why_len);

#endif
