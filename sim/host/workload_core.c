/*
 * workload_core.c - what every source of I/O shares (fio jobs in
 * workload.c and workload_query.c, trace replay in replay.c): the Workload
 * record, submitting to the target and recording completions (the per-I/O
 * steps inline in workload_priv.h; the histograms a source shares with the
 * workload here), and the public calls that hand on to the source's ops
 * (WlSource). It calls no source by name.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

void wl_stats_init(WlStats *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < IO_OPS; i++)
        s->lat[i] = lat_hist_new();
    wl_fio_stat_init(&s->fio);
}

void wl_stats_clear(WlStats *s)
{
    for (int i = 0; i < IO_OPS && !s->shared; i++)
        lat_hist_free(s->lat[i]);
    memset(s, 0, sizeof *s);
}

void wl_stats_share(Workload *w, WlStats *s)
{
    for (int i = 0; i < IO_OPS; i++)
        if (s->shared || lat_hist_count(w->overall[i]) || lat_hist_count(s->lat[i]))
            return;
    for (int i = 0; i < IO_OPS; i++) {
        lat_hist_free(s->lat[i]);
        s->lat[i] = w->overall[i];
    }
    s->shared = true;
}

void wl_stats_json(JsonWriter *jw, const WlStats *s, IoOp op, double runtime_s)
{
    static const char *const keys[] = {"read", "write", "trim", "flush"};
    const LatHist *h = s->lat[op];
    json_begin_object(jw, keys[op]);
    json_u64(jw, "ios", s->ios[op]);
    json_u64(jw, "bytes", s->bytes[op]);
    json_double(jw, "iops", runtime_s > 0 ? (double)s->ios[op] / runtime_s : 0.0);
    json_double(jw, "MBps", runtime_s > 0 ? (double)s->bytes[op] / runtime_s / 1e6 : 0.0);
    json_begin_object(jw, "lat_us");
    json_double(jw, "mean", lat_hist_mean(h) / 1e3);
    static const double pct[] = {50, 90, 99, 99.9, 99.99};
    static const char *const pk[] = {"p50", "p90", "p99", "p99.9", "p99.99"};
    for (unsigned i = 0; i < G_N_ELEMENTS(pct); i++)
        json_double(jw, pk[i], (double)lat_hist_percentile(h, pct[i]) / 1e3);
    json_double(jw, "max", (double)lat_hist_max(h) / 1e3);
    json_end_object(jw);
    json_end_object(jw);
}

void wl_submit_placed(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint64_t tag, uint32_t pid)
{
    w->sub_bytes[op] += length;
    w->sub_ios[op]++;
    wl_disk_submit(w);
    w->t.submit(w->t.ctx,
                &(DriveCmd){.op = (uint8_t)op, .offset = offset, .length = length, .tag = tag, .pid = (uint16_t)pid});
}

void wl_zone_record(Workload *w, uint8_t zop, SimTime latency)
{
    if (zop > ZOP_NONE && zop < ZONE_OPS)
        lat_hist_record(w->zone_lat[zop], latency);
}

Workload *wl_new(char *description, const WlSource *src)
{
    Workload *w = g_new0(Workload, 1);
    w->description = description;
    w->src = src;
    w->stop_at = SIM_TIME_MAX;
    for (int i = 0; i < IO_OPS; i++)
        w->overall[i] = lat_hist_new();
    for (int i = 0; i < ZONE_OPS; i++)
        w->zone_lat[i] = lat_hist_new();
    return w;
}

void workload_set_stop_time(Workload *w, SimTime t)
{
    g_return_if_fail(w && !w->started);
    w->stop_at = t;
}

gboolean workload_bind(Workload *w, SimEngine *e, const WorkloadTarget *t, uint64_t seed,
                       GError **error)
{
    g_return_val_if_fail(w && e && t && t->submit && !w->started, FALSE);
    w->e = e;
    w->t = *t;
    if (w->t.queue_limit == 0)
        w->t.queue_limit = 1;
    w->bound = w->src->bind(w, seed, error);
    return w->bound;
}

void workload_start(Workload *w)
{
    g_return_if_fail(w && w->bound && !w->started);
    w->started = true;
    w->src->start(w);
}

gboolean workload_io_done(Workload *w, const DriveCompletion *c)
{
    g_return_val_if_fail(w && w->started && c, FALSE);
    w->done = c;
    w->src->io_done(w, c->tag);
    w->done = NULL;
    /* no source is finished with commands at the target: most often
     * false, without the call */
    return w->outstanding == 0 && w->src->finished(w);
}

gboolean workload_finished(const Workload *w)
{
    g_return_val_if_fail(w != NULL, TRUE);
    return w->started && w->outstanding == 0 && w->src->finished(w);
}

double workload_progress(const Workload *w)
{
    g_return_val_if_fail(w != NULL, 0.0);
    if (!w->bound || !w->started)
        return 0.0;
    return w->src->progress(w);
}

guint workload_result_count(const Workload *w)
{
    g_return_val_if_fail(w != NULL, 0);
    return w->src->results(w);
}

void workload_result(const Workload *w, guint i, WorkloadJobResult *out)
{
    g_return_if_fail(w && out && i < workload_result_count(w));
    w->src->result(w, i, out);
}

void workload_write_jobs_json(const Workload *w, JsonWriter *jw)
{
    g_return_if_fail(w && jw);
    json_begin_array(jw, "jobs");
    w->src->json(w, jw);
    json_end_array(jw);
}

void workload_free(Workload *w)
{
    if (!w)
        return;
    w->src->free(w);
    for (int i = 0; i < IO_OPS; i++)
        lat_hist_free(w->overall[i]);
    for (int i = 0; i < ZONE_OPS; i++)
        lat_hist_free(w->zone_lat[i]);
    g_clear_error(&w->run_error);
    g_free(w->description);
    g_free(w);
}
