/*
 * test_calibrate.c - the pieces of ftlsim calibrate that decide its answer:
 * curve files (and their errors), the figure language and the loss, each
 * on a hand-made run whose values are worked out by hand in the comments;
 * and the numeric keys a fit may name.
 */
#include "sim/config/config.h"
#include "sim/config/config_units.h"
#include "sim/output/curve.h"
#include "sim/output/figure.h"
#include "tests/cutest.h"

#include <math.h>
#include <string.h>

/* A run of 8 one-second intervals: 500 MB/s for 4 s (to 2.0 GB) in pSLC,
 * then 100 MB/s for 4 s (to 2.4 GB) natively; 1 MB commands. */
static RunTrace *hand_trace(void)
{
    RunTrace *t = run_trace_new();
    double gb = 0;
    for (int i = 1; i <= 8; i++) {
        gb += i <= 4 ? 0.5 : 0.1;
        run_trace_append(t, i, gb * 1e9, gb * 1e3, i <= 4 ? "pslc" : "native");
    }
    run_trace_set_summary(t, "waf", 1.25);
    return t;
}

static double fig(const char *spec, const RunTrace *t, gboolean *yielded)
{
    Figure f;
    GError *e = NULL;
    CU_ASSERT_TRUE(figure_parse(spec, &f, &e));
    g_clear_error(&e);
    double v = NAN;
    *yielded = figure_eval(&f, t, &v);
    return v;
}

static void test_figures(void)
{
    g_autoptr(RunTrace) t = hand_trace();
    gboolean y;
    /* initial level: median of 500 x4 and 100 = 500; first row below 250
     * is second 5; written before it: 2.0 GB */
    CUTEST_NEAR(fig("cliff_gb=1", t, &y), 2.0, 1e-12);
    CU_ASSERT_TRUE(y);
    /* below 10% of 500 = 50 MB/s: never */
    fig("cliff_gb:10=1", t, &y);
    CU_ASSERT_FALSE(y);
    /* 1.0 GB at 2 s, 2.2 GB at 4 s + 2 s = 6 s: 1200 MB / 4 s */
    CUTEST_NEAR(fig("rate@GB=1..2.2=1", t, &y), 300, 1e-9);
    CU_ASSERT_TRUE(y);
    fig("rate@GB=2..3=1", t, &y); /* the run stops at 2.4 GB */
    CU_ASSERT_FALSE(y);
    /* 1.5 GB at 3 s, 2.1 GB at 5 s: 600 MB / 2 s */
    CUTEST_NEAR(fig("rate@t=3..5=1", t, &y), 300, 1e-9);
    /* 1000 commands in the first 2 s */
    CUTEST_NEAR(fig("iops@t=0..2=1", t, &y), 500, 1e-9);
    fig("iops@t=7..9=1", t, &y);
    CU_ASSERT_FALSE(y);
    /* phase 2: 0.4 GB from 4 s to 8 s */
    CUTEST_NEAR(fig("phase_rate:2=1", t, &y), 100, 1e-9);
    CUTEST_NEAR(fig("phase_rate:1=1", t, &y), 500, 1e-9);
    fig("phase_rate:3=1", t, &y);
    CU_ASSERT_FALSE(y);
    CUTEST_NEAR(fig("waf=1", t, &y), 1.25, 0);
    fig("summary:gc_GB=1", t, &y);
    CU_ASSERT_FALSE(y);
}

static void test_figure_errors(void)
{
    static const char *const bad[] = {
        "cliff_gb",       /* no value */
        "=3",             /* no id */
        "rate@GB=5..2=1", /* reversed */
        "rate@GB=2..2=1", /* empty */
        "rate@t=a..2=1",  /* not a number */
        "iops@t=1..=1",   /* no end */
        "phase_rate:0=1", /* phases count from 1 */
        "phase_rate:1.5=1",
        "cliff_gb:100=1", /* PCT in 0..100 */
        "speed=3",        /* unknown */
        "waf=x",          /* value */
        "waf=1.1:0",      /* weight above 0 */
        "waf=1.1:y",
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        Figure f;
        GError *e = NULL;
        gboolean ok = figure_parse(bad[i], &f, &e);
        if (ok)
            fprintf(stderr, "figure_parse(\"%s\") accepted it\n", bad[i]);
        CU_ASSERT_FALSE(ok);
        CU_ASSERT_PTR_NOT_NULL(e);
        if (e) {
            CU_ASSERT_PTR_NOT_NULL(strstr(e->message, bad[i]));
            CU_ASSERT_PTR_NULL(strchr(e->message, '\n'));
        }
        g_clear_error(&e);
    }
    Figure f;
    CU_ASSERT_TRUE(figure_parse("rate@GB=50..60=86.2:4", &f, NULL));
    CUTEST_NEAR(f.a, 50, 0);
    CUTEST_NEAR(f.b, 60, 0);
    CUTEST_NEAR(f.value, 86.2, 0);
    CUTEST_NEAR(f.weight, 4, 0);
    CU_ASSERT_STRING_EQUAL(f.id, "rate@GB=50..60");
}

