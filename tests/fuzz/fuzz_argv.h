/* fuzz_argv.h - the machinery of the harnesses that fuzz argument vectors
 * (fuzz_cli.c, the whole command; fuzz_pts.c and fuzz_calibrate.c, one
 * command's options): the input is an argument vector, one argument a
 * line; a line "$N" stands for token N of the harness's table. The command
 * runs in process in a scratch folder emptied after every input; it must
 * return 0, 1, 2 or 128 + a signal, never crash, and a failure prints
 * exactly one line, "ftlsim...". A harness defines the token table,
 * fuzz_setup() (its data files, in the data folder) and fuzz_finish() (the
 * arguments it appends, such as --dry-run), and FUZZ_COMMAND when it fuzzes
 * one command (without it the input's first line is the command). With
 * FUZZ_FILE the input is instead the text of one file the command reads,
 * written to FUZZ_FILE in the data folder (fuzz_data_path()), and the
 * arguments are all fuzz_finish()'s (fuzz_iolog.c, fuzz_zbd.c). */
#define main ftlsim_main
int ftlsim_main(int argc, char **argv);
#include "sim/cmd/main.c"
#undef main

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ARGS_MAX 24
#define ARG_LEN_MAX 256
#define ARGS_EXTRA 16 /* room for what fuzz_finish() appends */

/* In the temporary folder (TMPDIR; scripts/fuzz points it at a tmpfs
 * where there is one, since the command syncs every file it writes and
 * a disk would then bound the inputs per second). */
static char *scratch;  /* emptied after every input */
static char *data_dir; /* the harness's input files */
static char *err_path; /* the command's stderr */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* GLib keeps caches for the life of the process (type system, quarks,
 * the program name): not leaks of the command. */
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}

/* Empty folder dir (results folders, temporaries). */
static void fuzz_clear(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return;
    for (const char *name; (name = g_dir_read_name(d));) {
        char *p = g_build_filename(dir, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK)) {
            fuzz_clear(p);
            g_rmdir(p);
        } else {
            g_unlink(p);
        }
        g_free(p);
    }
    g_dir_close(d);
}

static void fuzz_remove_scratch(void)
{
    fuzz_clear(scratch);
    g_rmdir(scratch);
    fuzz_clear(data_dir);
    g_rmdir(data_dir);
    g_unlink(err_path);
}

/* Write file name of the data folder with text; its path, owned by the
 * harness for its life. */
G_GNUC_UNUSED static char *fuzz_data_file(const char *name, const char *text)
{
    char *path = g_build_filename(data_dir, name, NULL);
    if (!g_file_set_contents(path, text, -1, NULL))
        abort();
    return path;
}

/* Path of name in the data folder; owned by the caller. */
G_GNUC_UNUSED static char *fuzz_data_path(const char *name)
{
    return g_build_filename(data_dir, name, NULL);
}

static void fuzz_setup(void);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    scratch = g_build_filename(g_get_tmp_dir(), "fuzz_argv.XXXXXX", NULL);
    data_dir = g_build_filename(g_get_tmp_dir(), "fuzz_data.XXXXXX", NULL);
    if (!g_mkdtemp(scratch) || !g_mkdtemp(data_dir))
        abort();
    err_path = g_strconcat(scratch, ".stderr", NULL);
    atexit(fuzz_remove_scratch);
    g_setenv("FTLSIM_MEMORY_LIMIT", "512MiB", TRUE);
    g_unsetenv("FTLSIM_CONFIG_PATH");
    fuzz_setup();
    return 0;
}

/* Whether arg would leave the process, fork or start another program
 * (for the whole command also --live and the plot and help commands). */
G_GNUC_UNUSED static gboolean fuzz_refused(const char *arg)
{
    static const char *const out[] = {"--help", "-h", "-?", "--help-all", "--plot", "-p",
                                      "--jobs", "-J",
#ifndef FUZZ_COMMAND
                                      "--live", "plot", "help",
#endif
                                      NULL};
    for (int i = 0; out[i]; i++)
        if (g_str_has_prefix(arg, out[i]) && strcmp(arg, "--plot-format") != 0 &&
            !g_str_has_prefix(arg, "--plot-format="))
            return TRUE;
    /* short option clusters: -qp and the like */
    return arg[0] == '-' && arg[1] != '-' && (strchr(arg, 'h') || strchr(arg, 'p') ||
                                              strchr(arg, 'J') || strchr(arg, '?'));
}

