/*
 * trace.c - the trace reader: streams a file through zlib (plain or .gz) in
 * a fixed buffer, one line at a time, hands each line to the format's parser,
 * and makes times relative to the first record (never going backwards).
 * Memory is constant: one line buffer per reader, no allocation per line.
 */
#include "sim/host/trace_impl.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "sim/engine/textfile.h"

#define BUF_CAP (TRACE_LINE_MAX + 1) /* a longest line and its newline */
#define SNIFF_LINES 20               /* data lines detection looks at */
#define BLK_SCAN_LINES 100000        /* lines searched for a Q event (auto) */

/* Every format, in detection order: its name is a --trace-format value,
 * and the list of names (trace_formats(), the --help text, errors) comes
 * from here. Each is defined beside its parser (trace_csv.c, trace_text.c,
 * trace_blkparse.c, trace_fio.c, trace_systor.c): a new format is its parser
 * and a row. */
extern const TraceFormat trace_format_msr, trace_format_blkparse, trace_format_fio2,
    trace_format_fio3, trace_format_spc, trace_format_disksim, trace_format_mqsim,
    trace_format_ssdsim, trace_format_alibaba, trace_format_tencent, trace_format_fiu,
    trace_format_wiscsee, trace_format_systor;
static const TraceFormat *const formats[] = {
    &trace_format_msr,
    &trace_format_blkparse,
    &trace_format_fio2,
    &trace_format_fio3,
    &trace_format_spc,
    &trace_format_disksim,
    &trace_format_mqsim,
    &trace_format_ssdsim,
    &trace_format_alibaba,
    &trace_format_tencent,
    &trace_format_fiu,
    &trace_format_wiscsee,
    &trace_format_systor,
};
#define N_FORMATS G_N_ELEMENTS(formats)

static const char *format_names[N_FORMATS + 1]; /* filled by trace_formats() */

struct TraceReader {
    char *path;
    gzFile gz;       /* NULL when reading from memory */
    const char *mem; /* memory source */
    size_t mem_len, mem_pos;
    char *buf;         /* BUF_CAP + 1 bytes */
    size_t start, end; /* unread bytes are buf[start, end) */
    gboolean eof;      /* the source has no more bytes */
    const TraceFormat *fmt;
    gboolean detected;
    gboolean twin;           /* detected, and the lines fit mqsim and ssdsim alike */
    gboolean header;         /* the first data line is a header to skip */
    gboolean header_pending; /* ... and has not been read yet */
    TraceOptions opt;
    TraceParser p;
    uint64_t record_line; /* line of the last record returned */
    uint64_t bad;         /* malformed lines skipped */
    gboolean have_base;
    uint64_t base, prev; /* ns: first record's time, latest time returned */
};

const char *const *trace_formats(void)
{
    if (!format_names[0])
        for (unsigned i = 0; i < N_FORMATS; i++)
            format_names[i] = formats[i]->name;
    return format_names;
}

/* Move what is unread to the front and read more; bytes read, 0 at the
 * end, -1 on a read error. */
static int fill(TraceReader *r, GError **error)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    size_t room = BUF_CAP - r->end;
    if (r->gz == NULL) {
        size_t n = MIN(room, r->mem_len - r->mem_pos);
        if (n > 0)
            memcpy(r->buf + r->end, r->mem + r->mem_pos, n);
        r->mem_pos += n;
        r->end += n;
        return (int)n;
    }
    int got = gzread(r->gz, r->buf + r->end, (unsigned)room);
    int zerr = Z_OK;
    const char *msg = got <= 0 ? gzerror(r->gz, &zerr) : NULL;
    /* A stream cut short reads as an end with Z_BUF_ERROR, not as -1. */
    if (got < 0 || (got == 0 && zerr == Z_BUF_ERROR)) {
        if (zerr == Z_ERRNO)
            msg = g_strerror(errno);
        else if (g_str_has_prefix(msg, r->path) && g_str_has_prefix(msg + strlen(r->path), ": "))
            msg += strlen(r->path) + 2; /* zlib names the file too */
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_READ,
                    "%s: read error after line %" G_GUINT64_FORMAT ": %s", r->path, r->p.line, msg);
        return -1;
    }
    r->end += (size_t)got;
    return got;
}

