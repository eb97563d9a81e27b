/*
 * config_fit.c - the numeric keys calibration may fit: which they are, and
 * their values as plain numbers in base units (bytes, ns, transfers/s,
 * bytes/s, fractions, counts) to and from config text.
 */
#include "sim/config/config.h"
#include "sim/config/config_schema.h"
#include "sim/config/config_units.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>


/* The kind of a row, or -1 when it is not a number calibration can move. */
static int fit_kind(const ConfigKey *k)
{
    switch (k->type) {
    case CT_SIZE:
        return CONFIG_NUM_BYTES;
    case CT_TIME:
        return CONFIG_NUM_NS;
    case CT_RATE:
        return CONFIG_NUM_PER_S;
    case CT_BANDWIDTH:
        return CONFIG_NUM_BYTES_PER_S;
    case CT_PERCENT:
        return CONFIG_NUM_FRACTION;
    case CT_INT:
        return k->choices ? -1 : CONFIG_NUM_COUNT; /* a list of allowed ints is not a range */
    default:
        return -1;
    }
}

gboolean config_numeric_key(const char *group_key, const DriveParams *p, ConfigNumKey *out,
                            GError **error)
{
    const char *dot = strrchr(group_key, '.');
    if (!dot || dot == group_key || !dot[1]) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "\"%s\": expected GROUP.KEY, e.g. pslc.dynamic_cap", group_key);
        return FALSE;
    }
    g_autofree char *group = g_strndup(group_key, (gsize)(dot - group_key));
    const ConfigKey *k = config_schema_find(group, dot + 1);
    if (!k) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN,
                    "\"%s\": unknown key (configs/reference.ini lists them all)", group_key);
        return FALSE;
    }
    int kind = fit_kind(k);
    if (kind < 0) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE,
                    "\"%s\": not a number (found a key of names, flags or fixed choices); expected "
                    "a size, time, rate, bandwidth, percentage or count",
                    group_key);
        return FALSE;
    }
    memset(out, 0, sizeof *out);
    out->kind = kind;
    g_strlcpy(out->group, group, sizeof out->group);
    g_strlcpy(out->key, dot + 1, sizeof out->key);
    out->min = (double)k->min;
    out->max = kind == CONFIG_NUM_FRACTION ? 1.0 : (double)config_key_max(k);
    char buf[CONFIG_VALUE_LEN];
    config_key_format(k, p, buf, sizeof buf);
    return config_numeric_parse(kind, buf, &out->value);
}

gboolean config_numeric_parse(ConfigNumKind kind, const char *text, double *out)
{
    uint64_t v = 0;
    gboolean ok = FALSE;
    switch (kind) {
    case CONFIG_NUM_BYTES:
        ok = config_parse_size(text, &v);
        break;
    case CONFIG_NUM_NS:
        ok = config_parse_time(text, &v);
        break;
    case CONFIG_NUM_PER_S:
        ok = config_parse_rate(text, &v);
        break;
    case CONFIG_NUM_BYTES_PER_S:
        ok = config_parse_bandwidth(text, &v);
        break;
    case CONFIG_NUM_FRACTION:
        return config_parse_percent(text, out);
    case CONFIG_NUM_COUNT:
        ok = config_parse_uint(text, &v);
        break;
    }
    if (ok)
        *out = (double)v;
    return ok;
}

void config_numeric_format(ConfigNumKind kind, double value, char *buf, gsize len)
{
    if (kind == CONFIG_NUM_FRACTION) {
        config_format_percent(value, buf, len);
        return;
    }
    uint64_t v = value <= 0 ? 0 : (uint64_t)llround(value);
    switch (kind) {
    case CONFIG_NUM_BYTES:
        config_format_size(v, buf, len);
        return;
    case CONFIG_NUM_NS:
        config_format_time(v, buf, len);
        return;
    case CONFIG_NUM_PER_S:
        config_format_rate(v, buf, len);
        return;
    case CONFIG_NUM_BYTES_PER_S:
        config_format_bandwidth(v, buf, len);
        return;
    default:
        g_snprintf(buf, len, "%" PRIu64, v);
        return;
    }
}

double config_numeric_si(ConfigNumKind kind, double value)
{
    return kind == CONFIG_NUM_NS ? value / 1e9 : value;
}

const char *config_numeric_si_unit(ConfigNumKind kind)
{
    static const char *const names[] = {"bytes", "s", "1/s", "bytes/s", "fraction", "count"};
    return names[kind];
}
