/*
 * plot.c - figures through gnuplot, see plot.h.
 * Each figure is one run of `gnuplot -e VARS SCRIPT` (no shell) writing to
 * DIR/.NAME.tmp, renamed to DIR/NAME on success; a results folder's figures
 * are drawn at once (plot_figures()). The scripts read the CSVs by column
 * name; this file decides which figures have inputs and names the files.
 */
#include "sim/output/plot.h"

#include "sim/output/outdir.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* Characters of a title line that fit a figure's width. */
#define PLOT_TITLE_CHARS 100

/* clang-format off */
G_DEFINE_QUARK(ftlsim-plot-error-quark, plot_error)
/* clang-format on */

gboolean plot_available(void)
{
    g_autofree char *p = g_find_program_in_path("gnuplot");
    return p != NULL;
}

void plot_warn(GError *error)
{
    if (g_error_matches(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT))
        fprintf(stderr, "ftlsim: %s\n", plot_install_hint());
    else
        fprintf(stderr, "ftlsim: figures: %s\n", error->message);
    g_error_free(error);
}

const char *plot_install_hint(void)
{
    return "figures need gnuplot: apt-get install gnuplot-nox";
}

static const char *plot_ext(PlotFormat fmt)
{
    return fmt == PLOT_SVG ? "svg" : "png";
}

/* s as a gnuplot single-quoted string literal ('' stands for '). */
static void plot_append_quoted(GString *out, const char *s)
{
    g_string_append_c(out, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            g_string_append_c(out, '\'');
        g_string_append_c(out, *s);
    }
    g_string_append_c(out, '\'');
}

/* Append `name='value'; ` to a gnuplot -e argument. */
static void plot_var(GString *vars, const char *name, const char *value)
{
    g_string_append_printf(vars, "%s=", name);
    plot_append_quoted(vars, value);
    g_string_append(vars, "; ");
}

/* The file exists and has a data row below its header. */
static gboolean plot_has_rows(const char *path)
{
    FILE *f = g_fopen(path, "r");
    if (!f)
        return FALSE;
    int c, lines = 0;
    gboolean content = FALSE;
    while (lines < 2 && (c = getc(f)) != EOF) {
        if (c == '\n') {
            lines += content;
            content = FALSE;
        } else if (c != '\r' && c != ' ') {
            content = TRUE;
        }
    }
    fclose(f);
    return lines + content >= 2;
}

/* The line of gnuplot's stderr that names the error: the first one that
 * reads `"script" line N: ...` and is not a warning, else the first
 * non-blank line. */
static char *plot_first_error(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    for (int i = 0; lines[i]; i++)
        if (lines[i][0] == '"' && strstr(lines[i], " line ") && !strstr(lines[i], ": warning:"))
            return g_strdup(g_strstrip(lines[i]));
    for (int i = 0; lines[i]; i++)
        if (*g_strstrip(lines[i]))
            return g_strdup(lines[i]);
    return g_strdup("no message");
}

static char *plot_gnuplot_path(GError **error)
{
    char *p = g_find_program_in_path("gnuplot");
    if (!p)
        g_set_error_literal(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT, plot_install_hint());
    return p;
}

static char *plot_script_path(const char *script_dir, const char *name, GError **error)
{
    char *p = g_build_filename(script_dir, name, NULL);
    if (!g_file_test(p, G_FILE_TEST_IS_REGULAR)) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_SCRIPT,
                    "%s: not found; expected the gnuplot scripts of ftlsim in %s "
                    "(scripts/plot or share/ftlsim/plot)",
                    p, script_dir);
        g_free(p);
        return NULL;
    }
    return p;
}

/* A figure being drawn: gnuplot runs on its own while others are started,
 * writing to tmp; plot_finish() waits for it and puts the figure in place. */
typedef struct {
    char *script;   /* the .gp file, for messages */
    char *tmp;      /* where gnuplot writes */
    char *target;   /* where the figure goes (out_path, links followed) */
    char *out_path; /* as asked for, for messages */
    gboolean special; /* target is a device or pipe: its bytes are copied there */
    GPid pid;
    int err_fd; /* gnuplot's stderr */
} PlotJob;

