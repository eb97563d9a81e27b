/*
 * report_fdp.c - the FDP statistics of a run: what the drive's FDP
 * statistics log holds (host bytes with metadata written, media bytes
 * written, media bytes erased), and per reclaim unit handle its host and
 * media bytes, what GC moved out of its reclaim units and how much of that
 * across into units the handles share, and its write amplification
 * (host + GC bytes) / host bytes. On a zoned drive: its zones by state,
 * the zone commands accepted and those failed, by NVMe status.
 */
#include "sim/output/report.h"

gboolean report_has_fdp(const RunResult *r) { return r->fdp_handles > 0; }

static double handle_waf(const DriveFdpHandle *h)
{
    return h->host_bytes ? (double)(h->host_bytes + h->gc_bytes) / (double)h->host_bytes : 0.0;
}

static double reclaim_units(const RunResult *r, const DriveFdpHandle *h)
{
    uint64_t per = r->params->fdp_ru_size / drive_params_block_bytes(r->params);
    return (double)h->blocks / (double)(per ? per : 1);
}

static uint64_t media_bytes(const RunResult *r)
{
    uint64_t n = 0;
    for (int c = 0; c < CAUSES; c++)
        n += r->stats->nand_write_bytes[c];
    return n;
}

static void handle_json(const RunResult *r, JsonWriter *w, const DriveFdpHandle *h, const char *key)
{
    json_begin_object(w, key);
    if (!key)
        json_u64(w, "handle", (uint64_t)(h - r->fdp));
    if (h != &r->fdp[r->fdp_handles])
        json_str(w, "isolation", h->persistent ? "persistent" : "initial");
    json_u64(w, "host_bytes", h->host_bytes);
    json_u64(w, "media_bytes", h->media_bytes);
    json_u64(w, "gc_bytes", h->gc_bytes);
    json_u64(w, "moved_across_bytes", h->moved_across);
    json_double(w, "reclaim_units", reclaim_units(r, h));
    if (h->host_bytes)
        json_double(w, "waf", handle_waf(h));
    else
        json_null(w, "waf");
    json_end_object(w);
}

void report_fdp_json(const RunResult *r, JsonWriter *w, const char *key)
{
    const DriveParams *p = r->params;
    json_begin_object(w, key);
    json_u64(w, "handles", r->fdp_handles);
    json_u64(w, "reclaim_groups", p->fdp_groups);
    json_u64(w, "ru_bytes", p->fdp_ru_size ? p->fdp_ru_size : drive_params_block_bytes(p));
    json_u64(w, "host_bytes_written", r->stats->host_bytes[IO_WRITE]);
    json_u64(w, "media_bytes_written", media_bytes(r));
    json_u64(w, "media_bytes_erased", r->stats->nand_erases * drive_params_block_bytes(p));
    json_begin_array(w, "per_handle");
    for (uint32_t h = 0; h < r->fdp_handles; h++)
        handle_json(r, w, &r->fdp[h], NULL);
    json_end_array(w);
    handle_json(r, w, &r->fdp[r->fdp_handles], "shared");
    json_end_object(w);
}

static void handle_line(GString *out, const RunResult *r, const DriveFdpHandle *h, const char *name,
                        const char *iso)
{
    g_string_append_printf(out, "  %-8s %-10s %9.3f %9.3f %9.3f %10.3f %8.2f", name, iso,
                           (double)h->host_bytes / 1e9, (double)h->media_bytes / 1e9,
                           (double)h->gc_bytes / 1e9, (double)h->moved_across / 1e9,
                           reclaim_units(r, h));
    if (h->host_bytes)
        g_string_append_printf(out, " %7.3f\n", handle_waf(h));
    else
        g_string_append(out, "       -\n");
}

void report_fdp_text(const RunResult *r, GString *out)
{
    const DriveParams *p = r->params;
    g_string_append_printf(out,
                           "fdp       %u handles, %u reclaim group%s, reclaim unit %.1f MiB; host wrote "
                           "%.3f GB, media %.3f GB, erased %.3f GB\n",
                           r->fdp_handles, p->fdp_groups, p->fdp_groups == 1 ? "" : "s",
                           (double)(p->fdp_ru_size ? p->fdp_ru_size : drive_params_block_bytes(p)) / 1048576.0,
                           (double)r->stats->host_bytes[IO_WRITE] / 1e9, (double)media_bytes(r) / 1e9,
                           (double)(r->stats->nand_erases * drive_params_block_bytes(p)) / 1e9);
    g_string_append(out, "  handle   isolation    host GB  media GB     gc GB  across GB      RUs     waf\n");
    for (uint32_t h = 0; h < r->fdp_handles; h++) {
        const DriveFdpHandle *f = &r->fdp[h];
        if (f->host_bytes == 0 && f->media_bytes == 0 && f->gc_bytes == 0)
            continue; /* a handle no write named */
        char name[16];
        g_snprintf(name, sizeof name, "%u", h);
        handle_line(out, r, f, name, f->persistent ? "persistent" : "initial");
    }
    handle_line(out, r, &r->fdp[r->fdp_handles], "shared", "-");
}

