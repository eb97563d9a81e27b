/*
 * config_validate.c - rules across the keys of a loaded drive config.
 *
 * Checked in order, the first broken rule is reported: geometry (dies, page
 * size, pages per block), capacities, pSLC, GC, mapping cache and map
 * unit, timing. Whether the simulator can hold the drive (its 32-bit slot
 * numbers, the memory its tables take) is not a property of the drive:
 * `check` reports it and `run` refuses up front (sim/cmd/run.c).
 */
#include "sim/config/config.h"

#include <string.h>

#include "sim/config/config_units.h"
#include "models/pslc_sizing.h"

typedef unsigned __int128 u128;


static gboolean fail(GError **error, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean fail(GError **error, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, CONFIG_ERROR, code, msg);
    return FALSE;
}

/* "24.0 GB" into buf */
static const char *gb(double bytes, char *buf, gsize len)
{
    g_snprintf(buf, len, "%.1f GB", bytes / 1e9);
    return buf;
}

static u128 raw_capacity_wide(const DriveParams *p)
{
    return (u128)drive_params_blocks(p) * p->pages_per_block * p->page_size;
}

static gboolean check_geometry(const DriveParams *p, const char *name, GError **error)
{
    char v[CONFIG_VALUE_LEN];
    if (drive_params_dies(p) == 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [controller] channels: the drive has no dies (channels %u x "
                    "ces_per_channel %u x dies_per_ce %u)",
                    name, p->channels, p->ces_per_channel, p->dies_per_ce);
    if (p->planes == 0 || p->blocks_per_plane == 0 || p->pages_per_block == 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [nand] planes, blocks_per_plane, pages_per_block: expected all above 0",
                    name);
    if (p->page_size == 0 || p->page_size % SLOT_SIZE != 0) {
        config_format_size(p->page_size, v, sizeof v);
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [nand] page_size = %s: expected a multiple of 4KiB such as 16KiB", name,
                    v);
    }
    if (p->native_mode < CELL_SLC || p->native_mode > CELL_QLC)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [nand] native_mode: expected one of slc, mlc, tlc, qlc", name);
    if (p->pages_per_block % (uint32_t)p->native_mode != 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [nand] pages_per_block = %u: expected a multiple of %d, the bits per "
                    "cell of native_mode = %s",
                    name, p->pages_per_block, (int)p->native_mode, cell_mode_name(p->native_mode));
    if (raw_capacity_wide(p) > UINT64_MAX) {
        char raw[32];
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [nand] blocks_per_plane = %u: the raw capacity of %s does not fit 64 "
                    "bits of bytes",
                    name, p->blocks_per_plane, gb((double)raw_capacity_wide(p), raw, sizeof raw));
    }
    return TRUE;
}

/* SLC host data of `bytes` takes native_mode times its size in native
 * cells, which must come out of the over-provisioning op. */
static gboolean fits_op(uint64_t bytes, const DriveParams *p, uint64_t op, const char *name,
                        const char *key, const char *what, GError **error)
{
    char v[CONFIG_VALUE_LEN], a[32], b[32];
    u128 need = (u128)bytes * (uint64_t)p->native_mode;
    if (need <= op)
        return TRUE;
    config_format_size(bytes, v, sizeof v);
    return fail(error, CONFIG_ERROR_INVALID,
                "%s: [pslc] %s = %s: %s %s of native cells but over-provisioning is only %s", name,
                key, v, what, gb((double)need, a, sizeof a), gb((double)op, b, sizeof b));
}