static void plot_job_clear(PlotJob *j)
{
    g_free(j->script);
    g_free(j->tmp);
    g_free(j->target);
    g_free(j->out_path);
    memset(j, 0, sizeof *j);
}

/* Start gnuplot on script, writing out_path's figure through a temporary
 * name. vars holds the script's inputs; out and fmt are added here. */
static gboolean plot_start(PlotJob *j, const char *script, GString *vars, const char *out_path,
                           PlotFormat fmt, GError **error)
{
    memset(j, 0, sizeof *j);
    g_autofree char *gnuplot = plot_gnuplot_path(error);
    if (!gnuplot)
        return FALSE;
    /* a link is followed, a device or pipe written to (outdir_dest_resolve) */
    g_autofree char *target = outdir_dest_resolve(out_path, &j->special, error);
    if (!target) {
        g_prefix_error(error, "%s: ", out_path);
        return FALSE;
    }
    g_autofree char *tmp = NULL;
    if (j->special) {
        int fd = g_file_open_tmp("ftlsim-figure-XXXXXX", &tmp, error);
        if (fd < 0)
            return FALSE;
        close(fd);
    } else {
        g_autofree char *dir = g_path_get_dirname(target);
        g_autofree char *base = g_path_get_basename(target);
        g_autofree char *tmp_name = g_strdup_printf(".%s.tmp", base);
        tmp = g_build_filename(dir, tmp_name, NULL);
    }
    plot_var(vars, "fmt", plot_ext(fmt));
    plot_var(vars, "out", tmp);
    const char *argv[] = {gnuplot, "-e", vars->str, script, NULL};
    GError *e = NULL;
    if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
                                  G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                  &j->pid, NULL, NULL, &j->err_fd, &e)) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "%s: cannot run gnuplot: %s", script,
                    e->message);
        g_error_free(e);
        if (j->special)
            g_unlink(tmp);
        return FALSE;
    }
    j->script = g_strdup(script);
    j->tmp = g_steal_pointer(&tmp);
    j->target = g_steal_pointer(&target);
    j->out_path = g_strdup(out_path);
    return TRUE;
}

/* Wait for j's gnuplot; with keep, put its figure in place, else only
 * remove what it wrote (a figure before it failed). On failure the error
 * carries gnuplot's first error line. */
static gboolean plot_finish(PlotJob *j, gboolean keep, GError **error)
{
    g_autoptr(GString) err_text = g_string_new(NULL);
    char buf[4096];
    for (;;) { /* all of stderr first: gnuplot may block writing it */
        ssize_t n = read(j->err_fd, buf, sizeof buf);
        if (n > 0)
            g_string_append_len(err_text, buf, n);
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(j->err_fd);
    int status = 0;
    while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
        ;
    g_spawn_close_pid(j->pid);
    gboolean ok = FALSE;
    GStatBuf st;
    if (!keep) {
        /* nothing to report */
    } else if (!g_spawn_check_wait_status(status, NULL)) {
        g_autofree char *first = plot_first_error(err_text->str);
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "gnuplot %s failed: %s", j->script,
                    first);
    } else if (g_stat(j->tmp, &st) != 0 || st.st_size == 0) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "gnuplot %s wrote no figure to %s",
                    j->script, j->tmp);
    } else if (j->special) {
        g_autofree char *data = NULL;
        gsize len = 0;
        ok = g_file_get_contents(j->tmp, &data, &len, error) &&
             outdir_write_dest(j->target, data, len, error);
        if (!ok)
            g_prefix_error(error, "%s: ", j->out_path);
    } else if (g_rename(j->tmp, j->target) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot rename to %s: %s",
                    j->tmp, j->target, g_strerror(e));
    } else {
        ok = TRUE;
    }
    if (!ok || j->special)
        g_unlink(j->tmp);
    plot_job_clear(j);
    return ok;
}

