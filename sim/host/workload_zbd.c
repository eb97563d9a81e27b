/*
 * workload_zbd.c - fio's zonemode=zbd as fio 3.33's zbd.c runs it, on a
 * zoned drive: the host's view of every zone (write pointer, fio's list of
 * open zones, the bytes written), shared by all jobs as fio shares one per
 * device. Writes go to a zone's write pointer; a write whose zone cannot be
 * opened goes to one of the open zones, or opens another below the limit;
 * a full zone, or one picked once the data written passes
 * zone_reset_threshold (every 1/zone_reset_frequency writes), is reset
 * before the write; a trim is a zone reset; reads stay below the write
 * pointer unless read_beyond_wp. Writes to one zone go one at a time, as
 * the kernel's zone write lock sends them to a zoned block device: a job
 * whose next write is for a zone with a write or reset in flight waits for
 * it. zone_append=1 (ftlsim's; fio 3.33 has no option for it) sends writes
 * as Zone Append to the zone's start instead, which needs no such wait.
 * On a drive without zones the zones are fio's emulated ones (its model
 * ZBD_NONE): their size and capacity from the first zbd job, every zone
 * empty at the start, a reset only the host's (nothing sent), a trim too
 * with a block engine, and no zone write lock: only another job's I/Os in
 * flight to a zone hold a write (fio's zone mutex, its own it may stack).
 * Invariant: wp[k] <= cap; busy[k] counts the zone's commands in flight,
 * all of job owner[k].
 */
#include "sim/host/workload_priv.h"

#include <string.h>

struct WlZbd {
    uint64_t zone_size, cap; /* bytes */
    uint32_t nzones;
    uint64_t *wp;            /* bytes from the zone's start the host has sent */
    uint16_t *busy;          /* writes, appends and resets in flight */
    uint32_t *owner;         /* the job of a zone's commands in flight (fio's zone lock) */
    bool emulated;           /* a drive without zones: fio's zones emulated by the host */
    uint8_t *resetting;      /* a reset in flight: appends wait for it too */
    uint32_t *open;          /* fio's open_zones[]: zone numbers, in opening order */
    uint8_t *is_open;
    uint32_t nopen, max_open; /* max_open 0: no limit, open zones not tracked (as fio) */
    uint32_t open_peak;
    uint64_t with_data;      /* bytes below the write pointers (fio's wp_sectors_with_data) */
    uint32_t write_cnt;      /* writes until a reset is due past the threshold */
    double frequency;        /* zone_reset_frequency of the jobs (one per device, as fio) */
};

/* ---- Options ------------------------------------------------------------ */

static gboolean zbd_bad(GError **error, const char *v, const char *expected)
{
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_PARSE, "found \"%s\", expected %s", v, expected);
    return FALSE;
}

static gboolean opt_zonecapacity(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_bytes(v, s->kb_base, &s->zbd.zonecapacity, e);
}

static gboolean opt_zonerange(WorkloadJobSpec *s, const char *v, GError **e)
{
    return workload_parse_bytes(v, s->kb_base, &s->zbd.zonerange, e);
}

static gboolean opt_read_beyond_wp(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->zbd.read_beyond_wp, e);
}

static gboolean opt_ignore_zone_limits(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->zbd.ignore_zone_limits, e);
}

static gboolean opt_zone_append(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_bool(v, &s->zbd.append, e);
}

static gboolean opt_max_open_zones(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_u32(v, 0, UINT32_MAX, &s->zbd.max_open_zones, e);
}

static gboolean opt_job_max_open_zones(WorkloadJobSpec *s, const char *v, GError **e)
{
    return wl_fio_u32(v, 0, UINT32_MAX, &s->zbd.job_max_open_zones, e);
}

static gboolean zbd_fraction(const char *v, double *out, GError **error)
{
    if (!wl_fio_double(v, out) || *out < 0 || *out > 1)
        return zbd_bad(error, v, "a number from 0 to 1");
    return TRUE;
}

static gboolean opt_zone_reset_threshold(WorkloadJobSpec *s, const char *v, GError **e)
{
    return zbd_fraction(v, &s->zbd.reset_threshold, e);
}

static gboolean opt_zone_reset_frequency(WorkloadJobSpec *s, const char *v, GError **e)
{
    return zbd_fraction(v, &s->zbd.reset_frequency, e);
}

