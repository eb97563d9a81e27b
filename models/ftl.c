/*
 * ftl.c - the write buffer, the placement of host data, and the host
 * command paths (read, write, flush, unmap).
 *
 * Buffered lpns point at their ring position in L2P (BUF_MARK + pos);
 * ftl_check() verifies ring and table agree. A write to a page already in
 * the buffer overwrites it there (write coalescing); a write that is not
 * 4 KiB aligned first reads the partial slots it covers (read-modify-write).
 * With a mapping cache (l2p_cache.c) reads first look their range up. Host
 * programs are this file's work for the scheduler (RANK_HOST_PROGRAM): the
 * stream the pSLC cache picks, a die balanced against the others, a block,
 * and the map updated (map.c) as the unit is programmed.
 *
 * With map units above 4 KiB ([ftl] map_unit), a write that covers a unit
 * in part also rewrites the unit's other pieces that are on NAND: they are
 * read (a Merge record, which outlives the command) and enter the ring
 * with the write's own pages, flagged RING_RMW. The write completes when its
 * data is in the buffer; its ring entries are held (RING_HELD) until the
 * merge reads end, so the unit is programmed only with its old data read.
 *
 * A write larger than the buffer enters it in pieces, each given room as
 * programs free it (see admit()); it completes when its last piece is in.
 */
#include "models/ftl.h"
#include "models/blocks.h"
#include "models/cmd.h"
#include "models/sched.h"
#include "models/pslc.h"
#include "models/nand.h"
#include "models/chan.h"
#include "models/link.h"
#include "models/map.h"
#include "models/gc.h"
#include "models/l2p_cache.h"
#include "models/sched_rank.h"
#include "models/fdp.h"
#include "models/vec.h"
#include "models/zns.h"

#include <string.h>

#define BUF_IDLE_FLUSH (1 * SIM_MS) /* partial units are programmed after this much quiet */

/* Ring entry flags (Wbuf.flag), only with map units above 4 KiB. */
enum { RING_RMW = 1, RING_HELD = 2 };

/* The merge reads of one write's partly covered map units: alive until
 * both its reads have ended and its data has arrived. */
typedef struct Merge {
    uint32_t pending; /* NAND reads outstanding */
    uint32_t pos, n;  /* the write's ring entries, held while reads are outstanding */
    bool arrived;     /* its data (its last piece's) is in the ring */
    uint32_t next;    /* free list */
} Merge;

/* The write buffer: a ring of lpns, oldest at head; NO_LPN marks an entry
 * overwritten or trimmed while buffered. L2P points buffered lpns at their
 * ring position (BUF_MARK + pos). */
typedef struct Wbuf {
    uint32_t host_reader; /* sched_read() client of host command reads */
    uint64_t *ring;
    uint32_t ring_cap, ring_head, ring_len;
    uint32_t ring_live;    /* entries not NO_LPN */
    uint32_t ring_pending; /* entries reserved for writes still crossing the link */
    uint64_t buf_used;     /* slots reserved: in the ring or being programmed */
    uint64_t buf_cap;      /* slots */
    uint32_t wait_head, wait_tail; /* writes waiting for buffer space (list via Cmd.next) */
    uint32_t flush_head;   /* flushes waiting for the buffer to drain */
    bool buf_force;        /* program partial units (flush or idle timeout) */
    SimTime last_admit;
    bool idle_timer;
    uint64_t *stage;       /* lpns taken from the ring for the program being set up */
    uint32_t stage_rmw;    /* of the staged lpns: rewritten pieces (RING_RMW) */
    uint32_t unit_lpns;    /* 4 KiB pieces per map unit */
    bool quick;            /* unit_lpns 1: a write of whole 4 KiB units goes straight to
                            * the buffer (ftl_write_arrive(); cleared by ftl_general_only()) */
    bool quick_reads;      /* a read of one 4 KiB unit is looked up in read_issue() (cleared
                            * by ftl_general_only()) */
    uint8_t *flag;         /* per ring position: RING_RMW, RING_HELD (unit_lpns > 1) */
    uint32_t held;         /* ring entries RING_HELD */
    Merge *merges;         /* pool, grown to the run's peak */
    uint32_t merge_cap, merge_free;
    uint32_t rmw_reader;   /* sched_read() client of merge reads */
    uint16_t *pid;         /* FDP: per ring position, the placement identifier of its write */
    uint32_t *pid_live;    /* FDP: live ring entries per placement identifier */
    uint32_t npid;         /* FDP: placement identifiers (0 without FDP) */
    /* ready_entries()'s last walk, while entries are held: every dequeue,
     * append, trim or hold changes one of head, len, live or held */
    struct {
        uint32_t head, len, live, held, max, n;
    } ready;
} Wbuf;

static Wbuf *wbuf(const Drive *d) { return drive_part(d, DP_WBUF); }

/* Ring position k entries after pos (k <= ring_cap), without a division:
 * this is on the path of every 4 KiB the host writes. */
static inline uint32_t ring_at(const Wbuf *w, uint32_t pos, uint32_t k)
{
    uint32_t p = pos + k;
    return p >= w->ring_cap ? p - w->ring_cap : p;
}

/* Live entries from the head of the ring up to the first held one (at
 * most max), by walking the ring. */
static uint32_t ready_walk(const Wbuf *w, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t k = 0, pos = w->ring_head; k < w->ring_len && n < max;
         k++, pos = ring_at(w, pos, 1)) {
        if (w->flag[pos] & RING_HELD)
            break;
        n += w->ring[pos] != NO_LPN;
    }
    return n;
}

static bool ready_current(const Wbuf *w, uint32_t max)
{
    return w->ready.head == w->ring_head && w->ready.len == w->ring_len &&
           w->ready.live == w->ring_live && w->ready.held == w->held && w->ready.max == max;
}

/* What a program could take now: ready_walk(), which every idle die asks
 * for in turn when the host programs are offered; remembered until the
 * ring changes. */
static uint32_t ready_entries(Wbuf *w, uint32_t max)
{
    if (w->held == 0)
        return w->ring_live;
    if (!ready_current(w, max)) {
        w->ready.n = ready_walk(w, max);
        w->ready.head = w->ring_head;
        w->ready.len = w->ring_len;
        w->ready.live = w->ring_live;
        w->ready.held = w->held;
        w->ready.max = max;
    }
    return w->ready.n;
}

/* Whether a program of unit entries may start: a whole unit is ready, or
 * any entry when partial units are programmed (buf_force). */
static bool ready_for(const Wbuf *w, uint32_t ready, uint32_t unit)
{
    return ready >= unit || (w->buf_force && ready > 0);
}

/* unit_ready() while entries are held for merge reads (map units above
 * 4 KiB): out of line, so that the common test needs no stack frame. */
static G_GNUC_NO_INLINE bool unit_ready_held(Wbuf *w, uint32_t unit)
{
    return ready_for(w, ready_entries(w, unit), unit);
}

