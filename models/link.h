/*
 * link.h - the host link timelines (models/link.c).
 */
#ifndef FTLSIM_LINK_H
#define FTLSIM_LINK_H

#include "models/parts.h"

void link_init(Drive *d);
void link_release(Drive *d);
SimTime link_xfer_ns(const Drive *d, uint64_t bytes, int to_device);
SimTime link_xfer(Drive *d, SimTime ready, uint64_t bytes, int to_device); /* returns end */
/* The bytes of one transfer after its first `before`: what they add to it (returns end). */
SimTime link_xfer_part(Drive *d, SimTime ready, uint64_t before, uint64_t bytes, int to_device);
/* The timelines' invariants: the time kept for the last size in each
 * direction is what the framing model gives for it, and SATA's one
 * timeline is the only one used (drive_check()). */
bool link_check(const Drive *d, char *why, size_t why_len);

#endif