static const WlOpt wl_zbd_opts[] = {
    {"zonecapacity", opt_zonecapacity, FALSE},
    {"zonerange", opt_zonerange, FALSE},
    {"read_beyond_wp", opt_read_beyond_wp, TRUE},
    {"ignore_zone_limits", opt_ignore_zone_limits, TRUE},
    {"max_open_zones", opt_max_open_zones, FALSE},
    {"job_max_open_zones", opt_job_max_open_zones, FALSE},
    {"zone_reset_threshold", opt_zone_reset_threshold, FALSE},
    {"zone_reset_frequency", opt_zone_reset_frequency, FALSE},
    {"zone_append", opt_zone_append, TRUE},
};

const WlOpt *wl_zbd_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(wl_zbd_opts); i++)
        if (strcmp(wl_zbd_opts[i].name, name) == 0)
            return &wl_zbd_opts[i];
    return NULL;
}

gboolean wl_zbd_zones_value(const char *v, uint64_t *n)
{
    size_t len = strlen(v);
    if (len < 2 || (v[len - 1] != 'z' && v[len - 1] != 'Z'))
        return FALSE;
    uint64_t x = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (!g_ascii_isdigit(v[i]) || x > UINT64_MAX / 10 - 9)
            return FALSE;
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    *n = x;
    return TRUE;
}

/* ---- Binding ------------------------------------------------------------ */

static gboolean zbd_refuse(GError **error, const WorkloadJobSpec *s, const char *opt, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
static gboolean zbd_refuse(GError **error, const WorkloadJobSpec *s, const char *opt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND, "job \"%s\": option \"%s\": %s", s->name, opt, what);
    return FALSE;
}

/* fio's zbd_set_max_open_zones for a host-managed drive, one limit for all. */
static gboolean zbd_max_open(const Workload *w, const WorkloadJobSpec *s, uint32_t *out, GError **error)
{
    uint32_t dev = w->t.max_open_zones, user = s->zbd.max_open_zones, mo;
    if (s->zbd.ignore_zone_limits || !dev)
        mo = user;
    else if (!user)
        mo = dev;
    else if (user <= dev)
        mo = user;
    else
        return zbd_refuse(error, s, "max_open_zones",
                          "found %u, expected at most the drive's %u open zones (fio: \"Specified "
                          "--max_open_zones is larger than max\"; ignore_zone_limits=1 lifts it)", user, dev);
    if (s->zbd.job_max_open_zones && !mo)
        return zbd_refuse(error, s, "job_max_open_zones",
                          "found it without a limit on open zones, expected max_open_zones as well (as fio)");
    *out = mo;
    return TRUE;
}

/* fio's init_zone_info for a drive without zones: the zones the first zbd
 * job s asks for (zonesize, zonecapacity), over the whole drive. */
static gboolean zbd_emulate(const Workload *w, const WorkloadJobSpec *s, uint64_t *zs, uint64_t *cap,
                            GError **error)
{
    if (!s->zonesize)
        return zbd_refuse(error, s, "zonemode",
                          "found zbd without zonesize on a drive without zones, expected zonesize for the zones "
                          "the host emulates (fio: \"Specifying the zone size is mandatory for regular "
                          "file/block device with --zonemode=zbd\")");
    if (s->zonesize < 512)
        return zbd_refuse(error, s, "zonesize", "found %" G_GUINT64_FORMAT ", expected at least 512 bytes (fio: "
                          "\"zone size must be at least 512 bytes for --zonemode=zbd\")", s->zonesize);
    *cap = s->zbd.zonecapacity ? s->zbd.zonecapacity : s->zonesize;
    if (*cap > s->zonesize)
        return zbd_refuse(error, s, "zonecapacity", "found %" G_GUINT64_FORMAT ", expected at most the zone "
                          "size %" G_GUINT64_FORMAT " (fio: \"job parameter zonecapacity %" G_GUINT64_FORMAT
                          " is larger than zone size %" G_GUINT64_FORMAT "\")", *cap, s->zonesize, *cap,
                          s->zonesize);
    if (w->t.capacity < s->zonesize)
        return zbd_refuse(error, s, "zonesize", "found %" G_GUINT64_FORMAT ", expected at most the drive's %"
                          G_GUINT64_FORMAT " bytes (fio: \"file/device size is smaller than zone size\")",
                          s->zonesize, w->t.capacity);
    *zs = s->zonesize;
    return TRUE;
}

