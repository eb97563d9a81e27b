/*
 * workload_offset.c - where a job's next I/O goes and how long it is, as
 * fio's io_u.c chooses them: sequential per direction with fio's offset
 * modifier, its end-of-file rule and strided zones; random by the random
 * map (a permutation for one block size, fio's bitmap for several), zipf,
 * pareto, normal, zoned or sequence distributions, mixed with sequential
 * runs by rw=randread:N and percentage_random; the constants these
 * need, made at bind time; and the short paths of a plain job's offsets.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <string.h>

#define WL_ZIPF_EXACT 1000000 /* zeta(n) summed exactly up to here */

/* A keyed bijection on [0, 2^perm_bits): multiply-xorshift rounds, by
 * the job's mask (2^perm_bits - 1) and shift ((perm_bits + 1) / 2). With
 * no bits the mask is 0, and so is the result. x is within the mask, and
 * the keys are as wl_mix_keys makes them: the first within the mask, the
 * multipliers odd. */
static inline uint64_t wl_mix(const WlJob *j, uint64_t x, const uint64_t key[3])
{
    uint64_t m = j->perm_mask;
    unsigned h = j->perm_h;
    x ^= key[0];
    x = (x * key[1]) & m;
    x ^= x >> h;
    x = (x * key[2]) & m;
    x ^= x >> h;
    return x;
}

/* Three keys of wl_mix from the job's generator, made once so that each
 * mix takes them as they are: the first masked, the multipliers odd. */
void wl_mix_keys(WlJob *j, uint64_t key[3])
{
    key[0] = sim_rng_next(&j->rng) & j->perm_mask;
    key[1] = sim_rng_next(&j->rng) | 1;
    key[2] = sim_rng_next(&j->rng) | 1;
}

uint32_t wl_bits_for(uint64_t n)
{
    uint32_t b = 0;
    while (b < 64 && (1ull << b) < n)
        b++;
    return b;
}

/* A bijection on [0, n) by cycle walking, to scatter ranks of skewed
 * distributions over the region as fio's hash does. */
static uint64_t wl_scatter(const WlJob *j, uint64_t x)
{
    do
        x = wl_mix(j, x, j->scatter_key);
    while (x >= j->nblocks);
    return x;
}

/* Random map: walk a fresh keyed permutation of 2^bits values per pass and
 * skip those >= nblocks, so each block comes once per pass. */
static inline uint64_t wl_map_next(WlJob *j)
{
    uint64_t x;
    if (j->ahead_i) { /* drawn already by wl_peek_perm() */
        j->perm_i = j->ahead_i;
        j->ahead_i = 0;
        return j->ahead_x;
    }
    do {
        if (G_UNLIKELY(j->perm_i > j->perm_mask)) { /* 2^perm_bits values walked */
            j->perm_i = 0;
            wl_mix_keys(j, j->perm_key);
        }
        x = wl_mix(j, j->perm_i++, j->perm_key);
    } while (x >= j->nblocks);
    return x;
}

/* fio's zipf (Gray et al.): rank 0 is the most popular. */
static uint64_t wl_zipf_next(WlJob *j)
{
    double theta = j->spec->dist_param, u = sim_rng_double(&j->rng);
    double uz = u * j->zetan;
    if (uz < 1.0)
        return 0;
    if (uz < 1.0 + pow(0.5, theta))
        return 1;
    double v = (double)j->nblocks * pow(j->eta * u - j->eta + 1.0, j->alpha);
    return v >= (double)j->nblocks ? j->nblocks - 1 : (uint64_t)v;
}

/* fio's hash of a rank (hash.h __hash_u64): a multiply by the 64-bit golden
 * ratio, taken modulo the number of blocks by the caller. */
#define WL_GOLDEN_RATIO_64 0x61C8864680B583EBull

/* fio's normal distribution (lib/gauss.c): the mean of 12 uniform draws on
 * [0, n], moved by a uniform deviation of width n * dev / 100 (at most
 * n / 2, halved until it stays below n), then hashed over the region as
 * fio does without random_center: the hot blocks are scattered, not
 * gathered in the middle of the span. */
