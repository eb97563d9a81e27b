/*
 * zns.c - a Zoned Namespace: zones of zone_size bytes of LBA space, the
 * first zone_cap of each writable, in order, at its write pointer.
 *
 * Every write, zone append and zone management action is checked here when
 * it reaches the controller (in order, after its firmware cost), as a ZNS
 * drive checks it: a command that breaks a rule completes with the NVMe
 * status the drive returns and changes nothing. Zone states follow the ZNS
 * command set: a write to an empty or closed zone opens it implicitly (an
 * implicitly opened zone is closed to make room at the open limit; at the
 * active limit an empty zone cannot open), a zone whose write pointer
 * reaches its capacity is full, finish makes it full, reset empties it.
 *
 * Placement: zone k writes handle k of models/fdp.c (a persistently
 * isolated stream) and owns its blocks as a ZNS drive's zone owns its erase
 * blocks: on each die at most zone_blocks of them (its capacity over the
 * dies' blocks, rounded up), taken as its data reaches the die. A die whose
 * share of the zone is full takes none of its data; the other dies have
 * room for the rest. A reset closes the zone's blocks and unmaps its data
 * (the TRIM path): they hold nothing else, so they are erased dead, and
 * GC on a zoned drive takes no block with valid data (models/gc.c).
 * Invariant (zns_check): counts of open and active zones match the states;
 * write pointers lie within capacity; no zone has taken more than its
 * blocks on a die; every mapped page of a zone lies in a block it owns;
 * GC has moved nothing.
 */
#include "models/zns.h"
#include "models/cmd.h"
#include "models/fdp.h"
#include "models/map_tab.h"

#include <string.h>

typedef struct Zns {
    uint64_t zone_size, cap;   /* bytes */
    uint32_t zones, max_open, max_active;
    uint8_t *state;            /* ZoneState per zone */
    uint64_t *wp;              /* bytes written from the zone's start */
    uint64_t *opened;          /* when it was last opened (a sequence number), for implicit closes */
    SimTime *append_free;      /* ns: when the zone's append stage is free */
    uint8_t *taken;            /* [zone * dies + die]: blocks it took there since its last reset */
    uint32_t zone_blocks;      /* blocks a zone owns on each die, at most */
    uint32_t dies;
    uint32_t open, active;
    uint64_t seq;
    DriveZns stat;
} Zns;

static Zns *zns(const Drive *d) { return drive_part(d, DP_ZNS); }

bool zns_on(const Drive *d) { return zns(d) != NULL; }

const char *zone_state_name(ZoneState s)
{
    static const char *const names[] = {"empty", "implicit_open", "explicit_open", "closed", "full"};
    return (unsigned)s < ZONE_STATES ? names[s] : "?";
}

const char *zns_status_name(ZnsStatus s)
{
    static const char *const names[] = {"ok", "invalid_field", "lba_out_of_range", "zone_boundary",
                                        "zone_is_full", "zone_invalid_write", "too_many_active_zones",
                                        "too_many_open_zones", "invalid_zone_state_transition"};
    return (unsigned)s < ZNS_STATUSES ? names[s] : "?";
}

uint8_t zns_status_code(ZnsStatus s)
{
    static const uint8_t codes[] = {0x00, 0x02, 0x80, 0xB8, 0xB9, 0xBC, 0xBD, 0xBE, 0xBF};
    return (unsigned)s < ZNS_STATUSES ? codes[s] : 0xFF;
}

void zns_init(Drive *d)
{
    const DriveParams *p = drive_params(d);
    if (p->zns_zone_size == 0)
        return;
    Zns *z = g_new0(Zns, 1);
    z->zone_size = p->zns_zone_size;
    z->cap = p->zns_zone_cap;
    z->zones = (uint32_t)(p->user_capacity / z->zone_size);
    z->max_open = p->zns_max_open;
    z->max_active = p->zns_max_active;
    z->state = g_new0(uint8_t, z->zones);
    z->wp = g_new0(uint64_t, z->zones);
    z->opened = g_new0(uint64_t, z->zones);
    z->append_free = g_new0(SimTime, z->zones);
    z->dies = drive_geom(d)->dies;
    z->zone_blocks = drive_params_zone_blocks(p);
    g_assert(z->zone_blocks <= ZNS_ZONE_BLOCKS_MAX);
    z->taken = g_new0(uint8_t, (size_t)z->zones * z->dies);
    z->stat.zones = z->zones;
    z->stat.by_state[ZONE_EMPTY] = z->zones;
    drive_set_part(d, DP_ZNS, z);
}

void zns_release(Drive *d)
{
    Zns *z = zns(d);
    if (!z)
        return;
    g_free(z->state);
    g_free(z->wp);
    g_free(z->opened);
    g_free(z->append_free);
    g_free(z->taken);
    g_free(z);
    drive_set_part(d, DP_ZNS, NULL);
}

static void set_state(Zns *z, uint32_t k, ZoneState s)
{
    z->stat.by_state[z->state[k]]--;
    z->stat.by_state[s]++;
    z->state[k] = (uint8_t)s;
}

