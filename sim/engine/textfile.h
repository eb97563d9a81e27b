/*
 * textfile.h - reading a text input the user names (a drive file, a job
 * file, a measured curve) whole, bounded: a file larger than the reader's
 * limit, or a stream that never ends (/dev/zero, a pipe), is refused
 * rather than read until memory runs out.
 */
#ifndef FTLSIM_TEXTFILE_H
#define FTLSIM_TEXTFILE_H

#include <glib.h>

/* Limits of the readers: far above any real input of the kind. */
#define TEXT_FILE_MAX_CONFIG (16u << 20) /* bytes: a drive INI file */
#define TEXT_FILE_MAX_JOB (16u << 20)    /* bytes: a fio job file, or a file it includes */
#define TEXT_FILE_MAX_CURVE (16u << 20) /* bytes: a measured curve CSV */

/* Open path, a file the user named, for reading, without blocking on it:
 * a FIFO nobody has opened for writing does not hold the open (reads of
 * it then end at once), a folder is refused (EISDIR). The descriptor
 * (close it) or -1 with the errno in *err; *fifo tells a FIFO or pipe,
 * whose end at once text_file_fifo_error() explains. */
int text_file_open(const char *path, gboolean *fifo, int *err);
/* The error for a FIFO or pipe that ended before its first byte. */
void text_file_fifo_error(const char *path, const char *what, GError **error);

/* The whole of path into *text (NUL-terminated, g_free it) and *len, as
 * g_file_get_contents() does, but at most max bytes: more is the error
 * G_FILE_ERROR_FAILED ("PATH: found more than N MiB, expected WHAT of at most N
 * MiB"); what names the kind of file ("a job file"). Opened by
 * text_file_open(): a FIFO without a writer is refused, not waited on. */
gboolean text_file_read(const char *path, gsize max, const char *what, char **text, gsize *len,
                        GError **error);

#endif
