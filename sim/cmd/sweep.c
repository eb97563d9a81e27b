/*
 * sweep.c - one workload on a drive, once for each combination of values
 * of some keys (ftlsim run --vary): the what-if study in one command.
 *
 * Every combination is loaded and checked before anything is written, so a
 * bad value leaves no folder behind. The runs go to OUT/LABEL, each an
 * ordinary results folder; OUT/sweep.csv, written through its own OutDir
 * once every run succeeded, puts their measures side by side.
 *
 * A sweep too large for one machine is emitted instead (--emit): the same
 * checks, then a folder of jobs (one `ftlsim run` each, for GNU parallel or
 * a Slurm array) and a manifest; once the jobs have run, `ftlsim sweep
 * collect` builds the same sweep.csv from their folders.
 */
#include "sim/cmd/run.h"
#include "sim/output/html.h"

#include "sim/config/config.h"
#include "sim/output/outdir.h"
#include "sim/output/report.h"
#include "sim/output/report_table.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define SWEEP_MAX_RUNS 1000

typedef struct Axis {
    char *key; /* GROUP.KEY */
    GStrv values;
    guint n;
} Axis;

static void axes_free(GArray *axes)
{
    for (guint i = 0; i < axes->len; i++) {
        Axis *a = &g_array_index(axes, Axis, i);
        g_free(a->key);
        g_strfreev(a->values);
    }
    g_array_free(axes, TRUE);
}

static gboolean bad_vary(GError **error, const char *spec, const char *why)
{
    g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--vary \"%s\": %s", spec, why);
    return FALSE;
}

/* Value v as its part of a run's folder name ('/' would make a path). */
static char *folder_part(const char *v)
{
    return g_strdelimit(g_strdup(v), "/\\", '_');
}

/* GROUP.KEY=V1,V2,... into an axis; the key must not be varied twice nor
 * set by --set too (which would win would not be clear). A value is
 * printable (it names a folder and a row of sweep.csv), and no two make
 * one folder name. */
static gboolean parse_axis(const char *spec, const char *const *sets, GArray *axes, GError **error)
{
    const char *eq = strchr(spec, '=');
    const char *dot = strchr(spec, '.');
    if (!eq || !dot || dot > eq || dot == spec || dot + 1 == eq || eq[1] == '\0')
        return bad_vary(error, spec, "expected GROUP.KEY=V1,V2,..., e.g. pslc.static=0,6GB,12GB");
    Axis a = {.key = g_strndup(spec, (gsize)(eq - spec)), .values = g_strsplit(eq + 1, ",", -1)};
    a.n = g_strv_length(a.values);
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < a.n; i++) {
        g_strstrip(a.values[i]);
        if (a.values[i][0] == '\0')
            ok = bad_vary(error, spec, "an empty value");
        for (const char *c = a.values[i]; ok && *c; c++)
            if (g_ascii_iscntrl(*c))
                ok = bad_vary(error, spec, "a value holds a control character (such as a "
                                           "newline); expected printable values");
        g_autofree char *part = folder_part(a.values[i]);
        for (guint j = 0; ok && j < i; j++) {
            g_autofree char *other = folder_part(a.values[j]);
            if (strcmp(a.values[i], a.values[j]) == 0)
                ok = bad_vary(error, spec, "a value given twice");
            else if (strcmp(part, other) == 0)
                ok = bad_vary(error, spec, "two values make one folder name ('/' and '\\' "
                                           "become '_'); expected values that differ otherwise");
        }
    }
    for (guint i = 0; ok && i < axes->len; i++)
        if (strcmp(g_array_index(axes, Axis, i).key, a.key) == 0)
            ok = bad_vary(error, spec, "the key is varied twice");
    gsize klen = strlen(a.key);
    for (guint i = 0; ok && sets && sets[i]; i++)
        if (strncmp(sets[i], a.key, klen) == 0 && sets[i][klen] == '=')
            ok = bad_vary(error, spec, "the key is also given by --set");
    if (!ok) {
        g_free(a.key);
        g_strfreev(a.values);
        return FALSE;
    }
    g_array_append_val(axes, a);
    return TRUE;
}

