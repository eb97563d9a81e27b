/*
 * trace_fio.c - fio iolog versions 2 and 3. The first line is the header
 * "fio version N iolog"; then "[time_us] FILE ACTION [offset length]".
 * Files get device numbers 0, 1, ... in the order of their `add` lines;
 * add/open/close (and v2 wait) lines carry no I/O. v2 has no times: all 0.
 * Zoned drives' Zone Management Send actions (not fio's: ftlsim's own) are
 * "FILE zone_open|zone_close|zone_finish|zone_reset OFFSET", the offset a
 * zone's start.
 */
#include "sim/host/trace_impl.h"

#include <string.h>

static int check_header(TraceParser *p, char *line, int version, GError **error)
{
    const char *want = version == 2 ? "fio version 2 iolog" : "fio version 3 iolog";
    while (*line == ' ' || *line == '\t')
        line++;
    if (strcmp(line, want) != 0) {
        char expected[32];
        g_snprintf(expected, sizeof expected, "\"%s\"", want);
        return trace_bad(p, error, "header", line, expected);
    }
    p->fio_header = TRUE;
    return 0;
}

/* The device number of a file named by an earlier add. */
static int file_index(TraceParser *p, const char *name, uint32_t *dev, GError **error)
{
    gpointer v = p->fio_files ? g_hash_table_lookup(p->fio_files, name) : NULL;
    if (!v)
        return trace_bad(p, error, "file", name, "a file named by an earlier add");
    *dev = GPOINTER_TO_UINT(v) - 1;
    return 0;
}

static int add_file(TraceParser *p, const char *name)
{
    if (!p->fio_files)
        p->fio_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    if (!g_hash_table_contains(p->fio_files, name)) {
        guint index = g_hash_table_size(p->fio_files);
        g_hash_table_insert(p->fio_files, g_strdup(name), GUINT_TO_POINTER(index + 1));
    }
    return 0;
}

/* offset and length after the action; n is the count after the time. */
static int range(TraceParser *p, char **f, int n, HostIo *io, GError **error)
{
    if (n != 4)
        return trace_bad_count(p, error, n, 4, FALSE,
                               "fields after the time (FILE ACTION OFFSET LENGTH)");
    return trace_bytes(p, error, "offset", f[2], "length", f[3], io);
}

/* A zone action and its offset (FILE ACTION OFFSET); 0 when act is none. */
static int zone_action(TraceParser *p, char **f, int n, HostIo *io, GError **error)
{
    static const char *const names[] = {[ZOP_OPEN] = "zone_open", [ZOP_CLOSE] = "zone_close",
                                        [ZOP_FINISH] = "zone_finish", [ZOP_RESET] = "zone_reset"};
    for (uint8_t z = ZOP_OPEN; z <= ZOP_RESET; z++) {
        if (strcmp(f[1], names[z]) != 0)
            continue;
        if (n != 3)
            return trace_bad_count(p, error, n, 3, FALSE, "fields after the time (FILE ACTION OFFSET)");
        if (!trace_u64(f[2], &io->offset))
            return trace_bad(p, error, "offset", f[2], "a byte offset");
        io->op = IO_TRIM;
        io->zop = z;
        io->length = 0;
        return 1;
    }
    return 0;
}

/* FILE ACTION [offset length], the part after the v3 time. */
static int parse_action(TraceParser *p, char **f, int n, HostIo *io, GError **error)
{
    const char *act = f[1];
    uint64_t v;
    if (n < 2 || n > 4)
        return trace_bad_count(p, error, n, n < 2 ? 2 : 4, n < 2,
                               "fields after the time (FILE ACTION [OFFSET LENGTH])");
    if (strcmp(act, "add") == 0)
        return add_file(p, f[0]);
    if (file_index(p, f[0], &io->dev, error) < 0)
        return -1;
    if (strcmp(act, "open") == 0 || strcmp(act, "close") == 0 || strcmp(act, "wait") == 0)
        return 0;
    int zr = zone_action(p, f, n, io, error);
    if (zr != 0)
        return zr;
    if (strcmp(act, "sync") == 0 || strcmp(act, "datasync") == 0) {
        for (int i = 2; i < n; i++)
            if (!trace_u64(f[i], &v))
                return trace_bad(p, error, i == 2 ? "offset" : "length", f[i], "an integer");
        io->op = IO_FLUSH;
        return 1;
    }
    if (strcmp(act, "read") == 0)
        io->op = IO_READ;
    else if (strcmp(act, "write") == 0)
        io->op = IO_WRITE;
    else if (strcmp(act, "trim") == 0)
        io->op = IO_TRIM;
    else
        return trace_bad(p, error, "action", act,
                         "add, open, close, read, write, trim, sync, datasync, wait, zone_open, "
                         "zone_close, zone_finish or zone_reset");
    return range(p, f, n, io, error) < 0 ? -1 : 1;
}

static int trace_parse_fio2(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    if (!p->fio_header)
        return check_header(p, line, 2, error);
    int n = trace_split(line, 0, p->fields, TRACE_FIELDS_MAX);
    *t = 0;
    return parse_action(p, p->fields, n, io, error);
}

static int trace_parse_fio3(TraceParser *p, char *line, HostIo *io, uint64_t *t, GError **error)
{
    uint64_t us;
    if (!p->fio_header)
        return check_header(p, line, 3, error);
    int n = trace_split(line, 0, p->fields, TRACE_FIELDS_MAX);
    if (n < 1)
        return trace_bad_count(p, error, n, 3, TRUE, "blank-separated fields");
    if (!trace_u64(p->fields[0], &us) || !trace_mul(us, 1000, t))
        return trace_bad(p, error, "time", p->fields[0], "a time in microseconds");
    return parse_action(p, p->fields + 1, n - 1, io, error);
}

/* The formats of this file, for trace.c's table. */
const TraceFormat trace_format_fio2 = {"fio2", trace_parse_fio2, NULL};
const TraceFormat trace_format_fio3 = {"fio3", trace_parse_fio3, NULL};