/* Render one figure to out_path through its temporary name. */
static gboolean plot_render(const char *script, GString *vars, const char *out_path, PlotFormat fmt,
                            GError **error)
{
    PlotJob j;
    return plot_start(&j, script, vars, out_path, fmt, error) && plot_finish(&j, TRUE, error);
}

static char *plot_drive_from_json(const char *dir);

/* A drive name for a title line: one that would not fit a figure's width
 * (several --set overrides) breaks after each override's comma, so that
 * the title is never cut at the edges. g_free it. */
static char *plot_title_name(const char *drive)
{
    const char *sets = strstr(drive, " (");
    if (strlen(drive) <= PLOT_TITLE_CHARS || !sets)
        return g_strdup(drive);
    GString *out = g_string_new_len(drive, sets - drive);
    g_string_append(out, "\n(");
    size_t line = 1;
    for (const char *p = sets + 2; *p; p++) {
        if (p[0] == ',' && p[1] == ' ' && line > PLOT_TITLE_CHARS / 2) {
            g_string_append(out, ",\n");
            p++;
            line = 0;
            continue;
        }
        g_string_append_c(out, *p);
        line++;
    }
    return g_string_free(out, FALSE);
}

/* dir='...'; and the drive's name for the titles, when summary.json has it. */
static void plot_dir_vars(GString *vars, const char *dir)
{
    plot_var(vars, "dir", dir);
    g_autofree char *drive = plot_drive_from_json(dir);
    if (drive) {
        /* double quotes: gnuplot turns the \n of a broken title into lines */
        g_autofree char *title = plot_title_name(drive);
        g_string_append(vars, "drive=\"");
        for (const char *p = title; *p; p++) {
            if (*p == '\n')
                g_string_append(vars, "\\n");
            else if (*p == '"' || *p == '\\')
                g_string_append_printf(vars, "\\%c", *p);
            else
                g_string_append_c(vars, *p);
        }
        g_string_append(vars, "\"; ");
    }
}

gboolean plot_script(const char *dir, const char *script_dir, const char *script,
                     const char *out_base, const char *vars, PlotFormat fmt, GError **error)
{
    g_return_val_if_fail(dir != NULL && script_dir != NULL && script != NULL, FALSE);
    if (!plot_available()) {
        g_set_error_literal(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT, plot_install_hint());
        return FALSE;
    }
    g_autofree char *gp = g_strdup_printf("%s.gp", script);
    g_autofree char *path = plot_script_path(script_dir, gp, error);
    if (!path)
        return FALSE;
    g_autoptr(GString) v = g_string_new(NULL);
    plot_dir_vars(v, dir);
    if (vars)
        g_string_append(v, vars);
    g_autofree char *out_name = g_strdup_printf("%s.%s", out_base, plot_ext(fmt));
    g_autofree char *out = g_build_filename(dir, out_name, NULL);
    return plot_render(path, v, out, fmt, error);
}

/* The figures names[0..n) of a results folder, script NAME.gp to
 * DIR/NAME.EXT, each with its vars, drawn at once (a gnuplot each, on as
 * many cores as there are). The outcome is as if they were drawn one after
 * another: the figures before the first that fails are in place, none after
 * it, and the error is its. */
static gboolean plot_figures(const char *dir, const char *script_dir, const char *const *names,
                             GString *const *vars, unsigned n, PlotFormat fmt, GError **error)
{
    PlotJob jobs[8];
    g_assert(n <= G_N_ELEMENTS(jobs));
    unsigned started = 0, failed = n; /* the first figure that failed */
    GError *first = NULL;
    for (; started < n; started++) {
        g_autofree char *gp = g_strdup_printf("%s.gp", names[started]);
        g_autofree char *script = plot_script_path(script_dir, gp, &first);
        g_autofree char *out_name = g_strdup_printf("%s.%s", names[started], plot_ext(fmt));
        g_autofree char *out = g_build_filename(dir, out_name, NULL);
        if (!script || !plot_start(&jobs[started], script, vars[started], out, fmt, &first)) {
            failed = started;
            break;
        }
    }
    for (unsigned k = 0; k < started; k++) {
        GError *e = NULL;
        if (!plot_finish(&jobs[k], k < failed, &e) && k < failed) {
            g_clear_error(&first);
            first = e;
            failed = k;
        }
    }
    if (first) {
        g_propagate_error(error, first);
        return FALSE;
    }
    return TRUE;
}