/* The values of combination k (the last axis varies fastest). */
static void combo_values(GArray *axes, guint k, const char **vals)
{
    for (guint i = axes->len; i-- > 0;) {
        Axis *a = &g_array_index(axes, Axis, i);
        vals[i] = a->values[k % a->n];
        k /= a->n;
    }
}

/* "KEY=VALUE,KEY=VALUE": the run's folder name ('/' would make a path). */
static char *combo_label(GArray *axes, const char **vals)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < axes->len; i++)
        g_string_append_printf(s, "%s%s=%s", i ? "," : "", g_array_index(axes, Axis, i).key,
                               vals[i]);
    g_autofree char *label = g_string_free(s, FALSE);
    return folder_part(label);
}

/* o->sets followed by the combination's overrides; free with g_strfreev. */
static GStrv combo_sets(const RunOptions *o, GArray *axes, const char **vals)
{
    GPtrArray *a = g_ptr_array_new();
    for (guint i = 0; o->sets && o->sets[i]; i++)
        g_ptr_array_add(a, g_strdup(o->sets[i]));
    for (guint i = 0; i < axes->len; i++)
        g_ptr_array_add(a, g_strdup_printf("%s=%s", g_array_index(axes, Axis, i).key, vals[i]));
    g_ptr_array_add(a, NULL);
    return (GStrv)g_ptr_array_free(a, FALSE);
}

/* A CSV field: quoted when it holds a comma or a quote. */
static void csv_field(GString *out, const char *s)
{
    if (!strpbrk(s, ",\"")) {
        g_string_append(out, s);
        return;
    }
    g_string_append_c(out, '"');
    for (; *s; s++) {
        if (*s == '"')
            g_string_append_c(out, '"');
        g_string_append_c(out, *s);
    }
    g_string_append_c(out, '"');
}

/* Field i (0-based) of a CSV row without quotes, for the progress line. */
static char *row_field(const char *row, int i)
{
    g_auto(GStrv) f = g_strsplit(row, ",", -1);
    return i >= 0 && (guint)i < g_strv_length(f) ? g_strdup(f[i]) : g_strdup("");
}

/* One run of a sweep: its overrides, folder name, measures or error. */
typedef struct SweepRun {
    GStrv sets;
    char *label;
    GString *row;   /* report_sweep_row() of the run */
    GError *error;  /* the run failed */
    gboolean done;  /* row or error set */
    gboolean shown; /* its line is on stdout */
} SweepRun;

/* The line of run k on stdout (unless quiet): the first time only. */
static void show_run(const RunOptions *o, SweepRun *sr, guint k, guint runs)
{
    SweepRun *s = &sr[k];
    if (o->quiet || s->shown)
        return;
    s->shown = TRUE;
    g_autofree char *mbps = row_field(s->row->str, report_sweep_column("write_MBps")),
                    *waf = row_field(s->row->str, report_sweep_column("waf"));
    printf("run %u/%u  %s: write %s MB/s, WAF %s\n", k + 1, runs, s->label, mbps[0] ? mbps : "-",
           waf[0] ? waf : "-");
    fflush(stdout);
}

/* A forked sweep: its runs and where the lines shown have got to. */
typedef struct Forked {
    const RunOptions *o;
    SweepRun *sr;
    guint runs, shown;
    GPtrArray *dirs;
} Forked;

static pid_t forked_start(void *ctx, guint k, int *fd, GError **error)
{
    Forked *f = ctx;
    RunOptions ro = *f->o;
    ro.sets = (const char *const *)f->sr[k].sets;
    ro.out = g_ptr_array_index(f->dirs, k);
    ro.quiet = TRUE;
    ro.plot = FALSE;
    ro.sweep_row = f->sr[k].row;
    return run_child_spawn(&ro, NULL, NULL, fd, error);
}

static void forked_failed(void *ctx, guint k, GError *error)
{
    Forked *f = ctx;
    g_propagate_error(&f->sr[k].error, error);
}

/* What the child of run k wrote, once it has exited; the lines of the runs
 * done so far, in sweep order. */