/* Inline: every idle die asks when the host programs are offered. */
static inline bool unit_ready(const Drive *d, uint32_t unit)
{
    Wbuf *w = wbuf(d);
    if (G_UNLIKELY(w->held > 0))
        return unit_ready_held(w, unit);
    return ready_for(w, w->ring_live, unit);
}

/* Entries trimmed while buffered (NO_LPN) keep their ring room until a
 * program walks past them. With no live entry left none will: drop those
 * at the head (up to one held for merge reads, which its read's end
 * releases), or a write needing their room would wait for ever. */
static void drop_dead(Wbuf *w)
{
    if (w->ring_live > 0)
        return;
    while (w->ring_len > 0 && !(w->unit_lpns > 1 && (w->flag[w->ring_head] & RING_HELD))) {
        w->ring_head = ring_at(w, w->ring_head, 1);
        w->ring_len--;
    }
}

/* Take up to max live pages from the head of the buffer into its stage,
 * stopping at an entry held for its merge reads; *lpns is set to where
 * they are. The ring's fields are kept in locals: this runs for every
 * page the host writes, and the stage's stores would otherwise reload them
 * each time. Pages that lie whole and in order in the ring (a fill's units,
 * but where the ring wraps) are left there: *lpns points at them, and their
 * positions, behind the head now, are not written before the next write
 * arrives. */
static uint32_t take_unit(Drive *d, uint32_t max, const uint64_t **lpns)
{
    Wbuf *w = wbuf(d);
    const uint64_t *ring = w->ring;
    uint64_t *stage = w->stage;
    uint32_t n = 0, rmw = 0, pos = w->ring_head, len = w->ring_len;
    *lpns = stage;
    if (w->unit_lpns == 1 && len == w->ring_live && pos + MIN(max, len) <= w->ring_cap) {
        n = MIN(max, len);
        *lpns = ring + pos;
        pos = pos + n == w->ring_cap ? 0 : pos + n;
        len -= n;
    } else if (w->unit_lpns > 1) {
        for (; n < max && len > 0; pos = ring_at(w, pos, 1), len--) {
            uint8_t flag = w->flag[pos];
            if (flag & RING_HELD)
                break;
            if (ring[pos] == NO_LPN)
                continue;
            stage[n++] = ring[pos];
            rmw += flag & RING_RMW ? 1 : 0;
        }
    } else if (len == w->ring_live) {
        /* no entry trimmed while buffered (NO_LPN): the first max are taken
         * whole, a segment of the ring at a time */
        for (uint32_t m; n < max && len > 0; n += m, len -= m) {
            m = MIN(max - n, MIN(len, w->ring_cap - pos));
            memcpy(stage + n, ring + pos, m * sizeof *ring);
            pos = pos + m == w->ring_cap ? 0 : pos + m;
        }
    } else {
        while (n < max && len > 0) { /* up to the ring's end, then from its start */
            uint32_t end = pos + MIN(len, w->ring_cap - pos), from = pos;
            for (; n < max && pos < end; pos++) {
                uint64_t lpn = ring[pos];
                stage[n] = lpn;
                n += lpn != NO_LPN;
            }
            len -= pos - from;
            pos = pos == w->ring_cap ? 0 : pos;
        }
    }
    w->ring_head = pos;
    w->ring_len = len;
    w->ring_live -= n;
    w->stage_rmw = rmw;
    drop_dead(w);
    return n;
}

static void complete_flushes(Drive *d)
{
    SimTime now = sim_now(drive_engine(d));
    while (wbuf(d)->flush_head != NO_IDX) {
        uint32_t c = wbuf(d)->flush_head;
        wbuf(d)->flush_head = cmd_at(d, c)->next;
        cmd_complete(d, c, now);
    }
}

/* Buffer slots write cmd needs: its own and the pieces it rewrites. */
static uint32_t write_slots(const Cmd *cmd)
{
    return cmd->slots + cmd->rmw;
}

/* Buffer slots the piece [a, b) of write cmd needs (its 4 KiB units,
 * counted from its first): its own, and the pieces it rewrites of the map
 * units it covers in part, its first unit's with its first piece and its
 * last unit's with its last. */
static uint32_t piece_slots(const Cmd *cmd, uint32_t a, uint32_t b)
{
    return b - a + (a == 0 ? cmd->rmw_head : 0) + (b == cmd->slots ? cmd->rmw - cmd->rmw_head : 0);
}

/* Slots the buffer could give a write now. */
static uint64_t buffer_room(const Drive *d)
{
    const Wbuf *w = wbuf(d);
    return MIN(w->buf_cap - w->buf_used, (uint64_t)(w->ring_cap - w->ring_len - w->ring_pending));
}

static void idle_flush(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    (void)arg;
    SimTime now = sim_now(drive_engine(d));
    if (wbuf(d)->ring_live == 0) {
        wbuf(d)->idle_timer = false;
        return;
    }
    if (now < wbuf(d)->last_admit + BUF_IDLE_FLUSH) {
        sim_schedule(drive_engine(d), wbuf(d)->last_admit + BUF_IDLE_FLUSH, idle_flush, d, 0);
        return;
    }
    wbuf(d)->idle_timer = false;
    wbuf(d)->buf_force = true;
    sched_kick_all(d);
}

/* Put lpn at ring position pos of w, the drive's write buffer (the
 * caller counts it in and points its L2P entry there). pid: the placement
 * identifier of its write (FDP). */
static inline void ring_set(Wbuf *w, uint32_t pos, uint64_t lpn, uint8_t flag, uint16_t pid)
{
    w->ring[pos] = lpn;
    if (w->npid) {
        w->pid[pos] = pid;
        w->pid_live[pid]++;
    }
    if (w->unit_lpns > 1)
        w->flag[pos] = flag;
}

/* ring_set(), lpn's L2P entry pointing there: in the dense table tab at
 * o if not NULL (map_entry_table()). Inline: every page the host writes
 * enters the ring here. */
static inline void ring_put(Drive *d, Wbuf *w, uint32_t pos, uint64_t lpn, uint8_t flag, uint16_t pid,
                            void *tab, size_t o)
{
    ring_set(w, pos, lpn, flag, pid);
    if (tab)
        map_dense_set(d, tab, o, BUF_MARK + pos);
    else
        map_put(d, lpn, BUF_MARK + pos);
}

/* Of the n pages from lpn (in one chunk), those never written from the
 * first on, their entries empty in the dense table tab from o: ring_put()
 * at the positions from pos on (flag 0); returns how many. Where the
 * drive has neither placement identifiers nor map units of several pages
 * (nothing else per page than the lpn and its mark: a fill's every page),
 * a segment of the ring at a time, each entry read and marked in one pass
 * (map_dense_claim()). Out of line: a page written at random does not come
 * here, and write_arrived() keeps fewer registers for it. */
