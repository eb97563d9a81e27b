/*
 * l2p_cache.c - the mapping cache of DRAM-less drives (l2p_kind hmb, sram).
 *
 * the L2P table (map.c) stays the whole table and the truth; this module decides what
 * reaching it costs. The table is kept in NAND as translation pages (one
 * NAND page of page_size / 4 entries) in SLC-mode map blocks, with a
 * directory (loc) of where each lives. The cache holds l2p_cache / page_size
 * of them in LRU order: a miss reads the page through the flash scheduler
 * before the command goes on, a dirty page evicted is queued and programmed
 * into a map block, and GC collects map blocks as it does data blocks.
 * Version counters per page prove that no change of the table bypasses the
 * cache (l2p_check). docs/mapping.md has the model and its formulas.
 */
#include "models/l2p_cache.h"
#include "models/blocks.h"
#include "models/cmd.h"
#include "models/sched.h"
#include "models/nand.h"
#include "models/chan.h"
#include "models/ctrl.h"
#include "models/link.h"
#include "models/map.h"
#include "models/sched_rank.h"

#include <string.h>

typedef struct L2pCache L2pCache;

/* Translation page flags. */
enum {
    TP_RES = 1,     /* in the cache (and in the LRU list) */
    TP_DIRTY = 2,   /* the cached copy is newer than the NAND copy */
    TP_LOADING = 4, /* being read from NAND; holds a cache frame */
    TP_QUEUED = 8,  /* a copy waits in the write-back queue */
    TP_PEND = 16,   /* changed while loading: dirty once loaded */
    TP_ISSUE = 32,  /* its read is still to be queued at a die */
};

typedef struct Waiter {
    uint32_t cmd, next;
} Waiter;

struct L2pCache {
    uint32_t ntp;    /* translation pages of the table */
    uint32_t per_tp; /* entries per translation page */
    uint32_t cap;    /* pages the cache holds */
    uint32_t used;   /* resident + loading pages */
    uint32_t spp;    /* slots per translation page (one NAND page) */
    bool hmb;
    SimTime load_ns;

    /* per translation page, flat */
    uint8_t *flags;
    uint64_t *loc;               /* first slot of the NAND copy, NO_SLOT if never written */
    uint32_t *prev, *next;       /* LRU list; head = most recently used */
    uint32_t *wait;              /* commands waiting for the load (Waiter list) */
    uint32_t *tv, *cv, *nv, *wv; /* versions: table, cached, NAND, queued copy */
    uint32_t head, tail;

    uint32_t *wb; /* ring of QUEUED pages, oldest first */
    uint32_t wb_head, wb_len;
    uint32_t *iss; /* stack of pages whose read is to be queued */
    uint32_t iss_len;
    bool kick_pending;
    uint32_t reader; /* sched_read() client */
    uint32_t *map_open; /* per die: open translation-page block, NO_BLOCK if none */
    void (*translated)(void *ctx, uint32_t cmd); /* a command's pages are in (ftl.c) */
    void *tr_ctx;

    Waiter *wt; /* pool, grown to the peak */
    uint32_t wt_cap, wt_free;
    uint32_t last_upd; /* page of the last l2p_update, to count runs once */
    uint32_t last_tr;  /* last page of the last l2p_translate, for prefetch */
    bool started;      /* a host command has arrived */
};

static L2pCache *l2pc(const Drive *d) { return drive_part(d, DP_L2PC); }

uint64_t l2p_entries_per_tpage(const Drive *d)
{
    return drive_params(d)->l2p_tp_entries ? drive_params(d)->l2p_tp_entries : drive_params(d)->page_size / 4;
}
SimTime l2p_load_ns(const Drive *d)
{
    return l2pc(d) ? l2pc(d)->load_ns : 0;
}

static void read_done(void *ctx, uint32_t t, SimTime wait);
static bool try_flush(void *ctx, uint32_t die);

static void l2p_changed(Drive *d, uint64_t lpn);

