/*
 * replay.c - trace replay: records from a TraceReader submitted open loop
 * (at their scaled timestamps) or closed loop (iodepth kept outstanding).
 *
 * The trace is read one record ahead, never loaded whole; in open mode the
 * records that arrive while the drive's queue is full wait in a bounded ring,
 * and reading pauses while the ring is full, so memory stays constant.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <string.h>

#define WL_REPLAY_RING 1024 /* records waiting for a queue slot (open mode) */

struct WlReplay {
    char *path;
    char *format;
    TraceOptions topt;
    ReplayOptions ro;
    TraceReader *reader;
    uint64_t trace_max;  /* bytes: highest byte the trace touches (scale) */
    uint64_t records;    /* records in the file, when a first pass counted them */
    uint64_t read;       /* records read so far */
    HostIo next;         /* the record read ahead; time is absolute sim time */
    bool have_next, arrival_pending, first;
    SimTime t0, last_trace, last_sched; /* ns */
    HostIo *ring;
    uint32_t ring_head, ring_len;
    WlIo *slots;
    uint32_t *free_slots, nfree, nslots;
    SimTime t_first, t_last; /* first submission, last completion */
    WlStats st;
    WorkloadJobSpec spec; /* what results report as the job: "replay" */
    /* live (workload_live_new): no reader */
    bool live, closed;        /* closed: no more records will come */
    uint32_t *live_id;        /* per slot: the caller's number of the command in it */
    WorkloadLiveDoneFn live_done;
    void *live_ctx;
};

static void wl_replay_free(WlReplay *r);

static TraceReader *wl_replay_open(WlReplay *r, GError **error)
{
    TraceOptions o = r->topt;
    o.format = r->format;
    return trace_open(r->path, &o, error);
}

/* First pass for LBA_SCALE: the highest byte and the record count. */
static gboolean wl_replay_scan(WlReplay *r, GError **error)
{
    g_autoptr(TraceReader) t = wl_replay_open(r, error);
    HostIo io;
    int rc;
    if (!t)
        return FALSE;
    while ((rc = trace_next(t, &io, error)) == 1) {
        r->records++;
        r->trace_max = MAX(r->trace_max, io.offset + io.length);
    }
    return rc == 0;
}

static WlReplay *wl_replay_new(const char *path, const TraceOptions *topt, const ReplayOptions *ropt,
                        GError **error)
{
    WlReplay *r = g_new0(WlReplay, 1);
    r->path = g_strdup(path);
    wl_spec_defaults(&r->spec);
    g_strlcpy(r->spec.name, "replay", sizeof r->spec.name);
    if (topt)
        r->topt = *topt;
    else
        r->topt.device = -1;
    r->format = g_strdup(r->topt.format);
    r->ro = *ropt;
    if (r->ro.time_scale <= 0)
        r->ro.time_scale = 1.0;
    if (r->ro.iodepth == 0)
        r->ro.iodepth = 1;
    r->trace_max = r->ro.trace_capacity;
    gboolean ok = TRUE;
    if (r->ro.lba_map == LBA_SCALE && r->trace_max == 0)
        ok = wl_replay_scan(r, error);
    if (ok)
        r->reader = wl_replay_open(r, error);
    if (!ok || !r->reader) {
        wl_replay_free(r);
        return NULL;
    }
    return r;
}

static void wl_replay_free(WlReplay *r)
{
    if (!r)
        return;
    trace_close(r->reader);
    g_free(r->path);
    g_free(r->format);
    g_free(r->ring);
    g_free(r->slots);
    g_free(r->free_slots);
    g_free(r->live_id);
    if (r->st.lat[0])
        wl_stats_clear(&r->st);
    g_free(r);
}

