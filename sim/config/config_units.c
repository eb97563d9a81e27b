/*
 * config_units.c - parsing and printing values with units (see config_units.h).
 *
 * A value is a decimal number (digits, optionally '.' and more digits),
 * optional spaces, and a unit from the table of its kind. Prefixes without
 * 'i' are decimal (k = K = 1000), with 'i' binary (Ki = 1024).
 */
#include "sim/config/config_units.h"

#include <errno.h>
#include <string.h>

typedef unsigned __int128 u128;

typedef struct Unit {
    const char *name;
    uint64_t scale; /* base units per unit */
} Unit;

#define KB_ 1000ull
#define MB_ (KB_ * KB_)
#define GB_ (MB_ * KB_)
#define TB_ (GB_ * KB_)
#define PB_ (TB_ * KB_)

/* Parse tables list every accepted spelling; print tables, largest first,
 * the one spelling written back. */
static const Unit size_units[] = {
    {"B", 1},           {"kB", KB_},         {"KB", KB_},        {"k", KB_},
    {"K", KB_},         {"MB", MB_},         {"M", MB_},         {"GB", GB_},
    {"G", GB_},         {"TB", TB_},         {"T", TB_},         {"PB", PB_},
    {"P", PB_},         {"KiB", 1ull << 10}, {"Ki", 1ull << 10}, {"MiB", 1ull << 20},
    {"Mi", 1ull << 20}, {"GiB", 1ull << 30}, {"Gi", 1ull << 30}, {"TiB", 1ull << 40},
    {"Ti", 1ull << 40}, {"PiB", 1ull << 50}, {"Pi", 1ull << 50}, {NULL, 0},
};
static const Unit size_print[] = {
    {"PiB", 1ull << 50},
    {"PB", PB_},
    {"TiB", 1ull << 40},
    {"TB", TB_},
    {"GiB", 1ull << 30},
    {"GB", GB_},
    {"MiB", 1ull << 20},
    {"MB", MB_},
    {"KiB", 1ull << 10},
    {"kB", KB_},
    {"B", 1},
    {NULL, 0},
};
static const Unit time_units[] = {
    {"ns", 1},       {"us", 1000},      {"\xc2\xb5s", 1000},
    {"ms", 1000000}, {"s", 1000000000}, {"min", 60000000000ull},
    {NULL, 0},
};
static const Unit time_print[] = {
    {"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}, {NULL, 0},
};
static const Unit rate_units[] = {
    {"GT/s", GB_}, {"MT/s", MB_}, {"kT/s", KB_}, {"T/s", 1}, {NULL, 0},
};
static const Unit bw_units[] = {
    {"B/s", 1},
    {"kB/s", KB_},
    {"KB/s", KB_},
    {"MB/s", MB_},
    {"GB/s", GB_},
    {"TB/s", TB_},
    {"KiB/s", 1ull << 10},
    {"MiB/s", 1ull << 20},
    {"GiB/s", 1ull << 30},
    {"TiB/s", 1ull << 40},
    {NULL, 0},
};
static const Unit bw_print[] = {
    {"TiB/s", 1ull << 40},
    {"TB/s", TB_},
    {"GiB/s", 1ull << 30},
    {"GB/s", GB_},
    {"MiB/s", 1ull << 20},
    {"MB/s", MB_},
    {"KiB/s", 1ull << 10},
    {"kB/s", KB_},
    {"B/s", 1},
    {NULL, 0},
};

#define MAX_FRAC_DIGITS 18

/* A scanned decimal number: whole part, fraction digits as an integer. */
typedef struct Decimal {
    uint64_t whole;
    uint64_t frac;   /* e.g. 25 for .25 */
    int frac_digits; /* 2 for .25 */
    const char *end; /* first character after the number */
} Decimal;

static gboolean scan_decimal(const char *s, Decimal *d)
{
    memset(d, 0, sizeof *d);
    if (!g_ascii_isdigit(*s))
        return FALSE;
    for (; g_ascii_isdigit(*s); s++) {
        uint64_t digit = (uint64_t)(*s - '0');
        if (d->whole > (UINT64_MAX - digit) / 10)
            return FALSE;
        d->whole = d->whole * 10 + digit;
    }
    if (*s == '.') {
        s++;
        if (!g_ascii_isdigit(*s))
            return FALSE;
        for (; g_ascii_isdigit(*s); s++) {
            if (d->frac_digits == MAX_FRAC_DIGITS)
                return FALSE;
            d->frac = d->frac * 10 + (uint64_t)(*s - '0');
            d->frac_digits++;
        }
    }
    d->end = s;
    return TRUE;
}

static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The unit spelled by s up to trailing spaces, or NULL. */
static const Unit *match_unit(const Unit *units, const char *s)
{
    gsize n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    for (const Unit *u = units; u->name; u++)
        if (strlen(u->name) == n && memcmp(u->name, s, n) == 0)
            return u;
    return NULL;
}

/* d x scale rounded to the nearest integer (halves up), if it fits. */
static gboolean scale_decimal(const Decimal *d, uint64_t scale, uint64_t *out)
{
    u128 pow = 1;
    for (int i = 0; i < d->frac_digits; i++)
        pow *= 10;
    u128 v = (u128)d->whole * scale + ((u128)d->frac * scale + pow / 2) / pow;
    if (v > UINT64_MAX)
        return FALSE;
    *out = (uint64_t)v;
    return TRUE;
}

/* number [spaces] unit; a bare number is taken in bare_scale units, or
 * refused when bare_scale is 0 (a bare 0 is always accepted). Fractions of
 * the base unit itself are refused when whole_base is set. */
static gboolean parse_with_units(const char *text, const Unit *units, uint64_t bare_scale,
                                 gboolean whole_base, uint64_t *out)
{
    Decimal d;
    if (!text || !scan_decimal(skip_spaces(text), &d))
        return FALSE;
    const char *rest = skip_spaces(d.end);
    uint64_t scale;
    if (*rest == '\0') {
        if (bare_scale == 0 && (d.whole != 0 || d.frac != 0))
            return FALSE;
        scale = bare_scale ? bare_scale : 1;
    } else {
        const Unit *u = match_unit(units, rest);
        if (!u)
            return FALSE;
        scale = u->scale;
    }
    if (whole_base && scale == 1 && d.frac_digits > 0)
        return FALSE;
    return scale_decimal(&d, scale, out);
}

gboolean config_parse_size(const char *text, uint64_t *out)
{
    return parse_with_units(text, size_units, 1, TRUE, out);
}

gboolean config_parse_time(const char *text, uint64_t *out)
{
    return parse_with_units(text, time_units, 0, FALSE, out);
}

gboolean config_parse_rate(const char *text, uint64_t *out)
{
    return parse_with_units(text, rate_units, 0, FALSE, out);
}

gboolean config_parse_bandwidth(const char *text, uint64_t *out)
{
    return parse_with_units(text, bw_units, 0, FALSE, out);
}

/* "7%", "7.5 %" or a bare fraction "0.07"; the decimal is converted once,
 * so 12.3% and 0.123 give the same double. */
gboolean config_parse_percent(const char *text, double *out)
{
    Decimal d;
    if (!text)
        return FALSE;
    const char *start = skip_spaces(text);
    if (!scan_decimal(start, &d))
        return FALSE;
    const char *rest = skip_spaces(d.end);
    gboolean percent = *rest == '%';
    if (percent)
        rest = skip_spaces(rest + 1);
    if (*rest != '\0')
        return FALSE;
    char buf[64];
    g_snprintf(buf, sizeof buf, "%.*se%d", (int)(d.end - start), start, percent ? -2 : 0);
    *out = g_ascii_strtod(buf, NULL);
    return TRUE;
}

gboolean config_parse_uint(const char *text, uint64_t *out)
{
    if (!text)
        return FALSE;
    const char *s = skip_spaces(text);
    if (!g_ascii_isdigit(*s))
        return FALSE;
    char *end = NULL;
    errno = 0;
    guint64 v = g_ascii_strtoull(s, &end, 10);
    if (errno != 0 || end == s || *skip_spaces(end) != '\0')
        return FALSE;
    *out = v;
    return TRUE;
}

gboolean config_parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = {"true", "yes", "1"};
    static const char *const no[] = {"false", "no", "0"};
    if (!text)
        return FALSE;
    g_autofree char *t = g_strstrip(g_strdup(text));
    for (unsigned i = 0; i < G_N_ELEMENTS(yes); i++) {
        if (g_ascii_strcasecmp(t, yes[i]) == 0) {
            *out = true;
            return TRUE;
        }
        if (g_ascii_strcasecmp(t, no[i]) == 0) {
            *out = false;
            return TRUE;
        }
    }
    return FALSE;
}

