/*
 * workload_offset.c - where a job's next I/O goes: sequential with fio's
 * offset modifier and strided zones, or random by the random map, zipf,
 * pareto, normal, zoned or sequence distributions; and the constants these
 * need, made at bind time.
 */
#include "sim/host/workload_priv.h"

#include <math.h>

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

static uint64_t wl_normal_next(WlJob *j)
{
    double n = (double)j->nblocks, sd = j->spec->dist_param / 100.0 * n;
    for (int tries = 0; tries < 64; tries++) {
        double u1 = sim_rng_double(&j->rng), u2 = sim_rng_double(&j->rng);
        double z = sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * G_PI * u2);
        double v = n / 2.0 + z * sd;
        if (v >= 0 && v < n)
            return (uint64_t)v;
    }
    return j->nblocks / 2;
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

uint64_t wl_offset(WlJob *j, uint64_t len)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t off;
    if (!wl_rw_random(s->rw)) {
        if (j->seq_pos + len > j->size)
            j->seq_pos = 0;
        off = j->start + j->seq_pos;
        /* rw=read:SKIP: a gap (or with SKIP < 0 a step back) after each I/O */
        int64_t next = (int64_t)(j->seq_pos + len) + s->seq_add;
        if (next < 0)
            next += (int64_t)(j->size / j->unit * j->unit);
        j->seq_pos = next < 0 ? 0 : (uint64_t)next;
    } else if (s->zone_strided) {
        uint64_t zb = MAX(s->zonesize / j->unit, 1);
        uint64_t rel = j->zone_base + wl_random_block(j) % zb * j->unit;
        off = j->start + (rel + len > j->size ? (j->size - len) / j->unit * j->unit : rel);
    } else {
        uint64_t rel = wl_random_block(j) * j->unit;
        if (rel + len > j->size)
            rel = (j->size - len) / j->unit * j->unit;
        off = j->start + rel;
    }
    if (s->zone_strided && (j->zone_done += len) >= s->zonesize) {
        /* zonemode=strided: zonesize bytes, then skip zoneskip */
        j->zone_done = 0;
        j->zone_base += s->zonesize + s->zoneskip;
        if (j->zone_base >= j->size)
            j->zone_base = 0;
        if (!wl_rw_random(s->rw))
            j->seq_pos = j->zone_base;
    }
    return off;
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

