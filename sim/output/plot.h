/*
 * plot.h - figures through gnuplot: the scripts in scripts/plot run on a
 * results folder (series.csv, phases.csv, latency_*.csv, summary.json).
 *
 * gnuplot runs as a child process (argv, no shell); every figure is rendered
 * to a temporary name and renamed, so a figure that exists is complete.
 */
#ifndef FTLSIM_PLOT_H
#define FTLSIM_PLOT_H

#include <glib.h>

typedef enum PlotFormat { PLOT_PNG, PLOT_SVG } PlotFormat;

/* Errors of this module (domain PLOT_ERROR). */
typedef enum PlotError {
    PLOT_ERROR_NO_GNUPLOT, /* gnuplot is not on PATH: see plot_install_hint() */
    PLOT_ERROR_SCRIPT,     /* a .gp script is missing */
    PLOT_ERROR_INPUT,      /* a results folder lacks what the figure needs */
    PLOT_ERROR_GNUPLOT,    /* gnuplot failed: the message carries its first error line */
} PlotError;
#define PLOT_ERROR (plot_error_quark())
GQuark plot_error_quark(void);

/* gnuplot is on PATH. */
gboolean plot_available(void);

/* What to tell a user without gnuplot (static string). */
const char *plot_install_hint(void);
/* A figure that could not be drawn, said on stderr (figures are never an
 * error of the run): the install hint without gnuplot, else "figures:"
 * and why. Frees error. */
void plot_warn(GError *error);

/* Write write_curve, throughput, cache and latency_cdf (.png or .svg) into
 * the results folder dir, skipping a figure whose input is missing or empty.
 * script_dir holds the .gp files (scripts/plot in the source tree, or
 * share/ftlsim/plot once installed). */
gboolean plot_results(const char *dir, const char *script_dir, PlotFormat fmt, GError **error);

/* One figure of a results folder: gnuplot runs script_dir/SCRIPT.gp with
 * dir, drive (from summary.json) and the assignments in vars (gnuplot
 * syntax, "a=1; b='x'; ", may be NULL), into dir/OUT_BASE.png or .svg. */
gboolean plot_script(const char *dir, const char *script_dir, const char *script,
                     const char *out_base, const char *vars, PlotFormat fmt, GError **error);

/* The write curves of several results folders (NULL-terminated dirs) on one
 * figure, out_file, with the drive names of their summary.json as legend. */
gboolean plot_overlay(const char *const *dirs, const char *out_file, const char *script_dir,
                      PlotFormat fmt, GError **error);

/* The figure of a calibration (ftlsim calibrate): dir/curves.csv, the
 * measured curve against the stock and the calibrated runs, or without
 * one dir/figures.csv, each figure's three values as points; titled title
 * (plain text, may be NULL) into out_file. */
gboolean plot_calibration(const char *dir, const char *out_file, const char *script_dir,
                          const char *title, PlotFormat fmt, GError **error);

/* The drive name of a results folder: the "drive" string of summary.json,
 * followed by its "overrides" (the run's --set options) in parentheses when
 * there are any, else the folder's base name. g_free it. */
char *plot_drive_name(const char *dir);

/* ---- Live write curve (--live) ------------------------------------------
 * Follows dir/series.live.csv while a run writes it. With $DISPLAY set, one
 * gnuplot window is kept open and redrawn; without, dir/write_curve.live.png
 * is re-rendered. Either way at most once per PLOT_LIVE_INTERVAL_S of wall
 * time, so plot_live_update() may be called every interval of the run. */
#define PLOT_LIVE_INTERVAL_S 5

typedef struct PlotLive PlotLive;

/* Returns an owned PlotLive, or NULL with error set (no gnuplot, no script). */
PlotLive *plot_live_start(const char *dir, const char *script_dir, GError **error);
void plot_live_update(PlotLive *pl);
/* Draws a last time, ends gnuplot and frees pl; accepts NULL. */
void plot_live_stop(PlotLive *pl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PlotLive, plot_live_stop)

/* Where the gnuplot scripts are: share/ftlsim/plot beside an installed
 * binary, else the source tree's scripts/plot. g_free it. */
char *plot_script_dir(void);

#endif
