/*
 * test_check.c - every part's invariant check can fail: each test brings a
 * small drive into a state where the part has work in hand (GC and folding
 * under way, translation pages cached, TRIM work queued), checks that
 * drive_check() holds, then breaks one invariant of one part, as a bug in
 * a caller would, and asserts that the part's check and drive_check()
 * both catch it, under the part's name.
 *
 * Most parts are broken through their own functions called out of turn.
 * The scheduler, TRIM, the command pool, the host interface, the channels
 * and the link keep state that only their own code changes, so this file
 * compiles their sources in (the copies in the library are then not
 * linked) to reach it.
 */
#include "cutest.h"

#include "models/blocks.h"
#include "models/ctrl.h"
#include "models/fold.h"
#include "models/ftl.h"
#include "models/gc.h"
#include "models/l2p_cache.h"
#include "models/map.h"
#include "models/pslc.h"
#include "models/wear.h"
#include "sim/config/config.h"
#include "sim/run/runner.h"

#include "models/chan.c"
#include "models/cmd.c"
#include "models/hostif.c"
#include "models/link.c"
#include "models/sched.c"
#include "models/trim.c"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PSLC_DRIVE CUTEST_SRC("tests/data/drives/small_tlc_pslc.ini")
#define HMB_DRIVE CUTEST_SRC("tests/data/drives/small_qlc_hmb.ini")
#define TLC_DRIVE CUTEST_SRC("tests/data/drives/small_tlc.ini")

typedef struct Busy {
    DriveParams p;
    Runner *r;
    Workload *w;
} Busy;

/* The drive of config, aged (prefilled whole, as by random overwrites)
 * or fresh, with spec run on it for `ms` milliseconds of simulated time and stopped
 * there: commands, GC and folding in flight. */
static gboolean busy_open(Busy *b, const char *config, bool aged, TrimPolicy trim, const char *spec,
                          int ms)
{
    g_autoptr(GError) error = NULL;
    memset(b, 0, sizeof *b);
    if (!config_load_file(config, &b->p, &error)) {
        fprintf(stderr, "%s\n", error->message);
        return FALSE;
    }
    b->p.trim_policy = trim;
    b->r = runner_new(&b->p, 1);
    if (!b->r)
        return FALSE;
    DrivePrefill pf = {.fill = 1.0, .random = true, .seed = 1};
    if (aged && !drive_prefill(runner_drive(b->r), &pf))
        return FALSE;
    b->w = workload_from_spec(spec, &error);
    if (!b->w || !runner_bind(b->r, b->w, 1, &error)) {
        fprintf(stderr, "%s\n", error ? error->message : spec);
        return FALSE;
    }
    workload_start(b->w);
    sim_run(runner_engine(b->r), (SimTime)ms * SIM_MS);
    return TRUE;
}

static void busy_close(Busy *b)
{
    runner_free(b->r);
    workload_free(b->w);
}

/* The state reached holds every invariant. */
static void assert_holds(const Drive *d)
{
    char why[256] = "";
    bool ok = drive_check(d, why, sizeof why);
    if (!ok)
        fprintf(stderr, "drive_check: %s\n", why);
    CU_ASSERT_TRUE(ok);
}

/* check fails, and drive_check() reports a failure under part's name
 * (NULL: a part checked before it may see the break first). */
static void assert_caught(const Drive *d, bool (*check)(const Drive *, char *, size_t),
                          const char *part)
{
    char why[256] = "", all[256] = "";
    CU_ASSERT_FALSE(check(d, why, sizeof why));
    CU_ASSERT_TRUE(why[0] != '\0');
    CU_ASSERT_FALSE(drive_check(d, all, sizeof all));
    if (!part)
        return;
    g_autofree char *prefix = g_strdup_printf("%s: ", part);
    if (!g_str_has_prefix(all, prefix))
        fprintf(stderr, "expected a failure of %s, drive_check says: %s\n", part, all);
    CU_ASSERT_TRUE(g_str_has_prefix(all, prefix));
}

