/*
 * workload_named.c - the named review workloads (fill, cdm, random-notrim,
 * read-after-write, trim-stall, cache-vs-fill, steady-random), each expanded into fio job-file text from
 * its parameters ("name:key=value:key=value"). docs/workloads.md shows the
 * exact expansions.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

#define WL_NAMED_PARAMS 8

typedef gboolean (*WlGenFn)(GString *out, char **v, GError **error);

typedef struct WlNamed {
    const char *name;
    const char *keys[WL_NAMED_PARAMS]; /* NULL-terminated */
    const char *defs[WL_NAMED_PARAMS];
    WlGenFn gen;
} WlNamed;

static gboolean gen_fill(GString *o, char **v, GError **error)
{
    (void)error;
    g_string_append_printf(o, "[fill]\nrw=write\nbs=%s\niodepth=%s\nsize=100%%\n", v[0], v[1]);
    return TRUE;
}

static void cdm_test(GString *o, const char *name, const char *rw, const char *bs, int qd,
                     const char *runtime)
{
    g_string_append_printf(o, "\n[%s]\nstonewall\nrw=%s\nbs=%s\niodepth=%d\nruntime=%s\n", name,
                           rw, bs, qd, runtime);
}

static gboolean gen_cdm(GString *o, char **v, GError **error)
{
    (void)error;
    g_string_append_printf(o, "[global]\noffset=0\nsize=%s\n\n[prepare]\nrw=write\nbs=1m\n"
                              "iodepth=8\n", v[0]);
    cdm_test(o, "seq1m-q8t1-write", "write", "1m", 8, v[1]);
    cdm_test(o, "seq1m-q8t1-read", "read", "1m", 8, v[1]);
    cdm_test(o, "rnd4k-q32t1-write", "randwrite", "4k", 32, v[1]);
    cdm_test(o, "rnd4k-q32t1-read", "randread", "4k", 32, v[1]);
    cdm_test(o, "rnd4k-q1t1-write", "randwrite", "4k", 1, v[1]);
    cdm_test(o, "rnd4k-q1t1-read", "randread", "4k", 1, v[1]);
    return TRUE;
}

static gboolean gen_random_notrim(GString *o, char **v, GError **error)
{
    (void)error;
    g_string_append_printf(o, "[random-notrim]\nrw=randwrite\nbs=4k\niodepth=32\nsize=100%%\n"
                              "loops=%s\nio_size=%s\n", v[0], v[1]);
    return TRUE;
}

static gboolean gen_read_after_write(GString *o, char **v, GError **error)
{
    (void)error;
    const char *size = v[0], *idle = v[1], *push = v[2];
    g_string_append_printf(o, "[global]\nbs=4k\niodepth=32\noffset=0\nsize=%s\n\n"
                              "[write]\nrw=randwrite\n\n"
                              "[read1]\nstonewall\nrw=randread\n\n"
                              "[idle1]\nidle=%s\n\n"
                              "[read2]\nrw=randread\n\n"
                              "[push]\nstonewall\nrw=write\nbs=1m\noffset=%s\nsize=0\n"
                              "io_size=%s\n\n"
                              "[idle2]\nidle=%s\n\n"
                              "[read3]\nrw=randread\n",
                           size, idle, size, push, idle);
    return TRUE;
}

static gboolean gen_trim_stall(GString *o, char **v, GError **error)
{
    uint32_t files = 0;
    uint64_t fsize = 0;
    char *end = NULL;
    uint64_t n = g_ascii_isdigit(v[0][0]) ? g_ascii_strtoull(v[0], &end, 10) : 0;
    if (!end || *end || n < 1 || n > 64) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"files\": found \"%s\", expected an integer from 1 to 64", v[0]);
        return FALSE;
    }
    files = (uint32_t)n;
    if (!workload_parse_bytes(v[1], 1024, &fsize, error) || fsize == 0) {
        g_clear_error(error);
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"file_size\": found \"%s\", expected a size such as 8g", v[1]);
        return FALSE;
    }
    g_string_append(o, "[global]\nbs=1m\niodepth=8\n");
    for (uint32_t i = 0; i < files; i++)
        g_string_append_printf(o, "\n[file%u]\nstonewall\nrw=write\noffset=%" G_GUINT64_FORMAT
                                  "\nsize=%" G_GUINT64_FORMAT "\n", i + 1, fsize * i, fsize);
    g_string_append_printf(o, "\n[idle]\nidle=%s\n\n[read]\nrw=read\noffset=%" G_GUINT64_FORMAT
                              "\nsize=%s\n\n[trim]\nrw=trim\nbs=%s\niodepth=1\noffset=0\nsize=%"
                              G_GUINT64_FORMAT "\n",
                           v[2], fsize * files, v[3], v[4], fsize * files);
    return TRUE;
}

