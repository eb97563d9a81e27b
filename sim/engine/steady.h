/*
 * steady.h - the SNIA PTS steady-state test over a series of rounds.
 *
 * The PTS (Enterprise and Client) calls a tracking variable steady over a
 * measurement window of 5 rounds when the values' range (max - min) is at
 * most 20% of their average and the range of their least-squares line over
 * the window (|slope| x (rounds - 1)) is at most 10% of it. Pure functions
 * over an array: no state, no allocation.
 */
#ifndef FTLSIM_STEADY_H
#define FTLSIM_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define STEADY_WINDOW 5           /* rounds in the PTS measurement window */
#define STEADY_MAX_EXCURSION 0.20 /* data range / window average */
#define STEADY_MAX_SLOPE 0.10     /* fitted line's range / window average */

/* The verdict on one window. */
typedef struct SteadyWindow {
    size_t first, last;     /* 1-based rounds of the window */
    double avg;             /* mean of the window's values */
    double excursion;       /* (max - min) / avg */
    double slope;           /* least-squares slope, value units per round */
    double intercept;       /* the line's value at round 0 */
    double slope_excursion; /* |slope| x (rounds - 1) / avg */
    bool steady;            /* both within their limits (and avg > 0) */
} SteadyWindow;

/* Judge the n values y[0..n-1], taken at rounds first .. first + n - 1,
 * against the PTS limits (max_excursion, max_slope as shares of the
 * average; STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE for the PTS). n >= 2. */
void steady_judge(const double *y, size_t n, size_t first, double max_excursion, double max_slope,
                  SteadyWindow *w);

/* The first round r (1-based) at which the window of `window` rounds
 * ending at r is steady, judging y[0..n-1] (round k is y[k-1]) with the PTS
 * limits; 0 when no window is. *w (may be NULL) gets that window, or the
 * last window judged when none is steady (w->steady false; all zero when
 * n < window). */
size_t steady_first(const double *y, size_t n, size_t window, SteadyWindow *w);

/* What is reported when no window was steady: the last rounds of
 * y[0..n-1], up to `window` of them, judged and marked not steady; with
 * fewer than two rounds, round 1 alone (its value the average; 0 with
 * none). */
void steady_last(const double *y, size_t n, size_t window, SteadyWindow *w);

/* A least-squares line of y against x over a series that is not judged
 * by windows (WSAT: IOPS against TB written): its mean, slope, and change
 * over the series' span as a share of the mean, which is flat when
 * within max_change either way. */
#define STEADY_TREND_MAX_CHANGE 0.10
typedef struct SteadyTrend {
    size_t n;            /* points */
    double x_first, x_last;
    double mean;         /* of y */
    double slope;        /* y units per x unit */
    double intercept;    /* the line at x = 0 */
    double change;       /* slope x (x_last - x_first) / mean; 0 when mean <= 0 */
    bool flat;           /* |change| <= max_change, mean > 0 and n >= 2 */
} SteadyTrend;

/* The trend of the n points (x[i], y[i]); x increasing. With n < 2 or all x
 * equal the slope is 0 and the trend not flat. */
void steady_trend(const double *x, const double *y, size_t n, double max_change, SteadyTrend *t);

#endif
