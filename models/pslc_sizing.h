/*
 * pslc_sizing.h - sizes of the pSLC write cache, as pure functions of
 * DriveParams (defined in models/pslc.c, beside the rules the drive applies
 * at run time).
 *
 * For `ftlsim check`, the config layer, the tests and docs/pslc.md: the
 * rules evaluated for a drive filled sequentially to a given share of its
 * user capacity, cache folded. A public header: it needs no part of the
 * drive (models/parts.h), so sim/ may include it.
 */
#ifndef FTLSIM_PSLC_SIZING_H
#define FTLSIM_PSLC_SIZING_H

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

#endif