void l2p_cache_init(Drive *d)
{
    if (drive_params(d)->l2p_kind == L2P_DRAM)
        return;
    L2pCache *c = g_new0(L2pCache, 1);
    c->per_tp = (uint32_t)l2p_entries_per_tpage(d);
    c->ntp = (uint32_t)((drive_geom(d)->nlpn + c->per_tp - 1) / c->per_tp);
    c->cap = (uint32_t)MAX(1, MIN(drive_params(d)->l2p_cache / drive_params(d)->page_size, c->ntp));
    c->spp = drive_geom(d)->slots_per_page;
    c->hmb = drive_params(d)->l2p_kind == L2P_HMB;
    c->load_ns = drive_params(d)->timing[CELL_SLC].t_read +
                 (SimTime)((double)drive_params(d)->page_size * drive_geom(d)->chan_ns_per_byte + 0.5);
    if (c->hmb)
        c->load_ns += link_xfer_ns(d, drive_params(d)->page_size, 0) + drive_params(d)->hmb_latency;
    c->flags = g_new0(uint8_t, c->ntp);
    c->loc = g_new(uint64_t, c->ntp);
    memset(c->loc, 0xff, c->ntp * sizeof(uint64_t));
    uint32_t **arrays[] = {&c->prev, &c->next, &c->wait, &c->wb, &c->iss};
    for (unsigned i = 0; i < G_N_ELEMENTS(arrays); i++) {
        *arrays[i] = g_new(uint32_t, c->ntp);
        memset(*arrays[i], 0xff, c->ntp * sizeof(uint32_t));
    }
    uint32_t **vers[] = {&c->tv, &c->cv, &c->nv, &c->wv};
    for (unsigned i = 0; i < G_N_ELEMENTS(vers); i++)
        *vers[i] = g_new0(uint32_t, c->ntp);
    c->head = c->tail = NO_IDX;
    c->wt_free = NO_IDX;
    c->last_upd = c->last_tr = NO_IDX;
    c->map_open = g_new(uint32_t, drive_geom(d)->dies);
    for (uint32_t i = 0; i < drive_geom(d)->dies; i++)
        c->map_open[i] = NO_BLOCK;
    drive_set_part(d, DP_L2PC, c);
    c->reader = sched_read_client(d, read_done, d);
    sched_add(d, RANK_MAP_FLUSH, try_flush, NULL, d, false);
    map_watch(d, l2p_changed);
}

bool l2p_cache_on(const Drive *d) { return l2pc(d) != NULL; }

void l2p_cache_release(Drive *d)
{
    L2pCache *c = l2pc(d);
    if (!c)
        return;
    uint32_t *arrays[] = {c->prev, c->next, c->wait, c->wb, c->iss, c->tv, c->cv, c->nv, c->wv};
    for (unsigned i = 0; i < G_N_ELEMENTS(arrays); i++)
        g_free(arrays[i]);
    g_free(c->loc);
    g_free(c->flags);
    g_free(c->wt);
    g_free(c->map_open);
    g_free(c);
    drive_set_part(d, DP_L2PC, NULL);
}

/* ---- LRU list ------------------------------------------------------------ */

static void lru_unlink(L2pCache *c, uint32_t t)
{
    if (c->prev[t] != NO_IDX)
        c->next[c->prev[t]] = c->next[t];
    else
        c->head = c->next[t];
    if (c->next[t] != NO_IDX)
        c->prev[c->next[t]] = c->prev[t];
    else
        c->tail = c->prev[t];
}

static void lru_push(L2pCache *c, uint32_t t)
{
    c->prev[t] = NO_IDX;
    c->next[t] = c->head;
    if (c->head != NO_IDX)
        c->prev[c->head] = t;
    else
        c->tail = t;
    c->head = t;
}

static void lru_touch(L2pCache *c, uint32_t t)
{
    if (c->head == t)
        return;
    lru_unlink(c, t);
    lru_push(c, t);
}

/* ---- Deferred die work ----------------------------------------------------
 * Loads and write-backs arise inside die operations (a program updating the
 * table); they reach the dies from an event at the same time instead, so a
 * die is never started while another of its operations is being set up. */

static void kick_ev(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    L2pCache *c = l2pc(d);
    (void)arg;
    c->kick_pending = false;
    while (c->iss_len > 0) {
        uint32_t t = c->iss[--c->iss_len];
        c->flags[t] &= (uint8_t)~TP_ISSUE;
        uint32_t b = nand_block_of(d, c->loc[t]);
        sched_read(d, nand_die_of_block(d, b), c->reader, t, blk_mode(d, b), 0, 1, c->spp);
    }
    if (c->wb_len > 0)
        sched_kick_all(d);
}

static void want_kick(Drive *d)
{
    if (!l2pc(d)->kick_pending) {
        l2pc(d)->kick_pending = true;
        sim_schedule(drive_engine(d), sim_now(drive_engine(d)), kick_ev, d, 0);
    }
}

/* ---- Residency ----------------------------------------------------------- */

