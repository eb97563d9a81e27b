/*
 * ftl.c - page-level mapping, the write buffer, and the host command paths.
 *
 * L2P holds one uint32_t per 4 KiB logical page: a physical slot, NO_SLOT
 * (unmapped) or BUF_MARK + ring position (the latest data sits in the write
 * buffer). P2L holds the logical page of every valid slot, NO_LPN otherwise,
 * and blk_valid counts the valid slots per block; ftl_check() verifies all
 * three agree. A write to a page already in the buffer overwrites it there
 * (write coalescing); a write that is not 4 KiB aligned first reads the
 * partial slots it covers (read-modify-write). With a mapping cache
 * (l2p_cache.c) reads first look their range up, and ftl_map reports every
 * change of the table to it.
 */
#include "models/ftl_impl.h"

#include <string.h>

#define BUF_IDLE_FLUSH (1 * SIM_MS) /* partial units are programmed after this much quiet */

void ftl_invalidate_slot(Drive *d, uint32_t slot)
{
    uint32_t b = nand_block_of(d, slot);
    g_assert(d->p2l[slot] != NO_LPN && d->blk_valid[b] > 0);
    d->p2l[slot] = NO_LPN;
    if (--d->blk_valid[b] == 0 && d->blk_state[b] == BLK_FULL && !d->blk_dead[b]) {
        /* nothing left to move: GC can have it for an erase (gc_reclaim_dead) */
        Die *dd = &d->die[nand_die_of_block(d, b)];
        d->blk_dead[b] = 1;
        dd->dead[dd->ndead++] = b;
    }
    if (d->blk_mode[b] == CELL_SLC && d->native != CELL_SLC)
        d->st.pslc_used -= SLOT_SIZE;
}

/* Point lpn at slot, invalidating the slot it had. */
void ftl_map(Drive *d, uint32_t lpn, uint32_t slot)
{
    uint32_t old = d->l2p[lpn];
    if (old == NO_SLOT)
        d->mapped++;
    else if (old < BUF_MARK)
        ftl_invalidate_slot(d, old);
    d->l2p[lpn] = slot;
    d->p2l[slot] = lpn;
    uint32_t b = nand_block_of(d, slot);
    d->blk_valid[b]++;
    if (d->blk_mode[b] == CELL_SLC && d->native != CELL_SLC)
        d->st.pslc_used += SLOT_SIZE;
    if (d->l2pc)
        l2p_update(d, lpn);
}

/* Where host data goes next on this die: the pSLC cache decides
 * (pslc_host_stream); without one every host unit is native. */
CellMode ftl_host_mode(Drive *d, uint32_t die)
{
    return pslc_host_stream(d, die) == STREAM_HOST ? d->native : CELL_SLC;
}

/* Move up to one native program unit of valid slots of block v, scanning
 * from *cursor, into dst (GC and folding both relocate this way). dst is
 * marked full and *open cleared when it fills. Returns the slots moved and
 * in *pages the distinct source pages that had to be read. */
uint32_t ftl_relocate(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, uint32_t *open,
                      uint32_t *pages)
{
    uint32_t unit = d->unit_slots[d->native];
    uint32_t room = nand_block_capacity(d, dst) - d->blk_wp[dst];
    uint32_t want = unit < room ? unit : room;
    uint32_t vbase = v * d->slots_per_block, dbase = dst * d->slots_per_block;
    uint32_t n = 0, last_page = NO_IDX;
    *pages = 0;
    while (n < want && *cursor < d->blk_wp[v]) {
        uint32_t src = vbase + (*cursor)++;
        uint32_t lpn = d->p2l[src];
        if (lpn == NO_LPN)
            continue;
        uint32_t page = src / d->slots_per_page;
        if (page != last_page) {
            (*pages)++;
            last_page = page;
        }
        uint32_t slot = dbase + d->blk_wp[dst]++;
        ftl_map(d, lpn, slot);
        if (d->place_hook)
            d->place_hook(d->place_ctx, lpn, slot, src);
        n++;
    }
    if (d->blk_wp[dst] == nand_block_capacity(d, dst)) {
        d->blk_state[dst] = BLK_FULL;
        d->blk_stamp[dst] = sim_now(d->eng);
        *open = NO_BLOCK;
    }
    return n;
}

