/* fuzz_trace.c - libFuzzer harness for the trace readers: the input is read
 * as a trace by every format and by detection, with and without
 * skip_bad_lines, and the records must keep the readers' invariants. */
#include "sim/host/trace_impl.h"

#include <stdlib.h>

/* Read everything; after an error go on, as a caller that reports and
 * continues would. Times never decrease; only FLUSH has no length. */
static void drain(TraceReader *r)
{
    HostIo io;
    SimTime prev = 0;
    for (int steps = 0; steps < 1000000; steps++) {
        GError *error = NULL;
        int rc = trace_next(r, &io, &error);
        if (rc == 0)
            return;
        if (rc < 0) {
            if (!error || g_error_matches(error, TRACE_ERROR, TRACE_ERROR_READ))
                abort();
            g_error_free(error);
            continue;
        }
        if (error || io.time < prev || io.op >= IO_OPS)
            abort();
        if ((io.op == IO_FLUSH) != (io.length == 0))
            abort();
        prev = io.time;
        (void)trace_line(r);
    }
    abort(); /* every call consumes a line: the input cannot be this long */
}

static void run(const uint8_t *data, size_t size, const char *format, TraceBlkEvents blk,
                gboolean skip, int64_t dev)
{
    GError *error = NULL;
    TraceOptions opt = {.format = format, .blk_events = blk, .device = dev, .skip_bad_lines = skip};
    TraceReader *r = trace_open_memory("fuzz", data, size, &opt, &error);
    if (!r) {
        if (format != NULL || !error)
            abort(); /* only detection may refuse memory input */
        g_error_free(error);
        return;
    }
    drain(r);
    trace_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *const *names = trace_formats();
    for (int i = 0; names[i]; i++)
        run(data, size, names[i], TRACE_BLK_AUTO, i % 2 == 0, -1);
    run(data, size, "blkparse", TRACE_BLK_Q, TRUE, -1);
    run(data, size, "blkparse", TRACE_BLK_D, FALSE, 0);
    run(data, size, NULL, TRACE_BLK_AUTO, TRUE, -1);
    return 0;
}
