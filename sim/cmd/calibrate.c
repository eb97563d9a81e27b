/*
 * calibrate.c - the search of ftlsim calibrate: inputs, GSL's Nelder-Mead
 * simplex over the evaluations (calibrate_eval.c), the check runs after it,
 * and identifiability from the Jacobian of the residuals at the optimum
 * (docs/calibration.md).
 */
#include "sim/cmd/calibrate_priv.h"

#include <glib/gstdio.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <string.h>

#define CAL_STEP 0.12     /* initial simplex step, radians of the sin^2 map */
#define CAL_TOL 1e-3      /* simplex size (radians) at which the search stops */
#define CAL_REL_STEP 0.02 /* relative step of the finite differences */
#define CAL_IDLE_STEPS 25 /* simplex steps without a new simulation that end the search */

void calib_options_init(CalibOptions *o)
{
    memset(o, 0, sizeof *o);
    run_options_init(&o->run);
    o->jobs = 1;
    o->starts = G_MAXUINT;
}

static gboolean cal_bad(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean cal_bad(GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, RUN_ERROR, RUN_ERROR_INPUT, msg);
    return FALSE;
}

/* ---- Inputs ---------------------------------------------------------------- */

/* Whether text is a plain number other than 0 with no unit. */
static gboolean cal_bare(const char *text)
{
    while (*text == ' ')
        text++;
    gboolean digits = FALSE, nonzero = FALSE;
    for (; g_ascii_isdigit(*text) || *text == '.'; text++) {
        digits |= g_ascii_isdigit(*text);
        nonzero |= g_ascii_isdigit(*text) && *text != '0';
    }
    while (*text == ' ')
        text++;
    return digits && nonzero && *text == '\0';
}

/* LO and HI of a range, parsed into p->lo and p->hi: LO below HI, and
 * with a unit where the key has one (a bare 20 of a size is 20 bytes,
 * of a percentage 2000%: never what was meant). example is a range of
 * the kind, for the messages. */
static gboolean cal_range_checks(const char *spec, const char *lo, const char *hi,
                                 const CalParam *p, const char *example, GError **error)
{
    const char *bare = cal_bare(lo) ? lo : cal_bare(hi) ? hi : NULL;
    if (bare && p->k.kind == CONFIG_NUM_BYTES)
        return cal_bad(error,
                       "--fit \"%s\": found \"%s\" without a unit, expected sizes with units "
                       "such as %s (a bare number would be bytes)",
                       spec, bare, example);
    if (bare && p->k.kind == CONFIG_NUM_FRACTION && (p->lo > 1 || p->hi > 1))
        return cal_bad(error,
                       "--fit \"%s\": found \"%s\" without %%, expected percentages such as "
                       "20%%..60%% (or fractions 0.2..0.6)",
                       spec, bare);
    gboolean host = g_str_has_prefix(p->name, "workload.") || g_str_has_prefix(p->name, "env.");
    if (p->lo == p->hi && host)
        return cal_bad(error,
                       "--fit \"%s\": LO is not below HI (both are %s), a range of one value; "
                       "expected a wider range such as %s, or the value in the workload itself",
                       spec, lo, example);
    if (p->lo == p->hi)
        return cal_bad(error,
                       "--fit \"%s\": LO is not below HI (both are %s), a range of one value; "
                       "expected a wider range such as %s, or --set %s=%s to hold the key fixed",
                       spec, lo, example, p->name, lo);
    if (!(p->lo < p->hi))
        return cal_bad(error, "--fit \"%s\": LO is not below HI; expected a range such as %s..%s",
                       spec, hi, lo);
    return TRUE;
}

/* "workload.thinktime=LO..HI": the host tool's pause after each command
 * completes (fio's thinktime), added to every phase of an inline workload
 * that does I/O. The stock value is the workload's own (none). */
static gboolean cal_parse_workload_fit(const CalibOptions *o, const char *spec, const char *eq,
                                       const char *dots, CalParam *p, GError **error)
{
    if (strcmp(p->name, "workload.thinktime") != 0)
        return cal_bad(error,
                       "--fit \"%s\": unknown workload key; expected workload.thinktime "
                       "(the host's pause after each command)",
                       spec);
    if (!o->run.spec)
        return cal_bad(error, "--fit \"%s\": a workload key needs an inline --workload", spec);
    p->workload = TRUE;
    p->k.kind = CONFIG_NUM_NS;
    g_strlcpy(p->k.group, "workload", sizeof p->k.group);
    g_strlcpy(p->k.key, "thinktime", sizeof p->k.key);
    g_autofree char *lo = g_strndup(eq + 1, (gsize)(dots - eq - 1));
    if (!*lo || !dots[2])
        return cal_bad(error, "--fit \"%s\": empty range; expected LO..HI", spec);
    if (!config_numeric_parse(CONFIG_NUM_NS, lo, &p->lo) ||
        !config_numeric_parse(CONFIG_NUM_NS, dots + 2, &p->hi))
        return cal_bad(error,
                       "--fit \"%s\": found \"%s..%s\", expected two times such as "
                       "100us..2ms",
                       spec, lo, dots + 2);
    return cal_range_checks(spec, lo, dots + 2, p, "100us..2ms", error);
}

