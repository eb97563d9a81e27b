/*
 * json.h - a small streaming JSON writer into a GString.
 *
 * Keeps a nesting stack so commas and indentation come out right; strings
 * are escaped; doubles that are not finite are written as null.
 */
#ifndef FTLSIM_JSON_H
#define FTLSIM_JSON_H

#include <glib.h>
#include <stdint.h>

typedef struct JsonWriter JsonWriter;

JsonWriter *json_writer_new(void);
void json_writer_free(JsonWriter *w); /* accepts NULL */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JsonWriter, json_writer_free)

/* The text so far (owned by the writer). */
const char *json_writer_str(const JsonWriter *w);

void json_begin_object(JsonWriter *w, const char *key); /* key NULL inside arrays or at top */
void json_end_object(JsonWriter *w);
void json_begin_array(JsonWriter *w, const char *key);
void json_end_array(JsonWriter *w);
void json_str(JsonWriter *w, const char *key, const char *value); /* value NULL: null */
void json_u64(JsonWriter *w, const char *key, uint64_t value);
void json_i64(JsonWriter *w, const char *key, int64_t value);
void json_double(JsonWriter *w, const char *key, double value);
/* value with six decimals ("%f", as fio prints its floats); null when not finite. */
void json_fixed(JsonWriter *w, const char *key, double value);
void json_bool(JsonWriter *w, const char *key, gboolean value);
void json_null(JsonWriter *w, const char *key);

#endif
