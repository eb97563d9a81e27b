/*
 * config_describe.c - the derived drive as text (`ftlsim check`) and the
 * listing of a folder of drive configs (`ftlsim drives`).
 *
 * Figures come from models/drive_params.c so the text agrees with the models.
 */
#include "sim/config/config.h"
#include "models/drive.h"

#include <string.h>

#include "sim/config/config_schema.h"
#include "sim/config/config_units.h"
#include "models/pslc_sizing.h"

#define LABEL "%-20s"

static void line(GString *out, const char *label, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void line(GString *out, const char *label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_string_append_printf(out, LABEL " ", label);
    g_string_append_vprintf(out, fmt, ap);
    g_string_append_c(out, '\n');
    va_end(ap);
}

static double mbps(double bytes_per_s)
{
    return bytes_per_s / 1e6;
}

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

static gboolean mode_present(const DriveParams *p, CellMode m)
{
    return p->timing[m].t_prog > 0;
}

static gboolean slc_cache(const DriveParams *p)
{
    return p->pslc_static > 0 || p->pslc_rule != PSLC_RULE_NONE;
}

/* The value of GROUP.KEY in p as a drive file would give it (an enum by
 * its name in the schema, so a new policy needs no change here). */
static const char *key_text(const DriveParams *p, const char *group, const char *key, char *buf,
                            gsize len)
{
    config_key_format(config_schema_find(group, key), p, buf, len);
    return buf;
}

static void describe_capacity(const DriveParams *p, GString *out)
{
    double raw = (double)drive_params_raw_capacity(p), user = (double)p->user_capacity;
    line(out, "drive", "%s", p->name);
    for (int i = 0; i < DRIVE_FAMILY_DEPTH && p->family_files[i][0]; i++)
        line(out, i ? "" : "family", "%s%s", i ? "which includes " : "", p->family_files[i]);
    line(out, "capacity",
         "user %.1f GB (%.1f GiB), raw %.1f GB (%.1f GiB), over-provisioning %.1f%%", user / 1e9,
         user / (1 << 30), raw / 1e9, raw / (1 << 30), drive_params_op(p) * 100);
    line(out, "dies", "%u = %u channel%s x %u CE%s/channel x %u die%s/CE; %u plane%s each",
         drive_params_dies(p), p->channels, plural(p->channels), p->ces_per_channel,
         plural(p->ces_per_channel), p->dies_per_ce, plural(p->dies_per_ce), p->planes,
         plural(p->planes));
    char page[CONFIG_VALUE_LEN], block[CONFIG_VALUE_LEN];
    config_format_size(p->page_size, page, sizeof page);
    config_format_size((uint64_t)p->page_size * p->pages_per_block, block, sizeof block);
    line(out, "blocks", "%" G_GUINT64_FORMAT " = %u per plane; %u pages of %s (%s) each, %s",
         drive_params_blocks(p), p->blocks_per_plane, p->pages_per_block, page, block,
         cell_mode_name(p->native_mode));
}

static void describe_bandwidth(const DriveParams *p, GString *out)
{
    uint32_t dies = drive_params_dies(p);
    for (CellMode m = CELL_SLC; m <= CELL_QLC; m++) {
        if (!mode_present(p, m))
            continue;
        char u[CONFIG_VALUE_LEN], label[16];
        config_format_size(drive_params_program_unit(p, m), u, sizeof u);
        g_snprintf(label, sizeof label, "%s programs", cell_mode_name(m));
        double die = drive_params_die_write_bw(p, m);
        line(out, label, "%s each%s, %.1f MB/s per die, %.1f MB/s in all", u,
             p->timing[m].two_pass ? " in two passes" : "", mbps(die), mbps(die * dies));
    }
    char round[CONFIG_VALUE_LEN];
    config_format_size((uint64_t)p->planes * p->page_size, round, sizeof round);
    for (CellMode m = CELL_SLC; m <= CELL_QLC; m++) {
        if (!mode_present(p, m) || (m != p->native_mode && !slc_cache(p)))
            continue; /* host data is read in the native mode and, with a cache, in SLC */
        char label[16];
        g_snprintf(label, sizeof label, "%s reads", cell_mode_name(m));
        double die = drive_params_die_read_bw(p, m);
        line(out, label, "%s a round, %.1f MB/s per die%s, %.1f MB/s in all", round, mbps(die),
             p->cache_read ? " (cache read)" : "", mbps(die * dies));
    }
    char rate[CONFIG_VALUE_LEN];
    config_format_rate(p->channel_rate, rate, sizeof rate);
    double ch = drive_params_channel_bw(p);
    line(out, "channels", "%s x %u bits = %.1f MB/s each, %.1f MB/s in all", rate, p->channel_width,
         mbps(ch), mbps(ch * p->channels));
    double wr = mbps(drive_params_link_bw(p, true)), rd = mbps(drive_params_link_bw(p, false));
    if (p->interface == HOSTIF_SATA)
        line(out, "host link", "sata 6 Gbit/s: %.1f MB/s writing, %.1f MB/s reading", wr, rd);
    else
        line(out, "host link", "nvme PCIe gen %u x%u: %.1f MB/s writing, %.1f MB/s reading",
             p->pcie_gen, p->pcie_lanes, wr, rd);
    /* the controller's firmware cores (models/ctrl.c): each command holds
     * one for its submission, map updates and completion */
    double cores = p->ctrl_cores ? p->ctrl_cores : 1;
    double rd_cmd = (double)(p->cmd_cost + p->ctrl_complete_cost);
    double wr_cmd = rd_cmd + (double)p->page_cost;
    if (rd_cmd > 0) {
        line(out, "controller", "%.0f core%s; %.2f us per command + %.2f us per 4 KiB written "
             "+ %.2f us per completion: at most %.0fK commands/s, %.0fK 4 KiB writes/s",
             cores, cores == 1 ? "" : "s", (double)p->cmd_cost / 1e3, (double)p->page_cost / 1e3,
             (double)p->ctrl_complete_cost / 1e3, cores * 1e6 / rd_cmd, cores * 1e6 / wr_cmd);
    }
    if (p->ctrl_relocate_cost > 0 && !p->ctrl_copy_offload)
        line(out, "", "%.2f us per 4 KiB GC or folding moves: at write amplification A, at most "
             "%.0fK / (1 + %.2f (A - 1)) 4 KiB host writes/s (%.0fK at A = 2, %.0fK at A = 4)",
             (double)p->ctrl_relocate_cost / 1e3, cores * 1e6 / wr_cmd,
             (double)p->ctrl_relocate_cost / wr_cmd,
             cores * 1e6 / (wr_cmd + (double)p->ctrl_relocate_cost),
             cores * 1e6 / (wr_cmd + 3.0 * (double)p->ctrl_relocate_cost));
    char wb[CONFIG_VALUE_LEN], key[CONFIG_VALUE_LEN];
    uint64_t held = drive_params_write_buffer(p);
    config_format_size(held, wb, sizeof wb);
    config_format_size(p->write_buffer, key, sizeof key);
    if (held == p->write_buffer)
        line(out, "write buffer", "%s of host data before it is programmed", wb);
    else
        line(out, "write buffer", "%s of host data before it is programmed (write_buffer = %s, "
             "raised to two program or map units)", wb, key);
}

/* The smallest of host link, channels, native-mode NAND, the write buffer
 * and the controller bounds sequential writes once the pSLC cache is
 * exhausted. The buffer keeps each page's room until its program ends, so
 * it moves at most its size per native tPROG; the controller bounds them by
 * its cost per 4 KiB mapped (page_cost) and by the dies it lets program at
 * once (max_program_dies), each shown only when it is set. */
static void describe_bound(const DriveParams *p, GString *out)
{
    g_autofree char *nand = g_strdup_printf("NAND in %s mode", cell_mode_name(p->native_mode));
    g_autofree char *prog = g_strdup_printf("%u dies programming at once",
                                            p->ctrl_max_program_dies);
    const char *names[] = {"the host link", "the channels", nand, "the write buffer",
                           "the controller", prog};
    /* two-pass programs move their data over the channels twice */
    double passes = p->timing[p->native_mode].two_pass ? 2.0 : 1.0;
    double cores = p->ctrl_cores ? p->ctrl_cores : 1;
    double die_bw = drive_params_die_write_bw(p, p->native_mode);
    double bw[] = {drive_params_link_bw(p, true), drive_params_channel_bw(p) * p->channels / passes,
                   die_bw * drive_params_dies(p),
                   (double)drive_params_write_buffer(p) * 1e9 / (double)p->timing[p->native_mode].t_prog,
                   p->page_cost > 0 ? cores * SLOT_SIZE * 1e9 / (double)p->page_cost : 0,
                   die_bw * p->ctrl_max_program_dies};
    bool shown[] = {true, true, true, true, p->page_cost > 0,
                    p->ctrl_max_program_dies > 0 && p->ctrl_max_program_dies < drive_params_dies(p)};
    unsigned nb = G_N_ELEMENTS(bw), lo = 0;
    for (unsigned i = 1; i < nb; i++)
        if (shown[i] && bw[i] < bw[lo])
            lo = i;
    GString *rest = g_string_new(NULL);
    for (unsigned i = 0; i < nb; i++)
        if (i != lo && shown[i])
            g_string_append_printf(rest, "%s%s %.1f MB/s (%.2fx)", rest->len ? ", " : "", names[i],
                                   mbps(bw[i]), bw[lo] > 0 ? bw[i] / bw[lo] : 0.0);
    line(out, "sequential writes", "bounded by %s at %.1f MB/s; %s", names[lo], mbps(bw[lo]),
         rest->str);
    g_string_free(rest, TRUE);

    /* reads: the same three bounds, for data in the native mode and, with a
     * cache, in SLC */
    GString *rd = g_string_new(NULL);
    CellMode modes[] = {p->native_mode, CELL_SLC};
    for (unsigned k = 0; k < (slc_cache(p) && p->native_mode != CELL_SLC ? 2u : 1u); k++) {
        double r[] = {drive_params_link_bw(p, false), drive_params_channel_bw(p) * p->channels,
                      drive_params_die_read_bw(p, modes[k]) * drive_params_dies(p)};
        unsigned m = 0;
        for (unsigned i = 1; i < G_N_ELEMENTS(r); i++)
            if (r[i] < r[m])
                m = i;
        g_string_append_printf(rd, "%s%s data bounded by %s at %.1f MB/s", rd->len ? "; " : "",
                               cell_mode_name(modes[k]), m == 2 ? "the dies" : names[m],
                               mbps(r[m]));
    }
    line(out, "sequential reads", "%s", rd->str);
    g_string_free(rd, TRUE);
}

static void describe_mapping(const DriveParams *p, GString *out)
{
    uint64_t table = drive_params_l2p_bytes(p);
    char dram[CONFIG_VALUE_LEN], cache[CONFIG_VALUE_LEN];
    config_format_size(p->dram, dram, sizeof dram);
    config_format_size(p->l2p_cache, cache, sizeof cache);
    if (p->l2p_kind == L2P_DRAM)
        line(out, "mapping table", "%.1f MiB, all in DRAM (%s of DRAM%s)",
             (double)table / (1 << 20), dram, p->dram < table ? ", less than the table" : "");
    else
        line(out, "mapping table", "%.1f MiB, cached in %s: %s, %.1f%% of the table",
             (double)table / (1 << 20), p->l2p_kind == L2P_HMB ? "a host memory buffer" : "SRAM",
             cache, table ? 100.0 * (double)p->l2p_cache / (double)table : 0.0);
    if (drive_params_map_unit(p) > SLOT_SIZE) {
        char unit[CONFIG_VALUE_LEN];
        config_format_size(drive_params_map_unit(p), unit, sizeof unit);
        line(out, "map unit", "%s per entry: a write covering part of a unit reads the unit's "
             "other 4 KiB pieces on NAND and writes them again with it", unit);
    }
}

/* The pSLC cache: the static part in whole SLC blocks, and what the
 * dynamic sizing rule (models/pslc.c) gives at a few logical fill levels. */
static void describe_pslc(const DriveParams *p, GString *out)
{
    char st[CONFIG_VALUE_LEN], cap[CONFIG_VALUE_LEN], share[CONFIG_VALUE_LEN];
    config_format_size(p->pslc_static, st, sizeof st);
    config_format_size(p->pslc_dynamic_cap, cap, sizeof cap);
    config_format_percent(p->pslc_dynamic_share, share, sizeof share);
    line(out, "pSLC static", "%s of host data, %.2f GB in %u SLC blocks per die (%.1f GB of native cells)",
         st, (double)pslc_static_capacity(p) / 1e9, pslc_static_blocks(p),
         (double)pslc_static_capacity(p) * p->native_mode / 1e9);
    if (p->pslc_rule == PSLC_RULE_NONE && p->pslc_floor == 0) {
        line(out, "pSLC dynamic", "none");
    } else {
        static const double fills[] = {0, 0.5, 0.75, 0.9, 1.0};
        GString *sizes = g_string_new(NULL);
        for (unsigned i = 0; i < G_N_ELEMENTS(fills); i++)
            g_string_append_printf(sizes, "%s%.2f GB at %g%%", i ? ", " : "",
                                   (double)pslc_dynamic_limit_at(p, fills[i]) / 1e9, 100 * fills[i]);
        if (p->pslc_reserve) {
            char res[CONFIG_VALUE_LEN];
            config_format_size(p->pslc_reserve, res, sizeof res);
            g_string_append_printf(sizes, " (%s of native free space kept for GC and folding)", res);
        }
        if (p->pslc_floor) {
            char fl[CONFIG_VALUE_LEN];
            config_format_size(p->pslc_floor, fl, sizeof fl);
            g_string_append_printf(sizes, " (the cache keeps %s however full)", fl);
        }
        if (p->pslc_rule == PSLC_RULE_NONE)
            line(out, "pSLC dynamic", "the floor only: %s full", sizes->str);
        else if (p->pslc_rule == PSLC_RULE_CAPPED)
            line(out, "pSLC dynamic", "capped at %s: %s full", cap, sizes->str);
        else
            line(out, "pSLC dynamic", "%s of the free space: %s full", share, sizes->str);
        g_string_free(sizes, TRUE);
    }
    char policy[64];
    line(out, "folding", "%s, idle folding after %.3g s%s",
         key_text(p, "pslc", "fold_policy", policy, sizeof policy),
         (double)p->fold_idle_delay / 1e9,
         p->fold_background ? ", and in die time host writes leave" : "");
}

static void describe_gc(const DriveParams *p, GString *out)
{
    char policy[64];
    g_autofree char *idle = p->gc_idle_blocks
                                ? g_strdup_printf("; when idle %.3g s, up to %u free blocks per die%s",
                                                  (double)p->gc_idle_delay / 1e9, p->gc_idle_blocks,
                                                  p->gc_idle_pause ? ", resting after each step" : "")
                                : g_strdup("");
    line(out, "gc", "%s; in the background below %u free blocks per die, ahead of host writes below %u%s",
         key_text(p, "gc", "policy", policy, sizeof policy), p->gc_soft_blocks, p->gc_hard_blocks, idle);
    g_autofree char *stat = p->wear_static_threshold
                                ? g_strdup_printf("cold data moved past a spread of %u erases",
                                                  p->wear_static_threshold)
                                : g_strdup("no static leveling");
    line(out, "wear leveling", "%s; %s",
         p->wear_dynamic ? "new blocks least-worn first" : "new blocks last-erased first", stat);
}

const char *config_mem_text(uint64_t bytes, char *buf, gsize len)
{
    if (bytes < (10ull << 30))
        g_snprintf(buf, len, "%.1f MiB", (double)bytes / 1048576.0);
    else
        g_snprintf(buf, len, "%.1f GiB", (double)bytes / 1073741824.0);
    return buf;
}

/* The workload classes `check` estimates the simulator's memory for
 * (docs/config.md, "Simulator memory"). */
static const struct {
    const char *name;
    MemoryClass c;
} memory_classes[] = {
    {"a tenth of the drive written in order", {.seq_fill = 0.1}},
    {"empty drive, sequential fill", {.seq_fill = 1.0}},
    {"prefilled sequentially, then 20 GB of 4 KiB random writes",
     {.seq_prefill = 1.0, .random_bytes = 20000000000ull, .random_bs = 4096}},
    {"fully fragmented (worst case)", {.random_fill = 1.0, .random_bytes = UINT64_MAX}},
};

/* The simulator's memory for each class, and how it keeps the map. */
static void describe_memory(const DriveParams *p, GString *out)
{
    char m[32];
    for (unsigned i = 0; i < G_N_ELEMENTS(memory_classes); i++)
        line(out, i ? "" : "simulator memory", "%s: about %s", memory_classes[i].name,
             config_mem_text(drive_memory_estimate(p, &memory_classes[i].c), m, sizeof m));
    line(out, "", "(the mapping tables both ways, kept where they differ from what is known: "
         "a prefill in order as a formula, pages written in order as runs of a program unit "
         "(about 16 bytes each), other pages changed as overrides (about %s bytes each) or, "
         "in chunks of 4096 pages mostly changed, an entry per page (%s bytes); a random "
         "prefill's sort buffers); a run refuses a drive that does not fit the memory available",
         drive_params_narrow_map(p) ? "16" : "32", drive_params_narrow_map(p) ? "4" : "8");
}

void config_describe_run_memory(const DriveParams *p, const MemoryClass *c, GString *out)
{
    g_autoptr(GString) what = g_string_new(NULL);
    if (c->random_fill > 0)
        g_string_append_printf(what, "%g%% mapped at random", 100 * c->random_fill);
    if (c->seq_prefill > 0)
        g_string_append_printf(what, "%s%g%% prefilled in order", what->len ? ", " : "",
                               100 * c->seq_prefill);
    if (c->seq_fill > 0)
        g_string_append_printf(what, "%s%g%% written in order", what->len ? ", " : "",
                               100 * c->seq_fill);
    if (c->random_bytes == UINT64_MAX)
        g_string_append_printf(what, "%srandom writes for as long as the job runs",
                               what->len ? ", then " : "");
    else if (c->random_bytes)
        g_string_append_printf(what, "%s%.1f GB of random writes", what->len ? ", then " : "",
                               (double)c->random_bytes / 1e9);
    char m[32];
    line(out, "this run", "about %s (%s)", config_mem_text(drive_memory_estimate(p, c), m, sizeof m),
         what->len ? what->str : "nothing written");
}

void config_describe(const DriveParams *p, GString *out)
{
    describe_capacity(p, out);
    describe_bandwidth(p, out);
    describe_bound(p, out);
    describe_mapping(p, out);
    describe_memory(p, out);
    describe_pslc(p, out);
    describe_gc(p, out);
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean config_list_drives(const char *dir, GString *out, GError **error)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, error);
    if (!d)
        return FALSE;
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
    for (const char *f; (f = g_dir_read_name(d));)
        if (g_str_has_suffix(f, ".ini"))
            g_ptr_array_add(files, g_strdup(f));
    g_ptr_array_sort(files, compare_names);
    gsize width = 4;
    for (guint i = 0; i < files->len; i++)
        width = MAX(width, strlen(files->pdata[i]));
    for (guint i = 0; i < files->len; i++) {
        const char *f = files->pdata[i];
        g_autofree char *path = g_build_filename(dir, f, NULL);
        g_autoptr(GError) e = NULL;
        DriveParams p;
        if (!config_load_file(path, &p, &e)) {
            g_string_append_printf(out, "%-*s  error: %s\n", (int)width, f, e->message);
            continue;
        }
        g_string_append_printf(out, "%-*s  %-32s %7.1f GB  %-4s  %s  %s\n", (int)width, f, p.name,
                               (double)p.user_capacity / 1e9,
                               p.interface == HOSTIF_SATA ? "sata" : "nvme",
                               cell_mode_name(p.native_mode), "ok");
    }
    return TRUE;
}
