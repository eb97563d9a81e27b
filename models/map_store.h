/*
 * map_store.h - the store behind the L2P and P2L tables (models/map_store.c):
 * chunks of lpns kept as overrides, runs, buffer marks or a dense part,
 * slots' P2L parts, the prefill formula, and the memory all of it takes.
 *
 * One entry is read and written through map_tab.h; models/map.c, which
 * maps programs, invalidates and relocates, uses the rest of this; the
 * drive's memory estimate takes the store's from map_store_bytes(), so the
 * estimate and the store cannot drift apart.
 */
#ifndef FTLSIM_MAP_STORE_H
#define FTLSIM_MAP_STORE_H

#include "models/map_tab.h"

/* The store keeps a piece of this many consecutive lpns or more,
 * programmed to consecutive slots, as a run (8 bytes each way). */
#define MAP_RUN_MIN 8

bool map_store_init(Drive *d); /* an empty store; false if its directories cannot be mapped */
void map_store_release(Drive *d);
/* lpn's L2P entry, its buffer mark gone: the first step of storing a run
 * over it (map_store_put_chunk_run() expects the marks gone). */
uint64_t map_store_take(const Drive *d, uint64_t lpn);
/* A run (runs allowed: map_store_runs_ok()): the n lpns from lpn, in one
 * chunk that is not dense, map to the n slots from slot on (their L2P); the
 * n slots from slot on, in block b, hold the lpns from lpn on (their P2L). */
void map_store_put_chunk_run(Drive *d, uint64_t lpn, uint32_t n, uint64_t slot);
void map_store_put_slot_run(Drive *d, uint32_t b, uint64_t slot, uint32_t n, uint64_t lpn);
void map_store_warm_block_runs(const Drive *d, uint32_t b);
/* Relocation (map_relocate()): from slot i of block b (i < end), how many
 * slots in a row (at least one, none from end on) are valid for the
 * consecutive lpns from *lpn on, or, *lpn set to NO_LPN, are not valid. */
uint32_t map_store_block_stretch(const Drive *d, uint32_t b, uint32_t i, uint32_t end,
                                 uint64_t *lpn);
bool map_store_runs_ok(const Drive *d); /* slots, lpns and blocks fit a run's fields */
bool map_store_block_has_runs(const Drive *d, uint32_t b);
/* As map_get() and map_lpn_of() give them: the L2P of chunk c's lpns
 * (MAP_CHUNK of them, fewer in the last chunk), the P2L of block b's
 * slots (slots_per_block). */
void map_store_get_chunk(const Drive *d, uint64_t c, uint64_t *out);
void map_store_block_lpns(const Drive *d, uint32_t b, uint64_t *out);
/* n lpns are about to be mapped at random (a random prefill): if that many
 * would push the average chunk dense, every chunk of the L2P goes dense
 * now, so that the entries go straight to their place. True if it did. */
bool map_expect_random(Drive *d, uint64_t n);
/* Before map_expect_random(d, n), with other work between: the tables it
 * would make are mapped now, and a thread backs the part of them the n
 * lpns will write meanwhile (bigmem_warm_start()). map_expect_done()
 * stops the thread and lets go of what map_expect_random() did not take. */
void map_expect_random_soon(Drive *d, uint64_t n);
void map_expect_done(Drive *d);
/* Prefill: n lpns from lpn written in order to the n slots from s0 on die,
 * a native unit if native. True if the map's prefill formula covers
 * them (nothing to store); false if they must be mapped one by one. */
bool map_prefill_run(Drive *d, uint64_t lpn, uint32_t die, uint64_t s0, uint32_t n, bool native);
void map_block_erased(Drive *d, uint32_t b); /* b holds nothing the formula or a run gives */
/* The store's own structure: chunks, runs, hashes, pools, their counts. */
bool map_store_check(const Drive *d, char *why, size_t why_len);

/* The bytes the store takes for a run of class c on a drive of p, at most
 * (drive_memory_estimate() adds the rest of the drive). */
uint64_t map_store_bytes(const DriveParams *p, const MemoryClass *c);
/* A run of class c is about to start: the tables it will grow to, within
 * map_store_bytes(), are made so large now (the overrides' hash). */
void map_expect_class(Drive *d, const MemoryClass *c);

#endif