static uint64_t wl_normal_next(WlJob *j)
{
    uint64_t n = j->nblocks, sum = 0;
    for (int i = 0; i < 12; i++)
        sum += (sim_rng_next(&j->rng) & 0xffffffffu) % (n + 1);
    sum = (sum + 11) / 12;
    uint64_t sd = (uint64_t)ceil((double)n * j->spec->dist_param / 100.0);
    sd = MIN(sd, n / 2);
    if (sd) {
        int64_t dev = (int64_t)((double)sd * sim_rng_double(&j->rng)) - (int64_t)(sd / 2);
        while (sum + (uint64_t)dev >= n && dev)
            dev /= 2;
        sum += (uint64_t)dev;
    }
    return sum * WL_GOLDEN_RATIO_64 % n;
}

static uint64_t wl_random_block(WlJob *j)
{
    switch (j->spec->dist) {
    case WL_DIST_ZIPF:
        return wl_scatter(j, wl_zipf_next(j));
    case WL_DIST_PARETO: {
        double v = (double)(j->nblocks - 1) * pow(sim_rng_double(&j->rng), j->pareto_pow);
        return wl_scatter(j, (uint64_t)v);
    }
    case WL_DIST_NORMAL:
        return wl_normal_next(j);
    case WL_DIST_SEQUENCE: {
        const WorkloadJobSpec *s = j->spec;
        uint64_t i = j->seq_i++, b = s->sequence[i % s->n_sequence];
        if (s->sequence_stride)
            b += i / s->n_sequence * s->n_sequence;
        return b % j->nblocks;
    }
    default:
        return j->spec->norandommap ? sim_rng_below(&j->rng, j->nblocks) : wl_map_next(j);
    }
}

static bool wl_rw_random(WorkloadRw rw)
{
    return rw == WL_RW_RANDREAD || rw == WL_RW_RANDWRITE || rw == WL_RW_RANDRW ||
           rw == WL_RW_RANDTRIM;
}

/* ---- The random map --------------------------------------------------------
 * fio's axmap (workload_frand.c): a bit per unit of the region, set when an
 * I/O covered it. A random pick that lands on a done unit moves to the next
 * free one as fio finds it; an I/O is shortened to the units it newly
 * covers, so a pass covers every byte once. */

/* fio keeps its map for uniform random jobs (not with norandommap); in
 * strided zones it covers a zone and starts again with each. With
 * random_generator=lfsr a job of one block size walks a keyed permutation
 * instead: each block once per pass, as fio's LFSR does, though not in its
 * order. So does such a job whose map would take more than
 * WL_MAP_EXACT_MAX bytes (a region over 32 GiB at 4 KiB): fio's map is a
 * bit per block, and a random pass touches every page of it, so the
 * run's memory would follow the region, not the data written; the job is
 * then fio's in distribution, not I/O for I/O. */
#define WL_MAP_EXACT_MAX ((uint64_t)1 << 20)

void wl_map_bind(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    if (!wl_rw_random(s->rw) || s->dist != WL_DIST_RANDOM || s->norandommap)
        return;
    bool part_seq = false;
    for (int d = 0; d < WL_DIRS; d++)
        part_seq |= s->perc_rand[d] < 100;
    if (s->zone_strided)
        j->map_n = MIN(MAX(s->zonesize / j->unit, 1), j->nblocks);
    else if (j->max_bs == j->unit && !part_seq &&
             (s->lfsr || j->nblocks / 8 > WL_MAP_EXACT_MAX)) {
        j->perm_walk = true;
        return;
    }
    else
        j->map_n = j->nblocks;
    j->map = wl_axmap_new(j->map_n);
}

/* The smallest and largest block of direction d. */
static void wl_bs_dir(const WorkloadJobSpec *s, int d, uint64_t *lo, uint64_t *hi)
{
    if (s->n_bssplit[d]) {
        *lo = UINT64_MAX;
        *hi = 0;
        for (uint32_t i = 0; i < s->n_bssplit[d]; i++) {
            *lo = MIN(*lo, s->bssplit[d][i].bs);
            *hi = MAX(*hi, s->bssplit[d][i].bs);
        }
    } else if (s->bs_min[d]) {
        *lo = s->bs_min[d];
        *hi = s->bs_max[d];
    } else {
        *lo = *hi = s->bs[d];
    }
}

/* What the offsets of a job need that its spec and region fix: each
 * direction's smallest and largest block, the permutation's width, and
 * whether the job is random; once at bind, not per I/O. */
