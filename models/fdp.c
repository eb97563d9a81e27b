/*
 * fdp.c - Flexible Data Placement: reclaim unit handles, the blocks each
 * fills, where GC moves their data, and their statistics.
 *
 * A reclaim unit here is ru_size / block bytes blocks of its handle, taken
 * in turn on the dies of its reclaim group: a handle keeps one open block
 * per die of its group for host data and, persistently isolated, one for
 * GC's copies. GC works block by block on its die (models/gc.c), so every
 * block holding data of one handle is what keeps its reclaim units
 * unmixed. Invariant (fdp_check): an open block is tagged with its handle;
 * the per-handle counters add up to the drive's host and GC bytes.
 */
#include "models/fdp.h"
#include "models/blocks.h"

#include <string.h>

typedef struct Fdp {
    bool zoned;            /* the streams of a zoned drive's zones, not FDP's handles */
    uint32_t handles, groups, dies_per_group;
    uint32_t *host_open;   /* [die * handles + h] */
    uint32_t *gc_open;     /* [die * handles + h], persistent handles only */
    uint8_t *tag;          /* per block: its handle, or FDP_SHARED */
    DriveFdpHandle *stat;  /* [handles + 1]; the last: the shared units */
} Fdp;

static Fdp *fdp(const Drive *d) { return drive_part(d, DP_FDP); }

bool fdp_on(const Drive *d) { return fdp(d) != NULL; }
uint32_t fdp_handles(const Drive *d) { return fdp(d) ? fdp(d)->handles : 0; }

/* The open blocks the handles hold on die, for blocks_check(). */
static uint32_t fdp_open_blocks(const Drive *d, uint32_t die)
{
    const Fdp *f = fdp(d);
    uint32_t n = 0;
    for (uint32_t h = 0; h < f->handles; h++) {
        uint32_t b = f->host_open[(size_t)die * f->handles + h];
        uint32_t c = f->gc_open[(size_t)die * f->handles + h];
        n += b != NO_BLOCK && blk_state(d, b) == BLK_OPEN;
        n += c != NO_BLOCK && blk_state(d, c) == BLK_OPEN;
    }
    return n;
}

void fdp_init(Drive *d)
{
    const DriveParams *p = drive_params(d);
    if (p->fdp_handles == 0 && p->zns_zone_size == 0)
        return;
    const Geom *g = drive_geom(d);
    Fdp *f = g_new0(Fdp, 1);
    f->zoned = p->zns_zone_size > 0;
    f->handles = f->zoned ? drive_params_streams(p) : p->fdp_handles; /* a zoned drive: its streams */
    f->groups = f->zoned || !p->fdp_groups ? 1 : p->fdp_groups;
    f->dies_per_group = g->dies / f->groups;
    size_t n = (size_t)g->dies * f->handles;
    f->host_open = g_new(uint32_t, n);
    f->gc_open = g_new(uint32_t, n);
    for (size_t i = 0; i < n; i++)
        f->host_open[i] = f->gc_open[i] = NO_BLOCK;
    f->tag = g_malloc(g->nblocks);
    memset(f->tag, FDP_SHARED, g->nblocks);
    f->stat = g_new0(DriveFdpHandle, f->handles + 1);
    for (uint32_t h = 0; h < f->handles; h++)
        f->stat[h].persistent = f->zoned || drive_params_fdp_persistent(p, h) == 1;
    drive_set_part(d, DP_FDP, f);
    blocks_set_held(d, fdp_open_blocks);
}

void fdp_release(Drive *d)
{
    Fdp *f = fdp(d);
    if (!f)
        return;
    g_free(f->host_open);
    g_free(f->gc_open);
    g_free(f->tag);
    g_free(f->stat);
    g_free(f);
    drive_set_part(d, DP_FDP, NULL);
}

uint32_t fdp_group_of_die(const Drive *d, uint32_t die) { return die / fdp(d)->dies_per_group; }

uint32_t *fdp_host_open(const Drive *d, uint32_t die, uint32_t h)
{
    return &fdp(d)->host_open[(size_t)die * fdp(d)->handles + h];
}

void fdp_block_taken(Drive *d, uint32_t b, uint32_t tag)
{
    Fdp *f = fdp(d);
    f->tag[b] = (uint8_t)tag;
    f->stat[tag == FDP_SHARED ? f->handles : tag].blocks++;
}