static gboolean wl_replay_bind(Workload *w, uint64_t seed, GError **error)
{
    WlReplay *r = w->replay;
    (void)seed;
    (void)error;
    r->nslots = w->t.queue_limit;
    if (r->ro.mode == REPLAY_CLOSED)
        r->nslots = MIN(r->nslots, r->ro.iodepth);
    g_free(r->slots);
    g_free(r->free_slots);
    r->slots = g_new0(WlIo, r->nslots);
    g_free(r->live_id);
    r->live_id = g_new0(uint32_t, r->nslots);
    r->free_slots = g_new(uint32_t, r->nslots);
    for (uint32_t i = 0; i < r->nslots; i++)
        r->free_slots[i] = r->nslots - 1 - i;
    r->nfree = r->nslots;
    if (!r->ring)
        r->ring = g_new(HostIo, WL_REPLAY_RING);
    if (!r->st.lat[0])
        wl_stats_init(&r->st);
    wl_stats_share(w, &r->st);
    return TRUE;
}

/* Map the record's address onto the drive; FALSE (and the run error) when
 * it lies beyond the capacity under LBA_ERROR. */
static gboolean wl_replay_map(Workload *w, HostIo *io)
{
    WlReplay *r = w->replay;
    uint64_t cap = w->t.capacity;
    if (io->op == IO_FLUSH) {
        io->offset = io->length = 0;
        return TRUE;
    }
    if (io->zop != ZOP_NONE) { /* a zone action: the drive judges the zone, not the map */
        if (w->t.zone_size && io->offset < cap)
            return TRUE;
        g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
                    "%s:%" G_GUINT64_FORMAT ": a zone action at offset %" G_GUINT64_FORMAT ", expected %s",
                    r->path, trace_line(r->reader), io->offset,
                    w->t.zone_size ? "an offset within the drive's capacity" : "a zoned drive ([zns])");
        return FALSE;
    }
    if (io->op == IO_WRITE && io->pid >= MAX(w->t.placement_ids, 1)) {
        /* as a job with fdp=1 is refused on a drive without FDP */
        if (w->t.placement_ids == 0)
            g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
                        "%s:%" G_GUINT64_FORMAT ": field plid: found \"%u\", expected 0 on a drive "
                        "without FDP (or one with an [fdp] group)",
                        r->path, trace_line(r->reader), io->pid);
        else
            g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
                        "%s:%" G_GUINT64_FORMAT ": field plid: found \"%u\", expected below the "
                        "drive's %u placement identifiers",
                        r->path, trace_line(r->reader), io->pid, w->t.placement_ids);
        return FALSE;
    }
    if (io->length <= cap && io->offset <= cap - io->length)
        return TRUE;
    if (r->ro.lba_map == LBA_ERROR || io->length > cap) {
        g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
                    "%s:%" G_GUINT64_FORMAT ": offset %" G_GUINT64_FORMAT " + length %"
                    G_GUINT64_FORMAT " ends beyond the drive capacity of %" G_GUINT64_FORMAT
                    " bytes, expected addresses within it (or lba_map wrap or scale)",
                    r->path, trace_line(r->reader), io->offset, io->length, cap);
        return FALSE;
    }
    uint64_t off = io->offset;
    if (r->ro.lba_map == LBA_SCALE && r->trace_max > cap)
        off = (uint64_t)((unsigned __int128)io->offset * cap / r->trace_max);
    else
        off %= cap;
    if (off > cap - io->length)
        off = (cap - io->length) & ~(uint64_t)4095;
    io->offset = off;
    return TRUE;
}