static G_GNUC_NO_INLINE uint32_t ring_put_fresh(Drive *d, Wbuf *w, uint32_t pos, uint64_t lpn,
                                                uint32_t n, uint16_t pid, void *tab, size_t o)
{
    if (w->npid || w->unit_lpns > 1) {
        uint32_t fresh = map_dense_empty(d, tab, o, n);
        for (uint32_t k = 0; k < fresh; k++, pos = ring_at(w, pos, 1))
            ring_put(d, w, pos, lpn + k, 0, pid, tab, o + k);
        return fresh;
    }
    uint32_t done = 0;
    while (done < n) { /* up to the ring's end, then from its start */
        uint32_t m = MIN(n - done, w->ring_cap - pos);
        uint32_t k = map_dense_claim(d, tab, o + done, m, BUF_MARK + pos, w->ring + pos, lpn + done);
        done += k;
        if (k < m)
            break;
        pos = pos + m == w->ring_cap ? 0 : pos + m;
    }
    return done;
}

/* Append lpn to the ring: ring_put() at its end. */
static void ring_append(Drive *d, Wbuf *w, uint64_t lpn, uint8_t flag, uint16_t pid)
{
    ring_put(d, w, ring_at(w, w->ring_head, w->ring_len), lpn, flag, pid, NULL, 0);
    w->ring_len++;
    w->ring_live++;
}

/* The pieces of write cmd's partly covered map units that it does not
 * cover itself: up to two lpn ranges [r[2i], r[2i+1]), of its first unit
 * (if head) and of its last (if tail); returns how many. */
static int rmw_ranges(const Drive *d, const Cmd *cmd, bool head, bool tail, uint64_t r[4])
{
    uint64_t k = wbuf(d)->unit_lpns;
    uint64_t first = cmd->offset / SLOT_SIZE;
    uint64_t end = (cmd->offset + cmd->length - 1) / SLOT_SIZE + 1;
    uint64_t lo = first / k * k, hi = MIN((end + k - 1) / k * k, drive_geom(d)->nlpn);
    int n = 0;
    if (head && lo < first) {
        r[2 * n] = lo;
        r[2 * n++ + 1] = first;
    }
    if (tail && end < hi) {
        r[2 * n] = end;
        r[2 * n++ + 1] = hi;
    }
    return n;
}

/* The piece [a, b) of write cmd is in the ring: the pieces it reserved room
 * for that are still on NAND enter it too (rewritten; one trimmed or
 * rewritten by the host meanwhile is not), and while its merge reads are
 * outstanding the write's entries are held, those of its earlier pieces
 * too (nothing else enters the ring between the pieces of one write: the
 * writes behind it wait until its last piece has room). n: the entries the
 * piece appended from pos. */
static void rmw_arrived(Drive *d, Cmd *cmd, uint32_t a, uint32_t b, uint32_t pos, uint32_t n)
{
    Wbuf *w = wbuf(d);
    uint64_t r[4];
    bool head = a == 0, tail = b == cmd->slots;
    uint32_t budget = piece_slots(cmd, a, b) - (b - a), taken = 0;
    for (int i = 0, nr = rmw_ranges(d, cmd, head, tail, r); i < nr; i++)
        for (uint64_t lpn = r[2 * i]; lpn < r[2 * i + 1] && taken < budget; lpn++) {
            uint64_t old = map_get(d, lpn);
            if (old >= BUF_MARK)
                continue;
            map_invalidate_slot(d, old);
            ring_append(d, w, lpn, RING_RMW, cmd->pid);
            taken++;
        }
    w->buf_used -= budget - taken;
    n += taken;
    if (cmd->merge == NO_IDX)
        return;
    Merge *m = &w->merges[cmd->merge];
    m->arrived = tail;
    if (m->pending == 0) {
        if (tail) {
            m->next = w->merge_free;
            w->merge_free = cmd->merge;
        }
        return;
    }
    if (m->n == 0)
        m->pos = pos;
    g_assert(ring_at(w, m->pos, m->n) == pos);
    m->n += n;
    for (uint32_t k = 0; k < n; k++)
        w->flag[ring_at(w, pos, k)] |= RING_HELD;
    w->held += n;
}

/* The data of write c up to its 4 KiB unit b (arg: c | b << 32) has crossed
 * the link: its pages enter the buffer (overwriting a copy already
 * buffered), and once all have the write completes. */
static void write_arrived(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t c = (uint32_t)arg, b = (uint32_t)(arg >> 32);
    Cmd *cmd = cmd_at(d, c);
    Wbuf *w = wbuf(d);
    uint32_t a = cmd->landed;
    uint64_t first = cmd->offset / SLOT_SIZE;
    uint32_t pos0 = ring_at(w, w->ring_head, w->ring_len), appended = 0;
    bool rmw = cmd->rmw || cmd->merge != NO_IDX; /* rewrites pieces of its map units */
    w->ring_pending -= G_UNLIKELY(rmw) ? piece_slots(cmd, a, b) : b - a;
    cmd->landed = b;
    /* the pages enter the ring from pos0 on, counted in after the loop:
     * nothing it calls looks at the ring */
    uint32_t pos = pos0;
    for (uint64_t lpn = first + a, end = first + b; lpn < end; lpn++) {
        size_t o;
        void *tab = map_entry_table(d, lpn, &o); /* read and set: looked up once */
        uint32_t fresh = 0;
        if (tab && lpn >= drive_map_pf_end(d)) {
            /* pages never written, in a dense chunk (a stream in order):
             * nothing to coalesce or invalidate, up to the chunk's end */
            uint32_t m = (uint32_t)MIN(end - lpn, MAP_CHUNK - (lpn & (MAP_CHUNK - 1)));
            fresh = ring_put_fresh(d, w, pos, lpn, m, cmd->pid, tab, o);
        }
        if (fresh > 0) {
            *drive_mapped(d) += fresh;
            pos = ring_at(w, pos, fresh);
            appended += fresh;
            lpn += fresh - 1;
            continue;
        }
        /* outside a dense table the mark is set as the entry is read
         * (unless it holds one: coalesced below), and the ring follows */
        uint64_t old = tab ? map_dense_get(d, tab, o, lpn) : map_mark_sparse(d, lpn, BUF_MARK + pos);
        if (old >= BUF_MARK && old != NO_SLOT) {
            w->buf_used--; /* coalesced: the space reserved for it is not needed */
            if (w->npid) { /* the entry now holds this write's data, of its handle */
                w->pid_live[w->pid[old - BUF_MARK]]--;
                w->pid[old - BUF_MARK] = cmd->pid;
                w->pid_live[cmd->pid]++;
            }
            uint64_t lo = MAX(cmd->offset, lpn * SLOT_SIZE);
            uint64_t hi = MIN(cmd->offset + cmd->length, (lpn + 1) * SLOT_SIZE);
            drive_counters(d)->buf_absorbed_bytes += hi - lo;
            continue;
        }
        if (old == NO_SLOT)
            ++*drive_mapped(d);
        else
            map_invalidate_slot(d, old);
        if (tab)
            ring_put(d, w, pos, lpn, 0, cmd->pid, tab, o);
        else
            ring_set(w, pos, lpn, 0, cmd->pid);
        pos = ring_at(w, pos, 1);
        appended++;
    }
    w->ring_len += appended;
    w->ring_live += appended;
    if (G_UNLIKELY(rmw))
        rmw_arrived(d, cmd, a, b, pos0, appended);
    SimTime now = sim_now(drive_engine(d));
    wbuf(d)->last_admit = now;
    if (b == cmd->slots) {
        uint64_t *part = drive_counters(d)->write_parts_ns;
        part[WPART_FRONT] += cmd->t_start - cmd->t_sub;
        part[WPART_MERGE] += cmd->t_issue - cmd->t_start;
        part[WPART_BUFFER] += cmd->t_admit - cmd->t_issue;
        part[WPART_DATA] += now - cmd->t_admit;
        drive_counters(d)->write_parts_n++;
        cmd_complete_now(d, c);
    }
    if (!wbuf(d)->idle_timer && wbuf(d)->ring_live > 0) {
        wbuf(d)->idle_timer = true;
        sim_schedule(drive_engine(d), now + BUF_IDLE_FLUSH, idle_flush, d, 0);
    }
    sched_kick_all(d);
}

