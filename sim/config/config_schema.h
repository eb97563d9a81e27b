/*
 * config_schema.h - the table of every config key (internal to sim/config*.c).
 *
 * One row per key: where it lives in DriveParams, its kind of value, default,
 * range and help. Loading, defaults, reference.ini and the JSON dump all
 * walk this table; adding a key is adding a row in config_schema.c.
 */
#ifndef FTLSIM_CONFIG_SCHEMA_H
#define FTLSIM_CONFIG_SCHEMA_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "models/drive_params.h"

typedef enum ConfigType {
    CT_STRING,    /* char array */
    CT_SIZE,      /* bytes */
    CT_TIME,      /* ns */
    CT_RATE,      /* transfers/s */
    CT_BANDWIDTH, /* bytes/s */
    CT_PERCENT,   /* double fraction in [0, 1] */
    CT_INT,       /* plain count */
    CT_BOOL,
    CT_ENUM, /* one name of choices; the field is an int-sized enum */
} ConfigType;

/* Key flags. */
#define CK_REQUIRED 1u       /* always required */
#define CK_REQUIRED_GROUP 2u /* required whenever its group is in use */
#define CK_QUIET 4u          /* left out of the resolved config while 0 or empty, so the
                              * outputs of drives without it stay as they were */

/* A name and the value it stands for (enums; the allowed ints of a CT_INT). */
typedef struct ConfigChoice {
    const char *name;
    int value;
} ConfigChoice;

typedef struct ConfigKey {
    const char *group;
    const char *key;
    ConfigType type;
    unsigned flags;      /* CK_* */
    size_t offset;       /* of the field in DriveParams */
    size_t width;        /* bytes of the field */
    const char *def;     /* default in file syntax; NULL when required */
    const char *example; /* for messages, and the value of a required key in reference.ini */
    uint64_t min, max;   /* ints and sizes, base units; max 0: the field's limit */
    const ConfigChoice *choices; /* NULL-terminated; enums, or the only allowed ints */
    const char *help;
} ConfigKey;

/* The table, in the order keys are loaded and documented. */
const ConfigKey *config_schema(gsize *n);

/* Groups in order, NULL-terminated, and a one-line help for each. */
const char *const *config_schema_groups(void);
const char *config_schema_group_help(const char *group);

/* Whether a group must appear in the file for this drive (timing of SLC and
 * of the native mode); p holds the keys loaded before the group. */
gboolean config_schema_group_required(const char *group, const DriveParams *p);

/* Whether a drive of p uses the group at all: an optional feature's group
 * ([fdp]) is left out of the resolved config when the drive lacks it. */
gboolean config_group_in_use(const char *group, const DriveParams *p);

/* The largest value a row's field holds. */
uint64_t config_key_max(const ConfigKey *k);

/* A row's field in p, by the row's type: the one member of that type is
 * set (text points into p). Every read and write of a field by its type
 * goes through these two. */
typedef struct ConfigValue {
    uint64_t u;       /* CT_SIZE, CT_TIME, CT_RATE, CT_BANDWIDTH, CT_INT (4 or 8 bytes wide) */
    double share;     /* CT_PERCENT, 0..1 */
    bool flag;        /* CT_BOOL */
    int choice;       /* CT_ENUM */
    const char *text; /* CT_STRING */
} ConfigValue;
ConfigValue config_key_get(const ConfigKey *k, const DriveParams *p);
/* Store the member of v of k's type into p (text: at most the row's width
 * less one bytes, which the caller checked). */
void config_key_put(const ConfigKey *k, DriveParams *p, const ConfigValue *v);

/* The row's value in p, formatted as a config file writes it. */
void config_key_format(const ConfigKey *k, const DriveParams *p, char *buf, gsize len);

/* Name of an enum value in a choice list, or "?". */
const char *config_choice_name(const ConfigChoice *c, int value);

/* What a value of the row must look like ("a size such as 16KiB"); the
 * range of sizes only when with_range (ints always name theirs). g_free. */
char *config_key_expected(const ConfigKey *k, gboolean with_range);

/* The schema row of [group] key, or NULL. */
const ConfigKey *config_schema_find(const char *group, const char *key);

#endif
