/*
 * ctrl.h - the controller's firmware cores as a resource (models/ctrl.c).
 */
#ifndef FTLSIM_CTRL_H
#define FTLSIM_CTRL_H

#include "models/parts.h"

void ctrl_init(Drive *d);
void ctrl_release(Drive *d);
/* Run cost ns of firmware work of kind w, ready at `ready`, on the first
 * core free; returns its end. Work of no cost ends when a core is free to
 * take it up. */
SimTime ctrl_run(Drive *d, SimTime ready, SimTime cost, CtrlWork w);
/* ctrl_run() of work ready now (a command taken in). */
SimTime ctrl_run_now(Drive *d, SimTime cost, CtrlWork w);
/* Relocation of n 4 KiB slots (GC, folding, translation pages) read from
 * die by `sensed`: the data out over the channel, the controller's work on
 * it (ECC, re-encode, program issue: relocate_cost a slot, unless
 * copy_offload moves it past the cores), the data back in. Returns when it
 * is on the die to program. */
SimTime ctrl_relocate(Drive *d, uint32_t die, SimTime sensed, uint32_t n);
/* Firmware work that occupies a core and delays nothing but other work
 * (the bookkeeping of an erased block). */
void ctrl_background(Drive *d, SimTime cost, CtrlWork w);
/* When the first core is free (for tests and check). */
SimTime ctrl_first_free(const Drive *d);
/* Each core's pieces of work in time order, apart (drive_check()). */
bool ctrl_check(const Drive *d, char *why, size_t why_len);

#endif
