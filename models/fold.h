/*
 * fold.h - folding: moving valid SLC data into native blocks (models/fold.c).
 */
#ifndef FTLSIM_FOLD_H
#define FTLSIM_FOLD_H

#include "models/parts.h"

/* One fold operation on die (a program unit moved, or an empty SLC block
 * erased). dyn_only restricts victims to dynamic blocks; take_open allows
 * closing an open SLC block to fold it. False if nothing could start. */
bool fold_step(Drive *d, uint32_t die, bool dyn_only, bool take_open);
void fold_init(Drive *d); /* registers folding with the scheduler (after pslc_init) */
void fold_release(Drive *d);

#endif
