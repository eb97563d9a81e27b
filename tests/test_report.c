/* test_report.c - the results a run writes: summary.json keys and the
 * arithmetic between them, summary.txt lines, series.csv header and row
 * counts by time and by bytes written, per-interval latency percentiles
 * (--series-percentiles, and the workload's latency sink under them), and
 * determinism for a seed; the table of figures against itself, the names
 * the code uses and docs/outputs.md. Small runs on
 * tests/data/drives/small_tlc.ini. */
#include "sim/config/config.h"
#include "sim/output/report.h"
#include "sim/output/report_table.h"
#include "sim/cmd/run.h"
#include "tests/cutest.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define DRIVE CUTEST_SRC("tests/data/drives/small_tlc.ini")
/* Write a tenth of the drive sequentially, then 20 MiB of random 4k reads. */
#define SPEC "rw=write,bs=128k,iodepth=32,size=10%;rw=randread,bs=4k,iodepth=32,io_size=20m"
#define CAPACITY 1500000000ull /* user_capacity of small_tlc.ini */
#define BS 131072ull
#define WRITE_BYTES (CAPACITY / 10 / BS * BS) /* fio rounds size down to whole blocks */
#define READ_BYTES (20ull << 20)

/* The series.csv header, fixed: scripts/plot/ and other tools read it. */
#define DOC_HEADER                                                                                 \
    "t_s,host_write_bytes,host_read_bytes,write_MBps,read_MBps,iops,free_blocks,gc_MBps,"          \
    "pslc_used_bytes,pslc_limit_bytes,fold_MBps,l2p_hit_ratio,phase,host_written_GB,die_read,"     \
    "die_host,die_gc,die_fold,die_erase,die_map,chan_busy,wear_min,wear_mean,wear_max,ctrl_busy"
#define DOC_LATENCY ",read_p50_us,read_p99_us,read_p999_us,write_p50_us,write_p99_us,write_p999_us"

/* ---- Scratch folders ---------------------------------------------------- */

static char *scratch; /* made by the first run, removed by main() */

/* Run SPEC into scratch/name with the options set by the caller; o may be
 * pre-filled (interval etc.). Returns the results folder (g_free it). */
static char *run_into(const char *name, RunOptions *o)
{
    if (!scratch)
        scratch = g_dir_make_tmp("report-XXXXXX", NULL);
    char *out = g_build_filename(scratch, name, NULL);
    o->drive = DRIVE;
    o->spec = o->spec ? o->spec : SPEC;
    o->out = out;
    o->quiet = TRUE;
    GError *error = NULL;
    gboolean ok = run_simulation(o, &error);
    if (!ok) {
        fprintf(stderr, "run %s: %s\n", name, error->message);
        g_error_free(error);
    }
    CU_ASSERT_TRUE(ok);
    return out;
}

static char *read_file(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    char *text = NULL;
    if (!g_file_get_contents(p, &text, NULL, NULL))
        fprintf(stderr, "%s: cannot read\n", p);
    return text;
}

/* ---- A key-path reader for the pretty-printed JSON ----------------------
 * The writer puts one member per line with two-space indentation, so a
 * line-based walk suffices: "a": { / "a": [ / { open, } / ] close, and
 * "key": value records path.key -> the value's text. Array elements are
 * numbered: phases.0.kind. */

typedef struct Frame {
    char *path;
    int next_index; /* arrays: the next element's number; -1 for objects */
} Frame;

static char *child_path(const Frame *top, const char *key)
{
    return top && top->path[0] ? g_strconcat(top->path, ".", key, NULL) : g_strdup(key);
}

static void json_line(GHashTable *out, GArray *stack, char *line)
{
    g_strstrip(line);
    size_t n = strlen(line);
    if (n && line[n - 1] == ',')
        line[--n] = '\0';
    Frame *top = stack->len ? &g_array_index(stack, Frame, stack->len - 1) : NULL;
    if (n == 0)
        return;
    if (strcmp(line, "}") == 0 || strcmp(line, "]") == 0) {
        g_free(top->path);
        g_array_set_size(stack, stack->len - 1);
        return;
    }
    char *key = NULL, *value = line;
    if (line[0] == '"' && !(top && top->next_index >= 0)) {
        char *end = strstr(line, "\": ");
        g_assert(end);
        key = g_strndup(line + 1, (gsize)(end - line - 1));
        value = end + 3;
    } else if (top && top->next_index >= 0) {
        key = g_strdup_printf("%d", top->next_index++);
    }
    Frame f = {child_path(top, key ? key : ""), -1};
    if (strcmp(value, "{") == 0 || strcmp(value, "[") == 0) {
        f.next_index = value[0] == '[' ? 0 : -1;
        g_array_append_val(stack, f);
    } else {
        g_hash_table_replace(out, f.path, g_strdup(value));
    }
    g_free(key);
}

/* path -> value text (strings keep their quotes). */
static GHashTable *json_load(const char *dir)
{
    g_autofree char *text = read_file(dir, "summary.json");
    GHashTable *out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(Frame));
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    for (int i = 0; lines[i]; i++)
        json_line(out, stack, lines[i]);
    CU_ASSERT_EQUAL(stack->len, 0);
    g_array_free(stack, TRUE);
    return out;
}

