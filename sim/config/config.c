/*
 * config.c - loading drive configs: line check, GKeyFile, the schema table.
 *
 * A light pre-scan checks every line (so syntax errors carry line numbers)
 * and refuses repeated groups and keys, which GKeyFile would merge or
 * overwrite silently. A file may include one family file (`include = PATH`
 * before its first group), read the same way first, so the including
 * file's keys override the family's. Then unknown groups and keys are
 * refused, each schema row is loaded, and config_validate() checks the
 * rules across keys.
 */
#include "sim/config/config.h"
#include "sim/engine/textfile.h"

#include <string.h>

#include "sim/config/config_schema.h"
#include "sim/config/config_units.h"

/* clang-format off */
G_DEFINE_QUARK(ftlsim-config-error-quark, config_error)
/* clang-format on */

#define QUOTE_MAX 60 /* bytes of a line or value quoted in a message */

/* text (n bytes, valid UTF-8) in double quotes, escaped, cut at QUOTE_MAX. */
static char *quote(const char *text, gsize n)
{
    char exceptions[129] = {0}; /* bytes of UTF-8 sequences stay as they are */
    for (int i = 0; i < 128; i++)
        exceptions[i] = (char)(0x80 + i);
    gboolean cut = n > QUOTE_MAX;
    if (cut) {
        const char *end = g_utf8_find_prev_char(text, text + QUOTE_MAX + 1);
        n = end ? (gsize)(end - text) : 0;
    }
    g_autofree char *raw = g_strndup(text, n);
    g_autofree char *esc = g_strescape(raw, exceptions);
    return g_strdup_printf("\"%s%s\"", esc, cut ? "..." : "");
}

static gboolean is_name_char(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '-';
}

static gboolean is_name(const char *s, gsize n)
{
    if (n == 0)
        return FALSE;
    for (gsize i = 0; i < n; i++)
        if (!is_name_char(s[i]))
            return FALSE;
    return TRUE;
}

/* State of the line pre-scan. */
typedef struct Scan {
    const char *name;      /* file name for messages */
    unsigned line;         /* 1-based */
    GHashTable *seen;      /* "group" and "group\nkey" -> first line */
    char *group;           /* current group, or NULL before the first */
    GString *clean;        /* the groups and keys only, for GKeyFile */
    char *include;         /* the family file named by an include line, or NULL */
    unsigned include_line; /* its line */
} Scan;

/* Record a group or key; FALSE when it was seen before. */
static gboolean scan_first(Scan *s, char *id, unsigned *first)
{
    gpointer old = g_hash_table_lookup(s->seen, id);
    if (old) {
        *first = GPOINTER_TO_UINT(old);
        g_free(id);
        return FALSE;
    }
    g_hash_table_insert(s->seen, id, GUINT_TO_POINTER(s->line));
    return TRUE;
}

static gboolean scan_group(Scan *s, const char *t, gsize n, GError **error)
{
    const char *close = memchr(t, ']', n);
    gsize after = close ? (gsize)(t + n - close - 1) : 0;
    while (after > 0 && (close[after] == ' ' || close[after] == '\t'))
        after--;
    if (!close || after > 0 || !is_name(t + 1, (gsize)(close - t - 1))) {
        g_autofree char *q = quote(t, n);
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: %s: expected a group name of letters, digits, '_', '.' and '-' "
                    "in brackets such as [nand]",
                    s->name, s->line, q);
        return FALSE;
    }
    g_free(s->group);
    s->group = g_strndup(t + 1, (gsize)(close - t - 1));
    unsigned first;
    if (!scan_first(s, g_strdup(s->group), &first)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: [%s]: group repeated (first on line %u)", s->name, s->line, s->group,
                    first);
        return FALSE;
    }
    g_string_append_printf(s->clean, "[%s]\n", s->group);
    return TRUE;
}