/* Every zbd job's checks against the drive, its sizes in zones resolved,
 * and the zones' host view made once for all. On a drive without zones
 * the first zbd job makes them, as fio's first job of a file makes its
 * zone info: a later job may leave out zonesize, must not give another
 * one, and its zonecapacity is ignored (all three as fio). */
gboolean wl_zbd_bind(Workload *w, GError **error)
{
    wl_zbd_free(w);
    uint32_t max_open = 0;
    bool any = false, emulated = !w->t.zone_size;
    double freq = 0;
    uint64_t zs = w->t.zone_size, cap = w->t.zone_cap ? w->t.zone_cap : w->t.zone_size;
    for (guint i = 0; i < w->specs->len; i++) {
        WorkloadJobSpec *s = &g_array_index(w->specs, WorkloadJobSpec, i);
        const WorkloadZbd *b = &s->zbd;
        if (!b->on && (b->size_nz || b->offset_nz || b->io_size_nz || b->offset_increment_nz))
            return zbd_refuse(error, s, "size", "found a size or offset in zones (\"z\"), expected "
                              "zonemode=zbd as well (fio counts zones only in that mode)");
        if (!s->zbd.on || s->idle)
            continue;
        if (emulated && !any && !zbd_emulate(w, s, &zs, &cap, error))
            return FALSE;
        if (emulated && s->zonesize && s->zonesize != zs)
            return zbd_refuse(error, s, "zonesize",
                              "found %" G_GUINT64_FORMAT " bytes, expected the zone size of the first zbd job, %"
                              G_GUINT64_FORMAT " (fio: \"zonesize %" G_GUINT64_FORMAT " does not match the device "
                              "zone size %" G_GUINT64_FORMAT "\")", s->zonesize, zs, s->zonesize, zs);
        if (emulated && s->zbd.append)
            return zbd_refuse(error, s, "zone_append",
                              "found it on a drive without zones, expected a zoned drive (Zone Append is a "
                              "command of zoned namespaces; fio 3.33 has no such option: \"Bad option "
                              "<zone_append=1>\")");
        if (!emulated && s->zonesize_set && s->zonesize != zs)
            return zbd_refuse(error, s, "zonesize",
                              "found %" G_GUINT64_FORMAT " bytes, expected the drive's zone size of %"
                              G_GUINT64_FORMAT " (fio: \"job parameter zonesize does not match disk zone size\")",
                              s->zonesize, zs);
        if (s->zoneskip)
            return zbd_refuse(error, s, "zoneskip", "found %" G_GUINT64_FORMAT " with zonemode=zbd, expected 0",
                              s->zoneskip);
        if (s->zbd.append && s->verify)
            return zbd_refuse(error, s, "zone_append",
                              "found it with verify, expected one or the other (the drive picks where an append goes)");
        s->zonesize = zs;
        if (s->zbd.size_nz)
            s->size = s->zbd.size_nz * zs, s->size_pct = 0;
        if (s->zbd.offset_nz)
            s->offset = s->zbd.offset_nz * zs, s->offset_pct = 0;
        if (s->zbd.io_size_nz)
            s->io_size = s->zbd.io_size_nz * zs;
        if (s->zbd.offset_increment_nz)
            s->offset_increment = s->zbd.offset_increment_nz * zs;
        uint32_t mo = 0;
        if (!zbd_max_open(w, s, &mo, error))
            return FALSE;
        if (any && s->zbd.max_open_zones && mo != max_open)
            return zbd_refuse(error, s, "max_open_zones", "found %u, expected %u as the other jobs (fio: "
                              "\"Different 'max_open_zones' values\")", mo, max_open);
        if (!any || s->zbd.max_open_zones)
            max_open = mo;
        freq = MAX(freq, s->zbd.reset_frequency);
        any = true;
    }
    if (!any)
        return TRUE;
    WlZbd *z = g_new0(WlZbd, 1);
    z->zone_size = zs;
    z->cap = cap;
    z->emulated = emulated;
    z->nzones = (uint32_t)(w->t.capacity / z->zone_size);
    z->wp = g_new0(uint64_t, z->nzones);
    z->busy = g_new0(uint16_t, z->nzones);
    z->owner = g_new0(uint32_t, z->nzones);
    z->resetting = g_new0(uint8_t, z->nzones);
    z->is_open = g_new0(uint8_t, z->nzones);
    z->max_open = max_open;
    /* no more zones open than there are, whatever the limit (ignore_zone_limits) */
    z->open = g_new0(uint32_t, MAX(MIN(max_open, z->nzones), 1));
    z->frequency = freq;
    z->write_cnt = freq > 0 ? (uint32_t)MIN(1.0 / freq, (double)UINT32_MAX) : UINT32_MAX;
    w->zbd = z;
    return TRUE;
}

