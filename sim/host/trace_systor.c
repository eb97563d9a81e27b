/*
 * trace_systor.c - the SYSTOR '17 virtual desktop traces (SNIA IOTTA): one
 * CSV file per hour and LUN, "Timestamp,Response,IOType,LUN,Offset,Size",
 * usually with that line as a header.
 *
 * Timestamp is Unix time in seconds with nine fraction digits (the
 * distribution's README: accurate to the microsecond only), Response the
 * seconds the I/O took, IOType R, W or blank, LUN the device, Offset and
 * Size bytes. A blank IOType is an I/O the collector could not classify;
 * it carries no read or write to replay, so its line is passed over like a
 * blkparse merge (its time does not move the clock either).
 */
#include "sim/host/trace_impl.h"

static int trace_parse_systor(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t response;
    gboolean blank;
    int n = trace_split(line, ',', f, TRACE_FIELDS_MAX);
    if (n != 6)
        return trace_bad_count(p, error, n, 6, FALSE, "comma-separated fields");
    if (!trace_fixed(f[0], 9, t))
        return trace_bad(p, error, "Timestamp", f[0], "a Unix time in seconds");
    if (!trace_fixed(f[1], 9, &response))
        return trace_bad(p, error, "Response", f[1], "a time in seconds");
    blank = f[2][0] == '\0';
    if (blank)
        io->op = IO_READ; /* not replayed: see the top of the file */
    else if (g_ascii_strcasecmp(f[2], "R") == 0)
        io->op = IO_READ;
    else if (g_ascii_strcasecmp(f[2], "W") == 0)
        io->op = IO_WRITE;
    else
        return trace_bad(p, error, "IOType", f[2], "R, W or blank");
    if (!trace_dev(f[3], &io->dev))
        return trace_bad(p, error, "LUN", f[3], "a LUN number");
    if (trace_bytes(p, error, "Offset", f[4], "Size", f[5], io) < 0)
        return -1;
    return blank ? 0 : 1;
}

/* For trace.c's table. */
const TraceFormat trace_format_systor = {"systor", trace_parse_systor, NULL};
