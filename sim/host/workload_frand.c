/*
 * workload_frand.c - fio's random numbers, so that a job issues fio's I/Os
 * one by one: its combined Tausworthe generators (taus88, 32 bits, and
 * taus258, 64 bits, seeded as fio's lib/rand.c), the per-purpose seeds of a
 * job (fio 3.33's setup_random_seeds and td_fill_rand_seeds), and its
 * random map (lib/axmap.c: a bitmap of bitmaps, each level a bit per full
 * word of the one below), with fio's rule for the next free block after a
 * collision, quirks included.
 */
#include "sim/host/workload_priv.h"

#include <string.h>

/* ---- Generators ----------------------------------------------------------- */

static uint64_t wl_frand64(WlFrand *f)
{
    static const struct { unsigned a, b, d; uint64_t c; } k[5] = {
        {1, 53, 10, 18446744073709551614ull}, {24, 50, 5, 18446744073709551104ull},
        {3, 23, 29, 18446744073709547520ull}, {5, 24, 23, 18446744073709420544ull},
        {3, 33, 8, 18446744073701163008ull},
    };
    uint64_t x = 0;
    for (int i = 0; i < 5; i++) {
        f->t[i] = WL_TAUS(f->t[i], k[i].a, k[i].b, k[i].c, k[i].d);
        x ^= f->t[i];
    }
    return x;
}

uint64_t wl_frand_next(WlFrand *f)
{
    return f->use64 ? wl_frand64(f) : wl_frand32(f);
}

/* fio's __seed: each component above its minimum. */
static uint64_t wl_frand_floor(uint64_t x, uint64_t m)
{
    return x < m ? x + m : x;
}

/* fio's init_rand_seed: components from an LCG of the seed (the start
 * value is fio's (2^31) + (2^17) + (2^7), where ^ is C's xor: 53), then
 * six draws thrown away. The 32-bit generator takes the seed's low bits. */
void wl_frand_init(WlFrand *f, uint64_t seed, bool use64)
{
    memset(f, 0, sizeof *f);
    f->use64 = use64;
    if (!use64) {
        uint32_t s = (uint32_t)seed;
        f->s[0] = (uint32_t)wl_frand_floor((53u * 69069u) ^ s, 1);
        f->s[1] = (uint32_t)wl_frand_floor((f->s[0] * 69069u) ^ s, 7);
        f->s[2] = (uint32_t)wl_frand_floor((f->s[1] * 69069u) ^ s, 15);
    } else {
        static const uint64_t floor64[5] = {1, 7, 15, 33, 49};
        uint64_t x = 53;
        for (int i = 0; i < 5; i++)
            x = f->t[i] = wl_frand_floor((x * 6906969069ull) ^ seed, floor64[i]);
    }
    for (int i = 0; i < 6; i++)
        wl_frand_next(f);
}

double wl_frand_unit(WlFrand *f)
{
    return (double)wl_frand_next(f) / (f->use64 ? 0x1p64 : 0x1p32);
}

/* fio's rand_between: [lo, hi], both included, in fio's arithmetic
 * (wl_frand_pct is its integer form for [1, 100]). */
uint64_t wl_frand_between(WlFrand *f, uint64_t lo, uint64_t hi)
{
    if (f->use64) {
        uint64_t end = hi - lo + 1;
        return lo + (uint64_t)((double)end * ((double)wl_frand64(f) / 0x1p64));
    }
    uint32_t end = (uint32_t)(hi - lo) + 1;
    return lo + (uint64_t)(int)((double)end * ((double)wl_frand32(f) / 0x1p32));
}

/* fio 3.33's seeds of a job: randseed multiplied on by 0x9e370001, times
 * the job's number (1 for the first), plus the purpose's index. With
 * randrepeat (fio's default) the offset generator ignores them and takes
 * fio's FIO_RANDSEED times the job's number: randseed moves block sizes,
 * the read/write mix and percentage_random, not random offsets. */