static void evict(Drive *d, uint32_t t)
{
    L2pCache *c = l2pc(d);
    lru_unlink(c, t);
    c->flags[t] &= (uint8_t)~TP_RES;
    c->used--;
    if (!(c->flags[t] & TP_DIRTY))
        return;
    c->flags[t] &= (uint8_t)~TP_DIRTY;
    c->wv[t] = c->cv[t];
    if (c->flags[t] & TP_QUEUED)
        return; /* the queued copy is replaced by this newer one */
    c->flags[t] |= TP_QUEUED;
    c->wb[(c->wb_head + c->wb_len++) % c->ntp] = t;
    want_kick(d);
}

static void make_room(Drive *d)
{
    L2pCache *c = l2pc(d);
    while (c->used >= c->cap && c->tail != NO_IDX)
        evict(d, c->tail);
}

static void become_resident(L2pCache *c, uint32_t t)
{
    c->flags[t] = (uint8_t)((c->flags[t] & ~(TP_LOADING | TP_PEND)) | TP_RES |
                            (c->flags[t] & TP_PEND ? TP_DIRTY : 0));
    c->cv[t] = c->tv[t];
    lru_push(c, t);
}

/* Bring page t into the cache. True when it is resident at once: never
 * written (all entries unmapped) or its copy still in the write-back queue. */
static bool load(Drive *d, uint32_t t)
{
    L2pCache *c = l2pc(d);
    make_room(d);
    c->used++;
    if (c->loc[t] == NO_SLOT || (c->flags[t] & TP_QUEUED)) {
        become_resident(c, t);
        return true;
    }
    c->flags[t] |= TP_LOADING | TP_ISSUE;
    c->iss[c->iss_len++] = t;
    want_kick(d);
    return false;
}

static void add_waiter(Drive *d, uint32_t t, uint32_t cmd)
{
    L2pCache *c = l2pc(d);
    if (c->wt_free == NO_IDX) {
        uint32_t old = c->wt_cap;
        c->wt_cap = MAX(64u, 2 * old);
        c->wt = g_renew(Waiter, c->wt, c->wt_cap);
        for (uint32_t i = old; i < c->wt_cap; i++)
            c->wt[i].next = i + 1 < c->wt_cap ? i + 1 : NO_IDX;
        c->wt_free = old;
    }
    uint32_t w = c->wt_free;
    c->wt_free = c->wt[w].next;
    c->wt[w] = (Waiter){.cmd = cmd, .next = c->wait[t]};
    c->wait[t] = w;
    cmd_at(d, cmd)->map_wait++;
}

static void loaded(Drive *d, uint32_t t)
{
    L2pCache *c = l2pc(d);
    become_resident(c, t);
    uint32_t w = c->wait[t];
    c->wait[t] = NO_IDX;
    while (w != NO_IDX) {
        uint32_t cmd = c->wt[w].cmd, nx = c->wt[w].next;
        c->wt[w].next = c->wt_free;
        c->wt_free = w;
        w = nx;
        if (--cmd_at(d, cmd)->map_wait == 0)
            c->translated(c->tr_ctx, cmd);
    }
}

static void loaded_ev(void *ctx, uint64_t arg)
{
    loaded(ctx, (uint32_t)arg);
}

/* The page is read: the firmware handles the miss ([controller]
 * miss_cost: checking the page, linking it into the cache) and, with an
 * HMB, the page still crosses the link into host memory. */
static void read_done(void *ctx, uint32_t t, SimTime wait)
{
    Drive *d = ctx;
    L2pCache *c = l2pc(d);
    (void)wait;
    SimTime now = sim_now(drive_engine(d)), miss = drive_params(d)->ctrl_miss_cost;
    SimTime ready = miss > 0 ? ctrl_run(d, now, miss, CW_MISS) : now;
    if (!c->hmb) {
        if (ready == now)
            loaded(d, t);
        else
            sim_schedule(drive_engine(d), ready, loaded_ev, d, t);
        return;
    }
    SimTime end = link_xfer(d, ready, drive_params(d)->page_size, 0) + drive_params(d)->hmb_latency;
    sim_schedule(drive_engine(d), end, loaded_ev, d, t);
}

static void hmb_hit_ev(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t cmd = (uint32_t)arg;
    if (--cmd_at(d, cmd)->map_wait == 0)
        l2pc(d)->translated(l2pc(d)->tr_ctx, cmd);
}

/* Prefetch: a command that continues a sequential run loads the page after
 * its last one ahead of need. */
