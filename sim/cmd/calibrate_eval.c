/*
 * calibrate_eval.c - the evaluations of ftlsim calibrate: a point of the
 * search (its values as --set overrides, cached by them) simulated on
 * every fit run, or every check run, in child processes, jobs at a time;
 * its figures read back from each run's series, and its loss from the fit
 * runs' residuals only (docs/calibration.md).
 */
#include "sim/cmd/calibrate_priv.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define CAL_FIGURE_INTERVAL (SIM_SEC / 10) /* series rows of figure-only runs */

/* NAME=VALUE for the environment of a run: fio's syntax, times in ns and
 * bandwidths in bytes/s (bare numbers, as rate= reads them). */
static char *cal_env_assign(const CalParam *p, double v)
{
    if (p->k.kind == CONFIG_NUM_NS)
        return g_strdup_printf("%s=%.0fns", p->k.key, v);
    return g_strdup_printf("%s=%.0f", p->k.key, v);
}

/* The inline workload with ",thinktime=Nns" on every phase that does I/O
 * (not the idle=... phases). */
static char *cal_spec_with(const char *spec, double think_ns)
{
    g_auto(GStrv) phases = g_strsplit(spec, ";", -1);
    GString *out = g_string_new(NULL);
    for (guint i = 0; phases[i]; i++) {
        g_string_append_printf(out, "%s%s", i ? ";" : "", phases[i]);
        if (strstr(phases[i], "rw="))
            g_string_append_printf(out, ",thinktime=%.0fns", think_ns);
    }
    return g_string_free(out, FALSE);
}

/* ---- Evaluations ---------------------------------------------------------- */

void cal_point_free(CalPoint *pt)
{
    g_free(pt->theta);
    g_free(pt->label);
    g_strfreev(pt->sets);
    g_free(pt->spec);
    g_strfreev(pt->envs);
    g_clear_error(&pt->error);
    g_free(pt->res);
    g_free(pt->sim);
    g_free(pt->figs);
    g_free(pt->fig_ok);
    g_free(pt->chk);
    g_free(pt->chk_ok);
    g_free(pt->chk_error);
    g_free(pt);
}

/* A value as the search runs it: 5 significant digits (a calibration
 * cannot tell more apart, and the files stay readable: 149.3MB, 3.0003ms). */
static double cal_round(double v)
{
    if (v == 0 || !isfinite(v))
        return v;
    double e = pow(10, floor(log10(fabs(v))) - 4);
    return round(v / e) * e;
}

/* The point theta (base units; NULL: the config's own values, the stock
 * run), from the cache or new. */
static CalPoint *cal_point(Cal *c, const double *theta)
{
    GPtrArray *sets = g_ptr_array_new();
    g_autoptr(GString) label = g_string_new(NULL);
    g_autofree char *spec = NULL;
    GPtrArray *envs = g_ptr_array_new();
    for (guint i = 0; i < c->np; i++) {
        if (c->p[i].env) {
            char v[CONFIG_VALUE_LEN];
            double x;
            config_numeric_format(c->p[i].k.kind, theta ? cal_round(theta[i]) : c->p[i].k.value,
                                  v, sizeof v);
            config_numeric_parse(c->p[i].k.kind, v, &x);
            g_ptr_array_add(envs, cal_env_assign(&c->p[i], x));
        }
    }
    g_ptr_array_add(envs, NULL);
    for (guint i = 0; theta && i < c->np; i++) {
        char v[CONFIG_VALUE_LEN];
        config_numeric_format(c->p[i].k.kind, cal_round(theta[i]), v, sizeof v);
        if (c->p[i].env) {
            /* in envs */
        } else if (c->p[i].workload) {
            double ns;
            config_numeric_parse(CONFIG_NUM_NS, v, &ns);
            g_free(spec);
            spec = cal_spec_with(c->o->run.spec, ns);
        } else {
            g_ptr_array_add(sets, g_strdup_printf("%s=%s", c->p[i].name, v));
        }
        g_string_append_printf(label, "%s%s=%s", i ? " " : "", c->p[i].name, v);
    }
    g_ptr_array_add(sets, NULL);
    if (!theta)
        g_string_assign(label, "stock");
    CalPoint *pt = g_hash_table_lookup(c->cache, label->str);
    if (pt) {
        g_strfreev((GStrv)g_ptr_array_free(sets, FALSE));
        g_strfreev((GStrv)g_ptr_array_free(envs, FALSE));
        return pt;
    }
    pt = g_new0(CalPoint, 1);
    pt->theta = g_new(double, c->np);
    for (guint i = 0; i < c->np; i++) {
        char v[CONFIG_VALUE_LEN];
        config_numeric_format(c->p[i].k.kind, theta ? cal_round(theta[i]) : c->p[i].k.value, v,
                              sizeof v);
        config_numeric_parse(c->p[i].k.kind, v, &pt->theta[i]); /* the value run, rounded */
    }
    pt->label = g_strdup(label->str);
    pt->sets = (GStrv)g_ptr_array_free(sets, FALSE);
    pt->spec = g_steal_pointer(&spec);
    pt->envs = (GStrv)g_ptr_array_free(envs, FALSE);
    pt->loss = INFINITY;
    guint nc = c->curve ? c->curve->n : 0;
    pt->res = g_new0(double, c->nres);
    pt->sim = g_new0(double, MAX(nc, 1));
    pt->figs = g_new0(double, c->nf + 1);
    pt->fig_ok = g_new0(gboolean, c->nf + 1);
    pt->chk = g_new0(double, c->nchk + 1);
    pt->chk_ok = g_new0(gboolean, c->nchk + 1);
    g_hash_table_insert(c->cache, pt->label, pt);
    g_ptr_array_add(c->points, pt);
    return pt;
}

