/*
 * fio_json.h - a run's jobs in fio's JSON output format (--output-format=
 * json or json+), so that tools written for fio (fio-plot, users' scripts)
 * read ftlsim runs.
 */
#ifndef FTLSIM_FIO_JSON_H
#define FTLSIM_FIO_JSON_H

#include "sim/host/workload.h"

#include <glib.h>

/* Append fio's JSON document for the bound, finished workload w to out.
 * plus: json+ (clat_ns.bins, the latency histogram). */
void fio_json_write(const Workload *w, const char *version, gboolean plus, GString *out);

#endif
