/*
 * map_tab.h - the L2P and P2L tables: what their values mean, and reading
 * and writing one entry (models/map_store.c).
 *
 * Values are 64-bit whatever the width of the entries that store them. The
 * entry functions are inline: a lookup is on every per-page path.
 */
#ifndef FTLSIM_MAP_TAB_H
#define FTLSIM_MAP_TAB_H

#include "models/parts.h"
#include "models/vec.h"

#define NO_SLOT UINT64_MAX
#define NO_LPN UINT64_MAX
/* L2P values at or above BUF_MARK mean "in the write buffer at ring
 * position value - BUF_MARK"; slot numbers stay below it. */
#define BUF_MARK (UINT64_MAX - (1u << 22))
/* Narrow entries store 32-bit values: BUF_MARK32 - 1 and up stand for
 * BUF_MARK - 1 and up, so a drive uses them when its slots stay below. */
#define BUF_MARK32 (UINT32_MAX - (1u << 22))

/* The map's chunk directories, held by the drive record (models/parts.c)
 * so that an entry is two loads from the drive: a chunk's part is
 * allocated on its first write (models/map.c), and a lookup in an absent
 * chunk is answered from the directory alone. Entries hold values
 * complemented, 0 for none: 4 bytes where the drive's slots and lpns fit
 * 32 bits (narrow), else 8.
 *
 * Where every chunk is dense (a drive mapped at random), the parts lie in
 * order in one flat table, which the drive holds too: an entry is then
 * one index into it, as in a plain array (the directory still points
 * into it). */
#define MAP_CHUNK_BITS 12
#define MAP_CHUNK (1u << MAP_CHUNK_BITS)
void **drive_l2p_dir(const Drive *d); /* per chunk of lpns: its dense part, or NULL */
void **drive_p2l_dir(const Drive *d); /* per chunk of slots: its entries, or NULL */
void *drive_l2p_flat(const Drive *d); /* every lpn's entry, or NULL */
void *drive_p2l_flat(const Drive *d); /* every slot's entry, or NULL */
bool drive_map_narrow(const Drive *d);
void drive_set_map_dirs(Drive *d, void **l2p, void **p2l, bool narrow);
void drive_set_map_flat(Drive *d, void *l2p, void *p2l);
/* The end of the lpns the prefill formula gives (0: none): an empty entry
 * of a dense part from here on is unmapped, without asking the store. */
uint64_t drive_map_pf_end(const Drive *d);
void drive_set_map_pf_end(Drive *d, uint64_t end);
uint64_t *drive_mapped(const Drive *d);  /* lpns mapped (to NAND or buffer) */

/* An override saying "unmapped" where the formula gives a slot: in the
 * range no slot or ring position takes. */
#define MAP_UNMAPPED (BUF_MARK - 1)

/* The out-of-line paths of the entry functions below (models/map_store.c):
 * an lpn or slot whose chunk has no dense part, or whose entry is empty. */
uint64_t map_get_sparse(const Drive *d, uint64_t lpn);
void map_put_sparse(Drive *d, uint64_t lpn, uint64_t v);
/* map_get() then map_put() in one lookup, lpn's chunk without a dense
 * part: of a slot (the program of a buffered page), and of a buffer mark
 * unless the entry holds one already (a page entering the buffer). Both
 * return the entry as map_get() gave it before. */
uint64_t map_set_sparse(Drive *d, uint64_t lpn, uint64_t slot);
uint64_t map_mark_sparse(Drive *d, uint64_t lpn, uint64_t mark);
uint64_t map_lpn_of_sparse(const Drive *d, uint64_t slot); /* NO_LPN if the slot is not valid */
void map_put_lpn_new(Drive *d, uint64_t slot, uint64_t lpn);
void map_prefetch_sparse(const Drive *d, uint64_t lpn);

/* One entry: map_get(), map_put(), map_lpn_of() (NO_LPN if the slot is not
 * valid), map_put_lpn(), and map_prefetch_one() and map_prefetch_slot(),
 * which warm lpn's entry or slot's P2L entry, to be read or set soon. */
/* An L2P entry of a dense part, complemented (0: none). Narrow entries
 * keep the low 32 bits: those of a value at or above MAP_UNMAPPED widen with
 * ones above, those of a slot with zeroes, so the complement gets ones. */
static inline uint64_t l2p_ent(const void *p, size_t o, bool narrow)
{
    if (!narrow)
        return ((const uint64_t *)p)[o];
    uint32_t s = ((const uint32_t *)p)[o];
    return s == 0 || ~s >= BUF_MARK32 - 1 ? s : s | 0xffffffff00000000ull;
}