bool ftl_unit_ready(const Drive *d, uint32_t unit)
{
    return d->ring_live >= unit || (d->buf_force && d->ring_live > 0);
}

/* Take up to max live pages from the head of the buffer into d->stage. */
uint32_t ftl_take_unit(Drive *d, uint32_t max)
{
    uint32_t n = 0;
    while (n < max && d->ring_len > 0) {
        uint32_t lpn = d->ring[d->ring_head];
        d->ring_head = (d->ring_head + 1) % d->ring_cap;
        d->ring_len--;
        if (lpn == NO_LPN)
            continue;
        d->stage[n++] = lpn;
        d->ring_live--;
    }
    return n;
}

static void complete_flushes(Drive *d)
{
    SimTime now = sim_now(d->eng);
    while (d->flush_head != NO_IDX) {
        uint32_t c = d->flush_head;
        d->flush_head = d->cmds[c].next;
        drive_complete(d, c, now);
    }
}

static bool buffer_has_room(const Drive *d, uint32_t slots)
{
    return d->buf_used + slots <= d->buf_cap && d->ring_len + d->ring_pending + slots <= d->ring_cap;
}

static void idle_flush(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    (void)arg;
    SimTime now = sim_now(d->eng);
    if (d->ring_live == 0) {
        d->idle_timer = false;
        return;
    }
    if (now < d->last_admit + BUF_IDLE_FLUSH) {
        sim_schedule(d->eng, d->last_admit + BUF_IDLE_FLUSH, idle_flush, d, 0);
        return;
    }
    d->idle_timer = false;
    d->buf_force = true;
    sched_kick_all(d);
}

/* The data of write c has crossed the link: its pages enter the buffer
 * (overwriting a copy already buffered) and the write completes. */
static void write_arrived(void *ctx, uint64_t arg)
{
    Drive *d = ctx;
    uint32_t c = (uint32_t)arg;
    Cmd *cmd = &d->cmds[c];
    uint64_t first = cmd->offset / SLOT_SIZE;
    uint64_t last = (cmd->offset + cmd->length - 1) / SLOT_SIZE;
    d->ring_pending -= cmd->slots;
    for (uint64_t lpn = first; lpn <= last; lpn++) {
        uint32_t old = d->l2p[lpn];
        if (old >= BUF_MARK && old != NO_SLOT) {
            d->buf_used--; /* coalesced: the space reserved for it is not needed */
            uint64_t lo = MAX(cmd->offset, lpn * SLOT_SIZE);
            uint64_t hi = MIN(cmd->offset + cmd->length, (lpn + 1) * SLOT_SIZE);
            d->st.buf_absorbed_bytes += hi - lo;
            continue;
        }
        if (old == NO_SLOT)
            d->mapped++;
        else
            ftl_invalidate_slot(d, old);
        uint32_t pos = (d->ring_head + d->ring_len) % d->ring_cap;
        d->ring[pos] = (uint32_t)lpn;
        d->ring_len++;
        d->ring_live++;
        d->l2p[lpn] = BUF_MARK + pos;
    }
    SimTime now = sim_now(d->eng);
    uint64_t *part = d->st.write_parts_ns;
    part[WPART_FRONT] += cmd->t_start - cmd->t_sub;
    part[WPART_MERGE] += cmd->t_issue - cmd->t_start;
    part[WPART_BUFFER] += cmd->t_admit - cmd->t_issue;
    part[WPART_DATA] += now - cmd->t_admit;
    d->st.write_parts_n++;
    d->last_admit = now;
    drive_complete_now(d, c);
    if (!d->idle_timer && d->ring_live > 0) {
        d->idle_timer = true;
        sim_schedule(d->eng, now + BUF_IDLE_FLUSH, idle_flush, d, 0);
    }
    sched_kick_all(d);
}

