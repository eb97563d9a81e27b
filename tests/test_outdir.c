/* test_outdir.c - the atomic results folder: create and commit, refusal of
 * a non-empty folder, --force removing stale results, abort, a write that
 * fails half way (file size limit), misuse. */
#include "sim/output/outdir.h"
#include "tests/cutest.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

/* Remove a folder tree made by a test. */
static gboolean exists_in(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    return g_file_test(p, G_FILE_TEST_EXISTS);
}

static char *read_in(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    char *text = NULL;
    if (!g_file_get_contents(p, &text, NULL, NULL))
        return g_strdup("<missing>");
    return text;
}

static void write_in(const char *dir, const char *name, const char *text)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    CU_ASSERT_TRUE(g_file_set_contents(p, text, -1, NULL));
}

static int count_entries(const char *dir)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    int n = 0;
    while (d && g_dir_read_name(d))
        n++;
    return n;
}

static void test_create_commit(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(root, "a", "b", "run1", NULL);
    g_autoptr(GError) err = NULL;
    OutDir *od = outdir_open(path, FALSE, &err);
    CU_ASSERT_PTR_NOT_NULL(od);
    CU_ASSERT_PTR_NULL(err);
    CU_ASSERT_STRING_EQUAL(outdir_path(od), path);
    g_autofree char *fp = outdir_file_path(od, "series.csv");
    g_autofree char *expect_fp = g_strconcat(path, "/series.csv", NULL);
    CU_ASSERT_STRING_EQUAL(fp, expect_fp);

    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "drive: X\n", &err));
    FILE *f = outdir_create(od, "series.csv", &err);
    CU_ASSERT_PTR_NOT_NULL(f);
    fprintf(f, "t_s,iops\n0,5\n");
    CU_ASSERT_TRUE(outdir_close_file(od, f, &err));
    /* Before the commit only temporaries exist. */
    CU_ASSERT_FALSE(exists_in(path, "summary.txt"));
    CU_ASSERT_FALSE(exists_in(path, "series.csv"));
    CU_ASSERT_TRUE(exists_in(path, ".summary.txt.tmp"));
    CU_ASSERT_TRUE(exists_in(path, ".series.csv.tmp"));
    CU_ASSERT_TRUE(outdir_commit(od, &err));
    CU_ASSERT_PTR_NULL(err);
    outdir_free(od);

    g_autofree char *s = read_in(path, "summary.txt");
    g_autofree char *c = read_in(path, "series.csv");
    g_autofree char *m = read_in(path, OUTDIR_MANIFEST);
    CU_ASSERT_STRING_EQUAL(s, "drive: X\n");
    CU_ASSERT_STRING_EQUAL(c, "t_s,iops\n0,5\n");
    CU_ASSERT_STRING_EQUAL(m, "summary.txt\nseries.csv\n");
    CUTEST_EQ(count_entries(path), 3);
    cutest_rm_tree(root);
}

static void test_refuse_existing(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    /* An empty existing folder is fine. */
    g_autoptr(GError) err = NULL;
    OutDir *od = outdir_open(root, FALSE, &err);
    CU_ASSERT_PTR_NOT_NULL(od);
    outdir_free(od);
    CU_ASSERT_TRUE(g_file_test(root, G_FILE_TEST_IS_DIR)); /* not ours to remove */

    write_in(root, "summary.txt", "old\n");
    od = outdir_open(root, FALSE, &err);
    CU_ASSERT_PTR_NULL(od);
    g_autofree char *expect = g_strdup_printf("%s: exists; use --force to overwrite", root);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
    g_autofree char *old = read_in(root, "summary.txt");
    CU_ASSERT_STRING_EQUAL(old, "old\n");

    g_clear_error(&err);
    g_autofree char *file = g_build_filename(root, "summary.txt", NULL);
    od = outdir_open(file, TRUE, &err);
    CU_ASSERT_PTR_NULL(od);
    g_autofree char *expect2 =
        g_strdup_printf("%s: exists and is not a folder; expected a results folder", file);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect2);
    cutest_rm_tree(root);
}

