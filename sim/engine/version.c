/* version.c - see version.h. */
#include "sim/engine/version.h"

#include <glib.h>

const char *ftlsim_version(void) { return FTLSIM_VERSION; }

int64_t ftlsim_clock_ms(void)
{
    const char *fixed = g_getenv("SOURCE_DATE_EPOCH");
    if (fixed && fixed[0]) {
        char *end = NULL;
        guint64 sec = g_ascii_strtoull(fixed, &end, 10);
        if (end && *end == '\0')
            return (int64_t)sec * 1000;
    }
    return g_get_real_time() / 1000;
}
