/*
 * trace.h - streaming readers of recorded block traces.
 *
 * One reader per format (sim/trace_<format>.c) behind one interface. Files
 * are streamed line by line through zlib, so `.gz` files read transparently
 * and memory stays constant whatever the trace size. Times are returned in
 * ns relative to the first record returned (which is at 0).
 */
#ifndef FTLSIM_TRACE_H
#define FTLSIM_TRACE_H

#include "models/drive.h"

#include <glib.h>

typedef enum TraceBlkEvents {
    TRACE_BLK_AUTO = 0, /* Q events when the file has them, otherwise D */
    TRACE_BLK_Q = 1,
    TRACE_BLK_D = 2,
} TraceBlkEvents;

typedef struct TraceOptions {
    const char *format;        /* a name from trace_formats(); NULL: detect */
    TraceBlkEvents blk_events; /* blkparse only */
    int64_t device;            /* keep only this device/volume; -1: all */
    gboolean skip_bad_lines;   /* count malformed lines instead of failing */
} TraceOptions;

typedef struct TraceReader TraceReader;

/* Open a trace. Errors (file, unknown format, undetectable content) name
 * the file. The reader owns its file until trace_close(). */
TraceReader *trace_open(const char *path, const TraceOptions *opt, GError **error);
void trace_close(TraceReader *r); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TraceReader, trace_close)

/* Next I/O: 1 when *io was filled, 0 at the end, -1 on error (a malformed
 * line without skip_bad_lines: "FILE:LINE: field F: found "X", expected Y"). */
int trace_next(TraceReader *r, HostIo *io, GError **error);

const char *trace_format_name(const TraceReader *r);
gboolean trace_format_was_detected(const TraceReader *r);
/* The format for people: "mqsim/ssdsim" when detection found lines both
 * simulators write alike, else trace_format_name(). Owned by the reader. */
const char *trace_format_label(const TraceReader *r);
/* Whether a first line that reads as a column header was skipped. */
gboolean trace_header_skipped(const TraceReader *r);
uint64_t trace_line(const TraceReader *r);      /* line number of the last record read */
uint64_t trace_bad_lines(const TraceReader *r); /* malformed lines skipped */

/* NULL-terminated list of format names, for --help and errors. */
const char *const *trace_formats(void);

#endif
