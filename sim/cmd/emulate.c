/*
 * emulate.c - the engine side of emulate (see emulate.h): one thread runs
 * the simulation, advancing simulated time with CLOCK_MONOTONIC. A command
 * from a FUSE worker enters the model at its arrival time (the engine
 * catches up to it first), and the worker is woken when the model's
 * completion event fires, which the engine lets happen only once the wall
 * clock has reached it. Between events the thread sleeps on a condition
 * variable until the next event or the next command. What the emulation
 * itself costs (pickup and wake-up delays) is counted per command: the
 * floor under the modelled latencies.
 */
#include "sim/cmd/emulate_priv.h"

#include "sim/cmd/run.h"
#include "sim/cmd/session.h"
#include "sim/config/config.h"
#include "sim/output/outdir.h"
#include "sim/output/report.h"
#include "sim/run/runner.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* A modelled latency this many times the emulation's own cost per command
 * or more is one the host could see; below it the summary says so. */
#define EMU_FLOOR_RATIO 10.0

void emulate_options_init(EmulateOptions *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->interval = SIM_SEC / 2;
}

/* The engine thread's world: the run, and where the I/O is recorded. */
typedef struct EmuEngine {
    Emu *emu;
    Runner *sr;
    Drive *d;
    Workload *w;
    Sampler *s;
    FILE *iolog;        /* trace.iolog in the results folder */
    gboolean status;    /* draw the status line */
    uint64_t status_at; /* ns, wall: the next redraw */
    char stall[320];    /* why the model stalled; "" while it did not */
    gboolean ended;     /* the run ended (stalled, stopped) while mounted */
} EmuEngine;

/* The model completed command id (at sim_now()). */
static void emu_done(void *ctx, uint32_t id)
{
    EmuEngine *ee = ctx;
    Emu *emu = ee->emu;
    pthread_mutex_lock(&emu->m);
    EmuSlot *s = &emu->slot[id];
    s->done = sim_now(runner_engine(ee->sr));
    s->state = EMU_DONE;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&emu->m);
}

static const char *emu_action(IoOp op)
{
    return op == IO_READ ? "read" : op == IO_WRITE ? "write" : op == IO_TRIM ? "trim" : "sync";
}

/* Command id enters the model at its arrival (or now, if the engine is
 * past it), and the trace. */
static void emu_submit(EmuEngine *ee, uint32_t id)
{
    Emu *emu = ee->emu;
    EmuSlot *s = &emu->slot[id];
    SimEngine *e = runner_engine(ee->sr);
    if (s->arrival > sim_now(e))
        runner_advance(ee->sr, s->arrival);
    s->submit = sim_now(e);
    s->state = EMU_IN_MODEL;
    fprintf(ee->iolog, "%" G_GUINT64_FORMAT " disk %s", s->arrival / SIM_US, emu_action(s->op));
    if (s->op == IO_FLUSH)
        fputc('\n', ee->iolog);
    else
        fprintf(ee->iolog, " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", s->offset, s->length);
    workload_live_submit(ee->w, (IoOp)s->op, s->offset, s->length, id);
}

/* The status line: host MB/s over the last row, phase, cache, depth. */
static void emu_status(EmuEngine *ee, uint64_t now)
{
    if (!ee->status || now < ee->status_at)
        return;
    ee->status_at = now + SIM_SEC / 2;
    const SeriesRow *row = sampler_last_row(ee->s);
    Emu *emu = ee->emu;
    pthread_mutex_lock(&emu->m);
    uint32_t depth = emu->depth, deepest = emu->floor.depth_max;
    pthread_mutex_unlock(&emu->m);
    fprintf(stderr,
            "\r%8.1f s  write %7.1f MB/s  read %7.1f MB/s  %-8s  cache %6.2f/%6.2f GB  "
            "in flight %3u (deepest %u)  ",
            (double)now / 1e9, row ? row->write_MBps : 0.0, row ? row->read_MBps : 0.0,
            row ? drive_phase_name(row->phase) : "idle",
            row ? (double)row->pslc_used_bytes / 1e9 : 0.0,
            row ? (double)row->pslc_limit_bytes / 1e9 : 0.0, depth, deepest);
}

/* Sleep until the next event or the next command, whichever is first. */
static void emu_wait(EmuEngine *ee)
{
    Emu *emu = ee->emu;
    SimTime next = sim_next_bound(runner_engine(ee->sr));
    uint64_t now = emu_clock() - emu->t0;
    if (next <= now)
        return;
    uint64_t until = emu->t0 + MIN(next, now + SIM_SEC / 4);
    struct timespec ts = {.tv_sec = (time_t)(until / SIM_SEC), .tv_nsec = (long)(until % SIM_SEC)};
    pthread_mutex_lock(&emu->m);
    if (emu->qlen == 0 && !emu->stopping)
        pthread_cond_timedwait(&emu->engine_cv, &emu->m, &ts);
    pthread_mutex_unlock(&emu->m);
}

