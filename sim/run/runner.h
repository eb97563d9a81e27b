/*
 * runner.h - a simulation run: the engine, the drive on it, the workload
 * bound to the drive, the drive's completions, and how the run ends (the
 * workload done, stalled, interrupted by a signal, or stopped by its
 * sampler). `run`, `pts`, `calibrate` and sweeps all simulate through it.
 */
#ifndef FTLSIM_RUNNER_H
#define FTLSIM_RUNNER_H

#include "models/drive.h"
#include "sim/engine/engine.h"
#include "sim/host/workload.h"
#include "sim/output/progress.h"
#include "sim/run/sampler.h"

#include <glib.h>
#include <sys/types.h>

/* --max-time: how long past it the commands in flight may take. A host
 * gives up on a command after its I/O timeout (Linux: 30 s for NVMe and
 * SCSI disks); a drive that holds one longer has stalled. */
#define RUN_DRAIN_MAX (30 * SIM_SEC)

typedef struct Runner Runner;

/* A fresh drive with parameters p (not copied: p must outlive the run) on
 * a new engine; NULL when the drive's tables cannot be allocated. */
Runner *runner_new(const DriveParams *p, uint64_t seed);
void runner_free(Runner *r); /* accepts NULL; not the workload or sampler */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Runner, runner_free)

SimEngine *runner_engine(const Runner *r);
Drive *runner_drive(const Runner *r);

/* Bind w (not owned) to the drive, seeded with seed: the workload the next
 * runner_go() runs. A run may bind one workload after another. */
gboolean runner_bind(Runner *r, Workload *w, uint64_t seed, GError **error);

/* A clock for the run: every interval of simulated time, check for a
 * signal, a stall (nothing left to happen; with max_time, commands held
 * RUN_DRAIN_MAX past it), tick the sampler (NULL: none) and redraw the
 * progress line (NULL: none). Without a clock a run has no timed events of
 * its own. */
void runner_set_clock(Runner *r, SimTime interval, SimTime max_time, Sampler *s, Progress *pr);
/* What the progress line says until the next runner_set_clock(): label
 * before it (not copied), and the fraction base + span x the bound
 * workload's, for a line over many workloads (pts's rounds). */
void runner_set_progress_scope(Runner *r, const char *label, double base, double span);

/* Verify the drive's invariants (drive_check()) after every n-th command
 * completed (0: never); the run stops at the first broken one. Slow: for
 * tests and bug hunts. */
void runner_check_every(Runner *r, uint64_t n);
/* The checks made so far; FALSE with why filled when one failed. */
gboolean runner_checks(const Runner *r, uint64_t *made, const char **why);

/* Start the bound workload and run the engine until it is done or the run
 * stops. FALSE when it stalled (nothing left to happen, or the clock found
 * it stuck). */
gboolean runner_go(Runner *r);
/* runner_go() in steps, for a caller that paces the engine itself
 * (emulate): start the workload and the clock; fire the events up to
 * until (FALSE once the run has ended: done, stopped or stalled); end the
 * run (FALSE when it stalled). */
void runner_start(Runner *r);
gboolean runner_advance(Runner *r, SimTime until);
gboolean runner_end(Runner *r);
/* The workload is fed from outside the engine (commands arrive as they
 * come): a clock tick that finds nothing else to happen waits for more
 * instead of taking the run for stalled. */
void runner_set_open(Runner *r);
/* The run stopped for a signal (runner_catch_signals) before its end. */
gboolean runner_interrupted(const Runner *r);

/* The signal policy of every command that simulates: SIGINT, SIGTERM and
 * SIGHUP (a terminal that went away) alike stop a run at its next event
 * (its results so far can be written, marked interrupted) and
 * runner_interrupted() is TRUE; SIGXFSZ is ignored
 * (runner_ignore_file_limit()). */
void runner_catch_signals(void);
/* Ignore SIGXFSZ: a write past ulimit -f fails with EFBIG and is reported
 * as an error, its temporaries removed, rather than killing the process.
 * Every command (main.c). */
void runner_ignore_file_limit(void);
/* Call hook (async-signal-safe) from the handler of those signals as
 * well, for work that waits outside the engine; NULL: none. */
void runner_set_signal_hook(void (*hook)(void));
/* The signal that interrupted the run, or 0. */
int runner_signal(void);
/* A child process that runs a simulation for this one: a caught signal is
 * sent on to it (at once, from the handler), also one caught before the
 * call. Forget it once it has been waited for. */
void runner_watch_child(pid_t pid);
void runner_forget_child(pid_t pid);
/* In a child, first: forget the parent's children and catch SIGINT,
 * SIGTERM and SIGHUP (a second one does not end it; see runner.c). */
void runner_child_start(void);

#endif
