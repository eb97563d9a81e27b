/*
 * session.h - what run, pts, calibrate and emulate share around their
 * simulations: the one signal policy, the results folder (opened,
 * committed or left as it was), and the one line an interrupted command
 * ends with.
 *
 * A signal (SIGINT, SIGTERM or SIGHUP, alike) stops the work at its next
 * step; the command then settles (session_settle(): was it interrupted?),
 * writes its results marked so, and commits. Signals that come between the
 * settle and the commit wait until the folder is committed, so a
 * committed folder is marked interrupted exactly when the command exits
 * 128 + the signal; an uncommitted one is removed (nothing written).
 */
#ifndef FTLSIM_SESSION_H
#define FTLSIM_SESSION_H

#include "sim/output/outdir.h"

#include <glib.h>

typedef struct Session Session;

/* The signal policy of the commands that simulate, installed first thing:
 * SIGINT, SIGTERM and SIGHUP stop the work (a second one ends the process
 * at once); SIGXFSZ is ignored, so a write past ulimit -f is an error. */
void session_catch_signals(void);
/* Call stop() (async-signal-safe) when such a signal comes: for work that
 * waits outside the engine (emulate's FUSE loop). NULL: none. */
void session_on_signal(void (*stop)(void));

/* A new session. kept says what a committed folder of an interrupted
 * command holds ("the results so far are"); marked the file that says
 * "interrupted": true. Owned by the caller (session_free). */
Session *session_new(const char *kept, const char *marked);
/* Open the results folder out (outdir_open(): an existing non-empty folder
 * refused unless force, which replaces an earlier result only at the
 * commit). The folder, owned by s, or NULL with error. */
OutDir *session_open(Session *s, const char *out, gboolean force, GError **error);
/* The folder, or NULL when none is open. */
OutDir *session_dir(const Session *s);
/* Whether a signal has come (before the settle; fixed by it). */
gboolean session_interrupted(const Session *s);
/* Decide: a signal now (or before) makes the results interrupted ones.
 * Signals wait from here until session_commit() or session_free(). TRUE
 * when interrupted. */
gboolean session_settle(Session *s);
/* Commit the folder (when open) and let waiting signals in. */
gboolean session_commit(Session *s, GError **error);
/* error: the one line of an interrupted command, "interrupted by SIGNAL
 * WHEN; " and what it left: the committed folder (kept, marked), the
 * summary printed above (settled without a folder), or nothing written.
 * s may be NULL (nothing written). */
void session_interrupted_error(const Session *s, GError **error, const char *when, ...)
    G_GNUC_PRINTF(3, 4);
/* An uncommitted folder is removed; accepts NULL. */
void session_free(Session *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Session, session_free)

#endif