#define WL_FIO_RANDSEED 0xb1899bedull
enum {
    WL_FS_BS = 0, WL_FS_BS1, WL_FS_BS2, WL_FS_VER, WL_FS_MIX, WL_FS_FILE, WL_FS_BLOCK,
    WL_FS_FILE_SIZE, WL_FS_TRIM, WL_FS_BUF, WL_FS_SEQ_RAND_READ, WL_FS_SEQ_RAND_WRITE,
    WL_FS_SEQ_RAND_TRIM, WL_FS_START_DELAY, WL_FS_DEDUPE, WL_FS_POISSON, WL_FS_ZONE,
    WL_FS_NR = 21
};

void wl_frand_seed_job(WlJob *j, uint64_t rand_seed, uint64_t block_seed, bool repeat)
{
    const WorkloadJobSpec *s = j->spec;
    uint64_t seeds[WL_FS_NR], seed = rand_seed, thread = j->index + 1ull;
    bool use64 = s->rand64;
    for (int i = 0; i < 4; i++)
        seed *= 0x9e370001ull;
    for (int i = 0; i < WL_FS_NR; i++) {
        seeds[i] = seed * thread + (uint64_t)i;
        seed *= 0x9e370001ull;
    }
    uint64_t rs = seeds[WL_FS_BS], ws = seeds[WL_FS_BS1], ts = seeds[WL_FS_BS2];
    if (s->verify)
        ws = rs;
    if (s->rw == WL_RW_TRIMWRITE)
        ts = ws;
    wl_frand_init(&j->fr_bs[IO_READ], rs, use64);
    wl_frand_init(&j->fr_bs[IO_WRITE], ws, use64);
    wl_frand_init(&j->fr_bs[IO_TRIM], ts, use64);
    wl_frand_init(&j->fr_mix, seeds[WL_FS_MIX], false);
    wl_frand_init(&j->fr_zone, seeds[WL_FS_ZONE], false);
    for (int d = 0; d < WL_DIRS; d++)
        wl_frand_init(&j->fr_seq[d], seeds[WL_FS_SEQ_RAND_READ], false);
    uint64_t block = repeat ? (WL_FIO_RANDSEED + block_seed) * thread : seeds[WL_FS_BLOCK];
    /* fio takes the 64-bit generator by itself when the 32-bit one cannot
     * reach every block of the region */
    wl_frand_init(&j->fr_off, block, use64 || j->nblocks > UINT32_MAX);
}

/* ---- The random map (fio's axmap) ------------------------------------------ */

#define WL_AX_LEVELS 11 /* 64^11 > 2^64 */

struct WlAxmap {
    uint32_t nlevels;
    uint64_t nbits;
    uint64_t size[WL_AX_LEVELS]; /* words per level */
    uint64_t *map[WL_AX_LEVELS];
};

static uint64_t wl_ax_mask(unsigned n) /* the n low bits */
{
    return n >= 64 ? UINT64_MAX : (1ull << n) - 1;
}

WlAxmap *wl_axmap_new(uint64_t nbits)
{
    WlAxmap *a = g_new0(WlAxmap, 1);
    uint64_t n = nbits;
    a->nbits = nbits;
    do {
        n = (n + 63) >> 6;
        a->size[a->nlevels] = n;
        a->map[a->nlevels] = g_new0(uint64_t, MAX(n, 1));
        a->nlevels++;
    } while (n > 1 && a->nlevels < WL_AX_LEVELS);
    return a;
}

void wl_axmap_free(WlAxmap *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->nlevels; i++)
        g_free(a->map[i]);
    g_free(a);
}

void wl_axmap_reset(WlAxmap *a)
{
    for (uint32_t i = 0; i < a->nlevels; i++)
        memset(a->map[i], 0, MAX(a->size[i], 1) * sizeof *a->map[i]);
}

bool wl_axmap_isset(const WlAxmap *a, uint64_t b)
{
    return b <= a->nbits && b >> 6 < a->size[0] && (a->map[0][b >> 6] >> (b & 63) & 1);
}