/* The largest unit that gives an exact value with at most 3 decimals. */
static void format_units(uint64_t v, const Unit *units, char *buf, gsize len)
{
    if (v == 0) {
        g_strlcpy(buf, "0", len);
        return;
    }
    for (const Unit *u = units; u->name; u++) {
        u128 milli = (u128)v * 1000;
        if (v < u->scale || milli % u->scale != 0)
            continue;
        uint64_t n = (uint64_t)(milli / u->scale);
        unsigned frac = (unsigned)(n % 1000);
        if (frac == 0) {
            g_snprintf(buf, len, "%" G_GUINT64_FORMAT "%s", n / 1000, u->name);
        } else {
            char digits[8];
            g_snprintf(digits, sizeof digits, "%03u", frac);
            for (int i = 2; i > 0 && digits[i] == '0'; i--)
                digits[i] = '\0';
            g_snprintf(buf, len, "%" G_GUINT64_FORMAT ".%s%s", n / 1000, digits, u->name);
        }
        return;
    }
    g_snprintf(buf, len, "%" G_GUINT64_FORMAT, v); /* unreachable: the last unit is 1 */
}

void config_format_size(uint64_t bytes, char *buf, gsize len)
{
    format_units(bytes, size_print, buf, len);
}

void config_format_time(uint64_t ns, char *buf, gsize len)
{
    format_units(ns, time_print, buf, len);
}

void config_format_rate(uint64_t per_s, char *buf, gsize len)
{
    format_units(per_s, rate_units, buf, len);
}

void config_format_bandwidth(uint64_t bytes_per_s, char *buf, gsize len)
{
    format_units(bytes_per_s, bw_print, buf, len);
}

void config_format_percent(double fraction, char *buf, gsize len)
{
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(num, sizeof num, "%.6g", fraction * 100.0);
    g_snprintf(buf, len, "%s%%", num);
}