/* In the child, before the run: an interrupted calibration leaves no runs
 * behind, and the point's env.NAME keys ("NAME=VALUE", ctx) are set for
 * the job file's ${NAME}, in the child's environment only. */
static void cal_child_setup(void *ctx)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    for (char **e = ctx; e && *e; e++) {
        g_autofree char *name = g_strndup(*e, strcspn(*e, "="));
        g_setenv(name, strchr(*e, '=') + 1, TRUE);
    }
}

/* Start run r of point pt into dir in a child process: its pid, or -1
 * with *error set. */
static pid_t cal_spawn(const Cal *c, CalPoint *pt, const CalRun *r, const char *dir,
                       GString *row, int *fd, GError **error)
{
    RunOptions ro = r->ro;
    GPtrArray *sets = g_ptr_array_new(); /* the run's own, then the point's */
    for (guint i = 0; r->ro.sets && r->ro.sets[i]; i++)
        g_ptr_array_add(sets, (gpointer)r->ro.sets[i]);
    for (guint i = 0; pt->sets[i]; i++)
        g_ptr_array_add(sets, pt->sets[i]);
    g_ptr_array_add(sets, NULL);
    ro.sets = (const char *const *)sets->pdata;
    if (pt->spec)
        ro.spec = pt->spec;
    ro.out = dir;
    ro.force = FALSE;
    ro.quiet = TRUE;
    ro.plot = FALSE;
    ro.live = FALSE;
    /* rows of a quarter of the curve's averaging window: the rates over a
     * window then come from whole rows but at its ends */
    if (c->curve && c->curve->kind == CURVE_GB_MBPS)
        ro.interval_bytes = MAX(1000000, (uint64_t)(curve_half_window(c->curve) * 1e9 / 2));
    else if (c->curve)
        ro.interval = MAX(SIM_SEC / 1000, (SimTime)(curve_half_window(c->curve) * 1e9 / 2));
    else
        ro.interval = CAL_FIGURE_INTERVAL; /* figures only: a cliff to within a few rows */
    ro.sweep_row = row;
    pid_t pid = run_child_spawn(&ro, cal_child_setup, pt->envs, fd, error);
    g_ptr_array_free(sets, TRUE);
    return pid;
}

/* One simulation of cal_run: a point on one run. */
typedef struct CalTask {
    CalPoint *pt;
    const CalRun *run;
    int fd; /* the child's result, once it has exited */
    char *dir;
} CalTask;

/* Run r's figures (and, without a plan, the curve) from its finished
 * folder into pt: a fit run's into figs, a check run's into chk. */
