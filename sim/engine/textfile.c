/*
 * textfile.c - bounded reads of whole text inputs (see textfile.h).
 */
#include "sim/engine/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean too_big(const char *path, gsize max, const char *what, GError **error)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                "%s: found more than %u MiB, expected %s of at most %u MiB (an endless stream "
                "such as /dev/zero?)",
                path, (unsigned)(max >> 20), what, (unsigned)(max >> 20));
    return FALSE;
}

int text_file_open(const char *path, gboolean *fifo, int *err)
{
    /* O_NONBLOCK: open(2) of a FIFO waits for a writer without it */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    int e = errno;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) != 0) {
        e = errno;
        close(fd);
        fd = -1;
    } else if (fd >= 0 && S_ISDIR(st.st_mode)) {
        e = EISDIR;
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        *err = e;
        return -1;
    }
    /* reads wait for data while a writer is there, and end when none is */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *fifo = S_ISFIFO(st.st_mode);
    return fd;
}

void text_file_fifo_error(const char *path, const char *what, GError **error)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                "%s: a FIFO (named pipe) that nobody writes to, found nothing in it; expected %s "
                "in a regular file, or a pipe with a writer",
                path, what);
}

gboolean text_file_read(const char *path, gsize max, const char *what, char **text, gsize *len,
                        GError **error)
{
    *text = NULL;
    if (len)
        *len = 0;
    gboolean fifo = FALSE;
    int e = 0, fd = text_file_open(path, &fifo, &e);
    if (fd < 0) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "Failed to open file \u201c%s\u201d: %s", path, g_strerror(e));
        return FALSE;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (guint64)st.st_size > max) {
        close(fd);
        return too_big(path, max, what, error);
    }
    gsize cap = 64 * 1024, n = 0;
    char *buf = g_malloc(cap + 1);
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                g_free(buf);
                close(fd);
                return too_big(path, max, what, error);
            }
            cap = MIN(cap * 2, max + 1);
            buf = g_realloc(buf, cap + 1);
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            e = errno;
            g_free(buf);
            close(fd);
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                        "Failed to read from file \u201c%s\u201d: %s", path, g_strerror(e));
            return FALSE;
        }
        if (got == 0)
            break;
        n += (gsize)got;
        if (n > max) {
            g_free(buf);
            close(fd);
            return too_big(path, max, what, error);
        }
    }
    close(fd);
    if (fifo && n == 0) {
        g_free(buf);
        text_file_fifo_error(path, what, error);
        return FALSE;
    }
    buf[n] = '\0';
    *text = buf;
    if (len)
        *len = n;
    return TRUE;
}