/* fio's zbd_verify_sizes and zbd_verify_bs: a job that writes starts and
 * ends on zone boundaries (its offset rounded up, its size down); a trim
 * is a whole zone. */
gboolean wl_zbd_job_bind(WlJob *j, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    WlZbd *z = j->w->zbd;
    if (!s->zbd.on || s->idle)
        return TRUE;
    bool reads_only = s->rw == WL_RW_READ || s->rw == WL_RW_RANDREAD;
    bool trims = s->rw == WL_RW_TRIM || s->rw == WL_RW_RANDTRIM || s->rw == WL_RW_TRIMWRITE;
    if (trims && (s->bs[IO_TRIM] != z->zone_size || s->n_bssplit[IO_TRIM] || s->bs_min[IO_TRIM]))
        return zbd_refuse(error, s, "bs",
                          "found a trim block size of %" G_GUINT64_FORMAT ", expected the zone size %"
                          G_GUINT64_FORMAT " (with zonemode=zbd a trim is a zone reset)",
                          s->bs[IO_TRIM], z->zone_size);
    if (j->max_bs > z->zone_size)
        return zbd_refuse(error, s, "bs", "found %" G_GUINT64_FORMAT ", expected at most the zone size %"
                          G_GUINT64_FORMAT, j->max_bs, z->zone_size);
    if (!reads_only) {
        uint64_t start = (j->start + z->zone_size - 1) / z->zone_size * z->zone_size;
        uint64_t end = (j->start + j->size) / z->zone_size * z->zone_size;
        if (end <= start)
            return zbd_refuse(error, s, "size",
                              "found a region of %" G_GUINT64_FORMAT " bytes at %" G_GUINT64_FORMAT
                              ", expected at least one whole zone of %" G_GUINT64_FORMAT
                              " (fio: \"io_size must be at least one zone\")", j->size, j->start, z->zone_size);
        j->start = start;
        j->size = end - start;
        j->nblocks = j->size / j->unit;
        if (j->limit != UINT64_MAX && !s->io_size)
            j->limit = j->size * s->loops;
    }
    j->zmin = (uint32_t)(j->start / z->zone_size);
    j->zmax = (uint32_t)MIN((j->start + j->size + z->zone_size - 1) / z->zone_size, z->nzones);
    return TRUE;
}

void wl_zbd_free(Workload *w)
{
    WlZbd *z = w->zbd;
    if (!z)
        return;
    g_free(z->wp);
    g_free(z->busy);
    g_free(z->owner);
    g_free(z->resetting);
    g_free(z->open);
    g_free(z->is_open);
    g_free(z);
    w->zbd = NULL;
}

/* ---- Choosing the zone -------------------------------------------------- */

static bool zbd_random(const WlJob *j)
{
    WorkloadRw rw = j->spec->rw;
    return rw == WL_RW_RANDREAD || rw == WL_RW_RANDWRITE || rw == WL_RW_RANDRW || rw == WL_RW_RANDTRIM;
}

static uint64_t zstart(const WlZbd *z, uint32_t k) { return (uint64_t)k * z->zone_size; }

bool wl_zbd_skip_gap(WlJob *j, IoOp op, uint64_t off)
{
    WlZbd *z = j->w->zbd;
    if (!j->spec->zbd.on || !z || op != IO_WRITE || zbd_random(j) || z->cap == z->zone_size)
        return false;
    uint32_t k = (uint32_t)(off / z->zone_size);
    if (off < zstart(z, k) + z->cap)
        return false;
    j->issued += zstart(z, k + 1) - off; /* fio counts the skip towards the job's bytes */
    j->last_pos[IO_WRITE] = zstart(z, k + 1);
    return true;
}