/* Reserve buffer space for all of write c (none of it sent yet) and move
 * its data over the link: nearly every write, in one piece. */
static void admit_whole(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    Wbuf *w = wbuf(d);
    SimTime now = sim_now(drive_engine(d));
    cmd->t_admit = now;
    cmd->sent = cmd->slots;
    w->buf_used += write_slots(cmd);
    w->ring_pending += write_slots(cmd);
    SimTime end = link_xfer(d, now, cmd->length, 1);
    sim_schedule(drive_engine(d), end, write_arrived, d, c | (uint64_t)cmd->slots << 32);
}

/* Reserve buffer space for the piece of write c from cmd->sent up to its
 * 4 KiB unit b and move its data over the link. */
static void admit_piece(Drive *d, uint32_t c, uint32_t b)
{
    Cmd *cmd = cmd_at(d, c);
    uint32_t a = cmd->sent;
    uint64_t first = cmd->offset / SLOT_SIZE;
    uint64_t lo = MAX(cmd->offset, (first + a) * SLOT_SIZE);
    uint64_t hi = MIN(cmd->offset + cmd->length, (first + b) * SLOT_SIZE);
    uint32_t slots = piece_slots(cmd, a, b);
    cmd->t_admit = sim_now(drive_engine(d));
    cmd->sent = b;
    wbuf(d)->buf_used += slots;
    wbuf(d)->ring_pending += slots;
    SimTime end = link_xfer_part(d, sim_now(drive_engine(d)), lo - cmd->offset, hi - lo, 1);
    sim_schedule(drive_engine(d), end, write_arrived, d, c | (uint64_t)b << 32);
}

/* Where the next piece of write cmd, larger than the buffer, ends: as far
 * as the buffer has room for, cut at a map unit boundary so that a unit's
 * pieces enter the buffer together; cmd->sent if the buffer has no room
 * for a piece yet. The buffer holds two map units (ftl_init), so a piece
 * always fits once programs have emptied it. */
static uint32_t piece_end(const Drive *d, const Cmd *cmd)
{
    uint32_t a = cmd->sent;
    uint64_t room = buffer_room(d), k = wbuf(d)->unit_lpns;
    if (piece_slots(cmd, a, cmd->slots) <= room)
        return cmd->slots;
    uint64_t head = a == 0 ? cmd->rmw_head : 0; /* the first piece brings its first unit's rest */
    if (room <= head)
        return a;
    uint64_t first = cmd->offset / SLOT_SIZE;
    uint64_t b = MIN(a + room - head, (uint64_t)cmd->slots - 1); /* not the last piece */
    uint64_t end = (first + b) / k * k;
    return end > first + a ? (uint32_t)(end - first) : a;
}

/* admit() for a write that does not fit the buffer's room now, or part of
 * which has gone in: out of line of the writes that fit. */
static G_GNUC_NO_INLINE bool admit_wait(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    uint32_t b;
    if (write_slots(cmd) <= wbuf(d)->buf_cap)
        b = write_slots(cmd) <= buffer_room(d) ? cmd->slots : cmd->sent;
    else
        b = piece_end(d, cmd);
    if (b > cmd->sent)
        admit_piece(d, c, b);
    return cmd->sent == cmd->slots;
}

/* Admit write c, or as much of it as the buffer has room for; true when
 * all of it is admitted. A write that fits the buffer waits for room for
 * all of it. One larger than the buffer would wait forever: it goes in
 * pieces as room frees, as a controller pulls a command's data over the
 * link while its buffer drains (and as the host's block layer splits a
 * request above the device's largest transfer). */
static bool admit(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    /* none of it sent, and room for all of it (so it fits the buffer) */
    if (G_LIKELY(cmd->sent == 0 && write_slots(cmd) <= buffer_room(d))) {
        admit_whole(d, c);
        return true;
    }
    return admit_wait(d, c);
}

/* Admit waiting writes in arrival order while the buffer has room. */
static void admit_waiting(Drive *d)
{
    while (wbuf(d)->wait_head != NO_IDX && admit(d, wbuf(d)->wait_head)) {
        uint32_t c = wbuf(d)->wait_head;
        wbuf(d)->wait_head = cmd_at(d, c)->next;
        if (wbuf(d)->wait_head == NO_IDX)
            wbuf(d)->wait_tail = NO_IDX;
    }
}

/* ftl_write_start() for a write that waits behind others, or does not fit
 * the buffer's room now: admitted in part if it can be, and queued. */
static G_GNUC_NO_INLINE void write_wait(Drive *d, uint32_t c)
{
    if (wbuf(d)->wait_head == NO_IDX && admit_wait(d, c))
        return;
    if (wbuf(d)->wait_tail == NO_IDX)
        wbuf(d)->wait_head = c;
    else
        cmd_at(d, wbuf(d)->wait_tail)->next = c;
    wbuf(d)->wait_tail = c;
}

/* Write c is ready for the buffer: in at once if no write waits and the
 * buffer has room for all of it (as admit() would take it, none of it
 * sent yet), else through write_wait(). */
static inline void ftl_write_start(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    cmd->t_issue = sim_now(drive_engine(d));
    cmd->next = NO_IDX;
    if (G_LIKELY(wbuf(d)->wait_head == NO_IDX && write_slots(cmd) <= buffer_room(d)))
        admit_whole(d, c);
    else
        write_wait(d, c);
}

/* A program of slots from the buffer ended: their space is free again. */
static void program_done(void *ctx, uint32_t slots)
{
    Drive *d = ctx;
    g_assert(wbuf(d)->buf_used >= slots);
    wbuf(d)->buf_used -= slots;
    admit_waiting(d);
    if (wbuf(d)->ring_live == 0 && wbuf(d)->flush_head == NO_IDX)
        wbuf(d)->buf_force = false;
    if (wbuf(d)->buf_used == 0)
        complete_flushes(d);
}

