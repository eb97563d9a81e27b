/* test_plot.c - figures: the gnuplot scripts run on the fixture results
 * folders (tests/data/results_fixture/), PNG and SVG output, skipped inputs,
 * overlay with drive names, gnuplot errors, no gnuplot on PATH, and the live
 * PNG without a display. Tests needing gnuplot pass with a notice when it is
 * missing. */
#include "sim/output/plot.h"
#include "tests/cutest.h"

#include <glib/gstdio.h>
#include <string.h>

#define FIXTURE_TLC CUTEST_SRC("tests/data/results_fixture/tlc_1tb")
#define FIXTURE_QLC CUTEST_SRC("tests/data/results_fixture/qlc_2tb")
#define SCRIPT_DIR CUTEST_SRC("scripts/plot")
/* A figure script that fails on its line 3 (an undefined variable). */
#define FAILING_GP "set terminal pngcairo\nset output out\nplot no_such_var\n"

static gboolean need_gnuplot(void)
{
    if (plot_available())
        return TRUE;
    g_autofree char *why = g_strdup_printf("gnuplot not on PATH, figure test (%s)", plot_install_hint());
    cutest_skip(why);
    return FALSE;
}

/* A scratch copy of a fixture folder (figures are written next to the
 * data), or of the figure scripts. */
static char *copy_fixture(const char *src)
{
    char *dst = g_dir_make_tmp("plot-XXXXXX", NULL);
    g_autoptr(GDir) d = g_dir_open(src, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL(d);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *from = g_build_filename(src, n, NULL);
        g_autofree char *to = g_build_filename(dst, n, NULL);
        g_autofree char *text = NULL;
        gsize len = 0;
        CU_ASSERT_TRUE(g_file_get_contents(from, &text, &len, NULL));
        CU_ASSERT_TRUE(g_file_set_contents(to, text, (gssize)len, NULL));
    }
    return dst;
}

/* The file is a PNG (signature) larger than 10 KB. */
static void assert_png(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    g_autofree char *data = NULL;
    gsize len = 0;
    gboolean ok = g_file_get_contents(p, &data, &len, NULL);
    if (!ok)
        fprintf(stderr, "%s: missing\n", p);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT(len > 10 * 1024);
    CU_ASSERT(ok && len >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0);
}

static gboolean exists_in(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    return g_file_test(p, G_FILE_TEST_EXISTS);
}

/* No temporary (.NAME.tmp) is left in dir. */
static void assert_no_temporaries(const char *dir)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        if (n[0] == '.')
            fprintf(stderr, "%s/%s: left behind\n", dir, n);
        CU_ASSERT(n[0] != '.');
    }
}

static void test_results_png(void)
{
    if (!need_gnuplot())
        return;
    g_autofree char *dir = copy_fixture(FIXTURE_TLC);
    g_autoptr(GError) err = NULL;
    gboolean ok = plot_results(dir, SCRIPT_DIR, PLOT_PNG, &err);
    if (err)
        fprintf(stderr, "%s\n", err->message);
    CU_ASSERT_TRUE(ok);
    assert_png(dir, "write_curve.png");
    assert_png(dir, "throughput.png");
    assert_png(dir, "cache.png");
    assert_png(dir, "utilization.png");
    assert_png(dir, "latency_cdf.png");
    assert_no_temporaries(dir);
    cutest_rm_tree(dir);
}

/* The largest value of a column of dir's series.csv. */
static double series_max(const char *dir, const char *column)
{
    g_autofree char *path = g_build_filename(dir, "series.csv", NULL);
    g_autofree char *csv = NULL;
    if (!g_file_get_contents(path, &csv, NULL, NULL))
        return 0;
    g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
    g_auto(GStrv) head = g_strsplit(rows[0], ",", -1);
    guint col = 0;
    while (head[col] && strcmp(head[col], column) != 0)
        col++;
    double max = 0;
    for (char **r = rows + 1; head[col] && *r; r++) {
        g_auto(GStrv) f = g_strsplit(*r, ",", -1);
        if (g_strv_length(f) > col)
            max = MAX(max, g_ascii_strtod(f[col], NULL));
    }
    return max;
}

/* The figure at path says its curves are means per bin of a 300th of max
 * (a gnuplot stats call made after an axis's range is set would see only
 * the values inside it). */
static void check_bins(const char *path, double max)
{
    g_autofree char *text = NULL;
    CUTEST_REQUIRE(g_file_get_contents(path, &text, NULL, NULL));
    const char *label = strstr(text, "mean per ");
    CUTEST_REQUIRE_PTR(label);
    CUTEST_NEAR(g_ascii_strtod(label + strlen("mean per "), NULL), max / 300, max / 300 * 0.01);
}