void wl_job_offsets(WlJob *j)
{
    for (int d = 0; d < WL_DIRS; d++)
        wl_bs_dir(j->spec, d, &j->bs_lo[d], &j->bs_hi[d]);
    j->perm_bits = wl_bits_for(j->nblocks);
    j->perm_mask = j->perm_bits >= 64 ? UINT64_MAX : (1ull << j->perm_bits) - 1;
    j->perm_h = (j->perm_bits + 1) / 2;
    j->rand = wl_rw_random(j->spec->rw);
}

/* fio's mark_random_map: the I/O at rel sets its length in bits of its
 * direction's smallest block (though the map counts the job's smallest
 * unit: fio mixes the two when the directions differ), as axmap_set_nr
 * does; the length is cut to the bits it set. */
static uint64_t wl_map_mark(WlJob *j, int d, uint64_t rel, uint64_t len)
{
    uint64_t lo = j->bs_lo[d];
    uint64_t k = wl_axmap_set_nr(j->map, rel / lo, (len + lo - 1) / lo);
    return MIN(len, MAX(k, 1) * lo);
}

/* ---- Positions ------------------------------------------------------------ */

/* fio_file_reset: every direction back to the start of the current zone (or
 * region), no last offset, the random map empty. */
static void wl_file_reset(WlJob *j)
{
    for (int d = 0; d < WL_DIRS; d++) {
        j->last_pos[d] = j->start + j->zone_base;
        j->last_start[d] = UINT64_MAX;
    }
    if (j->map)
        wl_axmap_reset(j->map);
    j->perm_i = 1ull << MIN(j->perm_bits, 63); /* fresh keys on the next draw */
    j->ahead_i = 0;
}

void wl_pass_reset(WlJob *j)
{
    /* fio seeds its generators again at each loop when randrepeat is set */
    if (j->passes == 0 || (j->spec->randrepeat && !j->spec->time_based))
        wl_frand_seed_job(j, j->fr_seed, j->fr_block_seed, j->spec->randrepeat);
    j->zone_base = 0;
    j->zone_done = 0;
    j->pass_ios = 0;
    wl_file_reset(j);
}

/* fio's get_next_seq_offset, on fio's own terms: the job's region is the
 * file, [start, start + size); fo is the file offset (start, moved on by
 * strided zones); positions are absolute. Sets the offset relative to fo;
 * false at the end of the file. The quirks are fio's: a backward walk
 * from a non-zero offset starts at size (not at offset + size), a gap that
 * passes the end wraps to fo (as a relative offset). */
static bool wl_seq_offset(WlJob *j, int d, uint64_t *rel)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t fo = j->start + j->zone_base, io = j->size, real = j->start + j->size;
    uint64_t add = (uint64_t)s->seq_add, lp = j->last_pos[d];
    bool mixed = s->rw == WL_RW_RW || s->rw == WL_RW_RANDRW;
    if (lp >= io + j->start && (s->time_based || (mixed && s->io_size > j->size)))
        lp = j->last_pos[d] = fo;
    if (lp >= real)
        return false;
    bool rewound = lp == fo && fo && s->seq_add < 0;
    if (rewound)
        lp = real > io ? io : real;
    uint64_t pos = lp - fo;
    if (pos && add) {
        pos += add;
        if (pos >= real && s->seq_add < 0 && j->start && !rewound)
            return false; /* fio ends a backward walk from an offset where it wraps */
        if (pos >= real)
            pos = s->seq_add > 0 ? fo : (real > io ? io : real) + add;
    }
    *rel = pos;
    return true;
}

/* fio's last_block: how many blocks of the direction's alignment (its
 * smallest block unless blockalign, into *ba) a random offset is drawn
 * below, so that the smallest block fits at the end. */
static uint64_t wl_last_block(const WlJob *j, int d, uint64_t *ba)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t lo = j->bs_lo[d], span = j->size;
    if (s->zone_strided)
        span = MIN(MAX(s->zonesize / j->unit, 1), j->nblocks) * j->unit;
    *ba = s->blockalign ? s->blockalign : lo;
    if (lo > *ba)
        span -= MIN(span, lo - *ba);
    return span / *ba;
}

/* fio's __get_next_rand_offset: a block below last from the offset
 * generator; with the map, a block done moves to the next free one. */