static void forked_done(void *ctx, guint k, int fd, int status)
{
    Forked *f = ctx;
    SweepRun *s = &f->sr[k];
    run_child_result(fd, status, s->row, &s->error);
    s->done = TRUE;
    while (f->shown < f->runs && f->sr[f->shown].done && !f->sr[f->shown].error)
        show_run(f->o, f->sr, f->shown++, f->runs);
}

/* Run the sweep jobs at a time, each in a child process (the simulator is
 * single-threaded); results land in sr[k].row or sr[k].error. Every run is
 * started, whatever the others do: the first failure in sweep order is
 * reported. */
static void run_forked(const RunOptions *o, SweepRun *sr, guint runs, GPtrArray *dirs,
                       guint jobs)
{
    Forked f = {.o = o, .sr = sr, .runs = runs, .dirs = dirs};
    ChildPool pool = {.n = runs, .jobs = jobs, .ctx = &f, .start = forked_start,
                      .failed = forked_failed, .done = forked_done};
    g_autofree pid_t *pids = g_new(pid_t, runs);
    guint next = run_child_pool(&pool, pids);
    for (guint k = 0; k < runs; k++)
        if (k >= next && runner_signal() && !sr[k].error)
            g_set_error_literal(&sr[k].error, RUN_ERROR, RUN_ERROR_INTERRUPTED, "not started");
        else if ((pids[k] != 0 || k >= next) && !sr[k].error)
            g_set_error_literal(&sr[k].error, RUN_ERROR, RUN_ERROR_FAILED,
                                "its process could not be waited for");
}

/* The overlay of the runs' write curves, DIR/sweep.png (or .svg); a
 * figure that cannot be drawn is said on stderr and is not an error. */
static void draw_overlay(GPtrArray *dirs, const char *dir, const char *script_dir,
                         PlotFormat fmt, gboolean quiet)
{
    g_ptr_array_add(dirs, NULL);
    g_autofree char *fig = g_build_filename(dir, fmt == PLOT_SVG ? "sweep.svg" : "sweep.png", NULL);
    GError *perr = NULL;
    if (plot_overlay((const char *const *)dirs->pdata, fig, script_dir, fmt, &perr)) {
        if (!quiet)
            printf("figure    %s\n", fig);
    } else {
        plot_warn(perr);
    }
}

/* The header of sweep.csv: the varied keys, the folder, the measures. */
static void table_header(GString *table, const char *const *keys, guint nkeys)
{
    for (guint i = 0; i < nkeys; i++) {
        csv_field(table, keys[i]);
        g_string_append_c(table, ',');
    }
    g_string_append_printf(table, "dir,%s\n", report_sweep_header());
}

/* path made absolute against the current folder; g_free it. */
static char *absolute(const char *path)
{
    if (g_path_is_absolute(path))
        return g_strdup(path);
    g_autofree char *cwd = g_get_current_dir();
    return g_build_filename(cwd, path, NULL);
}

/* An earlier emission's run folder under the sweep's: with force its results
 * go (so that collect cannot take them for new ones), else it is refused. */
static gboolean clear_run_dir(const char *dir, gboolean force, GError **error)
{
    if (!g_file_test(dir, G_FILE_TEST_EXISTS))
        return TRUE;
    if (!force) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: results of an earlier run are there; use --force to replace them", dir);
        return FALSE;
    }
    /* committing a forced folder with no files removes what ftlsim wrote there */
    OutDir *od = outdir_open(dir, TRUE, error);
    if (!od)
        return FALSE;
    gboolean ok = outdir_commit(od, error);
    outdir_free(od);
    if (!ok)
        return FALSE;
    g_autofree char *manifest = g_build_filename(dir, OUTDIR_MANIFEST, NULL);
    g_unlink(manifest);
    g_rmdir(dir); /* only if nothing else is left in it */
    return TRUE;
}

/* jobs.txt (one shell command a run, each into its own folder under out)
 * and sweep-manifest.csv (each run's values and folder) into jobs and
 * manifest. */
