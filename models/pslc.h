/*
 * pslc.h - the pSLC write cache at run time (models/pslc.c): its limits,
 * where host data goes, fold triggers, idle detection, for the other parts
 * of the drive. Its sizes as pure functions of DriveParams, which the
 * config layer uses too, are in models/pslc_sizing.h.
 */
#ifndef FTLSIM_PSLC_H
#define FTLSIM_PSLC_H

#include "models/parts.h"
#include "models/pslc_sizing.h"

void pslc_init(Drive *d);
void pslc_release(Drive *d);
bool pslc_has_cache(const Drive *d); /* a static or dynamic part exists */
bool pslc_idle_folding(const Drive *d); /* the host has been idle for fold_idle_delay */
bool pslc_exhausted(const Drive *d, uint32_t die); /* the die's cache ran out */
bool pslc_fold_owed(const Drive *d, uint32_t die); /* active folding owed for host data written */
bool pslc_fold_background(const Drive *d, uint32_t die); /* fold_background: fold in die time host writes leave */
void pslc_folded(Drive *d, uint32_t die, uint32_t slots); /* a fold moved slots: pays the credit */
uint32_t pslc_dyn_limit(const Drive *d, uint32_t die); /* dynamic SLC blocks the rule allows now */
bool pslc_check(const Drive *d, char *why, size_t why_len); /* the pSLC counters */
void pslc_update_limit(Drive *d, uint32_t die); /* after the die's free or SLC blocks changed */
int pslc_host_stream(Drive *d, uint32_t die);   /* STREAM_SSLC, STREAM_SLC or STREAM_HOST */
void pslc_host_programmed(Drive *d, uint32_t die, int stream, uint32_t slots);
uint32_t pslc_slc_blocks(const Drive *d, uint32_t die); /* SLC blocks in use, static + dynamic */
bool pslc_fold_forced(const Drive *d, uint32_t die);    /* SLC data no longer foldable with margin */
void pslc_host_busy(Drive *d);  /* a host command arrived */
void pslc_host_quiet(Drive *d); /* no host command outstanding */
void pslc_trimmed(Drive *d);    /* a TRIM unmapped data: re-arm the cache */

#endif
