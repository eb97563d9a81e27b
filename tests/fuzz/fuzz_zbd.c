/* fuzz_zbd.c - libFuzzer harness for zoned jobs (the machinery:
 * fuzz_argv.h): the input is a fio job file, run on the ZN540 cut down to
 * 16 zones of 8 MiB (6 MiB writable) and 24 blocks a plane, with the drive's checks (zns_check
 * among them) every 2000 commands, held to 50 ms of simulated time. Inputs
 * that name other files (include, read_iolog) are skipped: they would read
 * files of the machine (fuzz_iolog.c covers read_iolog). */
#define FUZZ_COMMAND "run"
#define FUZZ_FILE "zoned.fio"
#include "fuzz_argv.h"

static void fuzz_setup(void)
{
}

static gboolean fuzz_accept(const char *text)
{
    return !strstr(text, "include") && !strstr(text, "read_iolog");
}

static int fuzz_finish(char **args, int n)
{
    static const char *const fixed[] = {
        "-d", FTLSIM_SOURCE_DIR "/configs/zn540.ini", "--set", "zns.zone_size=8MiB", "--set",
        "zns.zone_capacity=6MiB", "--set", "drive.user_capacity=128MiB", "--set",
        "nand.blocks_per_plane=24", "--max-time", "50ms",
        "--check-every", "2000", "-o", "out", "-q", "-j",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
        args[n++] = g_strdup(fixed[i]);
    args[n++] = fuzz_data_path(FUZZ_FILE);
    return n;
}