/* Drop the rest of a line longer than the buffer; a "line" that has no
 * newline within TRACE_SKIP_MAX (a binary file, /dev/zero) is an error. */
static int skip_rest_of_line(TraceReader *r, GError **error)
{
    for (uint64_t skipped = 0;; skipped += r->end) {
        if (skipped > TRACE_SKIP_MAX) {
            g_set_error(error, TRACE_ERROR, TRACE_ERROR_READ,
                        "%s:%" G_GUINT64_FORMAT ": found no newline in %d MiB, expected lines "
                        "of at most %d bytes (a binary file or an endless stream?)",
                        r->path, r->p.line, TRACE_SKIP_MAX >> 20, TRACE_LINE_MAX);
            return -1;
        }
        r->start = r->end = 0;
        int got = fill(r, error);
        if (got < 0)
            return -1;
        char *nl = memchr(r->buf, '\n', r->end);
        if (nl) {
            r->start = (size_t)(nl + 1 - r->buf);
            return 0;
        }
        if (got == 0) {
            r->eof = TRUE;
            return 0;
        }
    }
}

static int line_too_long(TraceReader *r, GError **error)
{
    char head[52];
    memcpy(head, r->buf, sizeof head - 1);
    head[sizeof head - 1] = '\0';
    r->p.line++;
    if (skip_rest_of_line(r, error) < 0)
        return -1;
    char expected[48];
    g_snprintf(expected, sizeof expected, "a line of at most %d bytes", TRACE_LINE_MAX);
    trace_bad(&r->p, error, "line", head, expected);
    return 2;
}

/* Take the line at buf[start, end) of length len. */
static int take_line(TraceReader *r, size_t len, char **line, GError **error)
{
    char *s = r->buf + r->start;
    s[len] = '\0';
    r->start += len + 1;
    if (r->start > r->end)
        r->start = r->end;
    r->p.line++;
    *line = s;
    if (memchr(s, '\0', len) != NULL) {
        trace_bad(&r->p, error, "line", "\\0", "text without NUL bytes");
        return 2;
    }
    return 1;
}

/* The next physical line, NUL-terminated without its newline. 1: a line;
 * 0: the end; 2: a malformed line (error set); -1: read error. */
static int next_line(TraceReader *r, char **line, GError **error)
{
    for (;;) {
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (nl)
            return take_line(r, (size_t)(nl - (r->buf + r->start)), line, error);
        if (r->eof) {
            if (r->start == r->end)
                return 0;
            return take_line(r, r->end - r->start, line, error);
        }
        if (r->start == 0 && r->end == BUF_CAP)
            return line_too_long(r, error);
        int got = fill(r, error);
        if (got < 0)
            return -1;
        if (got == 0)
            r->eof = TRUE;
    }
}

static gboolean rewind_source(TraceReader *r, GError **error)
{
    if (r->gz && gzrewind(r->gz) != 0) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_READ, "%s: cannot rewind", r->path);
        return FALSE;
    }
    r->mem_pos = 0;
    r->start = r->end = 0;
    r->eof = FALSE;
    r->p.line = 0;
    return TRUE;
}

/* Strip trailing blanks and CR; NULL for blank and comment (#) lines. */
static char *data_line(char *line)
{
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    const char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    return (*s == '\0' || *s == '#') ? NULL : line;
}

static const TraceFormat *format_by_name(const char *name)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

/* Copies of the first data lines (a line too long or with NUL bytes
 * becomes one no format accepts), then back to the start. */