/* Reserve buffer space for write c and move its data over the link. */
static void admit_write(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    cmd->t_admit = sim_now(d->eng);
    d->buf_used += cmd->slots;
    d->ring_pending += cmd->slots;
    SimTime end = hostif_link(d, sim_now(d->eng), cmd->length, 1);
    sim_schedule(d->eng, end, write_arrived, d, c);
}

/* Admit waiting writes in arrival order while the buffer has room. */
static void admit_waiting(Drive *d)
{
    while (d->wait_head != NO_IDX && buffer_has_room(d, d->cmds[d->wait_head].slots)) {
        uint32_t c = d->wait_head;
        d->wait_head = d->cmds[c].next;
        if (d->wait_head == NO_IDX)
            d->wait_tail = NO_IDX;
        admit_write(d, c);
    }
}

void ftl_write_start(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    cmd->t_issue = sim_now(d->eng);
    cmd->next = NO_IDX;
    if (d->wait_head == NO_IDX && buffer_has_room(d, cmd->slots)) {
        admit_write(d, c);
        return;
    }
    if (d->wait_tail == NO_IDX)
        d->wait_head = c;
    else
        d->cmds[d->wait_tail].next = c;
    d->wait_tail = c;
}

void ftl_program_done(Drive *d, uint32_t slots)
{
    g_assert(d->buf_used >= slots);
    d->buf_used -= slots;
    admit_waiting(d);
    if (d->ring_live == 0 && d->flush_head == NO_IDX)
        d->buf_force = false;
    if (d->buf_used == 0)
        complete_flushes(d);
}

void ftl_flush_start(Drive *d, uint32_t c)
{
    if (d->buf_used == 0 && d->wait_head == NO_IDX) {
        drive_complete(d, c, sim_now(d->eng));
        return;
    }
    d->cmds[c].next = d->flush_head;
    d->flush_head = c;
    d->buf_force = true;
    sched_kick_all(d);
}

uint32_t ftl_rop_alloc(Drive *d)
{
    if (d->rop_free == NO_IDX) {
        uint32_t old = d->rop_cap;
        d->rop_cap *= 2;
        d->rops = g_renew(ReadOp, d->rops, d->rop_cap);
        for (uint32_t i = old; i < d->rop_cap; i++)
            d->rops[i].next = i + 1 < d->rop_cap ? i + 1 : NO_IDX;
        d->rop_free = old;
    }
    uint32_t r = d->rop_free;
    d->rop_free = d->rops[r].next;
    return r;
}

/* Queue die reads for the NAND-resident pages in [first, last] and count
 * them in the command; consecutive pages on one die form one operation. */
static void queue_reads(Drive *d, uint32_t c, uint64_t first, uint64_t last)
{
    uint32_t cur_die = NO_IDX, r = NO_IDX, last_page = NO_IDX;
    for (uint64_t lpn = first; lpn <= last; lpn++) {
        uint32_t slot = d->l2p[lpn];
        if (slot >= BUF_MARK) { /* unmapped or buffered: no NAND access */
            if (slot == NO_SLOT)
                d->st.unwritten_read_units++;
            continue;
        }
        uint32_t b = nand_block_of(d, slot);
        uint32_t die = nand_die_of_block(d, b);
        if (die != cur_die || d->blk_mode[b] != d->rops[r].mode) {
            if (r != NO_IDX)
                sched_queue_read(d, cur_die, r);
            r = ftl_rop_alloc(d);
            d->rops[r] = (ReadOp){.cmd = c, .pages = 0, .slots = 0, .mode = d->blk_mode[b]};
            d->cmds[c].pending++;
            cur_die = die;
            last_page = NO_IDX;
        }
        uint32_t page = slot / d->slots_per_page;
        if (page != last_page) {
            d->rops[r].pages++;
            last_page = page;
        }
        d->rops[r].slots++;
    }
    if (r != NO_IDX)
        sched_queue_read(d, cur_die, r);
}