static gboolean check_capacity(const DriveParams *p, const char *name, GError **error)
{
    char v[CONFIG_VALUE_LEN], a[32];
    uint64_t raw = drive_params_raw_capacity(p);
    if (p->name[0] == '\0')
        return fail(error, CONFIG_ERROR_INVALID, "%s: [drive] name = \"\": expected a name", name);
    uint64_t writable = drive_params_writable(p);
    if (p->user_capacity == 0 || writable > raw) {
        config_format_size(p->user_capacity, v, sizeof v);
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [drive] user_capacity = %s: expected above 0 and at most the raw "
                    "capacity of %s (%.1f GiB)",
                    name, v, gb((double)raw, a, sizeof a), (double)raw / (1 << 30));
    }
    uint64_t op = raw - writable;
    if (!fits_op(p->pslc_static, p, op, name, "static", "the static cache needs", error) ||
        !fits_op(p->pslc_floor, p, op, name, "floor", "a cache that size on a full drive needs",
                 error))
        return FALSE;
    if (p->pslc_rule == PSLC_RULE_CAPPED && p->pslc_dynamic_cap == 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [pslc] dynamic_cap = 0: dynamic_rule = capped needs a cap above 0, "
                    "such as 40GB",
                    name);
    return TRUE;
}

/* A power of two times 4 KiB, and only with the whole table in DRAM: the
 * mapping cache (models/l2p_cache.c) keeps one entry per 4 KiB. */
static gboolean check_map_unit(const DriveParams *p, const char *name, GError **error)
{
    char v[CONFIG_VALUE_LEN];
    config_format_size(p->map_unit, v, sizeof v);
    if (p->map_unit & (p->map_unit - 1))
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [ftl] map_unit = %s: expected 4KiB times a power of two (4KiB, 8KiB, "
                    "16KiB, 32KiB or 64KiB)",
                    name, v);
    if (p->map_unit > SLOT_SIZE && p->l2p_kind != L2P_DRAM)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [ftl] map_unit = %s: expected 4KiB with l2p_kind = %s (the mapping "
                    "cache is modelled with 4 KiB entries; map units above 4 KiB need "
                    "l2p_kind = dram)",
                    name, v, p->l2p_kind == L2P_HMB ? "hmb" : "sram");
    return TRUE;
}

static gboolean check_policies(const DriveParams *p, const char *name, GError **error)
{
    if (p->gc_hard_blocks < 1)
        return fail(error, CONFIG_ERROR_INVALID, "%s: [gc] hard_blocks = %u: expected at least 1",
                    name, p->gc_hard_blocks);
    if (p->gc_soft_blocks <= p->gc_hard_blocks)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [gc] soft_blocks = %u: expected more than hard_blocks = %u", name,
                    p->gc_soft_blocks, p->gc_hard_blocks);
    /* A full drive keeps its spare blocks free at best, less the blocks
     * its write streams hold open (taken from the free list: host and GC
     * relocation always; dynamic SLC and the fold destination with a pSLC
     * cache; translation pages with a mapping cache). With fewer than the
     * soft threshold left, every die stays below it, GC finds only victims
     * full of valid data and host writes stall at the hard threshold, or
     * crawl at a write amplification of thousands. */
    uint32_t spare = pslc_spare_blocks(p);
    uint32_t open = 2 + (p->pslc_rule != PSLC_RULE_NONE) + pslc_params_cache(p) +
                    (p->l2p_kind != L2P_DRAM);
    if (spare < p->gc_hard_blocks + 1 + open)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [gc] soft_blocks = %u: the drive has %u spare blocks per die "
                    "(blocks_per_plane less the static SLC blocks and those the user capacity "
                    "fills), %u of them held open for writing, which leaves none above "
                    "hard_blocks = %u for GC to keep free; expected a smaller user_capacity or "
                    "more blocks_per_plane",
                    name, p->gc_soft_blocks, spare, open, p->gc_hard_blocks);
    if (spare < p->gc_soft_blocks + open)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [gc] soft_blocks = %u: expected at most %u: the drive has %u spare "
                    "blocks per die (blocks_per_plane less the static SLC blocks and those the "
                    "user capacity fills), %u of them held open for writing; lower soft_blocks "
                    "and hard_blocks or the user capacity",
                    name, p->gc_soft_blocks, spare - open, spare, open);
    if (p->gc_idle_blocks > 0 && p->gc_idle_blocks <= p->gc_soft_blocks)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [gc] idle_blocks = %u: expected 0 (no idle GC) or more than "
                    "soft_blocks = %u",
                    name, p->gc_idle_blocks, p->gc_soft_blocks);
    if (spare < p->gc_idle_blocks + open)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [gc] idle_blocks = %u: expected at most %u: the drive has %u spare "
                    "blocks per die, %u of them held open for writing",
                    name, p->gc_idle_blocks, spare - open, spare, open);
    if (drive_params_queue_limit(p) > QUEUE_LIMIT_MAX)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [host] queue_count = %u: queue_depth x queue_count is %" G_GUINT64_FORMAT
                    " commands outstanding, expected at most %u (the controller's table of "
                    "commands in flight)",
                    name, p->queue_count, drive_params_queue_limit(p), QUEUE_LIMIT_MAX);
    if ((p->l2p_kind == L2P_HMB || p->l2p_kind == L2P_SRAM) && p->l2p_cache == 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [controller] l2p_cache = 0: l2p_kind = %s needs a mapping cache above "
                    "0, such as 64MiB",
                    name, p->l2p_kind == L2P_HMB ? "hmb" : "sram");
    return check_map_unit(p, name, error);
}