static void emit_jobs(const SweepOptions *so, GArray *axes, guint runs, const char *out,
                      const char *q_cwd, const char *q_exe, GString *jobs, GString *manifest)
{
    const char **vals = g_newa(const char *, axes->len);
    for (guint i = 0; i < axes->len; i++) {
        csv_field(manifest, g_array_index(axes, Axis, i).key);
        g_string_append_c(manifest, ',');
    }
    g_string_append(manifest, "dir\n");
    for (guint k = 0; k < runs; k++) {
        combo_values(axes, k, vals);
        g_autofree char *label = combo_label(axes, vals);
        g_string_append_printf(jobs, "cd %s && %s run", q_cwd, q_exe);
        for (guint i = 0; so->rerun_args && so->rerun_args[i]; i++) {
            g_autofree char *q = g_shell_quote(so->rerun_args[i]);
            g_string_append_printf(jobs, " %s", q);
        }
        for (guint i = 0; i < axes->len; i++) {
            g_autofree char *set =
                g_strdup_printf("%s=%s", g_array_index(axes, Axis, i).key, vals[i]);
            g_autofree char *q = g_shell_quote(set);
            g_string_append_printf(jobs, " --set %s", q);
        }
        g_autofree char *dir = g_build_filename(out, label, NULL);
        g_autofree char *log_name = g_strconcat(label, ".err", NULL);
        g_autofree char *log = g_build_filename(out, "logs", log_name, NULL);
        g_autofree char *q_dir = g_shell_quote(dir), *q_log = g_shell_quote(log);
        g_string_append_printf(jobs, " --sweep-row -q -f -o %s 2>%s\n", q_dir, q_log);
        for (guint i = 0; i < axes->len; i++) {
            csv_field(manifest, vals[i]);
            g_string_append_c(manifest, ',');
        }
        csv_field(manifest, label);
        g_string_append_c(manifest, '\n');
    }
}

/* sweep.slurm: a Slurm array whose task N runs line N+1 of jobs.txt. */
static char *emit_slurm_script(guint runs, const char *out, const char *q_exe,
                               const char *q_jobs, const char *jobs_path)
{
    g_autofree char *logs = g_build_filename(out, "logs", NULL);
    return g_strdup_printf(
        "#!/bin/bash\n"
        "# An ftlsim sweep of %u runs as a Slurm array: task N runs line N+1 of\n"
        "# jobs.txt into its own folder. Add the --time, --mem and --partition your\n"
        "# cluster wants. Submit with\n"
        "#   sbatch %s/sweep.slurm\n"
        "# and once the tasks are done, build sweep.csv with\n"
        "#   %s sweep collect %s\n"
        "#SBATCH --job-name=ftlsim-sweep\n"
        "#SBATCH --array=0-%u\n"
        "#SBATCH --ntasks=1\n"
        "#SBATCH --cpus-per-task=1\n"
        "#SBATCH --output=%s/slurm-%%A_%%a.out\n"
        "set -euo pipefail\n"
        ": \"${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}\"\n"
        "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" %s)\n"
        "if [ -z \"$line\" ]; then\n"
        "    echo \"ftlsim sweep: no job $SLURM_ARRAY_TASK_ID in %s\" >&2\n"
        "    exit 2\n"
        "fi\n"
        "exec bash -c \"$line\"\n",
        runs, out, q_exe, out, runs - 1, logs, q_jobs, jobs_path);
}

