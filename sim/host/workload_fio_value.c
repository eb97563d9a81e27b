/*
 * workload_fio_value.c - fio's value syntax around the option table:
 * trailing comments, ${VAR} from the environment, and arithmetic in
 * numbers ("(4k*2)", "2*64k", "(1m+512k)/2"), with fio's unit suffixes on
 * every operand.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