/* Read the next record into r->next with its submission time. */
static void wl_replay_read(Workload *w)
{
    WlReplay *r = w->replay;
    GError *err = NULL;
    r->have_next = false;
    if (w->run_error)
        return;
    int rc = trace_next(r->reader, &r->next, &err);
    if (rc < 0) {
        g_propagate_error(&w->run_error, err);
        return;
    }
    if (rc == 0 || !wl_replay_map(w, &r->next))
        return;
    r->read++;
    SimTime t = r->next.time, sched = r->t0;
    if (!r->first) {
        double gap = t > r->last_trace ? (double)(t - r->last_trace) * r->ro.time_scale : 0.0;
        if (r->ro.max_idle_ns && gap > (double)r->ro.max_idle_ns)
            gap = (double)r->ro.max_idle_ns;
        if (!(gap < 1e18)) /* 31 years: keeps the sum finite; the run's row bound stops it */
            gap = 1e18;
        sched = r->last_sched + (SimTime)(gap + 0.5);
    }
    r->first = false;
    r->last_trace = t;
    r->last_sched = sched;
    r->next.time = sched;
    r->have_next = true;
    if (w->t.warm) /* the record comes after the one submitted last: an I/O ahead */
        w->t.warm(w->t.ctx, UINT64_MAX, r->next.offset);
}

static void wl_replay_submit(Workload *w, const HostIo *io)
{
    WlReplay *r = w->replay;
    uint32_t slot = r->free_slots[--r->nfree];
    WlIo *s = &r->slots[slot];
    s->submit = sim_now(w->e);
    s->offset = io->offset;
    s->length = io->length;
    s->op = io->op;
    s->zop = io->zop;
    r->live_id[slot] = io->dev; /* a live record's number (unused otherwise) */
    if (r->t_first == SIM_TIME_MAX)
        r->t_first = s->submit;
    w->outstanding++;
    if (io->zop == ZOP_NONE)
        wl_fio_stat_submit(&r->st.fio, s->submit, w->outstanding, (IoOp)io->op);
    if (io->zop != ZOP_NONE) { /* counted apart from the I/O (wl_zone_record()) */
        wl_disk_submit(w);
        w->t.submit(w->t.ctx, &(DriveCmd){.zop = io->zop, .offset = io->offset, .tag = slot});
    } else if (io->op == IO_WRITE && w->t.placement_ids > 0)
        wl_submit_placed(w, (IoOp)io->op, io->offset, io->length, slot, io->pid);
    else
        wl_submit(w, (IoOp)io->op, io->offset, io->length, slot);
}

static bool wl_replay_room(const Workload *w)
{
    return w->replay->nfree > 0 && w->outstanding < w->t.queue_limit;
}

static void wl_replay_drain(Workload *w)
{
    WlReplay *r = w->replay;
    while (r->ring_len && wl_replay_room(w)) {
        wl_replay_submit(w, &r->ring[r->ring_head]);
        r->ring_head = (r->ring_head + 1) % WL_REPLAY_RING;
        r->ring_len--;
    }
}

/* Open mode: records due now join the ring (submitted at once when there is
 * room); the next future record gets an arrival event. */
static void ev_arrival(void *ctx, uint64_t arg)
{
    Workload *w = ctx;
    WlReplay *r = w->replay;
    (void)arg;
    r->arrival_pending = false;
    SimTime now = sim_now(w->e);
    while (r->have_next && r->next.time <= now && r->ring_len < WL_REPLAY_RING) {
        if (r->ring_len == 0 && wl_replay_room(w))
            wl_replay_submit(w, &r->next);
        else
            r->ring[(r->ring_head + r->ring_len++) % WL_REPLAY_RING] = r->next;
        wl_replay_read(w);
    }
    if (r->have_next && r->ring_len < WL_REPLAY_RING) {
        sim_schedule(w->e, r->next.time, ev_arrival, w, 0);
        r->arrival_pending = true;
    }
    wl_replay_drain(w);
}

static void wl_replay_fill_closed(Workload *w)
{
    WlReplay *r = w->replay;
    while (r->have_next && wl_replay_room(w)) {
        wl_replay_submit(w, &r->next);
        wl_replay_read(w);
    }
}

static void wl_replay_start(Workload *w)
{
    WlReplay *r = w->replay;
    r->t0 = sim_now(w->e);
    r->first = true;
    r->t_first = SIM_TIME_MAX;
    if (r->live)
        return;
    wl_replay_read(w);
    if (r->ro.mode == REPLAY_CLOSED)
        wl_replay_fill_closed(w);
    else if (r->have_next)
        ev_arrival(w, 0);
}