gboolean plot_results(const char *dir, const char *script_dir, PlotFormat fmt, GError **error)
{
    g_return_val_if_fail(dir != NULL && script_dir != NULL, FALSE);
    if (!plot_available()) {
        g_set_error_literal(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT, plot_install_hint());
        return FALSE;
    }
    static const char *const series_names[] = {"write_curve", "throughput", "cache", "utilization"};
    const char *names[G_N_ELEMENTS(series_names) + 1];
    GString *vars[G_N_ELEMENTS(names)];
    unsigned n = 0;
    g_autofree char *series = g_build_filename(dir, "series.csv", NULL);
    if (plot_has_rows(series)) {
        g_autofree char *phases = g_build_filename(dir, "phases.csv", NULL);
        for (unsigned i = 0; i < G_N_ELEMENTS(series_names); i++, n++) {
            names[n] = series_names[i];
            vars[n] = g_string_new(NULL);
            plot_dir_vars(vars[n], dir);
            if (i == 0)
                g_string_append_printf(vars[n], "have_phases=%d; ", plot_has_rows(phases));
        }
    }
    g_autofree char *rd = g_build_filename(dir, "latency_read.csv", NULL);
    g_autofree char *wr = g_build_filename(dir, "latency_write.csv", NULL);
    gboolean have_read = plot_has_rows(rd), have_write = plot_has_rows(wr);
    if (have_read || have_write) {
        names[n] = "latency_cdf";
        vars[n] = g_string_new(NULL);
        plot_dir_vars(vars[n], dir);
        g_string_append_printf(vars[n], "have_read=%d; have_write=%d; ", have_read, have_write);
        n++;
    }
    gboolean ok = plot_figures(dir, script_dir, names, vars, n, fmt, error);
    for (unsigned i = 0; i < n; i++)
        g_string_free(vars[i], TRUE);
    return ok;
}

/* The "overrides" array of summary.json (the run's --set options), joined
 * with ", "; NULL when there is none or it is empty. The writer puts each
 * string on its own line. */