static const char *jtext(GHashTable *j, const char *path)
{
    const char *v = g_hash_table_lookup(j, path);
    if (!v)
        fprintf(stderr, "summary.json: no %s\n", path);
    CU_ASSERT_PTR_NOT_NULL(v);
    return v ? v : "";
}

static double jnum(GHashTable *j, const char *path)
{
    const char *v = jtext(j, path);
    char *end = NULL;
    double d = g_ascii_strtod(v, &end);
    if (!*v || *end) {
        fprintf(stderr, "summary.json: %s = \"%s\", expected a number\n", path, v);
        CU_FAIL("not a number");
        return NAN;
    }
    return d;
}

static uint64_t ju64(GHashTable *j, const char *path)
{
    const char *v = jtext(j, path);
    char *end = NULL;
    uint64_t u = g_ascii_strtoull(v, &end, 10);
    if (!*v || *end) {
        fprintf(stderr, "summary.json: %s = \"%s\", expected an integer\n", path, v);
        CU_FAIL("not an integer");
    }
    return u;
}

/* ---- series.csv --------------------------------------------------------- */

/* The lines of series.csv, header first, without the empty last one. */
static GStrv series_lines(const char *dir)
{
    g_autofree char *text = read_file(dir, "series.csv");
    GStrv lines = g_strsplit(text ? text : "", "\n", -1);
    guint n = g_strv_length(lines);
    if (n && lines[n - 1][0] == '\0') {
        g_free(lines[n - 1]);
        lines[n - 1] = NULL;
    }
    return lines;
}

static double field(const char *line, int col)
{
    g_auto(GStrv) f = g_strsplit(line, ",", -1);
    if ((int)g_strv_length(f) <= col || f[col][0] == '\0')
        return NAN;
    return g_ascii_strtod(f[col], NULL);
}

/* ---- Tests -------------------------------------------------------------- */

static GHashTable *base; /* summary.json of the run in "base" */
static char *base_dir;

static GHashTable *base_run(void)
{
    if (!base) {
        RunOptions o;
        run_options_init(&o);
        o.seed = 7;
        o.interval = SIM_SEC / 5;
        base_dir = run_into("base", &o);
        base = json_load(base_dir);
    }
    return base;
}

static void test_summary_keys(void)
{
    GHashTable *j = base_run();
    static const char *const keys[] = {"ftlsim_version",
                                       "drive",
                                       "drive_file",
                                       "workload",
                                       "seed",
                                       "sim_time_s",
                                       "wall_time_s",
                                       "host.write_bytes",
                                       "host.read_bytes",
                                       "host.trim_bytes",
                                       "host.write_ios",
                                       "host.read_ios",
                                       "nand.write_bytes.total",
                                       "nand.write_bytes.by_cause.host",
                                       "nand.write_bytes.by_cause.gc",
                                       "nand.write_bytes.by_cause.fold",
                                       "nand.write_bytes.by_cause.map",
                                       "nand.read_bytes",
                                       "nand.erases",
                                       "nand.wear.pool.blocks",
                                       "nand.wear.pool.erases",
                                       "nand.wear.pool.min",
                                       "nand.wear.pool.mean",
                                       "nand.wear.pool.max",
                                       "nand.wear.static_slc.blocks",
                                       "nand.wear.static_slc.mean",
                                       "waf",
                                       "utilization.dies.read",
                                       "utilization.dies.host_program",
                                       "utilization.dies.gc",
                                       "utilization.dies.fold",
                                       "utilization.dies.erase",
                                       "utilization.dies.map",
                                       "utilization.dies.idle",
                                       "utilization.channels",
                                       "latency_us.read_parts.count",
                                       "latency_us.read_parts.front",
                                       "latency_us.read_parts.map",
                                       "latency_us.read_parts.die_wait",
                                       "latency_us.read_parts.nand",
                                       "latency_us.read_parts.back",
                                       "latency_us.write_parts.count",
                                       "latency_us.write_parts.front",
                                       "latency_us.write_parts.merge",
                                       "latency_us.write_parts.buffer_wait",
                                       "latency_us.write_parts.data",
                                       "throughput.write_MBps",
                                       "throughput.read_MBps",
                                       "throughput.iops",
                                       "pslc.static_bytes",
                                       "pslc.limit_bytes",
                                       "pslc.limit_start_bytes",
                                       "pslc.used_bytes",
                                       "pslc.host_slc_bytes",
                                       "pslc.first_exhausted_at_host_bytes",
                                       "mapping_cache.kind",
                                       "mapping_cache.table_bytes",
                                       "mapping_cache.cache_bytes",
                                       "mapping_cache.hits",
                                       "mapping_cache.misses",
                                       "mapping_cache.writebacks",
                                       "mapping_cache.hit_ratio",
                                       "phases.0.kind",
                                       "phases.0.mean_write_MBps",
                                       "phases.0.dies_busy",
                                       "phases.0.channels_busy",
                                       "jobs.0.name",
                                       "jobs.1.name",
                                       "drive_config.drive.name",
                                       "drive_config.nand.pages_per_block"};
    for (unsigned i = 0; i < G_N_ELEMENTS(keys); i++)
        jtext(j, keys[i]);
    static const char *const lat[] = {"mean", "p50", "p90", "p99", "p99.9", "p99.99", "max"};
    for (int op = 0; op < 2; op++) {
        double prev = 0;
        for (unsigned i = 0; i < G_N_ELEMENTS(lat); i++) {
            g_autofree char *k = g_strdup_printf("latency_us.%s.%s", op ? "write" : "read", lat[i]);
            double v = jnum(j, k);
            CU_ASSERT(v > 0);
            if (i > 1) /* percentiles rise to the max */
                CU_ASSERT(v >= prev);
            prev = i ? v : prev;
        }
    }
    CU_ASSERT_STRING_EQUAL(jtext(j, "ftlsim_version"), "\"" FTLSIM_VERSION "\"");
    CU_ASSERT_STRING_EQUAL(jtext(j, "drive"), "\"small TLC test drive\"");
    CU_ASSERT_STRING_EQUAL(jtext(j, "drive_config.drive.name"), "\"small TLC test drive\"");
    CU_ASSERT_STRING_EQUAL(jtext(j, "jobs.0.name"), "\"job1\"");
    CU_ASSERT_STRING_EQUAL(jtext(j, "jobs.1.rw"), "\"randread\"");
    CU_ASSERT_STRING_EQUAL(jtext(j, "mapping_cache.kind"), "\"dram\"");
    CU_ASSERT_PTR_NOT_NULL(strstr(jtext(j, "workload"), "rw=write,bs=128k,iodepth=32,size=10%"));
    CUTEST_EQ(ju64(j, "seed"), 7);
    CUTEST_EQ(ju64(j, "drive_config.drive.user_capacity"), CAPACITY);
}