void ftl_flush_start(Drive *d, uint32_t c)
{
    if (wbuf(d)->buf_used == 0 && wbuf(d)->wait_head == NO_IDX) {
        cmd_complete(d, c, sim_now(drive_engine(d)));
        return;
    }
    cmd_at(d, c)->next = wbuf(d)->flush_head;
    wbuf(d)->flush_head = c;
    wbuf(d)->buf_force = true;
    sched_kick_all(d);
}

/* Queue die reads of client for the NAND-resident pages in [first, last],
 * each counted in *pending and ending with arg; consecutive pages on one
 * die form one operation. Unmapped pages count in *unwritten (may be NULL). */
static void queue_die_reads(Drive *d, uint32_t client, uint32_t arg, uint32_t *pending,
                            uint64_t *unwritten, uint64_t first, uint64_t last)
{
    uint32_t cur_die = NO_IDX, pages = 0, slots = 0, types = 0;
    uint64_t last_page = NO_SLOT;
    uint8_t mode = 0;
    for (uint64_t lpn = first; lpn <= last; lpn++) {
        uint64_t slot = map_get(d, lpn);
        if (slot >= BUF_MARK) { /* unmapped or buffered: no NAND access */
            if (slot == NO_SLOT && unwritten)
                (*unwritten)++;
            continue;
        }
        uint32_t b = nand_block_of(d, slot);
        uint32_t die = nand_die_of_block(d, b);
        if (die != cur_die || blk_mode(d, b) != mode) {
            if (cur_die != NO_IDX)
                sched_read(d, cur_die, client, arg, mode, types, pages, slots);
            mode = blk_mode(d, b);
            pages = slots = types = 0;
            (*pending)++;
            cur_die = die;
            last_page = NO_SLOT;
        }
        uint64_t page = slot_div(slot, drive_geom(d)->slots_per_page);
        if (page != last_page) {
            pages++;
            last_page = page;
            if (drive_params(d)->timing[mode].t_read_page[0]) /* by page type */
                types |= 1u << nand_page_type(d, slot, mode);
        }
        slots++;
    }
    if (cur_die != NO_IDX)
        sched_read(d, cur_die, client, arg, mode, types, pages, slots);
}

/* queue_die_reads() of one lpn, on NAND at slot. */
static void queue_die_read(Drive *d, uint32_t client, uint32_t arg, uint32_t *pending, uint64_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    uint8_t mode = blk_mode(d, b);
    uint32_t types = 0;
    if (drive_params(d)->timing[mode].t_read_page[0]) /* by page type */
        types = 1u << nand_page_type(d, slot, mode);
    (*pending)++;
    sched_read(d, nand_die_of_block(d, b), client, arg, mode, types, 1, 1);
}

/* Host command c's reads of the pages in [first, last]. */
static void queue_reads(Drive *d, uint32_t c, uint64_t first, uint64_t last)
{
    queue_die_reads(d, wbuf(d)->host_reader, c, &cmd_at(d, c)->pending, &drive_counters(d)->unwritten_read_units, first,
                    last);
}

/* A merge record from the pool (grown when empty: at most the run's peak of
 * writes with merge reads in flight). */
static uint32_t merge_new(Wbuf *w)
{
    if (w->merge_free == NO_IDX) {
        uint32_t old = w->merge_cap;
        w->merge_cap = old ? 2 * old : 64;
        w->merges = g_renew(Merge, w->merges, w->merge_cap);
        for (uint32_t i = old; i < w->merge_cap; i++)
            w->merges[i].next = i + 1 < w->merge_cap ? i + 1 : NO_IDX;
        w->merge_free = old;
    }
    uint32_t m = w->merge_free;
    w->merge_free = w->merges[m].next;
    w->merges[m] = (Merge){.next = NO_IDX};
    return m;
}

/* Write c covers map units in part: count the pieces to rewrite with it
 * (cmd->rmw, those on NAND now) and read them. */
static void rmw_issue(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    Wbuf *w = wbuf(d);
    uint64_t r[4];
    int nr = rmw_ranges(d, cmd, true, true, r);
    for (int i = 0; i < nr; i++) {
        uint32_t n = 0;
        for (uint64_t lpn = r[2 * i]; lpn < r[2 * i + 1]; lpn++)
            n += map_get(d, lpn) < BUF_MARK;
        cmd->rmw += n;
        if (r[2 * i] < cmd->offset / SLOT_SIZE)
            cmd->rmw_head = n;
    }
    if (cmd->rmw == 0)
        return;
    cmd->merge = merge_new(w);
    Merge *m = &w->merges[cmd->merge];
    for (int i = 0; i < nr; i++)
        queue_die_reads(d, w->rmw_reader, cmd->merge, &m->pending, NULL, r[2 * i],
                        r[2 * i + 1] - 1);
    drive_counters(d)->rmw_read_bytes += (uint64_t)cmd->rmw * SLOT_SIZE;
}

/* A merge read ended: once all have, the write's entries in the ring may
 * be programmed, and the record goes once its data is in (a write in
 * pieces may have some still to come, which then need not wait). */
static void rmw_read_done(void *ctx, uint32_t mi, SimTime wait)
{
    Drive *d = ctx;
    Wbuf *w = wbuf(d);
    Merge *m = &w->merges[mi];
    (void)wait;
    g_assert(m->pending > 0);
    if (--m->pending > 0 || (!m->arrived && m->n == 0))
        return;
    for (uint32_t k = 0; k < m->n; k++)
        w->flag[ring_at(w, m->pos, k)] &= (uint8_t)~RING_HELD;
    w->held -= m->n;
    m->n = 0;
    drop_dead(w);
    if (m->arrived) {
        m->next = w->merge_free;
        w->merge_free = mi;
    }
    sched_kick_all(d);
}

static void ftl_read_piece_done(Drive *d, uint32_t c);
static void read_done(Drive *d, uint32_t c);

static void read_issue(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    uint64_t first = cmd->offset / SLOT_SIZE, last = (cmd->offset + cmd->length - 1) / SLOT_SIZE;
    cmd->t_issue = sim_now(drive_engine(d));
    cmd->piece_wait = 0;
    cmd->pending = 1; /* held until every read is queued */
    if (G_LIKELY(first == last && wbuf(d)->quick_reads)) {
        /* one 4 KiB unit: queue_reads()'s loop of one lpn */
        uint64_t slot = map_get(d, first);
        if (slot >= BUF_MARK) { /* unmapped or buffered: no NAND access */
            drive_counters(d)->unwritten_read_units += slot == NO_SLOT;
            cmd->pending = 0;
            read_done(d, c);
            return;
        }
        queue_die_read(d, wbuf(d)->host_reader, c, &cmd->pending, slot);
    } else {
        queue_reads(d, c, first, last);
    }
    ftl_read_piece_done(d, c);
}

/* With a mapping cache, a read first needs the translation pages of its range. */
void ftl_read_start(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    cmd->t_start = sim_now(drive_engine(d));
    if (l2p_cache_on(d) && !l2p_translate(d, c, cmd->offset / SLOT_SIZE, (cmd->offset + cmd->length - 1) / SLOT_SIZE))
        return;
    read_issue(d, c);
}