/* "include = PATH" (the value stripped), before the first group only. */
static gboolean scan_include(Scan *s, const char *value, gsize n, GError **error)
{
    g_autofree char *path = g_strstrip(g_strndup(value, n));
    if (s->group) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: include: expected before the first [group]", s->name, s->line);
        return FALSE;
    }
    if (s->include) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: include: repeated (first on line %u), expected one family file",
                    s->name, s->line, s->include_line);
        return FALSE;
    }
    if (!path[0]) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: include: expected a family file such as families/samsung-mkx.ini",
                    s->name, s->line);
        return FALSE;
    }
    s->include = g_steal_pointer(&path);
    s->include_line = s->line;
    return TRUE;
}

static gboolean scan_key(Scan *s, const char *t, gsize n, GError **error)
{
    const char *eq = memchr(t, '=', n);
    gsize kn = eq ? (gsize)(eq - t) : 0;
    while (kn > 0 && (t[kn - 1] == ' ' || t[kn - 1] == '\t'))
        kn--;
    g_autofree char *q = quote(t, n);
    if (!eq || !is_name(t, kn)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: %s: expected a [group], a key = value line or a # comment", s->name,
                    s->line, q);
        return FALSE;
    }
    if (kn == strlen(CONFIG_INCLUDE_KEY) && memcmp(t, CONFIG_INCLUDE_KEY, kn) == 0)
        return scan_include(s, eq + 1, (gsize)(t + n - eq - 1), error);
    if (!s->group) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: %s: a key before the first [group]", s->name, s->line, q);
        return FALSE;
    }
    unsigned first;
    g_autofree char *key = g_strndup(t, kn);
    if (!scan_first(s, g_strdup_printf("%s\n%s", s->group, key), &first)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "%s:%u: [%s] %s: key repeated (first on line %u)", s->name, s->line, s->group,
                    key, first);
        return FALSE;
    }
    g_string_append_len(s->clean, t, (gssize)n);
    g_string_append_c(s->clean, '\n');
    return TRUE;
}

/* One line without its end of line. */
static gboolean scan_line(Scan *s, const char *t, gsize n, GError **error)
{
    if (memchr(t, '\0', n)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX, "%s:%u: a NUL byte in the line",
                    s->name, s->line);
        return FALSE;
    }
    if (!g_utf8_validate(t, (gssize)n, NULL)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX, "%s:%u: the line is not UTF-8",
                    s->name, s->line);
        return FALSE;
    }
    while (n > 0 && (*t == ' ' || *t == '\t')) {
        t++;
        n--;
    }
    if (n == 0 || *t == '#' || *t == ';')
        return TRUE;
    if (*t == '[')
        return scan_group(s, t, n, error);
    return scan_key(s, t, n, error);
}

/* Check every line; on success *clean holds the groups and keys only, and
 * *include the family file an include line names (or NULL), *include_line
 * its line. */
static gboolean prescan(const char *data, gsize len, const char *name, char **clean, char **include,
                        unsigned *include_line, GError **error)
{
    Scan s = {.name = name,
              .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
              .clean = g_string_new(NULL)};
    gboolean ok = TRUE;
    const char *p = data, *end = data + len;
    while (ok && p < end) {
        const char *nl = memchr(p, '\n', (gsize)(end - p));
        const char *stop = nl ? nl : end;
        gsize n = (gsize)(stop - p);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        s.line++;
        ok = scan_line(&s, p, n, error);
        p = nl ? nl + 1 : end;
    }
    g_hash_table_unref(s.seen);
    g_free(s.group);
    *clean = g_string_free(s.clean, !ok);
    *include = ok ? s.include : NULL;
    *include_line = s.include_line;
    if (!ok)
        g_free(s.include);
    return ok;
}

