/*
 * sched.h - the flash scheduler: die operations, read queues and the
 * priority table of background work.
 *
 * A die runs one operation at a time. Whoever starts one hands over its
 * completion (function, context, argument); the scheduler calls it when the
 * operation ends and knows nothing of what the operation means, only which
 * activity its time counts as (DieWork: reads are never suspended, erases by
 * erase_suspend, programs by program_suspend). An idle die serves its read
 * queue first, then asks the owners of the other work in the order of
 * models/sched_rank.h, each through the try function it registered.
 */
#ifndef FTLSIM_SCHED_H
#define FTLSIM_SCHED_H

#include "models/drive.h"

typedef struct Sched Sched; /* private to sched.c; one per drive */

/* An operation ended: arg is what its starter gave. */
typedef void (*SchedDoneFn)(void *ctx, uint32_t arg);
/* Start one operation on idle die if the owner has work for it; true if it did. */
typedef bool (*SchedTryFn)(void *ctx, uint32_t die);
/* Whether the owner may have work for some die: false only if its try
 * function would now answer false for every die, and change nothing. It
 * changes nothing itself: one shared by several sources (same function,
 * same ctx) is asked once for all of them. */
typedef bool (*SchedAnyFn)(void *ctx);
/* A read ended with its data out; wait is the time it waited for its die. */
typedef void (*SchedReadFn)(void *ctx, uint32_t arg, SimTime wait);

/* seed: the drive's, for read retries. */
void sched_init(Drive *d, uint64_t seed);
/* Bytes of the read operations' table for queue_limit commands in flight
 * (for drive_memory_estimate()). */
uint64_t sched_table_bytes(uint64_t queue_limit);
void sched_release(Drive *d);

/* Register a source of work at rank (lower goes first; equal ranks in the
 * order registered). any (NULL: always may) lets sched_kick_all() skip the
 * source on every die at once: a drive of hundreds of dies, most of them
 * idle, would otherwise ask each source on each die for every write that
 * enters the buffer; a die falling idle asks it before trying the source. stripes: a die that takes work from it moves
 * sched_kick_all()'s starting die past it, so successive units of that work
 * stripe over channels, then CEs, then dies. */
void sched_add(Drive *d, int rank, SchedTryFn fn, SchedAnyFn any, void *ctx, bool stripes);
/* After its sched_add() calls: any (with ctx) is asked again, once it has
 * said no, only after sched_wake(d, any, ctx), which its owner calls
 * whenever its answer may have turned from no to yes. GC's sources, whose
 * answers change seldom, were otherwise asked for every write that entered
 * the buffer and at the end of every program. sched_check() asks it anyway
 * and fails on a no that turned into a yes without a wake. */
void sched_watch(Drive *d, SchedAnyFn any, void *ctx);
void sched_wake(Drive *d, SchedAnyFn any, void *ctx);
/* Register who reads: returns the client number for sched_read(). */
uint32_t sched_read_client(Drive *d, SchedReadFn fn, void *ctx);

/* Offer every idle die, starting after the last to take striped work, its
 * next operation. */
void sched_kick_all(Drive *d);

/* Queue a read of pages NAND pages (slots 4 KiB units out over the
 * channel) of cell mode m on die for client; its completion gets arg.
 * types: the page types read (bit k: type k, nand_page_type(); 0: tR of
 * the mode whatever read_by_page says). Retries are drawn here. */
void sched_read(Drive *d, uint32_t die, uint32_t client, uint32_t arg, CellMode m, uint32_t types,
                uint32_t pages, uint32_t slots);

/* Start an operation on idle die; done(ctx, arg) is called at end (done may be NULL). */
void sched_die_op(Drive *d, uint32_t die, DieWork work, SchedDoneFn done, void *ctx, uint32_t arg,
                  SimTime end);
/* Start a program on idle die whose data is in its registers at `in`:
 * tPROG of mode m (with program_by_page, that of the slowest page type
 * among the slots first .. first + bytes / 4 KiB - 1 it writes), or on a
 * two_pass mode its first half, after which the same bytes move in again
 * for the second. done may be NULL. */
void sched_program(Drive *d, uint32_t die, DieWork work, SchedDoneFn done, void *ctx, uint32_t arg,
                   SimTime in, uint64_t first, uint64_t bytes, CellMode m);

/* Count every die's time up to now in DriveStats.die_busy_ns. */
void sched_account_all(Drive *d);
/* Each die's work against the idle count and bitmap; every read record
 * on one die's queue or the free list, once (drive_check()). */
bool sched_check(const Drive *d, char *why, size_t why_len);

#endif