#define RANDW "rw=randwrite,bs=4k,iodepth=16,norandommap,io_size=64m"

/* A free block marked full without leaving its free stack; a free block
 * made a stream's open block. */
static void test_blocks(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    uint32_t n, die = 0;
    const uint32_t *stack = die_free_list(d, die, false, &n);
    CUTEST_REQUIRE(n > 0);
    uint32_t f = stack[n - 1];
    blk_corrupt(d, f, BLK_FULL, 0);
    assert_caught(d, blocks_check, "blocks");
    blk_corrupt(d, f, BLK_FREE, 0);
    assert_holds(d);
    uint32_t open = die_open(d, die, STREAM_GC);
    die_set_open(d, die, STREAM_GC, f);
    assert_caught(d, blocks_check, "blocks");
    die_set_open(d, die, STREAM_GC, open);
    assert_holds(d);
    busy_close(&b);
}

/* An erase counted in the gauges that no block had. */
static void test_wear(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    CU_ASSERT_TRUE(drive_stats(d)->wear_erases > 0);
    drive_counters(d)->wear_erases++;
    assert_caught(d, wear_check, "wear");
    drive_counters(d)->wear_erases--;
    assert_holds(d);
    busy_close(&b);
}

/* A slot invalidated while an lpn still maps to it. */
static void test_map(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    uint64_t lpn = 0, slot = DRIVE_UNMAPPED;
    for (; lpn < drive_capacity(d) / SLOT_SIZE; lpn++)
        if ((slot = drive_lookup(d, lpn)) < DRIVE_BUFFERED)
            break;
    CUTEST_REQUIRE(slot < DRIVE_BUFFERED);
    map_invalidate_slot(d, slot);
    assert_caught(d, map_check, "map");
    busy_close(&b);
}

/* A page waiting in the write buffer mapped to a slot instead: its ring
 * entry is live but stale. */
static int faults; /* transitions out of turn reported */

static void count_fault(const Drive *d, uint32_t b, const char *what)
{
    (void)d, (void)b, (void)what;
    faults++;
}

static void test_write_buffer(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    uint64_t lpn = 0;
    while (lpn < drive_capacity(d) / SLOT_SIZE && drive_lookup(d, lpn) != DRIVE_BUFFERED)
        lpn++;
    CUTEST_REQUIRE(lpn < drive_capacity(d) / SLOT_SIZE);
    uint32_t f = die_free_list(d, 0, false, &(uint32_t){0})[0];
    /* the free block's valid count is refused by the transitions' own
     * check (FTLSIM_DEBUG), which reports to the hook; the map changes */
    faults = 0;
    CU_ASSERT_TRUE(blocks_set_fault_hook(d, count_fault));
    map_set_run(d, &lpn, 1, nand_slot(d, f, 0));
    CUTEST_EQ(faults, 1);
    blocks_set_fault_hook(d, NULL);
    assert_caught(d, ftl_check, NULL); /* the blocks' and the map's checks run first */
    busy_close(&b);
}

/* A dynamic SLC block counted twice. */
static void test_pslc(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    die_add_slc_dyn(d, 1, 1);
    assert_caught(d, pslc_check, "pSLC cache");
    die_add_slc_dyn(d, 1, -1);
    assert_holds(d);
    busy_close(&b);
}

/* A ratio from a victim with nothing to free (v / (cap - v), v = cap). */
static void test_gc(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    CU_ASSERT_TRUE(drive_stats(d)->nand_write_bytes[CAUSE_GC] > 0);
    gc_set_ratio(d, 2, INFINITY);
    assert_caught(d, gc_check, "GC");
    gc_set_ratio(d, 2, MIN(gc_ratio_cap(d), 1.0) / 2);
    assert_holds(d);
    busy_close(&b);
}

/* A victim in SLC with data left that is not GC's: the block a die is
 * folding; NO_BLOCK if none. */