/* axmap_set_fn on one level: from bit, *nr bits up to the first one set
 * already; *set their number on level 0 (0: the first was set); true when
 * the word is not full, so the levels above need nothing. */
static bool wl_ax_set_level(WlAxmap *a, uint32_t l, uint64_t idx, uint64_t *nr, uint64_t *set)
{
    uint64_t *w = &a->map[l][idx >> 6];
    unsigned bit = (unsigned)(idx & 63), n = (unsigned)MIN(*nr, 64u - bit);
    uint64_t mask = wl_ax_mask(n) << bit, overlap = *w & mask;
    if (overlap) {
        n = (unsigned)__builtin_ctzll(overlap) - bit;
        if (!n) {
            *set = 0;
            return true;
        }
        mask = wl_ax_mask(n) << bit;
    }
    *w |= mask;
    if (l == 0)
        *set = n;
    *nr = 1;
    return *w != UINT64_MAX;
}

/* fio's __axmap_set on a stretch within one word: how many bits it set. */
static uint64_t wl_ax_set(WlAxmap *a, uint64_t b, uint64_t nr)
{
    uint64_t left = nr, total = 0, set = 0;
    if (b > a->nbits)
        return 0;
    if (b + left > a->nbits)
        left = a->nbits - b;
    while (left) {
        uint64_t idx = b;
        for (uint32_t l = 0; l < a->nlevels; l++, idx >>= 6)
            if (wl_ax_set_level(a, l, idx, &nr, &set))
                break;
        total += set;
        if (!set || set != 64 - left)
            break;
        left -= set;
        b += set;
        nr = left;
    }
    return total;
}

/* fio's axmap_set_nr: n bits from b, word by word, until a word had one
 * set already; how many it set. */
uint64_t wl_axmap_set_nr(WlAxmap *a, uint64_t b, uint64_t n)
{
    uint64_t total = 0;
    do {
        uint64_t want = MIN(n, 64 - (b & 63)), set = wl_ax_set(a, b, want);
        total += set;
        if (set != want)
            break;
        n -= set;
        b += set;
    } while (n);
    return total;
}

/* fio's axmap_find_first_free: the first free bit at or after b, from the
 * top level down; UINT64_MAX when none before the end. */
static uint64_t wl_ax_find_first_free(const WlAxmap *a, uint64_t b)
{
    uint64_t index = 0;
    for (int l = (int)a->nlevels - 1; l >= 0; l--) {
        const uint64_t *m = a->map[l];
        uint64_t base = 6 * (unsigned)l >= 64 ? 0 : b >> (6 * l);
        index = MAX(index << 6, base);
        uint64_t off = index >> 6;
        if (off >= a->size[l])
            return UINT64_MAX;
        uint64_t free = ~m[off] & ~wl_ax_mask((unsigned)(index & 63));
        while (!free && ++off < a->size[l])
            free = ~m[off];
        if (!free)
            return UINT64_MAX;
        index = off << 6 | (uint64_t)__builtin_ctzll(free);
    }
    return index < a->nbits ? index : UINT64_MAX;
}

/* fio's axmap_next_free, b being set: the first free bit after b,
 * wrapping to the start; UINT64_MAX when the map is full. */
uint64_t wl_axmap_next_free(WlAxmap *a, uint64_t b)
{
    if (b >= a->nbits)
        return UINT64_MAX;
    uint64_t next = b + 1 == a->nbits ? 0 : b + 1, ret;
    uint64_t free = ~a->map[0][next >> 6] & ~wl_ax_mask((unsigned)(next & 63));
    if (free) {
        ret = (next & ~63ull) | (uint64_t)__builtin_ctzll(free);
        if (ret >= a->nbits)
            ret = UINT64_MAX;
    } else {
        ret = wl_ax_find_first_free(a, next);
    }
    if (ret == UINT64_MAX && next)
        ret = wl_ax_find_first_free(a, 0);
    return ret;
}