/* The sum of latency_us.OBJ's parts, each checked to be at least 0. */
static double parts_sum(GHashTable *j, const char *obj, const char *const *parts)
{
    double sum = 0;
    for (unsigned k = 0; parts[k]; k++) {
        g_autofree char *key = g_strdup_printf("latency_us.%s.%s", obj, parts[k]);
        CU_ASSERT(jnum(j, key) >= 0);
        sum += jnum(j, key);
    }
    return sum;
}

static void test_summary_values(void)
{
    GHashTable *j = base_run();
    uint64_t w = ju64(j, "host.write_bytes"), r = ju64(j, "host.read_bytes");
    CUTEST_EQ(w, WRITE_BYTES);
    CUTEST_EQ(r, READ_BYTES);
    CUTEST_EQ(ju64(j, "host.write_ios"), WRITE_BYTES / BS);
    CUTEST_EQ(ju64(j, "host.read_ios"), READ_BYTES / 4096);
    CUTEST_EQ(ju64(j, "host.trim_bytes"), 0);
    CUTEST_EQ(ju64(j, "jobs.0.write.bytes"), w);
    CUTEST_EQ(ju64(j, "jobs.1.read.bytes"), r);
    uint64_t total = ju64(j, "nand.write_bytes.total");
    CUTEST_EQ(total, ju64(j, "nand.write_bytes.by_cause.host") +
                         ju64(j, "nand.write_bytes.by_cause.gc") +
                         ju64(j, "nand.write_bytes.by_cause.fold") +
                         ju64(j, "nand.write_bytes.by_cause.map"));
    /* A tenth of an empty drive: no GC; all but the write buffer reached NAND. */
    CUTEST_EQ(ju64(j, "nand.write_bytes.by_cause.gc"), 0);
    CU_ASSERT(total <= w && total + (2u << 20) >= w);
    /* Erase counts: the 4 dies' 256 multi-plane blocks, no static part;
     * the groups add up to the erase counter. */
    CUTEST_EQ(ju64(j, "nand.wear.pool.blocks"), 4 * 256);
    CUTEST_EQ(ju64(j, "nand.wear.static_slc.blocks"), 0);
    CUTEST_EQ(ju64(j, "nand.wear.pool.erases") + ju64(j, "nand.wear.static_slc.erases"),
              ju64(j, "nand.erases"));
    CUTEST_NEAR(jnum(j, "nand.wear.pool.mean"), (double)ju64(j, "nand.erases") / (4 * 256), 1e-9);
    CUTEST_NEAR(jnum(j, "waf"), (double)total / (double)w, 1e-12);
    double t = jnum(j, "sim_time_s");
    CU_ASSERT(t > 0);
    CUTEST_NEAR(jnum(j, "throughput.write_MBps"), (double)w / 1e6 / t, 1e-9);
    CUTEST_NEAR(jnum(j, "throughput.read_MBps"), (double)r / 1e6 / t, 1e-9);
    CUTEST_NEAR(jnum(j, "throughput.iops"), (double)(WRITE_BYTES / BS + READ_BYTES / 4096) / t,
                1e-6);
    CUTEST_EQ(ju64(j, "latency_us.read.count"), READ_BYTES / 4096);
    /* the parts of a read's and a write's time add up to its latency */
    CUTEST_EQ(ju64(j, "latency_us.read_parts.count"), READ_BYTES / 4096);
    static const char *const rparts[] = {"front", "map", "die_wait", "nand", "back", NULL};
    CUTEST_NEAR(parts_sum(j, "read_parts", rparts), jnum(j, "latency_us.read.mean"), 1e-6);
    CUTEST_EQ(ju64(j, "latency_us.write_parts.count"), WRITE_BYTES / BS);
    static const char *const wparts[] = {"front", "merge", "buffer_wait", "data", NULL};
    CUTEST_NEAR(parts_sum(j, "write_parts", wparts), jnum(j, "latency_us.write.mean"), 1e-6);
    /* whole 128 KiB writes merge with nothing; at QD 32 on a NAND-bound
     * drive they spend most of their time waiting for buffer room */
    CUTEST_NEAR(jnum(j, "latency_us.write_parts.merge"), 0, 1e-12);
    CU_ASSERT(jnum(j, "latency_us.write_parts.buffer_wait") >
              jnum(j, "latency_us.write_parts.data"));
    /* DRAM: no translation-page loads; a fresh drive's reads that find
     * data wait for dies busy writing, the rest find nothing to read */
    CUTEST_NEAR(jnum(j, "latency_us.read_parts.map"), 0, 1e-12);
    CU_ASSERT(jnum(j, "latency_us.read_parts.front") > 0 && jnum(j, "latency_us.read_parts.back") > 0);
    /* 4 bytes of table per 4 KiB of user capacity, rounded up; all of it in DRAM. */
    CUTEST_EQ(ju64(j, "mapping_cache.table_bytes"), (CAPACITY + 4095) / 4096 * 4);
    CUTEST_EQ(ju64(j, "mapping_cache.cache_bytes"), (CAPACITY + 4095) / 4096 * 4);
    /* The phases cover the run: from 0 to every byte written. */
    CUTEST_EQ(ju64(j, "phases.0.start_host_bytes"), 0);
    guint n = 0;
    for (;; n++) {
        g_autofree char *k = g_strdup_printf("phases.%u.kind", n);
        if (!g_hash_table_contains(j, k))
            break;
    }
    CU_ASSERT(n >= 1);
    for (guint i = 0; i < n; i++) {
        g_autofree char *db = g_strdup_printf("phases.%u.dies_busy", i);
        g_autofree char *cb = g_strdup_printf("phases.%u.channels_busy", i);
        CU_ASSERT(jnum(j, db) >= 0 && jnum(j, db) <= 1.0001);
        CU_ASSERT(jnum(j, cb) >= 0 && jnum(j, cb) <= 1.0001);
    }
    /* the first phase writes: its dies are busy */
    CU_ASSERT(jnum(j, "phases.0.dies_busy") > 0.2);
    g_autofree char *end = g_strdup_printf("phases.%u.end_host_bytes", n ? n - 1 : 0);
    CUTEST_EQ(ju64(j, end), w);
}