static uint32_t fold_victim(const Drive *d)
{
    for (uint32_t k = 0; k < drive_geom(d)->nblocks; k++)
        if (blk_state(d, k) == BLK_VICTIM && blk_mode(d, k) == CELL_SLC && blk_valid(d, k) > 0 &&
            die_victim(d, nand_die_of_block(d, k)) != k)
            return k;
    return NO_BLOCK;
}

/* The SLC block a die is folding closed again as if never taken. */
static void test_fold(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, false, TRIM_IMMEDIATE,
                             "rw=write,bs=128k,iodepth=8,size=100%", 0));
    Drive *d = runner_drive(b.r);
    /* on until the cache is full and folding has begun */
    uint32_t v = NO_BLOCK;
    for (SimTime t = 0; v == NO_BLOCK && !workload_finished(b.w) && t < 20 * SIM_SEC;
         t += 10 * SIM_MS) {
        sim_run(runner_engine(b.r), t);
        v = fold_victim(d);
    }
    CUTEST_REQUIRE(v != NO_BLOCK);
    assert_holds(d);
    blk_corrupt(d, v, BLK_FULL, blk_valid(d, v));
    assert_caught(d, fold_check, "folding");
    blk_corrupt(d, v, BLK_VICTIM, blk_valid(d, v));
    assert_holds(d);
    busy_close(&b);
}

/* A map block's valid count off by one translation page. */
static void test_l2p_cache(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, HMB_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    CUTEST_REQUIRE(l2p_cache_on(d));
    assert_holds(d);
    uint32_t m = NO_BLOCK;
    for (uint32_t k = 0; k < drive_geom(d)->nblocks && m == NO_BLOCK; k++)
        if (blk_is_map(d, k) && blk_state(d, k) != BLK_FREE && blk_valid(d, k) > 0)
            m = k;
    CUTEST_REQUIRE(m != NO_BLOCK);
    uint32_t valid = blk_valid(d, m);
    blk_corrupt(d, m, blk_state(d, m), valid - 1);
    assert_caught(d, l2p_check, "mapping cache");
    blk_corrupt(d, m, blk_state(d, m), valid);
    assert_holds(d);
    busy_close(&b);
}

/* Deferred TRIM work on a page the queue does not hold, and a page queued
 * twice. */
static void test_trim(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, TLC_DRIVE, true, TRIM_DEFERRED,
                             "rw=randtrim,bs=16k,iodepth=4,size=50%,io_size=32m", 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    TrimQueue *q = trimq(d);
    CUTEST_REQUIRE(q->pend != NULL && q->len > 0);
    uint32_t t = 0;
    while (t < q->ntp && q->pend[t] != 0)
        t++;
    CUTEST_REQUIRE(t < q->ntp);
    q->pend[t] = 1;
    assert_caught(d, trim_check, "TRIM");
    q->pend[t] = 0;
    assert_holds(d);
    uint32_t tail = (q->head + q->len) % q->ntp, keep = q->ring[tail];
    q->ring[tail] = q->ring[q->head];
    q->len++;
    assert_caught(d, trim_check, "TRIM");
    q->len--;
    q->ring[tail] = keep;
    assert_holds(d);
    busy_close(&b);
}

/* A die counted idle that is not; a program counted that no die runs; a
 * read record both queued and free. */
static void test_sched(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE,
                             "rw=randrw,rwmixread=50,bs=4k,iodepth=32,io_size=64m", 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    Sched *s = sched(d);
    s->nidle++;
    assert_caught(d, sched_check, "scheduler");
    s->nidle--;
    assert_holds(d);
    s->nprog++; /* a program or erase counted that no die runs */
    assert_caught(d, sched_check, "scheduler");
    s->nprog--;
    assert_holds(d);
    uint32_t r = s->rop_free;
    CUTEST_REQUIRE(r != NO_IDX);
    uint32_t next = s->rops[r].next;
    /* the first free record also appended to die 0's queue */
    DieOp *die = &s->die[0];
    uint32_t head = die->rd_head, tail = die->rd_tail;
    if (tail == NO_IDX)
        die->rd_head = r;
    else
        s->rops[tail].next = r;
    s->rops[r].next = NO_IDX;
    die->rd_tail = r;
    assert_caught(d, sched_check, "scheduler");
    die->rd_head = head;
    die->rd_tail = tail;
    if (tail != NO_IDX)
        s->rops[tail].next = NO_IDX;
    s->rops[r].next = next;
    assert_holds(d);
    busy_close(&b);
}

