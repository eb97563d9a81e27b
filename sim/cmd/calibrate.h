/*
 * calibrate.h - fit a drive's unknown parameters to a measured curve and
 * figures (ftlsim calibrate; docs/calibration.md).
 *
 * Every evaluation is one simulation of the user's workload with the fitted
 * keys as --set overrides, run in a child process, up to jobs at once. The
 * loss is the normalised RMSE of the curve squared plus the weighted squared
 * relative errors of the figures; GSL's Nelder-Mead simplex (nmsimplex2)
 * minimises it over the keys' ranges through a sin^2 map onto [LO, HI].
 */
#ifndef FTLSIM_CALIBRATE_H
#define FTLSIM_CALIBRATE_H

#include "sim/cmd/run.h"

typedef struct CalibOptions {
    RunOptions run;             /* drive, workload, seed, --set, out, force, quiet */
    const char *plan;           /* --plan FILE: runs on several drives, fit and check, or NULL */
    const char *curve;          /* --curve CSV, or NULL */
    const char *const *figures; /* --figure ID=VALUE[:WEIGHT] (NULL-terminated), or NULL */
    const char *const *fits;    /* --fit GROUP.KEY=LO..HI (NULL-terminated) */
    guint jobs;                 /* simulations at once (child processes) */
    guint max_evals;            /* simulations the search may run (0: the default) */
    guint starts; /* spread start points besides the config's own (G_MAXUINT: default) */
} CalibOptions;

#define CALIB_DEFAULT_MAX_EVALS 60

void calib_options_init(CalibOptions *o);

/* Calibrate: check every input, run the search, write o->run.out
 * (calibrated.ini, fit.json, curves.csv, fit.png). Bad input (also a
 * figure or curve point the stock run does not yield) is RUN_ERROR_INPUT
 * and leaves nothing in the folder. */
gboolean run_calibration(const CalibOptions *o, GError **error);

#endif
