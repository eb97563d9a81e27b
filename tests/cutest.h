/*
 * cutest.h - the runner every CUnit suite shares.
 *
 * A suite file defines its tests in a CU_TestInfo array and calls
 * cutest_run() from main(). The exit code comes from
 * CU_get_number_of_tests_failed() (CU_basic_run_tests() returns success even
 * when asserts fail).
 */
#ifndef FTLSIM_CUTEST_H
#define FTLSIM_CUTEST_H

#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>

int cutest_run(const char *suite, CU_TestInfo *tests);

/* Remove a scratch folder and everything in it (symlinks, not their targets). */
void cutest_rm_tree(const char *path);

/* Path of a file in the source tree (tests run with the source root as cwd). */
#define CUTEST_SRC(path) (FTLSIM_SOURCE_DIR "/" path)

/* Assert that two integers are equal, printing both on failure. */
#define CUTEST_EQ(a, b)                                                                          \
    do {                                                                                         \
        long long cutest_a_ = (long long)(a), cutest_b_ = (long long)(b);                        \
        if (cutest_a_ != cutest_b_)                                                              \
            fprintf(stderr, "%s:%d: %s = %lld, expected %s = %lld\n", __FILE__, __LINE__, #a,    \
                    cutest_a_, #b, cutest_b_);                                                   \
        CU_ASSERT(cutest_a_ == cutest_b_);                                                       \
    } while (0)

/* Assert |a - b| <= tol, printing both on failure. */
#define CUTEST_NEAR(a, b, tol)                                                                   \
    do {                                                                                         \
        double cutest_a_ = (double)(a), cutest_b_ = (double)(b);                                 \
        if (!(cutest_a_ - cutest_b_ <= (tol) && cutest_b_ - cutest_a_ <= (tol)))                 \
            fprintf(stderr, "%s:%d: %s = %g, expected %g +- %g\n", __FILE__, __LINE__, #a,       \
                    cutest_a_, cutest_b_, (double)(tol));                                        \
        CU_ASSERT(cutest_a_ - cutest_b_ <= (tol) && cutest_b_ - cutest_a_ <= (tol));             \
    } while (0)

#endif
