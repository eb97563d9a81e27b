/*
 * trace_csv.c - the comma-separated formats: MSR Cambridge, SPC/UMass,
 * Alibaba block traces and Tencent CBS. Each line is one I/O; times are
 * parsed as integers (with an exact fixed-point fraction where the format
 * writes decimals), so large timestamps never lose precision. A header
 * whose last column is `plid` adds a last field to every line: the FDP
 * placement identifier of the record (trace_csv_plid_header()).
 */
#include "sim/host/trace_impl.h"

#define SECTOR 512ull /* bytes */

/* Sectors to bytes, for a field named `name`. */
static int sectors_to_bytes(const TraceParser *p, GError **error, const char *name, const char *s,
                            uint64_t *bytes, const char *expected)
{
    uint64_t v;
    if (!trace_u64(s, &v) || !trace_mul(v, SECTOR, bytes))
        return trace_bad(p, error, name, s, expected);
    return 0;
}

/* Whether a CSV header names a placement identifier column: its last
 * column is "plid" (any case), fio's and xNVMe's name for NVMe's
 * Placement Identifier (PID). The plain "pid" would clash with the
 * process-ID columns other traces carry (FIU, WiscSee, blkparse). */
gboolean trace_csv_plid_header(const char *line)
{
    const char *last = strrchr(line, ',');
    if (!last)
        return FALSE;
    last++;
    while (*last == ' ' || *last == '\t')
        last++;
    return g_ascii_strcasecmp(last, "plid") == 0;
}

/* Split a CSV line; with a plid column its last field is the record's
 * placement identifier, taken off the count the format checks. -1: a
 * malformed identifier (error set). */
static int csv_split(TraceParser *p, char *line, HostIo *io, GError **error)
{
    char **f = p->fields;
    int n = trace_split(line, ',', f, TRACE_FIELDS_MAX);
    if (!p->plid || n < 2 || n > TRACE_FIELDS_MAX)
        return n;
    uint64_t v;
    if (!trace_u64(f[n - 1], &v) || v > UINT16_MAX)
        return trace_bad(p, error, "plid", f[n - 1], "a placement identifier (0 to 65535)");
    io->pid = (uint16_t)v;
    return n - 1;
}

static int read_or_write(const TraceParser *p, GError **error, const char *name, const char *s,
                         const char *rd, const char *wr, const char *expected, HostIo *io)
{
    if (g_ascii_strcasecmp(s, rd) == 0)
        io->op = IO_READ;
    else if (g_ascii_strcasecmp(s, wr) == 0)
        io->op = IO_WRITE;
    else
        return trace_bad(p, error, name, s, expected);
    return 0;
}

/* MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 * with FILETIME timestamps (100 ns ticks) and byte offsets and sizes. */
static int trace_parse_msr(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t ticks, rt;
    int n = csv_split(p, line, io, error);
    if (n < 0)
        return -1;
    if (n != 7)
        return trace_bad_count(p, error, n, 7, FALSE, "comma-separated fields");
    if (!trace_u64(f[0], &ticks) || !trace_mul(ticks, 100, t))
        return trace_bad(p, error, "Timestamp", f[0], "a Windows FILETIME (100 ns ticks)");
    if (!trace_dev(f[2], &io->dev))
        return trace_bad(p, error, "DiskNumber", f[2], "a disk number");
    if (read_or_write(p, error, "Type", f[3], "Read", "Write", "Read or Write", io) < 0)
        return -1;
    if (trace_bytes(p, error, "Offset", f[4], "Size", f[5], io) < 0)
        return -1;
    if (!trace_u64(f[6], &rt))
        return trace_bad(p, error, "ResponseTime", f[6], "a time in 100 ns ticks");
    return 1;
}

/* SPC (UMass): ASU,LBA,Size,Opcode,Timestamp[,optional fields] with LBA in
 * 512-byte blocks, Size in bytes and Timestamp in seconds. */
static int trace_parse_spc(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    int n = csv_split(p, line, io, error);
    if (n < 0)
        return -1;
    if (n < 5 || n > TRACE_FIELDS_MAX)
        return trace_bad_count(p, error, n, 5, TRUE, "comma-separated fields");
    if (!trace_dev(f[0], &io->dev))
        return trace_bad(p, error, "ASU", f[0], "an ASU number");
    if (sectors_to_bytes(p, error, "LBA", f[1], &io->offset, "a block number") < 0)
        return -1;
    if (!trace_u64(f[2], &io->length))
        return trace_bad(p, error, "Size", f[2], "a byte count");
    if (trace_check_length(p, error, "Size", f[2], io->length) < 0)
        return -1;
    if (read_or_write(p, error, "Opcode", f[3], "r", "w", "r or w", io) < 0)
        return -1;
    if (!trace_fixed(f[4], 9, t))
        return trace_bad(p, error, "Timestamp", f[4], "a time in seconds");
    return 1;
}

/* Alibaba block traces: device_id,opcode,offset,length,timestamp with R/W
 * opcodes, byte offsets and lengths, and timestamps in microseconds. */
static int trace_parse_alibaba(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t us;
    int n = csv_split(p, line, io, error);
    if (n < 0)
        return -1;
    if (n != 5)
        return trace_bad_count(p, error, n, 5, FALSE, "comma-separated fields");
    if (!trace_dev(f[0], &io->dev))
        return trace_bad(p, error, "device_id", f[0], "a device number");
    if (read_or_write(p, error, "opcode", f[1], "R", "W", "R or W", io) < 0)
        return -1;
    if (trace_bytes(p, error, "offset", f[2], "length", f[3], io) < 0)
        return -1;
    if (!trace_u64(f[4], &us) || !trace_mul(us, 1000, t))
        return trace_bad(p, error, "timestamp", f[4], "a time in microseconds");
    return 1;
}

/* Tencent CBS: timestamp,offset,size,io_type,volume_id with seconds, sectors,
 * and io_type 0 = read, 1 = write (the reverse of MQSim). */
static int trace_parse_tencent(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    int n = csv_split(p, line, io, error);
    if (n < 0)
        return -1;
    if (n != 5)
        return trace_bad_count(p, error, n, 5, FALSE, "comma-separated fields");
    if (!trace_fixed(f[0], 9, t))
        return trace_bad(p, error, "timestamp", f[0], "a time in seconds");
    if (sectors_to_bytes(p, error, "offset", f[1], &io->offset, "a sector number") < 0)
        return -1;
    if (sectors_to_bytes(p, error, "size", f[2], &io->length, "a sector count") < 0)
        return -1;
    if (trace_check_length(p, error, "size", f[2], io->length) < 0)
        return -1;
    if (read_or_write(p, error, "io_type", f[3], "0", "1", "0 (read) or 1 (write)", io) < 0)
        return -1;
    if (!trace_dev(f[4], &io->dev))
        return trace_bad(p, error, "volume_id", f[4], "a volume number");
    return 1;
}

/* The formats of this file, for trace.c's table. */
const TraceFormat trace_format_msr = {"msr", trace_parse_msr, NULL};
const TraceFormat trace_format_spc = {"spc", trace_parse_spc, NULL};
const TraceFormat trace_format_alibaba = {"alibaba", trace_parse_alibaba, NULL};
const TraceFormat trace_format_tencent = {"tencent", trace_parse_tencent, NULL};