/* A write that covers part of a slot must merge with the data already
 * there: read the partial head and tail slots first. */
/* The reads of write c's partly written first and last 4 KiB units, and
 * of the map units it covers in part. Out of line: a write of whole units
 * to a drive mapping 4 KiB needs none, and should not pay their frame. */
static G_GNUC_NO_INLINE void write_issue_reads(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    uint64_t end = cmd->offset + cmd->length;
    if (cmd->offset % SLOT_SIZE) {
        uint64_t lpn = cmd->offset / SLOT_SIZE;
        queue_reads(d, c, lpn, lpn);
    }
    if (end % SLOT_SIZE && (end / SLOT_SIZE != cmd->offset / SLOT_SIZE || cmd->offset % SLOT_SIZE == 0)) {
        uint64_t lpn = end / SLOT_SIZE;
        queue_reads(d, c, lpn, lpn);
    }
    if (wbuf(d)->unit_lpns > 1)
        rmw_issue(d, c);
}

static void write_issue(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    cmd->pending = 1;
    if ((cmd->offset | cmd->length) % SLOT_SIZE || wbuf(d)->unit_lpns > 1)
        write_issue_reads(d, c);
    ftl_read_piece_done(d, c);
}

/* A write with reads to make first (partly written 4 KiB units, map
 * units above 4 KiB): with a mapping cache a write updates the table when
 * its data is programmed (map_set_run), so only the slots it merges with
 * must be found first. Out of line of the whole-unit write's path. */
static G_GNUC_NO_INLINE void write_arrive_reads(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    uint64_t end = cmd->offset + cmd->length;
    bool partial = cmd->offset % SLOT_SIZE || end % SLOT_SIZE;
    if (l2p_cache_on(d) && partial && !l2p_translate(d, c, cmd->offset / SLOT_SIZE, (end - 1) / SLOT_SIZE))
        return;
    write_issue(d, c);
}

/* A write of whole 4 KiB units to a drive mapping 4 KiB reads nothing
 * first: it goes to the buffer at once, as write_issue() and
 * ftl_read_piece_done() would send it with no read pending (unless
 * ftl_general_only() has cleared quick for a test). */
void ftl_write_arrive(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    cmd->t_start = sim_now(drive_engine(d));
    cmd->rmw = cmd->rmw_head = 0;
    cmd->merge = NO_IDX;
    uint64_t old = map_get(d, cmd->offset / SLOT_SIZE);
    if (old < BUF_MARK) /* the slot to invalidate once the data has crossed the link */
        map_prefetch_slot(d, old);
    if (G_UNLIKELY((cmd->offset | cmd->length) % SLOT_SIZE || !wbuf(d)->quick)) {
        write_arrive_reads(d, c);
        return;
    }
    cmd->pending = 0;
    ftl_write_start(d, c);
}

/* The mapping cache has loaded the translation pages of command c. */
static void translated(void *ctx, uint32_t c)
{
    Drive *d = ctx;
    if (cmd_at(d, c)->op == IO_WRITE)
        write_issue(d, c);
    else
        read_issue(d, c);
}

static void ftl_read_piece_done(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    g_assert(cmd->pending > 0);
    if (--cmd->pending > 0)
        return;
    if (cmd->op == IO_WRITE)
        ftl_write_start(d, c);
    else
        read_done(d, c);
}

/* Read c has its data (its NAND reads ended, or it needed none): back to
 * the host over the link, and its time in parts. */
static void read_done(Drive *d, uint32_t c)
{
    Cmd *cmd = cmd_at(d, c);
    SimTime now = sim_now(drive_engine(d));
    SimTime end = link_xfer(d, now, cmd->length, 0);
    uint64_t *part = drive_counters(d)->read_parts_ns;
    part[PART_FRONT] += cmd->t_start - cmd->t_sub;
    part[PART_MAP] += cmd->t_issue - cmd->t_start;
    part[PART_DIE_WAIT] += cmd->piece_wait;
    part[PART_NAND] += now - cmd->t_issue - cmd->piece_wait;
    part[PART_BACK] += end - now;
    drive_counters(d)->read_parts_n++;
    cmd_complete(d, c, end);
}

uint64_t ftl_buffered_bytes(const Drive *d)
{
    return (uint64_t)wbuf(d)->ring_live * SLOT_SIZE;
}

/* Unmap lpns [first, end); returns how many were mapped. The mapping cache
 * is not told: the caller (trim.c) accounts the change now or later. */
uint64_t ftl_unmap(Drive *d, uint64_t first, uint64_t end)
{
    uint64_t n = 0;
    for (uint64_t lpn = first; lpn < end; lpn++) {
        uint64_t v = map_get(d, lpn);
        if (v == NO_SLOT)
            continue;
        if (v >= BUF_MARK) {
            wbuf(d)->ring[v - BUF_MARK] = NO_LPN;
            wbuf(d)->ring_live--;
            if (wbuf(d)->npid)
                wbuf(d)->pid_live[wbuf(d)->pid[v - BUF_MARK]]--;
            wbuf(d)->buf_used--;
            drive_counters(d)->buf_absorbed_bytes += SLOT_SIZE;
        } else {
            map_invalidate_slot(d, v);
        }
        map_put(d, lpn, NO_SLOT);
        --*drive_mapped(d);
        n++;
    }
    return n;
}

/* A NAND read of command c has its data out after waiting wait for its
 * die; the last to end decides the command's wait. */
static void read_piece(void *ctx, uint32_t c, SimTime wait)
{
    Drive *d = ctx;
    cmd_at(d, c)->piece_wait = wait;
    ftl_read_piece_done(d, c);
}

void ftl_unmapped(Drive *d)
{
    drop_dead(wbuf(d));
    admit_waiting(d);
    if (wbuf(d)->buf_used == 0)
        complete_flushes(d);
    sched_kick_all(d); /* idle dies can erase blocks the unmapping emptied */
}

/* ---- Placement of host data ---------------------------------------------- */

/* Erased blocks die k can still fill with host data: its free list and its
 * static SLC blocks. Counting both keeps the dies in step through the
 * static part of the cache as well: balanced on the free list alone, the
 * dies that the channels happen to favour used up their static blocks
 * tens of blocks ahead of the others, and then had to wait for them. */
static uint32_t die_room(const Drive *d, uint32_t k)
{
    return die_nfree(d, k) + die_nsfree(d, k);
}

/* Most room any die has. */
static uint32_t max_room(const Drive *d)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < drive_geom(d)->dies; k++)
        m = MAX(m, die_room(d, k));
    return m;
}

/* Program one unit of buffered host data on die i, if the buffer has one and
 * the die has room for it without eating into the GC reserve; true if it
 * started, with the slots programmed in *slots. Units go to whichever die is free
 * first, but a die opens a new block for host data only while it has
 * nearly as much room (erased blocks, static SLC ones included) as any
 * other (within BALANCE_SLACK), so the dies fill evenly and a die that fell
 * behind (busy with GC, or slower on a crowded channel) is not overtaken by
 * the others until the drive is full. The slack lets dies run a few blocks
 * apart; held to one block they wait on each other at every block boundary,
 * which with small SLC blocks costs a tenth of the throughput. */