/* Levenshtein distance of two short names (longer ones: large). */
static unsigned edit_distance(const char *a, const char *b)
{
    gsize la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 1000;
    unsigned row[64];
    for (gsize j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (gsize i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (gsize j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = MIN(row[j] + 1, row[j - 1] + 1);
            row[j] = MIN(best, diag + (a[i - 1] != b[j - 1]));
            diag = up;
        }
    }
    return row[lb];
}

/* "(did you mean x?)" for a close name, else "(known ...: a, b, c)". */
static char *suggest(const char *what, const char *got, const char *const *names, gsize n)
{
    for (gsize i = 0; i < n; i++)
        if (edit_distance(got, names[i]) <= 2)
            return g_strdup_printf("(did you mean %s?)", names[i]);
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "(known %s: ", what);
    for (gsize i = 0; i < n; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", names[i]);
    g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

/* The schema's keys of group, NULL-terminated (free the array only), and
 * their number in *n. */
static const char **known_keys(const char *group, gsize *n)
{
    gsize nrows;
    const ConfigKey *rows = config_schema(&nrows);
    const char **known = g_new0(const char *, nrows + 1);
    *n = 0;
    for (gsize i = 0; i < nrows; i++)
        if (strcmp(rows[i].group, group) == 0)
            known[(*n)++] = rows[i].key;
    return known;
}

static gboolean check_group_keys(GKeyFile *kf, const char *group, const char *name, GError **error)
{
    gsize nkeys = 0, nknown;
    g_autofree const char **known = known_keys(group, &nknown);
    g_auto(GStrv) keys = g_key_file_get_keys(kf, group, &nkeys, NULL);
    for (gsize i = 0; i < nkeys; i++) {
        if (g_strv_contains(known, keys[i]))
            continue;
        g_autofree char *hint = suggest("keys", keys[i], known, nknown);
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN, "%s: [%s] %s: unknown key %s", name,
                    group, keys[i], hint);
        return FALSE;
    }
    return TRUE;
}

/* Refuse groups and keys the schema does not have, in file order. */
static gboolean check_unknown(GKeyFile *kf, const char *name, GError **error)
{
    const char *const *groups = config_schema_groups();
    g_auto(GStrv) present = g_key_file_get_groups(kf, NULL);
    for (gsize i = 0; present[i]; i++) {
        if (!g_strv_contains(groups, present[i])) {
            g_autofree char *hint =
                suggest("groups", present[i], (const char **)groups, g_strv_length((GStrv)groups));
            g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN, "%s: [%s]: unknown group %s",
                        name, present[i], hint);
            return FALSE;
        }
        if (!check_group_keys(kf, present[i], name, error))
            return FALSE;
    }
    return TRUE;
}

typedef enum StoreResult {
    STORE_OK,
    STORE_BAD_FORM, /* not a value of the row's kind */
    STORE_RANGE,    /* a value, but outside the row's range */
} StoreResult;

static void put_uint(const ConfigKey *k, DriveParams *p, uint64_t v)
{
    config_key_put(k, p, &(ConfigValue){.u = v});
}

static StoreResult store_int(const ConfigKey *k, const char *text, DriveParams *p)
{
    uint64_t v;
    if (!config_parse_uint(text, &v))
        return STORE_BAD_FORM;
    if (k->choices) {
        const ConfigChoice *c = k->choices;
        while (c->name && (uint64_t)c->value != v)
            c++;
        if (!c->name)
            return STORE_RANGE;
    } else if (v < k->min || v > config_key_max(k)) {
        return STORE_RANGE;
    }
    put_uint(k, p, v);
    return STORE_OK;
}

/* Sizes, times and rates: parse by kind, then check the range. */
static StoreResult store_unit(const ConfigKey *k, const char *text, DriveParams *p)
{
    uint64_t v;
    gboolean ok = k->type == CT_SIZE   ? config_parse_size(text, &v)
                  : k->type == CT_TIME ? config_parse_time(text, &v)
                  : k->type == CT_RATE ? config_parse_rate(text, &v)
                                       : config_parse_bandwidth(text, &v);
    if (!ok)
        return STORE_BAD_FORM;
    if (v < k->min || v > config_key_max(k))
        return STORE_RANGE;
    put_uint(k, p, v);
    return STORE_OK;
}