/* "env.NAME=LO..HI": a host-tool parameter of a job file, which reads it as
 * ${NAME} (the profiles in tools/): a time (a per-command host cost for thinktime) or a
 * bandwidth (a host cap for rate). The stock value is the environment's, or
 * 0 (no cost, no cap) when NAME is unset. */
static gboolean cal_parse_env_fit(const char *spec, const char *eq, const char *dots,
                                  CalParam *p, GError **error)
{
    const char *name = p->name + 4;
    gboolean ok = g_ascii_isalpha(*name) || *name == '_';
    for (const char *q = name; ok && *q; q++)
        ok = g_ascii_isalnum(*q) || *q == '_';
    if (!ok || strlen(name) >= sizeof p->k.key)
        return cal_bad(error,
                       "--fit \"%s\": found \"%s\", expected env.NAME with NAME a variable "
                       "name such as H2TESTW_THINKTIME",
                       spec, name);
    g_autofree char *lo = g_strndup(eq + 1, (gsize)(dots - eq - 1));
    const char *hi = dots + 2;
    if (!*lo || !*hi)
        return cal_bad(error, "--fit \"%s\": empty range; expected LO..HI", spec);
    static const ConfigNumKind kinds[] = {CONFIG_NUM_NS, CONFIG_NUM_BYTES_PER_S};
    ok = FALSE;
    for (guint i = 0; !ok && i < G_N_ELEMENTS(kinds); i++) {
        p->k.kind = kinds[i];
        ok = config_numeric_parse(p->k.kind, lo, &p->lo) &&
             config_numeric_parse(p->k.kind, hi, &p->hi);
    }
    if (!ok)
        return cal_bad(error,
                       "--fit \"%s\": found \"%s..%s\", expected two times (100us..2ms) or two "
                       "bandwidths (500MB/s..3GB/s)",
                       spec, lo, hi);
    if (!cal_range_checks(spec, lo, hi, p,
                          p->k.kind == CONFIG_NUM_NS ? "100us..2ms" : "500MB/s..3GB/s", error))
        return FALSE;
    p->workload = p->env = TRUE;
    g_strlcpy(p->k.group, "env", sizeof p->k.group);
    g_strlcpy(p->k.key, name, sizeof p->k.key);
    const char *now = g_getenv(name);
    p->k.value = 0;
    if (now && !config_numeric_parse(p->k.kind, now, &p->k.value))
        return cal_bad(error, "--fit \"%s\": the environment has %s=\"%s\", expected a value "
                       "of the range's kind",
                       spec, name, now);
    return TRUE;
}

/* The drive of run r loads with p at both ends of its range, and (in a
 * plan) has p's stock value: a key fitted for several drives is one they
 * share. */
static gboolean cal_fit_loads(const Cal *c, const CalRun *r, const char *spec, const CalParam *p,
                              GError **error)
{
    GError *e = NULL;
    const char *in = c->plan ? r->ro.drive : "the drive";
    for (int end = 0; end < 2; end++) {
        char v[CONFIG_VALUE_LEN];
        config_numeric_format(p->k.kind, end ? p->hi : p->lo, v, sizeof v);
        g_autofree char *set = g_strdup_printf("%s=%s", p->name, v);
        GPtrArray *a = g_ptr_array_new();
        for (guint i = 0; r->ro.sets && r->ro.sets[i]; i++)
            g_ptr_array_add(a, (gpointer)r->ro.sets[i]);
        g_ptr_array_add(a, set);
        g_ptr_array_add(a, NULL);
        DriveParams scratch;
        gboolean ok =
            config_load_file_set(r->ro.drive, (const char *const *)a->pdata, &scratch, &e);
        g_ptr_array_free(a, TRUE);
        if (!ok) {
            cal_bad(error, "--fit \"%s\": %s does not load at %s: %s", spec, in, v, e->message);
            g_error_free(e);
            return FALSE;
        }
    }
    DriveParams dp;
    ConfigNumKey k;
    if (!c->plan || !config_load_file_set(r->ro.drive, r->ro.sets, &dp, NULL) ||
        !config_numeric_key(p->name, &dp, &k, NULL) || k.value == p->k.value)
        return TRUE;
    char a[CONFIG_VALUE_LEN], b[CONFIG_VALUE_LEN];
    config_numeric_format(p->k.kind, k.value, a, sizeof a);
    config_numeric_format(p->k.kind, p->k.value, b, sizeof b);
    return cal_bad(error,
                   "--fit \"%s\": run %s's drive %s has %s, the first run's %s; expected a key "
                   "the plan's drives share (one value)",
                   spec, r->name, r->ro.drive, a, b);
}

/* "GROUP.KEY=LO..HI" into p: a numeric key, LO < HI in its units, both
 * accepted by every run's drive file. */
