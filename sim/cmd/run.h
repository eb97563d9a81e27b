/*
 * run.h - one simulation run: a drive, a workload, and the results folder.
 *
 * run_simulation() loads and checks every input before it creates anything,
 * runs the engine until the workload is done, and writes the results through
 * an OutDir so that a failed run leaves no file that looks whole.
 */
#ifndef FTLSIM_RUN_H
#define FTLSIM_RUN_H

#include "sim/host/trace.h"
#include "sim/host/workload.h"
#include "sim/output/plot.h"
#include "sim/run/runner.h"

#include <glib.h>
#include <sys/types.h>

typedef struct RunResult RunResult;

#define RUN_ERROR (run_error_quark())
GQuark run_error_quark(void);
typedef enum RunError {
    RUN_ERROR_INPUT,  /* bad options or inputs: exit 2 */
    RUN_ERROR_FAILED, /* the simulation itself failed: exit 1 */
    RUN_ERROR_INTERRUPTED, /* SIGINT, SIGTERM or SIGHUP: the results so far were written; exit 128 + signal */
} RunError;

/* How a sweep is run: here, or written out as jobs for other machines. */
typedef enum SweepEmit {
    EMIT_NONE = 0,
    EMIT_PARALLEL = 1, /* jobs.txt, one shell command a line, for GNU parallel */
    EMIT_SLURM = 2,    /* jobs.txt and sweep.slurm, a Slurm array script */
} SweepEmit;

typedef struct RunOptions {
    const char *drive;     /* INI file */
    const char *spec;      /* --workload */
    const char *job;       /* --job */
    const char *trace;     /* --trace */
    TraceOptions trace_opt;
    ReplayOptions replay;
    const char *out;       /* results folder; NULL: no files */
    gboolean force;
    uint64_t seed;
    gboolean quiet;
    SimTime interval;        /* series row every this much simulated time */
    uint64_t interval_bytes; /* or every this many host bytes written (0: by time) */
    gboolean series_percentiles; /* latency percentiles per series row */
    gboolean plot;
    PlotFormat plot_format;
    gboolean live;
    gboolean check;          /* run drive_check() at the end (and fail if broken) */
    uint64_t check_every;    /* and after every this many commands completed; 0: not */
    const char *prefill;     /* --prefill SPEC (PCT%[:random][:slc=SIZE]); NULL: a fresh drive */
    const char *const *sets; /* --set GROUP.KEY=VALUE overrides of the drive file, or NULL */
    const char *script_dir;  /* gnuplot scripts */
    GString *sweep_row;      /* when not NULL, the run's measures are appended (report_sweep_row) */
    gboolean sweep_row_file; /* also write them, with their header, to sweep-row.csv (--sweep-row) */
    SimTime max_time;        /* --max-time: stop every job at this simulated time; 0: none */
    int output_format;       /* RUN_OUTPUT_*: what goes to stdout (or --output) */
    const char *output;      /* --output FILE: instead of stdout; NULL: stdout */
    gboolean dry_run;        /* --dry-run: check every input, bind the workload, simulate nothing */
} RunOptions;

/* summary: ftlsim's own (the default); the others fio's outputs */
enum { RUN_OUTPUT_SUMMARY = 0, RUN_OUTPUT_NORMAL, RUN_OUTPUT_TERSE, RUN_OUTPUT_JSON,
       RUN_OUTPUT_JSON_PLUS };
/* Bounds of options (see check_run_options in main.c and run.c). */
#define RUN_TIME_SCALE_MAX 1e6 /* --time-scale */
#define RUN_IODEPTH_MAX 65536  /* --iodepth */
#define RUN_INTERVAL_MIN 1000  /* ns: the shortest --interval */

void run_options_init(RunOptions *o);

/* How the user started ftlsim (argv[0] as typed: build/ftlsim, ftlsim),
 * for the commands printed as next steps and in hints, so that they can
 * be pasted; shell-quoted when it needs it. "ftlsim" until set. */
void run_set_invoked_as(const char *argv0);
const char *run_invoked_as(void);

/* Parse a --prefill SPEC, PCT%[:random][:slc=SIZE] (e.g. 90%:random,
 * 50%:slc=10GB), into pf (seed left to the caller). */
