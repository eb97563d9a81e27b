/*
 * steady.c - the SNIA PTS steady-state test (see steady.h).
 *
 * "No more than" in the PTS reads as <=; a relative slack of 1e-9 keeps a
 * window exactly at a limit (values 90 and 110 around 100) on the steady
 * side despite rounding.
 */
#include "sim/engine/steady.h"

#include <math.h>
#include <string.h>

#define STEADY_SLACK 1e-9

void steady_judge(const double *y, size_t n, size_t first, double max_excursion, double max_slope,
                  SteadyWindow *w)
{
    memset(w, 0, sizeof(*w));
    w->first = first;
    w->last = first + (n ? n - 1 : 0);
    if (n < 2)
        return;
    double sum = 0, lo = y[0], hi = y[0];
    for (size_t i = 0; i < n; i++) {
        sum += y[i];
        lo = fmin(lo, y[i]);
        hi = fmax(hi, y[i]);
    }
    double avg = sum / (double)n;
    /* least squares on x = first .. first + n - 1 */
    double xm = (double)first + (double)(n - 1) / 2.0, sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        double dx = (double)(first + i) - xm;
        sxy += dx * (y[i] - avg);
        sxx += dx * dx;
    }
    w->avg = avg;
    w->slope = sxy / sxx;
    w->intercept = avg - w->slope * xm;
    if (!(avg > 0))
        return;
    w->excursion = (hi - lo) / avg;
    w->slope_excursion = fabs(w->slope) * (double)(n - 1) / avg;
    w->steady = w->excursion <= max_excursion * (1 + STEADY_SLACK) &&
                w->slope_excursion <= max_slope * (1 + STEADY_SLACK);
}

size_t steady_first(const double *y, size_t n, size_t window, SteadyWindow *w)
{
    SteadyWindow tmp;
    if (!w)
        w = &tmp;
    memset(w, 0, sizeof(*w));
    if (window < 2 || n < window)
        return 0;
    for (size_t r = window; r <= n; r++) {
        steady_judge(y + r - window, window, r - window + 1, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE,
                     w);
        if (w->steady)
            return r;
    }
    return 0;
}

void steady_last(const double *y, size_t n, size_t window, SteadyWindow *w)
{
    size_t k = n < window ? n : window;
    if (k >= 2)
        steady_judge(y + n - k, k, n - k + 1, STEADY_MAX_EXCURSION, STEADY_MAX_SLOPE, w);
    else
        *w = (SteadyWindow){.first = 1, .last = 1, .avg = n ? y[0] : 0};
    w->steady = false;
}

void steady_trend(const double *x, const double *y, size_t n, double max_change, SteadyTrend *t)
{
    memset(t, 0, sizeof(*t));
    t->n = n;
    if (n == 0)
        return;
    t->x_first = x[0];
    t->x_last = x[n - 1];
    double xm = 0, ym = 0;
    for (size_t i = 0; i < n; i++) {
        xm += x[i];
        ym += y[i];
    }
    xm /= (double)n;
    ym /= (double)n;
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += (x[i] - xm) * (y[i] - ym);
        sxx += (x[i] - xm) * (x[i] - xm);
    }
    t->mean = ym;
    t->slope = sxx > 0 ? sxy / sxx : 0;
    t->intercept = ym - t->slope * xm;
    if (n < 2 || !(sxx > 0) || !(ym > 0))
        return;
    t->change = t->slope * (t->x_last - t->x_first) / ym;
    t->flat = fabs(t->change) <= max_change;
}
