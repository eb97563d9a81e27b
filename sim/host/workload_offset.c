/*
 * workload_offset.c - where a job's next I/O goes and how long it is, as
 * fio's io_u.c chooses them: sequential per direction with fio's offset
 * modifier, its end-of-file rule and strided zones; random by the random
 * map (a permutation for one block size, fio's bitmap for several), zipf,
 * pareto, normal, zoned or sequence distributions, mixed with sequential
 * runs by rw=randread:N and percentage_random; and the constants these
 * need, made at bind time.
 */
#include "sim/host/workload_priv.h"

#include <math.h>
#include <string.h>

#define WL_ZIPF_EXACT 1000000 /* zeta(n) summed exactly up to here */

/* A keyed bijection on [0, 2^bits): multiply-xorshift rounds. */
static uint64_t wl_mix(uint64_t x, uint32_t bits, const uint64_t key[3])
{
    if (bits == 0)
        return 0;
    uint64_t m = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    unsigned h = (bits + 1) / 2;
    x = (x ^ key[0]) & m;
    x = (x * (key[1] | 1)) & m;
    x ^= x >> h;
    x = (x * (key[2] | 1)) & m;
    x ^= x >> h;
    return x;
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
    uint32_t bits = wl_bits_for(j->nblocks);
    do
        x = wl_mix(x, bits, j->scatter_key);
    while (x >= j->nblocks);
    return x;
}

/* Random map: walk a fresh keyed permutation of 2^bits values per pass and
 * skip those >= nblocks, so each block comes once per pass. */
