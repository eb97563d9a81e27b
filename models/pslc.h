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
/* Bytes of host data the static part holds (whole blocks, so >= [pslc] static). */
uint64_t pslc_static_capacity(const DriveParams *p);
/* Bytes of host data the dynamic part may hold when the drive holds
 * logical_fill (0..1) of its user capacity in native blocks. */
uint64_t pslc_dynamic_limit_at(const DriveParams *p, double logical_fill);
/* Name of a sizing rule ("none", "capped", "free_share"). */
const char *pslc_rule_name(PslcRule r);

#endif
