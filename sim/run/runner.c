/*
 * runner.c - a simulation run (see runner.h): the drive's completions go to
 * the bound workload and then to the sampler; the run ends when the
 * workload is done, and a clock tick notices what no completion would (a
 * signal, a stall, a workload that submitted nothing).
 */
#include "sim/run/runner.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

struct Runner {
    SimEngine *e;
    Drive *d;
    Workload *w; /* bound; not owned */
    SimTime interval, max_time; /* the clock; interval 0: none */
    SimEventId tick_id;         /* the clock's next tick, 0: none pending */
    Sampler *sampler;           /* or NULL */
    Progress *progress;         /* or NULL */
    const char *label;          /* the progress line's prefix; NULL: none (not owned) */
    double base, span;          /* the progress line's fraction: base + span x the workload's */
    SimTime rate_t;             /* ns: when the progress rate was last taken */
    uint64_t rate_bytes;        /* host bytes written then */
    double rate_mbps;           /* without a sampler: MB/s written between the last two */
    gboolean finished;
    gboolean interrupted; /* stopped by a signal */
    gboolean stalled;     /* nothing left to happen, or commands held past max_time */
    gboolean open;        /* fed from outside (runner_set_open): idle is not stalled */
    uint64_t check_every, until_check, checks; /* runner_check_every() */
    gboolean broken;                           /* a check failed: why */
    char why[256];
};

/* The signal (SIGINT, SIGTERM, SIGHUP) that asked the run to stop; 0: none. */
static volatile sig_atomic_t run_signal;

/* Child processes running simulations for this one (sweeps, calibration),
 * which get the signal too: a SIGTERM sent to the parent alone (Slurm's,
 * kill PID) stops them as it stops a run here. 0: a free slot. */
#define RUNNER_CHILDREN_MAX 512
static volatile sig_atomic_t run_children[RUNNER_CHILDREN_MAX];

/* Called from the handler too (runner_set_signal_hook); NULL: none. */
static void (*volatile run_signal_hook)(void);

static void on_signal(int sig)
{
    int saved = errno;
    run_signal = sig;
    for (int i = 0; i < RUNNER_CHILDREN_MAX; i++)
        if (run_children[i] > 0)
            kill((pid_t)run_children[i], sig);
    void (*hook)(void) = run_signal_hook;
    if (hook)
        hook();
    errno = saved;
}

void runner_set_signal_hook(void (*hook)(void))
{
    run_signal_hook = hook;
}

static void catch_signals(int flags);

void runner_watch_child(pid_t pid)
{
    for (int i = 0; i < RUNNER_CHILDREN_MAX; i++)
        if (run_children[i] == 0) {
            run_children[i] = pid;
            break;
        }
    /* a signal that came between the fork and here has not reached it */
    if (run_signal)
        kill(pid, run_signal);
}

void runner_forget_child(pid_t pid)
{
    for (int i = 0; i < RUNNER_CHILDREN_MAX; i++)
        if (run_children[i] == pid)
            run_children[i] = 0;
}

void runner_child_start(void)
{
    for (int i = 0; i < RUNNER_CHILDREN_MAX; i++)
        run_children[i] = 0;
    /* no reset: a signal sent to the whole process group (Ctrl-C) or job
     * (Slurm) comes twice, directly and from the parent; the parent's
     * second signal ends the parent, and its death (PR_SET_PDEATHSIG) this
     * run */
    catch_signals(0);
}

int runner_signal(void)
{
    return run_signal;
}

static void catch_signals(int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL); /* a terminal that went away: as SIGTERM */
    runner_ignore_file_limit();
}

void runner_ignore_file_limit(void)
{
    /* past ulimit -f, write(2) fails with EFBIG, which the writers report
     * (and their temporaries are removed) instead of the process dying */
    signal(SIGXFSZ, SIG_IGN);
}

void runner_catch_signals(void)
{
    catch_signals(SA_RESETHAND); /* a second signal ends the process at once */
}

/* Stop the engine: the run ends here, whole or not. */
static void run_stop(Runner *r)
{
    r->finished = TRUE;
    sim_stop(r->e);
}

static void io_done(void *ctx, const DriveCompletion *c)
{
    Runner *r = ctx;
    /* neither the checks nor the sampler below change the workload */
    gboolean done = workload_io_done(r->w, c);
    if (r->check_every && --r->until_check == 0) {
        r->until_check = r->check_every;
        r->checks++;
        if (!drive_check(r->d, r->why, sizeof r->why)) {
            r->broken = TRUE;
            run_stop(r);
            return;
        }
    }
    if (r->sampler && !sampler_io(r->sampler))
        run_stop(r);
    if (done) {
        r->finished = TRUE;
        sim_stop(r->e);
    } else if (run_signal) {
        r->interrupted = TRUE;
        run_stop(r);
    }
}

Runner *runner_new(const DriveParams *p, uint64_t seed)
{
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, p, seed);
    if (!d) {
        sim_engine_free(e);
        return NULL;
    }
    Runner *r = g_new0(Runner, 1);
    r->e = e;
    r->d = d;
    drive_set_done(d, io_done, r);
    return r;
}

void runner_free(Runner *r)
{
    if (!r)
        return;
    drive_free(r->d);
    sim_engine_free(r->e);
    g_free(r);
}

SimEngine *runner_engine(const Runner *r)
{
    return r->e;
}

Drive *runner_drive(const Runner *r)
{
    return r->d;
}

/* The workload's calls into the drive (its ctx is the drive). */
static void target_submit(void *ctx, const DriveCmd *c) { drive_submit(ctx, c); }
static void target_warm(void *ctx, uint64_t offset, uint64_t next)
{
    drive_warm(ctx, offset, next);
}
static uint64_t target_lookup(void *ctx, uint64_t lpn) { return drive_lookup(ctx, lpn); }

