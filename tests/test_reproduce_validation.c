/*
 * test_reproduce_validation.c - the review figures must not regress: runs
 * `scripts/reproduce --quick --check` against scripts/reproduce.d/baseline.tsv,
 * and checks on a tiny experiment of its own (tests/data/reproduce/) that the
 * check catches a regression. Label `validation`: out of the default run.
 */
#include "tests/cutest.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run scripts/reproduce with ARGS, its output into *out; returns its exit code. */
static int reproduce(const char *args, char **out)
{
    g_autofree char *log = g_build_filename(g_get_tmp_dir(), "ftlsim-reproduce-XXXXXX", NULL);
    int fd = g_mkstemp(log);
    g_assert(fd >= 0);
    close(fd);
    const char *bin = g_getenv("FTLSIM_BIN");
    g_autofree char *cmd = g_strdup_printf("FTLSIM='%s' scripts/reproduce %s >'%s' 2>&1",
                                           bin ? bin : "", args, log);
    int st = system(cmd);
    if (out != NULL)
        g_file_get_contents(log, out, NULL, NULL);
    g_unlink(log);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Write a baseline table for the tiny experiment; returns its path. */
static char *baseline(const char *b_result)
{
    g_autofree char *text = g_strdup_printf("# id\tsimulated\tresult\n"
                                            "T1.a\t163.84\tpass\n"
                                            "T1.b\t163.84\t%s\n",
                                            b_result);
    char *path = g_build_filename(g_get_tmp_dir(), "ftlsim-baseline-XXXXXX", NULL);
    int fd = g_mkstemp(path);
    g_assert(fd >= 0);
    close(fd);
    g_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static void test_quick_subset_holds(void)
{
    g_autofree char *out = NULL;
    int rc = reproduce("--quick --check --no-plot", &out);
    if (rc != 0)
        fprintf(stderr, "%s", out ? out : "");
    CUTEST_EQ(rc, 0);
    CU_ASSERT(out != NULL && strstr(out, "REGRESSION") == NULL);
}

/* The fill runs at 163.84 MB/s (4 dies x 96 KiB / 2.4 ms): T1.a passes and
 * T1.b (1000 MB/s) fails. A baseline where T1.b failed too is no regression;
 * one where it passed is, and the check names it. */
static void test_check_catches_regression(void)
{
    g_autofree char *out_dir = g_dir_make_tmp("ftlsim-reproduce-out-XXXXXX", NULL);
    g_assert(out_dir != NULL);
    g_autofree char *same = baseline("fail");
    g_autofree char *worse = baseline("pass");
    g_autofree char *a1 = g_strdup_printf("--quick --check --no-plot --dir tests/data/reproduce "
                                          "--baseline '%s' --out '%s'",
                                          same, out_dir);
    g_autofree char *a2 = g_strdup_printf("--quick --check --no-plot --dir tests/data/reproduce "
                                          "--baseline '%s' --out '%s'",
                                          worse, out_dir);
    g_autofree char *out1 = NULL, *out2 = NULL;
    CUTEST_EQ(reproduce(a1, &out1), 0);
    CUTEST_EQ(reproduce(a2, &out2), 1);
    CU_ASSERT(out1 != NULL && strstr(out1, "REGRESSION") == NULL);
    g_autofree char *want = g_strdup_printf("check: REGRESSION T1.b: passed in %s, fails now "
                                            "(review 1000, simulated ",
                                            worse);
    CU_ASSERT(out2 != NULL && strstr(out2, want) != NULL);
    CU_ASSERT(out2 != NULL && strstr(out2, "REGRESSION T1.a") == NULL);
    g_unlink(same);
    g_unlink(worse);
    g_autofree char *rm = g_strdup_printf("rm -rf '%s'", out_dir);
    CU_ASSERT(system(rm) == 0);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"check catches a regression", test_check_catches_regression},
        {"quick subset holds against the baseline", test_quick_subset_holds},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("reproduce_validation", tests);
}
