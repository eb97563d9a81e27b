/*
 * progress.c - one-line terminal status, see progress.h.
 *
 * The line is padded with spaces to the length of the previous one so a
 * shorter line leaves no stale characters behind.
 */
#include "sim/output/progress.h"

#define PROGRESS_MIN_GAP_US 100000 /* us between redraws: 10 per second */

struct Progress {
    FILE *tty;        /* not owned */
    gboolean enabled; /* FALSE: every call is a no-op */
    gint64 start;     /* us, monotonic, at progress_new() */
    gint64 last;      /* us, monotonic, of the last redraw; 0 before the first */
    int last_len;     /* characters of the last line */
};

Progress *progress_new(FILE *tty, gboolean enabled)
{
    Progress *p = g_new0(Progress, 1);
    p->tty = tty;
    p->enabled = enabled && tty != NULL;
    p->start = g_get_monotonic_time();
    return p;
}

void progress_free(Progress *p)
{
    g_free(p);
}

/* h:mm:ss, or m:ss under an hour. */
static void progress_format_time(char *buf, size_t size, double s)
{
    if (!(s >= 0) || s > 360000.0) {
        g_strlcpy(buf, "--:--", size);
        return;
    }
    unsigned t = (unsigned)(s + 0.5);
    if (t >= 3600)
        g_snprintf(buf, size, "%u:%02u:%02u", t / 3600, t / 60 % 60, t % 60);
    else
        g_snprintf(buf, size, "%u:%02u", t / 60, t % 60);
}

void progress_update(Progress *p, const ProgressInfo *info)
{
    if (!p || !p->enabled)
        return;
    gint64 now = g_get_monotonic_time();
    if (p->last != 0 && now - p->last < PROGRESS_MIN_GAP_US)
        return;
    p->last = now;
    double wall = (double)(now - p->start) / G_USEC_PER_SEC;
    double f = CLAMP(info->fraction, 0.0, 1.0);
    char wall_s[16], eta_s[16];
    progress_format_time(wall_s, sizeof wall_s, wall);
    progress_format_time(eta_s, sizeof eta_s, f > 0.001 ? wall * (1.0 - f) / f : -1.0);
    char line[256];
    int len = g_snprintf(line, sizeof line,
                         "%s%s%5.1f%%  sim %.1f s  host %.2f GB  write %.0f MB/s  %s  wall %s  ETA %s",
                         info->label ? info->label : "", info->label ? ": " : "", 100.0 * f,
                         info->sim_time_s, info->host_written_gb, info->write_mbps,
                         info->phase ? info->phase : "-", wall_s, eta_s);
    len = MIN(len, (int)sizeof line - 1);
    fprintf(p->tty, "\r%s%*s", line, p->last_len > len ? p->last_len - len : 0, "");
    fflush(p->tty);
    p->last_len = len;
}

void progress_finish(Progress *p)
{
    if (!p || !p->enabled || p->last_len == 0)
        return;
    fprintf(p->tty, "\r%*s\r", p->last_len, "");
    fflush(p->tty);
    p->last_len = 0;
    p->last = 0;
}