/* fio's zbd_open_zone: true if zone k is open, or could be opened. */
static bool zbd_open_zone(WlJob *j, uint32_t k, uint64_t min_bs)
{
    WlZbd *z = j->w->zbd;
    if (j->spec->verify && z->wp[k] + min_bs > z->cap)
        return false; /* a reset would lose the data verify reads back */
    if (!z->max_open)
        return true;
    if (z->is_open[k])
        return z->wp[k] < z->cap; /* a zone filled by writes in flight counts as full */
    if (j->spec->zbd.job_max_open_zones && j->zopen >= j->spec->zbd.job_max_open_zones)
        return false;
    if (z->nopen >= z->max_open)
        return false;
    z->open[z->nopen++] = k;
    z->is_open[k] = 1;
    z->open_peak = MAX(z->open_peak, z->nopen);
    j->zopen++;
    return true;
}

static void zbd_close_zone(WlJob *j, uint32_t k)
{
    WlZbd *z = j->w->zbd;
    if (!z->is_open[k])
        return;
    uint32_t i = 0;
    while (z->open[i] != k)
        i++;
    memmove(z->open + i, z->open + i + 1, (z->nopen - i - 1) * sizeof z->open[0]);
    z->nopen--;
    z->is_open[k] = 0;
    if (j->zopen)
        j->zopen--;
}

/* fio's zbd_convert_to_open_zone: an open zone of the job's range with room
 * for min_bs, starting from one picked by the offset; else the next zone
 * that can be opened; UINT32_MAX when there is none. */
static uint32_t zbd_convert(WlJob *j, uint64_t off, uint64_t min_bs)
{
    WlZbd *z = j->w->zbd;
    uint32_t k;
    if (z->max_open) {
        if (z->nopen == 0)
            goto open_other;
        uint32_t pick = (uint32_t)((off - j->start) * z->nopen / j->size), i;
        for (i = 0; i < z->nopen; i++) {
            uint32_t c = z->open[(pick + i) % z->nopen];
            if (c >= j->zmin && c < j->zmax)
                break;
        }
        if (i == z->nopen)
            return UINT32_MAX;
        k = z->open[(pick + i) % z->nopen];
    } else {
        k = (uint32_t)(off / z->zone_size);
    }
    if (z->wp[k] + min_bs <= z->cap)
        return k;
    goto next;
open_other:
    k = (uint32_t)(off / z->zone_size);
next:
    for (uint32_t n = j->zmax - j->zmin; n > 0; n--) {
        k = k + 1 >= j->zmax ? j->zmin : k + 1;
        if (z->is_open[k])
            continue;
        if (zbd_open_zone(j, k, min_bs))
            return k;
    }
    for (uint32_t i = 0; i < z->nopen; i++) {
        uint32_t c = z->open[i];
        if (c >= j->zmin && c < j->zmax && z->wp[c] + min_bs <= z->cap)
            return c;
    }
    return UINT32_MAX;
}

/* fio's zbd_find_zone: the nearest zone (after zb, and before it for random
 * I/O) with at least min_bytes written. */
static uint32_t zbd_find_zone(WlJob *j, uint32_t zb, uint64_t min_bytes)
{
    WlZbd *z = j->w->zbd;
    bool rnd = zbd_random(j);
    for (uint32_t d = 1; zb + d < j->zmax || (rnd && zb >= j->zmin + d); d++) {
        if (zb + d < j->zmax) {
            if (z->wp[zb + d] >= min_bytes)
                return zb + d;
        } else if (!rnd) {
            break;
        }
        if (rnd && zb >= j->zmin + d && z->wp[zb - d] >= min_bytes)
            return zb - d;
    }
    return UINT32_MAX;
}

static uint64_t min_bs_of(const WlJob *j, IoOp op)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t b = s->bs_min[op] ? s->bs_min[op] : s->bs[op];
    for (uint32_t i = 0; i < s->n_bssplit[op]; i++)
        b = MIN(b, s->bssplit[op][i].bs);
    return MAX(b, 1);
}

