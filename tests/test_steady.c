/* test_steady.c - the PTS steady-state test on synthetic series whose
 * verdicts are worked out by hand in the comments (window of 5 rounds,
 * range <= 20% of the average, fitted line's range <= 10% of it). */
#include "sim/engine/steady.h"
#include "tests/cutest.h"

/* A drive converging after its write cliff. Windows by hand (x centred on
 * -2..2, sxx = 10, slope = sxy / 10, line range = 4 |slope|):
 *   rounds 1-5  100 80 70 65 62: avg 75.4, range 38 = 50.4%          no
 *   rounds 2-6  80 70 65 62 61:  avg 67.6, range 19 = 28.1%          no
 *   rounds 3-7  70 65 62 61 60:  avg 63.6, range 10 = 15.7%; deviations
 *               6.4 1.4 -1.6 -2.6 -3.6, sxy = -24, slope -2.4, line
 *               range 9.6 = 15.1%                                     no
 *   rounds 4-8  65 62 61 60 60:  avg 61.6, range 5 = 8.1%; deviations
 *               3.4 0.4 -0.6 -1.6 -1.6, sxy = -12, slope -1.2, line
 *               range 4.8 = 7.8%                                      steady */
static void test_converging(void)
{
    const double y[] = {100, 80, 70, 65, 62, 61, 60, 60, 60.5, 60};
    SteadyWindow w;
    CUTEST_EQ(steady_first(y, 10, STEADY_WINDOW, &w), 8);
    CU_ASSERT(w.steady);
    CUTEST_EQ(w.first, 4);
    CUTEST_EQ(w.last, 8);
    CUTEST_NEAR(w.avg, 61.6, 1e-9);
    CUTEST_NEAR(w.slope, -1.2, 1e-9);
    CUTEST_NEAR(w.excursion, 5 / 61.6, 1e-9);
    CUTEST_NEAR(w.slope_excursion, 4.8 / 61.6, 1e-9);
    /* the line through rounds 4..8: 61.6 at round 6, so 61.6 + 1.2 * 6 at 0 */
    CUTEST_NEAR(w.intercept, 68.8, 1e-9);
    /* rounds 3-7 fail on the slope alone */
    steady_judge(y + 2, 5, 3, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &w);
    CU_ASSERT(!w.steady);
    CUTEST_NEAR(w.excursion, 10 / 63.6, 1e-9);
    CUTEST_NEAR(w.slope_excursion, 9.6 / 63.6, 1e-9);
    /* before five rounds there is no window */
    CUTEST_EQ(steady_first(y, 4, STEADY_WINDOW, &w), 0);
    CU_ASSERT(!w.steady);
}

/* Oscillations. 100 60 100 60 ...: every window holds both values, range
 * 40 over an average of 84 or 76 (47.6%, 52.6%): never steady. 100 90 100
 * 90 100: avg 96, range 10 = 10.4%; deviations 4 -6 4 -6 4, sxy = -8 + 6
 * - 6 + 8 = 0, flat: steady at round 5. */
static void test_oscillating(void)
{
    double big[25], small[] = {100, 90, 100, 90, 100, 90};
    for (int i = 0; i < 25; i++)
        big[i] = i % 2 ? 60 : 100;
    SteadyWindow w;
    CUTEST_EQ(steady_first(big, 25, STEADY_WINDOW, &w), 0);
    CU_ASSERT(!w.steady);
    CUTEST_EQ(w.last, 25);                     /* the last window judged */
    CUTEST_NEAR(w.excursion, 40.0 / 84, 1e-9); /* rounds 21-25: 100 60 100 60 100 */
    CUTEST_EQ(steady_first(small, 6, STEADY_WINDOW, &w), 5);
    CUTEST_NEAR(w.avg, 96, 1e-9);
    CUTEST_NEAR(w.slope, 0, 1e-12);
}

/* Drift. A 5% fall per round (y_k = 100 x 0.95^k) looks the same in every
 * window: range 1 - 0.95^4 = 0.1855 of the first value over an average of
 * 0.9049 of it = 20.5%; deviations .0951 .0451 -.0024 -.0475 -.0904, sxy
 * = -.4636, line range 4 x .04636 / .9049 = 20.5%: never steady.
 * A climb of 3 per round from 100: rounds 1-5 average 106, range and line
 * range both 12 = 11.3% (range passes, slope fails); the line range stays
 * 12 while the average grows by 3 a window, so the first window with
 * 12 / avg <= 10% is the one averaging 121 (rounds 6-10, 9.9%). */