static gboolean cal_parse_fit(const Cal *c, const DriveParams *dp, const char *spec,
                              CalParam *p, GError **error)
{
    const CalibOptions *o = c->o;
    const char *eq = strchr(spec, '=');
    const char *dots = eq ? strstr(eq, "..") : NULL;
    if (!eq || !dots)
        return cal_bad(error,
                       "--fit \"%s\": expected GROUP.KEY=LO..HI, e.g. "
                       "pslc.dynamic_cap=20GB..60GB",
                       spec);
    p->name = g_strndup(spec, (gsize)(eq - spec));
    GError *e = NULL;
    p->correlated = -1;
    if (g_str_has_prefix(p->name, "workload."))
        return cal_parse_workload_fit(o, spec, eq, dots, p, error);
    if (g_str_has_prefix(p->name, "env."))
        return cal_parse_env_fit(spec, eq, dots, p, error);
    if (!config_numeric_key(p->name, dp, &p->k, &e)) {
        cal_bad(error, "--fit %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    g_autofree char *lo = g_strndup(eq + 1, (gsize)(dots - eq - 1));
    const char *hi = dots + 2;
    if (!*lo || !*hi)
        return cal_bad(error, "--fit \"%s\": empty range; expected LO..HI", spec);
    if (!config_numeric_parse(p->k.kind, lo, &p->lo) ||
        !config_numeric_parse(p->k.kind, hi, &p->hi))
        return cal_bad(error,
                       "--fit \"%s\": found \"%s..%s\", expected two values of the key's "
                       "kind (%s)",
                       spec, lo, hi, config_numeric_si_unit(p->k.kind));
    static const char *const examples[] = {"20GB..60GB", "1ms..3ms", "400MT/s..800MT/s",
                                           "500MB/s..3GB/s", "20%..60%", "2..40"};
    if (!cal_range_checks(spec, lo, hi, p, examples[p->k.kind], error))
        return FALSE;
    for (guint r = 0; r < c->nruns; r++)
        if (!cal_fit_loads(c, &c->runs[r], spec, p, error))
            return FALSE;
    p->correlated = -1;
    return TRUE;
}

/* A results folder the session would refuse, before hours of work. */
static gboolean cal_check_out(const CalibOptions *o, GError **error)
{
    if (!o->run.out)
        return cal_bad(error, "calibrate needs --out DIR");
    return outdir_check(o->run.out, o->run.force, error);
}

/* A figure at more GB than the workload writes can never be yielded
 * (cliff_gb=142 of a 64 GB workload would "fit" with no cliff at all):
 * refused before any run. A workload that does not load here (a job
 * file's ${NAME} the fits set) is left to the runs to report. */
static gboolean cal_check_reach(const Cal *c, const CalRun *r, GError **error)
{
    DriveParams dp;
    if (!config_load_file_set(r->ro.drive, r->ro.sets, &dp, error))
        return FALSE;
    g_autoptr(Workload) w = r->ro.spec  ? workload_from_spec(r->ro.spec, NULL)
                            : r->ro.job ? workload_from_jobfile(r->ro.job, NULL)
                                        : NULL;
    if (!w)
        return TRUE;
    uint64_t most = run_write_bytes(w, dp.user_capacity);
    if (most == UINT64_MAX)
        return TRUE;
    const Figure *figs = r->check ? c->chk : c->fig;
    for (guint i = r->f0; i < r->f0 + r->nf; i++) {
        const Figure *f = &figs[i];
        double gb = f->kind == FIG_CLIFF_GB ? f->value : f->kind == FIG_RATE_GB ? f->b : 0;
        if (gb * 1e9 > (double)most)
            return cal_bad(error,
                           "%s%s%s--figure %s: found %g GB, beyond the %.3g GB the workload "
                           "writes at most; expected a figure within the workload (or a longer "
                           "workload)",
                           c->plan ? "run " : "", r->name, c->plan ? ": " : "", f->id, gb,
                           (double)most / 1e9);
    }
    return TRUE;
}

/* The command line's drive, workload and figures as the one fit run. */
static gboolean cal_single_run(Cal *c, GError **error)
{
    const CalibOptions *o = c->o;
    if (!o->run.drive)
        return cal_bad(error, "calibrate needs --drive FILE (or --plan FILE)");
    c->nf = o->figures ? g_strv_length((GStrv)o->figures) : 0;
    c->fig = g_new0(Figure, c->nf + 1);
    c->fig_src = g_new0(char *, c->nf + 1);
    for (guint i = 0; i < c->nf; i++) {
        GError *e = NULL;
        if (!figure_parse(o->figures[i], &c->fig[i], &e)) {
            cal_bad(error, "%s", e->message);
            g_error_free(e);
            return FALSE;
        }
    }
    c->nruns = 1;
    c->runs = g_new0(CalRun, 1);
    c->runs[0] = (CalRun){.name = (char *)"", .ro = o->run, .nf = c->nf};
    c->target = o->run.drive;
    return TRUE;
}

static gboolean cal_inputs(Cal *c, GError **error)
{
    CalibOptions *o = (CalibOptions *)c->o; /* run_calibration's own copy */
    DriveParams dp;
    if (o->plan) {
        g_auto(GStrv) fits = NULL;
        if (!cal_plan_load(c, &fits, error))
            return FALSE;
        c->fits = g_steal_pointer(&fits);
        o->fits = (const char *const *)c->fits;
    } else if (!cal_single_run(c, error)) {
        return FALSE;
    }
    if (!config_load_file_set(c->runs[0].ro.drive, c->runs[0].ro.sets, &dp, error))
        return FALSE;
    c->np = o->fits ? g_strv_length((GStrv)o->fits) : 0;
    if (c->np == 0)
        return cal_bad(error, "calibrate needs at least one --fit GROUP.KEY=LO..HI%s",
                       o->plan ? " (or a [fit] group in the plan)" : "");
    c->p = g_new0(CalParam, c->np);
    for (guint i = 0; i < c->np; i++) {
        if (!cal_parse_fit(c, &dp, o->fits[i], &c->p[i], error))
            return FALSE;
        for (guint j = 0; j < i; j++)
            if (strcmp(c->p[i].name, c->p[j].name) == 0)
                return cal_bad(error, "--fit %s: the key is given twice", c->p[i].name);
        for (guint r = 0; r < c->nruns; r++) {
            const char *const *sets = c->runs[r].ro.sets;
            for (guint s = 0; !c->p[i].workload && sets && sets[s]; s++)
                if (g_str_has_prefix(sets[s], c->p[i].name) &&
                    sets[s][strlen(c->p[i].name)] == '=')
                    return cal_bad(error, "--fit %s: the key is also given by --set%s%s",
                                   c->p[i].name, c->plan ? " in run " : "", c->runs[r].name);
        }
    }
    if (o->curve) {
        GError *e = NULL;
        c->curve = curve_load(o->curve, &e);
        if (!c->curve) {
            cal_bad(error, "--curve %s", e->message);
            g_error_free(e);
            return FALSE;
        }
    }
    if (!c->curve && c->nf == 0)
        return cal_bad(error, "calibrate needs a --curve CSV or at least one --figure ID=VALUE");
    for (guint r = 0; r < c->nruns; r++)
        if (!cal_check_reach(c, &c->runs[r], error))
            return FALSE;
    c->nres = (c->curve ? c->curve->n : 0) + c->nf;
    return cal_check_out(o, error);
}

/* ---- The map onto [LO, HI] ----------------------------------------------- */

/* theta = LO + (HI - LO) sin^2(y): every y is inside the bounds, and the
 * search moves freely over y. */
static double cal_to_theta(const CalParam *p, double y)
{
    double s = sin(y);
    return p->lo + (p->hi - p->lo) * s * s;
}

static double cal_to_y(const CalParam *p, double theta)
{
    double u = (theta - p->lo) / (p->hi - p->lo);
    return asin(sqrt(CLAMP(u, 0.0, 1.0)));
}

static double cal_nm_f(const gsl_vector *y, void *ctx)
{
    Cal *c = ctx;
    double theta[c->np];
    for (guint i = 0; i < c->np; i++)
        theta[i] = cal_to_theta(&c->p[i], gsl_vector_get(y, i));
    return cal_eval_one(c, theta);
}

/* ---- The search ----------------------------------------------------------- */

/* S start points spread over the box (a Latin hypercube: each parameter's
 * range cut into S strata, one point in the middle of each, the strata
 * paired at random from the run's seed, so that a calibration repeats). */
static double **cal_starts(const Cal *c, guint S)
{
    double **th = g_new0(double *, S);
    for (guint s = 0; s < S; s++)
        th[s] = g_new(double, c->np);
    g_autoptr(GRand) rng = g_rand_new_with_seed((guint32)c->o->run.seed);
    g_autofree guint *perm = g_new(guint, S);
    for (guint i = 0; i < c->np; i++) {
        for (guint s = 0; s < S; s++)
            perm[s] = s;
        for (guint s = S; s > 1; s--) {
            guint j = (guint)g_rand_int_range(rng, 0, (gint32)s);
            guint x = perm[s - 1];
            perm[s - 1] = perm[j];
            perm[j] = x;
        }
        for (guint s = 0; s < S; s++)
            th[s][i] = c->p[i].lo + (c->p[i].hi - c->p[i].lo) * (perm[s] + 0.5) / S;
    }
    return th;
}

/* Check figure i (check) or fit figure i the stock run did not yield:
 * bad input, naming the run in a plan. */
static gboolean cal_fig_missing(const Cal *c, guint i, gboolean check, GError **error)
{
    const Figure *f = check ? &c->chk[i] : &c->fig[i];
    const CalRun *r = cal_fig_run(c, i, check);
    return cal_bad(error, "%s%s%s--figure %s: the stock run does not yield it: %s",
                   c->plan ? "run " : "", c->plan ? r->name : "", c->plan ? ": " : "", f->id,
                   figure_missing_reason(f));
}

/* The check runs at point pt: their figures into pt->chk, never into a
 * loss. At the stock point every check figure must come out (else bad
 * input, as for the fit figures). */
static gboolean cal_checks(Cal *c, CalPoint *pt, GError **error)
{
    cal_run_on(c, &pt, 1, TRUE);
    if (pt != c->stock || runner_signal())
        return TRUE;
    if (pt->chk_error)
        return cal_bad(error, "the stock run: %s", pt->chk_error);
    for (guint i = 0; i < c->nchk; i++)
        if (!pt->chk_ok[i])
            return cal_fig_missing(c, i, TRUE, error);
    return TRUE;
}

/* The stock run and the start points; checks that the stock run yields
 * every curve point and figure (else bad input). */
static gboolean cal_first_batch(Cal *c, GError **error)
{
    guint S = c->o->starts == G_MAXUINT ? 2 * c->o->jobs - 1 : c->o->starts;
    guint k = S + 2;
    double **th = g_new0(double *, k);
    /* the stock run, and the config's values moved into the ranges (the
     * same run when they are inside) */
    gboolean inside = TRUE;
    th[1] = g_new(double, c->np);
    for (guint i = 0; i < c->np; i++) {
        th[1][i] = CLAMP(c->p[i].k.value, c->p[i].lo, c->p[i].hi);
        inside = inside && th[1][i] == c->p[i].k.value;
    }
    th[0] = inside ? g_memdup2(th[1], c->np * sizeof(double)) : NULL;
    double **spread = cal_starts(c, S);
    for (guint s = 0; s < S; s++)
        th[s + 2] = spread[s];
    g_free(spread);
    g_autofree CalPoint **pts = g_new0(CalPoint *, k);
    c->pending = g_string_new(NULL);
    cal_eval(c, th, k, pts);
    for (guint i = 0; i < k; i++)
        g_free(th[i]);
    g_free(th);
    c->stock = pts[0];
    if (!c->stock->ok && session_interrupted(c->ses)) {
        session_interrupted_error(c->ses, error, "before the stock run ended");
        return FALSE;
    }
    if (!c->stock->ok) {
        g_propagate_prefixed_error(error, g_steal_pointer(&c->stock->error), "the stock run: ");
        return FALSE;
    }
    if (c->curve)
        for (guint i = 0; i < c->curve->n; i++)
            if (isnan(c->stock->sim[i]))
                return cal_bad(error,
                               "%s:%u: %s %g is beyond the stock run (the workload "
                               "ends before it); expected a workload that covers the curve",
                               c->curve->name, c->curve->line[i], curve_x_name(c->curve->kind),
                               c->curve->x[i]);
    for (guint i = 0; i < c->nf; i++)
        if (!c->stock->fig_ok[i])
            return cal_fig_missing(c, i, FALSE, error);
    if (c->nchk && !cal_checks(c, c->stock, error))
        return FALSE;
    if (!c->o->run.quiet)
        fputs(c->pending->str, stdout);
    g_string_free(c->pending, TRUE);
    c->pending = NULL;
    c->best = NULL;
    for (guint i = inside ? 0 : 1; i < k; i++)
        if (pts[i]->ok && (!c->best || pts[i]->loss < c->best->loss))
            c->best = pts[i];
    if (!c->best && session_interrupted(c->ses)) {
        session_interrupted_error(c->ses, error, "before a start point ended");
        return FALSE;
    }
    if (!c->best)
        return cal_bad(error, "no start point ran: %s",
                       pts[1]->error ? pts[1]->error->message : "unknown");
    return TRUE;
}

/* Nelder-Mead from the best start. The simplex's first vertices are run
 * at once; then one point or two a step, as the simplex asks. */
static gboolean cal_search(Cal *c, GError **error)
{
    guint n = c->np;
    gsl_vector *y0 = gsl_vector_alloc(n), *step = gsl_vector_alloc(n);
    for (guint i = 0; i < n; i++) {
        gsl_vector_set(y0, i, cal_to_y(&c->p[i], c->best->theta[i]));
        /* step inwards near an end of the range (sin^2 is flat there) */
        double yi = gsl_vector_get(y0, i);
        gsl_vector_set(step, i, yi + CAL_STEP > M_PI / 2 ? -CAL_STEP : CAL_STEP);
    }
    {
        double **th = g_new0(double *, n);
        for (guint j = 0; j < n; j++) {
            th[j] = g_new(double, n);
            for (guint i = 0; i < n; i++)
                th[j][i] = cal_to_theta(&c->p[i], gsl_vector_get(y0, i) +
                                                      (i == j ? gsl_vector_get(step, i) : 0));
        }
        g_autofree CalPoint **pts = g_new0(CalPoint *, n);
        cal_eval(c, th, n, pts);
        for (guint j = 0; j < n; j++)
            g_free(th[j]);
        g_free(th);
    }
    gsl_multimin_function f = {.f = cal_nm_f, .n = n, .params = c};
    gsl_multimin_fminimizer *s =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, n);
    gsl_set_error_handler_off();
    int status = gsl_multimin_fminimizer_set(s, &f, y0, step);
    guint idle = 0; /* steps in a row that ran no new simulation */
    while (status == GSL_SUCCESS && c->sims < c->o->max_evals && !runner_signal()) {
        guint before = c->sims;
        status = gsl_multimin_fminimizer_iterate(s);
        if (status != GSL_SUCCESS)
            break;
        c->nm_iters++;
        idle = c->sims == before ? idle + 1 : 0;
        /* small enough; or only revisiting points already run (a flat
         * loss, or steps below the values' rounding), where a simplex of
         * equal values would reflect back and forth for ever */
        if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(s), CAL_TOL) == GSL_SUCCESS ||
            idle >= CAL_IDLE_STEPS) {
            c->converged = TRUE;
            break;
        }
    }
    gsl_multimin_fminimizer_free(s);
    gsl_vector_free(y0);
    gsl_vector_free(step);
    if (!c->best || !c->best->ok)
        return cal_bad(error, "no evaluation gave a loss");
    return TRUE;
}

