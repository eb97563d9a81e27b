/*
 * trace_fields.c - field splitting, exact number parsing and the one shape
 * of malformed-line error all trace readers share:
 * "PATH:LINE: field NAME: found "X", expected WHAT".
 */
#include "sim/host/trace_impl.h"

#include <string.h>

/* clang-format off */
G_DEFINE_QUARK(ftlsim-trace-error-quark, trace_error)
/* clang-format on */

#define FOUND_MAX 48 /* bytes of the offending text quoted in errors */

static gboolean is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static char *trim(char *s)
{
    while (is_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_blank(s[n - 1]))
        s[--n] = '\0';
    return s;
}

int trace_split(char *line, char sep, char **fields, int max)
{
    int n = 0;
    char *s = line;
    if (sep != 0) {
        for (;;) {
            char *end = strchr(s, sep);
            if (end)
                *end = '\0';
            if (n == max)
                return max + 1;
            fields[n++] = trim(s);
            if (!end)
                return n;
            s = end + 1;
        }
    }
    for (;;) {
        while (is_blank(*s))
            s++;
        if (*s == '\0')
            return n;
        if (n == max)
            return max + 1;
        fields[n++] = s;
        while (*s != '\0' && !is_blank(*s))
            s++;
        if (*s != '\0')
            *s++ = '\0';
    }
}

gboolean trace_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (*s == '\0')
        return FALSE;
    for (; *s; s++) {
        if (!g_ascii_isdigit(*s))
            return FALSE;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return FALSE;
        v = v * 10 + d;
    }
    *out = v;
    return TRUE;
}

gboolean trace_mul(uint64_t a, uint64_t b, uint64_t *out)
{
    return g_uint64_checked_mul(out, a, b);
}

gboolean trace_fixed(const char *s, unsigned digits, uint64_t *out)
{
    uint64_t ipart = 0, frac = 0, scale = 1;
    unsigned seen = 0;
    const char *dot = strchr(s, '.');
    size_t ilen = dot ? (size_t)(dot - s) : strlen(s);
    char ibuf[24];
    if (ilen == 0 || ilen >= sizeof ibuf)
        return FALSE;
    memcpy(ibuf, s, ilen);
    ibuf[ilen] = '\0';
    if (!trace_u64(ibuf, &ipart))
        return FALSE;
    for (unsigned i = 0; i < digits; i++)
        scale *= 10;
    if (dot) {
        const char *f = dot + 1;
        if (*f == '\0')
            return FALSE;
        for (; *f; f++) {
            if (!g_ascii_isdigit(*f))
                return FALSE;
            if (seen < digits) {
                frac = frac * 10 + (uint64_t)(*f - '0');
                seen++;
            }
        }
        for (; seen < digits; seen++)
            frac *= 10;
    }
    uint64_t v;
    if (!trace_mul(ipart, scale, &v) || v > UINT64_MAX - frac)
        return FALSE;
    *out = v + frac;
    return TRUE;
}

int trace_bad(const TraceParser *p, GError **error, const char *field, const char *found,
              const char *expected)
{
    char shown[FOUND_MAX + 4];
    size_t n = 0;
    for (; found[n] != '\0' && n < FOUND_MAX; n++) {
        unsigned char c = (unsigned char)found[n];
        shown[n] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (found[n] != '\0') {
        g_strlcpy(shown + n, "...", sizeof shown - n);
        n += 3;
    }
    shown[n] = '\0';
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_MALFORMED,
                "%s:%" G_GUINT64_FORMAT ": field %s: found \"%s\", expected %s", p->path, p->line,
                field, shown, expected);
    return -1;
}

int trace_bad_count(const TraceParser *p, GError **error, int n, int want, gboolean at_least,
                    const char *what)
{
    char found[16], expected[96];
    if (n > TRACE_FIELDS_MAX)
        g_snprintf(found, sizeof found, "more than %d", TRACE_FIELDS_MAX);
    else
        g_snprintf(found, sizeof found, "%d", n);
    g_snprintf(expected, sizeof expected, "%s%d %s", at_least ? "at least " : "", want, what);
    return trace_bad(p, error, "count", found, expected);
}

gboolean trace_dev(const char *s, uint32_t *dev)
{
    uint64_t v;
    if (!trace_u64(s, &v) || v > UINT32_MAX)
        return FALSE;
    *dev = (uint32_t)v;
    return TRUE;
}

gboolean trace_devnum(uint64_t major, uint64_t minor, uint32_t *dev)
{
    if (major >= 4096 || minor >= (1u << 20))
        return FALSE;
    *dev = (uint32_t)((minor & 0xff) | (major << 8) | ((minor & ~(uint64_t)0xff) << 12));
    return TRUE;
}

int trace_check_length(const TraceParser *p, GError **error, const char *field, const char *found,
                       uint64_t bytes)
{
    if (bytes == 0)
        return trace_bad(p, error, field, found, "a length > 0");
    return 0;
}

int trace_bytes(const TraceParser *p, GError **error, const char *off_name, const char *off,
                const char *len_name, const char *len, HostIo *io)
{
    if (!trace_u64(off, &io->offset))
        return trace_bad(p, error, off_name, off, "a byte offset");
    if (!trace_u64(len, &io->length))
        return trace_bad(p, error, len_name, len, "a byte count");
    return trace_check_length(p, error, len_name, len, io->length);
}