static void prefetch(Drive *d, uint32_t t0, uint32_t t1)
{
    L2pCache *c = l2pc(d);
    bool seq = c->last_tr != NO_IDX && (t0 == c->last_tr || t0 == c->last_tr + 1);
    c->last_tr = t1;
    if (seq && t1 + 1 < c->ntp && !(c->flags[t1 + 1] & (TP_RES | TP_LOADING)))
        load(d, t1 + 1);
}

void l2p_on_translated(Drive *d, void (*fn)(void *ctx, uint32_t cmd), void *ctx)
{
    l2pc(d)->translated = fn;
    l2pc(d)->tr_ctx = ctx;
}

bool l2p_translate(Drive *d, uint32_t cmd, uint64_t first, uint64_t last)
{
    L2pCache *c = l2pc(d);
    uint32_t t0 = (uint32_t)(first / c->per_tp), t1 = (uint32_t)(last / c->per_tp);
    cmd_at(d, cmd)->map_wait = 0;
    for (uint32_t t = t0; t <= t1; t++) {
        uint64_t n =
            MIN(last, (uint64_t)(t + 1) * c->per_tp - 1) - MAX(first, (uint64_t)t * c->per_tp) + 1;
        if (c->flags[t] & TP_RES) {
            drive_counters(d)->l2p_hits += n;
            lru_touch(c, t);
            continue;
        }
        drive_counters(d)->l2p_misses++;
        drive_counters(d)->l2p_hits += n - 1; /* the others find the page once loaded */
        if ((c->flags[t] & TP_LOADING) || !load(d, t))
            add_waiter(d, t, cmd);
    }
    if (drive_params(d)->l2p_prefetch)
        prefetch(d, t0, t1);
    if (cmd_at(d, cmd)->map_wait > 0)
        return false;
    if (!c->hmb || drive_params(d)->hmb_latency == 0)
        return true;
    cmd_at(d, cmd)->map_wait = 1;
    sim_schedule(drive_engine(d), sim_now(drive_engine(d)) + drive_params(d)->hmb_latency, hmb_hit_ev, d, cmd);
    return false;
}

static void l2p_changed(Drive *d, uint64_t lpn) { l2p_update(d, lpn); }

bool l2p_update(Drive *d, uint64_t lpn)
{
    L2pCache *c = l2pc(d);
    uint32_t t = (uint32_t)(lpn / c->per_tp);
    bool run = t == c->last_upd, miss = false;
    c->last_upd = t;
    c->tv[t]++;
    if (c->flags[t] & TP_RES) {
        drive_counters(d)->l2p_hits++;
        if (!run)
            lru_touch(c, t);
    } else {
        /* one miss per run of updates to a page not cached */
        miss = !run;
        drive_counters(d)->l2p_misses += miss;
        drive_counters(d)->l2p_hits += run;
        if ((c->flags[t] & TP_LOADING) || !load(d, t))
            c->flags[t] |= TP_PEND;
    }
    if (c->flags[t] & TP_RES) {
        c->flags[t] |= TP_DIRTY;
        c->cv[t] = c->tv[t];
    }
    return miss;
}

/* ---- Translation pages in NAND ------------------------------------------- */

/* Write page t at the write pointer of map block b. */
static void place(Drive *d, uint32_t t, uint32_t b)
{
    L2pCache *c = l2pc(d);
    uint64_t old = c->loc[t];
    if (old != NO_SLOT) {
        map_put_lpn(d, old, NO_LPN);
        blk_drop_valid(d, nand_block_of(d, old), c->spp);
    }
    uint64_t slot = nand_slot(d, b, blk_wp(d, b));
    blk_advance(d, b, c->spp);
    map_put_lpn(d, slot, t);
    blk_add_valid(d, b, c->spp);
    c->loc[t] = slot;
    if (blk_wp(d, b) == nand_block_capacity(d, b)) {
        blk_close(d, b, sim_now(drive_engine(d)));
        c->map_open[nand_die_of_block(d, b)] = NO_BLOCK;
    }
}

/* The die's open map block, opening one (an erased block set to SLC mode)
 * while the die has more than min_free erased blocks. */
static uint32_t map_dest(Drive *d, uint32_t die, uint32_t min_free)
{
    L2pCache *c = l2pc(d);
    if (c->map_open[die] != NO_BLOCK)
        return c->map_open[die];
    if (die_nfree(d, die) <= min_free)
        return NO_BLOCK;
    uint32_t b = nand_take_free(d, die, drive_geom(d)->native);
    blk_make_map(d, b);
    c->map_open[die] = b;
    return b;
}

