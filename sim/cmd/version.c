/* version.c - see version.h. */
#include "sim/cmd/version.h"

const char *ftlsim_version(void) { return FTLSIM_VERSION; }
