/*
 * chan.c - the channel buses: one transfer timeline per channel.
 *
 * A transfer starts when its data is ready and the bus is free, and holds
 * the bus for bytes / bandwidth; the bus serves transfers in the order they
 * are reserved. Dies are numbered channel-first, so die k is on channel
 * k % channels.
 */
#include "models/chan.h"

/* per channel: the bus is free from (ns) */
static SimTime *chan_free(const Drive *d) { return drive_part(d, DP_CHAN); }

void chan_init(Drive *d) { drive_set_part(d, DP_CHAN, g_new0(SimTime, drive_geom(d)->channels)); }
void chan_release(Drive *d) { g_free(chan_free(d)); }

/* When a transfer on the die's channel, its data ready at `ready`, would
 * begin if reserved now. */
SimTime chan_start(const Drive *d, uint32_t die, SimTime ready)
{
    SimTime free_at = chan_free(d)[chan_of_die(d, die)];
    return ready > free_at ? ready : free_at;
}

/* Move bytes over the die's channel once the data is ready at `ready`; the
 * bus serves transfers in the order they are reserved. Returns the end. */
SimTime chan_xfer(Drive *d, uint32_t die, SimTime ready, uint64_t bytes)
{
    SimTime start = chan_start(d, die, ready);
    SimTime end = start + (SimTime)((double)bytes * drive_geom(d)->chan_ns_per_byte + 0.5);
    chan_free(d)[chan_of_die(d, die)] = end;
    drive_counters(d)->chan_busy_ns += end - start;
    return end;
}

bool chan_check(const Drive *d, char *why, size_t why_len)
{
    uint64_t span = 0;
    for (uint32_t c = 0; c < drive_geom(d)->channels; c++)
        span += chan_free(d)[c];
    CHECK(drive_stats(d)->chan_busy_ns <= span,
          "%" G_GUINT64_FORMAT " ns of transfers counted, more than the %" G_GUINT64_FORMAT
          " ns the channels' timelines span",
          drive_stats(d)->chan_busy_ns, span);
    return true;
}