static bool wl_fio_block(WlJob *j, uint64_t last, uint64_t *b)
{
    *b = (uint64_t)((double)last * wl_frand_unit(&j->fr_off));
    if (j->map && wl_axmap_isset(j->map, *b))
        *b = wl_axmap_next_free(j->map, *b);
    return *b != UINT64_MAX;
}

/* fio's zoned and zoned_abs distributions: a zone by its share of the
 * I/Os (fio's zone generator), then a uniform block within it. */
static bool wl_fio_zoned(WlJob *j, uint64_t last, uint64_t ba, uint64_t *b)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t v = wl_frand_pct(&j->fr_zone), acc = 0, before = 0;
    uint32_t z = 0;
    while (z + 1 < s->n_zones && v > acc + s->zones[z].access_pct) {
        acc += s->zones[z].access_pct;
        before += s->dist == WL_DIST_ZONED ? (uint64_t)s->zones[z].size_pct : s->zones[z].size;
        z++;
    }
    if (s->dist == WL_DIST_ZONED) {
        uint64_t pct = (uint64_t)s->zones[z].size_pct;
        if (!wl_fio_block(j, last * pct / 100, b))
            return false;
        *b += before * last / 100;
        return true;
    }
    uint64_t lo = before / ba, hi = (before + s->zones[z].size) / ba;
    if (hi > last || !wl_fio_block(j, hi - lo, b))
        return false;
    *b += lo;
    return true;
}

/* A random unit relative to fo; false when the random map has none left.
 * Uniform and zoned offsets are fio's, drawn as get_next_rand_offset does:
 * a block of the direction's alignment whose number looks the map up as a
 * bit; the offset is that block times the alignment, and may fall beyond
 * the region, which ends the job. */
static bool wl_rand_offset(WlJob *j, int d, uint64_t *rel, uint64_t *block)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t b, ba, last;
    bool zoned = s->dist == WL_DIST_ZONED || s->dist == WL_DIST_ZONED_ABS;
    if (zoned || (s->dist == WL_DIST_RANDOM && !j->perm_walk)) {
        last = wl_last_block(j, d, &ba);
        if (!last || !(zoned ? wl_fio_zoned(j, last, ba, &b) : wl_fio_block(j, last, &b)))
            return false;
        *block = b;
        *rel = b * ba;
        return true;
    }
    b = wl_random_block(j);
    if (s->zone_strided)
        b %= MAX(s->zonesize / j->unit, 1);
    *block = b;
    *rel = b * j->unit;
    return true;
}

/* percentage_random: is this I/O of a random job at a random offset? */
static bool wl_should_random(WlJob *j, int d)
{
    uint32_t p = j->spec->perc_rand[d];
    return p >= 100 || wl_frand_pct(&j->fr_seq[d]) <= p;
}

/* fio's get_next_buflen: a length for an I/O at off (absolute) that ends
 * within the region; 0 when not even the smallest fits. bsrange draws
 * LOW + U * HIGH, aligned down to LOW (at most HIGH); bssplit takes the
 * first entry (fio's order) whose running share the draw is within, as fio
 * compares them in integers, and that fits. */
static uint64_t wl_buflen(WlJob *j, int d, uint64_t off)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t lo = j->bs_lo[d], hi = j->bs_hi[d], end = j->start + j->size, len = 0;
    WlFrand *f = &j->fr_bs[d];
    if (lo == hi)
        return lo;
    if (off + lo > end)
        return 0;
    uint64_t fmax = f->use64 ? UINT64_MAX : UINT32_MAX;
    do {
        uint64_t r = wl_frand_next(f);
        if (!s->n_bssplit[d]) {
            len = lo + (uint64_t)((double)hi * ((double)r / ((double)fmax + 1.0)));
        } else {
            uint64_t acc = 0;
            for (uint32_t i = 0; i < s->n_bssplit[d]; i++) {
                const WorkloadBsSplit *e = &s->bssplit[d][i];
                if (!e->pct)
                    continue;
                len = e->bs;
                acc += e->pct;
                if (r / acc <= fmax / 100 && off + len <= end)
                    break;
            }
        }
        len -= len % lo;
        len = MIN(len, hi);
    } while (off + len > end);
    return len;
}

/* zonemode=strided, before each I/O (fio's setup_strided_zone_mode): after
 * zonesize bytes the next zone, zoneskip further, wrapping at the end of the
 * region; each zone starts with fresh positions. */