/* utilization.svg averages the shares over a 300th of the series' time,
 * more than the 105 its value axis ends at. */
static void check_utilization_bins(const char *dir)
{
    g_autofree char *svg = g_build_filename(dir, "utilization.svg", NULL);
    double t_max = series_max(dir, "t_s");
    CU_ASSERT(t_max > 105);
    check_bins(svg, t_max);
}

/* SVG; a figure whose input is missing is skipped, the others still made. */
static void test_results_svg_and_skips(void)
{
    if (!need_gnuplot())
        return;
    g_autofree char *dir = copy_fixture(FIXTURE_QLC); /* latency_read.csv has no rows */
    g_autofree char *phases = g_build_filename(dir, "phases.csv", NULL);
    g_unlink(phases);
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE(plot_results(dir, SCRIPT_DIR, PLOT_SVG, &err));
    static const char *const figs[] = {"write_curve.svg", "throughput.svg", "cache.svg",
                                       "utilization.svg", "latency_cdf.svg"};
    for (unsigned i = 0; i < G_N_ELEMENTS(figs); i++) {
        g_autofree char *p = g_build_filename(dir, figs[i], NULL);
        g_autofree char *text = NULL;
        CU_ASSERT_TRUE(g_file_get_contents(p, &text, NULL, NULL));
        CU_ASSERT(text && g_str_has_prefix(text, "<?xml") && strstr(text, "</svg>"));
    }
    CU_ASSERT_FALSE(exists_in(dir, "write_curve.png"));
    assert_no_temporaries(dir);
    check_utilization_bins(dir);
    g_autofree char *cache = g_build_filename(dir, "cache.svg", NULL);
    check_bins(cache, series_max(dir, "t_s"));

    /* No series and no latencies: nothing to draw, not an error. */
    g_autofree char *series = g_build_filename(dir, "series.csv", NULL);
    g_autofree char *lw = g_build_filename(dir, "latency_write.csv", NULL);
    g_unlink(series);
    g_unlink(lw);
    CU_ASSERT_TRUE(plot_results(dir, SCRIPT_DIR, PLOT_PNG, &err));
    CU_ASSERT_FALSE(exists_in(dir, "write_curve.png"));
    CU_ASSERT_FALSE(exists_in(dir, "latency_cdf.png"));
    cutest_rm_tree(dir);
}

static void test_drive_names(void)
{
    g_autofree char *a = plot_drive_name(FIXTURE_TLC);
    g_autofree char *b = plot_drive_name(FIXTURE_QLC);
    CU_ASSERT_STRING_EQUAL(a, "Fixture TLC 1TB");
    CU_ASSERT_STRING_EQUAL(b, "Fixture QLC 2TB \"SATA\"");
    g_autofree char *c = plot_drive_name("/some/results/run7/");
    CU_ASSERT_STRING_EQUAL(c, "run7");
}

/* A run made with --set shows its overrides after the drive name, so that
 * what-if runs of one drive tell apart in an overlay's legend. */
static void test_drive_names_with_overrides(void)
{
    g_autofree char *tmp = g_dir_make_tmp("plot-XXXXXX", NULL);
    g_autofree char *summary = g_build_filename(tmp, "summary.json", NULL);
    static const char with[] = "{\n  \"drive\": \"Drive A\",\n  \"drive_file\": \"a.ini\",\n"
                               "  \"overrides\": [\n    \"pslc.static=12GB\",\n"
                               "    \"drive.notes=say \\\"hi\\\"\"\n  ],\n  \"seed\": 1\n}\n";
    CU_ASSERT_TRUE(g_file_set_contents(summary, with, -1, NULL));
    g_autofree char *a = plot_drive_name(tmp);
    CU_ASSERT_STRING_EQUAL(a, "Drive A (pslc.static=12GB, drive.notes=say \"hi\")");
    static const char without[] = "{\n  \"drive\": \"Drive A\",\n  \"overrides\": [],\n"
                                  "  \"seed\": 1\n}\n";
    CU_ASSERT_TRUE(g_file_set_contents(summary, without, -1, NULL));
    g_autofree char *b = plot_drive_name(tmp);
    CU_ASSERT_STRING_EQUAL(b, "Drive A");
    cutest_rm_tree(tmp);
}