gboolean run_parse_prefill(const char *spec, DrivePrefill *pf, GError **error);
/* Age drive d as pf (parsed from --prefill spec) says; FALSE when the
 * drive cannot hold it or its SLC part does not fit the cache. */
gboolean run_prefill_drive(const char *spec, Drive *d, const DrivePrefill *pf, GError **error);

/* What a run does to the drive's mapping (models/drive.h), for its memory
 * estimate: the prefill (pf, NULL: none) and every write job of w (its
 * bytes: io_size, else size x loops; time-based jobs: unbounded); a trace
 * replay, or no workload, is the worst case (every page mapped at random). */
void run_memory_class(const DrivePrefill *pf, const Workload *w, uint64_t capacity,
                      MemoryClass *out);
/* The most host bytes the write jobs of w write on a drive of capacity
 * bytes (io_size, else size x loops, times numjobs); UINT64_MAX when a
 * job only ends with its runtime. */
uint64_t run_write_bytes(const Workload *w, uint64_t capacity);
/* Bytes of memory a run may take: FTLSIM_MEMORY_LIMIT if set, else what
 * the kernel says is available plus free swap, either held to what the
 * address-space limit (ulimit -v) leaves; 0: unknown. A bad
 * FTLSIM_MEMORY_LIMIT sets error. */
uint64_t run_memory_available(GError **error);
/* What every command that simulates a drive checks before it allocates
 * one: the series interval, the --prefill spec (into *pf, seeded), the
 * mapping's memory class for the prefill and w (NULL: the worst case) into
 * *mc, and run_check_fits(). */
gboolean run_check_drive_setup(const char *drive, const DriveParams *p, SimTime interval,
                               const char *prefill, uint64_t seed, const Workload *w,
                               DrivePrefill *pf, MemoryClass *mc, GError **error);
/* Can this machine simulate the drive for a run of class c? FALSE with a
 * one-line RUN_ERROR_INPUT error if the estimate exceeds the memory
 * available (FTLSIM_MEMORY_LIMIT when set, else MemAvailable plus free
 * swap) or the drive has more slots than the tables can number. */
gboolean run_check_fits(const char *drive, const DriveParams *p, const MemoryClass *c,
                        GError **error);
/* Can this machine also set up the jobs of w (what, the job file or
 * "--workload", names them in the error): every numjobs clone's record
 * and command slots (workload_setup_bytes()) beside the drive's estimate
 * for class c, against the same memory? FALSE with a one-line
 * RUN_ERROR_INPUT error naming both figures if not. */
gboolean run_check_setup_fits(const char *what, const Workload *w, const DriveParams *p,
                              const MemoryClass *c, GError **error);
/* Run. On failure error is in RUN_ERROR (or a loader's domain, all of which
 * mean bad input). The summary text goes to stdout unless quiet. After
 * runner_catch_signals(), a signal stops the run at its next event: what
 * it simulated so far is written (marked interrupted) and it fails with
 * RUN_ERROR_INTERRUPTED. */
gboolean run_simulation(const RunOptions *o, GError **error);

/* The results folder's files of a run that ended (res), beside its
 * series.csv: summary.json, summary.txt, phases.csv, latency_read.csv,
 * latency_write.csv, with steady rounds steady_state.csv, with sweep_row
 * sweep-row.csv; more (NULL: none) is appended to summary.txt. For
 * run_simulation() and emulate. */
typedef struct OutDir OutDir;
gboolean run_write_results(OutDir *od, const RunResult *res, gboolean sweep_row, const char *more,
                           GError **error);

/* Run o in a child process (setup(ctx) first, if given, in the child):
 * returns its pid and in fd the pipe its result arrives on, or -1 with
 * error set. o->sweep_row, if set, is the row the child sends back. */
pid_t run_child_spawn(const RunOptions *o, void (*setup)(void *), void *ctx, int *fd,
                      GError **error);
/* Once the child has exited (status from waitpid): read its result from fd
 * (closed here); TRUE with its sweep row in row, FALSE with error set. A run
 * a signal stopped fails with RUN_ERROR_INTERRUPTED and its row (marked
 * interrupted) in row; empty when it stopped before it began. Children
 * catch signals as runner_child_start() says; register them with
 * runner_watch_child() so that a signal to the parent reaches them. */