#define BALANCE_SLACK 4

/* Most room any die of die i's reclaim group has (FDP: a group's dies
 * fill apart from the others'). */
static uint32_t max_room_group(const Drive *d, uint32_t i)
{
    if (!fdp_on(d))
        return max_room(d);
    uint32_t g = fdp_group_of_die(d, i), m = 0;
    for (uint32_t k = 0; k < drive_geom(d)->dies; k++)
        if (fdp_group_of_die(d, k) == g)
            m = MAX(m, die_room(d, k));
    return m;
}

/* FDP: take up to max live entries of placement identifier pid into the
 * stage, oldest first, wherever they are in the ring (their positions
 * become dead entries); then drop the dead entries at its head. */
static uint32_t take_pid(Drive *d, uint32_t max, uint32_t pid)
{
    Wbuf *w = wbuf(d);
    uint32_t n = 0;
    w->stage_rmw = 0;
    for (uint32_t k = 0, pos = w->ring_head; k < w->ring_len && n < max; k++, pos = ring_at(w, pos, 1)) {
        if (w->ring[pos] == NO_LPN || w->pid[pos] != pid)
            continue;
        w->stage[n++] = w->ring[pos];
        w->ring[pos] = NO_LPN;
        w->ring_live--;
        w->pid_live[pid]--;
    }
    while (w->ring_len > 0 && w->ring[w->ring_head] == NO_LPN) {
        w->ring_head = ring_at(w, w->ring_head, 1);
        w->ring_len--;
    }
    return n;
}

/* Whether die i may take data of placement identifier pid: always, but on
 * a zoned drive only into the zone's own blocks there (models/zns.c). */
static bool placeable(const Drive *d, uint32_t i, uint32_t pid)
{
    return !zns_on(d) || *fdp_host_open(d, i, pid) != NO_BLOCK || zns_zone_room(d, pid, i);
}

/* FDP: the placement identifier a program on die i takes, -1 if none yet.
 * A handle's entries wait in the buffer until they fill a program unit, as
 * each handle's own staging buffer would. The oldest entry's identifier
 * goes first when it has a unit, and also with less when the ring is
 * nearly full of entries waiting behind it (dead ones included: they free
 * their room only when the head passes them); else the identifier with the
 * most data and a whole unit; with buf_force (flush, idle) any. */
static int fdp_pick(const Drive *d, uint32_t i, uint32_t unit)
{
    const Wbuf *w = wbuf(d);
    uint32_t h = fdp_handles(d), g = fdp_group_of_die(d, i);
    int head = -1;
    for (uint32_t k = 0, pos = w->ring_head; k < w->ring_len; k++, pos = ring_at(w, pos, 1))
        if (w->ring[pos] != NO_LPN) {
            head = w->pid[pos] / h == g && placeable(d, i, w->pid[pos]) ? w->pid[pos] : -1;
            break;
        }
    bool tight = w->ring_len + w->ring_pending + unit > w->ring_cap;
    if (head >= 0 && (w->pid_live[head] >= unit || tight))
        return head;
    int best = -1;
    uint32_t best_n = 0;
    for (uint32_t p = g * h; p < (g + 1) * h; p++)
        if (w->pid_live[p] > best_n && placeable(d, i, p)) {
            best_n = w->pid_live[p];
            best = (int)p;
        }
    return best_n >= unit || (best_n > 0 && w->buf_force) ? best : -1;
}

/* Program one unit of buffered host data on die i, if the buffer has one and
 * the die has room for it without eating into the GC reserve; true if it
 * started, with the slots programmed in *slots. Units go to whichever die is free
 * first, but a die opens a new block for host data only while it has
 * nearly as much room (erased blocks, static SLC ones included) as any
 * other (within BALANCE_SLACK), so the dies fill evenly and a die that fell
 * behind (busy with GC, or slower on a crowded channel) is not overtaken by
 * the others until the drive is full. The slack lets dies run a few blocks
 * apart; held to one block they wait on each other at every block boundary,
 * which with small SLC blocks costs a tenth of the throughput. With FDP the
 * unit holds data of one placement identifier, into its handle's block. On
 * a zoned drive a die takes a zone's data only into the blocks the zone
 * owns there (placeable()), which keeps the dies even instead. */
static bool host_program(Drive *d, uint32_t i, uint32_t *slots)
{
    if (wbuf(d)->ring_live == 0)
        return false; /* before asking the cache: with no data it must not decide exhaustion */
    int stream, pid = -1;
    CellMode mode;
    uint32_t unit, *open = NULL; /* with FDP: the handle's open block; else the die's stream */
    if (fdp_on(d)) {
        stream = STREAM_HOST;
        mode = drive_geom(d)->native;
        unit = drive_geom(d)->unit_slots[mode];
        pid = fdp_pick(d, i, unit);
        if (pid < 0)
            return false;
        open = fdp_host_open(d, i, (uint32_t)pid % fdp_handles(d));
    } else {
        stream = pslc_host_stream(d, i);
        mode = stream == STREAM_HOST ? drive_geom(d)->native : CELL_SLC;
        unit = drive_geom(d)->unit_slots[mode];
        if (!unit_ready(d, unit))
            return false;
    }
    uint32_t b = open ? *open : die_open(d, i, stream);
    if (b == NO_BLOCK) {
        /* a zone's share of each die keeps a zoned drive's dies even */
        if (!zns_on(d) && die_room(d, i) + BALANCE_SLACK < max_room_group(d, i))
            return false; /* let the other dies catch up */
        if (stream == STREAM_SSLC)
            b = nand_take_static(d, i);
        else if (die_nfree(d, i) > drive_params(d)->gc_hard_blocks)
            b = nand_take_free(d, i, mode);
        if (b == NO_BLOCK)
            return false;
        if (open)
            *open = b;
        else
            die_set_open(d, i, stream, b);
        if (pid >= 0)
            fdp_block_taken(d, b, (uint32_t)pid % fdp_handles(d));
        if (zns_on(d))
            zns_block_taken(d, (uint32_t)pid, i);
    }
    uint32_t cap = nand_block_capacity(d, b);
    uint32_t room = cap - blk_wp(d, b);
    const uint64_t *lpns = wbuf(d)->stage;
    uint32_t n = pid < 0 ? take_unit(d, unit < room ? unit : room, &lpns) : take_pid(d, unit < room ? unit : room, (uint32_t)pid);
    uint64_t first = nand_slot(d, b, blk_wp(d, b));
    map_prefetch(d, lpns, n);
    map_set_run(d, lpns, n, first);
    blk_advance(d, b, n);
    for (uint32_t k = 0; drive_place_hook(d) && k < n; k++)
        drive_place_hook(d)(drive_place_ctx(d), lpns[k], first + k, NO_SLOT);
    if (blk_wp(d, b) == cap) {
        blk_close(d, b, sim_now(drive_engine(d)));
        if (open)
            *open = NO_BLOCK;
        else
            die_set_open(d, i, stream, NO_BLOCK);
    }
    uint64_t bytes = (uint64_t)n * SLOT_SIZE;
    SimTime in = chan_xfer(d, i, sim_now(drive_engine(d)), bytes);
    drive_counters(d)->nand_write_bytes[CAUSE_HOST] += bytes - (uint64_t)wbuf(d)->stage_rmw * SLOT_SIZE;
    drive_counters(d)->nand_write_bytes[CAUSE_RMW] += (uint64_t)wbuf(d)->stage_rmw * SLOT_SIZE;
    if (mode == CELL_SLC && drive_geom(d)->native != CELL_SLC)
        drive_counters(d)->host_slc_bytes += bytes;
    if (pid >= 0)
        fdp_host_programmed(d, (uint32_t)pid % fdp_handles(d), bytes);
    pslc_host_programmed(d, i, stream, n);
    sched_program(d, i, WORK_HOST, program_done, d, n, in, first, bytes, mode);
    *slots = n;
    return true;
}