static void wl_zone_step(WlJob *j, int d)
{
    const WorkloadJobSpec *s = j->spec;
    if (j->zone_done >= s->zonesize) {
        j->zone_done = 0;
        j->zone_base += s->zonesize + s->zoneskip;
        if (j->zone_base >= j->size)
            j->zone_base = 0;
        j->last_pos[d] = j->start + j->zone_base;
    }
    if (j->last_pos[d] >= j->start + j->zone_base + s->zonesize)
        j->last_pos[d] = j->start + j->zone_base;
    if (j->zone_done % s->zonesize == 0)
        wl_file_reset(j);
}

/* The I/O at o of l bytes taken in direction d: where the next goes on
 * from, and the zone's and the pass's counts (wl_next_io and the short
 * paths). */
static inline void wl_moved(WlJob *j, int d, uint64_t o, uint64_t l)
{
    j->last_start[d] = o;
    j->last_pos[d] = o + l;
    j->zone_done += l;
    j->pass_ios++;
}

bool wl_next_io(WlJob *j, IoOp op, uint64_t *off, uint64_t *len)
{
    const WorkloadJobSpec *s = j->spec;
    int d = op < WL_DIRS ? (int)op : IO_WRITE;
    uint64_t rel = 0, block = UINT64_MAX, fo;
    bool random = false, hit = true;
    if (s->zone_strided)
        wl_zone_step(j, d);
    fo = j->start + j->zone_base;
    /* rw=randread:N: a random offset every N I/Os, the rest go on from it */
    if (s->seq_nr == 0 || --j->seq_nr_left > 0)
        hit = false;
    else
        j->seq_nr_left = s->seq_nr;
    if (hit && j->rand && wl_should_random(j, d)) {
        if (j->perm_walk) { /* uniform, one block size: wl_rand_offset's walk, here */
            block = wl_map_next(j);
            rel = block * j->unit;
        } else if (!wl_rand_offset(j, d, &rel, &block)) {
            return false;
        }
        random = true;
    } else if (!hit && s->rw_seq_identical && j->rand) {
        rel = j->last_start[d] != UINT64_MAX ? j->last_start[d] - fo : 0;
    } else if (!wl_seq_offset(j, d, &rel)) {
        if (!j->rand || !wl_rand_offset(j, d, &rel, &block))
            return false;
    }
    if (rel >= j->size || fo + rel >= j->start + j->size)
        return false;
    uint64_t o = fo + rel, l;
    if (random && !j->map) { /* the smallest block fits at the end */
        uint64_t lo = j->bs_lo[d];
        if (o + lo > j->start + j->size)
            o = j->start + (j->size - lo) / j->unit * j->unit;
    }
    l = wl_buflen(j, d, o);
    if (!l || o + l > j->start + j->size)
        return false;
    if (random && j->map)
        l = wl_map_mark(j, d, rel, l);
    wl_moved(j, d, o, l);
    *off = o;
    *len = l;
    return true;
}

/* ---- The short paths of a plain job ----------------------------------------
 * Two kinds of job take their offsets without wl_next_io's tests of the
 * options they do not use (workload.c picks with these once the job is
 * plain): a uniform random job that walks the permutation at every I/O,
 * and a sequential job of one direction without an offset modifier. Both
 * give the offset and length wl_next_io would, and change the state that
 * the job's later I/Os read. */

/* The direction's block fits the unit: the walk's block, times the unit,
 * leaves room for it at the end of the region. */
static bool wl_fast_dir(const WlJob *j, int d, bool perm)
{
    return j->bs_lo[d] == j->bs_hi[d] && (!perm || j->bs_lo[d] <= j->unit) &&
           (!perm || j->spec->perc_rand[d] >= 100);
}

uint8_t wl_fast_kind(const WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    bool mixed = j->fixed_op == WL_OP_MIXED;
    if (s->zone_strided)
        return WL_FAST_NONE;
    if (j->perm_walk && s->seq_nr == 1) {
        /* seq_nr 1: every I/O is at random, seq_nr_left stays 1 */
        bool ok = mixed ? wl_fast_dir(j, IO_READ, true) && wl_fast_dir(j, IO_WRITE, true)
                        : wl_fast_dir(j, j->fixed_op, true);
        return ok ? WL_FAST_PERM : WL_FAST_NONE;
    }
    if (!j->rand && !mixed && s->seq_add == 0 && wl_fast_dir(j, j->fixed_op, false))
        return WL_FAST_SEQ;
    return WL_FAST_NONE;
}