/* ---- Identifiability -------------------------------------------------------- */

/* The uncertainty of parameter p from the loss's curvature at the optimum:
 * L'' by the second difference through the points lo, best and hi (their
 * spacing may differ, at a bound), else the Gauss-Newton 2 |dr/dtheta|^2
 * (gn: |dr/dtheta|^2, absolute units). sigma is the change of p alone that
 * raises the loss by dL along that parabola, sqrt(2 dL / L''), with dL the
 * residuals' variance L / (m - n) when there are more residuals than keys,
 * and at least CAL_LOSS_1PCT. */
static void cal_sigma(const Cal *c, CalParam *p, const CalPoint *lo, const CalPoint *hi, double gn)
{
    guint j = (guint)(p - c->p);
    double b = c->best->theta[j], l0 = c->best->loss;
    double hm = b - lo->theta[j], hp = hi->theta[j] - b, d2 = NAN;
    p->sigma = NAN;
    p->sigma_second = FALSE;
    if (p->flat)
        return;
    if (lo->ok && hi->ok && hm > 0 && hp > 0) {
        d2 = 2 * ((hi->loss - l0) / hp + (lo->loss - l0) / hm) / (hp + hm);
        p->sigma_second = d2 > 0;
    }
    if (!(d2 > 0))
        d2 = 2 * gn;
    double dl = c->nres > c->np ? l0 / (c->nres - c->np) : 0;
    dl = MAX(dl, CAL_LOSS_1PCT);
    if (d2 > 0 && isfinite(d2))
        p->sigma = sqrt(2 * dl / d2);
}

