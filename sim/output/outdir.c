/*
 * outdir.c - atomic results folder, see outdir.h.
 *
 * Invariant: a file exists under its final name only after outdir_commit();
 * until then it is WDIR/.NAME.tmp, where WDIR is the folder itself or, when
 * --force replaces an earlier result, a temporary sibling .BASE.new-PID (so
 * a run that fails leaves the earlier result whole). The manifest is
 * written last. The folder is locked (flock on the folder itself) from
 * open to free, so a second run into it is refused rather than racing.
 */
#include "sim/output/outdir.h"
#include "sim/engine/resultnames.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum OutFileState {
    OUT_OPEN,    /* being written */
    OUT_CLOSED,  /* complete, under its temporary name */
    OUT_RENAMED, /* under its final name (commit under way) */
    OUT_FAILED,  /* write failed or aborted: nothing on disk */
} OutFileState;

typedef struct OutFile {
    char *name;     /* final name inside the folder */
    char *tmp_path; /* WDIR/.NAME.tmp */
    FILE *f;        /* while OUT_OPEN */
    OutFileState state;
} OutFile;

struct OutDir {
    char *path;       /* the folder */
    char *wdir;       /* where the temporaries go: path, or a sibling with --force */
    int lock_fd;      /* the folder, flock()ed; -1 when none */
    gboolean created; /* this OutDir made the folder */
    gboolean committed;
    gboolean aborted; /* outdir_abort() ran: nothing more may be written */
    GPtrArray *files; /* of OutFile, in creation order */
};


static void outfile_free(gpointer p)
{
    OutFile *of = p;
    g_free(of->name);
    g_free(of->tmp_path);
    g_free(of);
}

static gboolean outdir_is_known(const char *name, char **manifest)
{
    if (result_name_reserved(name))
        return TRUE;
    if (manifest && g_strv_contains((const char *const *)manifest, name))
        return TRUE;
    return name[0] == '.' && g_str_has_suffix(name, ".tmp"); /* an interrupted run's temporary */
}

/* With --force: remove what an earlier run left (see outdir.h). */
static gboolean outdir_remove_stale(const char *path, GError **error)
{
    g_autofree char *mpath = g_build_filename(path, OUTDIR_MANIFEST, NULL);
    g_autofree char *mtext = NULL;
    g_auto(GStrv) manifest = NULL;
    if (g_file_get_contents(mpath, &mtext, NULL, NULL))
        manifest = g_strsplit(mtext, "\n", -1);
    g_autoptr(GDir) d = g_dir_open(path, 0, error);
    if (!d)
        return FALSE;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        if (!outdir_is_known(name, manifest) || strchr(name, '/'))
            continue;
        g_autofree char *p = g_build_filename(path, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR))
            continue;
        if (g_unlink(p) != 0) {
            int e = errno;
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                        "%s: cannot remove the earlier result: %s", p, g_strerror(e));
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean outdir_is_empty(const char *path, GError **error)
{
    g_autoptr(GDir) d = g_dir_open(path, 0, error);
    if (!d)
        return FALSE;
    return g_dir_read_name(d) == NULL;
}

/* Lock the folder for this run; a second ftlsim run into it is refused. */
static int outdir_lock(const char *path, GError **error)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "%s: cannot open the results folder: %s", path, g_strerror(e));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                        "%s: another ftlsim run is writing into this folder; expected one run a "
                        "folder at a time", path);
        else
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                        "%s: cannot lock the results folder: %s", path, g_strerror(e));
        return -1;
    }
    return fd;
}

/* A fresh sibling of path for the new results: .BASE.new-PID. */
static char *outdir_make_sibling(const char *path, GError **error)
{
    /* beside the folder itself, not a link to it: the files are renamed
     * into the folder, which a rename cannot do across file systems */
    g_autofree char *real = realpath(path, NULL);
    g_autofree char *dir = g_path_get_dirname(real ? real : path);
    g_autofree char *base = g_path_get_basename(real ? real : path);
    g_autofree char *name = g_strdup_printf(".%s.new-%ld", base, (long)getpid());
    char *sib = g_build_filename(dir, name, NULL);
    if (g_mkdir(sib, 0755) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "%s: cannot create a folder for the new results: %s", sib, g_strerror(e));
        g_free(sib);
        return NULL;
    }
    return sib;
}

