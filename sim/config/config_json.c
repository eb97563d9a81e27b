/*
 * config_json.c - the resolved drive config as JSON, walked from the schema.
 *
 * Kept apart from the loader so programs that never write JSON do not link
 * the JSON writer.
 */
#include "sim/config/config.h"

#include <string.h>

#include "sim/config/config_schema.h"

static void write_key(const ConfigKey *k, const DriveParams *p, JsonWriter *w)
{
    ConfigValue v = config_key_get(k, p);
    if (k->flags & CK_QUIET && !v.u && v.share == 0 && !v.flag && !v.choice && (!v.text || !v.text[0]))
        return;
    switch (k->type) {
    case CT_STRING:
        json_str(w, k->key, v.text);
        return;
    case CT_SIZE:
    case CT_TIME:
    case CT_RATE:
    case CT_BANDWIDTH:
    case CT_INT:
        json_u64(w, k->key, v.u);
        return;
    case CT_PERCENT:
        json_double(w, k->key, v.share);
        return;
    case CT_BOOL:
        json_bool(w, k->key, v.flag);
        return;
    case CT_ENUM:
        json_str(w, k->key, config_choice_name(k->choices, v.choice));
        return;
    }
}

void config_write_json(const DriveParams *p, JsonWriter *w)
{
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    const char *const *groups = config_schema_groups();
    json_begin_object(w, "drive_config");
    for (gsize g = 0; groups[g]; g++) {
        if (!config_group_in_use(groups[g], p))
            continue; /* a feature the drive lacks: its outputs stay as they were */
        json_begin_object(w, groups[g]);
        for (gsize i = 0; i < n; i++)
            if (strcmp(rows[i].group, groups[g]) == 0)
                write_key(&rows[i], p, w);
        json_end_object(w);
    }
    json_end_object(w);
}