gboolean report_has_zns(const RunResult *r) { return r->zns != NULL; }

static const char *const zop_names[ZONE_OPS] = {"write", "open", "close", "finish", "reset", "append"};

/* Each zone command the workload issued: how many completed, and their
 * latency (submission to completion), in "latency_us". */
static void zone_latency_json(const RunResult *r, JsonWriter *w)
{
    json_begin_object(w, "latency_us");
    for (int o = ZOP_OPEN; o < ZONE_OPS && r->workload; o++) {
        const LatHist *h = workload_zone_latency(r->workload, (ZoneOp)o);
        json_begin_object(w, zop_names[o]);
        json_u64(w, "count", lat_hist_count(h));
        json_double(w, "mean", lat_hist_mean(h) / 1e3);
        json_double(w, "p50", (double)lat_hist_percentile(h, 50) / 1e3);
        json_double(w, "p99", (double)lat_hist_percentile(h, 99) / 1e3);
        json_double(w, "max", (double)lat_hist_max(h) / 1e3);
        json_end_object(w);
    }
    json_end_object(w);
}

/* The same, a line per zone command issued. */
static void zone_latency_text(const RunResult *r, GString *out)
{
    for (int o = ZOP_OPEN; o < ZONE_OPS && r->workload; o++) {
        const LatHist *h = workload_zone_latency(r->workload, (ZoneOp)o);
        if (lat_hist_count(h) == 0)
            continue;
        g_string_append_printf(out, "          %-7s %" G_GUINT64_FORMAT " done, latency us: mean %.1f, p50 %.1f, "
                               "p99 %.1f, max %.1f\n", zop_names[o], lat_hist_count(h), lat_hist_mean(h) / 1e3,
                               (double)lat_hist_percentile(h, 50) / 1e3, (double)lat_hist_percentile(h, 99) / 1e3,
                               (double)lat_hist_max(h) / 1e3);
    }
}

void report_zns_json(const RunResult *r, JsonWriter *w, const char *key)
{
    const DriveZns *z = r->zns;
    json_begin_object(w, key);
    json_u64(w, "zones", z->zones);
    json_u64(w, "zone_bytes", r->params->zns_zone_size);
    json_u64(w, "zone_capacity_bytes", r->params->zns_zone_cap);
    json_begin_object(w, "by_state");
    for (int s = 0; s < ZONE_STATES; s++)
        json_u64(w, zone_state_name(s), z->by_state[s]);
    json_end_object(w);
    json_begin_object(w, "commands");
    for (int o = 0; o < ZONE_OPS; o++)
        json_u64(w, zop_names[o], z->ops[o]);
    json_end_object(w);
    zone_latency_json(r, w);
    json_u64(w, "implicit_opens", z->implicit_opens);
    json_u64(w, "implicit_closes", z->implicit_closes);
    json_begin_object(w, "errors");
    for (int s = 1; s < ZNS_STATUSES; s++)
        json_u64(w, zns_status_name(s), z->errors[s]);
    json_end_object(w);
    json_end_object(w);
}

void report_zns_text(const RunResult *r, GString *out)
{
    const DriveZns *z = r->zns;
    g_string_append_printf(out, "zns       %u zones:", z->zones);
    for (int s = 0; s < ZONE_STATES; s++)
        g_string_append_printf(out, "%s %u %s", s ? "," : "", z->by_state[s], zone_state_name(s));
    g_string_append(out, "\n          commands:");
    for (int o = 0; o < ZONE_OPS; o++)
        g_string_append_printf(out, "%s %" G_GUINT64_FORMAT " %s", o ? "," : "", z->ops[o], zop_names[o]);
    g_string_append_printf(out, "; %" G_GUINT64_FORMAT " implicit opens, %" G_GUINT64_FORMAT " implicit closes\n",
                           z->implicit_opens, z->implicit_closes);
    uint64_t failed = 0;
    for (int s = 1; s < ZNS_STATUSES; s++)
        failed += z->errors[s];
    g_string_append_printf(out, "          failed: %" G_GUINT64_FORMAT, failed);
    for (int s = 1; s < ZNS_STATUSES; s++)
        if (z->errors[s])
            g_string_append_printf(out, ", %" G_GUINT64_FORMAT " %s (0x%02X)", z->errors[s], zns_status_name(s),
                                   zns_status_code(s));
    g_string_append(out, "\n");
    zone_latency_text(r, out);
}
