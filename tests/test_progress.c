/* test_progress.c - the status line: its fields, the 100 ms rate limit,
 * clearing, a disabled line writing nothing. A temporary file stands in for
 * the terminal. */
#include "sim/output/progress.h"
#include "tests/cutest.h"

#include <string.h>

/* Everything written to f so far. */
static char *contents(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    char *buf = g_malloc0((gsize)n + 1);
    rewind(f);
    CUTEST_EQ(fread(buf, 1, (size_t)n, f), n);
    fseek(f, 0, SEEK_END);
    return buf;
}

static void test_fields_and_rate_limit(void)
{
    FILE *f = tmpfile();
    g_autoptr(Progress) p = progress_new(f, TRUE);
    ProgressInfo info = {.fraction = 0.25,
                         .sim_time_s = 12.5,
                         .host_written_gb = 3.2,
                         .write_mbps = 530.4,
                         .phase = "pslc"};
    progress_update(p, &info);
    g_autofree char *first = contents(f);
    CU_ASSERT(g_str_has_prefix(
        first, "\r 25.0%  sim 12.5 s  host 3.20 GB  write 530 MB/s  pslc  wall 0:00  ETA 0:00"));
    CU_ASSERT_PTR_NULL(strchr(first, '\n'));

    /* Within 100 ms: suppressed, nothing written. */
    info.fraction = 0.5;
    progress_update(p, &info);
    progress_update(p, &info);
    g_autofree char *same = contents(f);
    CU_ASSERT_STRING_EQUAL(same, first);

    g_usleep(120000);
    info.fraction = 0.5;
    info.phase = "folding";
    info.write_mbps = 80;
    info.host_written_gb = 41.0;
    progress_update(p, &info);
    g_autofree char *second = contents(f);
    const char *line2 = second + strlen(first);
    CU_ASSERT(g_str_has_prefix(
        line2, "\r 50.0%  sim 12.5 s  host 41.00 GB  write 80 MB/s  folding  wall 0:00  ETA 0:00"));
    /* Each redraw is exactly as long as the line before or longer (padding). */
    CU_ASSERT(strlen(line2) >= strlen(first));

    progress_finish(p);
    g_autofree char *done = contents(f);
    const char *clear = done + strlen(second);
    CU_ASSERT_EQUAL(clear[0], '\r');
    CUTEST_EQ(strspn(clear + 1, " "), strlen(line2) - 1);
    CU_ASSERT_STRING_EQUAL(clear + strlen(line2), "\r");
    fclose(f);
}

static void test_eta_and_unknown_phase(void)
{
    FILE *f = tmpfile();
    g_autoptr(Progress) p = progress_new(f, TRUE);
    g_usleep(300000); /* 0.3 s of wall time at 10%: ETA 2.7 s rounds to 0:03 */
    ProgressInfo info = {.fraction = 0.1, .sim_time_s = 1, .host_written_gb = 0, .write_mbps = 0};
    progress_update(p, &info);
    g_autofree char *text = contents(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "  -  wall 0:00  ETA 0:03"));
    fclose(f);
}

static void test_disabled(void)
{
    FILE *f = tmpfile();
    g_autoptr(Progress) p = progress_new(f, FALSE);
    ProgressInfo info = {.fraction = 0.5, .phase = "gc"};
    progress_update(p, &info);
    progress_finish(p);
    CUTEST_EQ(ftell(f), 0);
    fclose(f);
    progress_free(NULL);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"fields and rate limit", test_fields_and_rate_limit},
        {"ETA and unknown phase", test_eta_and_unknown_phase},
        {"disabled writes nothing", test_disabled},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("progress", tests);
}