static StoreResult store_value(const ConfigKey *k, const char *text, DriveParams *p)
{
    switch (k->type) {
    case CT_STRING:
        for (const char *c = text; *c; c++)
            if ((unsigned char)*c < 0x20 && *c != '\n' && *c != '\t')
                return STORE_BAD_FORM;
        if (strlen(text) >= k->width)
            return STORE_RANGE;
        config_key_put(k, p, &(ConfigValue){.text = text});
        return STORE_OK;
    case CT_SIZE:
    case CT_TIME:
    case CT_RATE:
    case CT_BANDWIDTH:
        return store_unit(k, text, p);
    case CT_PERCENT: {
        double v;
        if (!config_parse_percent(text, &v))
            return STORE_BAD_FORM;
        if (v > 1.0)
            return STORE_RANGE;
        config_key_put(k, p, &(ConfigValue){.share = v});
        return STORE_OK;
    }
    case CT_INT:
        return store_int(k, text, p);
    case CT_BOOL: {
        bool v;
        if (!config_parse_bool(text, &v))
            return STORE_BAD_FORM;
        config_key_put(k, p, &(ConfigValue){.flag = v});
        return STORE_OK;
    }
    case CT_ENUM:
        for (const ConfigChoice *c = k->choices; c->name; c++) {
            if (strcmp(c->name, text) == 0) {
                config_key_put(k, p, &(ConfigValue){.choice = c->value});
                return STORE_OK;
            }
        }
        return STORE_BAD_FORM;
    }
    return STORE_BAD_FORM;
}

void config_defaults(DriveParams *out)
{
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    memset(out, 0, sizeof *out);
    for (gsize i = 0; i < n; i++) {
        if (!rows[i].def)
            continue;
        StoreResult r = store_value(&rows[i], rows[i].def, out);
        g_assert(r == STORE_OK);
    }
}

/* The text of a key: strings unescaped (\s, \n, ...), others as written. */
static char *key_text(GKeyFile *kf, const ConfigKey *k, GError **error)
{
    if (k->type != CT_STRING)
        return g_key_file_get_value(kf, k->group, k->key, error);
    char *s = g_key_file_get_string(kf, k->group, k->key, error);
    return s ? g_strchomp(s) : NULL;
}

/* The files of one drive: the drive file and the family files it includes,
 * merged, each key remembering the file that set it. */
typedef struct Layers {
    GString *merged;    /* the groups and keys of every file, families first */
    GHashTable *origin; /* "group\nkey" -> the file that set it (a string of files) */
    GPtrArray *files;   /* the files being read, drive file first, then its families */
} Layers;

/* The file that set [group] key, or the drive file when none did. */
static const char *layers_origin(const Layers *L, const char *group, const char *key)
{
    g_autofree char *id = g_strdup_printf("%s\n%s", group, key);
    const char *name = g_hash_table_lookup(L->origin, id);
    return name ? name : g_ptr_array_index(L->files, 0);
}

char *config_include_path(const char *file, const char *include)
{
    if (g_path_is_absolute(include))
        return g_strdup(include);
    g_autofree char *dir = g_path_get_dirname(file);
    return strcmp(dir, ".") == 0 ? g_strdup(include) : g_build_filename(dir, include, NULL);
}

gboolean config_include_line(const char *line, char **include)
{
    const char *t = line + strspn(line, " \t");
    gsize kn = strlen(CONFIG_INCLUDE_KEY);
    if (strncmp(t, CONFIG_INCLUDE_KEY, kn) != 0)
        return FALSE;
    t += kn + strspn(t + kn, " \t");
    if (*t != '=')
        return FALSE;
    *include = g_strstrip(g_strdup(t + 1));
    return TRUE;
}

static gboolean load_layer(Layers *L, const char *data, gsize len, const char *name,
                           GError **error);