/* Fail every command not in the model once the run has stopped. */
static void emu_fail(Emu *emu)
{
    pthread_mutex_lock(&emu->m);
    emu->failed = true;
    for (uint32_t i = 0; i < EMU_SLOTS; i++)
        pthread_cond_signal(&emu->slot[i].cv);
    pthread_cond_broadcast(&emu->slot_cv);
    pthread_mutex_unlock(&emu->m);
}

/* Commands in the drive and nothing left to happen but the clock's tick:
 * the model cannot go on (a run would report it stalled). */
static gboolean emu_stalled(EmuEngine *ee)
{
    if (drive_outstanding(ee->d) == 0 || sim_pending(runner_engine(ee->sr)) > 1)
        return FALSE;
    drive_stall_reason(ee->d, ee->stall, sizeof ee->stall);
    return TRUE;
}

static void *emu_engine_main(void *arg)
{
    EmuEngine *ee = arg;
    Emu *emu = ee->emu;
    uint32_t batch[EMU_SLOTS];
    prctl(PR_SET_TIMERSLACK, 1UL); /* wake-ups at the event, not 50 us later */
    sigset_t sigs; /* the FUSE loop's thread takes the signals (session.h) */
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    for (;;) {
        pthread_mutex_lock(&emu->m);
        uint32_t n = emu->qlen;
        for (uint32_t i = 0; i < n; i++)
            batch[i] = emu->queue[(emu->qhead + i) % EMU_SLOTS];
        emu->qhead = (emu->qhead + n) % EMU_SLOTS;
        emu->qlen = 0;
        bool stop = emu->stopping && (emu->depth == 0 || emu->failed);
        pthread_mutex_unlock(&emu->m);
        for (uint32_t i = 0; i < n; i++)
            emu_submit(ee, batch[i]);
        uint64_t now = emu_clock() - emu->t0;
        gboolean going = runner_advance(ee->sr, now);
        if (!going && runner_interrupted(ee->sr)) {
            emu_fail(emu); /* a signal: the FUSE loop ends too (session_on_signal) */
            break;
        }
        if (!going || emu_stalled(ee)) {
            ee->ended = TRUE;
            emu_fail(emu); /* the run ended under the file system */
            emu_fuse_stop();
            break;
        }
        if (emu_fuse_exited() && !emu->failed)
            emu_fail(emu); /* a signal: the workers must not wait for the model */
        emu_status(ee, now);
        if (stop)
            break;
        if (n == 0)
            emu_wait(ee);
    }
    return NULL;
}

/* The data store: an anonymous mapping of the capacity, which takes memory
 * only where data is written. A drive whose capacity the machine could not
 * hold is refused (--no-data keeps none). */
static gboolean emu_data_new(Emu *emu, const EmulateOptions *o, GError **error)
{
    if (o->no_data)
        return TRUE;
    uint64_t have = run_memory_available(error);
    if (error && *error)
        return FALSE;
    if (have && emu->capacity > have) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: keeping the data of a %.1f GB drive could take %.1f GB of memory, the "
                    "machine has %.1f GB available; expected a smaller drive.user_capacity, or "
                    "--no-data (timing only, reads return zeros)",
                    o->drive, (double)emu->capacity / 1e9, (double)emu->capacity / 1e9,
                    (double)have / 1e9);
        return FALSE;
    }
    void *p = mmap(NULL, emu->capacity, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: cannot map %.1f GB for the drive's data (%s); expected a smaller "
                    "drive.user_capacity, or --no-data", o->drive, (double)emu->capacity / 1e9,
                    g_strerror(errno));
        return FALSE;
    }
    madvise(p, emu->capacity, MADV_NOHUGEPAGE); /* memory by 4 KiB written, not 2 MiB */
    emu->data = p;
    return TRUE;
}

static void emu_init_sync(Emu *emu)
{
    pthread_mutex_init(&emu->m, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&emu->engine_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&emu->slot_cv, NULL);
    for (uint32_t i = 0; i < EMU_SLOTS; i++) {
        pthread_cond_init(&emu->slot[i].cv, NULL);
        emu->free_slot[i] = EMU_SLOTS - 1 - i;
    }
    emu->nfree = EMU_SLOTS;
}

