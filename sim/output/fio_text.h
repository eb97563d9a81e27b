/*
 * fio_text.h - a run's jobs in fio's text outputs (--output-format=normal
 * or terse), line for line as fio 3.33 writes them, so that scripts that
 * read fio's text read ftlsim runs.
 */
#ifndef FTLSIM_FIO_TEXT_H
#define FTLSIM_FIO_TEXT_H

#include "sim/host/workload.h"

#include <glib.h>

typedef struct FioTextOptions {
    const char *version;   /* ftlsim's, written where fio writes its own */
    gboolean terse;        /* terse (version 3) instead of normal */
    const char *disk_name; /* the drive's name, for the disk stats */
    double sim_time_s;     /* s: simulated time at the run's end (disk util) */
} FioTextOptions;

/* Append fio's text output for the bound, finished workload w to out. */
void fio_text_write(const Workload *w, const FioTextOptions *o, GString *out);

#endif