/* The offset wl_next_perm() will give next, drawn now and kept for it
 * (the same draw: the permutation's keys and index are the job's alone);
 * UINT64_MAX where that draw takes fresh keys, left to it. */
uint64_t wl_peek_perm(WlJob *j)
{
    for (uint64_t i = j->perm_i; i <= j->perm_mask; i++) {
        uint64_t x = wl_mix(j, i, j->perm_key);
        if (x < j->nblocks) {
            j->ahead_i = i + 1;
            j->ahead_x = x;
            return j->start + x * j->unit;
        }
    }
    return UINT64_MAX;
}

/* WL_FAST_PERM: the next block of the walk, which never ends a pass. Not
 * moved on (wl_moved): every I/O of such a job is at random, so no offset
 * goes on from the last, and its pass ends only with the job. */
void wl_next_perm(WlJob *j, IoOp op, uint64_t *off, uint64_t *len)
{
    *off = j->start + wl_map_next(j) * j->unit;
    *len = j->bs_lo[op];
}

/* WL_FAST_SEQ: the block after the last one; false, with nothing changed,
 * when it would not fit before the region's end (wl_next_io decides then).
 * Of wl_moved's counts only the position and the pass's I/Os: the I/O's
 * start is read by random jobs only, the zone's count by strided zones. */
bool wl_next_seq(WlJob *j, IoOp op, uint64_t *off, uint64_t *len)
{
    uint64_t o = j->last_pos[op], l = j->bs_lo[op];
    if (o + l > j->start + j->size)
        return false;
    j->last_pos[op] = o + l;
    j->pass_ios++;
    *off = o;
    *len = l;
    return true;
}

/* The block range of each zone of random_distribution=zoned / zoned_abs. */
gboolean wl_job_zones(WlJob *j, GError **error)
{
    const WorkloadJobSpec *s = j->spec;
    if (s->dist == WL_DIST_SEQUENCE && s->n_sequence == 0)
        return TRUE;
    if (s->dist != WL_DIST_ZONED && s->dist != WL_DIST_ZONED_ABS)
        return TRUE;
    double pct = 0;
    uint64_t lo = 0;
    for (uint32_t z = 0; z < s->n_zones; z++) {
        uint64_t hi;
        if (s->dist == WL_DIST_ZONED) {
            pct += s->zones[z].size_pct;
            hi = z + 1 == s->n_zones ? j->nblocks : (uint64_t)((double)j->nblocks * pct / 100.0);
        } else {
            hi = lo + s->zones[z].size / j->unit;
        }
        if (hi <= lo || hi > j->nblocks) {
            g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_BIND,
                        "job \"%s\": option \"random_distribution\": zone %u holds no block of "
                        "the job's region of %" G_GUINT64_FORMAT " bytes (or ends beyond it)",
                        j->name, z + 1, j->size);
            return FALSE;
        }
        j->zlo[z] = lo;
        j->zn[z] = hi - lo;
        lo = hi;
    }
    return TRUE;
}

/* Constants of the skewed distributions over nblocks ranks. */
void wl_job_dist(WlJob *j)
{
    const WorkloadJobSpec *s = j->spec;
    double n = (double)j->nblocks, th = s->dist_param;
    if (s->dist == WL_DIST_PARETO)
        j->pareto_pow = log(th) / log(1.0 - th);
    if (s->dist != WL_DIST_ZIPF)
        return;
    uint64_t exact = MIN(j->nblocks, (uint64_t)WL_ZIPF_EXACT);
    double z = 0;
    for (uint64_t i = 1; i <= exact; i++)
        z += pow((double)i, -th);
    if (j->nblocks > exact) /* the tail by its integral */
        z += (pow(n + 0.5, 1 - th) - pow((double)exact + 0.5, 1 - th)) / (1 - th);
    j->zetan = z;
    j->zeta2 = 1.0 + pow(0.5, th);
    j->alpha = 1.0 / (1.0 - th);
    j->eta = (1.0 - pow(2.0 / n, 1.0 - th)) / (1.0 - j->zeta2 / z);
}