static void test_summary_text(void)
{
    base_run();
    g_autofree char *text = read_file(base_dir, "summary.txt");
    CU_ASSERT_PTR_NOT_NULL(text);
    static const char *const starts[] = {
        "drive     small TLC test drive",
        "workload  ",
        "seed      7",
        "simulated ",
        "host      wrote 0.150 GB (1144 IOs), read 0.021 GB (5120 IOs)",
        "nand      ",
        "wear      pool 1024 blocks, P/E mean ",
        "waf       ",
        "  read mean, by part: front ",
        "  write mean, by part: front ",
        "busy      dies: read ",
        "speed     ",
        "latency   (us)",
        "  read         5120",
        "  write        1144",
        "mapping   dram, 1.40 MiB of a 1.40 MiB table cached\n",
        "phases    kind        from GB      to GB       MB/s  dies busy  channels busy\n"};
    for (unsigned i = 0; text && i < G_N_ELEMENTS(starts); i++) {
        g_autofree char *needle = g_strconcat("\n", starts[i], NULL);
        gboolean found = i == 0 ? g_str_has_prefix(text, starts[i]) : strstr(text, needle) != NULL;
        if (!found)
            fprintf(stderr, "summary.txt: no line starting \"%s\"\n", starts[i]);
        CU_ASSERT_TRUE(found);
    }
}

/* Writes with idle gaps between them make many phases: summary.txt lists
 * the first 13, how many it leaves out, and the last 3; phases.csv all. */