static void test_overlay(void)
{
    if (!need_gnuplot())
        return;
    g_autofree char *tmp = g_dir_make_tmp("plot-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(tmp, "overlay.png", NULL);
    const char *dirs[] = {FIXTURE_TLC, FIXTURE_QLC, NULL};
    g_autoptr(GError) err = NULL;
    gboolean ok = plot_overlay(dirs, out, SCRIPT_DIR, PLOT_PNG, &err);
    if (err)
        fprintf(stderr, "%s\n", err->message);
    CU_ASSERT_TRUE(ok);
    assert_png(tmp, "overlay.png");
    assert_no_temporaries(tmp);
    /* each run a mean per bin of a 300th of the longest */
    g_autofree char *svg = g_build_filename(tmp, "overlay.svg", NULL);
    CU_ASSERT_TRUE(plot_overlay(dirs, svg, SCRIPT_DIR, PLOT_SVG, &err));
    check_bins(svg, MAX(series_max(FIXTURE_TLC, "host_written_GB"),
                        series_max(FIXTURE_QLC, "host_written_GB")));

    const char *bad[] = {FIXTURE_TLC, tmp, NULL};
    g_autofree char *out2 = g_build_filename(tmp, "overlay2.png", NULL);
    CU_ASSERT_FALSE(plot_overlay(bad, out2, SCRIPT_DIR, PLOT_PNG, &err));
    g_autofree char *expect = g_strdup_printf(
        "%s/series.csv: missing or empty; expected a results folder with a time series", tmp);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
    CU_ASSERT_FALSE(exists_in(tmp, "overlay2.png"));
    cutest_rm_tree(tmp);
}

/* A script error comes back with gnuplot's own error line; nothing is left. */
static void test_gnuplot_error(void)
{
    if (!need_gnuplot())
        return;
    g_autofree char *dir = copy_fixture(FIXTURE_TLC);
    g_autofree char *scripts = g_dir_make_tmp("plot-XXXXXX", NULL);
    g_autofree char *gp = g_build_filename(scripts, "write_curve.gp", NULL);
    CU_ASSERT_TRUE(g_file_set_contents(gp, FAILING_GP, -1, NULL));
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(plot_results(dir, scripts, PLOT_PNG, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PLOT_ERROR, PLOT_ERROR_GNUPLOT));
    g_autofree char *expect = g_strdup_printf(
        "gnuplot %s failed: \"%s\" line 3: undefined variable: no_such_var", gp, gp);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
    CU_ASSERT_FALSE(exists_in(dir, "write_curve.png"));
    assert_no_temporaries(dir);

    /* The other scripts are missing from this folder. */
    g_unlink(gp);
    g_clear_error(&err);
    CU_ASSERT_FALSE(plot_results(dir, scripts, PLOT_PNG, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PLOT_ERROR, PLOT_ERROR_SCRIPT));
    g_autofree char *expect2 = g_strdup_printf("%s: not found; expected the gnuplot scripts of "
                                               "ftlsim in %s (scripts/plot or share/ftlsim/plot)",
                                               gp, scripts);
    CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect2);
    cutest_rm_tree(scripts);
    cutest_rm_tree(dir);
}

/* A copy of the figure scripts in which the named ones are FAILING_GP. */
static char *scripts_failing(const char *const *broken)
{
    char *dst = copy_fixture(SCRIPT_DIR);
    for (const char *const *b = broken; *b; b++) {
        g_autofree char *gp = g_build_filename(dst, *b, NULL);
        CU_ASSERT_TRUE(g_file_set_contents(gp, FAILING_GP, -1, NULL));
    }
    return dst;
}

/* The figures are drawn at once, yet the outcome is that of drawing them
 * in turn: those before the first failure in place, none after it (even
 * where they were drawn in full), the first failure's error. */
static void test_failure_among_figures(void)
{
    if (!need_gnuplot())
        return;
    static const char *const one[] = {"throughput.gp", NULL};
    static const char *const two[] = {"throughput.gp", "latency_cdf.gp", NULL};
    const char *const *cases[] = {one, two};
    for (unsigned c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_autofree char *dir = copy_fixture(FIXTURE_TLC);
        g_autofree char *scripts = scripts_failing(cases[c]);
        g_autoptr(GError) err = NULL;
        CU_ASSERT_FALSE(plot_results(dir, scripts, PLOT_PNG, &err));
        g_autofree char *gp = g_build_filename(scripts, "throughput.gp", NULL);
        g_autofree char *expect = g_strdup_printf(
            "gnuplot %s failed: \"%s\" line 3: undefined variable: no_such_var", gp, gp);
        CU_ASSERT_STRING_EQUAL(err ? err->message : "", expect);
        assert_png(dir, "write_curve.png");
        CU_ASSERT_FALSE(exists_in(dir, "throughput.png"));
        CU_ASSERT_FALSE(exists_in(dir, "cache.png"));
        CU_ASSERT_FALSE(exists_in(dir, "utilization.png"));
        CU_ASSERT_FALSE(exists_in(dir, "latency_cdf.png"));
        assert_no_temporaries(dir);
        cutest_rm_tree(scripts);
        cutest_rm_tree(dir);
    }
}

