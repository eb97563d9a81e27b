/*
 * workload_fio_value.c - fio's value syntax, for the option tables
 * (workload_fio.c, workload_fio_ext.c) and the named workloads: numbers
 * with units (sizes, times), integers in a range, booleans, trailing
 * comments, ${VAR} from the environment, and arithmetic in numbers
 * ("(4k*2)", "2*64k", "(1m+512k)/2"), with fio's unit suffixes on every
 * operand.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Units -------------------------------------------------------------- */

/* Parse a decimal (or 0x hex) number at the start of text; *end past it. */
static gboolean wl_number(const char *text, double *out, uint64_t *iout, const char **end)
{
    char *e = NULL;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        if (!g_ascii_isxdigit(text[2]))
            return FALSE;
        *iout = g_ascii_strtoull(text + 2, &e, 16);
        *out = (double)*iout;
        *end = e;
        return TRUE;
    }
    if (!g_ascii_isdigit(text[0]) && !(text[0] == '.' && g_ascii_isdigit(text[1])))
        return FALSE;
    *iout = g_ascii_strtoull(text, &e, 10);
    if (*e == '.') {
        *out = g_ascii_strtod(text, &e);
        *iout = 0;
    } else {
        *out = (double)*iout;
    }
    *end = e;
    return TRUE;
}

/* Multiplier of a byte suffix (lowercase), 0 when unknown. fio reads "k",
 * "ki" and "kb" in kb_base and only "kib" in the other base (fio 3.33's
 * get_mult_bytes: "ki" is not an IEC suffix to it). */
static uint64_t wl_byte_mult(const char *suf, uint32_t kb_base)
{
    static const char letters[] = "kmgtp";
    uint64_t other = kb_base == 1000 ? 1024 : 1000;
    if (suf[0] == '\0' || strcmp(suf, "b") == 0)
        return 1;
    const char *p = strchr(letters, suf[0]);
    if (!p || suf[0] == '\0')
        return 0;
    int pow = (int)(p - letters) + 1;
    uint64_t base;
    if (suf[1] == '\0' || strcmp(suf + 1, "b") == 0 || strcmp(suf + 1, "i") == 0)
        base = kb_base;
    else if (strcmp(suf + 1, "ib") == 0)
        base = other;
    else
        return 0;
    uint64_t m = 1;
    while (pow--)
        m *= base;
    return m;
}

gboolean workload_parse_bytes(const char *text, uint32_t kb_base, uint64_t *out, GError **error)
{
    if (wl_fio_is_expr(text))
        return wl_fio_eval(text, kb_base, out, error);
    double d;
    uint64_t i;
    const char *end;
    gboolean ok = wl_number(text, &d, &i, &end);
    g_autofree char *suf = ok ? g_ascii_strdown(end, -1) : NULL;
    uint64_t mult = ok ? wl_byte_mult(g_strstrip(suf), kb_base) : 0;
    if (mult == 0 || d * (double)mult >= 18446744073709551615.0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected a size such as 4096, 4k, 1m or 2g", text);
        return FALSE;
    }
    *out = i ? i * mult : (uint64_t)(d * (double)mult + 0.5);
    return TRUE;
}

static SimTime wl_time_mult(const char *suf, SimTime bare_unit)
{
    static const struct {
        const char *s;
        SimTime m;
    } units[] = {
        {"ns", SIM_NS},         {"us", SIM_US},       {"usec", SIM_US},     {"ms", SIM_MS},
        {"msec", SIM_MS},       {"s", SIM_SEC},       {"sec", SIM_SEC},     {"m", 60 * SIM_SEC},
        {"min", 60 * SIM_SEC},  {"h", 3600 * SIM_SEC}, {"d", 86400 * SIM_SEC},
    };
    if (suf[0] == '\0')
        return bare_unit;
    for (unsigned i = 0; i < G_N_ELEMENTS(units); i++)
        if (strcmp(suf, units[i].s) == 0)
            return units[i].m;
    return 0;
}

gboolean workload_parse_time(const char *text, SimTime bare_unit, SimTime *out, GError **error)
{
    double d;
    uint64_t i;
    const char *end;
    gboolean ok = wl_number(text, &d, &i, &end);
    g_autofree char *suf = ok ? g_ascii_strdown(end, -1) : NULL;
    SimTime mult = ok ? wl_time_mult(g_strstrip(suf), bare_unit) : 0;
    if (mult == 0 || d * (double)mult >= 1.8e19) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected a duration such as 500ms, 60s or 2m", text);
        return FALSE;
    }
    *out = i ? i * mult : (SimTime)(d * (double)mult + 0.5);
    return TRUE;
}

gboolean wl_fio_u32(const char *text, uint32_t lo, uint32_t hi, uint32_t *out, GError **error)
{
    char *end = NULL;
    uint64_t v = g_ascii_isdigit(text[0]) ? g_ascii_strtoull(text, &end, 10) : 0;
    if (!end || *end != '\0' || v < lo || v > hi) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected an integer from %u to %u", text, lo, hi);
        return FALSE;
    }
    *out = (uint32_t)v;
    return TRUE;
}

gboolean wl_fio_double(const char *text, double *out)
{
    char *end = NULL;
    if (text[0] == '\0')
        return FALSE;
    *out = g_ascii_strtod(text, &end);
    return end && *end == '\0' && isfinite(*out);
}

/* Boolean options: bare, or =1/=0. */
gboolean wl_bad(GError **error, const char *v, const char *expected)
{
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE, "found \"%s\", expected %s", v,
                expected);
    return FALSE;
}