static void test_many_phases(void)
{
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GString) spec = g_string_new(NULL);
    for (int k = 0; k < 12; k++)
        g_string_append_printf(spec, "%srw=write,bs=1m,iodepth=2,io_size=200m;idle=3s",
                               k ? ";" : "");
    o.spec = spec->str;
    g_autofree char *dir = run_into("phases", &o);
    g_autofree char *csv = read_file(dir, "phases.csv");
    g_autofree char *text = read_file(dir, "summary.txt");
    CUTEST_REQUIRE(csv && text);
    g_auto(GStrv) rows = g_strsplit(g_strchomp(csv), "\n", -1);
    guint n = g_strv_length(rows) - 1;
    CU_ASSERT(n > REPORT_TEXT_PHASES);
    const char *table = strstr(text, "\nphases    kind");
    CUTEST_REQUIRE(table != NULL);
    g_autofree char *tail = g_strchomp(g_strdup(table + 1));
    g_auto(GStrv) lines = g_strsplit(tail, "\n", -1);
    /* the header, 13 phases, the line of those left out, 3 phases */
    CUTEST_EQ(g_strv_length(lines), 2 + REPORT_TEXT_PHASES);
    g_autofree char *more = g_strdup_printf("          ... %u more (phases.csv lists them all)",
                                            n - (REPORT_TEXT_PHASES - 3) - 3);
    CU_ASSERT_STRING_EQUAL(lines[1 + REPORT_TEXT_PHASES - 3], more);
    /* the last line is the last phase: it ends where phases.csv's does */
    g_auto(GStrv) last = g_strsplit(rows[n], ",", -1);
    g_autofree char *end = g_strdup_printf("%.2f", g_ascii_strtod(last[2], NULL) / 1e9);
    CU_ASSERT(strstr(lines[1 + REPORT_TEXT_PHASES], end) != NULL);
    /* 2.4 GB on a 1.5 GB drive: blocks were erased; the series' wear
     * columns end where the summary's counts are */
    GHashTable *j = json_load(dir);
    g_auto(GStrv) series = series_lines(dir);
    guint rows_n = g_strv_length(series) - 1;
    CU_ASSERT(ju64(j, "nand.wear.pool.max") > 0);
    CUTEST_EQ((uint64_t)field(series[rows_n], 21), ju64(j, "nand.wear.pool.min"));
    CUTEST_NEAR(field(series[rows_n], 22), jnum(j, "nand.wear.pool.mean"), 1e-4);
    CUTEST_EQ((uint64_t)field(series[rows_n], 23), ju64(j, "nand.wear.pool.max"));
    for (guint i = 2; i <= rows_n; i++) /* counts only grow */
        CU_ASSERT(field(series[i], 23) >= field(series[i - 1], 23));
    g_hash_table_unref(j);
}

/* --set overrides are recorded: an empty array without them, each string
 * in order with them, and a line of summary.txt. */
static void test_overrides(void)
{
    GHashTable *j = base_run();
    CU_ASSERT_STRING_EQUAL(g_hash_table_lookup(j, "overrides"), "[]");
    static const char *const sets[] = {"gc.policy=fifo", "gc.soft_blocks=3", NULL};
    RunOptions o;
    run_options_init(&o);
    o.seed = 7;
    o.sets = sets;
    g_autofree char *dir = run_into("overrides", &o);
    g_autoptr(GHashTable) k = json_load(dir);
    CU_ASSERT_STRING_EQUAL(g_hash_table_lookup(k, "overrides.0"), "\"gc.policy=fifo\"");
    CU_ASSERT_STRING_EQUAL(g_hash_table_lookup(k, "overrides.1"), "\"gc.soft_blocks=3\"");
    CU_ASSERT_PTR_NULL(g_hash_table_lookup(k, "overrides.2"));
    g_autofree char *text = read_file(dir, "summary.txt");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\noverrides gc.policy=fifo, gc.soft_blocks=3\n"));
}

/* Rows every 200 ms: ceil(sim_time / interval) rows; the rates add up. */
static void test_series_by_time(void)
{
    GHashTable *j = base_run();
    g_auto(GStrv) lines = series_lines(base_dir);
    CU_ASSERT_STRING_EQUAL(lines[0], DOC_HEADER);
    guint rows = g_strv_length(lines) - 1;
    double t = jnum(j, "sim_time_s");
    CUTEST_EQ(rows, (guint)ceil(t / 0.2));
    double prev_t = 0, written = 0, host_time = 0, busy_time = 0;
    for (guint i = 1; i <= rows; i++) {
        double ti = field(lines[i], 0);
        if (i < rows)
            CUTEST_NEAR(ti, 0.2 * i, 1e-9);
        written += field(lines[i], 3) * 1e6 * (ti - prev_t);
        /* die time by activity: shares of the interval, at most all of it */
        double dies = 0;
        for (int k = 14; k < 20; k++) {
            CU_ASSERT(field(lines[i], k) >= 0);
            dies += field(lines[i], k);
        }
        CU_ASSERT(dies <= 1.0001);
        host_time += field(lines[i], 15) * (ti - prev_t);
        busy_time += dies * (ti - prev_t);
        CU_ASSERT(field(lines[i], 20) >= 0 && field(lines[i], 20) <= 1.0001);
        prev_t = ti;
        g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
        CUTEST_EQ(g_strv_length(f), 25);
        CU_ASSERT(field(lines[i], 24) >= 0 && field(lines[i], 24) <= 1.0001);
    }
    CUTEST_NEAR(prev_t, t, 0.0005);
    /* the rows add up to the run's shares (4 decimals a row) */
    CUTEST_NEAR(host_time / t, jnum(j, "utilization.dies.host_program"), 0.001);
    CUTEST_NEAR(1 - busy_time / t, jnum(j, "utilization.dies.idle"), 0.002);
    /* the fill writes a tenth of an empty drive: host programs, then reads */
    CU_ASSERT(jnum(j, "utilization.dies.host_program") > 0.2);
    CU_ASSERT(jnum(j, "utilization.dies.read") > 0); /* most reads find nothing mapped */
    CUTEST_NEAR(jnum(j, "utilization.dies.gc"), 0, 1e-12);
    CUTEST_EQ((uint64_t)field(lines[rows], 1), ju64(j, "host.write_bytes"));
    CUTEST_EQ((uint64_t)field(lines[rows], 2), ju64(j, "host.read_bytes"));
    /* MB/s are printed to 0.01, times to 1 ms. */
    CUTEST_NEAR(written, (double)WRITE_BYTES, 0.01 * WRITE_BYTES);
}

