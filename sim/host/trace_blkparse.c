/*
 * trace_blkparse.c - blkparse default text output:
 * "maj,min cpu seq sec.nsec pid action RWBS [sector + nsectors] [proc]".
 * One action is replayed (Q: what the host queued, or D: what the device
 * saw); every other action and the summary block at the end carry no I/O.
 */
#include "sim/host/trace_impl.h"

#include <string.h>

#define SECTOR 512ull /* bytes */

/* "CPU3 (8,0):" or "Total (8,0):" opens blkparse's closing summary. */
static gboolean is_summary_start(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (g_str_has_prefix(line, "Total ("))
        return TRUE;
    if (!g_str_has_prefix(line, "CPU"))
        return FALSE;
    line += 3;
    if (!g_ascii_isdigit(*line))
        return FALSE;
    while (g_ascii_isdigit(*line))
        line++;
    return g_str_has_prefix(line, " (");
}

/* "maj,min" into a dev number (see trace_devnum()). */
static gboolean parse_devno(const char *s, uint32_t *dev)
{
    const char *comma = strchr(s, ',');
    char maj[16];
    uint64_t major, minor;
    if (!comma || (size_t)(comma - s) >= sizeof maj)
        return FALSE;
    memcpy(maj, s, (size_t)(comma - s));
    maj[comma - s] = '\0';
    return trace_u64(maj, &major) && trace_u64(comma + 1, &minor) &&
           trace_devnum(major, minor, dev);
}

/* The fields every event line starts with; fills dev and time. */
static int parse_prefix(TraceParser *p, int n, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    uint64_t v;
    if (n < 7)
        return trace_bad_count(p, error, n, 7, TRUE, "blank-separated fields");
    if (!parse_devno(f[0], &io->dev))
        return trace_bad(p, error, "dev", f[0], "major,minor");
    if (!trace_u64(f[1], &v))
        return trace_bad(p, error, "cpu", f[1], "a CPU number");
    if (!trace_u64(f[2], &v))
        return trace_bad(p, error, "seq", f[2], "a sequence number");
    if (!trace_fixed(f[3], 9, t))
        return trace_bad(p, error, "time", f[3], "a time in seconds");
    if (!trace_u64(f[4], &v))
        return trace_bad(p, error, "pid", f[4], "a process id");
    return 0;
}

/* "sector + nsectors" after RWBS, if present: bytes into io; FALSE if absent. */
static int parse_range(TraceParser *p, int n, HostIo *io, gboolean *present, GError **error)
{
    char **f = p->fields;
    uint64_t sector, count;
    *present = n >= 10 && strcmp(f[8], "+") == 0;
    if (!*present)
        return 0;
    if (!trace_u64(f[7], &sector) || !trace_mul(sector, SECTOR, &io->offset))
        return trace_bad(p, error, "sector", f[7], "a sector number");
    if (!trace_u64(f[9], &count) || !trace_mul(count, SECTOR, &io->length))
        return trace_bad(p, error, "nsectors", f[9], "a sector count");
    return 0;
}

/* RWBS: an optional leading F (preflush), then D/W/R/N (or F, or nothing,
 * for a flush request), then modifier letters. Returns the op letter. */
static int parse_rwbs(TraceParser *p, const char *rwbs, gboolean *preflush, GError **error)
{
    const char *r = rwbs;
    *preflush = r[0] == 'F';
    if (*preflush)
        r++;
    char op = *r;
    if (op == '\0')
        return 'F';
    if (!strchr("DWRNF", op))
        return trace_bad(p, error, "rwbs", rwbs, "RWBS flags (optional F, then D, W, R or N)");
    for (const char *m = r + 1; *m; m++)
        if (!g_ascii_isupper(*m))
            return trace_bad(p, error, "rwbs", rwbs, "RWBS flags (upper-case letters)");
    return op;
}

static int trace_parse_blkparse(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    char **f = p->fields;
    gboolean preflush, ranged;
    if (p->blk_summary || is_summary_start(line)) {
        p->blk_summary = TRUE;
        return 0;
    }
    int n = trace_split(line, 0, f, TRACE_FIELDS_MAX);
    if (parse_prefix(p, n, io, t, error) < 0)
        return -1;
    if (strcmp(f[5], p->blk == TRACE_BLK_Q ? "Q" : "D") != 0)
        return 0; /* other actions: merges, plugs, remaps, messages, completions */
    int op = parse_rwbs(p, f[6], &preflush, error);
    if (op < 0 || parse_range(p, n, io, &ranged, error) < 0)
        return -1;
    if (op == 'N' && !preflush)
        return 0; /* no data and no flush: a passthrough command */
    if (op == 'F' || op == 'N' || (preflush && (!ranged || io->length == 0))) {
        io->op = IO_FLUSH;
        io->offset = io->length = 0;
        return 1;
    }
    if (!ranged)
        return trace_bad(p, error, "sector", n > 7 ? f[7] : "", "SECTOR + COUNT");
    if (trace_check_length(p, error, "nsectors", f[9], io->length) < 0)
        return -1;
    io->op = op == 'D' ? IO_TRIM : op == 'W' ? IO_WRITE : IO_READ;
    return 1;
}

gboolean trace_blkparse_is_queue(char *line)
{
    char *f[8];
    int n = trace_split(line, 0, f, 7);
    return n >= 7 && strchr(f[0], ',') != NULL && strcmp(f[5], "Q") == 0;
}

/* The formats of this file, for trace.c's table. */
const TraceFormat trace_format_blkparse = {"blkparse", trace_parse_blkparse, NULL};