static void test_curve_loss(void)
{
    g_autoptr(RunTrace) t = hand_trace();
    GError *e = NULL;
    g_autoptr(Curve) c =
        curve_parse("# a review's curve\nGB,MBps\n1.0,500\n1.5,450\n\n2.0,200\n", "hand.csv", &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CUTEST_EQ(c->n, 3);
    CUTEST_EQ(c->line[2], 6);
    /* spacings 0.5, 0.5: windows of +-0.25 GB */
    CUTEST_NEAR(curve_half_window(c), 0.25, 1e-12);
    double sim[3], r[3];
    CUTEST_EQ(curve_sim_values(c, t, sim), 3);
    CUTEST_NEAR(sim[0], 500, 1e-9);
    CUTEST_NEAR(sim[1], 500, 1e-9);
    /* 1.75 GB at 3.5 s, 2.25 GB at 4 s + 2.5 s: 500 MB / 3 s */
    CUTEST_NEAR(sim[2], 500.0 / 3, 1e-9);
    /* norm: mean of 500, 450, 200 = 383.33; residuals 0, 50, -33.33 over
     * norm * sqrt(3): loss ((50^2 + 33.33^2) / 3) / 383.33^2 = 0.0081916 */
    CUTEST_NEAR(curve_norm(c), 1150.0 / 3, 1e-9);
    curve_residuals(c, sim, r);
    CUTEST_NEAR(r[0], 0, 1e-12);
    CUTEST_NEAR(r[1] * curve_norm(c) * sqrt(3), 50, 1e-9);
    CUTEST_NEAR(r[0] * r[0] + r[1] * r[1] + r[2] * r[2], 0.0081916, 1e-7);
    /* a point beyond the run counts as 0 MB/s */
    g_autoptr(Curve) far = curve_parse("GB,MBps\n1,500\n2,100\n3,100\n", "far.csv", NULL);
    CUTEST_EQ(curve_sim_values(far, t, sim), 2);
    CU_ASSERT_TRUE(isnan(sim[2]));
    curve_residuals(far, sim, r);
    CUTEST_NEAR(r[2] * curve_norm(far) * sqrt(3), -100, 1e-9);
    /* a last point at the run's end as a run's series rounds it (2.4 GB
     * written, "2.40004" GB): measured over the window up to the end,
     * 2.15 GB to 2.4 GB at 100 MB/s */
    g_autoptr(Curve) end = curve_parse("GB,MBps\n1.4,500\n1.9,400\n2.40004,100\n", "end.csv", NULL);
    CUTEST_EQ(curve_sim_values(end, t, sim), 3);
    CUTEST_NEAR(sim[2], 100, 1e-6);
    /* figures: cliff at 2.0 against 2.5 measured with weight 4:
     * 2 * (2.0 - 2.5) / 2.5 = -0.4; missing counts as 0: 2 * -1 */
    Figure f;
    CU_ASSERT_TRUE(figure_parse("cliff_gb=2.5:4", &f, NULL));
    double v;
    CU_ASSERT_TRUE(figure_eval(&f, t, &v));
    CUTEST_NEAR(figure_residual(&f, TRUE, v), -0.4, 1e-12);
    CUTEST_NEAR(figure_residual(&f, FALSE, 0), -2, 1e-12);
}

static void test_curve_time(void)
{
    g_autoptr(RunTrace) t = hand_trace();
    g_autoptr(Curve) mb = curve_parse("t_s,MBps\n1,500\n3,500\n5,100\n", "t.csv", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mb);
    double sim[3];
    /* windows of +-1 s: 0..2 s, 2..4 s, 4..6 s */
    CUTEST_EQ(curve_sim_values(mb, t, sim), 3);
    CUTEST_NEAR(sim[0], 500, 1e-9);
    CUTEST_NEAR(sim[1], 500, 1e-9);
    CUTEST_NEAR(sim[2], 100, 1e-9);
    g_autoptr(Curve) io = curve_parse("t_s,IOPS\n3.5,100\n4.5,100\n5.5,100\n", "i.csv", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(io);
    /* windows of +-0.5 s: 3..4 s at 500 IOPS; 4..5 and 5..6 s at 100 */
    CUTEST_EQ(curve_sim_values(io, t, sim), 3);
    CUTEST_NEAR(sim[0], 500, 1e-9);
    CUTEST_NEAR(sim[1], 100, 1e-9);
    CUTEST_NEAR(sim[2], 100, 1e-9);
}

static void test_curve_errors(void)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"GB,MBps\n1,2\n2,3\n", "c.csv: found 2 points, expected at least 3"},
        {"GB,MBps\n1,2\n2,x\n3,4\n", "c.csv:3: found \"2,x\", expected two numbers GB,MBps"},
        {"GB,MBps\n1,2\n2,\n3,4\n", "c.csv:3:"},
        {"GB,MBps\n1,2\n2,3,4\n3,4\n", "c.csv:3:"},
        {"GB,MB/s\n1,2\n2,3\n3,4\n", "c.csv:1: found \"GB,MB/s\", expected a header"},
        {"t_s,IOPS\n1,2\n1,3\n3,4\n", "c.csv:3: t_s 1 is not above the previous point's"},
        {"GB,MBps\n1,2\n2,-3\n3,4\n", "c.csv:3:"},
        {"# nothing\n", "c.csv: empty"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *e = NULL;
        Curve *c = curve_parse(bad[i].text, "c.csv", &e);
        CU_ASSERT_PTR_NULL(c);
        curve_free(c);
        CU_ASSERT_PTR_NOT_NULL(e);
        if (e && !g_str_has_prefix(e->message, bad[i].want)) {
            fprintf(stderr, "curve %u: \"%s\", expected it to start \"%s\"\n", i, e->message,
                    bad[i].want);
            CU_FAIL("curve error");
        }
        g_clear_error(&e);
    }
}