/* tR, tPROG and tBERS above 0 for SLC and the native mode. */
static gboolean check_timing(const DriveParams *p, const char *name, GError **error)
{
    static const char *const keys[] = {"t_read", "t_prog", "t_erase"};
    CellMode modes[] = {CELL_SLC, p->native_mode};
    for (unsigned i = 0; i < G_N_ELEMENTS(modes); i++) {
        const ModeTiming *t = &p->timing[modes[i]];
        uint64_t v[] = {t->t_read, t->t_prog, t->t_erase};
        for (unsigned j = 0; j < G_N_ELEMENTS(v); j++)
            if (v[j] == 0)
                return fail(error, CONFIG_ERROR_INVALID,
                            "%s: [timing.%s] %s = 0: expected a time above 0 (%s)", name,
                            cell_mode_name(modes[i]), keys[j],
                            modes[i] == CELL_SLC ? "SLC timing is always needed"
                                                 : "the native mode's timing is needed");
    }
    if (p->timing[CELL_SLC].two_pass)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [timing.slc] two_pass = true: expected false (one bit per cell is "
                    "programmed in one pass)",
                    name);
    return TRUE;
}

/* [timing.<mode>] read_by_page into out (lower page first): the number of
 * times, or -1 when one is not a time above 0 or there are more than 4. */
static int parse_by_page(const char *text, uint64_t *out)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    int n = 0;
    for (; parts[n]; n++) {
        uint64_t v;
        if (n == CELL_QLC || !config_parse_time(g_strstrip(parts[n]), &v) || v == 0)
            return -1;
        out[n] = v;
    }
    return n;
}

/* A by-page key's text other than m times: its one line, naming key. */
static gboolean by_page_count_error(const char *name, int m, const char *key, const char *text,
                                    const char *example, GError **error)
{
    return fail(error, CONFIG_ERROR_INVALID,
                "%s: [timing.%s] %s = %s: expected %d times above 0 separated by commas, one per "
                "page type, lower page first (such as %s)",
                name, cell_mode_name((CellMode)m), key, text, m, example);
}

/* program_by_page: one time per bit, on a mode that programs page by page
 * (a one-shot program writes all of a wordline's pages in one t_prog), and
 * t_prog their mean, so that what is derived from t_prog (a die's write
 * bandwidth, `check`'s bounds) stays true of the mode. */
static gboolean check_program_by_page(const ModeTiming *t, int m, const char *name, GError **error)
{
    uint64_t v[CELL_QLC], sum = 0;
    if (parse_by_page(t->program_by_page, v) != m)
        return by_page_count_error(name, m, "program_by_page", t->program_by_page,
                                   (const char *[]){"", "200us", "400us,960us",
                                                    "500us,1.2ms,2.2ms", "1ms,2ms,3ms,4ms"}[m],
                                   error);
    if (t->one_shot)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [timing.%s] program_by_page = %s with one_shot = true: expected "
                    "one_shot = false (a one-shot program writes every page type of a wordline "
                    "at once, in t_prog)",
                    name, cell_mode_name((CellMode)m), t->program_by_page);
    for (int k = 0; k < m; k++)
        sum += v[k];
    if (sum / (uint64_t)m != t->t_prog && (sum + (uint64_t)m - 1) / (uint64_t)m != t->t_prog)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [timing.%s] program_by_page = %s: their mean is %.6g us, expected "
                    "t_prog = %.6g us (t_prog is the mode's mean program time)",
                    name, cell_mode_name((CellMode)m), t->program_by_page,
                    (double)sum / m / 1e3, (double)t->t_prog / 1e3);
    return TRUE;
}