/* Write the jobs of every combination (checked already) into o->out. */
static gboolean emit(const SweepOptions *so, GArray *axes, guint runs, GError **error)
{
    const RunOptions *o = so->run;
    g_autofree char *out = absolute(o->out);
    g_autofree char *cwd = g_get_current_dir();
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (!exe) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "cannot tell where the ftlsim binary is");
        return FALSE;
    }
    const char **vals = g_newa(const char *, axes->len);
    for (guint k = 0; k < runs; k++) {
        combo_values(axes, k, vals);
        g_autofree char *label = combo_label(axes, vals);
        g_autofree char *dir = g_build_filename(out, label, NULL);
        if (!clear_run_dir(dir, o->force, error))
            return FALSE;
    }
    g_autoptr(OutDir) od = outdir_open(o->out, o->force, error);
    if (!od)
        return FALSE;
    g_autoptr(GString) jobs = g_string_new(NULL);
    g_autoptr(GString) manifest = g_string_new(NULL);
    g_autofree char *q_cwd = g_shell_quote(cwd), *q_exe = g_shell_quote(exe);
    emit_jobs(so, axes, runs, out, q_cwd, q_exe, jobs, manifest);
    if (!outdir_write_text(od, "jobs.txt", jobs->str, error) ||
        !outdir_write_text(od, "sweep-manifest.csv", manifest->str, error))
        return FALSE;
    g_autofree char *jobs_path = g_build_filename(out, "jobs.txt", NULL);
    g_autofree char *q_jobs = g_shell_quote(jobs_path), *q_out = g_shell_quote(out);
    g_autofree char *script =
        so->emit == EMIT_SLURM ? emit_slurm_script(runs, out, q_exe, q_jobs, jobs_path) : NULL;
    if ((script && !outdir_write_text(od, "sweep.slurm", script, error)) ||
        !outdir_commit(od, error))
        return FALSE;
    g_autofree char *logs = g_build_filename(out, "logs", NULL);
    if (g_mkdir_with_parents(logs, 0777) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "%s: %s", logs, g_strerror(errno));
        return FALSE;
    }
    if (so->emit == EMIT_SLURM) {
        g_autofree char *slurm = g_build_filename(out, "sweep.slurm", NULL);
        g_chmod(slurm, 0755);
    }
    if (!o->quiet) {
        printf("sweep     %u runs written as jobs to %s/jobs.txt\n", runs, out);
        if (so->emit == EMIT_SLURM)
            printf("submit    sbatch %s/sweep.slurm\n", out);
        else
            printf("run       parallel --joblog %s/joblog < %s\n", q_out, q_jobs);
        printf("then      %s sweep collect %s\n", run_invoked_as(), q_out);
    }
    return TRUE;
}


/* The measures row of a run folder that has results, or NULL (none yet;
 * with error: a damaged sweep-row.csv, refused). *stopped: a signal
 * stopped the run part way (its "interrupted" column is 1). */
static char *finished_row(const char *run_dir, gboolean *stopped, GError **error)
{
    *stopped = FALSE;
    g_autofree char *summary = g_build_filename(run_dir, "summary.json", NULL);
    g_autofree char *path = g_build_filename(run_dir, "sweep-row.csv", NULL);
    if (!g_file_test(summary, G_FILE_TEST_EXISTS) || !g_file_test(path, G_FILE_TEST_EXISTS))
        return NULL;
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, NULL))
        return NULL;
    char *nl = strchr(text, '\n');
    const char *header = report_sweep_header();
    if (!nl || (size_t)(nl - text) != strlen(header) || strncmp(text, header, strlen(header)) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s:1: expected the header \"%.30s...\" (written by another version of "
                    "ftlsim?)",
                    path, header);
        return NULL;
    }
    char *row = nl + 1, *end = strchr(row, '\n');
    if (strlen(text) != len || !end || end[1] != '\0') {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s:2: found %s, expected one row ending in a newline", path,
                    strlen(text) != len ? "a NUL byte"
                    : !end               ? "a row without its newline"
                                         : "more than one row");
        return NULL;
    }
    *end = '\0';
    g_auto(GStrv) f = csv_fields(row);
    g_auto(GStrv) h = csv_fields(header);
    guint nf = g_strv_length(f), nh = g_strv_length(h);
    if (nf != nh) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s:2: found %u fields, expected %u as in the header (a damaged row)", path,
                    nf, nh);
        return NULL;
    }
    int col = report_sweep_column("interrupted");
    if (col >= 0 && strcmp(f[col], "0") != 0 && strcmp(f[col], "1") != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s:2: found \"%s\" in column interrupted, expected 0 or 1", path, f[col]);
        return NULL;
    }
    *stopped = col >= 0 && strcmp(f[col], "1") == 0;
    return g_strdup_printf("%s\n", row);
}

