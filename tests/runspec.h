/*
 * runspec.h - for the suites that drive a Drive phase by phase: a drive on
 * the runner (sim/run/runner.h, as every command simulates), workload specs
 * run on it one after another, and a results folder's series.csv read back.
 */
#ifndef FTLSIM_RUNSPEC_H
#define FTLSIM_RUNSPEC_H

#include "models/drive.h"
#include "sim/config/config.h"
#include "sim/host/workload.h"
#include "sim/run/runner.h"

#include <stdio.h>
#include <string.h>

typedef struct TestRun {
    DriveParams p; /* the runner's: kept while it runs */
    Runner *run;
    SimEngine *e; /* the runner's engine and drive */
    Drive *d;
} TestRun;

/* A drive with parameters p (copied) on a runner of its own. */
static inline gboolean testrun_new(TestRun *r, const DriveParams *p)
{
    memset(r, 0, sizeof(*r));
    r->p = *p;
    r->run = runner_new(&r->p, 1);
    if (!r->run)
        return FALSE;
    r->e = runner_engine(r->run);
    r->d = runner_drive(r->run);
    return TRUE;
}

/* A drive made from a config file; FALSE (and a printed error) if it does
 * not load. */
static inline gboolean testrun_open(TestRun *r, const char *config)
{
    DriveParams p;
    g_autoptr(GError) error = NULL;
    memset(r, 0, sizeof(*r));
    if (!config_load_file(config, &p, &error)) {
        fprintf(stderr, "%s\n", error->message);
        return FALSE;
    }
    return testrun_new(r, &p);
}

/* Run one workload spec to completion on the drive as it is. */
static inline gboolean testrun_spec(TestRun *r, const char *spec)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(Workload) w = workload_from_spec(spec, &error);
    gboolean ok = w && runner_bind(r->run, w, 1, &error) && runner_go(r->run) &&
                  workload_finished(w);
    if (error)
        fprintf(stderr, "%s\n", error->message);
    return ok;
}

static inline void testrun_close(TestRun *r)
{
    runner_free(r->run);
    memset(r, 0, sizeof(*r));
}

static inline uint64_t testrun_nand_bytes(const DriveStats *s)
{
    uint64_t n = 0;
    for (int c = 0; c < CAUSES; c++)
        n += s->nand_write_bytes[c];
    return n;
}

/* Column col (0-based) of every data row of DIR/series.csv. */
static inline GArray *testrun_series_column(const char *dir, int col)
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