static void emu_release(Emu *emu)
{
    for (uint32_t i = 0; i < EMU_SLOTS; i++)
        pthread_cond_destroy(&emu->slot[i].cv);
    pthread_cond_destroy(&emu->slot_cv);
    pthread_cond_destroy(&emu->engine_cv);
    pthread_mutex_destroy(&emu->m);
    if (emu->data)
        munmap(emu->data, emu->capacity);
}

/* The emulation's own cost, for summary.txt: what it added per command,
 * the deepest queue, and whether the modelled latencies stood above it. */
static void emu_floor_text(const Emu *emu, GString *out)
{
    const EmuFloor *f = &emu->floor;
    double n = f->commands ? (double)f->commands : 1.0;
    double pickup = (double)f->pickup_ns / n / 1e3, reply = (double)f->reply_ns / n / 1e3;
    double model = (double)f->model_ns / n / 1e3;
    g_string_append_printf(out,
                           "\nemulation (real time, on this machine)\n"
                           "  commands           %" G_GUINT64_FORMAT "\n"
                           "  deepest queue      %u commands at once\n"
                           "  pickup delay       %.1f us mean, %.1f us max (arrival to the model)\n"
                           "  reply delay        %.1f us mean, %.1f us max (completion to reply)\n"
                           "  model latency      %.1f us mean\n",
                           f->commands, f->depth_max, pickup, (double)f->pickup_max / 1e3, reply,
                           (double)f->reply_max / 1e3, model);
    if (f->commands && model < EMU_FLOOR_RATIO * (pickup + reply))
        g_string_append_printf(
            out, "  note               the modelled drive is faster than the emulation can show: "
                 "its commands took %.1f us, the emulation added %.1f us to each; the host saw "
                 "less than the figures above\n", model, pickup + reply);
    else if (f->commands)
        g_string_append(out, "  timing             the modelled latencies stood above the "
                             "emulation's own cost\n");
}

/* The results folder, as run_simulation() writes it, plus the trace. */
static gboolean emu_results(EmuEngine *ee, Session *ses, const DriveParams *p, FILE *series,
                            double wall_s, double setup_s, GError **error)
{
    const EmulateOptions *o = ee->emu->o;
    OutDir *od = session_dir(ses);
    sampler_finish(ee->s);
    GArray *phases = g_array_new(FALSE, FALSE, sizeof(PhaseSpan));
    report_phases_from_rows(sampler_rows(ee->s), phases);
    drive_account(ee->d);
    struct rusage ru;
    g_autofree char *what = g_strdup_printf("emulate:%s", o->mountpoint);
    RunResult res = {
        .drive = o->drive,
        .prefill = o->prefill,
        .sets = o->sets,
        .seed = o->seed,
        .params = p,
        .stats = drive_stats(ee->d),
        .workload = ee->w,
        .sim_time_s = (double)sim_now(runner_engine(ee->sr)) / 1e9,
        .wall_s = wall_s,
        .setup_wall_s = setup_s,
        .events = sim_fired(runner_engine(ee->sr)),
        .peak_rss = getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * 1024 : 0,
        .rows = sampler_rows(ee->s),
        .phases = phases,
        .interrupted = session_settle(ses), /* signals wait until the commit */
    };
    drive_wear(ee->d, &res.wear);
    g_autoptr(GString) more = g_string_new(NULL);
    emu_floor_text(ee->emu, more);
    gboolean ok = outdir_close_file(od, series, error) &&
                  run_write_results(od, &res, FALSE, more->str, error) &&
                  outdir_close_file(od, ee->iolog, error) && session_commit(ses, error);
    ee->iolog = NULL;
    if (ok && !o->quiet) {
        g_autoptr(GString) text = g_string_new(NULL);
        report_summary_text(&res, text);
        printf("%s%sresults   %s\n", text->str, more->str, o->out);
    }
    if (ok) {
        RunOptions ro;
        run_options_init(&ro);
        ro.drive = o->drive;
        ro.spec = what;
        ro.seed = o->seed;
        ro.out = o->out;
        ro.plot = o->plot;
        ro.plot_format = (PlotFormat)o->plot_format;
        if (o->plot && !res.interrupted) {
            GError *perr = NULL;
            if (!plot_results(o->out, ro.script_dir, ro.plot_format, &perr))
                plot_warn(perr);
        }
        run_write_report(&ro, &res);
    }
    if (ok && res.interrupted) {
        session_interrupted_error(ses, error, "at %.3f s simulated", res.sim_time_s);
        ok = FALSE;
    }
    g_array_free(phases, TRUE);
    return ok;
}

