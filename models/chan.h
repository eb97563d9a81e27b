/*
 * chan.h - the channel buses: one transfer timeline per channel (models/chan.c).
 */
#ifndef FTLSIM_CHAN_H
#define FTLSIM_CHAN_H

#include "models/parts.h"

void chan_init(Drive *d);
void chan_release(Drive *d);
SimTime chan_start(const Drive *d, uint32_t die, SimTime ready);
SimTime chan_xfer(Drive *d, uint32_t die, SimTime ready, uint64_t bytes); /* returns end */
/* The timelines' invariant: the bus time counted (DriveStats.chan_busy_ns)
 * fits in them, as each channel's transfers are apart and end by its free
 * time (drive_check()). */
bool chan_check(const Drive *d, char *why, size_t why_len);

#endif
