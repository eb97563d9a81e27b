/*
 * calibrate_priv.h - what calibrate.c (the search) hands calibrate_out.c
 * (the results folder). Internal to sim/cmd/calibrate*.c.
 */
#ifndef FTLSIM_CALIBRATE_PRIV_H
#define FTLSIM_CALIBRATE_PRIV_H

#include "sim/cmd/calibrate.h"
#include "sim/cmd/session.h"
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

/* One run of a calibration: a drive, its workload and the figures measured
 * on it. The command line's --drive and --workload are one fit run; a plan
 * (--plan FILE) lists several, each fit or check. */
typedef struct CalRun {
    char *name;     /* [run NAME] of the plan; "" for the command line's run */
    RunOptions ro;  /* drive, workload or job, --set overrides, prefill, seed */
    gboolean check; /* role = check: run at the stock and calibrated points only, and
                     * never in the loss */
    guint f0, nf;   /* its figures: c->fig[f0 .. f0 + nf) (fit) or c->chk[...] (check) */
} CalRun;

/* One point of the search: its values, and the residuals its runs gave. */
typedef struct CalPoint {
    double *theta; /* base units, one a parameter */
    char *label;   /* the --set overrides of the point, joined */
    GStrv sets;    /* the point's overrides (each run's own --set go first) */
    char *spec;    /* the workload with the point's workload keys, or NULL: o->run.spec */
    GStrv envs;    /* "NAME=VALUE" of the point's env.NAME keys, as ${NAME} reads them */
    gboolean done;
    gboolean ok;   /* every fit run ran and the point has a loss */
    guint left;    /* runs of the batch under way not collected yet */
    GError *error; /* why not */
    double loss;
    double *res;  /* residuals: curve points, then figures */
    double *sim;  /* the simulated curve values (NAN: not covered) */
    double *figs; /* the simulated figures */
    gboolean *fig_ok;
    double *chk;     /* the check runs' figures (stock and calibrated points only) */
    gboolean *chk_ok;
    char *chk_error; /* why a check run gave nothing, or NULL */
} CalPoint;

typedef struct Cal {
    const CalibOptions *o;
    CalParam *p;
    guint np;
    Curve *curve; /* or NULL */
    Figure *fig;       /* the fit runs' figures, run by run */
    guint nf;
    Figure *chk;       /* the check runs' figures: reported, never in the loss */
    guint nchk;
    char **fig_src;    /* per figure of fig, then of chk: the measurement's id in the plan
                        * (R1.3b), or NULL */
    CalRun *runs;      /* the runs, in the plan's order (one without a plan) */
    guint nruns;
    const char *target; /* the file calibrated.ini is a copy of: the drive, or the plan's
                         * family file */
    struct CalPlan *plan; /* --plan FILE, or NULL */
    GStrv fits;           /* a plan's: --fit, then its [fit] group (o->fits points here) */
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
    Session *ses;         /* the signal, the results folder (not owned) */
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

/* ---- Evaluations (calibrate_eval.c) ---- */

void cal_point_free(CalPoint *pt);
/* Run the points (distinct, not done) on every fit run, or (check) on
 * every check run, o->jobs simulations at a time in child processes; a fit
 * batch gives each point its loss and shows it. */
void cal_run_on(Cal *c, CalPoint **pts, guint k, gboolean check);
/* Evaluate k points at once (NULL theta: the stock run) into out: each
 * from the cache, or run. */
void cal_eval(Cal *c, double *const *thetas, guint k, CalPoint **out);
/* The loss of one point, INFINITY when a run failed. */
double cal_eval_one(Cal *c, const double *theta);

/* ---- Plans (calibrate_plan.c) ---- */

typedef struct CalPlan CalPlan;

/* Read the plan file o->plan into c: its runs (c->runs), their figures
 * (c->fig, c->chk, c->fig_src) and the fitted keys of its [fit] group
 * after o->fits (*fits, NULL-terminated; g_strfreev it). Bad input is
 * RUN_ERROR_INPUT naming the file and group/key. */
gboolean cal_plan_load(Cal *c, GStrv *fits, GError **error);
void cal_plan_free(CalPlan *plan);
/* The run a figure of c->fig (check FALSE) or c->chk (TRUE) belongs to. */
const CalRun *cal_fig_run(const Cal *c, guint i, gboolean check);

/* The results folder: calibrated.ini, fit.json, curves.csv, fit.png. */
gboolean cal_write_results(Cal *c, GError **error);

#endif
