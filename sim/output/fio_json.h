/*
 * fio_json.h - a run's jobs in fio's JSON output format (--output-format=
 * json or json+), key for key as fio 3.33 writes it, so that tools written
 * for fio (fio-plot, fio_jsonplus_clat2csv, users' scripts) read ftlsim
 * runs.
 */
#ifndef FTLSIM_FIO_JSON_H
#define FTLSIM_FIO_JSON_H

#include "sim/host/workload.h"

#include <glib.h>

typedef struct FioJsonOptions {
    const char *version;   /* ftlsim's, written as "fio version": "ftlsim-VERSION" */
    gboolean plus;         /* json+: the latency histograms ("bins") too */
    const char *disk_name; /* the drive's name, for disk_util */
    double sim_time_s;     /* s: simulated time at the run's end (elapsed, disk_util) */
} FioJsonOptions;

/* Append fio's JSON document for the bound, finished workload w to out. */
void fio_json_write(const Workload *w, const FioJsonOptions *o, GString *out);

#endif