/* The first line of a run's log, sanitised, or NULL when it has none. */
static char *log_line(const char *dir, const char *label)
{
    g_autofree char *name = g_strconcat(label, ".err", NULL);
    g_autofree char *path = g_build_filename(dir, "logs", name, NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL) || text[0] == '\0')
        return NULL;
    text[strcspn(text, "\n")] = '\0';
    for (char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return g_strdup(text);
}

/* The manifest of an emitted sweep, read whole and checked: its lines and
 * its header's fields (ncol of them, the last "dir"). FALSE with the
 * error naming the line. */
static gboolean manifest_read(const char *mpath, GStrv *lines_out, GStrv *head_out,
                              guint *ncol_out, GError **error)
{
    g_autofree char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(mpath, &text, NULL, &e)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: %s (expected the folder of a sweep written by run --vary --emit)", mpath,
                    e->message);
        g_error_free(e);
        return FALSE;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    guint nlines = g_strv_length(lines);
    if (nlines < 2 || lines[0][0] == '\0') {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "%s:1: expected a header KEY,...,dir",
                    mpath);
        return FALSE;
    }
    g_auto(GStrv) head = csv_fields(lines[0]);
    guint ncol = g_strv_length(head);
    if (ncol < 2 || strcmp(head[ncol - 1], "dir") != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s:1: expected a header KEY,...,dir, found \"%s\"", mpath, lines[0]);
        return FALSE;
    }
    /* the whole manifest first: a bad row is refused before any run is said */
    for (guint l = 1; l < nlines; l++) {
        if (lines[l][0] == '\0')
            continue;
        g_auto(GStrv) f = csv_fields(lines[l]);
        if (g_strv_length(f) != ncol || f[ncol - 1][0] == '\0' || strchr(f[ncol - 1], '/') ||
            f[ncol - 1][0] == '.') {
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "%s:%u: expected %u fields, the last a run folder's name", mpath, l + 1,
                        ncol);
            return FALSE;
        }
    }
    *lines_out = g_steal_pointer(&lines);
    *head_out = g_steal_pointer(&head);
    *ncol_out = ncol;
    return TRUE;
}

gboolean run_sweep_collect(const char *dir, gboolean plot, PlotFormat fmt, const char *script_dir,
                           guint *missing, GError **error)
{
    *missing = 0;
    g_autofree char *mpath = g_build_filename(dir, "sweep-manifest.csv", NULL);
    g_auto(GStrv) lines = NULL, head = NULL;
    guint ncol = 0; /* set by manifest_read() */
    GError *e = NULL;
    if (!manifest_read(mpath, &lines, &head, &ncol, error))
        return FALSE;
    guint nlines = g_strv_length(lines);
    g_autoptr(GString) table = g_string_new(NULL);
    table_header(table, (const char *const *)head, ncol - 1);
    g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func(g_free);
    guint runs = 0, interrupted = 0;
    for (guint l = 1; l < nlines; l++) {
        if (lines[l][0] == '\0')
            continue;
        g_auto(GStrv) f = csv_fields(lines[l]); /* checked by manifest_read() */
        runs++;
        const char *label = f[ncol - 1];
        g_autofree char *run_dir = g_build_filename(dir, label, NULL);
        gboolean stopped = FALSE;
        GError *row_err = NULL;
        g_autofree char *row = finished_row(run_dir, &stopped, &row_err);
        if (row_err) {
            g_propagate_error(error, row_err);
            return FALSE;
        }
        if (stopped) {
            fprintf(stderr, "ftlsim: sweep collect: %s interrupted: a signal stopped it part "
                            "way (its row is in the table, interrupted 1)\n", label);
            (*missing)++;
            interrupted++;
        }
        if (!row) {
            g_autofree char *why = log_line(dir, label);
            if (why)
                fprintf(stderr, "ftlsim: sweep collect: %s failed: %s\n", label, why);
            else
                fprintf(stderr, "ftlsim: sweep collect: %s missing: no results yet\n", label);
            (*missing)++;
            continue;
        }
        for (guint i = 0; i < ncol - 1; i++) {
            csv_field(table, f[i]);
            g_string_append_c(table, ',');
        }
        csv_field(table, label);
        g_string_append_printf(table, ",%s", row);
        g_ptr_array_add(dirs, g_steal_pointer(&run_dir));
    }
    if (runs == 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "%s: no runs listed", mpath);
        return FALSE;
    }
    g_autofree char *csv = g_build_filename(dir, "sweep.csv", NULL);
    if (!outdir_write_dest(csv, table->str, table->len, &e)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "%s: %s", csv, e->message);
        g_error_free(e);
        return FALSE;
    }
    if (interrupted)
        printf("sweep     %u of %u runs finished, %u interrupted, table %s\n", runs - *missing,
               runs, interrupted, csv);
    else
        printf("sweep     %u of %u runs finished, table %s\n", runs - *missing, runs, csv);
    if (plot && dirs->len > 0)
        draw_overlay(dirs, dir, script_dir, fmt, FALSE);
    sweep_write_report(dir, dirs, plot, fmt, script_dir);
    return TRUE;
}