static GPtrArray *sniff_lines(TraceReader *r, GError **error)
{
    g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
    for (uint64_t read = 0; lines->len < SNIFF_LINES; read++) {
        if (read == TRACE_IDLE_LINES_MAX) {
            g_set_error(error, TRACE_ERROR, TRACE_ERROR_READ,
                        "%s:%" G_GUINT64_FORMAT ": found %d lines without %d data lines, "
                        "expected trace records (an endless stream of blank lines?)",
                        r->path, r->p.line, TRACE_IDLE_LINES_MAX, SNIFF_LINES);
            return NULL;
        }
        char *line;
        GError *err = NULL;
        int got = next_line(r, &line, &err);
        if (got == 0)
            break;
        if (got < 0) {
            g_propagate_error(error, err);
            return NULL;
        }
        if (got == 2) {
            g_clear_error(&err);
            g_ptr_array_add(lines, g_strdup("\x01"));
        } else if ((line = data_line(line))) {
            g_ptr_array_add(lines, g_strdup(line));
        }
    }
    if (!rewind_source(r, error))
        return NULL;
    return g_steal_pointer(&lines);
}

/* Whether every sniffed line fits the format's grammar (with plid: and a
 * placement identifier column last, named by a CSV header). */
static gboolean format_fits(const TraceFormat *f, const GPtrArray *lines, const char *path,
                            gboolean plid)
{
    TraceParser p = {.path = path, .blk = TRACE_BLK_Q, .plid = plid};
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < lines->len; i++) {
        g_autofree char *copy = g_strdup(lines->pdata[i]);
        HostIo io = {0};
        uint64_t t = 0;
        int rc = f->parse(&p, copy, &io, &t, NULL);
        ok = rc == 0 || (rc == 1 && (!f->sniff || f->sniff(&p, copy)));
    }
    if (p.fio_files)
        g_hash_table_destroy(p.fio_files);
    return ok;
}

/* A column header such as "Timestamp,Hostname,DiskNumber,Type": letters,
 * and no field that starts with a digit. */
static gboolean looks_like_header(const char *line)
{
    gboolean letter = FALSE, field_start = TRUE;
    for (const char *c = line; *c; c++) {
        if (*c == ',' || *c == ' ' || *c == '\t' || *c == ';') {
            field_start = TRUE;
            continue;
        }
        if (field_start && (g_ascii_isdigit(*c) || *c == '-' || *c == '.'))
            return FALSE;
        field_start = FALSE;
        letter = letter || g_ascii_isalpha(*c);
    }
    return letter;
}

/* The formats whose grammar lines [from, len) fit, into fit; how many. */
static size_t fitting(const GPtrArray *lines, guint from, const char *path, gboolean plid,
                      const char **fit)
{
    g_autoptr(GPtrArray) rest = g_ptr_array_new();
    for (guint i = from; i < lines->len; i++)
        g_ptr_array_add(rest, lines->pdata[i]);
    size_t n = 0;
    for (size_t i = 0; i < N_FORMATS; i++)
        if (format_fits(formats[i], rest, path, plid))
            fit[n++] = formats[i]->name;
    fit[n] = NULL;
    return n;
}

/* MQSim and SSDsim write the same "time_ns dev lba size type" lines with
 * the same codes (0 write, 1 read): one format to the reader. */
static gboolean mqsim_twins(const char *const *fit, size_t n)
{
    return n == 2 && strcmp(fit[0], "mqsim") == 0 && strcmp(fit[1], "ssdsim") == 0;
}

/* The unique format whose grammar the first data lines fit (a header
 * line skipped when the rest fit one). */
