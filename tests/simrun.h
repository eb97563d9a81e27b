/*
 * simrun.h - drive a Drive with a workload spec from a test, phase by phase,
 * and read a results folder's series.csv back.
 */
#ifndef FTLSIM_SIMRUN_H
#define FTLSIM_SIMRUN_H

#include "models/drive.h"
#include "sim/config/config.h"
#include "sim/host/workload.h"

#include <stdio.h>

typedef struct SimRun {
    SimEngine *e;
    Drive *d;
    Workload *w;
} SimRun;

static void simrun_submit(void *ctx, IoOp op, uint64_t off, uint64_t len, uint64_t tag)
{
    drive_submit(ctx, op, off, len, tag);
}

static void simrun_done(void *ctx, uint64_t tag)
{
    SimRun *r = ctx;
    workload_io_done(r->w, tag);
    if (workload_finished(r->w))
        sim_stop(r->e);
}

/* Make a drive from a config file; NULL (and a printed error) if it does not load. */
static inline gboolean simrun_open(SimRun *r, const char *config)
{
    DriveParams p;
    GError *error = NULL;
    memset(r, 0, sizeof(*r));
    if (!config_load_file(config, &p, &error)) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
        return FALSE;
    }
    r->e = sim_engine_new();
    r->d = drive_new(r->e, &p, 1);
    drive_set_done(r->d, simrun_done, r);
    return TRUE;
}

/* Run one workload spec to completion on the drive as it is. */
static inline gboolean simrun_spec(SimRun *r, const char *spec)
{
    GError *error = NULL;
    Workload *w = workload_from_spec(spec, &error);
    WorkloadTarget t = {simrun_submit, r->d, drive_capacity(r->d), drive_queue_limit(r->d), NULL, NULL, 0};
    if (!w || !workload_bind(w, r->e, &t, 1, &error)) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
        workload_free(w);
        return FALSE;
    }
    r->w = w;
    workload_start(w);
    while (!workload_finished(w) && sim_run(r->e, SIM_TIME_MAX))
        ;
    gboolean ok = workload_finished(w);
    r->w = NULL;
    workload_free(w);
    return ok;
}

static inline void simrun_close(SimRun *r)
{
    drive_free(r->d);
    sim_engine_free(r->e);
}

static inline uint64_t simrun_nand_bytes(const DriveStats *s)
{
    uint64_t n = 0;
    for (int c = 0; c < CAUSES; c++)
        n += s->nand_write_bytes[c];
    return n;
}

/* Column col (0-based) of every data row of DIR/series.csv. */
static inline GArray *simrun_series_column(const char *dir, int col)
{
    g_autofree char *path = g_build_filename(dir, "series.csv", NULL);
    g_autofree char *text = NULL;
    GArray *out = g_array_new(FALSE, FALSE, sizeof(double));
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return out;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (int i = 1; lines[i] && lines[i][0]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
        if ((int)g_strv_length(f) > col) {
            double v = g_ascii_strtod(f[col], NULL);
            g_array_append_val(out, v);
        }
    }
    return out;
}

#endif