/* Pages one map program holds: an SLC program unit. */
static uint32_t map_unit(const Drive *d, uint32_t b)
{
    uint32_t room = (nand_block_capacity(d, b) - blk_wp(d, b)) / l2pc(d)->spp;
    return MIN(drive_geom(d)->unit_slots[CELL_SLC] / l2pc(d)->spp, room);
}

static bool l2p_flush_step(Drive *d, uint32_t die)
{
    L2pCache *c = l2pc(d);
    if (c->wb_len == 0)
        return false;
    uint32_t b = map_dest(d, die, drive_params(d)->gc_hard_blocks);
    if (b == NO_BLOCK)
        return false;
    uint32_t k = MIN(map_unit(d, b), c->wb_len);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t t = c->wb[c->wb_head];
        c->wb_head = (c->wb_head + 1) % c->ntp;
        c->wb_len--;
        place(d, t, b);
        c->nv[t] = c->wv[t];
        c->flags[t] &= (uint8_t)~TP_QUEUED;
    }
    uint64_t bytes = (uint64_t)k * drive_params(d)->page_size;
    SimTime ready = c->hmb ? link_xfer(d, sim_now(drive_engine(d)), bytes, 1) : sim_now(drive_engine(d));
    SimTime in = chan_xfer(d, die, ready, bytes);
    drive_counters(d)->nand_write_bytes[CAUSE_MAP] += bytes;
    drive_counters(d)->l2p_writebacks += k;
    sched_die_op(d, die, WORK_MAP, NULL, NULL, 0, in + drive_params(d)->timing[CELL_SLC].t_prog);
    return true;
}

static bool try_flush(void *ctx, uint32_t die)
{
    return l2p_flush_step(ctx, die);
}

static void erase_map_block(Drive *d, uint32_t die, uint32_t v)
{
    die_set_victim(d, die, NO_BLOCK);
    drive_counters(d)->gc_blocks++;
    blk_make_data(d, v); /* back to a plain free block once erased */
    sched_die_op(d, die, WORK_ERASE, nand_erased, d, v, sim_now(drive_engine(d)) + drive_params(d)->timing[CELL_SLC].t_erase);
}

/* GC of a map block: its valid translation pages move, an SLC program unit
 * at a time, into the die's open map block; then it is erased. */
bool l2p_gc_step(Drive *d, uint32_t die, uint32_t *slots_moved)
{
    L2pCache *c = l2pc(d);
    uint32_t v = die_victim(d, die);
    if (blk_valid(d, v) == 0) {
        erase_map_block(d, die, v);
        return true;
    }
    uint32_t dst = map_dest(d, die, 0);
    if (dst == NO_BLOCK)
        return false;
    uint32_t want = map_unit(d, dst), n = 0;
    uint64_t base = nand_slot(d, v, 0);
    while (n < want && die_cursor(d, die) < blk_wp(d, v)) {
        uint64_t src = base + die_cursor(d, die);
        die_set_cursor(d, die, die_cursor(d, die) + c->spp);
        if (map_lpn_of(d, src) == NO_LPN)
            continue;
        place(d, (uint32_t)map_lpn_of(d, src), dst);
        n++;
    }
    if (n == 0) {
        erase_map_block(d, die, v);
        return true;
    }
    uint64_t bytes = (uint64_t)n * drive_params(d)->page_size;
    *slots_moved = n * c->spp;
    SimTime sensed =
        sim_now(drive_engine(d)) + (SimTime)((n + drive_geom(d)->planes - 1) / drive_geom(d)->planes) * drive_params(d)->timing[CELL_SLC].t_read;
    SimTime moved = ctrl_relocate(d, die, sensed, n * c->spp);
    drive_counters(d)->nand_read_bytes += bytes;
    drive_counters(d)->nand_write_bytes[CAUSE_GC] += bytes;
    sched_die_op(d, die, WORK_GC, NULL, NULL, 0, moved + drive_params(d)->timing[CELL_SLC].t_prog);
    return true;
}

/* A table built without commands (drive_prefill) is stored as translation
 * pages before the first command: written without simulated time into map
 * blocks of the dies in turn (the cache stays empty). Pages that map nothing
 * stay unwritten. */
