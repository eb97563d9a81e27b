/* version.h - the version of ftlsim, recorded in every result, and the
 * wall-clock time results are stamped with. */
#ifndef FTLSIM_VERSION_H
#define FTLSIM_VERSION_H

#include <stdint.h>

const char *ftlsim_version(void);
/* Now, in ms since 1970; SOURCE_DATE_EPOCH (seconds) when set, so that
 * stamped outputs can be made again byte for byte. */
int64_t ftlsim_clock_ms(void);

#endif
