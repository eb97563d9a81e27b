/*
 * progress.h - the one-line status shown on a terminal during a run.
 *
 * Rewritten in place with \r at most ten times per second of wall time;
 * progress_update() returns at once in between, so it may be called from the
 * simulation's interval hook at any rate.
 */
#ifndef FTLSIM_PROGRESS_H
#define FTLSIM_PROGRESS_H

#include <glib.h>
#include <stdio.h>

typedef struct ProgressInfo {
    double fraction;        /* of the run done, 0..1 */
    double sim_time_s;      /* simulated time, s */
    double host_written_gb; /* host data written, decimal GB */
    double write_mbps;      /* current host write rate, MB/s */
    const char *phase;      /* idle|pslc|folding|native|gc; NULL: unknown */
    const char *label;      /* before the rest ("iops round 3 of at most 25"); NULL: none */
} ProgressInfo;

typedef struct Progress Progress;

/* A status line on tty (not owned). The caller decides whether it is shown:
 * enabled = isatty(fileno(tty)) && !quiet. A disabled Progress writes
 * nothing. Returns an owned Progress. */
Progress *progress_new(FILE *tty, gboolean enabled);
void progress_free(Progress *p); /* accepts NULL; does not clear the line */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Progress, progress_free)

/* Redraw the line: percent, simulated time, host GB written, write MB/s,
 * phase, wall time and ETA. Skipped when the last redraw is under 100 ms
 * old. */
void progress_update(Progress *p, const ProgressInfo *info);

/* Clear the line (before the run's summary is printed). */
void progress_finish(Progress *p);

#endif