gboolean wl_fio_bool(const char *v, gboolean *out, GError **error)
{
    if (v == NULL || strcmp(v, "1") == 0 || strcmp(v, "true") == 0) {
        *out = TRUE;
        return TRUE;
    }
    if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0) {
        *out = FALSE;
        return TRUE;
    }
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE, "found \"%s\", expected 0 or 1", v);
    return FALSE;
}

/* ---- Comments ----------------------------------------------------------- */

void wl_fio_strip_comment(char *line)
{
    for (char *p = line; *p; p++) {
        if ((*p == '#' || *p == ';') && (p == line || g_ascii_isspace(p[-1]))) {
            *p = '\0';
            return;
        }
    }
}

/* ---- Environment -------------------------------------------------------- */

char *wl_fio_expand_env(const char *line, GError **error)
{
    GString *g = g_string_new(NULL);
    const char *p = line;
    while (*p) {
        const char *d = strstr(p, "${");
        if (!d) {
            g_string_append(g, p);
            break;
        }
        g_string_append_len(g, p, d - p);
        const char *close = strchr(d + 2, '}');
        g_autofree char *name = close ? g_strndup(d + 2, (gsize)(close - d - 2)) : NULL;
        gboolean ok = name && name[0];
        for (const char *c = name; ok && *c; c++)
            ok = g_ascii_isalnum(*c) || *c == '_';
        if (!ok) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "found \"%s\", expected ${NAME} with a name of letters, digits and _", d);
            g_string_free(g, TRUE);
            return NULL;
        }
        const char *val = g_getenv(name);
        if (!val) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "${%s} is not set in the environment, expected it set (e.g. %s=4k ftlsim "
                        "run ...)", name, name);
            g_string_free(g, TRUE);
            return NULL;
        }
        g_string_append(g, val);
        p = close + 1;
    }
    return g_string_free(g, FALSE);
}

/* ---- Arithmetic --------------------------------------------------------- */

#define WL_EXPR_DEPTH 32 /* nested parentheses, signs and powers */

typedef struct WlExpr {
    const char *p;
    uint32_t kb_base;
    gboolean ok;
    int depth; /* recursion so far: a bound, so no input can exhaust the stack */
} WlExpr;

static double wl_expr_sum(WlExpr *x);

static void wl_expr_space(WlExpr *x)
{
    while (g_ascii_isspace(*x->p))
        x->p++;
}

/* A number with an optional unit suffix, or a parenthesised expression. */
static double wl_expr_primary(WlExpr *x)
{
    wl_expr_space(x);
    if (++x->depth > WL_EXPR_DEPTH) {
        x->ok = FALSE;
        return 0;
    }
    if (*x->p == '(') {
        x->p++;
        double v = x->ok ? wl_expr_sum(x) : 0;
        wl_expr_space(x);
        if (*x->p != ')')
            x->ok = FALSE;
        else
            x->p++;
        x->depth--;
        return v;
    }
    if (*x->p == '-') {
        x->p++;
        double v = -wl_expr_primary(x);
        x->depth--;
        return v;
    }
    x->depth--;
    const char *start = x->p;
    while (g_ascii_isalnum(*x->p) || *x->p == '.')
        x->p++;
    g_autofree char *tok = g_strndup(start, (gsize)(x->p - start));
    uint64_t v;
    if (tok[0] == '\0' || !workload_parse_bytes(tok, x->kb_base, &v, NULL)) {
        x->ok = FALSE;
        return 0;
    }
    return (double)v;
}

static double wl_expr_power(WlExpr *x)
{
    double v = wl_expr_primary(x);
    wl_expr_space(x);
    if (*x->p == '^' && x->ok && ++x->depth <= WL_EXPR_DEPTH) {
        x->p++;
        v = pow(v, wl_expr_power(x));
        x->depth--;
    } else if (*x->p == '^') {
        x->ok = FALSE;
    }
    return v;
}

static double wl_expr_product(WlExpr *x)
{
    double v = wl_expr_power(x);
    for (;;) {
        wl_expr_space(x);
        char op = *x->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        x->p++;
        double r = wl_expr_power(x);
        if (op != '*' && r == 0) {
            x->ok = FALSE;
            return 0;
        }
        v = op == '*' ? v * r : op == '/' ? v / r : fmod(v, r);
    }
}

static double wl_expr_sum(WlExpr *x)
{
    double v = wl_expr_product(x);
    for (;;) {
        wl_expr_space(x);
        char op = *x->p;
        if (op != '+' && op != '-')
            return v;
        x->p++;
        double r = wl_expr_product(x);
        v = op == '+' ? v + r : v - r;
    }
}

gboolean wl_fio_is_expr(const char *text)
{
    return text[0] == '(' || strpbrk(text, "*+^") != NULL;
}

gboolean wl_fio_eval(const char *text, uint32_t kb_base, uint64_t *out, GError **error)
{
    WlExpr x = {.p = text, .kb_base = kb_base, .ok = TRUE};
    double v = wl_expr_sum(&x);
    wl_expr_space(&x);
    if (!x.ok || *x.p != '\0' || !isfinite(v) || v < 0 || v >= 18446744073709551615.0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "found \"%s\", expected a non-negative arithmetic expression of sizes such as "
                    "(4k*2) or 1m+512k (+ - * / %% ^ and parentheses)", text);
        return FALSE;
    }
    *out = (uint64_t)(v + 0.5);
    return TRUE;
}
