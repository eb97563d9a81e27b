/*
 * resultnames.c - the names of the files ftlsim writes into a results
 * folder (see resultnames.h).
 */
#include "sim/engine/resultnames.h"

#include <string.h>

/* Names ftlsim writes into a results folder (report and figures). A forced
 * rerun removes them even without a manifest, so no stale result survives. */
static const char *const known_names[] = {
    "summary.txt",
    "summary.json",
    "series.csv",
    "series.live.csv",
    "phases.csv",
    "latency_read.csv",
    "latency_write.csv",
    "write_curve.png",
    "write_curve.svg",
    "throughput.png",
    "throughput.svg",
    "cache.png",
    "cache.svg",
    "latency_cdf.png",
    "latency_cdf.svg",
    "utilization.png",
    "utilization.svg",
    "write_curve.live.png",
    "report.html",
    "sweep.csv",
    "sweep.png",
    "sweep.svg",
    "sweep-row.csv",
    "sweep-manifest.csv",
    "jobs.txt",
    "sweep.slurm",
    "calibrated.ini",
    "fit.json",
    "curves.csv",
    "fit.png",
    "fit.svg",
    "figures.csv",
    /* ftlsim pts (docs/pts.md) */
    "rounds.csv",
    "steady_state.csv",
    "wsat.csv",
    "iops.csv",
    "tp.csv",
    "lat.csv",
    "steady_state.png",
    "steady_state.svg",
    "steady_state_1MiB.png",
    "steady_state_1MiB.svg",
    "steady_state_128KiB.png",
    "steady_state_128KiB.svg",
    "wsat.png",
    "wsat.svg",
    "iops.png",
    "iops.svg",
    "iops_3d.png",
    "iops_3d.svg",
    "convergence.png",
    "convergence.svg",
    "tp.png",
    "tp.svg",
    "lat.png",
    "lat.svg",
    "lat_3d_mean.png",
    "lat_3d_mean.svg",
    "lat_3d_max.png",
    "lat_3d_max.svg",
    RESULT_MANIFEST,
};

gboolean result_name_reserved(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(known_names); i++)
        if (strcmp(name, known_names[i]) == 0)
            return TRUE;
    return FALSE;
}
