/*
 * trace_impl.h - what the trace readers share inside sim/ (not a public API).
 *
 * A format is a line parser: it turns one text line (NUL-terminated, no
 * newline, never blank) into a HostIo with an absolute time in ns, skips it,
 * or reports it malformed. trace.c owns files, line numbers, relative times,
 * device filtering and detection.
 */
#ifndef FTLSIM_TRACE_IMPL_H
#define FTLSIM_TRACE_IMPL_H

#include "sim/host/trace.h"

#include <stddef.h>
#include <stdint.h>

#define TRACE_ERROR (trace_error_quark())
GQuark trace_error_quark(void);

typedef enum TraceErrorCode {
    TRACE_ERROR_OPEN,      /* file missing or unreadable */
    TRACE_ERROR_FORMAT,    /* unknown format name or undetectable content */
    TRACE_ERROR_MALFORMED, /* a line does not fit the format */
    TRACE_ERROR_READ,      /* decompression or I/O error while reading */
} TraceErrorCode;

#define TRACE_LINE_MAX 65536 /* bytes, without the newline */
/* An input with no newline in this much (binary, /dev/zero) is refused. */
#define TRACE_SKIP_MAX (64 << 20) /* bytes */
/* Lines in a row that hold no record (blank, comments, malformed ones
 * skipped): more than a trace has, an endless stream of nothing. */
#define TRACE_IDLE_LINES_MAX (1 << 22)
#define TRACE_FIELDS_MAX 16

/* Per-reader parse state; formats use the parts they need. */
typedef struct TraceParser {
    const char *path;
    uint64_t line;         /* current line number, from 1 */
    TraceBlkEvents blk;    /* blkparse: TRACE_BLK_Q or TRACE_BLK_D once resolved */
    gboolean blk_summary;  /* blkparse: inside the summary block at the end */
    gboolean fio_header;   /* fio: header line seen */
    GHashTable *fio_files; /* fio: file name -> index + 1, in order of `add` */
    gboolean plid;         /* CSV: the header's last column is plid, every line's last field */
    char *fields[TRACE_FIELDS_MAX];
} TraceParser;

/* Parse one line. 1: *io and *time_ns (absolute, ns) filled; 0: a line that
 * carries no I/O (header, merge, summary...); -1: malformed, *error set. */
typedef int (*TraceParseFn)(TraceParser *p, char *line, HostIo *io, uint64_t *time_ns,
                            GError **error);

typedef struct TraceFormat {
    const char *name;
    TraceParseFn parse;
    /* Extra condition for detection on a line parse accepted (NULL: none). */
    gboolean (*sniff)(TraceParser *p, char *line);
} TraceFormat;

/* CSV: whether a header line's last column is "plid" (trace_csv.c). */
gboolean trace_csv_plid_header(const char *line);

/* blkparse: whether a line is a Q event (for TRACE_BLK_AUTO). */
gboolean trace_blkparse_is_queue(char *line);

/* Field helpers (trace_fields.c). */

/* Split line in place at sep (',') or at runs of blanks (sep 0); fields are
 * trimmed of blanks. Returns the field count, max + 1 when there are more. */
int trace_split(char *line, char sep, char **fields, int max);
/* A decimal integer: digits only, no sign, no overflow. */
gboolean trace_u64(const char *s, uint64_t *out);
/* A decimal number scaled by 10^digits, parsed exactly as integer and
 * fraction; fraction digits beyond `digits` are dropped (truncated). */
gboolean trace_fixed(const char *s, unsigned digits, uint64_t *out);
/* A device number: a decimal integer below 2^32. */
gboolean trace_dev(const char *s, uint32_t *dev);
/* Linux's dev_t encoding of major,minor (major * 256 + minor when the minor
 * is below 256); FALSE when major >= 4096 or minor >= 2^20. */
gboolean trace_devnum(uint64_t major, uint64_t minor, uint32_t *dev);
/* a * b into *out; FALSE on overflow. */
gboolean trace_mul(uint64_t a, uint64_t b, uint64_t *out);
/* Set "PATH:LINE: field NAME: found "X", expected WHAT"; returns -1. */
int trace_bad(const TraceParser *p, GError **error, const char *field, const char *found,
              const char *expected);
/* Check a field count: n fields where want were expected (exact or minimum). */
int trace_bad_count(const TraceParser *p, GError **error, int n, int want, gboolean at_least,
                    const char *what);
/* A data length in bytes that must be > 0 (zero-length reads/writes are
 * malformed); returns -1 with the error set otherwise. */
int trace_check_length(const TraceParser *p, GError **error, const char *field, const char *found,
                       uint64_t bytes);
/* A byte offset and a byte length > 0 into io, from the fields named
 * off_name and len_name; returns -1 with the error set otherwise. */
int trace_bytes(const TraceParser *p, GError **error, const char *off_name, const char *off,
                const char *len_name, const char *len, HostIo *io);

/* Open a reader over a memory buffer (plain text; for the fuzz harness and
 * tests). data must outlive the reader; name stands for the path in errors. */
TraceReader *trace_open_memory(const char *name, const void *data, size_t len,
                               const TraceOptions *opt, GError **error);

#endif