void l2p_host_command(Drive *d)
{
    L2pCache *c = l2pc(d);
    if (c->started)
        return;
    c->started = true;
    if (*drive_mapped(d) == 0)
        return;
    uint32_t die = 0;
    for (uint32_t t = 0; t < c->ntp; t++) {
        uint64_t a = (uint64_t)t * c->per_tp, e = MIN(drive_geom(d)->nlpn, a + c->per_tp);
        while (a < e && map_get(d, a) == NO_SLOT)
            a++;
        if (c->loc[t] != NO_SLOT || a == e)
            continue;
        uint32_t b = NO_BLOCK;
        for (uint32_t k = 0; k < drive_geom(d)->dies && b == NO_BLOCK; k++, die = (die + 1) % drive_geom(d)->dies)
            b = map_dest(d, die, drive_params(d)->gc_hard_blocks);
        if (b == NO_BLOCK)
            return; /* no room: the rest load as empty pages */
        place(d, t, b);
        c->nv[t] = c->tv[t];
    }
}

/* ---- Invariants ------------------------------------------------------------ */

/* Map blocks: each valid translation page is where the directory says, and
 * valid counts match; every directory entry points into a map block. */
static bool check_blocks(const Drive *d, char *why, size_t why_len)
{
    const L2pCache *c = l2pc(d);
    for (uint32_t b = 0; b < drive_geom(d)->nblocks; b++) {
        if (!blk_is_map(d, b))
            continue;
        CHECK(blk_state(d, b) != BLK_FREE && blk_mode(d, b) == CELL_SLC,
              "map block %u is free or not in SLC mode", b);
        uint32_t valid = 0;
        uint64_t base = nand_slot(d, b, 0);
        for (uint32_t s = 0; s < blk_wp(d, b); s += c->spp) {
            uint64_t t = map_lpn_of(d, base + s);
            if (t == NO_LPN)
                continue;
            CHECK(t < c->ntp && c->loc[t] == base + s,
                  "map slot %" G_GUINT64_FORMAT " holds translation page %" G_GUINT64_FORMAT
                  " which lives elsewhere", base + s, t);
            valid += c->spp;
        }
        CHECK(valid == blk_valid(d, b), "map block %u counts %u valid slots, has %u", b,
              blk_valid(d, b), valid);
    }
    for (uint32_t t = 0; t < c->ntp; t++) {
        if (c->loc[t] == NO_SLOT)
            continue;
        uint32_t b = nand_block_of(d, c->loc[t]);
        CHECK(blk_is_map(d, b) && map_lpn_of(d, c->loc[t]) == t,
              "translation page %u lives at slot %" G_GUINT64_FORMAT " which does not hold it", t,
              c->loc[t]);
    }
    return true;
}

/* No update of the table was lost: the copy that will be read next (cached,
 * queued or in NAND) has seen every change of the page so far. */
static bool check_versions(const L2pCache *c, char *why, size_t why_len)
{
    uint32_t res = 0, loading = 0, queued = 0;
    for (uint32_t t = 0; t < c->ntp; t++) {
        uint8_t f = c->flags[t];
        res += (f & TP_RES) != 0;
        loading += (f & TP_LOADING) != 0;
        queued += (f & TP_QUEUED) != 0;
        CHECK(!(f & TP_DIRTY) || (f & TP_RES), "translation page %u is dirty but not cached", t);
        if (f & TP_LOADING)
            continue;
        if (f & TP_RES) {
            uint32_t below = f & TP_QUEUED ? c->wv[t] : c->nv[t];
            CHECK(c->cv[t] == c->tv[t], "cached translation page %u missed an update", t);
            CHECK((f & TP_DIRTY) || below == c->tv[t],
                  "clean cached translation page %u differs from its stored copy", t);
        } else {
            uint32_t v = f & TP_QUEUED ? c->wv[t] : c->nv[t];
            CHECK(v == c->tv[t], "translation page %u lost an update (version %u, table %u)", t, v,
                  c->tv[t]);
        }
    }
    CHECK(res + loading == c->used, "%u pages cached or loading, counter says %u", res + loading,
          c->used);
    CHECK(queued == c->wb_len, "%u pages queued, queue holds %u", queued, c->wb_len);
    uint32_t n = 0;
    for (uint32_t t = c->head; t != NO_IDX; t = c->next[t])
        CHECK(++n <= res && (c->flags[t] & TP_RES), "LRU list holds a page not cached");
    CHECK(n == res, "LRU list holds %u pages, %u cached", n, res);
    return true;
}

bool l2p_check(const Drive *d, char *why, size_t why_len)
{
    if (!l2p_cache_on(d))
        return true; /* the whole table in DRAM: nothing cached */
    return check_blocks(d, why, why_len) && check_versions(l2pc(d), why, why_len);
}