/* Parameters a and b confounded: their columns of J (per relative change)
 * nearly parallel, J_a = rho J_b, so the residuals move with
 * rho da / base_a + db / base_b: only k a + b is determined, with
 * k = rho base_b / base_a (1: their sum). */
static double cal_combo(const Cal *c, const gsl_matrix *J, guint a, guint b)
{
    double ab = 0, bb = 0;
    for (guint i = 0; i < J->size1; i++) {
        ab += gsl_matrix_get(J, i, a) * gsl_matrix_get(J, i, b);
        bb += gsl_matrix_get(J, i, b) * gsl_matrix_get(J, i, b);
    }
    const double *best = c->best->theta;
    double base_a = best[a] != 0 ? fabs(best[a]) : (c->p[a].hi - c->p[a].lo);
    double base_b = best[b] != 0 ? fabs(best[b]) : (c->p[b].hi - c->p[b].lo);
    return bb > 0 ? ab / bb * base_b / base_a : NAN;
}

/* The Jacobian of the residuals per relative change of each parameter, by
 * central differences of CAL_REL_STEP (one-sided at a bound), all 2n runs
 * at once; then each parameter's sensitivity, and the correlations of the
 * non-flat ones from (J^T J)^-1. */
static void cal_identify(Cal *c)
{
    guint n = c->np, m = c->nres;
    const double *best = c->best->theta;
    double **th = g_new0(double *, 2 * n);
    double *h = g_new0(double, n); /* relative distance between the two points */
    for (guint j = 0; j < n; j++) {
        double base = best[j] != 0 ? fabs(best[j]) : (c->p[j].hi - c->p[j].lo);
        double d = CAL_REL_STEP * base;
        if (c->p[j].k.kind == CONFIG_NUM_COUNT)
            d = MAX(d, 1.0); /* a count moves by whole units: a smaller step runs the same value */
        for (int sgn = 0; sgn < 2; sgn++) {
            th[2 * j + sgn] = g_memdup2(best, n * sizeof(double));
            double v = best[j] + (sgn ? d : -d);
            th[2 * j + sgn][j] = CLAMP(v, c->p[j].lo, c->p[j].hi);
        }
    }
    g_autofree CalPoint **pts = g_new0(CalPoint *, 2 * n);
    cal_eval(c, th, 2 * n, pts);
    gsl_matrix *J = gsl_matrix_calloc(m, n);
    for (guint j = 0; j < n; j++) {
        CalPoint *lo = pts[2 * j], *hi = pts[2 * j + 1];
        double base = best[j] != 0 ? fabs(best[j]) : (c->p[j].hi - c->p[j].lo);
        h[j] = (hi->theta[j] - lo->theta[j]) / base;
        double norm = 0;
        if (lo->ok && hi->ok && h[j] > 0)
            for (guint i = 0; i < m; i++) {
                double d = (hi->res[i] - lo->res[i]) / h[j];
                gsl_matrix_set(J, i, j, d);
                norm += d * d;
            }
        c->p[j].sensitivity = sqrt(norm) / 100; /* per 1% */
        c->p[j].flat = !(c->p[j].sensitivity >= CAL_FLAT);
        cal_sigma(c, &c->p[j], lo, hi, norm / (base * base));
    }
    /* correlations among the parameters that move the residuals */
    guint *idx = g_new(guint, n), k = 0;
    for (guint j = 0; j < n; j++)
        if (!c->p[j].flat)
            idx[k++] = j;
    if (k >= 2) {
        gsl_matrix *H = gsl_matrix_calloc(k, k), *C = gsl_matrix_alloc(k, k);
        for (guint a = 0; a < k; a++)
            for (guint b = 0; b < k; b++) {
                double s = 0;
                for (guint i = 0; i < m; i++)
                    s += gsl_matrix_get(J, i, idx[a]) * gsl_matrix_get(J, i, idx[b]);
                gsl_matrix_set(H, a, b, s);
            }
        gsl_permutation *perm = gsl_permutation_alloc(k);
        int signum;
        gboolean inv = gsl_linalg_LU_decomp(H, perm, &signum) == GSL_SUCCESS &&
                       fabs(gsl_linalg_LU_det(H, signum)) > 0 &&
                       gsl_linalg_LU_invert(H, perm, C) == GSL_SUCCESS;
        for (guint a = 0; a < k; a++)
            for (guint b = 0; b < k; b++) {
                if (a == b)
                    continue;
                double r = inv ? gsl_matrix_get(C, a, b) /
                                     sqrt(gsl_matrix_get(C, a, a) * gsl_matrix_get(C, b, b))
                               : 1.0; /* singular: the columns are parallel */
                CalParam *p = &c->p[idx[a]];
                if (!isfinite(r))
                    r = 1.0;
                if (fabs(r) > CAL_CORR && (p->correlated < 0 || fabs(r) > fabs(p->corr))) {
                    p->correlated = (int)idx[b];
                    p->corr = r;
                    p->combo = cal_combo(c, J, idx[a], idx[b]);
                }
            }
        gsl_permutation_free(perm);
        gsl_matrix_free(H);
        gsl_matrix_free(C);
    }
    g_free(idx);
    gsl_matrix_free(J);
    for (guint j = 0; j < 2 * n; j++)
        g_free(th[j]);
    g_free(th);
    g_free(h);
}