static int zbd_adjust_read(WlJob *j, WlIo *p, uint64_t min_bs)
{
    WlZbd *z = j->w->zbd;
    if (j->spec->zbd.read_beyond_wp)
        return WL_ZBD_GO;
    uint32_t k0 = (uint32_t)(p->offset / z->zone_size), k = k0;
    uint64_t range = z->wp[k];
    if (range < min_bs || (!zbd_random(j) && p->offset + min_bs > zstart(z, k) + z->wp[k])) {
        k = zbd_find_zone(j, k, min_bs);
        if (k == UINT32_MAX)
            return WL_ZBD_EOF;
        range = z->wp[k];
        if (!zbd_random(j))
            p->offset = zstart(z, k);
    }
    if (range <= p->length)
        p->offset = zstart(z, k);
    else if (zbd_random(j))
        p->offset = zstart(z, k) + (p->offset - zstart(z, k0)) % (range - p->length) / min_bs * min_bs;
    uint64_t len = MIN(p->length, zstart(z, k) + z->wp[k] - p->offset) / min_bs * min_bs;
    p->length = len;
    return len ? WL_ZBD_GO : WL_ZBD_EOF;
}

static int zbd_adjust_trim(WlJob *j, WlIo *p)
{
    WlZbd *z = j->w->zbd;
    uint32_t k = (uint32_t)(p->offset / z->zone_size);
    if (zbd_random(j) && z->wp[k] == 0) {
        k = zbd_find_zone(j, k, 1);
        if (k == UINT32_MAX)
            return WL_ZBD_EOF;
    }
    if (z->busy[k])
        return WL_ZBD_WAIT;
    p->offset = zstart(z, k);
    p->zop = ZOP_RESET;
    p->host_only = z->emulated; /* fio's zbd_do_io_u_trim: the host's reset, nothing sent */
    return WL_ZBD_GO;
}

/* A reset of zone k as the host sees it: its data gone, fio's count
 * (which, on emulated zones, leaves out the resets of empty zones). */
static void zbd_reset_view(WlJob *j, uint32_t k)
{
    WlZbd *z = j->w->zbd;
    j->zresets += !z->emulated || z->wp[k] > 0;
    z->with_data -= z->wp[k];
    z->wp[k] = 0;
}

/* True if an open zone has a command in flight, whose end may close it. */
static bool zbd_open_busy(const WlZbd *z)
{
    for (uint32_t i = 0; i < z->nopen; i++)
        if (z->busy[z->open[i]])
            return true;
    return false;
}

static int zbd_adjust_write(WlJob *j, WlIo *p, uint64_t min_bs)
{
    WlZbd *z = j->w->zbd;
    const WorkloadJobSpec *s = j->spec;
    uint32_t k = (uint32_t)(p->offset / z->zone_size);
    if (!zbd_open_zone(j, k, min_bs)) {
        k = zbd_convert(j, p->offset, min_bs);
        if (k == UINT32_MAX) /* fio quiesces, so that the writes in flight close their zones */
            return zbd_open_busy(z) ? WL_ZBD_WAIT : WL_ZBD_EOF;
    }
    if (z->busy[k] && (z->emulated ? z->owner[k] != j->index : !s->zbd.append || z->resetting[k]))
        return WL_ZBD_WAIT;
    bool reset = z->wp[k] + min_bs > z->cap;
    if (!reset && s->zbd.reset_frequency > 0 &&
        (double)z->with_data >= (double)j->size * s->zbd.reset_threshold) {
        if (--z->write_cnt == 0) {
            z->write_cnt = (uint32_t)MIN(1.0 / s->zbd.reset_frequency, (double)UINT32_MAX);
            reset = true;
        }
    }
    if (reset) {
        if (z->busy[k]) /* fio waits for the writes in flight before it resets */
            return WL_ZBD_WAIT;
        zbd_reset_view(j, k);
    }
    p->offset = zstart(z, k) + z->wp[k];
    uint64_t len = MIN(p->length, z->cap - z->wp[k]) / min_bs * min_bs;
    if (len < min_bs)
        return WL_ZBD_EOF; /* fio: "zone remainder smaller than min block size" */
    p->length = len;
    if (reset && !z->emulated) { /* emulated: the host's reset above is all of it */
        p->zop = ZOP_RESET;
        p->then_write = 1;
    } else if (s->zbd.append) {
        p->zop = ZOP_APPEND;
    }
    return WL_ZBD_GO;
}