static char *plot_overrides_from_json(const char *text)
{
    g_autoptr(GRegex) re = g_regex_new("^\\s*\"overrides\"\\s*:\\s*\\[", G_REGEX_MULTILINE, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    int end;
    if (!re || !g_regex_match(re, text, 0, &m) || !g_match_info_fetch_pos(m, 0, NULL, &end))
        return NULL;
    g_autoptr(GRegex) item = g_regex_new("\\G\\s*,?\\s*\"((?:[^\"\\\\]|\\\\.)*)\"", 0, 0, NULL);
    g_autoptr(GString) out = g_string_new(NULL);
    const char *p = text + end;
    for (;;) {
        g_autoptr(GMatchInfo) mi = NULL;
        int stop;
        if (!g_regex_match(item, p, 0, &mi) || !g_match_info_fetch_pos(mi, 0, NULL, &stop))
            break;
        g_autofree char *raw = g_match_info_fetch(mi, 1);
        g_autofree char *set = g_strcompress(raw);
        if (g_utf8_validate(set, -1, NULL))
            g_string_append_printf(out, "%s%s", out->len ? ", " : "", set);
        p += stop;
    }
    return out->len ? g_string_free(g_steal_pointer(&out), FALSE) : NULL;
}

/* The "drive" member of summary.json, read by pattern: the writer puts one
 * member on a line; with the run's --set overrides after it in
 * parentheses, so that what-if runs of one drive tell apart. */
static char *plot_drive_from_json(const char *dir)
{
    g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    g_autoptr(GRegex) re = g_regex_new("^\\s*\"drive\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"",
                                       G_REGEX_MULTILINE, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    if (!re || !g_regex_match(re, text, 0, &m))
        return NULL;
    g_autofree char *raw = g_match_info_fetch(m, 1);
    char *name = g_strcompress(raw);
    if (!*name || !g_utf8_validate(name, -1, NULL)) {
        g_free(name);
        return NULL;
    }
    g_autofree char *sets = plot_overrides_from_json(text);
    if (sets) {
        char *both = g_strdup_printf("%s (%s)", name, sets);
        g_free(name);
        name = both;
    }
    return name;
}

char *plot_drive_name(const char *dir)
{
    g_return_val_if_fail(dir != NULL, NULL);
    char *name = plot_drive_from_json(dir);
    if (name)
        return name;
    g_autofree char *trimmed = g_strdup(dir);
    size_t n = strlen(trimmed);
    while (n > 1 && trimmed[n - 1] == '/')
        trimmed[--n] = '\0';
    return g_path_get_basename(trimmed);
}

gboolean plot_overlay(const char *const *dirs, const char *out_file, const char *script_dir,
                      PlotFormat fmt, GError **error)
{
    g_return_val_if_fail(dirs != NULL && out_file != NULL && script_dir != NULL, FALSE);
    if (!plot_available()) {
        g_set_error_literal(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT, plot_install_hint());
        return FALSE;
    }
    g_autofree char *script = plot_script_path(script_dir, "overlay.gp", error);
    if (!script)
        return FALSE;
    g_autoptr(GString) vars = g_string_new(NULL);
    int n = 0;
    for (; dirs[n]; n++) {
        g_autofree char *series = g_build_filename(dirs[n], "series.csv", NULL);
        if (!plot_has_rows(series)) {
            g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT,
                        "%s: missing or empty; expected a results folder with a time series",
                        series);
            return FALSE;
        }
        g_autofree char *dvar = g_strdup_printf("dir%d", n + 1);
        g_autofree char *nvar = g_strdup_printf("name%d", n + 1);
        g_autofree char *name = plot_drive_name(dirs[n]);
        plot_var(vars, dvar, dirs[n]);
        plot_var(vars, nvar, name);
    }
    if (n == 0) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT,
                    "%s: no results folders given; expected at least one", out_file);
        return FALSE;
    }
    g_string_append_printf(vars, "n=%d; ", n);
    return plot_render(script, vars, out_file, fmt, error);
}

gboolean plot_calibration(const char *dir, const char *out_file, const char *script_dir,
                          const char *title, PlotFormat fmt, GError **error)
{
    if (!plot_available()) {
        g_set_error_literal(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT, plot_install_hint());
        return FALSE;
    }
    g_autofree char *script = plot_script_path(script_dir, "calibration.gp", error);
    if (!script)
        return FALSE;
    g_autofree char *csv = g_build_filename(dir, "curves.csv", NULL);
    g_autofree char *figs = g_build_filename(dir, "figures.csv", NULL);
    gboolean curve = plot_has_rows(csv);
    if (!curve && !plot_has_rows(figs)) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT, "%s and %s: missing or empty", csv, figs);
        return FALSE;
    }
    g_autoptr(GString) vars = g_string_new(NULL);
    plot_var(vars, "dir", dir);
    if (title)
        plot_var(vars, "title", title);
    g_string_append_printf(vars, "curve=%d; ", curve);
    return plot_render(script, vars, out_file, fmt, error);
}

/* ---- Live write curve ---------------------------------------------------- */

struct PlotLive {
    char *dir;       /* results folder */
    char *script;    /* write_curve.gp */
    char *series;    /* dir/series.live.csv */
    char *png;       /* dir/write_curve.live.png (no display) */
    gboolean window; /* a gnuplot window is fed through sock */
    int sock;        /* our end of gnuplot's stdin (a socket: no SIGPIPE) */
    GPid pid;        /* the window's gnuplot */
    gint64 last;     /* us, monotonic: last redraw, 0 before the first */
};