/* ---- The command ------------------------------------------------------------ */

static void cal_free(Cal *c)
{
    for (guint i = 0; c->fig_src && i < c->nf + c->nchk; i++)
        g_free(c->fig_src[i]);
    g_free(c->fig_src);
    g_free(c->chk);
    g_free(c->runs);
    g_strfreev(c->fits);
    cal_plan_free(c->plan);
    for (guint i = 0; i < c->np; i++)
        g_free(c->p[i].name);
    g_free(c->p);
    curve_free(c->curve);
    g_free(c->fig);
    if (c->points)
        g_ptr_array_free(c->points, TRUE);
    if (c->cache)
        g_hash_table_destroy(c->cache);
    if (c->pending)
        g_string_free(c->pending, TRUE);
    if (c->scratch)
        g_rmdir(c->scratch);
    g_free(c->scratch);
}

static void cal_report(const Cal *c)
{
    if (c->o->run.quiet)
        return;
    char stopped[32];
    g_snprintf(stopped, sizeof stopped, "stopped by %s", sim_signal_name(runner_signal()));
    printf("search    %u simulations in %.0f s, %u simplex steps, %s; loss %.6g (stock %.6g)\n",
           c->sims, (double)(g_get_monotonic_time() - c->wall0) / 1e6, c->nm_iters,
           c->interrupted ? stopped
           : c->converged ? "converged"
                          : "stopped at --max-evals",
           c->best->loss, c->stock->loss);
    for (guint j = 0; j < c->nf + c->nchk; j++) {
        gboolean chk = j >= c->nf;
        guint i = chk ? j - c->nf : j;
        const Figure *f = chk ? &c->chk[i] : &c->fig[i];
        gboolean sok = chk ? c->stock->chk_ok[i] : c->stock->fig_ok[i];
        gboolean bok = chk ? c->best->chk_ok[i] : c->best->fig_ok[i];
        char st[32] = "-", ca[32] = "-";
        if (sok)
            g_snprintf(st, sizeof st, "%.6g", chk ? c->stock->chk[i] : c->stock->figs[i]);
        if (bok)
            g_snprintf(ca, sizeof ca, "%.6g", chk ? c->best->chk[i] : c->best->figs[i]);
        g_autofree char *who =
            c->plan ? g_strdup_printf("%s %s%s", cal_fig_run(c, i, chk)->name,
                                      c->fig_src[j] ? c->fig_src[j] : "", c->fig_src[j] ? " " : "")
                    : g_strdup("");
        printf("%s%s%s: measured %.6g, stock %s, calibrated %s%s\n",
               chk ? "check     " : "figure    ", who, f->id, f->value, st, ca,
               chk ? " (not in the loss)" : "");
    }
    for (guint i = 0; i < c->np; i++) {
        const CalParam *p = &c->p[i];
        char v[CONFIG_VALUE_LEN], was[CONFIG_VALUE_LEN], sd[CONFIG_VALUE_LEN];
        config_numeric_format(p->k.kind, p->fitted, v, sizeof v);
        config_numeric_format(p->k.kind, p->k.value, was, sizeof was);
        g_autofree char *words = c->interrupted ? NULL : cal_identity_words(c, p);
        if (c->interrupted) {
            printf("fitted    %s = %s (config %s; the best so far, identifiability not judged)\n",
                   p->name, v, was);
        } else if (p->flat || p->correlated >= 0) {
            printf("fitted    %s: unidentifiable (%s; config %s)\n", p->name, words, was);
        } else if (!isnan(p->sigma)) {
            cal_format_sigma(p, sd, sizeof sd);
            printf("fitted    %s = %s +- %s (config %s; sensitivity %.3g per 1%%)\n", p->name, v,
                   sd, was, p->sensitivity);
        } else {
            printf("fitted    %s = %s (config %s; sensitivity %.3g per 1%%)\n", p->name, v, was,
                   p->sensitivity);
        }
    }
}