/* The family file of name's include line (line), read before name's own keys. */
static gboolean load_family(Layers *L, const char *name, const char *include, unsigned line,
                            GError **error)
{
    g_autofree char *path = config_include_path(name, include);
    g_autofree char *real = g_canonicalize_filename(path, NULL);
    for (guint i = 0; i < L->files->len; i++) {
        g_autofree char *seen = g_canonicalize_filename(g_ptr_array_index(L->files, i), NULL);
        if (strcmp(seen, real) == 0) {
            g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE,
                        "%s:%u: include = \"%s\": found an include loop (%s is already being "
                        "read), expected each file once",
                        name, line, include, path);
            return FALSE;
        }
    }
    if (L->files->len > DRIVE_FAMILY_DEPTH || strlen(path) >= DRIVE_FAMILY_PATH) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE,
                    "%s:%u: include = \"%s\": expected at most %d nested family files, each "
                    "path under %d bytes",
                    name, line, include, DRIVE_FAMILY_DEPTH, DRIVE_FAMILY_PATH);
        return FALSE;
    }
    g_autofree char *text = NULL;
    gsize n = 0;
    g_autoptr(GError) e = NULL;
    if (!text_file_read(path, TEXT_FILE_MAX_CONFIG, "a family file", &text, &n, &e)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE, "%s:%u: include = \"%s\": %s", name,
                    line, include, e->message);
        return FALSE;
    }
    return load_layer(L, text, n, path, error);
}

/* One file into L: its lines checked, its family read first, then its
 * groups and keys checked against the schema and set over the family's. */
static gboolean load_layer(Layers *L, const char *data, gsize len, const char *name, GError **error)
{
    g_autofree char *clean = NULL, *include = NULL;
    unsigned include_line = 0;
    if (!prescan(data, len, name, &clean, &include, &include_line, error))
        return FALSE;
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) kf_error = NULL;
    if (!g_key_file_load_from_data(kf, clean, (gsize)-1, G_KEY_FILE_NONE, &kf_error)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX, "%s: %s", name, kf_error->message);
        return FALSE;
    }
    if (!check_unknown(kf, name, error))
        return FALSE;
    g_ptr_array_add(L->files, g_strdup(name));
    const char *self = g_ptr_array_index(L->files, L->files->len - 1);
    if (include && !load_family(L, name, include, include_line, error))
        return FALSE;
    /* GKeyFile merges a repeated group and keeps a repeated key's last value */
    g_string_append(L->merged, clean);
    g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
    for (gsize g = 0; groups[g]; g++) {
        g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[g], NULL, NULL);
        for (gsize k = 0; keys[k]; k++)
            g_hash_table_insert(L->origin, g_strdup_printf("%s\n%s", groups[g], keys[k]),
                                (gpointer)self);
    }
    return TRUE;
}

static gboolean load_key(GKeyFile *kf, const ConfigKey *k, DriveParams *p, const char *name,
                         GError **error)
{
    if (!g_key_file_has_key(kf, k->group, k->key, NULL)) {
        gboolean in_use =
            g_key_file_has_group(kf, k->group) || config_schema_group_required(k->group, p);
        if ((k->flags & CK_REQUIRED) || ((k->flags & CK_REQUIRED_GROUP) && in_use)) {
            g_autofree char *exp = config_key_expected(k, k->type == CT_STRING);
            g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_MISSING,
                        "%s: [%s] %s: missing, expected %s", name, k->group, k->key, exp);
            return FALSE;
        }
        return TRUE;
    }
    g_autofree char *raw = g_key_file_get_value(kf, k->group, k->key, NULL);
    g_autofree char *q = quote(raw, strlen(raw));
    g_autoptr(GError) kf_error = NULL;
    g_autofree char *text = key_text(kf, k, &kf_error);
    if (!text) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE,
                    "%s: [%s] %s = %s: expected text with valid escapes (\\s \\n \\t \\r \\\\)",
                    name, k->group, k->key, q);
        return FALSE;
    }
    StoreResult r = store_value(k, text, p);
    if (r != STORE_OK) {
        g_autofree char *exp = config_key_expected(k, r == STORE_RANGE);
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE, "%s: [%s] %s = %s: expected %s", name,
                    k->group, k->key, q, exp);
        return FALSE;
    }
    return TRUE;
}


/* Check one GROUP.KEY=VALUE override and put it into kf. Keys have no
 * dots and some groups do (timing.tlc), so the key starts after the last
 * dot before the '='. */