/* Rows every 40 MB written: one as each multiple is passed, one at the end. */
static void test_series_by_bytes(void)
{
    RunOptions o;
    run_options_init(&o);
    o.interval_bytes = 40000000;
    g_autofree char *dir = run_into("bytes", &o);
    g_auto(GStrv) lines = series_lines(dir);
    CU_ASSERT_STRING_EQUAL(lines[0], DOC_HEADER);
    guint rows = g_strv_length(lines) - 1;
    CUTEST_EQ(rows, (WRITE_BYTES + 40000000 - 1) / 40000000);
    for (guint i = 1; i < rows; i++) {
        uint64_t w = (uint64_t)field(lines[i], 1);
        /* The row is taken by the completion that passes the mark. */
        CU_ASSERT(w >= i * 40000000ull && w < i * 40000000ull + BS);
    }
    CUTEST_EQ((uint64_t)field(lines[rows], 1), WRITE_BYTES);
    CUTEST_EQ((uint64_t)field(lines[rows], 2), READ_BYTES);
}

/* Same seed, same results (but the wall-clock figures). */
static char *strip_wall(const char *dir)
{
    g_autofree char *text = read_file(dir, "summary.json");
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    GString *out = g_string_new(NULL);
    for (int i = 0; lines[i]; i++)
        if (!strstr(lines[i], "\"wall_time_s\":") && !strstr(lines[i], "\"setup_wall_s\":") &&
            !strstr(lines[i], "\"total_wall_s\":") && !strstr(lines[i], "\"peak_rss_bytes\":"))
            g_string_append_printf(out, "%s\n", lines[i]);
    return g_string_free(out, FALSE);
}

static void test_determinism(void)
{
    RunOptions o;
    run_options_init(&o);
    o.seed = 7;
    o.interval = SIM_SEC / 5;
    g_autofree char *dir = run_into("again", &o);
    base_run();
    g_autofree char *a = strip_wall(base_dir);
    g_autofree char *b = strip_wall(dir);
    CU_ASSERT(strlen(a) > 1000);
    CU_ASSERT_STRING_EQUAL(a, b);
    g_autofree char *sa = read_file(base_dir, "series.csv");
    g_autofree char *sb = read_file(dir, "series.csv");
    CU_ASSERT_STRING_EQUAL(sa, sb);
    g_autofree char *la = read_file(base_dir, "latency_read.csv");
    g_autofree char *lb = read_file(dir, "latency_read.csv");
    CU_ASSERT_STRING_EQUAL(la, lb);
}

/* Latency columns: documented header; empty where the interval had no such
 * I/O; p50 <= p99 <= p99.9 <= the run's max; the other columns unchanged. */
static void test_series_percentiles(void)
{
    RunOptions o;
    run_options_init(&o);
    o.seed = 7;
    o.interval = SIM_SEC / 5;
    o.series_percentiles = TRUE;
    g_autofree char *dir = run_into("pct", &o);
    GHashTable *j = base_run();
    g_auto(GStrv) lines = series_lines(dir);
    g_auto(GStrv) plain = series_lines(base_dir);
    CU_ASSERT_STRING_EQUAL(lines[0], DOC_HEADER DOC_LATENCY);
    CUTEST_EQ(g_strv_length(lines), g_strv_length(plain));
    int with_read = 0, with_write = 0;
    for (guint i = 1; lines[i] && plain[i]; i++) {
        CU_ASSERT(g_str_has_prefix(lines[i], plain[i]) && lines[i][strlen(plain[i])] == ',');
        for (int op = 0; op < 2; op++) {
            double p50 = field(lines[i], 25 + 3 * op), p99 = field(lines[i], 26 + 3 * op);
            double p999 = field(lines[i], 27 + 3 * op);
            uint64_t moved = (uint64_t)field(lines[i], op ? 1 : 2) -
                             (i > 1 ? (uint64_t)field(lines[i - 1], op ? 1 : 2) : 0);
            /* Bytes count at completion, as latencies do. */
            CU_ASSERT(isnan(p50) == (moved == 0));
            if (isnan(p50))
                continue;
            *(op ? &with_write : &with_read) += 1;
            CU_ASSERT(p50 > 0 && p50 <= p99 && p99 <= p999);
            CU_ASSERT(p999 <= jnum(j, op ? "latency_us.write.max" : "latency_us.read.max") + 0.05);
        }
    }
    CU_ASSERT(with_read >= 1);
    CU_ASSERT(with_write >= 4);
}

/* One interval spanning the run: its percentiles are the run's. */
static void test_series_percentiles_whole_run(void)
{
    RunOptions o;
    run_options_init(&o);
    o.seed = 7;
    o.interval = 100 * SIM_SEC;
    o.series_percentiles = TRUE;
    g_autofree char *dir = run_into("pct1", &o);
    g_autoptr(GHashTable) j = json_load(dir);
    g_auto(GStrv) lines = series_lines(dir);
    CUTEST_EQ(g_strv_length(lines), 2);
    static const char *const p[] = {"p50", "p99", "p99.9"};
    for (int op = 0; op < 2; op++)
        for (int i = 0; i < 3; i++) {
            g_autofree char *k = g_strdup_printf("latency_us.%s.%s", op ? "write" : "read", p[i]);
            CUTEST_NEAR(field(lines[1], 25 + 3 * op + i), jnum(j, k), 0.05);
        }
}

