/*
 * link.c - the host link, as timelines.
 *
 * A transfer starts when its data is ready and the link is free, and holds
 * the link for its duration, so commands pipeline and queue exactly as far as the resources
 * allow. SATA is half duplex: reads and writes share one timeline. NVMe has
 * one per direction. The per-FIS and per-TLP framing model is in
 * drive_params.c (drive_params_link_xfer_ns), shared with `ftlsim check`.
 */
#include "models/link.h"

typedef struct Link {
    SimTime free[2];   /* [0] device-to-host (reads), [1] host-to-device; SATA uses [0] only */
    /* the last transfer time computed per direction, by size: a workload
     * moves one or a few sizes, and the framing model is some twenty
     * floating-point operations a command */
    uint64_t last_bytes[2];
    SimTime last_ns[2];
    uint8_t lane[2];   /* per direction: its timeline in free[] (SATA: both 0) */
} Link;

static Link *link_of(const Drive *d) { return drive_part(d, DP_LINK); }

void link_init(Drive *d)
{
    Link *l = g_new0(Link, 1);
    l->last_bytes[0] = l->last_bytes[1] = UINT64_MAX;
    l->lane[1] = drive_params(d)->interface != HOSTIF_SATA;
    drive_set_part(d, DP_LINK, l);
}

void link_release(Drive *d)
{
    g_free(link_of(d));
    drive_set_part(d, DP_LINK, NULL);
}

SimTime link_xfer_ns(const Drive *d, uint64_t bytes, int to_device)
{
    return (SimTime)(drive_params_link_xfer_ns(drive_params(d), bytes, to_device != 0) + 0.5);
}

/* A size other than the last in direction dir: its time from the framing
 * model, kept. Out of line, so that a transfer of the size before (nearly
 * every one) pays no frame for the floating point. */
static G_GNUC_NO_INLINE SimTime size_changed(const Drive *d, Link *l, uint64_t bytes, int dir)
{
    l->last_bytes[dir] = bytes;
    l->last_ns[dir] = link_xfer_ns(d, bytes, dir);
    return l->last_ns[dir];
}

SimTime link_xfer(Drive *d, SimTime ready, uint64_t bytes, int to_device)
{
    Link *l = link_of(d);
    int dir = to_device != 0;
    /* the same size as last time in this direction: the same time */
    SimTime ns = G_LIKELY(l->last_bytes[dir] == bytes) ? l->last_ns[dir] : size_changed(d, l, bytes, dir);
    SimTime *free_at = &l->free[l->lane[dir]];
    SimTime end = (ready > *free_at ? ready : *free_at) + ns;
    *free_at = end;
    return end;
}

/* A transfer moved in parts (a write larger than the write buffer, pulled
 * in as room frees) takes the link as long as one in a single piece: each
 * part adds what its bytes add to the whole, so the per-command overheads
 * (command and completion entries, framing) are paid once, with the first. */
SimTime link_xfer_part(Drive *d, SimTime ready, uint64_t before, uint64_t bytes, int to_device)
{
    if (before == 0)
        return link_xfer(d, ready, bytes, to_device);
    Link *l = link_of(d);
    SimTime *free_at = &l->free[l->lane[to_device != 0]];
    SimTime start = ready > *free_at ? ready : *free_at;
    SimTime end = start + link_xfer_ns(d, before + bytes, to_device) - link_xfer_ns(d, before, to_device);
    *free_at = end;
    return end;
}

bool link_check(const Drive *d, char *why, size_t why_len)
{
    const Link *l = link_of(d);
    for (int dir = 0; dir < 2; dir++)
        CHECK(l->last_bytes[dir] == UINT64_MAX ||
                  l->last_ns[dir] == link_xfer_ns(d, l->last_bytes[dir], dir),
              "the link keeps %" G_GUINT64_FORMAT " ns for %" G_GUINT64_FORMAT
              " bytes %s, the framing model gives %" G_GUINT64_FORMAT,
              l->last_ns[dir], l->last_bytes[dir], dir ? "to the device" : "to the host",
              link_xfer_ns(d, l->last_bytes[dir], dir));
    CHECK(drive_params(d)->interface != HOSTIF_SATA || l->free[1] == 0,
          "a SATA link has its second timeline in use (free at %" G_GUINT64_FORMAT " ns)",
          (uint64_t)l->free[1]);
    return true;
}
