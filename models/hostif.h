/*
 * hostif.h - the host interface: commands from submission to completion
 * (models/hostif.c).
 */
#ifndef FTLSIM_HOSTIF_H
#define FTLSIM_HOSTIF_H

#include "models/parts.h"

void hostif_init(Drive *d); /* registers the completion handler with cmd.c */
void hostif_release(Drive *d);
/* For tests: every command by the general paths, not the short ones that
 * drive_submit() and the FTL keep for plain reads and writes, so that the
 * two can be compared (they must simulate the same). */
void hostif_general_only(Drive *d);
/* The queue's invariants: every command outstanding is in flight, held
 * behind a non-queued command, or that command waiting for the queue to
 * drain; the held list is whole, and only a non-queued command holds
 * commands (drive_check()). */
bool hostif_check(const Drive *d, char *why, size_t why_len);

#endif
