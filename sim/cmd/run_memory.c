/*
 * run_memory.c - will the drive fit this machine? The memory class of a
 * run (what its prefill and workload do to the mapping), the model's
 * estimate for it (models/drive.c: drive_memory_estimate()) against the
 * memory available; a run that cannot fit is refused before anything is
 * allocated. The jobs of a workload are held to the same memory, beside
 * the drive.
 */
#include "sim/cmd/run.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "models/drive.h"
#include "sim/config/config.h"

/* Saturating sum of byte counts. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Bytes job j writes and the span it writes them over; UINT64_MAX bytes
 * when only time bounds it. */
static uint64_t job_write_bytes(const WorkloadJobSpec *j, uint64_t capacity, uint64_t *region)
{
    uint64_t r = j->size                 ? j->size
                 : j->size_pct > 0       ? (uint64_t)((double)capacity * j->size_pct / 100.0)
                 : j->filesize           ? j->filesize
                                         : capacity;
    *region = MIN(r, capacity);
    uint64_t bytes;
    if (j->io_size)
        bytes = j->io_size;
    else if (j->time_based || j->runtime_ns || j->fill_device)
        bytes = j->time_based ? UINT64_MAX : *region;
    else
        bytes = *region * MAX(j->loops, 1u);
    if (j->rw == WL_RW_RW || j->rw == WL_RW_RANDRW)
        bytes = bytes == UINT64_MAX ? bytes : bytes / 100 * (100 - MIN(j->rwmixread, 100u));
    uint64_t n = MAX(j->numjobs, 1u);
    return bytes > UINT64_MAX / n ? UINT64_MAX : bytes * n;
}

uint64_t run_write_bytes(const Workload *w, uint64_t capacity)
{
    uint64_t sum = 0;
    for (guint i = 0; w && i < workload_job_count(w); i++) {
        const WorkloadJobSpec *j = workload_job_spec(w, i);
        if (j->idle || j->engine_null || !(j->rw == WL_RW_WRITE || j->rw == WL_RW_RW ||
                                           j->rw == WL_RW_RANDWRITE || j->rw == WL_RW_RANDRW ||
                                           j->rw == WL_RW_TRIMWRITE))
            continue;
        uint64_t region;
        sum = add_sat(sum, job_write_bytes(j, capacity, &region));
    }
    return sum;
}

void run_memory_class(const DrivePrefill *pf, const Workload *w, uint64_t capacity,
                      MemoryClass *out)
{
    memset(out, 0, sizeof *out);
    if (pf && pf->random)
        out->random_fill = pf->fill;
    else if (pf)
        out->seq_prefill = pf->fill;
    guint n = w ? workload_job_count(w) : 0;
    WorkloadTraceInfo ti;
    if (!w || workload_trace_info(w, &ti)) {
        out->random_fill = 1.0; /* a trace: its addresses are not known up front */
        return;
    }
    for (guint i = 0; i < n; i++) {
        const WorkloadJobSpec *j = workload_job_spec(w, i);
        if (j->idle || j->engine_null)
            continue;
        bool seq = j->rw == WL_RW_WRITE || j->rw == WL_RW_RW;
        bool rnd = j->rw == WL_RW_RANDWRITE || j->rw == WL_RW_RANDRW || j->rw == WL_RW_TRIMWRITE;
        if (!seq && !rnd)
            continue;
        uint64_t region, bytes = job_write_bytes(j, capacity, &region);
        if (seq) {
            double share = (double)MIN(bytes, region) / (double)capacity;
            out->seq_fill = MIN(1.0, MAX(out->seq_fill, share));
        } else {
            out->random_bytes = add_sat(out->random_bytes, bytes);
            out->random_bs = (uint32_t)MIN(j->bs[IO_WRITE], UINT32_MAX);
        }
    }
}

static uint64_t memory_reported(const char **why, GError **error);

/* Bytes the address-space limit (ulimit -v) leaves this process beyond
 * what it has mapped already; UINT64_MAX without a limit. */
