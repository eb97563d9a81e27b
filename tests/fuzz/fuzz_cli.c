/* fuzz_cli.c - libFuzzer harness for the whole command (the machinery:
 * fuzz_argv.h): the input's lines are the arguments, the first the
 * command, "$N" standing for token N of the table below (commands,
 * options, edge values, the test drives). Left out: what would leave the
 * process or take seconds per input (--help, which exits; --plot, --live
 * and `plot`, which start gnuplot; --jobs, which forks), and every run is
 * held to a 64 MB drive (a rate cap that runs into the series row bound
 * takes 30 s here: tests/cli_hardening.sh covers it). */
#include "fuzz_argv.h"

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

static const char *const *fuzz_tokens(size_t *n)
{
    *n = G_N_ELEMENTS(tokens);
    return tokens;
}

static void fuzz_setup(void)
{
}

/* Every run on a small drive: a 64 MB user capacity bounds what it writes. */
static int fuzz_finish(char **args, int n)
{
    if (n > 1 && strcmp(args[1], "run") == 0) {
        args[n++] = g_strdup("--set");
        args[n++] = g_strdup("drive.user_capacity=64MB");
    }
    return n;
}
