/*
 * workload_fdp.c - fio's data placement options: fdp=1 (or
 * dataplacement=fdp), fdp_pli= (plids=) and fdp_pli_select= (plid_select=),
 * as fio defines them: a job's writes name placement identifiers, picked
 * per write in turn (roundrobin, fio's default) or at random from the
 * indices fdp_pli lists into the drive's placement identifiers (all of them
 * when it lists none; at most 16, fio's FIO_MAX_DP_IDS).
 */
#include "sim/host/workload_priv.h"

#include <stdlib.h>
#include <string.h>

static gboolean bad(GError **error, const char *v, const char *expected)
{
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE, "found \"%s\", expected %s", v, expected);
    return FALSE;
}

static gboolean opt_fdp(WorkloadJobSpec *s, const char *v, GError **error)
{
    return wl_fio_bool(v, &s->fdp.on, error);
}

/* dataplacement=fdp|none (fio's newer name); streams is not modelled. */
static gboolean opt_dataplacement(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "fdp") != 0 && strcmp(v, "none") != 0)
        return bad(error, v, "fdp or none (ftlsim models no write streams)");
    s->fdp.on = strcmp(v, "fdp") == 0;
    return TRUE;
}

/* One index or a range a-b into s's list. */
static gboolean add_range(WorkloadJobSpec *s, const char *word, GError **error)
{
    char *end;
    unsigned long a = strtoul(word, &end, 10), b = a;
    if (end == word)
        return bad(error, word, "a placement identifier index such as 0, or a range such as 0-3");
    if (*end == '-') {
        const char *rest = end + 1;
        b = strtoul(rest, &end, 10);
        if (end == rest || b < a)
            return bad(error, word, "a range of indices a-b with a <= b");
    }
    if (*end != '\0' || b > UINT16_MAX)
        return bad(error, word, "a placement identifier index from 0 to 65535");
    for (unsigned long i = a; i <= b; i++) {
        if (s->fdp.n == WL_FDP_PLI_MAX)
            return bad(error, word, "at most 16 placement identifier indices (fio's limit)");
        s->fdp.pli[s->fdp.n++] = (uint16_t)i;
    }
    return TRUE;
}

/* fdp_pli=0,2,5 or 0-3 (commas, or fio's colons). */
static gboolean opt_fdp_pli(WorkloadJobSpec *s, const char *v, GError **error)
{
    g_auto(GStrv) words = g_strsplit_set(v, ",:", -1);
    s->fdp.n = 0;
    for (guint i = 0; words[i]; i++) {
        g_strstrip(words[i]);
        if (!add_range(s, words[i], error))
            return FALSE;
    }
    return s->fdp.n ? TRUE : bad(error, v, "one or more placement identifier indices");
}

static gboolean opt_fdp_pli_select(WorkloadJobSpec *s, const char *v, GError **error)
{
    if (strcmp(v, "random") != 0 && strcmp(v, "roundrobin") != 0)
        return bad(error, v, "random or roundrobin");
    s->fdp.random = strcmp(v, "random") == 0;
    return TRUE;
}

/* cmd_type=nvme of io_uring_cmd: the drive is an NVMe namespace either way. */
static gboolean opt_cmd_type(WorkloadJobSpec *s, const char *v, GError **error)
{
    (void)s;
    return strcmp(v, "nvme") == 0 ? TRUE : bad(error, v, "nvme");
}

static const WlOpt fdp_opts[] = {
    {"fdp", opt_fdp, TRUE},
    {"dataplacement", opt_dataplacement, FALSE},
    {"fdp_pli", opt_fdp_pli, FALSE},
    {"plids", opt_fdp_pli, FALSE},
    {"fdp_pli_select", opt_fdp_pli_select, FALSE},
    {"plid_select", opt_fdp_pli_select, FALSE},
    {"cmd_type", opt_cmd_type, FALSE},
};

const WlOpt *wl_fdp_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(fdp_opts); i++)
        if (strcmp(fdp_opts[i].name, name) == 0)
            return &fdp_opts[i];
    return NULL;
}

/* A job with fdp=1 needs a drive with FDP, and indices within its list, as
 * fio refuses them on a namespace without FDP. */
gboolean wl_fdp_bind(const WorkloadJobSpec *s, const char *job, const WorkloadTarget *t, GError **error)
{
    if (!s->fdp.on)
        return TRUE;
    if (t->placement_ids == 0) {
        g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                    "job \"%s\": option \"fdp\": found a drive without FDP, expected one with an "
                    "[fdp] group (handles above 0)", job);
        return FALSE;
    }
    for (uint32_t i = 0; i < s->fdp.n; i++)
        if (s->fdp.pli[i] >= t->placement_ids) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                        "job \"%s\": option \"fdp_pli\": found index %u, expected below the "
                        "drive's %u placement identifiers", job, s->fdp.pli[i], t->placement_ids);
            return FALSE;
        }
    return TRUE;
}

uint32_t wl_fdp_next(const WorkloadJobSpec *s, const WorkloadTarget *t, uint32_t *rr, SimRng *rng)
{
    uint32_t n = s->fdp.n ? s->fdp.n : t->placement_ids;
    uint32_t k;
    if (s->fdp.random) {
        k = (uint32_t)sim_rng_below(rng, n);
    } else {
        if (*rr >= n)
            *rr = 0;
        k = (*rr)++;
    }
    return s->fdp.n ? s->fdp.pli[k] : k;
}