static void test_force(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    g_autoptr(GError) err = NULL;
    /* An earlier run: two results, one of a name only its manifest knows. */
    OutDir *od = outdir_open(root, FALSE, &err);
    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "old\n", &err));
    CU_ASSERT_TRUE(outdir_write_text(od, "series.csv", "old\n", &err));
    CU_ASSERT_TRUE(outdir_write_text(od, "custom.dat", "old\n", &err));
    CU_ASSERT_TRUE(outdir_commit(od, &err));
    outdir_free(od);
    write_in(root, "write_curve.png", "old figure");  /* known name, not in the manifest */
    write_in(root, ".phases.csv.tmp", "interrupted"); /* a killed run's temporary */
    write_in(root, "notes.md", "mine");               /* the user's: kept */

    /* A forced run that fails leaves the earlier result whole. */
    od = outdir_open(root, TRUE, &err);
    CU_ASSERT_PTR_NOT_NULL(od);
    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "failed\n", &err));
    outdir_free(od);
    g_autofree char *kept = read_in(root, "summary.txt");
    CU_ASSERT_STRING_EQUAL(kept, "old\n");
    CUTEST_EQ(count_entries(root), 7);
    g_autofree char *parent = g_path_get_dirname(root);
    g_autofree char *base = g_path_get_basename(root);
    g_autofree char *sib_name = g_strdup_printf(".%s.new-%ld", base, (long)getpid());
    CU_ASSERT_FALSE(exists_in(parent, sib_name)); /* the failed run's folder is gone */

    od = outdir_open(root, TRUE, &err);
    CU_ASSERT_PTR_NOT_NULL(od);
    CU_ASSERT_PTR_NULL(err);
    /* Nothing is removed before the new results are whole. */
    CU_ASSERT_TRUE(exists_in(root, "summary.txt"));
    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "new\n", &err));
    CU_ASSERT_TRUE(outdir_commit(od, &err));
    /* Then the stale results are gone. */
    CU_ASSERT_FALSE(exists_in(root, "series.csv"));
    CU_ASSERT_FALSE(exists_in(root, "custom.dat"));
    CU_ASSERT_FALSE(exists_in(root, "write_curve.png"));
    CU_ASSERT_FALSE(exists_in(root, ".phases.csv.tmp"));
    CU_ASSERT_TRUE(exists_in(root, "notes.md"));
    outdir_free(od);
    CU_ASSERT_FALSE(exists_in(parent, sib_name));
    g_autofree char *s = read_in(root, "summary.txt");
    CU_ASSERT_STRING_EQUAL(s, "new\n");
    CU_ASSERT_FALSE(exists_in(root, "series.csv"));
    CUTEST_EQ(count_entries(root), 3); /* summary.txt, notes.md, manifest */
    cutest_rm_tree(root);
}

/* While one run holds a folder, a second into it is refused. */
static void test_lock(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    g_autoptr(GError) err = NULL;
    OutDir *a = outdir_open(root, FALSE, &err);
    CU_ASSERT_PTR_NOT_NULL(a);
    OutDir *b = outdir_open(root, TRUE, &err);
    CU_ASSERT_PTR_NULL(b);
    g_autofree char *expect = g_strdup_printf(
        "%s: another ftlsim run is writing into this folder; expected one run a folder at a time",
        root);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
    g_clear_error(&err);
    CU_ASSERT_TRUE(outdir_write_text(a, "summary.txt", "a\n", &err));
    CU_ASSERT_TRUE(outdir_commit(a, &err));
    outdir_free(a);
    b = outdir_open(root, TRUE, &err); /* free again once the first is done */
    CU_ASSERT_PTR_NOT_NULL(b);
    outdir_free(b);
    cutest_rm_tree(root);
}

