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

/* Runs the suite; exit code 0 all passed, 1 a test failed (or none ran),
 * CUTEST_SKIP when all passed but one was skipped (cutest_skip()): CTest
 * reports the suite as skipped (SKIP_RETURN_CODE). */
int cutest_run(const char *suite, CU_TestInfo *tests);
#define CUTEST_SKIP 77

/* The test in progress cannot run here (a tool missing): say why on stderr;
 * the suite then reports as skipped unless a test failed. */
void cutest_skip(const char *why);

/* Assert cond and on failure return from the test. Unlike CU_ASSERT_FATAL,
 * which longjmps out of the test, a return runs the g_autoptr / g_autofree
 * cleanups of everything declared so far. For void test functions. */
#define CUTEST_REQUIRE(cond)                                                                     \
    do {                                                                                         \
        CU_BOOL cutest_ok_ = (cond) ? CU_TRUE : CU_FALSE;                                        \
        CU_assertImplementation(cutest_ok_, __LINE__, #cond, __FILE__, "", CU_FALSE);            \
        if (!cutest_ok_)                                                                         \
            return;                                                                              \
    } while (0)
#define CUTEST_REQUIRE_PTR(p) CUTEST_REQUIRE((p) != NULL)

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