/* Every combination loads: checked before anything is written. */
static gboolean sweep_check_all(const RunOptions *o, GArray *axes, guint runs, GError **error)
{
    const char **vals = g_newa(const char *, axes->len);
    for (guint k = 0; k < runs; k++) {
        combo_values(axes, k, vals);
        g_auto(GStrv) sets = combo_sets(o, axes, vals);
        DriveParams p;
        if (!config_load_file_set(o->drive, (const char *const *)sets, &p, error)) {
            g_autofree char *label = combo_label(axes, vals);
            g_prefix_error(error, "--vary %s: ", label);
            return FALSE;
        }
    }
    return TRUE;
}

/* Run k of the sweep here (one job at a time) unless a signal came. */
static void sweep_run_here(const RunOptions *o, SweepRun *sr, const char *dir)
{
    if (runner_signal()) {
        g_set_error_literal(&sr->error, RUN_ERROR, RUN_ERROR_INTERRUPTED, "not started");
        return;
    }
    RunOptions ro = *o;
    ro.sets = (const char *const *)sr->sets;
    ro.out = dir;
    ro.quiet = TRUE;
    ro.plot = FALSE;
    ro.sweep_row = sr->row;
    run_simulation(&ro, &sr->error);
}

/* The runs (here, or already forked), their rows into table; counted in
 * *finished and *stopped (by a signal part way). FALSE on a run that
 * failed. */
static gboolean sweep_table(const RunOptions *o, GArray *axes, SweepRun *sr, guint runs,
                            GPtrArray *dirs, guint jobs, GString *table, guint *finished,
                            guint *stopped, GError **error)
{
    const char **vals = g_newa(const char *, axes->len);
    for (guint k = 0; k < runs; k++) {
        if (jobs <= 1)
            sweep_run_here(o, &sr[k], g_ptr_array_index(dirs, k));
        gboolean cut = g_error_matches(sr[k].error, RUN_ERROR, RUN_ERROR_INTERRUPTED);
        if (cut && sr[k].row->len == 0)
            continue; /* stopped before it began: no folder, no row */
        if (sr[k].error && !cut) {
            g_propagate_prefixed_error(error, g_steal_pointer(&sr[k].error),
                                       "--vary %s: ", sr[k].label);
            return FALSE;
        }
        combo_values(axes, k, vals);
        for (guint i = 0; i < axes->len; i++) {
            csv_field(table, vals[i]);
            g_string_append_c(table, ',');
        }
        csv_field(table, sr[k].label);
        g_string_append_printf(table, ",%s", sr[k].row->str);
        if (cut) {
            (*stopped)++;
        } else {
            (*finished)++;
            show_run(o, sr, k, runs);
        }
    }
    return TRUE;
}

/* sweep.csv written and the folder committed, or after a signal the
 * interruption's error; then the overlay and the report. */