/* An existing path that is not a folder, refused. */
static gboolean outdir_not_folder(const char *path, GError **error)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
                "%s: exists and is not a folder; expected a results folder", path);
    return FALSE;
}

/* An existing folder: *empty set; a non-empty one without force refused. */
static gboolean outdir_reusable(const char *path, gboolean force, gboolean *empty, GError **error)
{
    GError *e = NULL;
    *empty = outdir_is_empty(path, &e);
    if (e) {
        g_propagate_error(error, e);
        return FALSE;
    }
    if (!*empty && !force) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                    "%s: exists; use --force to overwrite", path);
        return FALSE;
    }
    return TRUE;
}

gboolean outdir_check(const char *path, gboolean force, GError **error)
{
    g_return_val_if_fail(path != NULL && path[0] != '\0', FALSE);
    if (!g_file_test(path, G_FILE_TEST_EXISTS))
        return TRUE;
    if (!g_file_test(path, G_FILE_TEST_IS_DIR))
        return outdir_not_folder(path, error);
    gboolean empty;
    return outdir_reusable(path, force, &empty, error);
}

OutDir *outdir_open(const char *path, gboolean force, GError **error)
{
    g_return_val_if_fail(path != NULL && path[0] != '\0', NULL);
    gboolean exists = g_file_test(path, G_FILE_TEST_EXISTS);
    if (exists && !g_file_test(path, G_FILE_TEST_IS_DIR)) {
        outdir_not_folder(path, error);
        return NULL;
    }
    if (!exists && g_mkdir_with_parents(path, 0755) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "%s: cannot create the results folder: %s", path, g_strerror(e));
        return NULL;
    }
    int fd = outdir_lock(path, error);
    if (fd < 0) {
        return NULL; /* a folder made here is the other run's now */
    }
    OutDir *od = g_new0(OutDir, 1);
    od->path = g_strdup(path);
    od->lock_fd = fd;
    od->created = !exists;
    od->files = g_ptr_array_new_with_free_func(outfile_free);
    gboolean empty = TRUE;
    if (exists && !outdir_reusable(path, force, &empty, error))
        goto fail;
    if (!empty && !(od->wdir = outdir_make_sibling(path, error)))
        goto fail;
    if (!od->wdir)
        od->wdir = g_strdup(path);
    return od;
fail:
    outdir_free(od);
    return NULL;
}

void outdir_free(OutDir *od)
{
    if (!od)
        return;
    outdir_abort(od);
    if (od->lock_fd >= 0)
        close(od->lock_fd);
    g_ptr_array_unref(od->files);
    g_free(od->path);
    g_free(od->wdir);
    g_free(od);
}

const char *outdir_path(const OutDir *od)
{
    g_return_val_if_fail(od != NULL, NULL);
    return od->path;
}

char *outdir_file_path(const OutDir *od, const char *name)
{
    g_return_val_if_fail(od != NULL && name != NULL, NULL);
    return g_build_filename(od->path, name, NULL);
}

static gboolean outdir_name_ok(const OutDir *od, const char *name, GError **error)
{
    if (name[0] == '\0' || name[0] == '.' || strchr(name, '/')) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s: bad result file name \"%s\"; expected a plain name not starting with '.'",
                    od->path, name);
        return FALSE;
    }
    for (guint i = 0; i < od->files->len; i++) {
        const OutFile *of = g_ptr_array_index(od->files, i);
        if (strcmp(of->name, name) == 0) {
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                        "%s/%s: written twice; expected each result file once", od->path, name);
            return FALSE;
        }
    }
    return TRUE;
}

FILE *outdir_create(OutDir *od, const char *name, GError **error)
{
    g_return_val_if_fail(od != NULL && name != NULL, NULL);
    if (od->committed || od->aborted) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                    "%s/%s: the results folder is already %s", od->path, name,
                    od->committed ? "committed" : "abandoned");
        return NULL;
    }
    if (!outdir_name_ok(od, name, error))
        return NULL;
    g_autofree char *tmp_name = g_strdup_printf(".%s.tmp", name);
    char *tmp_path = g_build_filename(od->wdir, tmp_name, NULL);
    FILE *f = g_fopen(tmp_path, "w");
    if (!f) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot create: %s",
                    tmp_path, g_strerror(e));
        g_free(tmp_path);
        return NULL;
    }
    OutFile *of = g_new0(OutFile, 1);
    of->name = g_strdup(name);
    of->tmp_path = tmp_path;
    of->f = f;
    of->state = OUT_OPEN;
    g_ptr_array_add(od->files, of);
    return f;
}