static void read_issue(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    cmd->t_issue = sim_now(d->eng);
    cmd->piece_wait = 0;
    cmd->pending = 1; /* held until every read is queued */
    queue_reads(d, c, cmd->offset / SLOT_SIZE, (cmd->offset + cmd->length - 1) / SLOT_SIZE);
    ftl_read_piece_done(d, c);
}

/* With a mapping cache, a read first needs the translation pages of its range. */
void ftl_read_start(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    cmd->t_start = sim_now(d->eng);
    if (d->l2pc && !l2p_translate(d, c, cmd->offset / SLOT_SIZE, (cmd->offset + cmd->length - 1) / SLOT_SIZE))
        return;
    read_issue(d, c);
}

/* A write that covers part of a slot must merge with the data already
 * there: read the partial head and tail slots first. */
static void write_issue(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    uint64_t end = cmd->offset + cmd->length;
    cmd->pending = 1;
    if (cmd->offset % SLOT_SIZE) {
        uint64_t lpn = cmd->offset / SLOT_SIZE;
        queue_reads(d, c, lpn, lpn);
    }
    if (end % SLOT_SIZE && (end / SLOT_SIZE != cmd->offset / SLOT_SIZE || cmd->offset % SLOT_SIZE == 0)) {
        uint64_t lpn = end / SLOT_SIZE;
        queue_reads(d, c, lpn, lpn);
    }
    ftl_read_piece_done(d, c);
}

/* With a mapping cache a write updates the table when its data is
 * programmed (ftl_map); only the slots it merges with must be found first. */
void ftl_write_arrive(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    cmd->t_start = sim_now(d->eng);
    uint64_t end = cmd->offset + cmd->length;
    uint32_t old = d->l2p[cmd->offset / SLOT_SIZE];
    if (old < BUF_MARK) /* the slot to invalidate once the data has crossed the link */
        __builtin_prefetch(&d->p2l[old], 1);
    bool partial = cmd->offset % SLOT_SIZE || end % SLOT_SIZE;
    if (d->l2pc && partial && !l2p_translate(d, c, cmd->offset / SLOT_SIZE, (end - 1) / SLOT_SIZE))
        return;
    write_issue(d, c);
}

void ftl_translated(Drive *d, uint32_t c)
{
    if (d->cmds[c].op == IO_WRITE)
        write_issue(d, c);
    else
        read_issue(d, c);
}

void ftl_read_piece_done(Drive *d, uint32_t c)
{
    Cmd *cmd = &d->cmds[c];
    g_assert(cmd->pending > 0);
    if (--cmd->pending > 0)
        return;
    if (cmd->op == IO_WRITE) {
        ftl_write_start(d, c);
        return;
    }
    SimTime now = sim_now(d->eng);
    SimTime end = hostif_link(d, now, cmd->length, 0);
    uint64_t *part = d->st.read_parts_ns;
    part[PART_FRONT] += cmd->t_start - cmd->t_sub;
    part[PART_MAP] += cmd->t_issue - cmd->t_start;
    part[PART_DIE_WAIT] += cmd->piece_wait;
    part[PART_NAND] += now - cmd->t_issue - cmd->piece_wait;
    part[PART_BACK] += end - now;
    d->st.read_parts_n++;
    drive_complete(d, c, end);
}

/* Unmap lpns [first, end); returns how many were mapped. The mapping cache
 * is not told: the caller (trim.c) accounts the change now or later. */
