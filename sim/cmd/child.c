/*
 * child.c - one run in a child process, and its result read back.
 *
 * Sweeps and calibration run their simulations in child processes (the
 * simulator is single-threaded). The child writes one message to a pipe:
 * "R<sweep row>" when the run succeeded, "I<message>" for bad input,
 * "F<message>" when the simulation failed or "S<sweep row>\n<message>" when
 * a signal stopped it (the row empty when it stopped before the run began),
 * and exits; the parent reads it once the child has exited.
 */
#include "sim/cmd/run.h"
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

pid_t run_child_spawn(const RunOptions *o, void (*setup)(void *), void *ctx, int *fd,
                      GError **error)
{
    int fds[2];
    if (pipe(fds) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "pipe: %s", g_strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        runner_child_start();
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* a parent killed outright stops its runs */
        if (setup)
            setup(ctx);
        GError *e = NULL;
        g_autoptr(GString) msg = g_string_new(NULL);
        if (run_simulation(o, &e))
            g_string_printf(msg, "R%s", o->sweep_row ? o->sweep_row->str : "");
        else if (g_error_matches(e, RUN_ERROR, RUN_ERROR_INTERRUPTED) || runner_signal())
            /* also a set-up a signal stopped, which fails as the loader's error */
            g_string_printf(msg, "S%s%s%s", o->sweep_row ? o->sweep_row->str : "",
                            o->sweep_row && o->sweep_row->len ? "" : "\n", e->message);
        else
            g_string_printf(msg, "%c%s",
                            g_error_matches(e, RUN_ERROR, RUN_ERROR_FAILED) ? 'F' : 'I',
                            e->message);
        const char *p = msg->str;
        for (gsize left = msg->len; left > 0;) {
            ssize_t n = write(fds[1], p, left);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                _exit(3);
            p += n;
            left -= (gsize)n;
        }
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "fork: %s", g_strerror(errno));
        return -1;
    }
    *fd = fds[0];
    return pid;
}

gboolean run_child_result(int fd, int status, GString *row, GError **error)
{
    g_autoptr(GString) msg = g_string_new(NULL);
    char buf[4096];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        g_string_append_len(msg, buf, n);
    }
    close(fd);
    if (msg->len > 0 && msg->str[0] == 'R') {
        g_string_assign(row, msg->str + 1);
        return TRUE;
    }
    if (msg->len > 0 && msg->str[0] == 'S' && strchr(msg->str, '\n')) {
        const char *nl = strchr(msg->str, '\n');
        g_string_assign(row, "");
        g_string_append_len(row, msg->str + 1, nl == msg->str + 1 ? 0 : nl - msg->str);
        g_set_error_literal(error, RUN_ERROR, RUN_ERROR_INTERRUPTED, nl + 1);
        return FALSE;
    }
    if (msg->len > 0 && (msg->str[0] == 'I' || msg->str[0] == 'F'))
        g_set_error_literal(error, RUN_ERROR,
                            msg->str[0] == 'F' ? RUN_ERROR_FAILED : RUN_ERROR_INPUT, msg->str + 1);
    else
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "the run's process ended (status %d)",
                    status);
    return FALSE;
}

guint run_child_pool(const ChildPool *pool, pid_t *pids)
{
    guint next = 0, running = 0;
    memset(pids, 0, pool->n * sizeof *pids);
    int *fds = g_new0(int, pool->n);
    for (;;) {
        /* after a signal no task starts; those running stop (they got it too) */
        while (next < pool->n && running < pool->jobs && !runner_signal()) {
            guint i = next++;
            GError *e = NULL;
            pid_t pid = pool->start(pool->ctx, i, &fds[i], &e);
            if (pid < 0) {
                pool->failed(pool->ctx, i, e);
                continue;
            }
            runner_watch_child(pid);
            pids[i] = pid;
            running++;
        }
        if (running == 0)
            break;
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        runner_forget_child(pid);
        for (guint i = 0; i < pool->n; i++)
            if (pids[i] == pid) {
                pids[i] = 0;
                running--;
                pool->done(pool->ctx, i, fds[i], status);
            }
    }
    g_free(fds);
    return next;
}