static OutFile *outdir_find_stream(OutDir *od, FILE *f)
{
    for (guint i = 0; i < od->files->len; i++) {
        OutFile *of = g_ptr_array_index(od->files, i);
        if (of->state == OUT_OPEN && of->f == f)
            return of;
    }
    return NULL;
}

/* Flush, sync and close; the first failing step's errno, or 0. */
static int outdir_finish_stream(FILE *f)
{
    int err = 0;
    if (fflush(f) != 0)
        err = errno;
    if (ferror(f) && !err)
        err = EIO; /* an earlier write failed; its errno is gone */
    if (fsync(fileno(f)) != 0 && !err && errno != EINVAL)
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}

gboolean outdir_close_file(OutDir *od, FILE *f, GError **error)
{
    g_return_val_if_fail(od != NULL && f != NULL, FALSE);
    OutFile *of = outdir_find_stream(od, f);
    if (!of) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s: closing a stream that is not an open result file", od->path);
        return FALSE;
    }
    int err = outdir_finish_stream(f);
    of->f = NULL;
    if (err) {
        of->state = OUT_FAILED;
        g_unlink(of->tmp_path);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "%s/%s: write failed: %s",
                    od->path, of->name, g_strerror(err));
        return FALSE;
    }
    of->state = OUT_CLOSED;
    return TRUE;
}

gboolean outdir_write_text(OutDir *od, const char *name, const char *text, GError **error)
{
    g_return_val_if_fail(text != NULL, FALSE);
    FILE *f = outdir_create(od, name, error);
    if (!f)
        return FALSE;
    fputs(text, f);
    return outdir_close_file(od, f, error);
}

/* Every file must be closed cleanly before anything is renamed. */
static gboolean outdir_check_closed(const OutDir *od, GError **error)
{
    for (guint i = 0; i < od->files->len; i++) {
        const OutFile *of = g_ptr_array_index(od->files, i);
        if (of->state != OUT_CLOSED) {
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                        "%s/%s: cannot commit: the file is %s; expected it closed", od->path,
                        of->name, of->state == OUT_OPEN ? "still open" : "failed");
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean outdir_write_manifest(OutDir *od, GError **error)
{
    GString *m = g_string_new(NULL);
    for (guint i = 0; i < od->files->len; i++)
        g_string_append_printf(m, "%s\n", ((const OutFile *)g_ptr_array_index(od->files, i))->name);
    g_autofree char *mpath = outdir_file_path(od, OUTDIR_MANIFEST);
    gboolean ok = g_file_set_contents(mpath, m->str, (gssize)m->len, error);
    g_string_free(m, TRUE);
    return ok;
}

gboolean outdir_commit(OutDir *od, GError **error)
{
    g_return_val_if_fail(od != NULL, FALSE);
    if (od->committed)
        return TRUE;
    if (od->aborted) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                    "%s: cannot commit: the results were abandoned", od->path);
        return FALSE;
    }
    if (!outdir_check_closed(od, error))
        return FALSE;
    gboolean replacing = strcmp(od->wdir, od->path) != 0;
    if (replacing && !outdir_remove_stale(od->path, error))
        return FALSE;
    for (guint i = 0; i < od->files->len; i++) {
        OutFile *of = g_ptr_array_index(od->files, i);
        g_autofree char *final = outdir_file_path(od, of->name);
        if (g_rename(of->tmp_path, final) != 0) {
            int e = errno;
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                        "%s: cannot rename to %s: %s", of->tmp_path, final, g_strerror(e));
            return FALSE;
        }
        of->state = OUT_RENAMED;
    }
    od->committed = TRUE;
    if (replacing)
        g_rmdir(od->wdir);
    return outdir_write_manifest(od, error);
}

void outdir_abort(OutDir *od)
{
    if (!od || od->committed)
        return;
    od->aborted = TRUE;
    for (guint i = 0; i < od->files->len; i++) {
        OutFile *of = g_ptr_array_index(od->files, i);
        if (of->state == OUT_OPEN)
            fclose(of->f);
        if (of->state == OUT_OPEN || of->state == OUT_CLOSED)
            g_unlink(of->tmp_path);
        if (of->state == OUT_RENAMED) { /* a commit that failed half way */
            g_autofree char *final = outdir_file_path(od, of->name);
            g_unlink(final);
        }
        of->f = NULL;
        of->state = OUT_FAILED;
    }
    if (od->wdir && strcmp(od->wdir, od->path) != 0)
        g_rmdir(od->wdir);
    if (od->created)
        g_rmdir(od->path); /* fails, harmlessly, unless empty */
}

