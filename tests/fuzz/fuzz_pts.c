/* fuzz_pts.c - libFuzzer harness for the options of `ftlsim pts` (the
 * machinery: fuzz_argv.h). Every input gets --dry-run (the options are
 * checked and the drive made, nothing simulated) unless it holds the
 * token "@run": then the test runs for real, held to a 64 MB drive, at
 * most 3 rounds of at most 100 ms each. */
#define FUZZ_COMMAND "pts"
#include "fuzz_argv.h"
#include "sim/host/workload.h"

#define DRIVES FTLSIM_SOURCE_DIR "/tests/data/drives/"

static const char *const tokens[] = {
    "@run", "-d", DRIVES "small_tlc.ini", DRIVES "small_qlc_hmb.ini", DRIVES "small_tlc_pslc.ini",
    FTLSIM_SOURCE_DIR "/configs/860pro.ini", "-t", "--test", "wsat", "iops", "tp", "lat", "--bs",
    "4k", "128k", "1m", "512", "4k,128k", "1m,128k", "4k,4k", ",", "--mix", "100/0", "0/100",
    "65/35", "100/0,0/100", "5/95", "/", "--round-time", "10ms", "50ms", "1us", "1ns", "0.5s",
    "60s", "1e308", "--max-rounds", "1", "2", "25", "100000", "--threads", "--iodepth", "8", "256",
    "1024", "0", "-1", "--precondition", "full", "fast", "random", "--seed", "-s",
    "9223372036854775808", "--set", "gc.policy=cost_benefit", "gc.soft_blocks=200",
    "drive.user_capacity=8MB", "host.write_buffer=64MiB", "nand.blocks_per_plane=8",
    "pslc.static=0,16MB", "-o", "out", "out/sub", "--force", "-f", "-q", "--quiet", "--dry-run",
    "--plot-format", "svg", "png", "--", "-", "=", "", "nan", "inf", "-T", "-Q", "--round-time=",
    "--bs=", "--mix=", "--test=iops", "--threads=16",
};

static const char *const *fuzz_tokens(size_t *n)
{
    *n = G_N_ELEMENTS(tokens);
    return tokens;
}

static void fuzz_setup(void)
{
}

/* Whether the round time last given is absent, bad or longer than 100 ms
 * (a bad one is the command's to refuse: kept as it is). */
static gboolean fuzz_long_rounds(char **args, int n)
{
    const char *last = NULL;
    for (int i = 2; i < n; i++) {
        if (strcmp(args[i], "--round-time") == 0 && i + 1 < n)
            last = args[++i];
        else if (g_str_has_prefix(args[i], "--round-time="))
            last = args[i] + strlen("--round-time=");
    }
    SimTime t = 0;
    if (!last)
        return TRUE;
    return workload_parse_time(last, SIM_SEC, &t, NULL) && t > SIM_SEC / 10;
}

static int fuzz_finish(char **args, int n)
{
    gboolean run = FALSE;
    int k = 2;
    for (int i = 2; i < n; i++) {
        if (strcmp(args[i], "@run") == 0) {
            run = TRUE;
            g_free(args[i]);
            continue;
        }
        args[k++] = args[i];
    }
    n = k;
    if (!run) { /* first, where no option before it can take it for its value */
        memmove(args + 3, args + 2, sizeof(char *) * (size_t)(n - 2));
        args[2] = g_strdup("--dry-run");
        return n + 1;
    }
    if (fuzz_long_rounds(args, n)) {
        args[n++] = g_strdup("--round-time");
        args[n++] = g_strdup("50ms");
    }
    args[n++] = g_strdup("--max-rounds");
    args[n++] = g_strdup("3");
    args[n++] = g_strdup("--set");
    args[n++] = g_strdup("drive.user_capacity=64MB");
    return n;
}
