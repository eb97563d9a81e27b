/*
 * calibrate_priv.h - what calibrate.c (the search) hands calibrate_out.c
 * (the results folder). Internal to sim/cmd/calibrate*.c.
 */
#ifndef FTLSIM_CALIBRATE_PRIV_H
#define FTLSIM_CALIBRATE_PRIV_H

#include "sim/cmd/calibrate.h"
#include "sim/config/config.h"
#include "sim/config/config_units.h"
#include "sim/output/curve.h"
#include "sim/output/figure.h"

/* One fitted key and what the search learnt about it. */
typedef struct CalParam {
    char *name;         /* GROUP.KEY */
    ConfigNumKey k;     /* kind, schema range, the config's value */
    double lo, hi;      /* --fit range, base units */
    gboolean workload;  /* a host-tool key of the workload (workload.thinktime, env.NAME), not
                         * the drive's */
    gboolean env;       /* env.NAME: the environment variable k.key, read by ${NAME} in a job file */
    double fitted;      /* at the optimum, base units */
    double sensitivity; /* |change of the residual vector| per 1% change */
    gboolean flat;      /* sensitivity below CAL_FLAT */
    int correlated;     /* index of a parameter it is confounded with, or -1 */
    double corr;        /* that correlation */
    double combo;       /* confounded: the data fix combo * this + that one (base units), not
                         * each; 1: their sum */
    double sigma;       /* uncertainty of fitted, base units, from the loss's curvature; NAN:
                         * none (flat, or no curvature) */
    gboolean sigma_second; /* sigma from the second difference of the loss (else from the
                            * Jacobian, at a bound) */
} CalParam;

/* One simulation: its point, and the residuals it gave. */
typedef struct CalPoint {
    double *theta; /* base units, one a parameter */
    char *label;   /* the --set overrides of the point, joined */
    GStrv sets;    /* o->run.sets followed by the point's overrides */
    char *spec;    /* the workload with the point's workload keys, or NULL: o->run.spec */
    GStrv envs;    /* "NAME=VALUE" of the point's env.NAME keys, as ${NAME} reads them */
    gboolean done;
    gboolean ok;   /* ran and gave a loss */
    GError *error; /* why not */
    double loss;
    double *res;  /* residuals: curve points, then figures */
    double *sim;  /* the simulated curve values (NAN: not covered) */
    double *figs; /* the simulated figures */
    gboolean *fig_ok;
    RunTrace *trace; /* kept for the stock and the best point only */
} CalPoint;

typedef struct Cal {
    const CalibOptions *o;
    CalParam *p;
    guint np;
    Curve *curve; /* or NULL */
    Figure *fig;
    guint nf;
    guint nres;        /* residuals: curve points + figures */
    GPtrArray *points; /* CalPoint *, in the order run */
    GHashTable *cache; /* label -> CalPoint * */
    CalPoint *stock, *best;
    char *scratch;    /* folder of the runs in progress */
    guint sims;       /* simulations run */
    guint launched;   /* child processes started */
    gint64 wall0;     /* us, monotonic */
    GString *pending; /* progress lines held until the stock run passed */
    guint nm_iters;
    gboolean converged;
    gboolean interrupted; /* SIGINT, SIGTERM or SIGHUP: the best point so far, not judged */
} Cal;

/* A parameter is flat when 1% of it moves the residuals by less than this. */
#define CAL_FLAT 1e-4
/* Two parameters are confounded above this |correlation|. */
#define CAL_CORR 0.95

/* The loss of a 1% miss on one figure of weight 1 (or a 1% NRMSE on the
 * curve): the least rise of the loss an uncertainty is measured by. */
#define CAL_LOSS_1PCT 1e-4

/* p's uncertainty with three significant digits and an SI prefix
 * ("393MB", "131us"): a spread, not a value for the config file. */
void cal_format_sigma(const CalParam *p, char *buf, size_t size);

/* How a key is determined, in words: "determined", "not determined: ...",
 * "only their sum with B is determined" ... g_free it. */
char *cal_identity_words(const Cal *c, const CalParam *p);

/* The results folder: calibrated.ini, fit.json, curves.csv, fit.png. */
gboolean cal_write_results(Cal *c, GError **error);

#endif