uint8_t fdp_block_tag(const Drive *d, uint32_t b) { return fdp(d)->tag[b]; }

uint32_t *fdp_gc_open(const Drive *d, uint32_t die, uint32_t v, uint32_t *tag)
{
    Fdp *f = fdp(d);
    uint32_t h = f->tag[v];
    if (h != FDP_SHARED && f->stat[h].persistent) {
        *tag = h;
        return &f->gc_open[(size_t)die * f->handles + h];
    }
    *tag = FDP_SHARED;
    return NULL;
}

void fdp_host_written(Drive *d, uint32_t h, uint64_t bytes)
{
    fdp(d)->stat[h].host_bytes += bytes;
    fdp(d)->stat[h].media_bytes += bytes;
}

void fdp_gc_moved(Drive *d, uint32_t from, uint32_t to, uint64_t bytes)
{
    Fdp *f = fdp(d);
    DriveFdpHandle *src = &f->stat[from == FDP_SHARED ? f->handles : from];
    src->gc_bytes += bytes;
    if (to != from)
        src->moved_across += bytes;
    f->stat[to == FDP_SHARED ? f->handles : to].media_bytes += bytes;
}

uint32_t drive_fdp_handles(const Drive *d) { return fdp(d) && !fdp(d)->zoned ? fdp(d)->handles : 0; }

void fdp_close_handle(Drive *d, uint32_t h)
{
    Fdp *f = fdp(d);
    for (uint32_t die = 0; die < drive_geom(d)->dies; die++) {
        uint32_t *open = &f->host_open[(size_t)die * f->handles + h];
        uint32_t b = *open;
        if (b == NO_BLOCK)
            continue;
        blk_set_full(d, b, sim_now(drive_engine(d))); /* the rest of it stays unwritten until its erase */
        *open = NO_BLOCK;
        if (blk_valid(d, b) == 0)
            die_push_dead(d, b);
    }
}

const DriveFdpHandle *drive_fdp_handle(const Drive *d, uint32_t h)
{
    g_return_val_if_fail(fdp(d) && h <= fdp(d)->handles, NULL);
    return &fdp(d)->stat[h];
}

bool fdp_check(const Drive *d, char *why, size_t why_len)
{
    const Fdp *f = fdp(d);
    if (!f)
        return true;
    const Geom *g = drive_geom(d);
    for (uint32_t die = 0; die < g->dies; die++)
        for (uint32_t h = 0; h < f->handles; h++) {
            uint32_t b = f->host_open[(size_t)die * f->handles + h];
            uint32_t c = f->gc_open[(size_t)die * f->handles + h];
            CHECK(b == NO_BLOCK || (nand_die_of_block(d, b) == die && f->tag[b] == h &&
                                    blk_state(d, b) == BLK_OPEN),
                  "die %u: handle %u's open block %u is not an open block of its own", die, h, b);
            CHECK(c == NO_BLOCK || (f->stat[h].persistent && nand_die_of_block(d, c) == die &&
                                    f->tag[c] == h && blk_state(d, c) != BLK_FREE),
                  "die %u: handle %u's GC block %u is not a block of its own", die, h, c);
            CHECK(b == NO_BLOCK || fdp_group_of_die(d, die) < f->groups, "die %u beyond the groups", die);
        }
    uint64_t host = 0, gc = 0, media = 0;
    for (uint32_t h = 0; h <= f->handles; h++) {
        host += f->stat[h].host_bytes;
        gc += f->stat[h].gc_bytes;
        media += f->stat[h].media_bytes;
        CHECK(f->stat[h].moved_across <= f->stat[h].gc_bytes, "handle %u moved more across than it moved", h);
        CHECK(h == f->handles || !f->stat[h].persistent || f->stat[h].moved_across == 0,
              "persistently isolated handle %u had %" G_GUINT64_FORMAT " bytes moved across", h,
              f->stat[h].moved_across);
    }
    const DriveStats *s = drive_stats(d);
    CHECK(host == s->nand_write_bytes[CAUSE_HOST] && gc == s->nand_write_bytes[CAUSE_GC] &&
              media == host + gc,
          "handles count %" G_GUINT64_FORMAT " host and %" G_GUINT64_FORMAT
          " GC bytes, the drive %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT,
          host, gc, s->nand_write_bytes[CAUSE_HOST], s->nand_write_bytes[CAUSE_GC]);
    return true;
}
