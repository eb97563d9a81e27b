/* fuzz_fio.c - libFuzzer harness for the fio job-file parser and the inline
 * workload spec (named workloads included). Inputs with "include" are
 * skipped: they would read arbitrary files of the machine. */
#include "sim/host/workload_priv.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = g_strndup((const char *)data, size);
    if (!strstr(text, "include")) {
        GError *err = NULL;
        GArray *jobs = wl_fio_parse_text(text, "fuzz.fio", NULL, &err);
        if (jobs)
            g_array_unref(jobs);
        g_clear_error(&err);
        Workload *w = workload_from_spec(text, &err);
        workload_free(w);
        g_clear_error(&err);
    }
    g_free(text);
    return 0;
}
