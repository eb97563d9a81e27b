/*
 * pslc.h - sizes of the pSLC write cache, as pure functions of DriveParams.
 *
 * For `ftlsim check`, the tests and docs/pslc.md: the same rules the drive
 * applies at run time (models/pslc.c), evaluated for a drive filled
 * sequentially to a given share of its user capacity, cache folded.
 */
#ifndef FTLSIM_PSLC_H
#define FTLSIM_PSLC_H

#include "models/drive_params.h"

/* Static SLC blocks per die: ceil(static / (SLC block bytes x dies)). */
uint32_t pslc_static_blocks(const DriveParams *p);
/* Spare blocks per die: the pool (blocks less static SLC ones) less the
 * native blocks the user capacity fills, 0 if it fills them all. */
uint32_t pslc_spare_blocks(const DriveParams *p);
/* Whether a drive of p has a pSLC cache: a static or a dynamic part, on
 * cells whose native mode is not SLC. */
bool pslc_params_cache(const DriveParams *p);
/* Bytes of host data the static part holds (whole blocks, so >= [pslc] static). */
uint64_t pslc_static_capacity(const DriveParams *p);
/* Bytes of host data the dynamic part may hold when the drive holds
 * logical_fill (0..1) of its user capacity in native blocks. */
uint64_t pslc_dynamic_limit_at(const DriveParams *p, double logical_fill);
/* Name of a sizing rule ("none", "capped", "free_share"). */
const char *pslc_rule_name(PslcRule r);

/* ---- At run time: the limits, where host data goes, fold triggers, idle
 * detection (models/pslc.c), for the other parts of the drive ------------ */

#include "models/parts.h"

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