static const TraceFormat *detect(TraceReader *r, GError **error)
{
    g_autoptr(GPtrArray) lines = sniff_lines(r, error);
    const char *fit[N_FORMATS + 1] = {NULL};
    if (!lines)
        return NULL;
    if (lines->len == 0) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                    "%s: cannot detect the trace format: the file has no data lines", r->path);
        return NULL;
    }
    /* a fio iolog says what it is in its first line: taken at its word, so
     * that a bad line further on is the reader's to report, with its number */
    if (g_str_has_prefix(lines->pdata[0], "fio version 2 iolog"))
        return format_by_name("fio2");
    if (g_str_has_prefix(lines->pdata[0], "fio version 3 iolog"))
        return format_by_name("fio3");
    size_t n = fitting(lines, 0, r->path, FALSE, fit);
    gboolean header = FALSE, plid = FALSE;
    if (n != 1 && !mqsim_twins(fit, n) && lines->len > 1 && looks_like_header(lines->pdata[0])) {
        header = TRUE;
        plid = trace_csv_plid_header(lines->pdata[0]);
        n = fitting(lines, 1, r->path, plid, fit);
    }
    if (n == 1 || mqsim_twins(fit, n)) {
        r->twin = n == 2;
        r->p.plid = plid;
        r->header = r->header_pending = header;
        return format_by_name(fit[0]);
    }
    g_autofree char *names = g_strjoinv(", ", (char **)(n ? fit : trace_formats()));
    g_autofree char *head = NULL;
    if (header) {
        g_autofree char *first = g_strndup(lines->pdata[0], 60);
        g_autofree char *esc = g_strescape(first, NULL);
        head = g_strdup_printf(" after the header line \"%s\"", esc);
    }
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: cannot detect the trace format: the first lines%s fit %s%s; name it "
                "with --trace-format",
                r->path, head ? head : "", n ? "each of " : "none of ", names);
    return NULL;
}

/* A named format: a first data line that does not parse but reads as a
 * column header is skipped. */
static gboolean sniff_header(TraceReader *r, GError **error)
{
    g_autoptr(GPtrArray) lines = sniff_lines(r, error);
    if (!lines)
        return FALSE;
    if (lines->len > 1 && looks_like_header(lines->pdata[0])) {
        g_autoptr(GPtrArray) one = g_ptr_array_new();
        g_ptr_array_add(one, lines->pdata[0]);
        r->header = r->header_pending = !format_fits(r->fmt, one, r->path, FALSE);
        r->p.plid = r->header && trace_csv_plid_header(lines->pdata[0]);
    }
    return TRUE;
}

/* TRACE_BLK_AUTO: replay Q when the first lines hold a Q event (blktrace
 * records Q before D for every request it sees queued), otherwise D. */
static gboolean blk_choose_event(TraceReader *r, GError **error)
{
    r->p.blk = TRACE_BLK_D;
    for (uint64_t i = 0; i < BLK_SCAN_LINES; i++) {
        char *line;
        GError *err = NULL;
        int got = next_line(r, &line, &err);
        if (got == 0)
            break;
        if (got == -1) {
            g_propagate_error(error, err);
            return FALSE;
        }
        g_clear_error(&err);
        if (got == 1 && trace_blkparse_is_queue(line)) {
            r->p.blk = TRACE_BLK_Q;
            break;
        }
    }
    return rewind_source(r, error);
}

static TraceReader *reader_new(const char *path, const TraceOptions *opt)
{
    TraceReader *r = g_new0(TraceReader, 1);
    r->path = g_strdup(path);
    r->buf = g_malloc(BUF_CAP + 1);
    r->opt = *opt;
    r->opt.format = NULL;
    r->p.path = r->path;
    return r;
}

/* The blkparse command that turns a binary blktrace at path into the text
 * ftlsim reads: blktrace writes NAME.blktrace.CPU files, which blkparse -i
 * NAME reads together; another name goes through blkparse's standard input. */