static inline void l2p_ent_set(void *p, size_t o, bool narrow, uint64_t s)
{
    if (narrow)
        ((uint32_t *)p)[o] = (uint32_t)s;
    else
        ((uint64_t *)p)[o] = s;
}

/* A P2L entry, complemented (0: none): an lpn's, or P2L_DEAD for a slot
 * invalidated since its block was erased (no formula or run to look at:
 * GC scanning a victim finds most of its slots so). */
#define P2L_DEAD 1u
static inline uint64_t p2l_ent(const void *p, size_t o, bool narrow)
{
    if (!narrow)
        return ((const uint64_t *)p)[o];
    uint32_t s = ((const uint32_t *)p)[o];
    return s > P2L_DEAD ? s | 0xffffffff00000000ull : s;
}

static inline void p2l_ent_set(void *p, size_t o, bool narrow, uint64_t s)
{
    if (narrow)
        ((uint32_t *)p)[o] = (uint32_t)s;
    else
        ((uint64_t *)p)[o] = s;
}


/* Ask for the cache line at a, to be written soon. GCC counts a prefetch
 * as no side effect: a function that only prefetches is found pure, and
 * link-time optimization then deletes every call of it whose caller it
 * was not inlined into (map_relocate()'s and the write path's, measured:
 * each of their lookups became a miss). The empty volatile asm that takes
 * the address is a side effect that costs no instruction. */
static inline void warm_line(const void *a)
{
    __builtin_prefetch(a, 1);
    __asm__ volatile("" : : "r"(a));
}

/* Entry o of a table of narrow or wide entries: its address. */
static inline const void *map_ent_at(const void *p, size_t o, bool narrow)
{
    return narrow ? (const void *)((const uint32_t *)p + o) : (const void *)((const uint64_t *)p + o);
}

/* The dense part of lpn's chunk (its entries one load or store each, at
 * lpn % MAP_CHUNK), NULL if the chunk has none; the directory points into
 * the flat table too, where there is one. */
static inline void *map_dense_part(const Drive *d, uint64_t lpn)
{
    return drive_l2p_dir(d)[lpn >> MAP_CHUNK_BITS];
}

/* lpn's entry o of a dense part or the flat table p, whose entries are
 * narrow or not (a constant where a caller's loop is made for each). */
static inline uint64_t map_dense_get_as(const Drive *d, const void *p, size_t o, uint64_t lpn,
                                        bool narrow)
{
    uint64_t s = l2p_ent(p, o, narrow);
    if (G_UNLIKELY(s == 0)) /* a stream in order finds its chunk's next pages so */
        return lpn >= drive_map_pf_end(d) ? NO_SLOT : map_get_sparse(d, lpn);
    return ~s == MAP_UNMAPPED ? NO_SLOT : ~s;
}

static inline uint64_t map_dense_get(const Drive *d, const void *p, size_t o, uint64_t lpn)
{
    return map_dense_get_as(d, p, o, lpn, drive_map_narrow(d));
}

/* The table that holds lpn's entry, at *o: the flat table, or the dense
 * part of lpn's chunk; NULL if the chunk has none. A caller that reads an
 * entry and then sets it (map_dense_get(), map_dense_set()) looks it up
 * once. */
static inline void *map_entry_table(const Drive *d, uint64_t lpn, size_t *o)
{
    void *f = drive_l2p_flat(d);
    if (G_LIKELY(f != NULL)) {
        *o = lpn;
        return f;
    }
    *o = lpn & (MAP_CHUNK - 1);
    return drive_l2p_dir(d)[lpn >> MAP_CHUNK_BITS];
}

/* Set entry o of a dense part or the flat table p to v (not NO_SLOT). */
static inline void map_dense_set(const Drive *d, void *p, size_t o, uint64_t v)
{
    l2p_ent_set(p, o, drive_map_narrow(d), ~v);
}

/* Set the n entries from o of a dense part or the flat table p to v, v + 1
 * and so on (not NO_SLOT): stored complemented, each one less than the
 * one before. Four a store where narrow: a unit of a stream in order, or
 * its marks. */
static inline void map_dense_fill(const Drive *d, void *p, size_t o, uint32_t n, uint64_t v)
{
    uint32_t k = 0;
    if (drive_map_narrow(d)) {
        uint32_t *e = (uint32_t *)p + o, s = (uint32_t)~v;
        Vec32x4 s4 = s - (Vec32x4){0, 1, 2, 3};
#pragma GCC unroll 2
        for (; k + 4 <= n; k += 4, s4 -= 4)
            vec32_store(e + k, s4);
        for (; k < n; k++)
            e[k] = s - k;
    } else { /* wide entries: drives too large for narrow ones, and tests */
        uint64_t *e = (uint64_t *)p + o;
        for (; k < n; k++)
            e[k] = ~v - k;
    }
}

