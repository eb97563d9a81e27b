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
    const char *f = (const char *)p + k->offset;
    switch (k->type) {
    case CT_STRING:
        json_str(w, k->key, f);
        return;
    case CT_SIZE:
    case CT_TIME:
    case CT_RATE:
    case CT_BANDWIDTH:
    case CT_INT:
        if (k->width == 4) {
            uint32_t v;
            memcpy(&v, f, sizeof v);
            json_u64(w, k->key, v);
        } else {
            uint64_t v;
            memcpy(&v, f, sizeof v);
            json_u64(w, k->key, v);
        }
        return;
    case CT_PERCENT: {
        double v;
        memcpy(&v, f, sizeof v);
        json_double(w, k->key, v);
        return;
    }
    case CT_BOOL: {
        bool v;
        memcpy(&v, f, sizeof v);
        json_bool(w, k->key, v);
        return;
    }
    case CT_ENUM: {
        int v;
        memcpy(&v, f, sizeof v);
        json_str(w, k->key, config_choice_name(k->choices, v));
        return;
    }
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
