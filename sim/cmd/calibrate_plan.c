/*
 * calibrate_plan.c - a calibration plan (ftlsim calibrate --plan FILE): the
 * runs of one calibration, each a drive, a workload and the figures measured
 * on it, fit or check (docs/calibration.md, "Plans: several drives").
 *
 * The plan is a key file; its paths are relative to its folder. A family's
 * shared keys are fitted on the fit runs of several drives at once, and the
 * check runs are simulated at the stock and the calibrated points only: they
 * have no residual, so nothing of theirs reaches the loss.
 */
#include "sim/cmd/calibrate_priv.h"

#include <string.h>

struct CalPlan {
    char *path;            /* the plan file */
    GPtrArray *strings;    /* what the runs' RunOptions point to */
    char *family;          /* [plan] family: the file calibrated.ini copies, or NULL */
};

void cal_plan_free(CalPlan *plan)
{
    if (!plan)
        return;
    g_free(plan->path);
    g_ptr_array_free(plan->strings, TRUE);
    g_free(plan->family);
    g_free(plan);
}

static gboolean plan_bad(GError **error, const CalPlan *plan, const char *group, const char *key,
                         const char *fmt, ...) G_GNUC_PRINTF(5, 6);
static gboolean plan_bad(GError **error, const CalPlan *plan, const char *group, const char *key,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--plan %s: [%s]%s%s: %s", plan->path, group,
                key ? " " : "", key ? key : "", msg);
    return FALSE;
}

/* A string the plan keeps for the runs' options. */
static const char *plan_keep(CalPlan *plan, char *s)
{
    if (s)
        g_ptr_array_add(plan->strings, s);
    return s;
}

/* A path of the plan, relative to its folder. */
static char *plan_path(const CalPlan *plan, const char *rel)
{
    if (g_path_is_absolute(rel))
        return g_strdup(rel);
    g_autofree char *dir = g_path_get_dirname(plan->path);
    return g_build_filename(dir, rel, NULL);
}

/* A trimmed string key of group, or NULL when absent or empty. */
static char *plan_str(GKeyFile *kf, const char *group, const char *key)
{
    char *v = g_key_file_get_string(kf, group, key, NULL);
    if (v && !*g_strstrip(v))
        g_clear_pointer(&v, g_free);
    return v;
}

/* A ';'-separated list key, each item trimmed, empty items dropped. */
static GStrv plan_list(GKeyFile *kf, const char *group, const char *key)
{
    g_autofree char *v = g_key_file_get_value(kf, group, key, NULL);
    if (!v)
        return NULL;
    g_auto(GStrv) parts = g_strsplit(v, ";", -1);
    GPtrArray *a = g_ptr_array_new();
    for (guint i = 0; parts[i]; i++)
        if (*g_strstrip(parts[i]))
            g_ptr_array_add(a, g_strdup(parts[i]));
    g_ptr_array_add(a, NULL);
    return (GStrv)g_ptr_array_free(a, FALSE);
}

static const char *const plan_run_keys[] = {"drive", "workload", "job",   "figures",
                                            "sources", "role",   "set",   "prefill", NULL};

/* [run NAME] into r (its figures appended to figs and srcs): a drive, a
 * workload or a job file, figures, their sources, a role. */