/* The scheduler's host program work: below the soft threshold each unit
 * adds to the die's GC debt (gc_owe). */
static bool try_host_program(void *ctx, uint32_t die)
{
    Drive *d = ctx;
    bool paced = gc_paced(d, die);
    uint32_t n;
    if (!host_program(d, die, &n))
        return false;
    gc_owe(d, die, paced, n);
    return true;
}

/* Whether a host program may start on some die: never with an empty
 * buffer; on a drive without a pSLC cache every die programs native units,
 * so not before one is ready. (With a cache each die's try also moves its
 * cache to exhausted when it runs out, so it is always asked.) */
static bool any_host_program(void *ctx)
{
    Drive *d = ctx;
    if (wbuf(d)->ring_live == 0)
        return false;
    if (fdp_on(d))
        return true; /* fdp_pick() decides per die and group */
    return pslc_has_cache(d) || unit_ready(d, drive_geom(d)->unit_slots[drive_geom(d)->native]);
}

void ftl_init(Drive *d)
{
    Wbuf *w = g_new0(Wbuf, 1);
    uint32_t max_unit = 0;
    for (int m = CELL_SLC; m <= CELL_QLC; m++)
        max_unit = MAX(max_unit, drive_geom(d)->unit_slots[m]);
    w->unit_lpns = drive_params_map_unit(drive_params(d)) / SLOT_SIZE;
    w->quick = w->unit_lpns == 1;
    w->quick_reads = true;
    w->buf_cap = drive_params_write_buffer(drive_params(d)) / SLOT_SIZE;
    w->ring_cap = (uint32_t)w->buf_cap;
    w->ring = g_new(uint64_t, w->ring_cap);
    w->stage = g_new(uint64_t, max_unit);
    w->wait_head = w->wait_tail = w->flush_head = NO_IDX;
    /* the mapping cache keeps 4 KiB entries (config validation) */
    g_assert(w->unit_lpns == 1 || !l2p_cache_on(d));
    if (w->unit_lpns > 1)
        w->flag = g_new0(uint8_t, w->ring_cap);
    w->merge_free = NO_IDX;
    w->npid = fdp_on(d) ? drive_params_streams(drive_params(d)) : 0;
    if (w->npid) {
        w->pid = g_new0(uint16_t, w->ring_cap);
        w->pid_live = g_new0(uint32_t, w->npid);
    }
    drive_set_part(d, DP_WBUF, w);
    w->host_reader = sched_read_client(d, read_piece, d);
    w->rmw_reader = sched_read_client(d, rmw_read_done, d);
    sched_add(d, RANK_HOST_PROGRAM, try_host_program, any_host_program, d, true);
    if (l2p_cache_on(d))
        l2p_on_translated(d, translated, d);
}

void ftl_general_only(Drive *d) { wbuf(d)->quick = wbuf(d)->quick_reads = false; }

void ftl_release(Drive *d)
{
    if (!wbuf(d))
        return;
    g_free(wbuf(d)->ring);
    g_free(wbuf(d)->stage);
    g_free(wbuf(d)->flag);
    g_free(wbuf(d)->merges);
    g_free(wbuf(d)->pid);
    g_free(wbuf(d)->pid_live);
    g_free(wbuf(d));
    drive_set_part(d, DP_WBUF, NULL);
}

bool ftl_check(const Drive *d, char *why, size_t why_len)
{
    const Wbuf *w = wbuf(d);
    uint64_t live = 0;
    for (uint64_t lpn = 0; lpn < drive_geom(d)->nlpn; lpn++) {
        uint64_t v = map_get(d, lpn);
        if (v == NO_SLOT || v < BUF_MARK)
            continue;
        CHECK(v - BUF_MARK < w->ring_cap && w->ring[v - BUF_MARK] == lpn,
              "lpn %" G_GUINT64_FORMAT " points to buffer entry %" G_GUINT64_FORMAT
              " holding another page", lpn, v - BUF_MARK);
    }
    for (uint32_t k = 0, pos = w->ring_head; k < w->ring_len; k++, pos = ring_at(w, pos, 1))
        if (w->ring[pos] != NO_LPN) {
            live++;
            CHECK(map_get(d, w->ring[pos]) == BUF_MARK + pos, "buffer entry %u is stale but live", pos);
        }
    for (uint32_t p = 0; p < w->npid; p++) {
        uint32_t n = 0;
        for (uint32_t k = 0, pos = w->ring_head; k < w->ring_len; k++, pos = ring_at(w, pos, 1))
            n += w->ring[pos] != NO_LPN && w->pid[pos] == p;
        CHECK(n == w->pid_live[p], "buffer has %u live entries of placement identifier %u, counter says %u",
              n, p, w->pid_live[p]);
    }
    CHECK(live == w->ring_live, "buffer has %" G_GUINT64_FORMAT " live entries, counter says %u",
          live, w->ring_live);
    uint32_t held = 0;
    for (uint32_t k = 0, pos = w->ring_head; w->flag && k < w->ring_len; k++, pos = ring_at(w, pos, 1))
        held += (w->flag[pos] & RING_HELD) != 0;
    CHECK(held == w->held, "buffer holds %u entries for merge reads, counter says %u", held, w->held);
    CHECK(w->held == 0 || !ready_current(w, w->ready.max) || w->ready.n == ready_walk(w, w->ready.max),
          "buffer remembers %u entries ready, has %u", w->ready.n, ready_walk(w, w->ready.max));
    CHECK(w->buf_used <= w->buf_cap && w->ring_len + w->ring_pending <= w->ring_cap,
          "buffer over its %" G_GUINT64_FORMAT " slots: %" G_GUINT64_FORMAT
          " reserved, %u in the ring and %u crossing the link", w->buf_cap, w->buf_used,
          w->ring_len, w->ring_pending);
    return true;
}