static bool is_open(uint8_t s) { return s == ZONE_IMPLICIT_OPEN || s == ZONE_EXPLICIT_OPEN; }
static bool is_active(uint8_t s) { return is_open(s) || s == ZONE_CLOSED; }

bool zns_zone_room(const Drive *d, uint32_t k, uint32_t die)
{
    const Zns *z = zns(d);
    return z->taken[(size_t)k * z->dies + die] < z->zone_blocks;
}

void zns_block_taken(Drive *d, uint32_t k, uint32_t die)
{
    Zns *z = zns(d);
    g_assert(z->taken[(size_t)k * z->dies + die] < z->zone_blocks);
    z->taken[(size_t)k * z->dies + die]++;
}

/* Room for one more open zone: at the limit, the implicitly opened zone
 * opened longest ago is closed (as the ZNS command set lets a controller
 * do); false if every open zone was opened explicitly. */
static bool room_to_open(Zns *z)
{
    if (z->open < z->max_open)
        return true;
    uint32_t victim = UINT32_MAX;
    for (uint32_t k = 0; k < z->zones; k++)
        if (z->state[k] == ZONE_IMPLICIT_OPEN && (victim == UINT32_MAX || z->opened[k] < z->opened[victim]))
            victim = k;
    if (victim == UINT32_MAX)
        return false;
    set_state(z, victim, ZONE_CLOSED);
    z->open--;
    z->stat.implicit_closes++;
    return true;
}

/* Open zone k (implicitly for a write, else explicitly): the checks of the
 * limits, then the transition. */
static ZnsStatus open_zone(Zns *z, uint32_t k, ZoneState to)
{
    uint8_t s = z->state[k];
    if (is_open(s)) {
        if (to == ZONE_EXPLICIT_OPEN)
            set_state(z, k, ZONE_EXPLICIT_OPEN);
        return ZNS_OK;
    }
    if (s == ZONE_FULL)
        return to == ZONE_EXPLICIT_OPEN ? ZNS_INVALID_TRANSITION : ZNS_FULL;
    if (s == ZONE_EMPTY && z->active >= z->max_active)
        return ZNS_TOO_MANY_ACTIVE;
    if (!room_to_open(z))
        return ZNS_TOO_MANY_OPEN;
    if (s == ZONE_EMPTY)
        z->active++;
    set_state(z, k, to);
    z->open++;
    z->opened[k] = ++z->seq;
    z->stat.implicit_opens += to == ZONE_IMPLICIT_OPEN;
    return ZNS_OK;
}

/* Zone k becomes full (its capacity written, or finished). */
static void fill_zone(Zns *z, uint32_t k)
{
    if (is_open(z->state[k]))
        z->open--;
    if (is_active(z->state[k]))
        z->active--;
    set_state(z, k, ZONE_FULL);
    z->wp[k] = z->cap;
}

/* A write or zone append of cmd: at the write pointer, within capacity. */
static ZnsStatus zone_write(Zns *z, Cmd *cmd)
{
    uint32_t k = (uint32_t)(cmd->offset / z->zone_size);
    uint64_t start = (uint64_t)k * z->zone_size;
    if (cmd->zop == ZOP_APPEND) {
        if (cmd->offset != start)
            return ZNS_INVALID_FIELD;
        if (z->state[k] == ZONE_FULL)
            return ZNS_FULL;
        cmd->offset = start + z->wp[k];
    } else {
        if (z->state[k] == ZONE_FULL)
            return ZNS_FULL;
        if (cmd->offset != start + z->wp[k])
            return ZNS_INVALID_WRITE;
    }
    if (z->wp[k] + cmd->length > z->cap)
        return ZNS_BOUNDARY;
    ZnsStatus st = open_zone(z, k, ZONE_IMPLICIT_OPEN);
    if (st != ZNS_OK)
        return st;
    z->wp[k] += cmd->length;
    cmd->pid = k;
    cmd->slots = (uint32_t)((cmd->offset + cmd->length - 1) / SLOT_SIZE - cmd->offset / SLOT_SIZE + 1);
    if (z->wp[k] == z->cap)
        fill_zone(z, k);
    return ZNS_OK;
}

/* A Zone Management Send action on the zone starting at cmd->offset. */
static ZnsStatus zone_action(Drive *d, Zns *z, Cmd *cmd)
{
    if (cmd->offset % z->zone_size != 0)
        return ZNS_INVALID_FIELD;
    uint32_t k = (uint32_t)(cmd->offset / z->zone_size);
    uint8_t s = z->state[k];
    switch (cmd->zop) {
    case ZOP_OPEN:
        return open_zone(z, k, ZONE_EXPLICIT_OPEN);
    case ZOP_CLOSE:
        if (s == ZONE_CLOSED)
            return ZNS_OK;
        if (!is_open(s))
            return ZNS_INVALID_TRANSITION;
        set_state(z, k, ZONE_CLOSED);
        z->open--;
        return ZNS_OK;
    case ZOP_FINISH:
        fill_zone(z, k);
        return ZNS_OK;
    case ZOP_RESET:
        if (is_open(s))
            z->open--;
        if (is_active(s))
            z->active--;
        set_state(z, k, ZONE_EMPTY);
        cmd->length = z->wp[k]; /* the data to unmap */
        z->wp[k] = 0;
        /* the zone's blocks are closed and, once the unmapping empties
         * them, erased dead; it takes fresh ones for its next data */
        fdp_close_handle(d, k);
        memset(&z->taken[(size_t)k * z->dies], 0, z->dies);
        return ZNS_OK;
    }
    return ZNS_INVALID_FIELD;
}

