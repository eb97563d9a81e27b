/*
 * vec.h - four 32-bit or two 64-bit values a step, for the loops a fill
 * runs over each of its pages (a unit's map entries, its lpns in the
 * write buffer's ring). GCC's vector types: one SSE register on x86-64,
 * plain code where a target has none. Loads and stores go through
 * memcpy(), so the values need no 16-byte alignment.
 */
#ifndef FTLSIM_VEC_H
#define FTLSIM_VEC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint32_t Vec32x4 __attribute__((vector_size(16)));
typedef uint64_t Vec64x2 __attribute__((vector_size(16)));

static inline Vec32x4 vec32_load(const uint32_t *p)
{
    Vec32x4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void vec32_store(uint32_t *p, Vec32x4 v) { memcpy(p, &v, sizeof v); }

static inline Vec64x2 vec64_load(const uint64_t *p)
{
    Vec64x2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void vec64_store(uint64_t *p, Vec64x2 v) { memcpy(p, &v, sizeof v); }

/* Whether every bit of v is 0. */
static inline bool vec_zero(Vec64x2 v) { return (v[0] | v[1]) == 0; }

/* The or of v's four lanes. */
static inline uint32_t vec32_or(Vec32x4 v)
{
    Vec64x2 w = (Vec64x2)v;
    uint64_t x = w[0] | w[1];
    return (uint32_t)(x | x >> 32);
}

#endif