/* A fitted value within CAL_AT_BOUND of the range's width from an end:
 * the best value may lie beyond it, and the range should be widened. */
#define CAL_AT_BOUND 0.01

static void cal_warn_bounds(const Cal *c)
{
    for (guint i = 0; i < c->np && !c->o->run.quiet; i++) {
        const CalParam *p = &c->p[i];
        double w = p->hi - p->lo;
        gboolean low = p->fitted - p->lo <= CAL_AT_BOUND * w;
        if (!low && p->hi - p->fitted > CAL_AT_BOUND * w)
            continue;
        char v[CONFIG_VALUE_LEN];
        config_numeric_format(p->k.kind, low ? p->lo : p->hi, v, sizeof v);
        fprintf(stderr,
                "ftlsim: warning: --fit %s ended at its %s bound %s: the best value may lie "
                "beyond the range; widen it to find out\n",
                p->name, low ? "lower" : "upper", v);
    }
}

gboolean run_calibration(const CalibOptions *co, GError **error)
{
    CalibOptions o = *co;
    if (o.max_evals == 0)
        o.max_evals = CALIB_DEFAULT_MAX_EVALS;
    if (o.jobs == 0)
        o.jobs = 1;
    g_autoptr(Session) ses = session_new("the best point so far is", "fit.json");
    Cal c = {.o = &o, .wall0 = g_get_monotonic_time(), .ses = ses};
    c.points = g_ptr_array_new_with_free_func((GDestroyNotify)cal_point_free);
    c.cache = g_hash_table_new(g_str_hash, g_str_equal);
    gboolean ok = cal_inputs(&c, error);
    if (ok && o.run.dry_run) {
        /* binds each run's workload to its drive; simulates nothing */
        for (guint r = 0; ok && r < c.nruns; r++) {
            ok = run_simulation(&c.runs[r].ro, error);
            if (!ok && c.plan)
                g_prefix_error(error, "run %s: ", c.runs[r].name);
        }
        cal_free(&c);
        return ok;
    }
    if (ok) {
        c.scratch = g_dir_make_tmp("ftlsim-calibrate-XXXXXX", error);
        ok = c.scratch != NULL;
    }
    ok = ok && session_open(ses, o.run.out, o.run.force, error) && cal_first_batch(&c, error) &&
         cal_search(&c, error);
    if (ok) {
        /* a signal leaves the best point so far, its identifiability not
         * judged (that takes 2 runs a key more) */
        if (!session_interrupted(ses))
            cal_identify(&c);
        if (!session_interrupted(ses) && c.nchk && c.best != c.stock)
            cal_checks(&c, c.best, NULL); /* after the fit, outside its loss */
        c.interrupted = session_settle(ses);
        for (guint i = 0; i < c.np; i++) {
            c.p[i].fitted = c.best->theta[i];
            if (c.interrupted)
                c.p[i].sensitivity = c.p[i].sigma = NAN;
        }
        cal_report(&c);
        ok = cal_write_results(&c, error);
        if (ok)
            cal_warn_bounds(&c);
    }
    if (ok && c.interrupted) {
        session_interrupted_error(ses, error, "after %u simulations", c.sims);
        ok = FALSE;
    }
    cal_free(&c);
    return ok;
}