static gboolean apply_override(GKeyFile *kf, const char *set, GError **error)
{
    const char *eq = strchr(set, '=');
    const char *dot = NULL;
    for (const char *c = set; eq && c < eq; c++)
        if (*c == '.')
            dot = c;
    if (!dot || dot == set || dot + 1 == eq) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX,
                    "--set \"%s\": expected GROUP.KEY=VALUE, e.g. trim.policy=deferred", set);
        return FALSE;
    }
    g_autofree char *group = g_strndup(set, (gsize)(dot - set));
    g_autofree char *key = g_strndup(dot + 1, (gsize)(eq - dot - 1));
    const char *value = eq + 1;
    const char *const *groups = config_schema_groups();
    if (!g_strv_contains(groups, group)) {
        g_autofree char *hint =
            suggest("groups", group, (const char **)groups, g_strv_length((GStrv)groups));
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN, "--set \"%s\": unknown group [%s] %s",
                    set, group, hint);
        return FALSE;
    }
    const ConfigKey *k = config_schema_find(group, key);
    if (!k) {
        gsize nknown;
        g_autofree const char **known = known_keys(group, &nknown);
        g_autofree char *hint = suggest("keys", key, known, nknown);
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_UNKNOWN, "--set \"%s\": unknown key [%s] %s %s",
                    set, group, key, hint);
        return FALSE;
    }
    DriveParams scratch;
    config_defaults(&scratch);
    StoreResult r = store_value(k, value, &scratch);
    if (r != STORE_OK) {
        g_autofree char *exp = config_key_expected(k, r == STORE_RANGE);
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_VALUE, "--set \"%s\": expected %s", set,
                    exp);
        return FALSE;
    }
    g_key_file_set_value(kf, group, key, value);
    return TRUE;
}

static gboolean load_data(const char *data, gsize len, const char *name,
                          const char *const *sets, DriveParams *out, GError **error)
{
    g_return_val_if_fail(data || len == 0, FALSE);
    g_return_val_if_fail(name && out, FALSE);
    g_autoptr(GString) merged = g_string_new(NULL);
    g_autoptr(GHashTable) origin = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
    Layers L = {.merged = merged, .origin = origin, .files = files};
    if (!load_layer(&L, data, len, name, error))
        return FALSE;
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) kf_error = NULL;
    if (!g_key_file_load_from_data(kf, merged->str, merged->len, G_KEY_FILE_NONE, &kf_error)) {
        g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_SYNTAX, "%s: %s", name, kf_error->message);
        return FALSE;
    }
    for (gsize i = 0; sets && sets[i]; i++) /* checked there: load_key cannot refuse them */
        if (!apply_override(kf, sets[i], error))
            return FALSE;
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    config_defaults(out);
    for (gsize i = 0; i < n; i++)
        if (!load_key(kf, &rows[i], out, layers_origin(&L, rows[i].group, rows[i].key), error))
            return FALSE;
    for (guint i = 1; i < files->len; i++)
        g_strlcpy(out->family_files[i - 1], g_ptr_array_index(files, i), sizeof out->family_files[0]);
    if (out->zns_zone_size && !out->zns_zone_cap) /* [zns] zone_capacity 0: the whole zone */
        out->zns_zone_cap = out->zns_zone_size;
    if (!config_validate(out, name, error))
        return FALSE;
    config_derive_latency(out);
    return TRUE;
}

gboolean config_load_data(const char *data, gsize len, const char *name, DriveParams *out,
                          GError **error)
{
    return load_data(data, len, name, NULL, out, error);
}

gboolean config_load_file_set(const char *path, const char *const *sets, DriveParams *out,
                              GError **error)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    if (!text_file_read(path, TEXT_FILE_MAX_CONFIG, "a drive file", &data, &len, error))
        return FALSE;
    return load_data(data, len, path, sets, out, error);
}

gboolean config_load_file(const char *path, DriveParams *out, GError **error)
{
    return config_load_file_set(path, NULL, out, error);
}
