/*
 * session.c - the session of a command that simulates (see session.h).
 * Invariant: between session_settle() and session_commit() (or _free())
 * SIGINT, SIGTERM and SIGHUP are blocked, so what the settle decided is
 * what the committed folder says.
 */
#include "sim/cmd/session.h"

#include "sim/cmd/run.h"
#include "sim/run/runner.h"

#include <signal.h>
#include <stdarg.h>

/* the commands' error domain (run.h) */
/* clang-format off */
G_DEFINE_QUARK(ftlsim-run-error-quark, run_error)
/* clang-format on */

struct Session {
    const char *kept, *marked; /* static strings */
    char *out;                 /* the folder's name, once open */
    OutDir *od;                /* the folder; NULL: none */
    int signal;                /* the settle's signal, 0: none */
    gboolean settled, blocked, committed;
};

void session_catch_signals(void)
{
    runner_catch_signals();
}

void session_on_signal(void (*stop)(void))
{
    runner_set_signal_hook(stop);
}

Session *session_new(const char *kept, const char *marked)
{
    Session *s = g_new0(Session, 1);
    s->kept = kept;
    s->marked = marked;
    return s;
}

OutDir *session_open(Session *s, const char *out, gboolean force, GError **error)
{
    g_return_val_if_fail(!s->od, NULL);
    s->od = outdir_open(out, force, error);
    if (s->od)
        s->out = g_strdup(out);
    return s->od;
}

OutDir *session_dir(const Session *s)
{
    return s->od;
}

gboolean session_interrupted(const Session *s)
{
    return s->settled ? s->signal != 0 : runner_signal() != 0;
}

static void session_block(Session *s, gboolean block)
{
    if (s->blocked == block)
        return;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
    s->blocked = block;
}

gboolean session_settle(Session *s)
{
    session_block(s, TRUE);
    s->signal = runner_signal();
    s->settled = TRUE;
    return s->signal != 0;
}

gboolean session_commit(Session *s, GError **error)
{
    gboolean ok = !s->od || outdir_commit(s->od, error);
    s->committed = ok && s->od;
    session_block(s, FALSE);
    return ok;
}

void session_interrupted_error(const Session *s, GError **error, const char *when, ...)
{
    va_list ap;
    va_start(ap, when);
    g_autofree char *w = g_strdup_vprintf(when, ap);
    va_end(ap);
    int sig = s && s->settled ? s->signal : runner_signal();
    g_autofree char *left =
        s && s->committed ? g_strdup_printf("%s in %s (\"interrupted\": true in %s)", s->kept,
                                            s->out, s->marked)
        : s && s->settled && !s->od ? g_strdup("the summary so far is above")
                                    : g_strdup("nothing written");
    sim_interrupted_error(error, RUN_ERROR, RUN_ERROR_INTERRUPTED, sig, w, left);
}

void session_free(Session *s)
{
    if (!s)
        return;
    if (s->od && !s->committed)
        outdir_abort(s->od);
    outdir_free(s->od);
    session_block(s, FALSE);
    g_free(s->out);
    g_free(s);
}