static gboolean cal_score(Cal *c, CalPoint *pt, const CalRun *r, const char *dir,
                          const char *row, GError **error)
{
    g_autofree char *path = g_build_filename(dir, "series.csv", NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, error))
        return FALSE;
    RunTrace *t = run_trace_from_csv(text, row, error);
    if (!t)
        return FALSE;
    if (c->curve && !r->check) {
        curve_sim_values(c->curve, t, pt->sim);
        curve_residuals(c->curve, pt->sim, pt->res);
    }
    for (guint i = r->f0; i < r->f0 + r->nf; i++) {
        if (r->check)
            pt->chk_ok[i] = figure_eval(&c->chk[i], t, &pt->chk[i]);
        else
            pt->fig_ok[i] = figure_eval(&c->fig[i], t, &pt->figs[i]);
    }
    run_trace_free(t);
    return TRUE;
}

/* The loss of a point whose fit runs all ran: the curve's residuals (set
 * by cal_score) and each fit figure's. Check figures have no residual. */
static void cal_loss(Cal *c, CalPoint *pt)
{
    guint nc = c->curve ? c->curve->n : 0;
    for (guint i = 0; i < c->nf; i++)
        pt->res[nc + i] = figure_residual(&c->fig[i], pt->fig_ok[i], pt->figs[i]);
    pt->loss = 0;
    for (guint i = 0; i < c->nres; i++)
        pt->loss += pt->res[i] * pt->res[i];
    pt->ok = TRUE;
}

/* What the child of task t wrote once it exited; its folder is then
 * removed. A run a signal stopped leaves its point not done (no loss, not
 * in the history); a failed one gives the point its error, naming the run
 * in a plan. */
static void cal_collect(Cal *c, CalTask *t, int status)
{
    g_autoptr(GString) row = g_string_new(NULL);
    GError *e = NULL;
    CalPoint *pt = t->pt;
    if (run_child_result(t->fd, status, row, &e))
        cal_score(c, pt, t->run, t->dir, row->str, &e);
    if (e && g_error_matches(e, RUN_ERROR, RUN_ERROR_INTERRUPTED) && !t->run->check)
        pt->done = FALSE;
    if (e && c->plan)
        g_prefix_error(&e, "run %s: ", t->run->name);
    if (e && t->run->check && !pt->chk_error)
        pt->chk_error = g_strdup(e->message);
    else if (e && !t->run->check && !pt->error)
        g_propagate_error(&pt->error, g_steal_pointer(&e));
    g_clear_error(&e);
    g_autoptr(GDir) d = g_dir_open(t->dir, 0, NULL);
    for (const char *n; d && (n = g_dir_read_name(d));) {
        g_autofree char *f = g_build_filename(t->dir, n, NULL);
        g_unlink(f);
    }
    g_rmdir(t->dir);
}

static void cal_show(Cal *c, const CalPoint *pt)
{
    if (!pt->done)
        return; /* a run a signal stopped */
    if (pt->ok && (!c->best || pt->loss < c->best->loss))
        c->best = (CalPoint *)pt;
    if (c->o->run.quiet)
        return;
    double wall = (double)(g_get_monotonic_time() - c->wall0) / 1e6;
    g_autoptr(GString) line = g_string_new(NULL);
    if (pt->ok)
        g_string_printf(line, "eval %3u  %s: loss %.6g, best %.6g  (%.0f s)\n", c->sims, pt->label,
                        pt->loss, c->best ? c->best->loss : pt->loss, wall);
    else
        g_string_printf(line, "eval %3u  %s: failed: %s  (%.0f s)\n", c->sims, pt->label,
                        pt->error->message, wall);
    /* until the stock run has passed its checks the input may still be
     * bad, and bad input prints nothing on stdout */
    if (c->pending) {
        g_string_append(c->pending, line->str);
        return;
    }
    fputs(line->str, stdout);
    fflush(stdout);
}

/* A point's runs of the batch have all been collected: its loss (fit
 * runs), and the progress line. */
static void cal_finish(Cal *c, CalPoint *pt, gboolean check)
{
    if (check)
        return;
    if (pt->done && !pt->error)
        cal_loss(c, pt);
    cal_show(c, pt);
}

/* One batch of tasks in the child pool. */
typedef struct CalBatch {
    Cal *c;
    GArray *tasks; /* CalTask */
    gboolean check;
} CalBatch;