bool zns_arrive(Drive *d, uint32_t c)
{
    Zns *z = zns(d);
    Cmd *cmd = cmd_at(d, c);
    ZnsStatus st = cmd->op == IO_WRITE ? zone_write(z, cmd) : zone_action(d, z, cmd);
    cmd->status = (uint8_t)st;
    if (st != ZNS_OK) {
        z->stat.errors[st]++;
        return false;
    }
    z->stat.ops[cmd->zop]++;
    return true;
}

SimTime zns_append_stage(Drive *d, uint32_t c)
{
    Zns *z = zns(d);
    uint32_t k = cmd_at(d, c)->pid; /* its zone (zone_write()) */
    SimTime at = MAX(sim_now(drive_engine(d)), z->append_free[k]) + drive_params(d)->zns_append_cost;
    z->append_free[k] = at;
    return at;
}

void zns_finished(Drive *d, uint32_t c)
{
    uint32_t k = (uint32_t)(cmd_at(d, c)->offset / zns(d)->zone_size);
    if (zns(d)->state[k] == ZONE_FULL) /* not reset meanwhile */
        fdp_close_handle(d, k);
}

const DriveZns *drive_zns(const Drive *d) { return zns(d) ? &zns(d)->stat : NULL; }

ZoneState drive_zone_state(const Drive *d, uint64_t zone_offset, uint64_t *wp)
{
    Zns *z = zns(d);
    g_return_val_if_fail(z && zone_offset / z->zone_size < z->zones, ZONE_EMPTY);
    uint32_t k = (uint32_t)(zone_offset / z->zone_size);
    if (wp)
        *wp = z->wp[k];
    return (ZoneState)z->state[k];
}

/* Every page of zone k on the NAND lies in a block the zone owns (tagged
 * with its handle). */
static bool owns_its_data(const Drive *d, const Zns *z, uint32_t k, char *why, size_t why_len)
{
    uint64_t lpn = (uint64_t)k * (z->zone_size / SLOT_SIZE), end = lpn + z->wp[k] / SLOT_SIZE;
    for (; lpn < end; lpn++) {
        uint64_t v = map_get(d, lpn);
        if (v == NO_SLOT || v >= BUF_MARK)
            continue;
        uint32_t b = nand_block_of(d, v);
        CHECK(fdp_block_tag(d, b) == k, "zone %u's page %" G_GUINT64_FORMAT " lies in block %u of zone %u", k, lpn,
              b, fdp_block_tag(d, b));
    }
    return true;
}

bool zns_check(const Drive *d, char *why, size_t why_len)
{
    const Zns *z = zns(d);
    if (!z)
        return true;
    uint32_t open = 0, active = 0, by[ZONE_STATES] = {0};
    for (uint32_t k = 0; k < z->zones; k++) {
        uint8_t s = z->state[k];
        CHECK(s < ZONE_STATES, "zone %u in state %u", k, s);
        by[s]++;
        open += is_open(s);
        active += is_active(s);
        CHECK(z->wp[k] <= z->cap, "zone %u's write pointer %" G_GUINT64_FORMAT " beyond its capacity", k, z->wp[k]);
        CHECK(s != ZONE_EMPTY || z->wp[k] == 0, "empty zone %u has its write pointer at %" G_GUINT64_FORMAT, k,
              z->wp[k]);
        CHECK(s != ZONE_FULL || z->wp[k] == z->cap, "full zone %u has its write pointer below its capacity", k);
        for (uint32_t i = 0; i < z->dies; i++)
            CHECK(z->taken[(size_t)k * z->dies + i] <= z->zone_blocks, "zone %u took %u blocks on die %u, "
                  "owns %u", k, z->taken[(size_t)k * z->dies + i], i, z->zone_blocks);
        if (!owns_its_data(d, z, k, why, why_len))
            return false;
    }
    CHECK(open == z->open && active == z->active, "%u open and %u active zones, counted %u and %u", open, active,
          z->open, z->active);
    CHECK(open <= z->max_open && active <= z->max_active, "%u open, %u active zones over the limits", open, active);
    CHECK(drive_stats(d)->nand_write_bytes[CAUSE_GC] == 0, "GC moved %" G_GUINT64_FORMAT " bytes of zoned data",
          drive_stats(d)->nand_write_bytes[CAUSE_GC]);
    for (int s = 0; s < ZONE_STATES; s++)
        CHECK(by[s] == z->stat.by_state[s], "%u zones %s, gauge says %u", by[s], zone_state_name(s),
              z->stat.by_state[s]);
    return true;
}