int wl_zbd_ready(WlJob *j)
{
    WlIo *p = &j->pick;
    if (!j->spec->zbd.on || j->verifying || p->op == IO_FLUSH || p->zop != ZOP_NONE)
        return WL_ZBD_GO;
    uint64_t len0 = p->length, min_bs = min_bs_of(j, (IoOp)p->op);
    int r = p->op == IO_READ ? zbd_adjust_read(j, p, min_bs)
            : p->op == IO_TRIM ? zbd_adjust_trim(j, p)
                               : zbd_adjust_write(j, p, min_bs);
    if (r == WL_ZBD_WAIT) {
        p->zop = ZOP_NONE;
        p->host_only = 0;
        p->then_write = j->spec->rw == WL_RW_TRIMWRITE;
        j->zparked = true;
        return r;
    }
    j->issued = j->issued - len0 + p->length;
    if (r == WL_ZBD_GO && !zbd_random(j)) /* fio's next sequential I/O follows the moved one */
        j->last_pos[p->op] = p->offset + p->length;
    return r;
}

/* The host's view moves when a command leaves (fio's zbd_queue_io): the
 * write pointer past a write or append, the zone locked while it is out. */
void wl_zbd_issued(WlJob *j, const WlIo *io)
{
    WlZbd *z = j->w->zbd;
    if (!j->spec->zbd.on || j->verifying || (io->op != IO_WRITE && io->zop == ZOP_NONE))
        return;
    uint32_t k = (uint32_t)(io->offset / z->zone_size);
    z->busy[k]++;
    z->owner[k] = j->index;
    z->resetting[k] |= io->zop == ZOP_RESET;
    if (io->zop == ZOP_RESET && (!io->then_write || (z->emulated && io->op == IO_TRIM))) {
        /* a trim: the zone's reset; fio's null engine never runs the
         * reset of a trim (only the block engines call zbd_do_io_u_trim) */
        if (!j->spec->engine_null)
            zbd_reset_view(j, k);
        return;
    }
    uint64_t end = MIN(io->offset - zstart(z, k) + io->length, z->cap);
    if (end > z->wp[k]) {
        z->with_data += end - z->wp[k];
        z->wp[k] = end;
    }
}

void wl_zbd_submit(WlJob *j, const WlIo *io, uint64_t tag)
{
    Workload *w = j->w;
    WlZbd *z = w->zbd;
    uint64_t zone = io->offset / z->zone_size * z->zone_size;
    if (!(io->zop == ZOP_RESET && io->then_write)) { /* the reset before a write is no I/O of the job */
        w->sub_bytes[io->op] += io->length;
        w->sub_ios[io->op]++;
    }
    wl_disk_submit(w);
    w->t.submit(w->t.ctx, &(DriveCmd){.zop = io->zop,
                                      .offset = zone,
                                      .length = io->zop == ZOP_APPEND ? io->length : 0,
                                      .tag = tag});
}

bool wl_zbd_done(WlJob *j, WlIo *io)
{
    Workload *w = j->w;
    WlZbd *z = w->zbd;
    if (!j->spec->zbd.on || j->verifying || (io->op != IO_WRITE && io->zop == ZOP_NONE))
        return true;
    uint32_t k = (uint32_t)(io->offset / z->zone_size);
    uint32_t st = w->done ? w->done->status : ZNS_OK;
    z->busy[k]--;
    if (io->zop == ZOP_RESET)
        z->resetting[k] = 0;
    if (io->zop == ZOP_APPEND && st == ZNS_OK && w->done) /* where the drive put it */
        io->offset = w->done->offset;
    if (st) {
        j->zerrors++;
        return false;
    }
    /* fio's zbd_end_zone_io: a write that reached the capacity closes it */
    if (io->op == IO_WRITE && !(io->zop == ZOP_RESET && io->then_write) &&
        io->offset + io->length >= zstart(z, k) + z->cap)
        zbd_close_zone(j, k);
    return true;
}

void wl_zbd_json(const WlJob *j, JsonWriter *jw)
{
    const WlZbd *z = j->w->zbd;
    if (!j->spec->zbd.on || !z)
        return;
    json_begin_object(jw, "zbd");
    json_bool(jw, "emulated", z->emulated); /* fio's zones on a drive without them */
    json_u64(jw, "zone_size_bytes", z->zone_size);
    json_u64(jw, "zone_capacity_bytes", z->cap);
    json_u64(jw, "zone_resets", j->zresets);
    json_u64(jw, "errors", j->zerrors);
    json_u64(jw, "max_open_zones", z->max_open);
    json_u64(jw, "open_zones_peak", z->open_peak);
    json_end_object(jw);
}
