/*
 * trace_text.c - the whitespace-separated column formats: DiskSim ASCII,
 * MQSim and SSDsim ASCII, FIU (SNIA IOTTA) and WiscSee processed events.
 * Each line is one I/O (WiscSee completion lines carry none).
 */
#include "sim/host/trace_impl.h"

#include <string.h>

#define SECTOR 512ull /* bytes */

static int sectors(const TraceParser *p, GError **error, const char *name, const char *s,
                   uint64_t *bytes, const char *expected)
{
    uint64_t v;
    if (!trace_u64(s, &v) || !trace_mul(v, SECTOR, bytes))
        return trace_bad(p, error, name, s, expected);
    return 0;
}

/* The columns MQSim, SSDsim and DiskSim share after the time: dev, start
 * sector and size in sectors (fields 1-3). */
static int dev_lba_size(TraceParser *p, GError **error, const char *lba_name, HostIo *io)
{
    char **f = p->fields;
    if (!trace_dev(f[1], &io->dev))
        return trace_bad(p, error, "dev", f[1], "a device number");
    if (sectors(p, error, lba_name, f[2], &io->offset, "a sector number") < 0)
        return -1;
    if (sectors(p, error, "size", f[3], &io->length, "a sector count") < 0)
        return -1;
    return trace_check_length(p, error, "size", f[3], io->length);
}

/* DiskSim ASCII: time_ms devno blkno bcount flags; flags bit 0 = read. */
static int trace_parse_disksim(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t flags;
    int n = trace_split(line, 0, f, TRACE_FIELDS_MAX);
    if (n != 5)
        return trace_bad_count(p, error, n, 5, FALSE, "blank-separated fields");
    if (!trace_fixed(f[0], 6, t))
        return trace_bad(p, error, "time", f[0], "a time in milliseconds");
    if (dev_lba_size(p, error, "blkno", io) < 0)
        return -1;
    if (!trace_u64(f[4], &flags))
        return trace_bad(p, error, "flags", f[4], "an integer (bit 0 set: read)");
    io->op = (flags & 1) ? IO_READ : IO_WRITE;
    return 1;
}

/* DiskSim writes times as "%f": tell it from MQSim/SSDsim by the point. */
static gboolean trace_sniff_disksim(TraceParser *p, char *line)
{
    (void)line;
    return strchr(p->fields[0], '.') != NULL;
}

/* MQSim and SSDsim share the columns time_ns dev lba size type. */
static int mqsim_like(TraceParser *p, char *line, HostIo *io, uint64_t *t, uint64_t *type,
                      const char *type_name, GError **error)
{
    char **f = p->fields;
    int n = trace_split(line, 0, f, TRACE_FIELDS_MAX);
    if (n != 5)
        return trace_bad_count(p, error, n, 5, FALSE, "blank-separated fields");
    if (!trace_u64(f[0], t))
        return trace_bad(p, error, "time", f[0], "a time in ns");
    if (dev_lba_size(p, error, "lba", io) < 0)
        return -1;
    if (!trace_u64(f[4], type))
        return trace_bad(p, error, type_name, f[4], "0 (write) or 1 (read)");
    return 0;
}

/* MQSim ASCII: type 0 = write, anything else read (as MQSim reads it). */
static int trace_parse_mqsim(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    uint64_t type;
    if (mqsim_like(p, line, io, t, &type, "type", error) < 0)
        return -1;
    io->op = type == 0 ? IO_WRITE : IO_READ;
    return 1;
}

/* SSDsim ASCII: op 1 = read, 0 = write; nothing else. */
static int trace_parse_ssdsim(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    uint64_t op;
    if (mqsim_like(p, line, io, t, &op, "op", error) < 0)
        return -1;
    if (op > 1)
        return trace_bad(p, error, "op", p->fields[4], "0 (write) or 1 (read)");
    io->op = op == 1 ? IO_READ : IO_WRITE;
    return 1;
}

