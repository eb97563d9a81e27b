/* cutest.c - shared CUnit runner; see cutest.h. */
#include "tests/cutest.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>

static unsigned skipped;

void cutest_skip(const char *why)
{
    fprintf(stderr, "notice: skipped: %s\n", why);
    skipped++;
}

int cutest_run(const char *suite, CU_TestInfo *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_SuiteInfo suites[] = {
        {(char *)suite, NULL, NULL, NULL, NULL, tests},
        CU_SUITE_INFO_NULL,
    };
    if (CU_register_suites(suites) != CUE_SUCCESS) {
        fprintf(stderr, "cannot register suite %s: %s\n", suite, CU_get_error_msg());
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (failed > 0 || ran == 0)
        return 1;
    return skipped > 0 ? CUTEST_SKIP : 0;
}

void cutest_rm_tree(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    if (d) {
        const char *n;
        while ((n = g_dir_read_name(d))) {
            g_autofree char *p = g_build_filename(path, n, NULL);
            if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
                cutest_rm_tree(p);
            else
                g_unlink(p);
        }
        g_dir_close(d);
    }
    g_rmdir(path);
}
