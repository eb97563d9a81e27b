/* fuzz_cli.c - libFuzzer harness for the whole command: the input is an
 * argument vector, one argument a line; a line "$N" stands for token N of
 * the table below (commands, options, edge values, the test drives), any
 * other line is taken as it is. The command's entry point runs in process
 * in a scratch folder that is emptied after every input; it must return
 * 0, 1, 2 or 128 + a signal, never crash, and print at most one error line.
 * Left out: what would leave the process or take seconds per input
 * (--help, which exits; --plot, --live and `plot`, which start gnuplot;
 * --jobs, which forks), and every run is held to a 64 MB drive (a rate cap
 * that runs into the series row bound takes 30 s here: tests/cli_hardening.sh
 * covers it). */
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

static const char *const tokens[] = {
    "run", "check", "drives", "config-reference", "--version", "nosuch",
    "-d", FTLSIM_SOURCE_DIR "/tests/data/drives/small_tlc.ini",
    FTLSIM_SOURCE_DIR "/tests/data/drives/small_qlc_hmb.ini", "-w", "rw=write,size=4m",
    "rw=randrw,bs=4k,size=8m,io_size=4m", "fill", "cdm:size=4m", "-j",
    FTLSIM_SOURCE_DIR "/tests/data/jobs/basic.fio", "-t",
    FTLSIM_SOURCE_DIR "/traces/ssdsim_example_fin1.ascii", "--trace-format", "mqsim", "msr",
    "--skip-bad-lines", "--lba-map", "wrap", "scale", "--replay", "closed", "--iodepth",
    "--time-scale", "--max-idle", "-o", "out", "", "--force", "--seed", "--interval",
    "--interval-bytes", "--series-percentiles", "--check", "--set", "--vary", "--prefill",
    "50%:random", "-q", "0", "-1", "1", "nan", "inf", "1e308", "9223372036854775808", "1ns",
    "1us", "4m", "0.5s", "gc.policy=fifo", "pslc.static=0,16MB", "--blk-events", "Q",
    "--trace-device", "--plot-format", "svg", "out/sub", "configs/860pro.ini", "860pro",
    "no_such_drive", "--", "-", "=", "rw=trim,size=4m",
};

static char scratch[] = "/tmp/fuzz_cli.XXXXXX";
static char *err_path; /* the command's stderr, beside the scratch folder */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* GLib keeps caches for the life of the process (type system, quarks,
 * the program name): not leaks of the command. */
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}

static void clear(const char *dir);

/* At exit: the scratch folder and the stderr file go. */
static void remove_scratch(void)
{
    clear(scratch);
    g_rmdir(scratch);
    g_unlink(err_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!g_mkdtemp(scratch))
        abort();
    err_path = g_strconcat(scratch, ".stderr", NULL);
    atexit(remove_scratch);
    g_setenv("FTLSIM_MEMORY_LIMIT", "512MiB", TRUE);
    g_unsetenv("FTLSIM_CONFIG_PATH");
    return 0;
}

/* Empty the scratch folder (results folders, temporaries). */
static void clear(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return;
    for (const char *name; (name = g_dir_read_name(d));) {
        char *p = g_build_filename(dir, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK)) {
            clear(p);
            g_rmdir(p);
        } else {
            g_unlink(p);
        }
        g_free(p);
    }
    g_dir_close(d);
}

/* Whether arg would leave the process or start another program. */
static gboolean refused(const char *arg)
{
    static const char *const out[] = {"--help", "-h", "-?", "--help-all", "--plot", "-p", "--live",
                                      "--jobs", "-J", "plot", "help", NULL};
    for (int i = 0; out[i]; i++)
        if (g_str_has_prefix(arg, out[i]))
            return TRUE;
    /* short option clusters: -qp and the like */
    return arg[0] == '-' && arg[1] != '-' && (strchr(arg, 'h') || strchr(arg, 'p') ||
                                              strchr(arg, 'J') || strchr(arg, '?'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *args[ARGS_MAX + 8];
    int n = 0;
    args[n++] = g_strdup("ftlsim");
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
        if (stop && *stop == '\0' && k < G_N_ELEMENTS(tokens)) {
            g_free(arg);
            arg = g_strdup(tokens[k]);
        } else if (strchr(arg, '/') || g_str_has_prefix(arg, ".."))
            ok = FALSE; /* a path of the machine: a raw path stays in the scratch folder */
        if (refused(arg))
            ok = FALSE;
        args[n++] = arg;
    }
    /* every run on a small drive: a 64 MB user capacity bounds what it writes */
    if (ok && n > 1 && strcmp(args[1], "run") == 0) {
        args[n++] = g_strdup("--set");
        args[n++] = g_strdup("drive.user_capacity=64MB");
    }
    args[n] = NULL;
    if (ok) {
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
        /* a failure says what was wrong in exactly one line (no command
         * at all prints the usage); a run stopped by a signal has written
         * its results, and the notes on them come before that line. Not
         * counted either: libFuzzer's notice that it was asked to stop
         * (SIGUSR1, scripts/fuzz), which lands here while an input runs. */
        gchar *text = NULL;
        gsize len = 0;
        if (rc != 0 && n > 1 && g_file_get_contents(err_path, &text, &len, NULL)) {
            gsize lines = 0, start = 0;
            bool foreign = false;
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
            if (lines != 1 || foreign) {
                fprintf(stderr, "exit %d with %zu lines on stderr:\n%s", rc, (size_t)lines, text);
                abort();
            }
        }
        g_free(text);
        clear(scratch);
    }
    for (int i = 0; i < n; i++)
        g_free(args[i]);
    return 0;
}