static gboolean plan_run(Cal *c, GKeyFile *kf, const char *group, CalRun *r, GArray *figs,
                         GPtrArray *srcs, GError **error)
{
    CalPlan *plan = c->plan;
    const CalibOptions *o = c->o;
    g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);
    for (guint i = 0; keys && keys[i]; i++)
        if (!g_strv_contains(plan_run_keys, keys[i]))
            return plan_bad(error, plan, group, keys[i],
                            "unknown key; expected drive, workload or job, figures, sources, "
                            "role, set or prefill");
    r->name = (char *)plan_keep(plan, g_strdup(group + strlen("run ")));
    g_strstrip(r->name);
    if (!*r->name)
        return plan_bad(error, plan, group, NULL, "a run without a name; expected [run NAME]");
    r->ro = o->run;
    g_autofree char *drive = plan_str(kf, group, "drive");
    if (!drive)
        return plan_bad(error, plan, group, "drive", "missing; expected the drive config's path");
    r->ro.drive = plan_keep(plan, plan_path(plan, drive));
    r->ro.spec = plan_keep(plan, plan_str(kf, group, "workload"));
    g_autofree char *job = plan_str(kf, group, "job");
    if (job)
        r->ro.job = plan_keep(plan, plan_path(plan, job));
    if (!r->ro.spec == !r->ro.job)
        return plan_bad(error, plan, group, r->ro.spec ? "job" : "workload",
                        "%s; expected one of workload (inline) and job (a job file)",
                        r->ro.spec ? "given with workload" : "missing");
    r->ro.prefill = plan_keep(plan, plan_str(kf, group, "prefill"));
    g_autofree char *role = plan_str(kf, group, "role");
    if (role && strcmp(role, "fit") != 0 && strcmp(role, "check") != 0)
        return plan_bad(error, plan, group, "role", "found \"%s\", expected fit or check", role);
    r->check = role && strcmp(role, "check") == 0;
    /* the command line's --set for every run, then the run's own */
    GPtrArray *sets = g_ptr_array_new();
    for (guint i = 0; o->run.sets && o->run.sets[i]; i++)
        g_ptr_array_add(sets, (gpointer)o->run.sets[i]);
    g_auto(GStrv) own = plan_list(kf, group, "set");
    for (guint i = 0; own && own[i]; i++) {
        if (!strchr(own[i], '=') || !strchr(own[i], '.')) {
            g_ptr_array_free(sets, TRUE);
            return plan_bad(error, plan, group, "set", "found \"%s\", expected GROUP.KEY=VALUE",
                            own[i]);
        }
        g_ptr_array_add(sets, (gpointer)plan_keep(plan, g_strdup(own[i])));
    }
    g_ptr_array_add(sets, NULL);
    r->ro.sets = (const char *const *)sets->pdata;
    g_ptr_array_add(plan->strings, g_ptr_array_free(sets, FALSE));
    DriveParams dp;
    GError *e = NULL;
    if (!config_load_file_set(r->ro.drive, r->ro.sets, &dp, &e)) {
        plan_bad(error, plan, group, "drive", "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    g_auto(GStrv) fl = plan_list(kf, group, "figures");
    g_auto(GStrv) sl = plan_list(kf, group, "sources");
    guint n = fl ? g_strv_length(fl) : 0;
    if (n == 0)
        return plan_bad(error, plan, group, "figures",
                        "missing; expected one figure or more, ID=VALUE separated by ';'");
    if (sl && g_strv_length(sl) != n)
        return plan_bad(error, plan, group, "sources",
                        "%u sources for %u figures; expected one source id a figure", 
                        g_strv_length(sl), n);
    r->nf = n;
    for (guint i = 0; i < n; i++) {
        Figure f;
        if (!figure_parse(fl[i], &f, &e)) {
            plan_bad(error, plan, group, "figures", "%s", e->message);
            g_error_free(e);
            return FALSE;
        }
        g_array_append_val(figs, f);
        g_ptr_array_add(srcs, sl ? g_strdup(sl[i]) : NULL);
    }
    return TRUE;
}

/* The [fit] group: GROUP.KEY = LO..HI lines, as --fit takes them. */
static gboolean plan_fits(const Cal *c, GKeyFile *kf, GPtrArray *fits, GError **error)
{
    if (!g_key_file_has_group(kf, "fit"))
        return TRUE;
    g_auto(GStrv) keys = g_key_file_get_keys(kf, "fit", NULL, NULL);
    for (guint i = 0; keys && keys[i]; i++) {
        g_autofree char *range = plan_str(kf, "fit", keys[i]);
        if (!range || !strstr(range, ".."))
            return plan_bad(error, c->plan, "fit", keys[i], "found \"%s\", expected LO..HI",
                            range ? range : "");
        if (g_str_has_prefix(keys[i], "workload.") || g_str_has_prefix(keys[i], "env."))
            return plan_bad(error, c->plan, "fit", keys[i],
                            "a host-tool key; a plan fits drive keys only");
        g_ptr_array_add(fits, g_strdup_printf("%s=%s", keys[i], range));
    }
    return TRUE;
}

/* The options a plan gives itself: refused on the command line. */
static gboolean plan_exclusive(const CalibOptions *o, GError **error)
{
    const char *opt = o->run.drive ? "--drive"
                      : o->run.spec ? "--workload"
                      : o->run.job  ? "--job"
                      : o->curve    ? "--curve"
                      : o->figures  ? "--figure"
                      : o->run.prefill ? "--prefill"
                                       : NULL;
    if (!opt)
        return TRUE;
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                "%s with --plan: the plan's runs give their drives, workloads and figures; "
                "expected one of the two",
                opt);
    return FALSE;
}

/* The runs, fit then check figures in c->fig and c->chk, in the plan's
 * order. */