static uint64_t wl_map_next(WlJob *j)
{
    uint64_t x;
    do {
        if (j->perm_i >> j->perm_bits) {
            j->perm_i = 0;
            for (int k = 0; k < 3; k++)
                j->perm_key[k] = sim_rng_next(&j->rng);
        }
        x = wl_mix(j->perm_i++, j->perm_bits, j->perm_key);
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
    case WL_DIST_ZONED:
    case WL_DIST_ZONED_ABS: {
        uint64_t r = sim_rng_below(&j->rng, 100), acc = 0;
        uint32_t z = 0;
        while (z + 1 < j->spec->n_zones && r >= acc + j->spec->zones[z].access_pct)
            acc += j->spec->zones[z++].access_pct;
        return j->zlo[z] + sim_rng_below(&j->rng, j->zn[z]);
    }
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

/* ---- The random map with varying block sizes ------------------------------
 * fio's axmap: a bit per unit of the region, set when an I/O covered it. A
 * random pick that lands on a done unit moves to the next free one; an I/O
 * is shortened to the free units in a row from its start, so a pass covers
 * every byte once. map_full has a bit per word of map, set when the word is
 * full, so that finding the next free unit skips done stretches 64 words at
 * a time. */

static void wl_map_set(WlJob *j, uint64_t b)
{
    uint64_t w = b >> 6;
    j->map[w] |= 1ull << (b & 63);
    if (j->map[w] == UINT64_MAX ||
        (w == j->map_words - 1 && j->map[w] == (UINT64_MAX >> (64 - (j->map_n - w * 64)))))
        j->map_full[w >> 6] |= 1ull << (w & 63);
}

static bool wl_map_isset(const WlJob *j, uint64_t b)
{
    return j->map[b >> 6] >> (b & 63) & 1;
}

/* The first word at or after w whose map_full bit is clear; map_words if none. */
static uint64_t wl_map_open_word(const WlJob *j, uint64_t w)
{
    uint64_t nfull = (j->map_words + 63) >> 6;
    uint64_t i = w >> 6, m = j->map_full[i] | ((1ull << (w & 63)) - 1);
    while (m == UINT64_MAX) {
        if (++i >= nfull)
            return j->map_words;
        m = j->map_full[i];
    }
    w = i << 6 | (uint64_t)__builtin_ctzll(~m);
    return w < j->map_words ? w : j->map_words;
}

/* The first free unit at or after b, wrapping once; UINT64_MAX when none. */
static uint64_t wl_map_next_free(const WlJob *j, uint64_t b)
{
    uint64_t w = b >> 6, m = j->map[w] | ((1ull << (b & 63)) - 1);
    if (m != UINT64_MAX && (w << 6 | (uint64_t)__builtin_ctzll(~m)) < j->map_n)
        return w << 6 | (uint64_t)__builtin_ctzll(~m);
    for (int pass = 0; pass < 2; pass++) {
        uint64_t from = pass ? 0 : w + 1;
        uint64_t o = from < j->map_words ? wl_map_open_word(j, from) : j->map_words;
        if (o < j->map_words) {
            uint64_t f = o << 6 | (uint64_t)__builtin_ctzll(~j->map[o]);
            if (f < j->map_n)
                return f;
        }
    }
    return UINT64_MAX;
}

/* fio keeps its map for uniform random jobs (not with norandommap). Here a
 * job of one block size walks the keyed permutation instead: each block
 * once per pass as with the map (and as fio's random_generator=lfsr), with
 * no memory and no cache miss per I/O (the map of a 1 TB drive is 32 MB,
 * and its random probes tripled the CPU time of 4 KiB random writes); what
 * it leaves out is fio's move to the next free block, which makes short
 * sequential runs late in a pass. Several block sizes need the map to cut
 * I/Os to its gaps, and percentage_random needs fio's move to the next
 * free block (its sequential I/Os leave the map alone, so random ones land
 * on blocks they covered); in strided zones it covers a zone and starts
 * again with each. */
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
    else if (j->max_bs == j->unit && !part_seq)
        return;
    else
        j->map_n = j->nblocks;
    j->map_words = (j->map_n + 63) / 64;
    j->map = g_new0(uint64_t, j->map_words);
    j->map_full = g_new0(uint64_t, (j->map_words + 63) / 64);
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

/* fio's mark_random_map: the I/O at rel marks its length in units of its
 * direction's smallest block (bits of that size, though the map counts
 * the job's smallest unit: fio mixes the two when the directions differ),
 * up to the first bit set before, as axmap_set_nr does; the length is cut
 * to the bits set. */
static uint64_t wl_map_mark(WlJob *j, int d, uint64_t rel, uint64_t len)
{
    uint64_t lo, hi;
    wl_bs_dir(j->spec, d, &lo, &hi);
    uint64_t b = rel / lo, n = (len + lo - 1) / lo, k = 0;
    while (k < n && b + k < j->map_n && !wl_map_isset(j, b + k))
        wl_map_set(j, b + k++);
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
    if (j->map) {
        memset(j->map, 0, j->map_words * sizeof *j->map);
        memset(j->map_full, 0, (j->map_words + 63) / 64 * sizeof *j->map_full);
    }
    j->perm_i = 1ull << MIN(j->perm_bits, 63); /* fresh keys on the next draw */
}

void wl_pass_reset(WlJob *j)
{
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

/* A random unit relative to fo; false when the random map has none left.
 * With the map, as fio's get_next_rand_offset: a block of the direction's
 * alignment (its smallest block unless blockalign), drawn below
 * last_block, whose number looks the map up as a bit; a bit set moves to
 * the next free one, wrapping; the offset is that bit times the
 * alignment, and may fall beyond the region, which ends the job. */
static bool wl_rand_offset(WlJob *j, int d, uint64_t *rel, uint64_t *block)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t b;
    if (j->map) {
        uint64_t lo, hi, ba, span = MIN(j->size, j->map_n * j->unit);
        wl_bs_dir(s, d, &lo, &hi);
        ba = s->blockalign ? s->blockalign : lo;
        if (lo > ba)
            span -= MIN(span, lo - ba);
        uint64_t last = MIN(span / ba, j->map_n);
        if (!last)
            return false;
        b = sim_rng_below(&j->rng, last);
        if (wl_map_isset(j, b) && (b = wl_map_next_free(j, b)) == UINT64_MAX)
            return false;
        *block = b;
        *rel = b * ba;
        return true;
    } else if (s->zone_strided) {
        b = wl_random_block(j) % MAX(s->zonesize / j->unit, 1);
    } else {
        b = wl_random_block(j);
    }
    *block = b;
    *rel = b * j->unit;
    return true;
}

/* percentage_random: is this I/O of a random job at a random offset? */
static bool wl_should_random(WlJob *j, int d)
{
    uint32_t p = j->spec->perc_rand[d];
    return p >= 100 || 1 + sim_rng_below(&j->rng, 100) <= p;
}

/* fio's get_next_buflen: a length for an I/O at off (absolute) that ends
 * within the region; 0 when not even the smallest fits. bsrange draws
 * LOW + U * HIGH rounded down to LOW (at most HIGH); bssplit takes the first
 * entry at or after the drawn share that fits. */
static uint64_t wl_buflen(WlJob *j, int d, uint64_t off)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t lo, hi, end = j->start + j->size, len;
    wl_bs_dir(s, d, &lo, &hi);
    if (lo == hi)
        return lo;
    if (off + lo > end)
        return 0;
    do {
        double u = sim_rng_double(&j->rng);
        if (!s->n_bssplit[d]) {
            len = lo + (uint64_t)((double)hi * u);
        } else {
            uint32_t acc = 0;
            len = lo;
            for (uint32_t i = 0; i < s->n_bssplit[d]; i++) {
                const WorkloadBsSplit *b = &s->bssplit[d][i];
                if (!b->pct)
                    continue;
                len = b->bs;
                acc += b->pct;
                if (u * 100.0 < (double)acc && off + len <= end)
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
    if (hit && wl_rw_random(s->rw) && wl_should_random(j, d)) {
        if (!wl_rand_offset(j, d, &rel, &block))
            return false;
        random = true;
    } else if (!hit && s->rw_seq_identical && wl_rw_random(s->rw)) {
        rel = j->last_start[d] != UINT64_MAX ? j->last_start[d] - fo : 0;
    } else if (!wl_seq_offset(j, d, &rel)) {
        if (!wl_rw_random(s->rw) || !wl_rand_offset(j, d, &rel, &block))
            return false;
    }
    if (rel >= j->size || fo + rel >= j->start + j->size)
        return false;
    uint64_t o = fo + rel, l;
    if (random && !j->map) { /* fio's last_block: the smallest block fits at the end */
        uint64_t lo, hi;
        wl_bs_dir(s, d, &lo, &hi);
        if (o + lo > j->start + j->size)
            o = j->start + (j->size - lo) / j->unit * j->unit;
    }
    l = wl_buflen(j, d, o);
    if (!l || o + l > j->start + j->size)
        return false;
    if (random && j->map)
        l = wl_map_mark(j, d, rel, l);
    j->last_start[d] = o;
    j->last_pos[d] = o + l;
    j->zone_done += l;
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