static void test_drifting(void)
{
    double fall[25], climb[25];
    fall[0] = 100;
    for (int i = 1; i < 25; i++)
        fall[i] = fall[i - 1] * 0.95;
    for (int i = 0; i < 25; i++)
        climb[i] = 100 + 3 * i;
    SteadyWindow w;
    CUTEST_EQ(steady_first(fall, 25, STEADY_WINDOW, &w), 0);
    CUTEST_NEAR(w.excursion, 0.18549375 / 0.904876, 1e-5);
    CUTEST_NEAR(w.slope_excursion, 0.185445 / 0.904876, 1e-4);
    steady_judge(climb, 5, 1, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &w);
    CU_ASSERT(!w.steady);
    CUTEST_NEAR(w.excursion, 12.0 / 106, 1e-9);
    CUTEST_NEAR(w.slope_excursion, 12.0 / 106, 1e-9);
    CUTEST_NEAR(w.slope, 3, 1e-9);
    CUTEST_EQ(steady_first(climb, 25, STEADY_WINDOW, &w), 10);
    CUTEST_NEAR(w.avg, 121, 1e-9);
}

/* At the limits. 90 110 90 110 100: avg 100, range 20 = 20% exactly;
 * deviations -10 10 -10 10 0, sxy = 20 - 10 + 10 = 20, slope 2, line range
 * 8%: steady (the PTS says "no more than"). 89 110 90 110 100: avg 99.8,
 * range 21 = 21.04%: not. A zero average is never steady. */
static void test_limits(void)
{
    const double at[] = {90, 110, 90, 110, 100}, past[] = {89, 110, 90, 110, 100};
    const double zero[] = {0, 0, 0, 0, 0};
    SteadyWindow w;
    steady_judge(at, 5, 1, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &w);
    CU_ASSERT(w.steady);
    CUTEST_NEAR(w.slope, 2, 1e-9);
    steady_judge(past, 5, 1, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, &w);
    CU_ASSERT(!w.steady);
    CUTEST_NEAR(w.excursion, 21 / 99.8, 1e-9);
    CUTEST_EQ(steady_first(zero, 5, STEADY_WINDOW, &w), 0);
}

/* The trend of WSAT's IOPS against TB written, by hand:
 *   x 1 2 3 4 5, y 100 95 90 85 80: mean 90, slope -5 per TB, change over
 *   the 4 TB spanned -20 = -22.2%: falling, not flat;
 *   y 100 99 101 100 100: deviations 0 -1 1 0 0 against x -2..2, sxy 1,
 *   sxx 10, slope 0.1, change 0.4 / 100 = 0.4%: flat;
 *   one point, or x all equal: no slope, not flat. Unequal spacing: x 0 1 3,
 *   y 10 8 4 lie on y = 10 - 2x exactly. */
static void test_trend(void)
{
    const double x[] = {1, 2, 3, 4, 5};
    const double fall[] = {100, 95, 90, 85, 80}, level[] = {100, 99, 101, 100, 100};
    SteadyTrend t;
    steady_trend(x, fall, 5, STEADY_TREND_MAX_CHANGE, &t);
    CUTEST_NEAR(t.mean, 90, 1e-9);
    CUTEST_NEAR(t.slope, -5, 1e-9);
    CUTEST_NEAR(t.intercept, 105, 1e-9);
    CUTEST_NEAR(t.change, -20.0 / 90, 1e-9);
    CU_ASSERT_FALSE(t.flat);
    steady_trend(x, level, 5, STEADY_TREND_MAX_CHANGE, &t);
    CUTEST_NEAR(t.slope, 0.1, 1e-9);
    CUTEST_NEAR(t.change, 0.004, 1e-9);
    CU_ASSERT_TRUE(t.flat);
    steady_trend(x, fall, 5, 0.25, &t); /* within a wider limit */
    CU_ASSERT_TRUE(t.flat);
    steady_trend(x, fall, 1, STEADY_TREND_MAX_CHANGE, &t);
    CUTEST_EQ(t.n, 1);
    CUTEST_NEAR(t.mean, 100, 1e-9);
    CU_ASSERT_FALSE(t.flat);
    const double same[] = {2, 2, 2};
    steady_trend(same, fall, 3, STEADY_TREND_MAX_CHANGE, &t);
    CUTEST_NEAR(t.slope, 0, 1e-9);
    CU_ASSERT_FALSE(t.flat);
    const double xs[] = {0, 1, 3}, ys[] = {10, 8, 4};
    steady_trend(xs, ys, 3, STEADY_TREND_MAX_CHANGE, &t);
    CUTEST_NEAR(t.slope, -2, 1e-9);
    CUTEST_NEAR(t.intercept, 10, 1e-9);
    CUTEST_NEAR(t.x_first, 0, 1e-12);
    CUTEST_NEAR(t.x_last, 3, 1e-12);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"converging", test_converging},
        {"oscillating", test_oscillating},
        {"drifting", test_drifting},
        {"limits", test_limits},
        {"trend", test_trend},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("steady", tests);
}