static gboolean plan_runs(Cal *c, GKeyFile *kf, GError **error)
{
    g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
    g_autoptr(GArray) figs = g_array_new(FALSE, TRUE, sizeof(Figure));
    g_autoptr(GPtrArray) srcs = g_ptr_array_new_with_free_func(g_free);
    GArray *runs = g_array_new(FALSE, TRUE, sizeof(CalRun));
    gboolean ok = TRUE;
    for (guint i = 0; ok && groups[i]; i++) {
        if (strcmp(groups[i], "plan") == 0 || strcmp(groups[i], "fit") == 0)
            continue;
        if (!g_str_has_prefix(groups[i], "run ")) {
            ok = plan_bad(error, c->plan, groups[i], NULL,
                          "unknown group; expected [plan], [fit] or [run NAME]");
            break;
        }
        CalRun r = {0};
        ok = plan_run(c, kf, groups[i], &r, figs, srcs, error);
        if (ok)
            g_array_append_val(runs, r);
    }
    c->nruns = runs->len;
    c->runs = (CalRun *)g_array_free(runs, FALSE);
    if (!ok)
        return FALSE;
    /* fit figures first, then checks, each run's together */
    c->fig = g_new0(Figure, figs->len + 1);
    c->chk = g_new0(Figure, figs->len + 1);
    c->fig_src = g_new0(char *, figs->len + 1);
    guint at = 0;
    for (int pass = 0; pass < 2; pass++)
        for (guint r = 0, from = 0; r < c->nruns; from += c->runs[r++].nf) {
            CalRun *run = &c->runs[r];
            if (run->check != (pass == 1))
                continue;
            run->f0 = run->check ? c->nchk : c->nf;
            for (guint i = 0; i < run->nf; i++) {
                Figure *f = &g_array_index(figs, Figure, from + i);
                if (run->check)
                    c->chk[c->nchk++] = *f;
                else
                    c->fig[c->nf++] = *f;
                c->fig_src[at++] = g_strdup(g_ptr_array_index(srcs, from + i));
            }
        }
    if (c->nf == 0)
        return plan_bad(error, c->plan, "run NAME", "role",
                        "no fit run; expected at least one run with role = fit (the default)");
    return TRUE;
}

gboolean cal_plan_load(Cal *c, GStrv *fits, GError **error)
{
    const CalibOptions *o = c->o;
    *fits = NULL;
    if (!plan_exclusive(o, error))
        return FALSE;
    c->plan = g_new0(CalPlan, 1);
    c->plan->path = g_strdup(o->plan);
    c->plan->strings = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GKeyFile) kf = g_key_file_new();
    GError *e = NULL;
    if (!g_key_file_load_from_file(kf, o->plan, G_KEY_FILE_NONE, &e)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--plan %s: %s", o->plan, e->message);
        g_error_free(e);
        return FALSE;
    }
    if (g_key_file_has_group(kf, "plan")) {
        g_auto(GStrv) keys = g_key_file_get_keys(kf, "plan", NULL, NULL);
        for (guint i = 0; keys && keys[i]; i++)
            if (strcmp(keys[i], "family") != 0)
                return plan_bad(error, c->plan, "plan", keys[i], "unknown key; expected family");
        g_autofree char *family = plan_str(kf, "plan", "family");
        if (family) {
            c->plan->family = plan_path(c->plan, family);
            if (!g_file_test(c->plan->family, G_FILE_TEST_IS_REGULAR))
                return plan_bad(error, c->plan, "plan", "family",
                                "%s: no such file; expected the config file the fitted keys "
                                "belong to",
                                c->plan->family);
        }
    }
    if (!plan_runs(c, kf, error))
        return FALSE;
    GPtrArray *all = g_ptr_array_new();
    for (guint i = 0; o->fits && o->fits[i]; i++)
        g_ptr_array_add(all, g_strdup(o->fits[i]));
    gboolean ok = plan_fits(c, kf, all, error);
    g_ptr_array_add(all, NULL);
    *fits = (GStrv)g_ptr_array_free(all, FALSE);
    c->target = c->plan->family;
    for (guint r = 0; !c->target && r < c->nruns; r++)
        if (!c->runs[r].check)
            c->target = c->runs[r].ro.drive; /* the first fit run's */
    return ok;
}

const CalRun *cal_fig_run(const Cal *c, guint i, gboolean check)
{
    for (guint r = 0; r < c->nruns; r++)
        if (c->runs[r].check == check && i >= c->runs[r].f0 && i < c->runs[r].f0 + c->runs[r].nf)
            return &c->runs[r];
    return NULL;
}