/* How many of the n entries from o of a dense part or the flat table p,
 * from the first on, are empty (nothing stored there since the part was
 * made: a stream in order finds the pages it writes next so). Eight at a
 * time (two loads where narrow) while all eight are, then one by one. */
static inline uint32_t map_dense_empty(const Drive *d, const void *p, size_t o, uint32_t n)
{
    uint32_t k = 0;
    if (drive_map_narrow(d)) {
        const uint32_t *e = (const uint32_t *)p + o;
        while (k + 8 <= n && vec_zero((Vec64x2)(vec32_load(e + k) | vec32_load(e + k + 4))))
            k += 8;
        while (k < n && e[k] == 0)
            k++;
    } else {
        const uint64_t *e = (const uint64_t *)p + o;
        while (k + 8 <= n && (e[k] | e[k + 1] | e[k + 2] | e[k + 3] | e[k + 4] | e[k + 5] |
                              e[k + 6] | e[k + 7]) == 0)
            k += 8;
        while (k < n && e[k] == 0)
            k++;
    }
    return k;
}

/* map_dense_empty() and map_dense_fill() in one pass: of the n entries
 * from o of a dense part or the flat table p, those empty from the first
 * on are set to v, v + 1 and so on, and their lpns (lpn, lpn + 1 and so
 * on) stored at r[0], r[1] and on (the write buffer's ring, whose marks
 * they take); returns how many. Eight a step where narrow while all eight
 * are empty: a stream in order writing its chunk's next pages reads and
 * stores each of their entries once. */
static inline uint32_t map_dense_claim(const Drive *d, void *p, size_t o, uint32_t n, uint64_t v,
                                       uint64_t *r, uint64_t lpn)
{
    size_t k = 0;
    if (!drive_map_narrow(d)) {
        k = map_dense_empty(d, p, o, n);
        map_dense_fill(d, p, o, (uint32_t)k, v);
        for (size_t i = 0; i < k; i++)
            r[i] = lpn + i;
        return (uint32_t)k;
    }
    uint32_t *e = (uint32_t *)p + o, s = (uint32_t)~v;
    Vec32x4 s0 = s - (Vec32x4){0, 1, 2, 3}, s1 = s0 - 4;
    Vec64x2 l0 = lpn + (Vec64x2){0, 1}, l1 = l0 + 2, l2 = l0 + 4, l3 = l0 + 6;
    for (size_t n8 = n & ~7u; k < n8; k += 8) {
        /* tested as four words: fewer steps than two vectors' or */
        uint64_t w0, w1, w2, w3;
        memcpy(&w0, e + k, 8);
        memcpy(&w1, e + k + 2, 8);
        memcpy(&w2, e + k + 4, 8);
        memcpy(&w3, e + k + 6, 8);
        if ((w0 | w1 | w2 | w3) != 0)
            break;
        vec32_store(e + k, s0);
        vec32_store(e + k + 4, s1);
        vec64_store(r + k, l0);
        vec64_store(r + k + 2, l1);
        vec64_store(r + k + 4, l2);
        vec64_store(r + k + 6, l3);
        s0 -= 8, s1 -= 8;
        l0 += 8, l1 += 8, l2 += 8, l3 += 8;
    }
    for (; k < n && e[k] == 0; k++) {
        e[k] = s - (uint32_t)k;
        r[k] = lpn + k;
    }
    return (uint32_t)k;
}

/* Whether the n entries from o of a dense part or the flat table p all
 * hold buffer marks (a program of a unit the buffer held: nothing to
 * invalidate or count). A mark's complement is 1 to 2^22 in either width
 * (BUF_MARK, BUF_MARK32): each less 1 has no bit from 22 up, and neither
 * has their or; one pass without a branch an entry, four a step (one
 * load where narrow). */
static inline bool map_dense_marks(const Drive *d, const void *p, size_t o, uint32_t n)
{
    uint64_t any = 0;
    uint32_t k = 0;
    if (drive_map_narrow(d)) {
        const uint32_t *e = (const uint32_t *)p + o;
        Vec32x4 any4 = {0, 0, 0, 0};
#pragma GCC unroll 2
        for (; k + 4 <= n; k += 4)
            any4 |= vec32_load(e + k) - 1;
        any = vec32_or(any4);
        for (; k < n; k++)
            any |= (uint32_t)(e[k] - 1);
    } else {
        const uint64_t *e = (const uint64_t *)p + o;
        for (; k + 4 <= n; k += 4)
            any |= (e[k] - 1) | (e[k + 1] - 1) | (e[k + 2] - 1) | (e[k + 3] - 1);
        for (; k < n; k++)
            any |= e[k] - 1;
    }
    return any >> 22 == 0;
}

