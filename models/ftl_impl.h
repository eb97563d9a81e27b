/*
 * ftl_impl.h - the inside of a Drive, shared by the model files.
 *
 * Private to models/: the host side sees only drive.h. Everything per page
 * or per block lives in flat arrays indexed by integers (struct of arrays);
 * per-command and per-operation records come from pools sized at creation
 * and grown only to the run's peak, so the event loop does not allocate.
 *
 * Address layout (documented in nand.c): a physical 4 KiB slot number is
 *     slot = block * slots_per_block + index_in_block
 *     block = die * blocks_per_die + block_in_die
 *     die = channel + channels * (ce + ces_per_channel * die_in_ce)
 * where a block is a multi-plane block (the same block of every plane of a
 * die, programmed, read and erased together) and index_in_block runs over
 * program units in order: unit * unit_slots + (plane * pages_per_wl + page)
 * * slots_per_page + slot_in_page.
 */
#ifndef FTLSIM_FTL_IMPL_H
#define FTLSIM_FTL_IMPL_H

#include "models/drive.h"
#include "models/parts.h"
#include "models/cmd.h"
#include "models/blocks.h"
#include "models/sched.h"

#define NO_SLOT UINT32_MAX
#define NO_LPN UINT32_MAX
/* L2P values at or above BUF_MARK mean "in the write buffer at ring
 * position value - BUF_MARK"; slot numbers stay below it. */
#define BUF_MARK (UINT32_MAX - (1u << 22))

struct Drive {
    SimEngine *eng;
    DriveParams p;
    DriveStats st;

    Geom g;
    void *part[DRIVE_PARTS];

    /* mapping */
    /* Both tables hold every value complemented (map_get() and friends
     * below): memory fresh from the kernel reads as zero, which is NO_SLOT
     * and NO_LPN, so the tables are never filled, and a run pays in memory
     * and time only for the parts of them it writes. */
    uint32_t *l2p_tab; /* nlpn: slot, NO_SLOT, or BUF_MARK + ring position */
    uint32_t *p2l_tab; /* nslots: lpn or NO_LPN (slot not valid) */
    uint64_t mapped; /* lpns mapped (to NAND or buffer) */

    struct Wear *wear;    /* erase counts and wear leveling (wear.c) */


    /* host interface */
    struct Link *link;    /* host link and controller timelines (link.c) */

    struct Wbuf *wb;      /* the write buffer (ftl.c) */
    struct Sched *sched;   /* die operations and the priority table (sched.c) */
    uint32_t host_reader;  /* sched_read() client of host command reads */

    /* pSLC cache (pslc.c) */
    struct Pslc *pslc;

    /* mapping cache (l2p_cache.c; NULL with l2p_kind dram) and deferred TRIM (trim.c) */
    struct L2pCache *l2pc;
    struct TrimQueue *trimq;

    /* test hook: called for every slot programmed (src NO_SLOT: from the buffer) */
    void (*place_hook)(void *ctx, uint32_t lpn, uint32_t dst, uint32_t src);
    void *place_ctx;
};

/* For the invariant checkers (bool f(..., char *why, size_t why_len)): when
 * cond is false, describe it in why and return false. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (why)                                                                               \
                g_snprintf(why, why_len, __VA_ARGS__);                                             \
            return false;                                                                          \
        }                                                                                          \
    } while (0)

/* nand.c */
void nand_init(Drive *d);
/* slots block b holds in its current mode */
uint32_t nand_take_free(Drive *d, uint32_t die, CellMode m);
uint32_t nand_take_static(Drive *d, uint32_t die); /* a free static SLC block or NO_BLOCK */
void nand_put_free(Drive *d, uint32_t b);
void nand_erased(void *ctx, uint32_t b); /* erase completion: freed, and the dies offered work */

/* chan.c */
void chan_init(Drive *d);
void chan_release(Drive *d);
SimTime chan_start(const Drive *d, uint32_t die, SimTime ready);
SimTime chan_xfer(Drive *d, uint32_t die, SimTime ready, uint64_t bytes); /* returns end */

/* link.c: the host link and controller timelines */
void link_init(Drive *d);
void link_release(Drive *d);
SimTime link_xfer_ns(const Drive *d, uint64_t bytes, int to_device);
SimTime link_xfer(Drive *d, SimTime ready, uint64_t bytes, int to_device); /* returns end */
/* The bytes of one transfer after its first `before`: what they add to it (returns end). */
SimTime link_xfer_part(Drive *d, SimTime ready, uint64_t before, uint64_t bytes, int to_device);
SimTime link_controller(Drive *d, SimTime cost);                            /* returns end */

/* map.c; the tables store values complemented (see Drive) */
static inline uint32_t map_get(const Drive *d, uint64_t lpn) { return ~d->l2p_tab[lpn]; }
static inline void map_put(Drive *d, uint64_t lpn, uint32_t v) { d->l2p_tab[lpn] = ~v; }
static inline uint32_t map_lpn_of(const Drive *d, uint64_t slot) { return ~d->p2l_tab[slot]; }
static inline void map_put_lpn(Drive *d, uint64_t slot, uint32_t lpn) { d->p2l_tab[slot] = ~lpn; }
void map_invalidate_slot(Drive *d, uint32_t slot);
void map_set_run(Drive *d, const uint32_t *lpns, uint32_t n, uint32_t slot); /* n slots of one block */
void map_prefetch(const Drive *d, const uint32_t *lpns, uint32_t n); /* warm the map entries of lpns */
/* Move up to one native unit of valid slots of block v from *cursor into dst. */
uint32_t map_relocate(Drive *d, uint32_t v, uint32_t *cursor, uint32_t dst, uint32_t *open,
                      uint32_t *pages);