/* Start the gnuplot that keeps the window; FALSE leaves pl without one. */
static gboolean plot_live_spawn(PlotLive *pl, const char *gnuplot)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return FALSE;
    const char *argv[] = {gnuplot, "-persist", NULL};
    gboolean ok = g_spawn_async_with_pipes_and_fds(
        NULL, argv, NULL,
        G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
        NULL, sv[1], -1, -1, NULL, NULL, 0, &pl->pid, NULL, NULL, NULL, NULL);
    close(sv[1]);
    if (!ok) {
        close(sv[0]);
        return FALSE;
    }
    pl->sock = sv[0];
    return TRUE;
}

PlotLive *plot_live_start(const char *dir, const char *script_dir, GError **error)
{
    g_return_val_if_fail(dir != NULL && script_dir != NULL, NULL);
    g_autofree char *gnuplot = plot_gnuplot_path(error);
    if (!gnuplot)
        return NULL;
    char *script = plot_script_path(script_dir, "write_curve.gp", error);
    if (!script)
        return NULL;
    PlotLive *pl = g_new0(PlotLive, 1);
    pl->dir = g_strdup(dir);
    pl->script = script;
    pl->series = g_build_filename(dir, "series.live.csv", NULL);
    pl->png = g_build_filename(dir, "write_curve.live.png", NULL);
    pl->sock = -1;
    const char *display = g_getenv("DISPLAY");
    if (display && *display)
        pl->window = plot_live_spawn(pl, gnuplot);
    return pl;
}

/* Send the redraw to the window's gnuplot. */
static void plot_live_send(PlotLive *pl)
{
    g_autoptr(GString) cmd = g_string_new(NULL);
    plot_var(cmd, "dir", pl->dir);
    plot_var(cmd, "series", pl->series);
    g_string_append(cmd, "have_phases=0; interactive=1; load ");
    plot_append_quoted(cmd, pl->script);
    g_string_append_c(cmd, '\n');
    if (send(pl->sock, cmd->str, cmd->len, MSG_NOSIGNAL) < 0)
        pl->window = FALSE; /* gnuplot went away: fall back to the PNG */
}

static void plot_live_draw(PlotLive *pl)
{
    if (!plot_has_rows(pl->series))
        return;
    if (pl->window) {
        plot_live_send(pl);
        return;
    }
    g_autoptr(GString) vars = g_string_new(NULL);
    plot_var(vars, "dir", pl->dir);
    plot_var(vars, "series", pl->series);
    g_string_append(vars, "have_phases=0; ");
    plot_render(pl->script, vars, pl->png, PLOT_PNG, NULL); /* a missed frame is not an error */
}

void plot_live_update(PlotLive *pl)
{
    if (!pl)
        return;
    gint64 now = g_get_monotonic_time();
    if (pl->last != 0 && now - pl->last < PLOT_LIVE_INTERVAL_S * G_USEC_PER_SEC)
        return;
    pl->last = now;
    plot_live_draw(pl);
}

void plot_live_stop(PlotLive *pl)
{
    if (!pl)
        return;
    plot_live_draw(pl);
    if (pl->sock >= 0) {
        send(pl->sock, "exit\n", 5, MSG_NOSIGNAL);
        close(pl->sock);
    }
    if (pl->pid > 0) {
        waitpid(pl->pid, NULL, 0);
        g_spawn_close_pid(pl->pid);
    }
    g_free(pl->dir);
    g_free(pl->script);
    g_free(pl->series);
    g_free(pl->png);
    g_free(pl);
}

/* The gnuplot scripts: next to an installed binary, else the source tree. */
char *plot_script_dir(void)
{
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        g_autofree char *bindir = g_path_get_dirname(exe);
        char *installed = g_build_filename(bindir, "..", "share", "ftlsim", "plot", NULL);
        if (g_file_test(installed, G_FILE_TEST_IS_DIR))
            return installed;
        g_free(installed);
    }
    return g_strdup(FTLSIM_SOURCE_DIR "/scripts/plot");
}