/* The optional keys of varying latency: read_by_page has one time per bit
 * of the mode, as program_by_page; a retry rate comes with a retry time. */
static gboolean check_latency(const DriveParams *p, const char *name, GError **error)
{
    for (int m = CELL_SLC; m <= CELL_QLC; m++) {
        const ModeTiming *t = &p->timing[m];
        uint64_t v[CELL_QLC];
        if (t->read_by_page[0] && parse_by_page(t->read_by_page, v) != m)
            return by_page_count_error(name, m, "read_by_page", t->read_by_page,
                                       (const char *[]){"", "50us", "50us,70us", "50us,65us,80us",
                                                        "60us,80us,100us,120us"}[m],
                                       error);
        if (t->program_by_page[0] && !check_program_by_page(t, m, name, error))
            return FALSE;
        if (t->read_retry_rate > 0 && t->read_retry_time == 0)
            return fail(error, CONFIG_ERROR_INVALID,
                        "%s: [timing.%s] read_retry_rate is above 0 but read_retry_time = 0: "
                        "expected the time a retry adds, such as 60us",
                        name, cell_mode_name((CellMode)m));
    }
    return TRUE;
}

void config_derive_latency(DriveParams *p)
{
    for (int m = CELL_SLC; m <= CELL_QLC; m++) {
        ModeTiming *t = &p->timing[m];
        memset(t->t_read_page, 0, sizeof t->t_read_page);
        if (t->read_by_page[0] && parse_by_page(t->read_by_page, t->t_read_page) != m)
            memset(t->t_read_page, 0, sizeof t->t_read_page);
        memset(t->t_prog_page, 0, sizeof t->t_prog_page);
        if (t->program_by_page[0] && parse_by_page(t->program_by_page, t->t_prog_page) != m)
            memset(t->t_prog_page, 0, sizeof t->t_prog_page);
    }
}

/* Write streams a handle set keeps open at once, in a reclaim group (gc_unit
 * = reclaim_unit: units) or on each die (blocks, either GC unit): one per
 * handle for host data, one per persistently isolated handle for GC's
 * copies, and the shared GC stream when a handle is initially isolated.
 * *gc: the GC streams among them. */
static uint32_t fdp_open_streams(const DriveParams *p, uint32_t *gc)
{
    uint32_t persistent = 0;
    for (uint32_t h = 0; h < p->fdp_handles; h++)
        persistent += drive_params_fdp_persistent(p, h) == 1;
    *gc = persistent + (persistent < p->fdp_handles);
    return p->fdp_handles + *gc;
}

/* Whether GC can always make progress with the handles' open blocks and
 * units. Every die holds up to `open` blocks open at once (one per stream),
 * any of them as good as empty (just opened, or its data overwritten); with
 * hard_blocks free, the rest must hold more than the die's share of the user
 * capacity, or every full block may be valid data only and GC finds nothing
 * to reclaim (a drive that stops, "cannot make progress"). With GC by
 * reclaim unit, a unit is reclaimed only once complete: the group's open
 * units, ru_size each, must also fit beside the hard reserve of each of its
 * dies, or none may ever complete (a drive that stalls). The ru_size of the
 * stock configs is a fraction of their spare blocks; a unit is counted on
 * the dies it spans, not whole on one. */