uint64_t ftl_unmap(Drive *d, uint64_t first, uint64_t end)
{
    uint64_t n = 0;
    for (uint64_t lpn = first; lpn < end; lpn++) {
        uint32_t v = d->l2p[lpn];
        if (v == NO_SLOT)
            continue;
        if (v >= BUF_MARK) {
            d->ring[v - BUF_MARK] = NO_LPN;
            d->ring_live--;
            d->buf_used--;
            d->st.buf_absorbed_bytes += SLOT_SIZE;
        } else {
            ftl_invalidate_slot(d, v);
        }
        d->l2p[lpn] = NO_SLOT;
        d->mapped--;
        n++;
    }
    return n;
}

void ftl_unmapped(Drive *d)
{
    admit_waiting(d);
    if (d->buf_used == 0)
        complete_flushes(d);
    sched_kick_all(d); /* idle dies can erase blocks the unmapping emptied */
}

/* Unmap whole 4 KiB pages in the range; returns how many were mapped. */
uint64_t ftl_trim(Drive *d, uint64_t offset, uint64_t length)
{
    uint64_t n = ftl_unmap(d, (offset + SLOT_SIZE - 1) / SLOT_SIZE, (offset + length) / SLOT_SIZE);
    ftl_unmapped(d);
    return n;
}

/* ---- Invariants ---------------------------------------------------------- */

/* The pSLC counters: SLC blocks per die (static free, dynamic in use), the
 * bytes of valid data in SLC blocks, and the limit gauge. */
static bool check_pslc(const Drive *d, char *why, size_t why_len)
{
    uint64_t slc_valid = 0, limit = 0;
    for (uint32_t i = 0; i < d->dies; i++) {
        uint32_t sfree = 0, dyn = 0, first = i * d->blocks_per_die;
        for (uint32_t b = first; b < first + d->blocks_per_die; b++) {
            if (ftl_is_map_block(d, b))
                continue;
            if (d->blk_mode[b] == CELL_SLC && d->native != CELL_SLC)
                slc_valid += d->blk_valid[b];
            if (nand_is_static(d, b)) {
                CHECK(d->blk_mode[b] == CELL_SLC, "static block %u is not in SLC mode", b);
                sfree += d->blk_state[b] == BLK_FREE;
            } else if (d->blk_state[b] != BLK_FREE && d->blk_mode[b] == CELL_SLC) {
                dyn++;
            }
        }
        CHECK(sfree == d->die[i].nsfree, "die %u has %u free static blocks, counter says %u", i,
              sfree, d->die[i].nsfree);
        CHECK(d->native == CELL_SLC || dyn == d->die[i].slc_dyn,
              "die %u has %u dynamic SLC blocks, counter says %u", i, dyn, d->die[i].slc_dyn);
        limit += d->die[i].dyn_limit;
    }
    CHECK(slc_valid * SLOT_SIZE == d->st.pslc_used,
          "%" G_GUINT64_FORMAT " bytes valid in SLC blocks, gauge says %" G_GUINT64_FORMAT,
          slc_valid * SLOT_SIZE, d->st.pslc_used);
    CHECK(limit == d->dyn_limit_sum, "dynamic limits sum to %" G_GUINT64_FORMAT
          " blocks, counter says %" G_GUINT64_FORMAT, limit, d->dyn_limit_sum);
    return true;
}

