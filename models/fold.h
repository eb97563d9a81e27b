/*
 * fold.h - folding: moving valid SLC data into native blocks (models/fold.c).
 */
#ifndef FTLSIM_FOLD_H
#define FTLSIM_FOLD_H

#include "models/parts.h"

void fold_init(Drive *d); /* registers folding with the scheduler (after pslc_init) */
void fold_release(Drive *d);

#endif