static gboolean check_fdp_room(const DriveParams *p, const char *name, GError **error)
{
    uint64_t blk = drive_params_block_bytes(p);
    uint32_t dies = drive_params_dies(p), per_group = dies / p->fdp_groups, gc;
    uint32_t open = fdp_open_streams(p, &gc), hard = p->gc_hard_blocks;
    uint64_t bpd = p->blocks_per_plane; /* blocks per die: a block spans the die's planes */
    if (p->fdp_gc_unit == FDP_GC_RU) {
        uint64_t ru = p->fdp_ru_size ? p->fdp_ru_size / blk : 1;
        uint64_t room = per_group * (bpd - MIN(bpd, hard));
        if ((uint64_t)open * ru > room) {
            char v[CONFIG_VALUE_LEN], m[CONFIG_VALUE_LEN];
            config_format_size(p->fdp_ru_size, v, sizeof v);
            config_format_size(room / open * blk, m, sizeof m);
            return fail(error, CONFIG_ERROR_INVALID,
                        "%s: [fdp] ru_size = %s: the reclaim group's %u open reclaim units (%u for "
                        "host data, %u for GC's copies) of %" G_GUINT64_FORMAT
                        " blocks need %" G_GUINT64_FORMAT " blocks, more than the %" G_GUINT64_FORMAT
                        " its %u dies have beside [gc] hard_blocks = %u, so no unit could be "
                        "completed for GC to reclaim; expected at most %s",
                        name, v, open, p->fdp_handles, gc, ru, (uint64_t)open * ru, room,
                        per_group, hard, m);
        }
    }
    /* blocks per die that may hold data when `open` are open and hard free,
     * against the die's share of the user capacity (slots: a share need not
     * be whole blocks) */
    uint64_t full = bpd > (uint64_t)hard + open ? bpd - hard - open : 0;
    uint64_t slots = blk / SLOT_SIZE, user = drive_params_writable(p) / SLOT_SIZE;
    uint64_t share = user / ((uint64_t)dies * slots); /* whole blocks of it */
    if (full * dies * slots <= user)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [fdp] handles = %u: each die holds up to %u blocks open (%u for host data, "
                    "%u for GC's copies) and [gc] hard_blocks = %u free, and its other %" G_GUINT64_FORMAT
                    " blocks cannot hold more than its share of the user capacity (%.1f blocks), so "
                    "GC may find nothing to reclaim; expected fewer handles or more spare blocks (at "
                    "most %" G_GUINT64_FORMAT " open blocks per die)",
                    name, p->fdp_handles, open, p->fdp_handles, gc, hard, full,
                    (double)user / (double)(dies * slots),
                    bpd > hard + share + 1 ? bpd - hard - share - 1 : 0);
    return TRUE;
}

/* [fdp]: the handles' types parse, one or one per handle; the dies split
 * evenly into reclaim groups; a reclaim unit is whole blocks; the
 * features whose placement FDP does not model are off; and GC can make
 * progress beside the handles' open blocks and units (check_fdp_room). */
static gboolean check_fdp(const DriveParams *p, const char *name, GError **error)
{
    if (p->fdp_handles == 0)
        return TRUE;
    uint32_t dies = drive_params_dies(p);
    if (dies % p->fdp_groups != 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [fdp] reclaim_groups = %u: expected a divisor of the drive's %u dies", name,
                    p->fdp_groups, dies);
    uint32_t words = 1;
    for (const char *c = p->fdp_isolation; *c; c++)
        words += *c == ',';
    if (words != 1 && words != p->fdp_handles)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [fdp] isolation: found %u types, expected one or one per handle (%u)", name,
                    words, p->fdp_handles);
    for (uint32_t h = 0; h < p->fdp_handles; h++)
        if (drive_params_fdp_persistent(p, h) < 0)
            return fail(error, CONFIG_ERROR_INVALID,
                        "%s: [fdp] isolation = %s: expected initial or persistent (for handle %u)",
                        name, p->fdp_isolation, h);
    uint64_t blk = drive_params_block_bytes(p);
    if (p->fdp_ru_size % blk != 0) {
        char v[CONFIG_VALUE_LEN], b[CONFIG_VALUE_LEN];
        config_format_size(p->fdp_ru_size, v, sizeof v);
        config_format_size(blk, b, sizeof b);
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [fdp] ru_size = %s: expected a whole number of blocks of %s", name, v, b);
    }
    if (drive_params_map_unit(p) != SLOT_SIZE)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [fdp] handles = %u: expected [ftl] map_unit = 4KiB with FDP", name,
                    p->fdp_handles);
    if (p->pslc_static > 0 || p->pslc_rule != PSLC_RULE_NONE)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [fdp] handles = %u: expected no pSLC cache with FDP ([pslc] static = 0, "
                    "dynamic_rule = none)",
                    name, p->fdp_handles);
    return check_fdp_room(p, name, error);
}