static gboolean is_hex(const char *s)
{
    if (*s == '\0')
        return FALSE;
    for (; *s; s++)
        if (!g_ascii_isxdigit(*s))
            return FALSE;
    return TRUE;
}

/* FIU: ts_ns pid process lba size R/W major minor md5. The process name may
 * hold blanks, so the last six columns are taken from the end. */
static int trace_parse_fiu(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t pid, major, minor;
    int n = trace_split(line, 0, f, TRACE_FIELDS_MAX);
    if (n < 9 || n > TRACE_FIELDS_MAX)
        return trace_bad_count(p, error, n, 9, TRUE, "blank-separated fields");
    char **e = f + n - 6;
    if (!trace_u64(f[0], t))
        return trace_bad(p, error, "ts", f[0], "a time in ns");
    if (!trace_u64(f[1], &pid))
        return trace_bad(p, error, "pid", f[1], "a process id");
    if (sectors(p, error, "lba", e[0], &io->offset, "a sector number") < 0 ||
        sectors(p, error, "size", e[1], &io->length, "a sector count") < 0 ||
        trace_check_length(p, error, "size", e[1], io->length) < 0)
        return -1;
    if (g_ascii_strcasecmp(e[2], "R") == 0)
        io->op = IO_READ;
    else if (g_ascii_strcasecmp(e[2], "W") == 0)
        io->op = IO_WRITE;
    else
        return trace_bad(p, error, "op", e[2], "R or W");
    if (!trace_u64(e[3], &major))
        return trace_bad(p, error, "major", e[3], "a device major number");
    if (!trace_u64(e[4], &minor))
        return trace_bad(p, error, "minor", e[4], "a device minor number");
    if (!trace_devnum(major, minor, &io->dev))
        return trace_bad(p, error, "major", e[3], "a major below 4096 and a minor below 2^20");
    if (!is_hex(e[5]))
        return trace_bad(p, error, "md5", e[5], "a hexadecimal digest");
    return 1;
}

/* WiscSee processed events: pid action op offset size time_s pre_wait sync;
 * only D (issue) lines are I/Os, C (completion) lines are skipped. */
static int trace_parse_wiscsee(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t pid;
    int n = trace_split(line, 0, f, TRACE_FIELDS_MAX);
    if (n != 8)
        return trace_bad_count(p, error, n, 8, FALSE, "blank-separated fields");
    if (!trace_u64(f[0], &pid))
        return trace_bad(p, error, "pid", f[0], "a process id");
    if (strcmp(f[1], "C") == 0)
        return 0;
    if (strcmp(f[1], "D") != 0)
        return trace_bad(p, error, "action", f[1], "D or C");
    if (strcmp(f[2], "read") == 0)
        io->op = IO_READ;
    else if (strcmp(f[2], "write") == 0)
        io->op = IO_WRITE;
    else if (strcmp(f[2], "discard") == 0)
        io->op = IO_TRIM;
    else
        return trace_bad(p, error, "op", f[2], "read, write or discard");
    if (trace_bytes(p, error, "offset", f[3], "size", f[4], io) < 0)
        return -1;
    if (!trace_fixed(f[5], 9, t))
        return trace_bad(p, error, "time", f[5], "a time in seconds");
    if (strcmp(f[7], "True") != 0 && strcmp(f[7], "False") != 0)
        return trace_bad(p, error, "sync", f[7], "True or False");
    return 1;
}

/* The formats of this file, for trace.c's table. */
const TraceFormat trace_format_disksim = {"disksim", trace_parse_disksim, trace_sniff_disksim};
const TraceFormat trace_format_mqsim = {"mqsim", trace_parse_mqsim, NULL};
const TraceFormat trace_format_ssdsim = {"ssdsim", trace_parse_ssdsim, NULL};
const TraceFormat trace_format_fiu = {"fiu", trace_parse_fiu, NULL};
const TraceFormat trace_format_wiscsee = {"wiscsee", trace_parse_wiscsee, NULL};
