/*
 * pts.h - the SNIA Solid State Storage Performance Test Specification
 * (Enterprise and Client) on a simulated drive: purge, preconditioning,
 * rounds to steady state, and the write saturation, IOPS, throughput and
 * latency tests. docs/pts.md describes what each test runs.
 *
 * One Drive per purge: its state carries over every round and cell of a
 * test, each cell being one workload segment (an inline fio job) run on the
 * same engine. Every input is checked before the results folder is opened;
 * the files are written through an OutDir, so a failed test leaves nothing.
 */
#ifndef FTLSIM_PTS_H
#define FTLSIM_PTS_H

#include "sim/engine/engine.h"
#include "sim/output/plot.h"

#include <glib.h>
#include <stdint.h>

/* A test of the PTS (wsat, iops, tp, lat; pts_tests.c). */
typedef struct PtsTestDesc PtsTestDesc;

typedef enum PtsPrecondition {
    PTS_PRECOND_FULL = 0,   /* 2 x capacity of 128 KiB sequential writes, simulated (the PTS) */
    PTS_PRECOND_FAST = 1,   /* the drive's state after a sequential fill, set without simulating */
    PTS_PRECOND_RANDOM = 2, /* after a fill and a capacity of random overwrites, set at once */
    PTS_PRECOND_NONE = 3,   /* the purged drive (wsat's default, as the PTS runs it) */
} PtsPrecondition;

/* Which PTS: Enterprise (PTS-E 1.1) or Client (PTS-C 1.2). The tests are
 * the same; the client's stimulus, active range and TP block sizes differ
 * (docs/pts.md, "PTS-C"). */
typedef enum PtsSpec {
    PTS_SPEC_ENTERPRISE = 0,
    PTS_SPEC_CLIENT = 1,
} PtsSpec;

/* PTS-C: the test stimulus runs on the first 75% of the LBAs (its active
 * range); preconditioning writes all of them. */
#define PTS_CLIENT_ACTIVE_PCT 75

/* The shortest --round-time: every cell of a round must complete commands
 * to be measured (and a cell's runtime is given to its jobs in us). */
#define PTS_ROUND_TIME_MIN (SIM_SEC / 1000)

typedef struct PtsOptions {
    const char *drive;       /* INI file */
    const char *const *sets; /* --set GROUP.KEY=VALUE, or NULL */
    const PtsTestDesc *test; /* NULL: none given */
    PtsSpec spec;            /* --spec; enterprise by default */
    const char *out; /* results folder; NULL: no files */
    gboolean force;
    uint32_t threads;    /* 0: the test's default */
    uint32_t iodepth;    /* per thread; 0: the test's default */
    SimTime round_time;  /* ns each cell runs in a round */
    uint32_t max_rounds; /* 0: the test's default (25; wsat: until 4 x capacity) */
    uint64_t seed;
    PtsPrecondition precondition;
    const char *bs;  /* --bs: comma-separated subset of the test's block sizes, or NULL */
    const char *mix; /* --mix: comma-separated subset of its R/W mixes ("65/35"), or NULL */
    gboolean quiet;
    gboolean plot;
    PlotFormat plot_format;
    const char *script_dir; /* gnuplot scripts */
    gboolean dry_run;       /* check every input and make the drive, then stop: nothing run */
} PtsOptions;

void pts_options_init(PtsOptions *o);

/* The test named name (wsat, iops, tp, lat), or NULL. */
const PtsTestDesc *pts_test_find(const char *name);
const char *pts_test_name(const PtsTestDesc *test);
/* Whether the PTS runs test from the purged drive, with no preconditioning
 * (wsat): its default --precondition is none, the others' full. */
gboolean pts_test_purged(const PtsTestDesc *test);
/* The --precondition name of how ("full", "fast", "random", "none"); and
 * the one named name, FALSE for none of them. */
const char *pts_precondition_name(PtsPrecondition how);
gboolean pts_precondition_find(const char *name, PtsPrecondition *how);
/* Newly allocated: "wsat, iops, tp or lat" (about: each with what it
 * measures, for --help). */
char *pts_test_names(gboolean about);
/* Newly allocated: each test's default threads (iodepth: queue depth),
 * "wsat 8, iops 16, ...", for --help; client: under --spec client. */
char *pts_test_defaults(gboolean iodepth, gboolean client);

/* Run the test. Errors are in RUN_ERROR (RUN_ERROR_INPUT: bad input, exit
 * 2; RUN_ERROR_FAILED: the simulation failed, exit 1) or a loader's domain
 * (bad input). The summary goes to stdout unless quiet. */
gboolean pts_run(const PtsOptions *o, GError **error);

#endif