/* [zns]: whole zones of 4 KiB units, a capacity within the zone, limits
 * in order, an NVMe drive without FDP, a pSLC cache or static wear
 * leveling (GC never moves zoned data), at most 65535 zones (a block's
 * owner is 16 bits), at most ZNS_ZONE_BLOCKS_MAX blocks a zone on a die
 * (models/zns.c counts them in a byte), and on each die a zone's blocks for every zone
 * (drive_params_zone_blocks) besides the GC reserve and one more, so that
 * a zone always finds its blocks erased or dead. */
static gboolean check_zns(const DriveParams *p, const char *name, GError **error)
{
    if (p->zns_zone_size == 0)
        return TRUE;
    char v[CONFIG_VALUE_LEN], c[CONFIG_VALUE_LEN];
    config_format_size(p->zns_zone_size, v, sizeof v);
    if (p->zns_zone_size % SLOT_SIZE != 0 || p->user_capacity % p->zns_zone_size != 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] zone_size = %s: expected a multiple of 4KiB that divides "
                    "[drive] user_capacity", name, v);
    uint64_t zones = p->user_capacity / p->zns_zone_size;
    if (zones > 65535)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] zone_size = %s: found %" G_GUINT64_FORMAT " zones, expected at most 65535",
                    name, v, zones);
    config_format_size(p->zns_zone_cap, c, sizeof c);
    if (p->zns_zone_cap > p->zns_zone_size || p->zns_zone_cap % SLOT_SIZE != 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] zone_capacity = %s: expected a multiple of 4KiB up to zone_size (%s)",
                    name, c, v);
    if (p->zns_max_active < p->zns_max_open)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] max_active = %u: expected at least max_open (%u)", name,
                    p->zns_max_active, p->zns_max_open);
    if (p->interface != HOSTIF_NVME || p->fdp_handles > 0 || p->pslc_static > 0 ||
        p->pslc_rule != PSLC_RULE_NONE || drive_params_map_unit(p) != SLOT_SIZE)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] zone_size = %s: expected an NVMe drive ([host] interface = nvme) "
                    "without [fdp] handles, a pSLC cache or map units above 4KiB", name, v);
    if (p->wear_static_threshold > 0)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [wear] static_threshold = %u: expected 0 on a zoned drive (static wear "
                    "leveling moves data, and a zone's data stays in its own blocks)",
                    name, p->wear_static_threshold);
    if (drive_params_zone_blocks(p) > ZNS_ZONE_BLOCKS_MAX)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] zone_capacity = %s: a zone takes %u blocks on every die, expected "
                    "at most %u (a smaller zone_capacity, or more dies or larger blocks)",
                    name, c, drive_params_zone_blocks(p), ZNS_ZONE_BLOCKS_MAX);
    uint64_t need = zones * drive_params_zone_blocks(p) + p->gc_soft_blocks + 1;
    if (need > p->blocks_per_plane)
        return fail(error, CONFIG_ERROR_INVALID,
                    "%s: [zns] zone_capacity = %s: the %" G_GUINT64_FORMAT " zones take %u block%s "
                    "each on every die, %" G_GUINT64_FORMAT " with the GC reserve ([gc] soft_blocks) "
                    "and one more, expected at most the die's %u ([nand] blocks_per_plane)",
                    name, c, zones, drive_params_zone_blocks(p), drive_params_zone_blocks(p) == 1 ? "" : "s",
                    need, p->blocks_per_plane);
    return TRUE;
}

gboolean config_validate(const DriveParams *p, const char *name, GError **error)
{
    g_return_val_if_fail(p && name, FALSE);
    return check_geometry(p, name, error) && check_capacity(p, name, error) &&
           check_policies(p, name, error) && check_timing(p, name, error) &&
           check_latency(p, name, error) &&
           check_fdp(p, name, error) && check_zns(p, name, error);
}