static void wl_replay_done(Workload *w, uint64_t tag)
{
    WlReplay *r = w->replay;
    g_return_if_fail(tag < r->nslots);
    WlIo *s = &r->slots[tag];
    SimTime now = sim_now(w->e);
    if (s->zop != ZOP_NONE) {
        wl_disk_done(w, IO_FLUSH, now - s->submit); /* in the queue, in no direction */
        wl_zone_record(w, s->zop, now - s->submit);
    } else {
        wl_disk_done(w, (IoOp)s->op, now - s->submit);
        wl_record(w, &r->st, now, (IoOp)s->op, s->length, now - s->submit);
    }
    r->t_last = now;
    r->free_slots[r->nfree++] = (uint32_t)tag;
    w->outstanding--;
    if (r->live) {
        uint32_t id = r->live_id[tag]; /* before a waiting record takes the slot */
        wl_replay_drain(w);
        r->live_done(r->live_ctx, id);
        return;
    }
    if (r->ro.mode == REPLAY_CLOSED) {
        wl_replay_fill_closed(w);
        return;
    }
    wl_replay_drain(w);
    if (!r->arrival_pending && r->have_next && r->ring_len < WL_REPLAY_RING)
        ev_arrival(w, 0); /* reading had paused on a full ring */
}

static gboolean wl_replay_finished(const Workload *w)
{
    const WlReplay *r = w->replay;
    if (r->live && !r->closed)
        return FALSE;
    return !r->have_next && r->ring_len == 0 && w->outstanding == 0;
}

static double wl_replay_progress(const Workload *w)
{
    const WlReplay *r = w->replay;
    if (wl_replay_finished(w))
        return 1.0;
    return r->records ? MIN(1.0, (double)r->read / (double)r->records) : 0.0;
}

static guint wl_replay_results(const Workload *w)
{
    (void)w;
    return 1;
}

static void wl_replay_result(const Workload *w, guint i, WorkloadJobResult *out)
{
    (void)i;
    const WlReplay *r = w->replay;
    memset(out, 0, sizeof *out);
    out->name = r->spec.name;
    out->spec = &r->spec;
    out->trace = TRUE;
    if (r->t_first != SIM_TIME_MAX && r->t_last > r->t_first)
        out->runtime_ns = r->t_last - r->t_first;
    for (int d = 0; d < WL_DIRS; d++) {
        uint64_t n = r->st.ios[d];
        double mean = lat_hist_mean(r->st.lat[d]);
        double var = n > 1 ? (r->st.lat_sq[d] - (double)n * mean * mean) / (double)(n - 1) : 0;
        out->ios[d] = n;
        out->bytes[d] = r->st.bytes[d];
        out->lat[d] = r->st.lat[d];
        out->lat_sq[d] = r->st.lat_sq[d];
        out->lat_stddev_ns[d] = var > 0 ? sqrt(var) : 0;
    }
    out->sync_ios = r->st.ios[IO_FLUSH];
    out->sync_lat = r->st.lat[IO_FLUSH];
    out->sync_lat_sq = r->st.lat_sq[IO_FLUSH];
    wl_fio_stat_result(&r->st.fio, r->t_last, &out->fio);
    out->ss_criterion = NAN;
}

