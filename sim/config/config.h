/*
 * config.h - drive configuration files: loading, validation, description.
 *
 * One schema table (sim/config_schema.c) drives loading, defaults, range
 * checks, the generated configs/reference.ini and the JSON dump. Values
 * carry units (16KiB, 2.6ms, 400MT/s, 7%); docs/config.md has the grammar.
 */
#ifndef FTLSIM_CONFIG_H
#define FTLSIM_CONFIG_H

#include <glib.h>

#include "models/drive_params.h"
#include "sim/engine/json.h"

#define CONFIG_ERROR (config_error_quark())
GQuark config_error_quark(void);

typedef enum ConfigError {
    CONFIG_ERROR_SYNTAX,  /* a line that is not a group, key = value or comment */
    CONFIG_ERROR_UNKNOWN, /* unknown group or key */
    CONFIG_ERROR_MISSING, /* a required key is absent */
    CONFIG_ERROR_VALUE,   /* a value that does not parse or is out of range */
    CONFIG_ERROR_INVALID, /* keys that disagree with each other */
} ConfigError;

/* Load and validate a drive file. On failure *out is unspecified and error
 * holds one line naming the file and the line or [group] key. A file may
 * begin with `include = PATH` (before its first group): a family file, read
 * first, path relative to the including file's folder, whose keys the
 * including file's override; family files may include in turn, up to
 * DRIVE_FAMILY_DEPTH deep, each file once. out->family_files names them. */
gboolean config_load_file(const char *path, DriveParams *out, GError **error);

/* The same with overrides, each "GROUP.KEY=VALUE" (NULL-terminated list,
 * or NULL), applied over the file's values before validation: what-if
 * studies without a copy of the file. A bad override's error names it. */
gboolean config_load_file_set(const char *path, const char *const *sets, DriveParams *out,
                              GError **error);

/* The same from memory (need not be NUL-terminated); name stands for the
 * file in messages and is the folder an include is relative to. */
gboolean config_load_data(const char *data, gsize len, const char *name, DriveParams *out,
                          GError **error);

#define CONFIG_INCLUDE_KEY "include" /* the line naming a family file */

/* The family file an include line of file names: include relative to
 * file's folder, or as it is when absolute. g_free it. */
char *config_include_path(const char *file, const char *include);
/* TRUE when line is "include = PATH", with PATH (stripped) in *include
 * (g_free it); FALSE otherwise, *include untouched. */
gboolean config_include_line(const char *line, char **include);

/* Rules across keys (capacity, geometry, pSLC, GC, mapping cache and map
 * unit, timing). Called by the loaders; name stands for the file in
 * messages. Whether this machine can simulate the drive is not checked
 * here (models/drive.h: drive_memory_estimate()). */
gboolean config_validate(const DriveParams *p, const char *name, GError **error);
/* Fill what the loader derives from the timing keys (ModeTiming
 * t_read_page from read_by_page, t_prog_page from program_by_page); call
 * after config_validate(). */
void config_derive_latency(DriveParams *p);

/* Zero *out, then apply every default of the schema. Required keys stay 0. */
void config_defaults(DriveParams *out);

/* The text of configs/reference.ini (every key, documented). g_free it. */
char *config_reference_ini(void);

/* The derived drive, for `ftlsim check`: capacities, geometry, bandwidths,
 * the bound on sequential writes, mapping table and pSLC cache. Appends. */
void config_describe(const DriveParams *p, GString *out);
/* Bytes of memory as "12.3 MiB" below 10 GiB, else "4.5 GiB", into buf. */
const char *config_mem_text(uint64_t bytes, char *buf, gsize len);
/* The memory estimate for one run of class c (models/drive.h), as a line
 * of the same text. */
typedef struct MemoryClass MemoryClass;
void config_describe_run_memory(const DriveParams *p, const MemoryClass *c, GString *out);

/* The resolved config as the object "drive_config" in w, keyed by group
 * then key; values in base units (bytes, ns, transfers/s, fractions),
 * enums by name. */
void config_write_json(const DriveParams *p, JsonWriter *w);

/* One line per *.ini in dir (sorted by file name): file, drive name, user
 * capacity, interface, native mode, and "ok" or the load error. Appends to
 * out; fails only when dir cannot be read. */
gboolean config_list_drives(const char *dir, GString *out, GError **error);

/* ---- Numeric keys, for calibration (config_fit.c) ------------------------ */

/* What a numeric key counts, in base units. */
typedef enum ConfigNumKind {
    CONFIG_NUM_BYTES,        /* sizes */
    CONFIG_NUM_NS,           /* times */
    CONFIG_NUM_PER_S,        /* transfer rates */
    CONFIG_NUM_BYTES_PER_S,  /* bandwidths */
    CONFIG_NUM_FRACTION,     /* percentages, 0..1 */
    CONFIG_NUM_COUNT,        /* plain counts */
} ConfigNumKind;

typedef struct ConfigNumKey {
    char group[32], key[32];
    ConfigNumKind kind;
    double min, max; /* the schema's range, base units */
    double value;    /* in the DriveParams it was looked up in */
} ConfigNumKey;

/* GROUP.KEY as a number: FALSE with one line in error when the key is
 * unknown or not a number (names, flags, enums, a fixed list of ints). */
gboolean config_numeric_key(const char *group_key, const DriveParams *p, ConfigNumKey *out,
                            GError **error);
/* A value of a key of this kind, with its units (12ms, 36GB). */
gboolean config_numeric_parse(ConfigNumKind kind, const char *text, double *out);
/* value rounded to the kind's resolution (1 byte, 1 ns, ...), formatted as
 * a config file writes it. */
void config_numeric_format(ConfigNumKind kind, double value, char *buf, gsize len);
/* value in SI base units (times in seconds) and the unit's name. */
double config_numeric_si(ConfigNumKind kind, double value);
const char *config_numeric_si_unit(ConfigNumKind kind);

#endif
