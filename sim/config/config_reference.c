/*
 * config_reference.c - configs/reference.ini, generated from the schema.
 *
 * Every group and key with its kind, range, default and help as comments.
 * Required keys carry their example values, which together make a valid
 * drive, so the reference file itself loads.
 */
#include "sim/config/config.h"

#include <string.h>

#include "sim/config/config_schema.h"
#include "sim/config/config_units.h"

#define WRAP 78

static const char header[] =
    "# reference.ini - every key of an ftlsim drive configuration.\n"
    "#\n"
    "# Generated from the schema table in sim/config_schema.c by\n"
    "# `ftlsim config-reference`; change the table, not this file.\n"
    "# docs/config.md describes the units and the rules across keys.\n"
    "#\n"
    "# Keys with a default show it. Required keys show an example value; the\n"
    "# examples together describe a plausible 1 TB TLC SATA drive, so this file\n"
    "# loads as it is. Unknown groups and keys are errors.\n"
    "#\n"
    "# Units: sizes 4096, 16KiB, 1.5TB (k K M G T P: powers of 1000; Ki Mi Gi Ti\n"
    "# Pi: powers of 1024; B optional); times 30ns, 45us or 45\xc2\xb5s, 2.6ms, 1s, 2min\n"
    "# (a bare number only for 0); transfer rates 400MT/s, 1.4GT/s; bandwidths\n"
    "# 600MB/s; percentages 7% or fractions 0.07; booleans true/false, yes/no, 1/0.\n"
    "#\n"
    "# Family files: a line `include = PATH` before the first group reads the\n"
    "# file PATH (relative to this file's folder) first; this file's keys\n"
    "# override its keys. Drives of one controller family include its file\n"
    "# (configs/families/) and hold what differs: dies, capacity, DRAM, cache\n"
    "# sizes. A family file may include another; each file once, at most 4 deep.\n";

/* Append text as comment lines of at most WRAP columns, each starting prefix. */
static void append_wrapped(GString *out, const char *prefix, const char *text)
{
    g_auto(GStrv) words = g_strsplit(text, " ", -1);
    gsize col = 0;
    for (gsize i = 0; words[i]; i++) {
        gsize n = strlen(words[i]);
        if (n == 0)
            continue;
        if (col > 0 && col + 1 + n > WRAP) {
            g_string_append_c(out, '\n');
            col = 0;
        }
        if (col == 0) {
            g_string_append(out, prefix);
            col = strlen(prefix);
        } else {
            g_string_append_c(out, ' ');
            col++;
        }
        g_string_append(out, words[i]);
        col += n;
    }
    if (col > 0)
        g_string_append_c(out, '\n');
}

/* "size from 4KiB to 1MiB", "integer from 1 to 5", "one of sata, nvme" ... */
static char *kind_text(const ConfigKey *k)
{
    switch (k->type) {
    case CT_STRING:
        return g_strdup_printf("text of at most %u bytes", (unsigned)k->width - 1);
    case CT_SIZE: {
        char lo[CONFIG_VALUE_LEN], hi[CONFIG_VALUE_LEN];
        config_format_size(k->min, lo, sizeof lo);
        config_format_size(config_key_max(k), hi, sizeof hi);
        if (k->max)
            return g_strdup_printf("size from %s to %s", lo, hi);
        return k->min ? g_strdup_printf("size of at least %s", lo) : g_strdup("size");
    }
    case CT_TIME:
        return g_strdup("time");
    case CT_RATE:
        return g_strdup("transfer rate");
    case CT_BANDWIDTH:
        return g_strdup("bandwidth");
    case CT_PERCENT:
        return g_strdup("percentage from 0% to 100%");
    case CT_INT:
        if (k->choices)
            return config_key_expected(k, TRUE);
        return g_strdup_printf("integer from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT, k->min,
                               config_key_max(k));
    case CT_BOOL:
        return g_strdup("boolean");
    case CT_ENUM:
        return config_key_expected(k, TRUE);
    }
    return g_strdup("?");
}

static void append_key(GString *out, const ConfigKey *k)
{
    g_autofree char *kind = kind_text(k);
    const char *need = k->flags & CK_REQUIRED         ? "required (example value)"
                       : k->flags & CK_REQUIRED_GROUP ? "required in the group (example value)"
                                                      : NULL;
    g_autofree char *line =
        need ? g_strdup_printf("%s: %s; %s", k->key, kind, need)
             : g_strdup_printf("%s: %s; default %s", k->key, kind, k->def[0] ? k->def : "empty");
    append_wrapped(out, "# ", line);
    append_wrapped(out, "#   ", k->help);
    const char *value = need ? k->example : k->def;
    if (value[0])
        g_string_append_printf(out, "%s = %s\n\n", k->key, value);
    else
        g_string_append_printf(out, "%s =\n\n", k->key);
}

char *config_reference_ini(void)
{
    GString *out = g_string_new(header);
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    const char *const *groups = config_schema_groups();
    for (gsize g = 0; groups[g]; g++) {
        g_string_append_printf(out, "%s[%s]\n", g == 0 ? "\n" : "", groups[g]);
        append_wrapped(out, "# ", config_schema_group_help(groups[g]));
        g_string_append_c(out, '\n');
        for (gsize i = 0; i < n; i++)
            if (strcmp(rows[i].group, groups[g]) == 0)
                append_key(out, &rows[i]);
    }
    /* one newline at the end, not a blank line */
    while (out->len > 1 && out->str[out->len - 1] == '\n' && out->str[out->len - 2] == '\n')
        g_string_truncate(out, out->len - 1);
    return g_string_free(out, FALSE);
}