static char *blkparse_command(const char *path, char **text)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_autofree char *base = g_path_get_basename(path);
    const char *dot = g_strrstr(base, ".blktrace.");
    gboolean cpu =
        dot && dot != base && dot[10] && strspn(dot + 10, "0123456789") == strlen(dot + 10);
    if (cpu) {
        g_autofree char *name = g_strndup(base, (gsize)(dot - base));
        g_autofree char *in =
            strcmp(dir, ".") == 0 ? g_strdup(name) : g_build_filename(dir, name, NULL);
        *text = g_strconcat(in, ".blkparse", NULL);
        g_autofree char *qi = g_shell_quote(in);
        g_autofree char *qo = g_shell_quote(*text);
        return g_strdup_printf("blkparse -i %s -o %s", qi, qo);
    }
    *text = g_strconcat(path, ".blkparse", NULL);
    g_autofree char *qp = g_shell_quote(path);
    g_autofree char *qo = g_shell_quote(*text);
    return g_strdup_printf("blkparse -i - -o %s < %s", qo, qp);
}

/* A binary blktrace (struct blk_io_trace records, magic 0x65617400 and the
 * version in the low byte, in either byte order) is not text: refused with
 * the command that converts it. */
static gboolean refuse_binary_blktrace(TraceReader *r, GError **error)
{
    while (r->end - r->start < 4 && !r->eof) {
        int got = fill(r, error);
        if (got < 0)
            return FALSE;
        if (got == 0)
            r->eof = TRUE;
    }
    if (r->end - r->start < 4)
        return TRUE;
    const unsigned char *b = (const unsigned char *)r->buf + r->start;
    uint32_t le =
        (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    uint32_t be =
        (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
    if ((le & 0xffffff00u) != 0x65617400u && (be & 0xffffff00u) != 0x65617400u)
        return TRUE;
    g_autofree char *text = NULL;
    g_autofree char *cmd = blkparse_command(r->path, &text);
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: found a binary blktrace (blk_io_trace records), expected text: convert it "
                "with `%s` and give --trace %s",
                r->path, cmd, text);
    return FALSE;
}

/* Resolve the format (by name or by content) and the blkparse event. */
static gboolean reader_start(TraceReader *r, const char *format, GError **error)
{
    if (!refuse_binary_blktrace(r, error))
        return FALSE;
    if (format) {
        r->fmt = format_by_name(format);
        if (!sniff_header(r, error))
            return FALSE;
    } else {
        r->fmt = detect(r, error);
        r->detected = TRUE;
        if (!r->fmt)
            return FALSE;
    }
    r->p.blk = r->opt.blk_events == TRACE_BLK_D ? TRACE_BLK_D : TRACE_BLK_Q;
    if (r->fmt == &trace_format_blkparse && r->opt.blk_events == TRACE_BLK_AUTO)
        return blk_choose_event(r, error);
    return TRUE;
}

static gboolean check_format_name(const char *path, const char *format, GError **error)
{
    if (format == NULL || format_by_name(format) != NULL)
        return TRUE;
    g_autofree char *known = g_strjoinv(", ", (char **)trace_formats());
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: unknown trace format \"%s\" (known: %s)", path, format, known);
    return FALSE;
}

TraceReader *trace_open(const char *path, const TraceOptions *opt, GError **error)
{
    g_return_val_if_fail(path != NULL && opt != NULL, NULL);
    if (!check_format_name(path, opt->format, error))
        return NULL;
    gboolean fifo = FALSE;
    int err = 0, fd = text_file_open(path, &fifo, &err);
    if (fd < 0) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_OPEN, "%s: cannot open: %s", path,
                    g_strerror(err));
        return NULL;
    }
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        close(fd);
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_OPEN, "%s: cannot open: %s", path,
                    g_strerror(ENOMEM));
        return NULL;
    }
    gzbuffer(gz, 128 * 1024);
    int first = fifo ? gzgetc(gz) : 0;
    if (first < 0 || (fifo && gzungetc(first, gz) < 0)) {
        gzclose(gz);
        GError *e = NULL;
        text_file_fifo_error(path, "a trace", &e);
        g_set_error_literal(error, TRACE_ERROR, TRACE_ERROR_OPEN, e->message);
        g_error_free(e);
        return NULL;
    }
    TraceReader *r = reader_new(path, opt);
    r->gz = gz;
    if (!reader_start(r, opt->format, error)) {
        trace_close(r);
        return NULL;
    }
    return r;
}

