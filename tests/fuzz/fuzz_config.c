/* fuzz_config.c - libFuzzer harness for the drive config loader: any input
 * must load or fail with one error line, never crash or leak. */
#include <stdint.h>
#include <string.h>

#include "sim/config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    DriveParams p;
    GError *error = NULL;
    if (config_load_data((const char *)data, size, "fuzz.ini", &p, &error)) {
        g_autoptr(GString) s = g_string_new(NULL);
        config_describe(&p, s);
    } else {
        g_assert(error && !strchr(error->message, '\n'));
        g_error_free(error);
    }
    return 0;
}
