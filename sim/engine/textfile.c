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

gboolean text_file_read(const char *path, gsize max, const char *what, char **text, gsize *len,
                        GError **error)
{
    *text = NULL;
    if (len)
        *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
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
            int e = errno;
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
    buf[n] = '\0';
    *text = buf;
    if (len)
        *len = n;
    return TRUE;
}