/* Run the engine thread beside the file system until it is unmounted. */
static gboolean emu_go(EmuEngine *ee, GError **error)
{
    Emu *emu = ee->emu;
    pthread_t tid;
    runner_set_open(ee->sr);
    emu->t0 = emu_clock();
    runner_start(ee->sr);
    if (pthread_create(&tid, NULL, emu_engine_main, ee) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "cannot start the engine thread");
        return FALSE;
    }
    gboolean served = emu_fuse_serve(emu, error);
    pthread_mutex_lock(&emu->m);
    emu->stopping = true;
    pthread_cond_signal(&emu->engine_cv);
    pthread_mutex_unlock(&emu->m);
    pthread_join(tid, NULL);
    emu_fuse_close();
    workload_live_close(ee->w);
    /* what the drive still owes the host: nothing, once every reply went */
    while (runner_advance(ee->sr, sim_now(runner_engine(ee->sr))))
        if (workload_finished(ee->w))
            break;
    runner_end(ee->sr);
    if (ee->status)
        fputs("\n", stderr);
    if (served && ee->ended) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED,
                    "the simulation stopped at %.3f s with %u commands outstanding (%s)",
                    (double)sim_now(runner_engine(ee->sr)) / 1e9, drive_outstanding(ee->d),
                    ee->stall[0] ? ee->stall : "ended");
        return FALSE;
    }
    return served;
}

gboolean emulate_run(const EmulateOptions *o, GError **error)
{
    uint64_t setup0 = emu_clock();
    DriveParams p;
    if (!config_load_file_set(o->drive, o->sets, &p, error))
        return FALSE;
    DrivePrefill pf;
    MemoryClass mc;
    if (!run_check_drive_setup(o->drive, &p, o->interval, o->prefill, o->seed, NULL, &pf, &mc,
                               error) ||
        !emu_fuse_check_mountpoint(o->mountpoint, error))
        return FALSE;
    Emu *emu = g_new0(Emu, 1);
    emu->o = o;
    emu->capacity = p.user_capacity;
    emu_init_sync(emu);
    EmuEngine ee = {.emu = emu, .status = !o->quiet && isatty(fileno(stderr))};
    g_autoptr(Runner) sr = NULL;
    g_autoptr(Workload) w = NULL;
    g_autoptr(Sampler) s = NULL;
    g_autoptr(Session) ses = session_new("the results so far are", "summary.json");
    OutDir *od = NULL;
    FILE *series = NULL;
    gboolean ok = FALSE;
    if (!emu_data_new(emu, o, error))
        goto out;
    sr = runner_new(&p, o->seed);
    if (!sr) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "%s: cannot allocate the drive's tables",
                    o->drive);
        goto out;
    }
    ee.sr = sr;
    ee.d = runner_drive(sr);
    emu->capacity = drive_capacity(ee.d);
    if (o->prefill && !run_prefill_drive(o->prefill, ee.d, &pf, error))
        goto out;
    w = workload_live_new("emulate", emu_done, &ee);
    if (!runner_bind(sr, w, o->seed, error))
        goto out;
    ee.w = w;
    s = sampler_new(runner_engine(sr), ee.d, &p, w, 0, FALSE);
    ee.s = s;
    runner_set_clock(sr, o->interval, 0, s, NULL);
    if (!(od = session_open(ses, o->out, o->force, error)) ||
        !(series = outdir_create(od, "series.csv", error)) ||
        !(ee.iolog = outdir_create(od, "trace.iolog", error)))
        goto out;
    report_series_header(series, FALSE);
    sampler_write_to(s, series, NULL, NULL);
    fprintf(ee.iolog, "fio version 3 iolog\n0 disk add\n0 disk open\n");
    if (!o->quiet)
        fprintf(stderr, "ftlsim: %s/disk is the drive (%.3f GB); unmount with fusermount3 -u %s "
                        "or stop with Ctrl-C\n",
                o->mountpoint, (double)emu->capacity / 1e9, o->mountpoint);
    double setup_s = (double)(emu_clock() - setup0) / 1e9;
    if (!emu_go(&ee, error))
        goto out;
    fprintf(ee.iolog, "%" G_GUINT64_FORMAT " disk close\n",
            sim_now(runner_engine(sr)) / SIM_US);
    ok = emu_results(&ee, ses, &p, series, (double)(emu_clock() - emu->t0) / 1e9, setup_s, error);
    series = NULL;
out:
    if (!ok && od) {
        if (series)
            outdir_close_file(od, series, NULL);
        if (ee.iolog)
            outdir_close_file(od, ee.iolog, NULL);
    }
    emu_release(emu);
    g_free(emu);
    return ok;
}
