/* fuzz_iolog.c - libFuzzer harness for fio's iolog in a job (the machinery:
 * fuzz_argv.h): the input is the log a job's read_iolog names, replayed on
 * a 64 MB drive by two jobs, one at the log's times, one with
 * replay_no_stall and write_iolog (its rows written back), every run held
 * to 100 ms of simulated time. */
#define FUZZ_COMMAND "run"
#define FUZZ_FILE "in.iolog"
#include "fuzz_argv.h"

static char *job_path;

static void fuzz_setup(void)
{
    g_autofree char *log = fuzz_data_path(FUZZ_FILE);
    g_autofree char *text = g_strdup_printf("[timed]\nread_iolog=%s\n\n"
                                            "[nostall]\nread_iolog=%s\nreplay_no_stall=1\n"
                                            "write_iolog=back.iolog\n",
                                            log, log);
    job_path = fuzz_data_file("replay.fio", text);
}

static gboolean fuzz_accept(const char *text)
{
    (void)text;
    return TRUE;
}

static int fuzz_finish(char **args, int n)
{
    static const char *const fixed[] = {
        "-d", FTLSIM_SOURCE_DIR "/tests/data/drives/small_tlc.ini", "--set",
        "drive.user_capacity=64MB", "--max-time", "100ms", "--check", "-o", "out", "-q", "-j",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
        args[n++] = g_strdup(fixed[i]);
    args[n++] = g_strdup(job_path);
    return n;
}