/* The sink sees every latency the workload records, and only those. */
typedef struct Sink {
    uint64_t n[IO_OPS];
    double sum[IO_OPS]; /* ns */
} Sink;

static void sink_fn(void *ctx, IoOp op, uint64_t ns)
{
    Sink *s = ctx;
    s->n[op]++;
    s->sum[op] += (double)ns;
}

static void sink_submit(void *ctx, const DriveCmd *c)
{
    drive_submit(ctx, c);
}

static Workload *sink_w;

static void sink_done(void *ctx, const DriveCompletion *dc)
{
    (void)ctx;
    workload_io_done(sink_w, dc);
}

static void test_latency_sink(void)
{
    DriveParams p;
    CU_ASSERT_TRUE(config_load_file(DRIVE, &p, NULL));
    g_autoptr(SimEngine) e = sim_engine_new();
    g_autoptr(Drive) d = drive_new(e, &p, 1);
    g_autoptr(Workload) w = workload_from_spec(
        "rw=randrw,rwmixread=30,bs=16k,iodepth=8,io_size=8m;rw=trim,bs=1m,size=4m", NULL);
    CU_ASSERT_PTR_NOT_NULL(w);
    WorkloadTarget t = {.ctx = d, .submit = sink_submit, .capacity = drive_capacity(d),
                        .queue_limit = drive_queue_limit(d)};
    CU_ASSERT_TRUE(workload_bind(w, e, &t, 3, NULL));
    drive_set_done(d, sink_done, NULL);
    sink_w = w;
    Sink s = {{0}, {0}};
    workload_set_latency_sink(w, sink_fn, &s);
    workload_start(w);
    while (!workload_finished(w) && sim_run(e, SIM_TIME_MAX))
        ;
    CU_ASSERT_TRUE(workload_finished(w));
    for (int op = 0; op < IO_OPS; op++) {
        const LatHist *h = workload_latency(w, op);
        CUTEST_EQ(s.n[op], lat_hist_count(h));
        if (s.n[op])
            CUTEST_NEAR(s.sum[op] / (double)s.n[op], lat_hist_mean(h), 1e-6 * lat_hist_mean(h));
    }
    CU_ASSERT(s.n[IO_READ] > 0 && s.n[IO_WRITE] > 0);
    CUTEST_EQ(s.n[IO_TRIM], 4);
    CUTEST_EQ(s.n[IO_READ] + s.n[IO_WRITE], 8u * 1048576 / 16384);
}


/* ---- The table of figures ------------------------------------------------ */

static void test_table_consistent(void)
{
    char why[256] = "";
    gboolean ok = report_table_check(why, sizeof why);
    if (!ok)
        fprintf(stderr, "report table: %s\n", why);
    CU_ASSERT(ok);
    /* keys that name the drive's enums are those names */
    for (int k = 0; k < DIE_WORKS; k++) {
        g_autofree char *path = g_strdup_printf("utilization.dies.%s", die_work_name(k));
        CU_ASSERT_PTR_NOT_NULL(report_figure(path));
    }
    for (int k = 0; k < READ_PARTS; k++) {
        g_autofree char *path = g_strdup_printf("latency_us.read_parts.%s", read_part_name(k));
        CU_ASSERT_PTR_NOT_NULL(report_figure(path));
    }
    for (int k = 0; k < WRITE_PARTS; k++) {
        g_autofree char *path = g_strdup_printf("latency_us.write_parts.%s", write_part_name(k));
        CU_ASSERT_PTR_NOT_NULL(report_figure(path));
    }
    CU_ASSERT_PTR_NULL(report_figure("host.no_such_key"));
    CUTEST_EQ(report_sweep_column("sim_time_s"), 0);
    CUTEST_EQ(report_sweep_column("no_such_column"), -1);
}

/* The text of docs/outputs.md from the line starting with `from` up to the
 * next heading of level `level` or higher. */
static char *doc_section(const char *doc, const char *from, int level)
{
    const char *a = strstr(doc, from);
    if (!a)
        return g_strdup("");
    const char *end = a + strlen(from);
    for (const char *nl = strchr(end, '\n'); nl; nl = strchr(nl + 1, '\n')) {
        int hashes = 0;
        while (nl[1 + hashes] == '#')
            hashes++;
        if (hashes && hashes <= level && nl[1 + hashes] == ' ')
            return g_strndup(a, (gsize)(nl - a));
    }
    return g_strdup(a);
}

/* The `names` in the first cell of each table row of a section; a name
 * starting with "." continues the previous one ("host.read_bytes", ".trim_bytes"),
 * "[]" is dropped. Header rows (no backticks) give nothing. */