/* ---- A file the user named ------------------------------------------------ */

/* Where a chain of links from path ends when its last name does not exist
 * (realpath() fails there): that name in its folder, which must exist;
 * NULL with errno set otherwise. */
static char *outdir_follow_dangling(const char *path)
{
    g_autofree char *cur = g_strdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            if (errno != ENOENT && lstat(cur, &st) != 0)
                return NULL;
            g_autofree char *dir = g_path_get_dirname(cur);
            g_autofree char *base = g_path_get_basename(cur);
            g_autofree char *real_dir = realpath(dir, NULL);
            if (!real_dir)
                return NULL;
            return g_build_filename(real_dir, base, NULL);
        }
        g_autofree char *to = g_file_read_link(cur, NULL);
        if (!to)
            return NULL;
        g_autofree char *dir = g_path_get_dirname(cur);
        g_free(cur);
        cur = g_path_is_absolute(to) ? g_strdup(to) : g_build_filename(dir, to, NULL);
    }
    errno = ELOOP;
    return NULL;
}

char *outdir_dest_resolve(const char *path, gboolean *special, GError **error)
{
    *special = FALSE;
    struct stat st;
    char *target = NULL;
    if (!*path) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "an empty name; expected a file name");
        return NULL;
    }
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        /* followed, so that the link stays a link; a link to a name not
         * there yet makes that file, as a shell's redirection does */
        target = realpath(path, NULL);
        if (!target)
            target = outdir_follow_dangling(path);
        if (!target) {
            int e = errno;
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                        "a symbolic link to %s (%s); expected a link to a file, a pipe or a "
                        "character device",
                        e == ENOENT ? "a missing folder" : "what cannot be reached",
                        g_strerror(e));
            return NULL;
        }
    } else {
        target = g_strdup(path);
    }
    if (stat(target, &st) != 0) {
        if (errno == ENOENT)
            return target; /* a new file */
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot reach it: %s",
                    g_strerror(e));
        g_free(target);
        return NULL;
    }
    if (S_ISREG(st.st_mode))
        return target;
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        *special = TRUE;
        return target;
    }
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "found %s, expected a file, a pipe or a character device",
                S_ISDIR(st.st_mode) ? "a folder" : S_ISBLK(st.st_mode) ? "a block device"
                                                                       : "a socket");
    g_free(target);
    return NULL;
}

/* All of data to fd; 0 or the errno of the write that failed. */
static int write_all(int fd, const char *data, gsize len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        data += n;
        len -= (gsize)n;
    }
    return 0;
}

/* A new regular file at target through a temporary beside it, renamed
 * over it; an existing file's permissions are kept. */
static gboolean write_atomic(const char *target, const char *data, gsize len, GError **error)
{
    g_autofree char *dir = g_path_get_dirname(target);
    g_autofree char *base = g_path_get_basename(target);
    g_autofree char *tmpl = g_strdup_printf("%s/.%s.XXXXXX.tmp", dir, base);
    int fd = g_mkstemp_full(tmpl, O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "cannot create a file in %s: %s", dir, g_strerror(e));
        return FALSE;
    }
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, stat(target, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask));
    int e = write_all(fd, data, len);
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (!e && rename(tmpl, target) != 0)
        e = errno;
    if (e) {
        unlink(tmpl);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "write failed: %s",
                    g_strerror(e));
        return FALSE;
    }
    return TRUE;
}

gboolean outdir_write_dest(const char *path, const char *data, gsize len, GError **error)
{
    gboolean special;
    g_autofree char *target = outdir_dest_resolve(path, &special, error);
    if (!target)
        return FALSE;
    if (!special)
        return write_atomic(target, data, len, error);
    /* a device or a pipe is written to, never replaced; a pipe's reader
     * takes what comes (no O_NONBLOCK: waiting for one is what a shell's
     * redirection does too) */
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot open: %s",
                    g_strerror(e));
        return FALSE;
    }
    int e = write_all(fd, data, len);
    if (close(fd) != 0 && !e && errno != EINTR)
        e = errno;
    if (e) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "write failed: %s",
                    g_strerror(e));
        return FALSE;
    }
    return TRUE;
}
