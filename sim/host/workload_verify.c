/*
 * workload_verify.c - fio's verify family, as reads of the written data.
 *
 * The drive model carries no data, so the workload keeps what a hash would
 * prove: one byte per 4 KiB logical page that says the workload wrote it
 * (a trim clears it). A verified read then checks every page it covers:
 * the workload must have written it, and the drive must map it (on NAND or
 * in its write buffer) - a page the drive lost or never stored is a
 * mismatch. A write job with verify reads its region back when its writes
 * are done, as fio does; a read job with verify checks every read.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

#define WL_PAGE 4096u

gboolean wl_verify_bind(Workload *w, GError **error)
{
    (void)error;
    bool any = false;
    for (uint32_t i = 0; i < w->njobs; i++)
        any |= w->jobs[i].spec->verify && !w->jobs[i].spec->idle;
    if (!any)
        return TRUE;
    w->stamp_pages = (w->t.capacity + WL_PAGE - 1) / WL_PAGE;
    w->stamp = g_malloc0(w->stamp_pages);
    return TRUE;
}

void wl_verify_written(Workload *w, IoOp op, uint64_t offset, uint64_t length)
{
    if (op != IO_WRITE && op != IO_TRIM)
        return;
    uint64_t first = offset / WL_PAGE, end = (offset + length + WL_PAGE - 1) / WL_PAGE;
    if (op == IO_TRIM) /* only whole pages are unmapped */
        first = (offset + WL_PAGE - 1) / WL_PAGE, end = (offset + length) / WL_PAGE;
    for (uint64_t p = first; p < end && p < w->stamp_pages; p++)
        w->stamp[p] = op == IO_WRITE;
}

void wl_verify_check(Workload *w, WlJob *j, uint64_t offset, uint64_t length)
{
    uint64_t end = (offset + length + WL_PAGE - 1) / WL_PAGE;
    j->verify_reads++;
    j->verify_bytes += length;
    for (uint64_t p = offset / WL_PAGE; p < end && p < w->stamp_pages; p++) {
        bool bad = !w->stamp[p];
        if (!bad && w->t.lookup)
            bad = w->t.lookup(w->t.ctx, p) == DRIVE_UNMAPPED;
        if (bad && j->verify_bad++ == 0 && !w->run_error)
            g_set_error(&w->run_error, WORKLOAD_ERROR, WORKLOAD_ERROR_VERIFY,
                        "job \"%s\": verify: the 4 KiB page at byte %" G_GUINT64_FORMAT
                        " reads back %s", j->name, p * WL_PAGE,
                        w->stamp[p] ? "unmapped by the drive, expected the data written"
                                    : "data the workload never wrote");
    }
}

/* Next block of the region (in the job's write block size) that holds
 * written data. */
bool wl_verify_pick(WlJob *j)
{
    Workload *w = j->w;
    uint64_t bs = j->spec->bs[IO_WRITE];
    WlIo *p = &j->pick;
    while (j->verify_pos + bs <= j->size) {
        uint64_t off = j->start + j->verify_pos;
        j->verify_pos += bs;
        if (off / WL_PAGE < w->stamp_pages && w->stamp[off / WL_PAGE]) {
            memset(p, 0, sizeof *p);
            p->op = IO_READ;
            p->offset = off;
            p->length = bs;
            j->have_pick = true;
            return true;
        }
    }
    return false;
}
