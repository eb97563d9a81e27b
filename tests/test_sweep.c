/*
 * test_sweep.c - ftlsim run --vary: one folder a combination, the table
 * sweep.csv (its header, one row a run in order, the measures agreeing
 * with each run's summary.json), a what-if whose answer is known (halving
 * tPROG on a NAND-bound fill nearly doubles the rate), and bad sweeps
 * refused before any folder is made.
 */
#include "sim/output/report.h"
#include "sim/cmd/run.h"
#include "tests/cutest.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRIVE CUTEST_SRC("tests/data/drives/small_tlc.ini")
/* a tenth of the drive, written in order: NAND-bound (4 dies x 96 KiB /
 * 2.4 ms = 163.84 MB/s, below the SATA link) */
#define FILL "rw=write,bs=128k,iodepth=32,size=10%"

static char *scratch;

static char *scratch_path(const char *name)
{
    if (!scratch)
        scratch = g_dir_make_tmp("sweep-XXXXXX", NULL);
    return g_build_filename(scratch, name, NULL);
}

static gboolean sweep_jobs(const char *out, const char *const *vary, const char *const *sets,
                           gboolean force, guint jobs, const char *spec, GError **error)
{
    RunOptions o;
    run_options_init(&o);
    o.drive = DRIVE;
    o.spec = spec;
    o.out = out;
    o.quiet = TRUE;
    o.force = force;
    o.sets = sets;
    SweepOptions so = {.run = &o, .vary = vary, .jobs = jobs};
    return run_sweep(&so, error);
}

static gboolean sweep(const char *out, const char *const *vary, const char *const *sets,
                      gboolean force, GError **error)
{
    return sweep_jobs(out, vary, sets, force, 1, FILL, error);
}