static void test_no_gnuplot(void)
{
    g_autofree char *old_path = g_strdup(g_getenv("PATH"));
    g_setenv("PATH", "", TRUE);
    gboolean avail = plot_available();
    g_autoptr(GError) err = NULL;
    gboolean ok = plot_results(FIXTURE_TLC, SCRIPT_DIR, PLOT_PNG, &err);
    g_autoptr(GError) err2 = NULL;
    const char *dirs[] = {FIXTURE_TLC, NULL};
    gboolean ok2 = plot_overlay(dirs, "/nonexistent/overlay.png", SCRIPT_DIR, PLOT_PNG, &err2);
    g_autoptr(GError) err3 = NULL;
    PlotLive *pl = plot_live_start(FIXTURE_TLC, SCRIPT_DIR, &err3);
    if (old_path)
        g_setenv("PATH", old_path, TRUE);
    else
        g_unsetenv("PATH");
    CU_ASSERT_FALSE(avail);
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_TRUE(g_error_matches(err, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT));
    CU_ASSERT_STRING_EQUAL(err ? err->message : "",
                           "figures need gnuplot: apt-get install gnuplot-nox");
    CU_ASSERT_FALSE(ok2);
    CU_ASSERT_TRUE(g_error_matches(err2, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT));
    CU_ASSERT_PTR_NULL(pl);
    CU_ASSERT_TRUE(g_error_matches(err3, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT));
    CU_ASSERT_FALSE(exists_in(FIXTURE_TLC, "write_curve.png"));
}

/* Without a display: write_curve.live.png from series.live.csv, at most once
 * per interval, and once more at stop. */
static void test_live_png(void)
{
    if (!need_gnuplot())
        return;
    g_autofree char *old_display = g_strdup(g_getenv("DISPLAY"));
    g_unsetenv("DISPLAY");
    g_autofree char *dir = g_dir_make_tmp("plot-XXXXXX", NULL);
    g_autoptr(GError) err = NULL;
    PlotLive *pl = plot_live_start(dir, SCRIPT_DIR, &err);
    CU_ASSERT_PTR_NOT_NULL(pl);
    plot_live_update(pl); /* no series yet: nothing drawn */
    CU_ASSERT_FALSE(exists_in(dir, "write_curve.live.png"));
    g_autofree char *src = g_build_filename(FIXTURE_TLC, "series.csv", NULL);
    g_autofree char *dst = g_build_filename(dir, "series.live.csv", NULL);
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE(g_file_get_contents(src, &text, NULL, NULL));
    CU_ASSERT_TRUE(g_file_set_contents(dst, text, -1, NULL));
    plot_live_update(pl); /* within the interval of the last attempt: skipped */
    CU_ASSERT_FALSE(exists_in(dir, "write_curve.live.png"));
    plot_live_stop(pl); /* the last frame is always drawn */
    assert_png(dir, "write_curve.live.png");

    g_autofree char *png = g_build_filename(dir, "write_curve.live.png", NULL);
    g_unlink(png);
    pl = plot_live_start(dir, SCRIPT_DIR, &err);
    plot_live_update(pl); /* first update draws */
    assert_png(dir, "write_curve.live.png");
    g_unlink(png);
    plot_live_update(pl); /* too soon */
    CU_ASSERT_FALSE(exists_in(dir, "write_curve.live.png"));
    plot_live_stop(pl);
    plot_live_stop(NULL);
    assert_no_temporaries(dir);
    if (old_display)
        g_setenv("DISPLAY", old_display, TRUE);
    cutest_rm_tree(dir);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"results folder to PNG", test_results_png},
        {"SVG and skipped inputs", test_results_svg_and_skips},
        {"drive names", test_drive_names},
        {"drive names with overrides", test_drive_names_with_overrides},
        {"overlay of two runs", test_overlay},
        {"gnuplot error reported", test_gnuplot_error},
        {"a failure among figures drawn at once", test_failure_among_figures},
        {"no gnuplot on PATH", test_no_gnuplot},
        {"live PNG without display", test_live_png},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("plot", tests);
}