static uint64_t address_space_left(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    g_autofree char *text = NULL;
    uint64_t used = 0;
    if (g_file_get_contents("/proc/self/status", &text, NULL, NULL)) {
        const char *v = strstr(text, "\nVmSize:");
        unsigned long long kb;
        if (v && sscanf(v, "\nVmSize: %llu kB", &kb) == 1)
            used = kb * 1024;
    }
    return rl.rlim_cur > used ? rl.rlim_cur - used : 1;
}

/* Bytes of memory this run may take, and in *why what set it ("" the
 * kernel's figure): FTLSIM_MEMORY_LIMIT if set, else what the kernel says
 * is available plus free swap, either held to what the address-space
 * limit leaves; 0: unknown. */
static uint64_t memory_available(const char **why, GError **error)
{
    uint64_t have = memory_reported(why, error);
    uint64_t left = address_space_left();
    if (left < have || (!have && left != UINT64_MAX)) {
        *why = " (the address-space limit, ulimit -v)";
        return left;
    }
    return have;
}

/* FTLSIM_MEMORY_LIMIT or the kernel's available memory plus free swap. */
static uint64_t memory_reported(const char **why, GError **error)
{
    const char *limit = g_getenv("FTLSIM_MEMORY_LIMIT");
    *why = "";
    if (limit) {
        *why = " (FTLSIM_MEMORY_LIMIT)";
        uint64_t v = 0;
        GError *e = NULL;
        if (!workload_parse_bytes(limit, 1024, &v, &e) || v == 0) {
            g_clear_error(&e);
            g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                        "FTLSIM_MEMORY_LIMIT \"%s\": expected a size such as 8GiB", limit);
            return UINT64_MAX;
        }
        return v;
    }
    g_autofree char *text = NULL;
    if (!g_file_get_contents("/proc/meminfo", &text, NULL, NULL))
        return 0;
    uint64_t avail = 0, swap = 0;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        unsigned long long kb;
        if (sscanf(*l, "MemAvailable: %llu kB", &kb) == 1)
            avail = kb * 1024;
        else if (sscanf(*l, "SwapFree: %llu kB", &kb) == 1)
            swap = kb * 1024;
    }
    return avail ? avail + swap : 0;
}

uint64_t run_memory_available(GError **error)
{
    const char *why = "";
    return memory_available(&why, error);
}

gboolean run_check_fits(const char *drive, const DriveParams *p, const MemoryClass *c,
                        GError **error)
{
    GError *e = NULL;
    const char *why = "";
    uint64_t have = memory_available(&why, &e);
    if (e) {
        g_propagate_error(error, e);
        return FALSE;
    }
    uint64_t need = drive_memory_estimate(p, c);
    if (have && need > have) {
        char a[32], b[32];
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: simulating this drive needs about %s of memory, the machine has "
                    "%s available%s; expected a drive that fits (a smaller user_capacity)",
                    drive, config_mem_text(need, a, sizeof a), config_mem_text(have, b, sizeof b), why);
        return FALSE;
    }
    return TRUE;
}

gboolean run_check_setup_fits(const char *what, const Workload *w, const DriveParams *p,
                              const MemoryClass *c, GError **error)
{
    if (!w)
        return TRUE;
    GError *e = NULL;
    const char *why = "";
    uint64_t have = memory_available(&why, &e);
    if (e) {
        g_propagate_error(error, e);
        return FALSE;
    }
    uint64_t clones = 0, jobs = workload_setup_bytes(w, &clones);
    uint64_t drive = drive_memory_estimate(p, c);
    if (have && add_sat(jobs, drive) > have) {
        char a[32], b[32], c_[32];
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "%s: setting up its %" G_GUINT64_FORMAT " jobs (numjobs clones) needs about "
                    "%s of memory besides the drive's %s, the machine has %s available%s; "
                    "expected fewer jobs (a smaller numjobs, fewer sections)",
                    what, clones, config_mem_text(jobs, a, sizeof a), config_mem_text(drive, b, sizeof b),
                    config_mem_text(have, c_, sizeof c_), why);
        return FALSE;
    }
    return TRUE;
}