/* The command's stderr after a failure: exactly one line, "ftlsim...";
 * a run stopped by a signal may print notes before it, and libFuzzer's
 * notice that it was asked to stop (SIGUSR1, scripts/fuzz) may land while
 * an input runs. No command at all prints the usage instead. */
static void fuzz_check_stderr(int rc, int argc)
{
    gchar *text = NULL;
    gsize len = 0;
    if (rc == 0 || argc < 2 || !g_file_get_contents(err_path, &text, &len, NULL))
        return;
    gsize lines = 0, start = 0;
    gboolean foreign = FALSE;
    for (gsize i = 0; i < len; i++)
        if (text[i] == '\n') {
            const char *line = text + start;
            start = i + 1;
            if ((rc >= 128 && g_str_has_prefix(line, "ftlsim: note: ")) ||
                g_str_has_prefix(line, "INFO: signal received"))
                continue;
            lines++;
            foreign |= !g_str_has_prefix(line, "ftlsim");
        }
    if (lines != 1 || foreign || start != len) {
        fprintf(stderr, "exit %d with %zu lines on stderr:\n%s", rc, (size_t)lines, text);
        abort();
    }
    g_free(text);
}

/* Run the command on args[0..n) in the scratch folder, output to
 * /dev/null and stderr to err_path, and check what it did. */
static void fuzz_run(char **args, int n)
{
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    int log = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(null, 1);
    dup2(log, 2);
    /* in the scratch folder, and back: libFuzzer's paths are relative */
    int home = open(".", O_RDONLY | O_DIRECTORY);
    if (home < 0 || chdir(scratch) != 0)
        abort();
    char **argv = g_memdup2(args, sizeof(char *) * (size_t)(n + 1));
    int rc = ftlsim_main(n, argv);
    g_free(argv);
    if (fchdir(home) != 0)
        abort();
    close(home);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out), close(err), close(null), close(log);
    if (!(rc == 0 || rc == 1 || rc == 2 || rc == 130 || rc == 143))
        abort();
    fuzz_check_stderr(rc, n);
    fuzz_clear(scratch);
}

#ifdef FUZZ_FILE
static gboolean fuzz_accept(const char *text); /* whether to run the input */
#else
static const char *const *fuzz_tokens(size_t *n);
#endif
static int fuzz_finish(char **args, int n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *args[ARGS_MAX + ARGS_EXTRA + 3];
    int n = 0;
    args[n++] = g_strdup("ftlsim");
#ifdef FUZZ_COMMAND
    args[n++] = g_strdup(FUZZ_COMMAND);
#endif
#ifdef FUZZ_FILE
    char *text = g_strndup((const char *)data, size);
    gboolean ok = fuzz_accept(text);
    g_free(text);
    char *path = fuzz_data_path(FUZZ_FILE);
    if (!g_file_set_contents(path, (const char *)data, (gssize)size, NULL))
        abort();
    g_free(path);
#else
    size_t ntok;
    const char *const *tokens = fuzz_tokens(&ntok);
    const char *p = (const char *)data, *end = p + size;
    gboolean ok = TRUE;
    while (p < end && n < ARGS_MAX) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        char *arg = g_strndup(p, MIN(len, ARG_LEN_MAX)); /* stops at a NUL byte too */
        p += len + (nl != NULL);
        char *stop = NULL;
        guint64 k = arg[0] == '$' && g_ascii_isdigit(arg[1]) ? g_ascii_strtoull(arg + 1, &stop, 10)
                                                             : G_MAXUINT64;
        if (stop && *stop == '\0' && k < ntok) {
            g_free(arg);
            arg = g_strdup(tokens[k]);
        } else if (strchr(arg, '/') || g_str_has_prefix(arg, ".."))
            ok = FALSE; /* a path of the machine: a raw path stays in the scratch folder */
        if (fuzz_refused(arg))
            ok = FALSE;
        args[n++] = arg;
    }
#endif
    if (ok) {
        n = fuzz_finish(args, n);
        args[n] = NULL;
        fuzz_run(args, n);
    }
    for (int i = 0; i < n; i++)
        g_free(args[i]);
    return 0;
}
