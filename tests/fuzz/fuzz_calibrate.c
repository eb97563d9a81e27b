/* fuzz_calibrate.c - libFuzzer harness for the options of `ftlsim
 * calibrate` (the machinery: fuzz_argv.h): --fit ranges, --figure specs,
 * --curve files, --set, --prefill, the counts. Every input gets --dry-run:
 * the inputs are read and checked together and the workload bound to the
 * drive, but nothing is simulated (a search forks a process a run). The
 * curves and the job file are written into the data folder at start. */
#define FUZZ_COMMAND "calibrate"
#include "fuzz_argv.h"

#define DRIVES FTLSIM_SOURCE_DIR "/tests/data/drives/"

enum { CURVE_GB, CURVE_T, CURVE_IOPS, CURVE_BAD, JOB_ENV, N_FILES };
static char *files[N_FILES];

static const char *tokens[] = {
    /* 0..4: the data files, filled in by fuzz_setup() */
    "", "", "", "", "",
    "-d", DRIVES "small_tlc.ini", DRIVES "small_tlc_pslc.ini", DRIVES "small_qlc_hmb.ini",
    FTLSIM_SOURCE_DIR "/configs/870qvo.ini", "-w", "--workload", "rw=write,bs=128k,size=64m",
    "rw=write,bs=1m,iodepth=2,size=32m;idle=1s;rw=randwrite,bs=4k,size=8m", "fill",
    "rw=randwrite,bs=4k,size=16m,time_based,runtime=2s", "-j", "--job", "-c", "--curve",
    "--fit", "pslc.dynamic_cap=20MB..60MB", "pslc.dynamic_cap=20..60", "timing.tlc.t_prog=1ms..3ms",
    "timing.tlc.t_prog=2ms..2ms", "timing.tlc.t_prog=..", "workload.thinktime=10us..1ms",
    "env.THINK=1us..1ms", "env.RATE=100MB/s..1GB/s", "gc.soft_blocks=2..40", "drive.name=1..2",
    "host.write_buffer=1MiB..8MiB", "pslc.dynamic_cap=30GB..30GB", "nand.blocks_per_plane=8..512",
    "--figure", "cliff_gb=0.04", "cliff_gb=142", "cliff_gb:50=0.02:0.5", "rate@GB=0.01..0.05=300",
    "rate@t=0.1..0.5=200", "iops@t=0..1=5000", "phase_rate:1=100", "phase_rate:9=100", "waf=1.2",
    "summary:write_MBps=400", "speed=3", "--set", "gc.policy=cost_benefit", "pslc.static=0,16MB",
    "--prefill", "50%", "100%:random", "50%:slc=8MB", "--max-evals", "--starts", "--seed", "1",
    "0", "-1", "100000", "2147483648", "-o", "out", "--force", "-q", "--dry-run", "--", "-", "=",
    "", "..", "nan", "inf", "1e308", "-s",
};

static const char *const *fuzz_tokens(size_t *n)
{
    *n = G_N_ELEMENTS(tokens);
    return tokens;
}

static void fuzz_setup(void)
{
    files[CURVE_GB] = fuzz_data_file("gb.csv", "GB,MBps\n0.005,500\n0.01,480\n0.02,450\n"
                                               "0.03,200\n0.04,150\n0.05,150\n");
    files[CURVE_T] = fuzz_data_file("t.csv", "t_s,MBps\n0.1,500\n0.2,500\n0.3,200\n0.4,150\n");
    files[CURVE_IOPS] = fuzz_data_file("iops.csv", "t_s,IOPS\n0.1,9000\n0.5,8000\n1,3000\n");
    files[CURVE_BAD] = fuzz_data_file("bad.csv", "GB,MBps\n0.01,500\n0.02,fast\n1e999,1\n");
    files[JOB_ENV] = fuzz_data_file("env.fio", "[w]\nrw=write\nbs=128k\nsize=32m\n"
                                               "thinktime=${THINK}\nrate=${RATE}\n");
    for (int i = 0; i < N_FILES; i++)
        tokens[i] = files[i];
}

/* --dry-run goes first, where no option before it can take it for its
 * value (a trailing "-o" would, and the search would run for real). */
static int fuzz_finish(char **args, int n)
{
    memmove(args + 3, args + 2, sizeof(char *) * (size_t)(n - 2));
    args[2] = g_strdup("--dry-run");
    return n + 1;
}