static void test_numeric_keys(void)
{
    DriveParams p;
    GError *e = NULL;
    CU_ASSERT_TRUE_FATAL(config_load_file(CUTEST_SRC("configs/870qvo.ini"), &p, &e));
    ConfigNumKey k;
    CU_ASSERT_TRUE(config_numeric_key("timing.qlc.t_prog", &p, &k, &e));
    CUTEST_EQ(k.kind, CONFIG_NUM_NS);
    CUTEST_NEAR(k.value, 12e6, 0);
    CU_ASSERT_STRING_EQUAL(k.group, "timing.qlc");
    CU_ASSERT_TRUE(config_numeric_key("pslc.dynamic_cap", &p, &k, &e));
    CUTEST_NEAR(k.value, 36e9, 0);
    CUTEST_NEAR(config_numeric_si(CONFIG_NUM_NS, 12e6), 0.012, 1e-15);
    char buf[CONFIG_VALUE_LEN];
    config_numeric_format(CONFIG_NUM_BYTES, 149.3e6, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "149.3MB");
    config_numeric_format(CONFIG_NUM_NS, 3000300, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "3000.3us");
    static const char *const bad[] = {"pslc.fold_policy", "trim.nope", "drive.name",
                                      "host.pcie_lanes", "nodot"};
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        CU_ASSERT_FALSE(config_numeric_key(bad[i], &p, &k, &e));
        CU_ASSERT_PTR_NOT_NULL(e);
        if (e)
            CU_ASSERT_PTR_NOT_NULL(strstr(e->message, bad[i]));
        g_clear_error(&e);
    }
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"figures on a hand-made run", test_figures},
        {"bad figures", test_figure_errors},
        {"curve loss on a hand-made run", test_curve_loss},
        {"time and IOPS curves", test_curve_time},
        {"bad curves name file and line", test_curve_errors},
        {"numeric keys", test_numeric_keys},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("calibrate", tests);
}