/* A percentage from 0 to 100 (without or with %), for a size= option. */
static gboolean named_pct(const char *key, const char *text, double *out, GError **error)
{
    char *end = NULL;
    double v = g_ascii_strtod(text, &end);
    if (end == text || (*end && strcmp(end, "%") != 0) || !(v >= 0 && v < 100)) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"%s\": found \"%s\", expected a share of the drive from 0%% to "
                    "99%% such as 50%%", key, text);
        return FALSE;
    }
    *out = v;
    return TRUE;
}

/* cache-vs-fill: the drive filled to a level (sequential writes), an idle
 * pause, then writes into the rest of the drive (sequential, or random
 * blocks each once) at a host rate (0: as fast as it goes): the pSLC
 * cache's size at that fill is the data written at the cache's rate after
 * the fill (phases), and the rates after its end are the later phases. */
static gboolean gen_cache_vs_fill(GString *o, char **v, GError **error)
{
    double fill = 0;
    if (!named_pct("fill", v[0], &fill, error))
        return FALSE;
    if (strcmp(v[5], "write") != 0 && strcmp(v[5], "randwrite") != 0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"rw\": found \"%s\", expected write or randwrite", v[5]);
        return FALSE;
    }
    g_string_append_printf(o, "[global]\nbs=%s\niodepth=%s\n", v[3], v[4]);
    if (fill > 0)
        g_string_append_printf(o, "\n[fill]\nrw=write\nsize=%g%%\n", fill);
    if (strcmp(v[1], "0") != 0)
        g_string_append_printf(o, "\n[idle]\nstonewall\nidle=%s\n", v[1]);
    g_string_append_printf(o, "\n[write]\nstonewall\nrw=%s\n", v[5]);
    if (fill > 0)
        g_string_append_printf(o, "offset=%g%%\n", fill);
    if (strcmp(v[2], "0") != 0)
        g_string_append_printf(o, "rate=%s\n", v[2]);
    return TRUE;
}

/* steady-random: a prefilled drive (random: the whole drive once in random
 * order; seq: the PTS's preconditioning, twice the capacity in 128 KiB
 * sequential writes; none: a fresh drive), then random writes in rounds
 * until the PTS steady state of their IOPS (ss=pts) or the round limit.
 * The runtime is one round more than the limit, so the rounds end it. */
static gboolean gen_steady_random(GString *o, char **v, GError **error)
{
    const char *prefill = v[0];
    SimTime round = 0;
    uint32_t rounds = 0;
    if (strcmp(prefill, "random") != 0 && strcmp(prefill, "seq") != 0 &&
        strcmp(prefill, "none") != 0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"prefill\": found \"%s\", expected random, seq or none", prefill);
        return FALSE;
    }
    if (!workload_parse_time(v[4], SIM_SEC, &round, NULL) || round < SIM_SEC / 1000 ||
        round > 86400 * SIM_SEC) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"round\": found \"%s\", expected a duration from 1ms to 1d such "
                    "as 60s", v[4]);
        return FALSE;
    }
    if (!wl_fio_u32(v[5], STEADY_WINDOW, WL_SS_ROUNDS_MAX, &rounds, NULL)) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "parameter \"rounds\": found \"%s\", expected an integer from %d to %d",
                    v[5], STEADY_WINDOW, WL_SS_ROUNDS_MAX);
        return FALSE;
    }
    if (strcmp(prefill, "random") == 0)
        g_string_append_printf(o, "[prefill]\nrw=randwrite\nbs=%s\niodepth=32\nsize=100%%\n\n",
                               v[1]);
    else if (strcmp(prefill, "seq") == 0)
        g_string_append(o, "[prefill]\nrw=write\nbs=128k\niodepth=32\nsize=100%\nloops=2\n\n");
    g_string_append_printf(o, "[steady]\nstonewall\nrw=randwrite\nbs=%s\niodepth=%s\nnumjobs=%s\n"
                              "time_based\nruntime=%" G_GUINT64_FORMAT "us\nss=pts\n"
                              "ss_round=%" G_GUINT64_FORMAT "us\nss_rounds=%u\n",
                           v[1], v[2], v[3], (uint64_t)(rounds + 1) * (round / 1000),
                           round / 1000, rounds);
    return TRUE;
}