gboolean run_child_result(int fd, int status, GString *row, GError **error);

/* The one pool of child processes, for sweeps and calibration: task i of
 * n is started by start() (its pid, and in *fd the pipe of its result; -1
 * with error set, then handed to failed(), which owns it), at most jobs at
 * a time, and handed to done() once it has exited (status from waitpid).
 * After a signal no task starts; those running stop (they got it too) and
 * are waited for. Returns how many tasks were started or tried (the others
 * never ran); a task started but not waited for keeps its pid in pids[i]
 * (pids holds n; 0 for the others). */
typedef struct ChildPool {
    guint n, jobs;
    void *ctx;
    pid_t (*start)(void *ctx, guint i, int *fd, GError **error);
    void (*failed)(void *ctx, guint i, GError *error);
    void (*done)(void *ctx, guint i, int fd, int status);
} ChildPool;
guint run_child_pool(const ChildPool *pool, pid_t *pids);

/* Run so->run (o) once for every combination of values of the keys in
 * so->vary, as --set overrides on top of o->sets: run k into o->out/LABEL (LABEL: "KEY=VALUE,..."), then the table
 * o->out/sweep.csv (one row a run: the varied values, the folder, the
 * measures of report_sweep_row()) and with o->plot the overlay
 * o->out/sweep.png. Every combination is loaded and checked before any
 * folder is made. so->jobs > 1 runs that many at once, each in a child
 * process; the table and the output are the same as with one. One line a
 * run on stdout, in sweep order, unless quiet. */
typedef struct SweepOptions {
    const RunOptions *run;         /* every run's options; the sweep's folder is run->out */
    const char *const *vary;       /* "GROUP.KEY=V1,V2,...", NULL-terminated */
    guint jobs;                    /* runs at once, each in its own process */
    SweepEmit emit;                /* write the runs as jobs instead of running them */
    const char *const *rerun_args; /* the run's own options, less the sweep's (for emit) */
} SweepOptions;
gboolean run_sweep(const SweepOptions *so, GError **error);

/* The folder of an emitted sweep (so->emit): after every combination is
 * checked, o->out gets jobs.txt (one `ftlsim run` a line: so->rerun_args, the
 * combination's --set, --sweep-row and -o o->out/LABEL, stderr into
 * logs/LABEL.err), with EMIT_SLURM sweep.slurm, and sweep-manifest.csv (the
 * varied keys and folder of each run) for run_sweep_collect(). Nothing runs. */

/* Build dir/sweep.csv, the same table run_sweep() writes, from the run
 * folders of an emitted sweep that have finished; with plot the overlay
 * too. Each run that has no results is named on stderr ("failed" with the
 * first line of its log, or "missing"); *missing counts them. False with
 * error on bad input (no manifest, a malformed one). */
gboolean run_sweep_collect(const char *dir, gboolean plot, PlotFormat fmt, const char *script_dir,
                           guint *missing, GError **error);

/* ---- report.html (run_report.c) --------------------------------------- */
typedef struct HtmlPage HtmlPage;

/* Suffixes of the files a report links to (NULL-terminated). */
extern const char *const run_report_files[];
/* Write o->out/report.html for a run whose folder is committed (and whose
 * figures are drawn, with --plot); a failure is said on stderr, never an
 * error of the run. */
void run_write_report(const RunOptions *o, const RunResult *res);
/* The drive's derived figures (ftlsim check) as a section of page. */
void run_report_drive(HtmlPage *page, const DriveParams *p);
/* A "Figures" section: dir/NAME.svg of names inline (drawn as SVG for the
 * page; removed after unless fmt is PLOT_SVG), or why there are none. */
void run_report_figures(HtmlPage *page, const char *dir, const char *const *names,
                        const char *const *captions, gboolean plot, PlotFormat fmt);

/* report.html of a sweep's folder dir (sweep_report.c): sweep.csv, the
 * overlay of the runs in dirs (their folders; a trailing NULL is
 * skipped) and links to each run's report. */
void sweep_write_report(const char *dir, GPtrArray *dirs, gboolean plot, PlotFormat fmt,
                        const char *script_dir);

#endif