bool drive_check(const Drive *d, char *why, size_t why_len)
{
    uint64_t mapped = 0, live = 0;
    for (uint64_t lpn = 0; lpn < d->nlpn; lpn++) {
        uint32_t v = d->l2p[lpn];
        if (v == NO_SLOT)
            continue;
        mapped++;
        if (v >= BUF_MARK) {
            CHECK(v - BUF_MARK < d->ring_cap && d->ring[v - BUF_MARK] == lpn,
                  "lpn %" G_GUINT64_FORMAT " points to buffer entry %u holding another page", lpn,
                  v - BUF_MARK);
            continue;
        }
        CHECK(v < d->nslots, "lpn %" G_GUINT64_FORMAT " maps to slot %u beyond the drive", lpn, v);
        CHECK(d->p2l[v] == lpn, "lpn %" G_GUINT64_FORMAT " maps to slot %u which maps back to %u",
              lpn, v, d->p2l[v]);
        uint32_t b = nand_block_of(d, v);
        CHECK(d->blk_state[b] != BLK_FREE, "lpn %" G_GUINT64_FORMAT " maps into free block %u", lpn,
              b);
        CHECK(v - b * d->slots_per_block < d->blk_wp[b],
              "lpn %" G_GUINT64_FORMAT " maps past the write pointer of block %u", lpn, b);
    }
    CHECK(mapped == d->mapped, "%" G_GUINT64_FORMAT " pages mapped, counter says %" G_GUINT64_FORMAT,
          mapped, d->mapped);
    uint64_t free_blocks = 0;
    for (uint32_t b = 0; b < d->nblocks; b++) {
        uint32_t valid = 0, base = b * d->slots_per_block;
        if (ftl_is_map_block(d, b))
            continue; /* holds translation pages: l2p_check() */
        for (uint32_t s = 0; s < d->slots_per_block; s++) {
            uint32_t lpn = d->p2l[base + s];
            if (lpn == NO_LPN)
                continue;
            CHECK(s < d->blk_wp[b], "block %u has a valid slot past its write pointer", b);
            CHECK(lpn < d->nlpn && d->l2p[lpn] == base + s,
                  "slot %u is valid for lpn %u which maps elsewhere", base + s, lpn);
            valid++;
        }
        CHECK(valid == d->blk_valid[b], "block %u counts %u valid slots, has %u", b,
              d->blk_valid[b], valid);
        if (d->blk_state[b] == BLK_FREE) {
            CHECK(valid == 0, "free block %u has valid slots", b);
            free_blocks++;
        }
    }
    CHECK(free_blocks == d->st.free_blocks, "%" G_GUINT64_FORMAT " free blocks, gauge says %" G_GUINT64_FORMAT,
          free_blocks, d->st.free_blocks);
    /* the dead stacks: each entry flagged, on its own die, once */
    uint64_t flagged = 0, stacked = 0;
    for (uint32_t b = 0; b < d->nblocks; b++)
        flagged += d->blk_dead[b];
    for (uint32_t i = 0; i < d->dies; i++) {
        stacked += d->die[i].ndead;
        for (uint32_t k = 0; k < d->die[i].ndead; k++) {
            uint32_t b = d->die[i].dead[k];
            CHECK(b < d->nblocks && d->blk_dead[b] && nand_die_of_block(d, b) == i,
                  "die %u's dead stack holds block %u, not flagged or not its own", i, b);
        }
    }
    CHECK(flagged == stacked, "%" G_GUINT64_FORMAT " blocks flagged dead, %" G_GUINT64_FORMAT " stacked",
          flagged, stacked);
    if (!check_pslc(d, why, why_len))
        return false;
    /* the wear gauges against the blocks' erase counts */
    DriveWear w;
    drive_wear(d, &w);
    CHECK(w.pool.blocks == 0 || (w.pool.min == d->st.wear_min && w.pool.max == d->st.wear_max &&
                                 w.pool.erases == d->st.wear_erases),
          "pool blocks erased %u to %u times, %" G_GUINT64_FORMAT " in all; gauges say %u to %u, "
          "%" G_GUINT64_FORMAT,
          w.pool.min, w.pool.max, w.pool.erases, d->st.wear_min, d->st.wear_max,
          d->st.wear_erases);
    for (uint32_t k = 0, pos = d->ring_head; k < d->ring_len; k++, pos = (pos + 1) % d->ring_cap)
        if (d->ring[pos] != NO_LPN) {
            live++;
            CHECK(d->l2p[d->ring[pos]] == BUF_MARK + pos, "buffer entry %u is stale but live", pos);
        }
    CHECK(live == d->ring_live, "buffer has %" G_GUINT64_FORMAT " live entries, counter says %u",
          live, d->ring_live);
    return !d->l2pc || l2p_check(d, why, why_len);
}