/* Work given a ready time so late that its end wraps past the clock's
 * range (SIM_TIME_MAX taken for "never" and passed on). */
static void test_ctrl(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    ctrl_run(d, SIM_TIME_MAX - 10, 100, CW_TRIM);
    assert_caught(d, ctrl_check, "controller");
    busy_close(&b);
}

/* A record on the free list twice (a command returned twice), and the
 * count of writes outstanding off by one. */
static void test_cmd(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    CmdPool *cp = pool(d);
    cp->writes_outstanding++;
    assert_caught(d, cmd_pool_check, "commands");
    cp->writes_outstanding--;
    assert_holds(d);
    CUTEST_REQUIRE(cp->free != NO_IDX);
    uint32_t first = cp->free, next = cp->cmds[first].next;
    cp->cmds[first].next = first; /* the list loops on its head */
    assert_caught(d, cmd_pool_check, "commands");
    cp->cmds[first].next = next;
    assert_holds(d);
    busy_close(&b);
}

/* A command lost from the host interface's count in flight; on SATA, a
 * non-queued TRIM that waits with nothing in flight ahead of it. */
static void test_hostif(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    CUTEST_REQUIRE(drive_outstanding(d) > 0);
    HostIf *h = hostif(d);
    h->inflight--;
    assert_caught(d, hostif_check, "host interface");
    h->inflight++;
    assert_holds(d);
    CUTEST_REQUIRE(drive_params(d)->interface == HOSTIF_SATA && h->nq == NO_IDX);
    uint32_t c = pool(d)->free;
    CUTEST_REQUIRE(c != NO_IDX);
    h->nq = c; /* a free record as the non-queued command: a read, not sent */
    assert_caught(d, hostif_check, "host interface");
    h->nq = NO_IDX;
    assert_holds(d);
    busy_close(&b);
}

/* More bus time counted than the channels' timelines span. */
static void test_chan(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    SimTime *free_at = chan_free(d);
    uint32_t n = drive_geom(d)->channels;
    g_autofree SimTime *keep = g_memdup2(free_at, n * sizeof *free_at);
    memset(free_at, 0, n * sizeof *free_at); /* as if no channel had been reserved */
    assert_caught(d, chan_check, "channels");
    memcpy(free_at, keep, n * sizeof *free_at);
    assert_holds(d);
    busy_close(&b);
}

/* A transfer time kept for a size that the framing model does not give. */
static void test_link(void)
{
    Busy b;
    CUTEST_REQUIRE(busy_open(&b, PSLC_DRIVE, true, TRIM_IMMEDIATE, RANDW, 200));
    Drive *d = runner_drive(b.r);
    assert_holds(d);
    Link *l = link_of(d);
    CUTEST_REQUIRE(l->last_bytes[1] != UINT64_MAX);
    l->last_ns[1]++;
    assert_caught(d, link_check, "link");
    l->last_ns[1]--;
    assert_holds(d);
    busy_close(&b);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"blocks: free stacks and open blocks", test_blocks},
        {"wear: the gauges", test_wear},
        {"map: L2P against P2L", test_map},
        {"write buffer: ring against marks", test_write_buffer},
        {"pslc: dynamic SLC count", test_pslc},
        {"gc: pacing ratio", test_gc},
        {"fold: the victim", test_fold},
        {"l2p cache: map block counts", test_l2p_cache},
        {"trim: the deferred queue", test_trim},
        {"sched: idle dies and read queues", test_sched},
        {"ctrl: the cores' pieces", test_ctrl},
        {"cmd: the free list and counts", test_cmd},
        {"hostif: in flight, held, non-queued", test_hostif},
        {"chan: busy time within the timelines", test_chan},
        {"link: the kept transfer times", test_link},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("check", tests);
}
