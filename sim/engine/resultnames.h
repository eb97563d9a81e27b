/*
 * resultnames.h - the files ftlsim writes into a results folder itself
 * (summary.json, report.html, ...): the folder code removes them on a forced
 * rerun, and a file a job names (write_iolog) must not take one.
 */
#ifndef FTLSIM_RESULTNAMES_H
#define FTLSIM_RESULTNAMES_H

#include <glib.h>

/* The list of files a run wrote, kept in its folder (outdir.c). */
#define RESULT_MANIFEST ".ftlsim-files"

/* Whether name is one of them. */
gboolean result_name_reserved(const char *name);

#endif
