/*
 * outdir.h - the results folder, written atomically.
 *
 * Every file goes to a temporary DIR/.NAME.tmp and is renamed to DIR/NAME
 * only by outdir_commit(), so an interrupted run never leaves a file under a
 * final name that is half written. See docs/outputs.md for what --force
 * removes.
 */
#ifndef FTLSIM_OUTDIR_H
#define FTLSIM_OUTDIR_H

#include <glib.h>
#include <stdio.h>

#include "sim/engine/resultnames.h"

typedef struct OutDir OutDir;

/* The manifest a committed folder holds: the names the run wrote, one a line. */
#define OUTDIR_MANIFEST RESULT_MANIFEST

/* Open (and create, with its parents) the results folder path, and lock it
 * until outdir_free(): a folder another run holds is refused. An existing
 * non-empty folder is refused unless force; with force, the new files are
 * written in a temporary sibling folder, and only outdir_commit() removes
 * the files an earlier ftlsim run left (those in its manifest, the names
 * ftlsim writes, and stale temporaries) and moves the new ones in; other
 * files are left alone. A run that fails leaves the earlier result whole.
 * Returns an owned OutDir, or NULL with error set. */
OutDir *outdir_open(const char *path, gboolean force, GError **error);

/* What outdir_open() would refuse about path, checked without making,
 * locking or changing anything (a --dry-run's, or before long work): a
 * path that is not a folder, an existing non-empty folder unless force. */
gboolean outdir_check(const char *path, gboolean force, GError **error);

/* Aborts (removes the temporaries) if not committed; accepts NULL. */
void outdir_free(OutDir *od);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(OutDir, outdir_free)

/* Open a temporary .NAME.tmp for writing. name is a plain file name (no '/', not
 * starting with '.'), written once per OutDir. The stream stays owned by od:
 * give it back through outdir_close_file(). */
FILE *outdir_create(OutDir *od, const char *name, GError **error);

/* fflush + fsync + fclose a stream from outdir_create(), checking every
 * step (and earlier write errors). On failure the temporary is removed and
 * outdir_commit() will refuse. */
gboolean outdir_close_file(OutDir *od, FILE *f, GError **error);

/* outdir_create + write text + outdir_close_file. */
gboolean outdir_write_text(OutDir *od, const char *name, const char *text, GError **error);

/* Rename every .NAME.tmp to DIR/NAME, then write the manifest. Refuses when a
 * file is still open or failed. Only after this do the results look whole. */
gboolean outdir_commit(OutDir *od, GError **error);

/* Close streams still open, remove the temporaries, and remove the folder if
 * this OutDir created it and it is now empty. Harmless after commit. */
void outdir_abort(OutDir *od);

/* The folder (owned by od). */
const char *outdir_path(const OutDir *od);

/* DIR/NAME, the final path of a file; g_free it. */
char *outdir_file_path(const OutDir *od, const char *name);

/* A single file the user names (--output FILE, plot --out FILE), checked
 * before the work: the path to write, with a symbolic link followed (the
 * link itself is never replaced) and *special set for a character device
 * or a FIFO, which are written to as they are. A new name or a regular
 * file is fine (also at the end of a link to a name not there yet, in an
 * existing folder); a folder, a block device or a socket is refused (NULL, error without the path: the caller says which option). */
char *outdir_dest_resolve(const char *path, gboolean *special, GError **error);
/* Write data to such a file: a regular file (or a new one) through a
 * temporary beside it renamed over it, so that it is whole or as it was;
 * a device or FIFO by writing to it. Errors are without the path. */
gboolean outdir_write_dest(const char *path, const char *data, gsize len, GError **error);

#endif
