/*
 * hostif.c - the host interface: the link and the controller's firmware.
 *
 * Both are timelines: a transfer or a piece of firmware work starts when its
 * input is ready and the resource is free, and holds the resource for its
 * duration, so commands pipeline and queue exactly as far as the resources
 * allow. SATA is half duplex: reads and writes share one timeline. NVMe has
 * one per direction. The per-FIS and per-TLP framing model is in
 * drive_params.c (drive_params_link_xfer_ns), shared with `ftlsim check`.
 */
#include "models/ftl_impl.h"

SimTime hostif_xfer_ns(const Drive *d, uint64_t bytes, int to_device)
{
    return (SimTime)(drive_params_link_xfer_ns(&d->p, bytes, to_device != 0) + 0.5);
}

SimTime hostif_link(Drive *d, SimTime ready, uint64_t bytes, int to_device)
{
    int lane = d->p.interface == HOSTIF_SATA ? 0 : (to_device != 0);
    SimTime start = ready > d->link_free[lane] ? ready : d->link_free[lane];
    SimTime end = start + hostif_xfer_ns(d, bytes, to_device);
    d->link_free[lane] = end;
    return end;
}

SimTime hostif_controller(Drive *d, SimTime cost)
{
    SimTime now = sim_now(d->eng);
    SimTime start = now > d->ctrl_free ? now : d->ctrl_free;
    d->ctrl_free = start + cost;
    return d->ctrl_free;
}
