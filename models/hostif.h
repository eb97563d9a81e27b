/*
 * hostif.h - the host interface: commands from submission to completion
 * (models/hostif.c).
 */
#ifndef FTLSIM_HOSTIF_H
#define FTLSIM_HOSTIF_H

#include "models/parts.h"

void hostif_init(Drive *d); /* registers the completion handler with cmd.c */
void hostif_release(Drive *d);

#endif