/* sweep.csv split into lines, the last (empty) one dropped. */
static GStrv table_lines(const char *out)
{
    g_autofree char *path = g_build_filename(out, "sweep.csv", NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return g_new0(char *, 1);
    g_strchomp(text);
    return g_strsplit(text, "\n", -1);
}

/* The fields of a CSV row (quoted fields unquoted; no quotes inside). */
static GStrv fields(const char *row)
{
    g_autoptr(GString) plain = g_string_new(NULL);
    gboolean quoted = FALSE;
    for (const char *c = row; *c; c++) {
        if (*c == '"')
            quoted = !quoted;
        else
            g_string_append_c(plain, quoted && *c == ',' ? ';' : *c);
    }
    return g_strsplit(plain->str, ",", -1);
}

/* Column `name` of a row, by the header; NAN when absent or empty. */
static double column(const char *header, const char *row, const char *name)
{
    g_auto(GStrv) h = g_strsplit(header, ",", -1);
    g_auto(GStrv) r = fields(row);
    for (guint i = 0; h[i] && r[i]; i++)
        if (strcmp(h[i], name) == 0)
            return r[i][0] ? g_ascii_strtod(r[i], NULL) : NAN;
    return NAN;
}

static void test_tprog_halved(void)
{
    g_autofree char *out = scratch_path("tprog");
    const char *vary[] = {"timing.tlc.t_prog=2.4ms,1.2ms", NULL};
    g_autoptr(GError) e = NULL;
    gboolean ok = sweep(out, vary, NULL, FALSE, &e);
    if (!ok)
        fprintf(stderr, "sweep: %s\n", e->message);
    CUTEST_REQUIRE(ok);
    g_auto(GStrv) lines = table_lines(out);
    CUTEST_EQ(g_strv_length(lines), 3);
    g_autofree char *header = g_strconcat("timing.tlc.t_prog,dir,", report_sweep_header(), NULL);
    CU_ASSERT_STRING_EQUAL(lines[0], header);
    CU_ASSERT(g_str_has_prefix(lines[1], "2.4ms,timing.tlc.t_prog=2.4ms,"));
    CU_ASSERT(g_str_has_prefix(lines[2], "1.2ms,timing.tlc.t_prog=1.2ms,"));
    for (guint i = 1; i < 3; i++) {
        g_auto(GStrv) h = fields(lines[0]), r = fields(lines[i]);
        CUTEST_EQ(g_strv_length(r), g_strv_length(h));
    }
    /* a fill of a tenth of an empty drive: no GC, no erase, no wear */
    CUTEST_EQ(column(lines[0], lines[1], "erases"), 0);
    CUTEST_EQ(column(lines[0], lines[1], "wear_max"), 0);
    CU_ASSERT(isnan(column(lines[0], lines[1], "read_mean_us")));
    CU_ASSERT(column(lines[0], lines[1], "write_p99_us") >=
              column(lines[0], lines[1], "write_mean_us"));
    double slow = column(lines[0], lines[1], "write_MBps");
    double fast = column(lines[0], lines[2], "write_MBps");
    /* 163.84 MB/s of programs at 2.4 ms, less the first unit's latency */
    CU_ASSERT(slow > 150 && slow < 163.84);
    CU_ASSERT(fast / slow > 1.8 && fast / slow < 2.0);
    /* the same data either way */
    CUTEST_NEAR(column(lines[0], lines[1], "host_write_GB"),
                column(lines[0], lines[2], "host_write_GB"), 1e-9);
    /* each run is a whole results folder that records its override */
    g_autofree char *json = NULL;
    g_autofree char *jpath = g_build_filename(out, "timing.tlc.t_prog=1.2ms", "summary.json", NULL);
    CU_ASSERT_TRUE(g_file_get_contents(jpath, &json, NULL, NULL));
    CU_ASSERT(json && strstr(json, "\"timing.tlc.t_prog=1.2ms\"") != NULL);
    /* a second sweep into the same folder needs --force */
    g_autoptr(GError) e2 = NULL;
    CU_ASSERT_FALSE(sweep(out, vary, NULL, FALSE, &e2));
    g_autoptr(GError) e3 = NULL;
    CU_ASSERT_TRUE(sweep(out, vary, NULL, TRUE, &e3));
}

/* Two keys: every combination, the last key varying fastest; --set applies
 * to every run. */
static void test_two_keys(void)
{
    g_autofree char *out = scratch_path("grid");
    const char *vary[] = {"host.queue_depth=1,32", "gc.policy=greedy,fifo", NULL};
    const char *sets[] = {"gc.soft_blocks=6", NULL};
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(sweep(out, vary, sets, FALSE, &e));
    g_auto(GStrv) lines = table_lines(out);
    CUTEST_EQ(g_strv_length(lines), 5);
    static const char *const starts[] = {"host.queue_depth,gc.policy,dir,",
                                         "1,greedy,\"host.queue_depth=1,gc.policy=greedy\",",
                                         "1,fifo,\"host.queue_depth=1,gc.policy=fifo\",",
                                         "32,greedy,\"host.queue_depth=32,gc.policy=greedy\",",
                                         "32,fifo,\"host.queue_depth=32,gc.policy=fifo\","};
    for (guint i = 0; i < 5 && lines[i]; i++) {
        if (!g_str_has_prefix(lines[i], starts[i]))
            fprintf(stderr, "sweep.csv line %u: %s\n", i, lines[i]);
        CU_ASSERT(g_str_has_prefix(lines[i], starts[i]));
    }
    g_autofree char *json = NULL;
    g_autofree char *jpath =
        g_build_filename(out, "host.queue_depth=32,gc.policy=fifo", "summary.json", NULL);
    CU_ASSERT_TRUE(g_file_get_contents(jpath, &json, NULL, NULL));
    CU_ASSERT(json && strstr(json, "\"gc.soft_blocks=6\"") && strstr(json, "\"gc.policy=fifo\""));
}

/* Runs in child processes, three at a time: the same table as one by one;
 * a run that fails reports its error as the first failing run in order. */
static void test_jobs(void)
{
    const char *vary[] = {"host.queue_depth=1,4,32", "gc.policy=greedy,fifo", NULL};
    g_autofree char *one = scratch_path("jobs1");
    g_autofree char *three = scratch_path("jobs3");
    g_autoptr(GError) e1 = NULL, e3 = NULL;
    CUTEST_REQUIRE(sweep_jobs(one, vary, NULL, FALSE, 1, FILL, &e1));
    CUTEST_REQUIRE(sweep_jobs(three, vary, NULL, FALSE, 3, FILL, &e3));
    g_autofree char *p1 = g_build_filename(one, "sweep.csv", NULL);
    g_autofree char *p3 = g_build_filename(three, "sweep.csv", NULL);
    g_autofree char *t1 = NULL, *t3 = NULL;
    CU_ASSERT_TRUE(g_file_get_contents(p1, &t1, NULL, NULL));
    CU_ASSERT_TRUE(g_file_get_contents(p3, &t3, NULL, NULL));
    CU_ASSERT(t1 && t3 && strlen(t1) > 500);
    CU_ASSERT_STRING_EQUAL(t1, t3);
    /* a workload that reads past the drive: every run fails as bad input,
     * the first is reported, nothing is left */
    g_autofree char *bad = scratch_path("jobsbad");
    g_autoptr(GError) eb = NULL;
    CU_ASSERT_FALSE(sweep_jobs(bad, vary, NULL, FALSE, 2, "rw=read,bs=4k,offset=200%", &eb));
    CU_ASSERT(eb && g_str_has_prefix(eb->message, "--vary host.queue_depth=1,gc.policy=greedy: "));
    CU_ASSERT(eb && !g_error_matches(eb, RUN_ERROR, RUN_ERROR_FAILED));
    CU_ASSERT_FALSE(g_file_test(bad, G_FILE_TEST_EXISTS));
}

static void test_bad_sweeps(void)
{
    static const struct {
        const char *vary[3];
        const char *set;
        const char *msg;
    } bad[] = {
        {{"gc.policy", NULL}, NULL, "--vary \"gc.policy\": expected GROUP.KEY=V1,V2,..."},
        {{"policy=greedy", NULL}, NULL, "--vary \"policy=greedy\": expected GROUP.KEY="},
        {{"gc.policy=", NULL}, NULL, "--vary \"gc.policy=\": expected GROUP.KEY="},
        {{"gc.policy=greedy,,fifo", NULL},
         NULL,
         "--vary \"gc.policy=greedy,,fifo\": an empty value"},
        {{"gc.policy=fifo,fifo", NULL},
         NULL,
         "--vary \"gc.policy=fifo,fifo\": a value given twice"},
        {{"gc.policy=fifo", "gc.policy=greedy"},
         NULL,
         "--vary \"gc.policy=greedy\": the key is varied twice"},
        {{"gc.policy=fifo", NULL},
         "gc.policy=greedy",
         "--vary \"gc.policy=fifo\": the key is also given by --set"},
        {{"gc.policy=greedy,best", NULL},
         NULL,
         "--vary gc.policy=best: --set \"gc.policy=best\": expected one of"},
        {{"gc.polcy=greedy", NULL},
         NULL,
         "--vary gc.polcy=greedy: --set \"gc.polcy=greedy\": unknown key [gc] polcy"},
        {{"pslc.static=0,200GB", NULL}, NULL, "--vary pslc.static=200GB: "},
        {{NULL}, NULL, "--vary: no key to vary"},
    };
    g_autofree char *out = scratch_path("bad");
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        const char *sets[] = {bad[i].set, NULL};
        g_autoptr(GError) e = NULL;
        CU_ASSERT_FALSE(sweep(out, bad[i].vary, sets, FALSE, &e));
        CUTEST_REQUIRE_PTR(e);
        if (!g_str_has_prefix(e->message, bad[i].msg))
            fprintf(stderr, "\n  case %zu: got \"%s\"\n", i, e->message);
        CU_ASSERT(g_str_has_prefix(e->message, bad[i].msg));
        CUTEST_EQ(g_error_matches(e, RUN_ERROR, RUN_ERROR_INPUT) || e->domain != RUN_ERROR, TRUE);
        CU_ASSERT_FALSE(g_file_test(out, G_FILE_TEST_EXISTS));
    }
    /* a sweep writes folders: --out is needed */
    RunOptions o;
    run_options_init(&o);
    o.drive = DRIVE;
    o.spec = FILL;
    const char *vary[] = {"gc.policy=fifo", NULL};
    g_autoptr(GError) e = NULL;
    SweepOptions so = {.run = &o, .vary = vary, .jobs = 1};
    CU_ASSERT_FALSE(run_sweep(&so, &e));
    CU_ASSERT(e && strcmp(e->message, "--vary needs --out DIR") == 0);
}

static void remove_tree(const char *path)
{
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", path);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"halved tPROG nearly doubles a NAND-bound fill", test_tprog_halved},
        {"two keys: every combination in order", test_two_keys},
        {"runs in parallel give the same table", test_jobs},
        {"bad sweeps leave nothing", test_bad_sweeps},
        CU_TEST_INFO_NULL,
    };
    int rc = cutest_run("sweep", tests);
    if (scratch)
        remove_tree(scratch);
    g_free(scratch);
    return rc;
}
