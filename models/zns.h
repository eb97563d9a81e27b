/*
 * zns.h - an NVMe Zoned Namespace's zones (models/zns.c): the state
 * machine and the host rules a ZNS drive enforces, checked as each command
 * reaches the controller, in order.
 */
#ifndef FTLSIM_ZNS_H
#define FTLSIM_ZNS_H

#include "models/parts.h"

void zns_init(Drive *d); /* nothing without [zns] zone_size */
void zns_release(Drive *d);
bool zns_on(const Drive *d);
/* Command c (a write, a zone append or a zone management command) reached
 * the controller: check it against its zone and move the zone on. False
 * when it fails: its status is in cmd->status, and the caller completes it. */
bool zns_arrive(Drive *d, uint32_t c);
/* Zone Append c (accepted) passes its zone's append stage: the drive
 * assigns a zone's appends their place one at a time, each taking
 * [zns] append_cost. When c's ends (ns). */
SimTime zns_append_stage(Drive *d, uint32_t c);
/* Finish c's buffered data is on the NAND: the zone's open blocks are
 * closed, their unwritten pages left unused until its reset. */
void zns_finished(Drive *d, uint32_t c);
/* Whether zone k may take another block on die (it owns at most
 * drive_params_zone_blocks() there); it took one. */
bool zns_zone_room(const Drive *d, uint32_t k, uint32_t die);
void zns_block_taken(Drive *d, uint32_t k, uint32_t die);
/* Zone states, counts, block ownership and counters agree. */
bool zns_check(const Drive *d, char *why, size_t why_len);

#endif
