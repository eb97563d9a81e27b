/*
 * fio_priv.h - what fio's JSON and text outputs share (fio_json.c,
 * fio_text.c): a run's jobs as fio's entries (a job, or a reporting group
 * summed) and groups, collected once.
 */
#ifndef FTLSIM_FIO_PRIV_H
#define FTLSIM_FIO_PRIV_H

#include "sim/host/workload.h"

#include <glib.h>

/* One entry of fio's "jobs": a job, or with group_reporting its whole
 * reporting group summed (fio names it after the group's first job). */
typedef struct FioEntry {
    WorkloadJobResult first;
    const WorkloadJobSpec *last;   /* the group's last job: fio shows its options */
    uint32_t jobs;
    uint64_t runtime_ms[WL_DIRS];  /* fio's runtime per direction: the longest */
    uint64_t total_run_ms;         /* fio's total_run_time: summed */
    uint64_t ios[WL_DIRS], bytes[WL_DIRS];
    LatHist *lat[WL_DIRS];         /* owned */
    double lat_sq[WL_DIRS];        /* ns^2 */
    uint64_t sync_ios;
    LatHist *sync_lat;             /* owned */
    double sync_sq;                /* ns^2 */
    WorkloadFioStat fio;           /* summed */
    uint64_t verify_reads, verify_mismatches;
    gboolean ss_attained;
} FioEntry;

/* Per reporting group: fio's group_run_stats, for bw_agg. */
typedef struct FioGroup {
    uint64_t bytes[WL_DIRS];
    uint64_t max_run_ms[WL_DIRS];
    uint64_t min_run_ms[WL_DIRS];           /* 0: none yet */
    uint64_t min_bw[WL_DIRS], max_bw[WL_DIRS]; /* B/s: an entry's, the least and most */
    uint32_t id;
} FioGroup;

/* The entries (FioEntry, each to be cleared) and their groups (owned,
 * *ngroups of them, indexed by group id) of a finished workload; the
 * global options of its file into *global_opts. */
void fio_collect(const Workload *w, GArray *entries, FioGroup **groups, uint32_t *ngroups,
                 const char **global_opts);
void fio_entry_clear(FioEntry *e);
/* unified_rw_reporting: the directions of e summed into the read slot of
 * m (m->lat[IO_READ] owned by the caller). */
void fio_entry_mixed(const FioEntry *e, const FioGroup *g, FioEntry *m, FioGroup *mg);
/* The percentiles a job reports: its percentile_list, or fio's default;
 * *precision the decimals fio prints them with. */
const double *fio_pct_list(const WorkloadJobSpec *s, unsigned *n, unsigned *precision);
/* fio's calc_lat() on a rate statistic: the sample deviation of S. */
double fio_rate_dev(const WorkloadRateStat *r);

#endif