gboolean runner_bind(Runner *r, Workload *w, uint64_t seed, GError **error)
{
    const DriveParams *p = drive_params(r->d);
    WorkloadTarget t = {.ctx = r->d,
                        .submit = target_submit,
                        .warm = target_warm,
                        .lookup = target_lookup,
                        .stop = runner_signal,
                        .capacity = drive_capacity(r->d),
                        .queue_limit = drive_queue_limit(r->d),
                        .placement_ids = drive_params_fdp_pids(p)};
    if (p->zns_zone_size) { /* a zoned drive, for zonemode=zbd jobs */
        t.zone_size = p->zns_zone_size;
        t.zone_cap = p->zns_zone_cap;
        t.max_open_zones = p->zns_max_open;
    }
    if (!workload_bind(w, r->e, &t, seed, error))
        return FALSE;
    r->w = w;
    return TRUE;
}

void runner_set_clock(Runner *r, SimTime interval, SimTime max_time, Sampler *s, Progress *pr)
{
    r->interval = interval;
    r->max_time = max_time;
    r->sampler = s;
    r->progress = pr;
    r->label = NULL;
    r->base = 0, r->span = 1;
    r->rate_t = sim_now(r->e);
    r->rate_bytes = drive_stats(r->d)->host_bytes[IO_WRITE];
    r->rate_mbps = 0;
}

void runner_set_progress_scope(Runner *r, const char *label, double base, double span)
{
    r->label = label;
    r->base = base;
    r->span = span;
}

/* Without a sampler the rate is the host's writes between two ticks. */
static double progress_rate(Runner *r)
{
    SimTime now = sim_now(r->e);
    uint64_t bytes = drive_stats(r->d)->host_bytes[IO_WRITE];
    if (now > r->rate_t) {
        r->rate_mbps = (double)(bytes - r->rate_bytes) / 1e6 / ((double)(now - r->rate_t) / 1e9);
        r->rate_t = now;
        r->rate_bytes = bytes;
    }
    return r->rate_mbps;
}

static void show_progress(Runner *r)
{
    if (!r->progress)
        return;
    const SeriesRow *row = r->sampler ? sampler_last_row(r->sampler) : NULL;
    ProgressInfo info = {
        .fraction = r->base + r->span * workload_progress(r->w),
        .sim_time_s = (double)sim_now(r->e) / 1e9,
        .host_written_gb = (double)drive_stats(r->d)->host_bytes[IO_WRITE] / 1e9,
        .write_mbps = row ? row->write_MBps : progress_rate(r),
        .phase = row ? drive_phase_name(row->phase) : NULL, /* no sampler: not known */
        .label = r->label,
    };
    progress_update(r->progress, &info);
}

/* The run cannot end: nothing is left to happen but the next tick (the
 * engine would have run dry, but the ticks go on and on, advancing the
 * clock), or max_time stopped the jobs and the drive has held commands
 * for RUN_DRAIN_MAX since. */
static gboolean run_stuck(const Runner *r)
{
    if (sim_pending(r->e) == 0)
        return TRUE;
    return r->max_time && sim_now(r->e) >= r->max_time + RUN_DRAIN_MAX &&
           drive_outstanding(r->d) > 0;
}

static void tick(void *ctx, uint64_t arg)
{
    Runner *r = ctx;
    (void)arg;
    r->tick_id = 0;
    if (r->finished)
        return;
    if (run_signal) {
        r->interrupted = TRUE;
        run_stop(r);
        return;
    }
    if (workload_finished(r->w)) {
        /* it ended without a completion to notice it: a trace that failed
         * to read, or a phase that submitted nothing */
        r->finished = TRUE;
        sim_stop(r->e);
        return;
    }
    if (!r->open && run_stuck(r)) {
        r->stalled = TRUE;
        run_stop(r);
        return;
    }
    if (r->sampler && !sampler_tick(r->sampler))
        run_stop(r);
    show_progress(r);
    r->tick_id = sim_schedule_in(r->e, r->interval, tick, r, 0);
}

void runner_start(Runner *r)
{
    workload_start(r->w);
    /* a workload with nothing to submit (an empty trace, a first record in
     * error) completes no command: it is finished already */
    r->finished = workload_finished(r->w);
    if (r->interval)
        r->tick_id = sim_schedule_in(r->e, r->interval, tick, r, 0);
}

gboolean runner_advance(Runner *r, SimTime until)
{
    if (!r->finished && !sim_run(r->e, until) && !r->finished)
        r->stalled = TRUE;
    return !r->finished && !r->stalled;
}

gboolean runner_end(Runner *r)
{
    /* a run may bind another workload and go again (pts): the old clock
     * must not tick on beside the new one */
    if (r->tick_id) {
        sim_cancel(r->e, r->tick_id);
        r->tick_id = 0;
    }
    return !r->stalled;
}

gboolean runner_go(Runner *r)
{
    runner_start(r);
    while (runner_advance(r, SIM_TIME_MAX))
        ;
    return runner_end(r);
}

void runner_set_open(Runner *r)
{
    r->open = TRUE;
}

void runner_check_every(Runner *r, uint64_t n)
{
    r->check_every = r->until_check = n;
}

gboolean runner_checks(const Runner *r, uint64_t *made, const char **why)
{
    *made = r->checks;
    *why = r->broken ? r->why : NULL;
    return !r->broken;
}

gboolean runner_interrupted(const Runner *r)
{
    return r->interrupted;
}