static pid_t cal_task_start(void *ctx, guint i, int *fd, GError **error)
{
    CalBatch *b = ctx;
    CalTask *t = &g_array_index(b->tasks, CalTask, i);
    t->dir = g_strdup_printf("%s/e%u", b->c->scratch, b->c->launched++);
    g_autoptr(GString) row = g_string_new(NULL);
    return cal_spawn(b->c, t->pt, t->run, t->dir, row, fd, error);
}

static void cal_task_failed(void *ctx, guint i, GError *e)
{
    CalBatch *b = ctx;
    CalTask *t = &g_array_index(b->tasks, CalTask, i);
    if (b->check && !t->pt->chk_error)
        t->pt->chk_error = g_strdup(e->message);
    else if (!b->check && !t->pt->error)
        g_propagate_error(&t->pt->error, g_steal_pointer(&e));
    g_clear_error(&e);
    if (--t->pt->left == 0)
        cal_finish(b->c, t->pt, b->check);
}

static void cal_task_done(void *ctx, guint i, int fd, int status)
{
    CalBatch *b = ctx;
    CalTask *t = &g_array_index(b->tasks, CalTask, i);
    t->fd = fd;
    b->c->sims++;
    cal_collect(b->c, t, status);
    if (--t->pt->left == 0)
        cal_finish(b->c, t->pt, b->check);
}

/* Run the points (distinct, not done) on every fit run, or (check) on every
 * check run, jobs simulations at a time, each in a child process. */
void cal_run_on(Cal *c, CalPoint **pts, guint k, gboolean check)
{
    GArray *tasks = g_array_new(FALSE, TRUE, sizeof(CalTask));
    for (guint i = 0; i < k; i++) {
        pts[i]->left = 0;
        if (!check)
            pts[i]->done = TRUE; /* until a run a signal stopped says otherwise */
        for (guint r = 0; r < c->nruns; r++)
            if (c->runs[r].check == check) {
                CalTask t = {.pt = pts[i], .run = &c->runs[r]};
                g_array_append_val(tasks, t);
                pts[i]->left++;
            }
    }
    CalBatch b = {.c = c, .tasks = tasks, .check = check};
    ChildPool pool = {.n = tasks->len, .jobs = c->o->jobs, .ctx = &b, .start = cal_task_start,
                      .failed = cal_task_failed, .done = cal_task_done};
    guint n = tasks->len;
    g_autofree pid_t *pids = g_new(pid_t, n + 1);
    run_child_pool(&pool, pids);
    for (guint i = 0; i < n; i++) {
        CalTask *t = &g_array_index(tasks, CalTask, i);
        if (t->pt->left > 0 && runner_signal()) {
            if (!check) { /* not started, or not waited for: not done either */
                t->pt->done = FALSE;
                g_clear_error(&t->pt->error);
            }
        } else if (t->pt->left > 0) {
            if (check && !t->pt->chk_error)
                t->pt->chk_error = g_strdup("its process could not be waited for");
            else if (!check && !t->pt->error)
                g_set_error_literal(&t->pt->error, RUN_ERROR, RUN_ERROR_FAILED,
                                    "its process could not be waited for");
            t->pt->left = 0;
            cal_finish(c, t->pt, check);
        }
        g_free(t->dir);
    }
    g_array_free(tasks, TRUE);
}

static void cal_run(Cal *c, CalPoint **pts, guint k)
{
    cal_run_on(c, pts, k, FALSE);
}

/* Evaluate k points at once (NULL theta: the stock run) into out. */
void cal_eval(Cal *c, double *const *thetas, guint k, CalPoint **out)
{
    g_autofree CalPoint **todo = g_new0(CalPoint *, k);
    guint n = 0;
    for (guint i = 0; i < k; i++) {
        out[i] = cal_point(c, thetas[i]);
        gboolean dup = out[i]->done;
        for (guint j = 0; j < n && !dup; j++)
            dup = todo[j] == out[i];
        if (!dup)
            todo[n++] = out[i];
    }
    if (n)
        cal_run(c, todo, n);
}

double cal_eval_one(Cal *c, const double *theta)
{
    CalPoint *pt;
    cal_eval(c, (double *const *)&theta, 1, &pt);
    return pt->ok ? pt->loss : INFINITY;
}