TraceReader *trace_open_memory(const char *name, const void *data, size_t len,
                               const TraceOptions *opt, GError **error)
{
    g_return_val_if_fail(name != NULL && opt != NULL && (data != NULL || len == 0), NULL);
    if (!check_format_name(name, opt->format, error))
        return NULL;
    TraceReader *r = reader_new(name, opt);
    r->mem = data;
    r->mem_len = len;
    if (!reader_start(r, opt->format, error)) {
        trace_close(r);
        return NULL;
    }
    return r;
}

void trace_close(TraceReader *r)
{
    if (!r)
        return;
    if (r->gz)
        gzclose(r->gz);
    if (r->p.fio_files)
        g_hash_table_destroy(r->p.fio_files);
    g_free(r->buf);
    g_free(r->path);
    g_free(r);
}

/* Times relative to the first record; a step back is clamped to the time
 * before it, so returned times never decrease. */
static SimTime relative_time(TraceReader *r, uint64_t t)
{
    if (!r->have_base) {
        r->have_base = TRUE;
        r->base = r->prev = t;
    }
    if (t < r->prev)
        t = r->prev;
    r->prev = t;
    return t - r->base;
}

/* One line: 1 a record, 0 nothing to return, -1 malformed (error set). */
static int parse_line(TraceReader *r, HostIo *io, uint64_t *t, GError **error)
{
    char *line;
    int got = next_line(r, &line, error);
    if (got == 0 || got == -1)
        return got == 0 ? 2 : -2;
    if (got == 2)
        return -1;
    if (!(line = data_line(line)))
        return 0;
    if (r->header_pending) {
        r->header_pending = FALSE;
        return 0;
    }
    *io = (HostIo){0};
    return r->fmt->parse(&r->p, line, io, t, error);
}

int trace_next(TraceReader *r, HostIo *io, GError **error)
{
    g_return_val_if_fail(r != NULL && io != NULL, -1);
    for (uint64_t idle = 0;; idle++) {
        GError *err = NULL;
        uint64_t t = 0;
        if (idle == TRACE_IDLE_LINES_MAX) {
            g_set_error(error, TRACE_ERROR, TRACE_ERROR_READ,
                        "%s:%" G_GUINT64_FORMAT ": found %d lines in a row without a record "
                        "(blank, comments%s), expected trace records (an endless stream?)",
                        r->path, r->p.line, TRACE_IDLE_LINES_MAX,
                        r->opt.skip_bad_lines ? ", malformed lines skipped" : "");
            return -1;
        }
        int rc = parse_line(r, io, &t, &err);
        if (rc == 2)
            return 0;
        if (rc == -2 || (rc == -1 && !r->opt.skip_bad_lines)) {
            g_propagate_error(error, err);
            return -1;
        }
        if (rc == -1) {
            r->bad++;
            g_clear_error(&err);
            continue;
        }
        if (rc == 0)
            continue;
        if (r->opt.device >= 0 && (int64_t)io->dev != r->opt.device) {
            idle = 0; /* another device's record: the file moves on */
            continue;
        }
        io->time = relative_time(r, t);
        r->record_line = r->p.line;
        return 1;
    }
}

const char *trace_format_name(const TraceReader *r)
{
    return r->fmt->name;
}

gboolean trace_format_was_detected(const TraceReader *r)
{
    return r->detected;
}

const char *trace_format_label(const TraceReader *r)
{
    return r->twin ? "mqsim/ssdsim" : r->fmt->name;
}

gboolean trace_header_skipped(const TraceReader *r)
{
    return r->header;
}

uint64_t trace_line(const TraceReader *r)
{
    return r->record_line;
}

uint64_t trace_bad_lines(const TraceReader *r)
{
    return r->bad;
}

