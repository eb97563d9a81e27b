/*
 * config_units.h - values with units, as drive configs write them.
 *
 * Parsers are exact: decimal fractions are applied with integer arithmetic
 * and rounded to the nearest base unit. Formatters print the shortest exact
 * form the parsers read back to the same value.
 */
#ifndef FTLSIM_CONFIG_UNITS_H
#define FTLSIM_CONFIG_UNITS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Big enough for any formatted value. */
#define CONFIG_VALUE_LEN 48

/* Each returns FALSE, leaving *out alone, when text is not of the form. */
gboolean config_parse_size(const char *text, uint64_t *out);      /* bytes: 16KiB, 1.5TB, 4096 */
gboolean config_parse_time(const char *text, uint64_t *out);      /* ns: 45us, 2.6ms, 0 */
gboolean config_parse_rate(const char *text, uint64_t *out);      /* transfers/s: 400MT/s */
gboolean config_parse_bandwidth(const char *text, uint64_t *out); /* bytes/s: 600MB/s */
gboolean config_parse_percent(const char *text, double *out);     /* fraction: 7%, 0.07 */
gboolean config_parse_uint(const char *text, uint64_t *out);      /* plain decimal */
gboolean config_parse_bool(const char *text, bool *out);          /* true/false/yes/no/1/0 */

/* Exact shortest forms (16KiB, 1TB, 2.6ms, 1.4GT/s, 7%) into buf. */
void config_format_size(uint64_t bytes, char *buf, gsize len);
void config_format_time(uint64_t ns, char *buf, gsize len);
void config_format_rate(uint64_t per_s, char *buf, gsize len);
void config_format_bandwidth(uint64_t bytes_per_s, char *buf, gsize len);
void config_format_percent(double fraction, char *buf, gsize len);

#endif