/* ftl.c */
void ftl_read_piece_done(Drive *d, uint32_t cmd);
void ftl_init(Drive *d); /* the write buffer; registers host reads and host programs with the scheduler */
void ftl_release(Drive *d);
uint64_t ftl_unmap(Drive *d, uint64_t first, uint64_t end); /* lpns [first, end); returns how many were mapped */
/* The write buffer's invariants: buffered lpns and ring entries agree. */
bool ftl_check(const Drive *d, char *why, size_t why_len);
uint64_t ftl_buffered_bytes(const Drive *d); /* host data in the write buffer, not yet programmed */
void ftl_unmapped(Drive *d); /* after ftl_unmap: buffer space freed may admit writes, complete flushes */
CellMode ftl_host_mode(Drive *d, uint32_t die);
void ftl_write_arrive(Drive *d, uint32_t cmd); /* after the controller took the command */
void ftl_write_start(Drive *d, uint32_t cmd);
void ftl_read_start(Drive *d, uint32_t cmd);
void ftl_flush_start(Drive *d, uint32_t cmd);
uint64_t ftl_trim(Drive *d, uint64_t offset, uint64_t length);

/* gc.c */
uint32_t gc_pick_victim(Drive *d, uint32_t die);
bool gc_needed(const Drive *d, uint32_t die, bool hard);
bool gc_step(Drive *d, uint32_t die); /* starts one die operation; false if nothing to do */
bool gc_reclaim_dead(Drive *d, uint32_t die); /* erases a full block with no valid data */
void gc_init(Drive *d); /* registers GC's work with the scheduler */
void gc_release(Drive *d);
void gc_set_ratio(Drive *d, uint32_t die, double ratio);
bool gc_paced(const Drive *d, uint32_t die); /* below the soft threshold: host programs owe GC */
void gc_owe(Drive *d, uint32_t die, bool paced, uint32_t slots);

/* pslc.c: cache sizing, where host data goes, idle detection */
void pslc_init(Drive *d);
void pslc_release(Drive *d);
bool pslc_has_cache(const Drive *d); /* a static or dynamic part exists */
bool pslc_idle_folding(const Drive *d); /* the host has been idle for fold_idle_delay */
bool pslc_exhausted(const Drive *d, uint32_t die); /* the die's cache ran out */
bool pslc_fold_owed(const Drive *d, uint32_t die); /* active folding owed for host data written */
void pslc_folded(Drive *d, uint32_t die, uint32_t slots); /* a fold moved slots: pays the credit */
uint32_t pslc_dyn_limit(const Drive *d, uint32_t die); /* dynamic SLC blocks the rule allows now */
bool pslc_check(const Drive *d, char *why, size_t why_len); /* the pSLC counters */
void pslc_update_limit(Drive *d, uint32_t die); /* after the die's free or SLC blocks changed */
int pslc_host_stream(Drive *d, uint32_t die);   /* STREAM_SSLC, STREAM_SLC or STREAM_HOST */
void pslc_host_programmed(Drive *d, uint32_t die, int stream, uint32_t slots);
uint32_t pslc_slc_blocks(const Drive *d, uint32_t die); /* SLC blocks in use, static + dynamic */
bool pslc_fold_active(const Drive *d, uint32_t die);    /* fold_first / watermark folding now */
bool pslc_fold_forced(const Drive *d, uint32_t die);    /* SLC data no longer foldable with margin */
void pslc_host_busy(Drive *d);  /* a host command arrived */
void pslc_host_quiet(Drive *d); /* no host command outstanding */
void pslc_trimmed(Drive *d);    /* a TRIM unmapped data: re-arm the cache */

/* fold.c: moving valid SLC data into native blocks, die-local */
/* One fold operation on die (a program unit moved, or an empty SLC block
 * erased). dyn_only restricts victims to dynamic blocks; take_open allows
 * closing an open SLC block to fold it. False if nothing could start. */
bool fold_step(Drive *d, uint32_t die, bool dyn_only, bool take_open);
void fold_init(Drive *d); /* registers folding with the scheduler (after pslc_init) */
void fold_release(Drive *d);

/* l2p_cache.c: which translation pages are cached, their NAND copies */
void l2p_cache_init(Drive *d);    /* sets d->l2pc (NULL for dram) */
void l2p_cache_release(Drive *d);
/* Make the translation pages of lpns [first, last] resident for command c.
 * True if it may go on now; else the function given to l2p_on_translated()
 * is called with c later. */
bool l2p_translate(Drive *d, uint32_t c, uint64_t first, uint64_t last);
void l2p_on_translated(Drive *d, void (*fn)(void *ctx, uint32_t cmd), void *ctx);
/* The table changed at lpn: the cached copy of its translation page turns
 * dirty, loaded first (in the background) if it is not cached. True on a miss. */
bool l2p_update(Drive *d, uint64_t lpn);
bool l2p_flush_step(Drive *d, uint32_t die);           /* program queued dirty translation pages */
/* Collect the die's victim, a map block: one step; *moved: slots it moves. */
bool l2p_gc_step(Drive *d, uint32_t die, uint32_t *slots_moved);
SimTime l2p_load_ns(const Drive *d);                   /* time to load one translation page */
uint64_t l2p_entries_per_tpage(const Drive *d);
bool l2p_check(const Drive *d, char *why, size_t why_len);
void l2p_host_command(Drive *d); /* before the first: store a prefilled table as translation pages */

/* trim.c: TRIM commands, immediate or deferred to idle time */
void trim_init(Drive *d);
void trim_release(Drive *d);
void trim_start(Drive *d, uint32_t cmd);
void trim_idle(Drive *d); /* no host command outstanding: deferred work may run */

/* hostif.c */
void hostif_init(Drive *d); /* registers the completion handler with cmd.c */
void hostif_release(Drive *d);

#endif