static const WlNamed wl_named[] = {
    {"fill", {"bs", "iodepth"}, {"1m", "2"}, gen_fill},
    {"cdm", {"size", "runtime"}, {"1g", "5s"}, gen_cdm},
    {"random-notrim", {"loops", "io_size"}, {"2", "0"}, gen_random_notrim},
    {"read-after-write", {"size", "idle", "push"}, {"1g", "60s", "100g"}, gen_read_after_write},
    {"trim-stall",
     {"files", "file_size", "idle", "read_size", "trim_bs"},
     {"8", "8g", "180s", "8g", "1g"},
     gen_trim_stall},
    {"cache-vs-fill",
     {"fill", "idle", "rate", "bs", "iodepth", "rw"},
     {"50%", "60s", "0", "1m", "8", "write"},
     gen_cache_vs_fill},
    {"steady-random",
     {"prefill", "bs", "iodepth", "threads", "round", "rounds"},
     {"random", "4k", "32", "1", "60s", "25"},
     gen_steady_random},
};

static const WlNamed *wl_named_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(wl_named); i++)
        if (strcmp(wl_named[i].name, name) == 0)
            return &wl_named[i];
    return NULL;
}

/* Fill v[] from the defaults and "key=value" items. */
static gboolean wl_named_params(const WlNamed *n, char **items, char **v, GError **error)
{
    for (int k = 0; k < WL_NAMED_PARAMS && n->keys[k]; k++)
        v[k] = g_strdup(n->defs[k]);
    for (guint i = 0; items[i]; i++) {
        char *eq = strchr(items[i], '=');
        int k = 0;
        if (eq)
            *eq = '\0';
        while (k < WL_NAMED_PARAMS && n->keys[k] && strcmp(n->keys[k], items[i]) != 0)
            k++;
        if (!eq || eq[1] == '\0' || k == WL_NAMED_PARAMS || !n->keys[k]) {
            g_autofree char *keys = g_strjoinv(", ", (char **)n->keys);
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                        "workload \"%s\": found \"%s\", expected KEY=VALUE with KEY one of %s",
                        n->name, items[i], keys);
            return FALSE;
        }
        g_free(v[k]);
        v[k] = g_strdup(eq + 1);
    }
    return TRUE;
}

char *wl_named_expand(const char *spec, gboolean *named, GError **error)
{
    g_autofree char *s = g_strstrip(g_strdup(spec));
    g_auto(GStrv) parts = g_strsplit(s, ":", -1);
    *named = FALSE;
    if (!parts[0] || strpbrk(parts[0], "=,;&"))
        return NULL;
    *named = TRUE;
    const WlNamed *n = wl_named_find(parts[0]);
    if (!n) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE,
                    "workload \"%s\": found no such named workload, expected fill, cdm, "
                    "random-notrim, read-after-write, trim-stall, cache-vs-fill, steady-random or "
                    "fio options (rw=...)",
                    parts[0]);
        return NULL;
    }
    char *v[WL_NAMED_PARAMS + 1] = {NULL};
    GString *out = g_string_new(NULL);
    gboolean ok = wl_named_params(n, parts + 1, v, error) && n->gen(out, v, error);
    if (!ok && error && *error && !g_str_has_prefix((*error)->message, "workload"))
        g_prefix_error(error, "workload \"%s\": ", n->name);
    for (int k = 0; k < WL_NAMED_PARAMS; k++)
        g_free(v[k]);
    return g_string_free(out, !ok);
}
