/*
 * trim.h - TRIM commands, immediate or deferred to idle time (models/trim.c).
 */
#ifndef FTLSIM_TRIM_H
#define FTLSIM_TRIM_H

#include "models/parts.h"

void trim_init(Drive *d);
void trim_release(Drive *d);
void trim_start(Drive *d, uint32_t cmd);
void trim_idle(Drive *d); /* no host command outstanding: deferred work may run */
/* The deferred work's queue: each page with work on it once (drive_check()). */
bool trim_check(const Drive *d, char *why, size_t why_len);

#endif