/* On every per-page path, inlined into their callers: one load from the
 * drive (the flat table) or two (a chunk's part) reach an entry, and the
 * rest stays out of line (map_store.c). */
static inline uint64_t map_get(const Drive *d, uint64_t lpn)
{
    size_t o;
    const void *p = map_entry_table(d, lpn, &o);
    if (G_LIKELY(p != NULL))
        return map_dense_get(d, p, o, lpn);
    return map_get_sparse(d, lpn);
}

static inline void map_put(Drive *d, uint64_t lpn, uint64_t v)
{
    size_t o;
    void *p = map_entry_table(d, lpn, &o);
    if (G_LIKELY(p != NULL && v != NO_SLOT))
        map_dense_set(d, p, o, v);
    else
        map_put_sparse(d, lpn, v);
}

/* slot's P2L entry o of a part or the flat table p (not NULL), whose
 * entries are narrow or not (map_dense_get_as()). */
static inline uint64_t map_lpn_at_as(const Drive *d, const void *p, size_t o, uint64_t slot,
                                     bool narrow)
{
    uint64_t s = p2l_ent(p, o, narrow);
    if (s > P2L_DEAD)
        return ~s;
    if (s == P2L_DEAD)
        return NO_LPN;
    return map_lpn_of_sparse(d, slot);
}

static inline uint64_t map_lpn_at(const Drive *d, const void *p, size_t o, uint64_t slot)
{
    return map_lpn_at_as(d, p, o, slot, drive_map_narrow(d));
}

static inline uint64_t map_lpn_of(const Drive *d, uint64_t slot)
{
    const void *f = drive_p2l_flat(d);
    if (G_LIKELY(f != NULL))
        return map_lpn_at(d, f, slot, slot);
    const void *p = drive_p2l_dir(d)[slot >> MAP_CHUNK_BITS];
    if (G_LIKELY(p != NULL))
        return map_lpn_at(d, p, slot & (MAP_CHUNK - 1), slot);
    return map_lpn_of_sparse(d, slot);
}

/* A prefilled slot or one of a run turns invalid by its lpn's L2P entry
 * alone, and one with no part has nothing to clear: NO_LPN is stored only
 * where a part is, as P2L_DEAD (the block's erase clears it). */
static inline void map_put_lpn(Drive *d, uint64_t slot, uint64_t lpn)
{
    uint64_t s = lpn == NO_LPN ? P2L_DEAD : ~lpn;
    void *f = drive_p2l_flat(d);
    if (G_LIKELY(f != NULL)) {
        p2l_ent_set(f, slot, drive_map_narrow(d), s);
        return;
    }
    void *p = drive_p2l_dir(d)[slot >> MAP_CHUNK_BITS];
    if (G_LIKELY(p != NULL))
        p2l_ent_set(p, slot & (MAP_CHUNK - 1), drive_map_narrow(d), s);
    else if (lpn != NO_LPN)
        map_put_lpn_new(d, slot, lpn);
}

static inline void map_prefetch_one(const Drive *d, uint64_t lpn)
{
    const void *f = drive_l2p_flat(d);
    if (G_LIKELY(f != NULL)) {
        warm_line(map_ent_at(f, lpn, drive_map_narrow(d)));
        return;
    }
    const void *p = drive_l2p_dir(d)[lpn >> MAP_CHUNK_BITS];
    if (G_LIKELY(p != NULL))
        warm_line(map_ent_at(p, lpn & (MAP_CHUNK - 1), drive_map_narrow(d)));
    else
        map_prefetch_sparse(d, lpn);
}

/* map_prefetch_one() of an lpn looked up later than the next one, without
 * the load of its chunk's directory entry (a miss to wait on): the lines
 * it will read are asked for, and map_prefetch_one() of it when it is next
 * finds them in the cache and asks for a dense part's entry. */
static inline void map_prefetch_ahead(const Drive *d, uint64_t lpn)
{
    const void *f = drive_l2p_flat(d);
    if (G_LIKELY(f != NULL))
        warm_line(map_ent_at(f, lpn, drive_map_narrow(d)));
    else
        map_prefetch_sparse(d, lpn);
}

static inline void map_prefetch_slot(const Drive *d, uint64_t slot)
{
    const void *f = drive_p2l_flat(d);
    if (G_LIKELY(f != NULL)) {
        warm_line(map_ent_at(f, slot, drive_map_narrow(d)));
        return;
    }
    const void *p = drive_p2l_dir(d)[slot >> MAP_CHUNK_BITS];
    if (p != NULL)
        warm_line(map_ent_at(p, slot & (MAP_CHUNK - 1), drive_map_narrow(d)));
}

#endif