static gboolean sweep_finish(const RunOptions *o, OutDir *od, GString *table, GPtrArray *dirs,
                             guint runs, guint finished, guint stopped, GError **error)
{
    int sig = runner_signal();
    if (sig && finished + stopped == 0) {
        sim_interrupted_error(error, RUN_ERROR, RUN_ERROR_INTERRUPTED, sig, "before any run began",
                              "nothing written");
        return FALSE;
    }
    if (!outdir_write_text(od, "sweep.csv", table->str, error) || !outdir_commit(od, error))
        return FALSE;
    if (sig) {
        g_autofree char *when = g_strdup_printf("after %u of %u runs finished, %u stopped part way",
                                                finished, runs, stopped);
        g_autofree char *left = g_strdup_printf(
            "the runs so far are in %s (interrupted 1 in sweep.csv, \"interrupted\": true in "
            "a stopped run's summary.json)", o->out);
        sim_interrupted_error(error, RUN_ERROR, RUN_ERROR_INTERRUPTED, sig, when, left);
        return FALSE;
    }
    if (!o->quiet)
        printf("sweep     %u runs in %s, table %s/sweep.csv\n", runs, o->out, o->out);
    if (o->plot)
        draw_overlay(dirs, o->out, o->script_dir, o->plot_format, o->quiet);
    sweep_write_report(o->out, dirs, o->plot, o->plot_format, o->script_dir);
    return TRUE;
}

/* Check every combination, then run them and write the table. */
static gboolean sweep(const SweepOptions *so, GArray *axes, guint runs, GError **error)
{
    const RunOptions *o = so->run;
    guint jobs = so->jobs;
    if (!sweep_check_all(o, axes, runs, error))
        return FALSE;
    if (o->dry_run)
        return run_simulation(o, error); /* the workload binds; nothing is written */
    if (so->emit != EMIT_NONE)
        return emit(so, axes, runs, error);
    g_autoptr(OutDir) od = outdir_open(o->out, o->force, error);
    if (!od)
        return FALSE;
    g_autoptr(GString) table = g_string_new(NULL);
    const char **keys = g_newa(const char *, axes->len + 1);
    const char **vals = g_newa(const char *, axes->len);
    for (guint i = 0; i < axes->len; i++)
        keys[i] = g_array_index(axes, Axis, i).key;
    table_header(table, keys, axes->len);
    g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func(g_free);
    SweepRun *sr = g_new0(SweepRun, runs);
    for (guint k = 0; k < runs; k++) {
        combo_values(axes, k, vals);
        sr[k].sets = combo_sets(o, axes, vals);
        sr[k].label = combo_label(axes, vals);
        sr[k].row = g_string_new(NULL);
        g_ptr_array_add(dirs, g_build_filename(o->out, sr[k].label, NULL));
    }
    guint finished = 0, stopped = 0; /* runs in the table: whole, and stopped by a signal */
    if (jobs > 1)
        run_forked(o, sr, runs, dirs, jobs);
    gboolean ok = sweep_table(o, axes, sr, runs, dirs, jobs, table, &finished, &stopped, error);
    for (guint k = 0; k < runs; k++) {
        g_strfreev(sr[k].sets);
        g_free(sr[k].label);
        g_string_free(sr[k].row, TRUE);
        g_clear_error(&sr[k].error);
    }
    g_free(sr);
    return ok && sweep_finish(o, od, table, dirs, runs, finished, stopped, error);
}

gboolean run_sweep(const SweepOptions *so, GError **error)
{
    const RunOptions *o = so->run;
    const char *const *vary = so->vary;
    if (!o->out) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--vary needs --out DIR");
        return FALSE;
    }
    if (o->live) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--live does not go with --vary");
        return FALSE;
    }
    GArray *axes = g_array_new(FALSE, TRUE, sizeof(Axis));
    gboolean ok = TRUE;
    guint runs = 1;
    for (guint i = 0; ok && vary && vary[i]; i++) {
        ok = parse_axis(vary[i], o->sets, axes, error);
        if (ok)
            runs *= g_array_index(axes, Axis, axes->len - 1).n;
        if (ok && runs > SWEEP_MAX_RUNS) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "--vary: %u runs in all or more; expected at most %d", runs,
                        SWEEP_MAX_RUNS);
            ok = FALSE;
        }
    }
    if (ok && axes->len == 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT, "--vary: no key to vary");
        ok = FALSE;
    }
    ok = ok && sweep(so, axes, runs, error);
    axes_free(axes);
    return ok;
}