static void wl_replay_json(const Workload *w, JsonWriter *jw)
{
    const WlReplay *r = w->replay;
    double rt = r->t_first != SIM_TIME_MAX && r->t_last > r->t_first
                    ? (double)(r->t_last - r->t_first) / 1e9
                    : 0.0;
    json_begin_object(jw, NULL);
    json_str(jw, "name", "replay");
    json_str(jw, "rw", "trace");
    json_str(jw, "trace", r->path);
    json_str(jw, "format", r->reader ? trace_format_name(r->reader) : NULL);
    WorkloadTraceInfo ti;
    if (workload_trace_info(w, &ti)) {
        json_str(jw, "format_label", ti.format);
        json_bool(jw, "format_detected", ti.detected);
        json_bool(jw, "header_skipped", ti.header_skipped);
        json_u64(jw, "bad_lines_skipped", ti.bad_lines);
    }
    json_str(jw, "mode", r->live ? "live" : r->ro.mode == REPLAY_OPEN ? "open" : "closed");
    for (int op = 0; op < IO_OPS; op++)
        wl_stats_json(jw, &r->st, (IoOp)op, rt);
    json_double(jw, "runtime_s", rt);
    json_end_object(jw);
}

gboolean workload_trace_info(const Workload *w, WorkloadTraceInfo *info)
{
    memset(info, 0, sizeof *info);
    if (!w || !w->replay || !w->replay->reader)
        return FALSE;
    const TraceReader *t = w->replay->reader;
    info->path = w->replay->path;
    info->format = trace_format_label(t);
    info->detected = trace_format_was_detected(t);
    info->header_skipped = trace_header_skipped(t);
    info->bad_lines = trace_bad_lines(t);
    return TRUE;
}

static void wl_replay_source_free(Workload *w)
{
    wl_replay_free(w->replay);
}

/* Trace replay as a source of I/O. */
static const WlSource wl_replay_source = {
    .bind = wl_replay_bind,
    .start = wl_replay_start,
    .io_done = wl_replay_done,
    .finished = wl_replay_finished,
    .progress = wl_replay_progress,
    .results = wl_replay_results,
    .result = wl_replay_result,
    .json = wl_replay_json,
    .free = wl_replay_source_free,
};

Workload *workload_from_trace(const char *path, const TraceOptions *topt, const ReplayOptions *ropt,
                              GError **error)
{
    g_return_val_if_fail(path && ropt, NULL);
    WlReplay *r = wl_replay_new(path, topt, ropt, error);
    if (!r)
        return NULL;
    Workload *w = wl_new(g_strdup_printf("trace:%s,mode=%s", path,
                                         ropt->mode == REPLAY_OPEN ? "open" : "closed"),
                         &wl_replay_source);
    w->replay = r;
    return w;
}

Workload *workload_live_new(const char *name, WorkloadLiveDoneFn done, void *ctx)
{
    g_return_val_if_fail(name && done, NULL);
    WlReplay *r = g_new0(WlReplay, 1);
    r->path = g_strdup(name);
    r->topt.device = -1;
    r->ro.mode = REPLAY_OPEN;
    r->ro.time_scale = 1.0;
    r->ro.iodepth = 1;
    r->live = true;
    r->live_done = done;
    r->live_ctx = ctx;
    wl_spec_defaults(&r->spec);
    g_strlcpy(r->spec.name, name, sizeof r->spec.name);
    Workload *w = wl_new(g_strdup_printf("live:%s", name), &wl_replay_source);
    w->replay = r;
    return w;
}

gboolean workload_live_submit(Workload *w, IoOp op, uint64_t offset, uint64_t length, uint32_t id)
{
    WlReplay *r = w->replay;
    g_return_val_if_fail(r && r->live && !r->closed, FALSE);
    HostIo io = {.time = sim_now(w->e), .offset = offset, .length = length, .dev = id,
                 .op = (uint8_t)op};
    if (op == IO_FLUSH)
        io.offset = io.length = 0;
    else if (length > w->t.capacity || offset > w->t.capacity - length)
        return FALSE;
    if (r->ring_len == 0 && wl_replay_room(w)) {
        wl_replay_submit(w, &io);
        return TRUE;
    }
    if (r->ring_len == WL_REPLAY_RING)
        return FALSE;
    r->ring[(r->ring_head + r->ring_len++) % WL_REPLAY_RING] = io;
    return TRUE;
}

void workload_live_close(Workload *w)
{
    g_return_if_fail(w->replay && w->replay->live);
    w->replay->closed = true;
}
