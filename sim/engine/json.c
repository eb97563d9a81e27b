/*
 * json.c - streaming JSON writer, see json.h.
 *
 * Output is pretty-printed with two spaces per level, one member or element
 * per line, empty containers as {} and []; a finished top-level value ends
 * with a newline. Doubles use the shortest of %.15g..%.17g that reads back
 * to the same number.
 */
#include "sim/engine/json.h"

#include <math.h>

#define JSON_MAX_DEPTH 64

typedef struct JsonLevel {
    gboolean is_array; /* array (TRUE) or object */
    gboolean empty;    /* nothing written inside yet */
} JsonLevel;

struct JsonWriter {
    GString *out;                    /* the document so far */
    int depth;                       /* open containers */
    JsonLevel stack[JSON_MAX_DEPTH]; /* the open containers, outermost first */
};

JsonWriter *json_writer_new(void)
{
    JsonWriter *w = g_new0(JsonWriter, 1);
    w->out = g_string_new(NULL);
    return w;
}

void json_writer_free(JsonWriter *w)
{
    if (!w)
        return;
    g_string_free(w->out, TRUE);
    g_free(w);
}

const char *json_writer_str(const JsonWriter *w)
{
    g_return_val_if_fail(w != NULL, NULL);
    return w->out->str;
}

static void json_indent(JsonWriter *w, int depth)
{
    for (int i = 0; i < depth; i++)
        g_string_append(w->out, "  ");
}

/* A JSON string literal: quotes, backslash and control characters escaped;
 * invalid UTF-8 is replaced by U+FFFD so the document stays valid. */
static void json_append_string(GString *out, const char *s)
{
    g_autofree char *valid = g_utf8_validate(s, -1, NULL) ? NULL : g_utf8_make_valid(s, -1);
    const unsigned char *p = (const unsigned char *)(valid ? valid : s);
    g_string_append_c(out, '"');
    for (; *p; p++) {
        switch (*p) {
        case '"':
            g_string_append(out, "\\\"");
            break;
        case '\\':
            g_string_append(out, "\\\\");
            break;
        case '\b':
            g_string_append(out, "\\b");
            break;
        case '\f':
            g_string_append(out, "\\f");
            break;
        case '\n':
            g_string_append(out, "\\n");
            break;
        case '\r':
            g_string_append(out, "\\r");
            break;
        case '\t':
            g_string_append(out, "\\t");
            break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                g_string_append_printf(out, "\\u%04x", *p);
            else
                g_string_append_c(out, (char)*p);
        }
    }
    g_string_append_c(out, '"');
}

/* Everything before a value: the comma after the previous sibling, the
 * newline and indentation, and the key inside objects. Misuse (a key inside
 * an array or none inside an object) is a programming error. */
static gboolean json_prefix(JsonWriter *w, const char *key)
{
    if (w->depth == 0) {
        g_return_val_if_fail(key == NULL, FALSE);
        return TRUE;
    }
    JsonLevel *top = &w->stack[w->depth - 1];
    g_return_val_if_fail(top->is_array ? key == NULL : key != NULL, FALSE);
    g_string_append(w->out, top->empty ? "\n" : ",\n");
    top->empty = FALSE;
    json_indent(w, w->depth);
    if (key) {
        json_append_string(w->out, key);
        g_string_append(w->out, ": ");
    }
    return TRUE;
}

/* After a complete value: a top-level value ends the line. */
static void json_suffix(JsonWriter *w)
{
    if (w->depth == 0)
        g_string_append_c(w->out, '\n');
}

static void json_begin(JsonWriter *w, const char *key, gboolean is_array)
{
    g_return_if_fail(w != NULL);
    g_return_if_fail(w->depth < JSON_MAX_DEPTH);
    if (!json_prefix(w, key))
        return;
    g_string_append_c(w->out, is_array ? '[' : '{');
    w->stack[w->depth++] = (JsonLevel){.is_array = is_array, .empty = TRUE};
}

static void json_end(JsonWriter *w, gboolean is_array)
{
    g_return_if_fail(w != NULL);
    g_return_if_fail(w->depth > 0 && w->stack[w->depth - 1].is_array == is_array);
    JsonLevel *top = &w->stack[--w->depth];
    if (!top->empty) {
        g_string_append_c(w->out, '\n');
        json_indent(w, w->depth);
    }
    g_string_append_c(w->out, is_array ? ']' : '}');
    json_suffix(w);
}

void json_begin_object(JsonWriter *w, const char *key)
{
    json_begin(w, key, FALSE);
}

void json_end_object(JsonWriter *w)
{
    json_end(w, FALSE);
}

void json_begin_array(JsonWriter *w, const char *key)
{
    json_begin(w, key, TRUE);
}

void json_end_array(JsonWriter *w)
{
    json_end(w, TRUE);
}

/* A scalar whose text is already formatted. */
static void json_raw(JsonWriter *w, const char *key, const char *text)
{
    g_return_if_fail(w != NULL);
    if (!json_prefix(w, key))
        return;
    g_string_append(w->out, text);
    json_suffix(w);
}

void json_str(JsonWriter *w, const char *key, const char *value)
{
    g_return_if_fail(w != NULL);
    if (!value) {
        json_raw(w, key, "null");
        return;
    }
    if (!json_prefix(w, key))
        return;
    json_append_string(w->out, value);
    json_suffix(w);
}

void json_u64(JsonWriter *w, const char *key, uint64_t value)
{
    char buf[24];
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, value);
    json_raw(w, key, buf);
}

void json_i64(JsonWriter *w, const char *key, int64_t value)
{
    char buf[24];
    g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, value);
    json_raw(w, key, buf);
}

/* The shortest of %.15g, %.16g, %.17g that reads back exactly (%.17g always
 * does); locale independent. */
void json_double(JsonWriter *w, const char *key, double value)
{
    if (!isfinite(value)) {
        json_raw(w, key, "null");
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    static const char *const formats[] = {"%.15g", "%.16g", "%.17g"};
    for (unsigned i = 0; i < G_N_ELEMENTS(formats); i++) {
        g_ascii_formatd(buf, sizeof buf, formats[i], value);
        if (g_ascii_strtod(buf, NULL) == value)
            break;
    }
    json_raw(w, key, buf);
}

void json_fixed(JsonWriter *w, const char *key, double value)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE + 320]; /* %f of DBL_MAX has 309 digits */
    if (!isfinite(value)) {
        json_raw(w, key, "null");
        return;
    }
    g_ascii_formatd(buf, sizeof buf, "%f", value);
    json_raw(w, key, buf);
}

void json_bool(JsonWriter *w, const char *key, gboolean value)
{
    json_raw(w, key, value ? "true" : "false");
}

void json_null(JsonWriter *w, const char *key)
{
    json_raw(w, key, "null");
}
