/* version.c - see version.h. */
#include "sim/engine/version.h"

const char *ftlsim_version(void) { return FTLSIM_VERSION; }