static void test_abort(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(root, "run", NULL);
    g_autoptr(GError) err = NULL;
    OutDir *od = outdir_open(path, FALSE, &err);
    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "x\n", &err));
    FILE *f = outdir_create(od, "series.csv", &err);
    fprintf(f, "half a row,");
    outdir_abort(od);                                       /* with a stream still open */
    CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS)); /* made by od, now empty: removed */
    CU_ASSERT_PTR_NULL(outdir_create(od, "late.csv", &err));
    g_autofree char *expect =
        g_strdup_printf("%s/late.csv: the results folder is already abandoned", path);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
    g_clear_error(&err);
    CU_ASSERT_FALSE(outdir_commit(od, &err));
    outdir_free(od);

    /* Freeing without a commit aborts too; a folder that existed stays. */
    od = outdir_open(root, FALSE, &err);
    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "x\n", &err));
    outdir_free(od);
    CU_ASSERT_TRUE(g_file_test(root, G_FILE_TEST_IS_DIR));
    CUTEST_EQ(count_entries(root), 0);
    outdir_free(NULL);
    cutest_rm_tree(root);
}

/* A write that fails half way (the file size limit stands in for a full
 * disk): the close reports it, the commit refuses, nothing looks whole. */
static void test_failed_write(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    g_autoptr(GError) err = NULL;
    OutDir *od = outdir_open(root, FALSE, &err);
    CU_ASSERT_TRUE(outdir_write_text(od, "summary.txt", "fine\n", &err));
    FILE *f = outdir_create(od, "series.csv", &err);
    struct rlimit old;
    getrlimit(RLIMIT_FSIZE, &old);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = {.rlim_cur = 8192, .rlim_max = old.rlim_max};
    setrlimit(RLIMIT_FSIZE, &small);
    for (int i = 0; i < 10000; i++)
        fprintf(f, "%d,row of series data\n", i);
    gboolean closed = outdir_close_file(od, f, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
    CU_ASSERT_FALSE(closed);
    g_autofree char *expect =
        g_strdup_printf("%s/series.csv: write failed: %s", root, g_strerror(EFBIG));
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
    CU_ASSERT_FALSE(exists_in(root, ".series.csv.tmp"));
    g_clear_error(&err);
    CU_ASSERT_FALSE(outdir_commit(od, &err));
    g_autofree char *expect2 = g_strdup_printf(
        "%s/series.csv: cannot commit: the file is failed; expected it closed", root);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect2);
    outdir_free(od);
    CUTEST_EQ(count_entries(root), 0);
    cutest_rm_tree(root);
}

static void test_misuse(void)
{
    g_autofree char *root = g_dir_make_tmp("outdir-XXXXXX", NULL);
    g_autoptr(GError) err = NULL;
    OutDir *od = outdir_open(root, FALSE, &err);
    static const char *const bad[] = {"", ".hidden", "../x", "a/b"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        CU_ASSERT_PTR_NULL(outdir_create(od, bad[i], &err));
        g_autofree char *expect = g_strdup_printf(
            "%s: bad result file name \"%s\"; expected a plain name not starting with '.'", root,
            bad[i]);
        CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
        g_clear_error(&err);
    }
    FILE *f = outdir_create(od, "a.csv", &err);
    CU_ASSERT_PTR_NULL(outdir_create(od, "a.csv", &err));
    g_autofree char *twice =
        g_strdup_printf("%s/a.csv: written twice; expected each result file once", root);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", twice);
    g_clear_error(&err);
    CU_ASSERT_FALSE(outdir_commit(od, &err));
    g_autofree char *open_msg = g_strdup_printf(
        "%s/a.csv: cannot commit: the file is still open; expected it closed", root);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", open_msg);
    g_clear_error(&err);
    CU_ASSERT_FALSE(exists_in(root, "a.csv"));
    CU_ASSERT_TRUE(outdir_close_file(od, f, &err));
    CU_ASSERT_TRUE(outdir_commit(od, &err));
    CU_ASSERT_TRUE(exists_in(root, "a.csv"));
    outdir_free(od);
    cutest_rm_tree(root);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"create, write, commit", test_create_commit},
        {"refuse an existing folder", test_refuse_existing},
        {"force removes stale results", test_force},
        {"a second run into a folder is refused", test_lock},
        {"abort leaves nothing", test_abort},
        {"write failing half way", test_failed_write},
        {"misuse", test_misuse},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("outdir", tests);
}