static GHashTable *doc_names(const char *section)
{
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_auto(GStrv) lines = g_strsplit(section, "\n", -1);
    g_autofree char *prev = NULL;
    for (guint i = 0; lines[i]; i++) {
        if (lines[i][0] != '|')
            continue;
        char *bar = strchr(lines[i] + 1, '|');
        if (!bar)
            continue;
        g_autofree char *cell = g_strndup(lines[i] + 1, (gsize)(bar - lines[i] - 1));
        g_auto(GStrv) parts = g_strsplit(cell, "`", -1);
        for (guint k = 1; parts[k] && parts[k + 1]; k += 2) {
            char *name = parts[k];
            if (g_str_has_suffix(name, "[]"))
                name[strlen(name) - 2] = '\0';
            char *full;
            if (name[0] == '.' && prev && strrchr(prev, '.'))
                full = g_strdup_printf("%.*s%s", (int)(strrchr(prev, '.') - prev), prev, name);
            else
                full = g_strdup(name);
            g_free(prev);
            prev = g_strdup(full);
            g_hash_table_add(names, full);
        }
    }
    return names;
}

/* Both ways: every name of cols is in docs, every docs name is in cols. */
static void check_names(const char *what, GHashTable *doc, GHashTable *code)
{
    GHashTableIter it;
    gpointer name;
    g_hash_table_iter_init(&it, code);
    while (g_hash_table_iter_next(&it, &name, NULL))
        if (!g_hash_table_contains(doc, name)) {
            fprintf(stderr, "docs/outputs.md: %s lacks %s\n", what, (const char *)name);
            CU_FAIL("a name missing from docs/outputs.md");
        }
    g_hash_table_iter_init(&it, doc);
    while (g_hash_table_iter_next(&it, &name, NULL))
        if (!g_hash_table_contains(code, name)) {
            fprintf(stderr, "docs/outputs.md: %s names %s, which ftlsim does not write\n", what,
                    (const char *)name);
            CU_FAIL("a name in docs/outputs.md that does not exist");
        }
}

static GHashTable *column_names(const ReportFigure *const *cols, gboolean series)
{
    GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
    for (int i = 0; cols[i]; i++)
        g_hash_table_add(names, (gpointer)(series ? cols[i]->series : cols[i]->sweep));
    return names;
}

static void test_docs_list_every_figure(void)
{
    g_autofree char *doc = NULL;
    CUTEST_REQUIRE(g_file_get_contents(CUTEST_SRC("docs/outputs.md"), &doc, NULL, NULL));
    g_autofree char *series = doc_section(doc, "### `series.csv`", 3);
    g_autofree char *sweep = doc_section(doc, "## Sweeps: `run --vary`", 3);
    g_autofree char *summary = doc_section(doc, "### `summary.txt`, `summary.json`", 3);
    g_autoptr(GHashTable) ds = doc_names(series), dw = doc_names(sweep), dj = doc_names(summary);
    g_autoptr(GHashTable) cs = column_names(report_series_columns(TRUE), TRUE);
    g_autoptr(GHashTable) cw = column_names(report_sweep_columns(), FALSE);
    CU_ASSERT(g_hash_table_size(cs) == 31 && g_hash_table_size(ds) > 0);
    check_names("series.csv", ds, cs);
    check_names("the sweep table", dw, cw);

    /* summary.json: a key documented, or an object holding it; and every
     * documented key a figure or an object of figures */
    size_t n;
    const ReportFigure *t = report_table(&n);
    g_autoptr(GHashTable) objects = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (size_t i = 0; i < n; i++) {
        if (!(t[i].out & OUT_JSON))
            continue;
        g_autofree char *path = t[i].group[0] ? g_strdup_printf("%s.%s", t[i].group, t[i].key)
                                              : g_strdup(t[i].key);
        gboolean documented = g_hash_table_contains(dj, path);
        for (char *dot = strrchr(path, '.'); dot && !documented; dot = strrchr(path, '.')) {
            *dot = '\0';
            g_hash_table_add(objects, g_strdup(path));
            documented = g_hash_table_contains(dj, path);
        }
        if (!documented)
            fprintf(stderr, "docs/outputs.md: summary.json lacks %s.%s\n", t[i].group, t[i].key);
        CU_ASSERT(documented);
    }
    GHashTableIter it;
    gpointer name;
    g_hash_table_iter_init(&it, dj);
    while (g_hash_table_iter_next(&it, &name, NULL)) {
        const ReportFigure *f = report_figure(name);
        gboolean known = (f && (f->out & OUT_JSON)) || g_hash_table_contains(objects, name);
        if (!known)
            fprintf(stderr, "docs/outputs.md: summary.json names %s, which ftlsim does not write\n",
                    (const char *)name);
        CU_ASSERT(known);
    }
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"summary.json has every key", test_summary_keys},
        {"summary.json values agree", test_summary_values},
        {"summary.txt lines", test_summary_text},
        {"--set overrides recorded", test_overrides},
        {"many phases: summary.txt lists the ends", test_many_phases},
        {"series.csv by time", test_series_by_time},
        {"series.csv by bytes written", test_series_by_bytes},
        {"same seed, same results", test_determinism},
        {"series percentiles", test_series_percentiles},
        {"series percentiles of one interval", test_series_percentiles_whole_run},
        {"latency sink", test_latency_sink},
        {"the table of figures agrees with itself", test_table_consistent},
        {"docs/outputs.md lists every figure", test_docs_list_every_figure},
        CU_TEST_INFO_NULL,
    };
    int rc = cutest_run("report", tests);
    g_clear_pointer(&base, g_hash_table_unref);
    g_clear_pointer(&base_dir, g_free);
    if (scratch)
        cutest_rm_tree(scratch);
    g_free(scratch);
    return rc;
}
