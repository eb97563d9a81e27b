/*
 * test_ctrl.c - the controller's firmware cores: work queues for the first
 * core free, a saturated controller bounds IOPS, relocation work is
 * counted and an offload takes it off the cores.
 */
#include "models/ctrl.h"
#include "models/drive.h"
#include "tests/cutest.h"
#include "tests/tiny_drive.h"

#include <string.h>

/* Work given in order goes to the core that frees first, starting when it
 * is ready and that core is free; busy time counts by kind. */
static void test_queueing(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    dp.ctrl_cores = 2;
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    /* cores free at 0, 0 */
    CUTEST_EQ(ctrl_run(d, 0, 10, CW_SUBMIT), 10);    /* core 0 to 10 */
    CUTEST_EQ(ctrl_run(d, 0, 20, CW_SUBMIT), 20);    /* core 1 to 20 */
    CUTEST_EQ(ctrl_run(d, 0, 30, CW_MAP), 40);       /* core 0 frees first: 10..40 */
    CUTEST_EQ(ctrl_run(d, 100, 5, CW_TRIM), 105);    /* both can start it at 100: core 0 */
    CUTEST_EQ(ctrl_run(d, 0, 0, CW_SUBMIT), 20);     /* no cost: waits for the first core free */
    CUTEST_EQ(ctrl_first_free(d), 20);
    CUTEST_EQ(ctrl_run(d, 50, 3, CW_SUBMIT), 53); /* a free core: 50..53 */
    CUTEST_EQ(ctrl_run(d, 53, 4, CW_MAP), 57);    /* after it: 53..57 */
    const DriveStats *st = drive_stats(d);
    CUTEST_EQ(st->ctrl_busy_ns[CW_SUBMIT], 10 + 20 + 3);
    CUTEST_EQ(st->ctrl_busy_ns[CW_MAP], 30 + 4);
    CUTEST_EQ(st->ctrl_busy_ns[CW_TRIM], 5);
    CUTEST_EQ(st->ctrl_busy_ns[CW_RELOCATE], 0);
    drive_free(d);
    sim_engine_free(e);
}

/* A piece ready later holds its place without idling the core before it:
 * earlier work that fits the gap takes it, work that does not goes after. */
static void test_gaps(void)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    CUTEST_EQ(ctrl_run(d, 100, 10, CW_RELOCATE), 110);
    CUTEST_EQ(ctrl_run(d, 0, 30, CW_SUBMIT), 30);   /* fits before it */
    CUTEST_EQ(ctrl_run(d, 0, 80, CW_SUBMIT), 190);  /* 30 + 80 > 100: after it */
    CUTEST_EQ(ctrl_run(d, 0, 70, CW_SUBMIT), 100);  /* exactly fills 30..100 */
    CUTEST_EQ(ctrl_run(d, 0, 0, CW_SUBMIT), 190);   /* busy 0..190 without a gap */
    /* more pieces than a core keeps apart: the oldest merge, none is lost */
    for (int i = 0; i < 200; i++)
        CUTEST_EQ(ctrl_run(d, 1000 + 20 * (SimTime)i, 5, CW_MISS), 1005 + 20 * (SimTime)i);
    CUTEST_EQ(drive_stats(d)->ctrl_busy_ns[CW_MISS], 1000);
    drive_free(d);
    sim_engine_free(e);
}

/* A closed loop of n commands of one kind and length at queue depth qd on
 * an NVMe tiny drive, over a span of 64 lengths: reads of never-written
 * pages (no NAND read, so only the link and the controller bound them) or
 * writes. */
typedef struct Loop {
    SimEngine *e;
    Drive *d;
    IoOp op;
    uint64_t left, issued, n, len;
} Loop;

static void loop_submit(Loop *l)
{
    uint64_t offset = (l->issued % 64) * l->len;
    drive_submit(l->d, &(DriveCmd){.op = l->op, .offset = offset, .length = l->len});
    l->issued++;
}

static void loop_done(void *ctx, const DriveCompletion *dc)
{
    Loop *l = ctx;
    (void)dc;
    if (--l->left == 0) {
        sim_stop(l->e);
        return;
    }
    if (l->issued < l->n)
        loop_submit(l);
}

/* The tiny drive behind a fast NVMe link, for the loop. */
static void nvme_tiny(DriveParams *dp)
{
    tiny_drive(dp, 16, 0.3);
    dp->interface = HOSTIF_NVME;
    dp->pcie_gen = 3;
    dp->pcie_lanes = 4;
}

/* Simulated seconds until the loop's last command ends; its stats in out. */
static double loop_time(const DriveParams *dp, IoOp op, uint64_t len, uint64_t n, uint32_t qd,
                        DriveStats *out)
{
    Loop l = {.e = sim_engine_new(), .op = op, .left = n, .n = n, .len = len};
    l.d = drive_new(l.e, dp, 1);
    drive_set_done(l.d, loop_done, &l);
    while (l.issued < qd && l.issued < n)
        loop_submit(&l);
    sim_run(l.e, SIM_TIME_MAX);
    CUTEST_EQ(l.left, 0);
    double t = (double)sim_now(l.e) / 1e9;
    *out = *drive_stats(l.d);
    drive_free(l.d);
    sim_engine_free(l.e);
    return t;
}

/* Seconds for 4000 4 KiB reads at queue depth 32. */
static double read_time(uint32_t cores, uint64_t cmd_cost, uint64_t complete_cost, DriveStats *out)
{
    DriveParams dp;
    nvme_tiny(&dp);
    dp.cmd_cost = cmd_cost;
    dp.ctrl_complete_cost = complete_cost;
    dp.ctrl_cores = cores;
    return loop_time(&dp, IO_READ, 4096, 4000, 32, out);
}

/* Past the link's rate, the cores bound IOPS: cores / (submit + complete)
 * per second, and the controller is all but always busy. */
static void test_saturated_bounds_iops(void)
{
    DriveStats st;
    double fast = read_time(1, 0, 0, &st); /* the link alone */
    double link_iops = 4000 / fast;
    CU_ASSERT(link_iops > 200000);
    double t1 = read_time(1, 20000, 5000, &st); /* 25 us a command: 40K IOPS */
    CUTEST_NEAR(4000 / t1, 40000, 40000 * 0.01);
    CUTEST_EQ(st.ctrl_busy_ns[CW_SUBMIT], 4000 * 20000ull);
    CUTEST_EQ(st.ctrl_busy_ns[CW_COMPLETE], 4000 * 5000ull);
    double busy = (double)(st.ctrl_busy_ns[CW_SUBMIT] + st.ctrl_busy_ns[CW_COMPLETE]) / (t1 * 1e9);
    CU_ASSERT(busy > 0.99 && busy <= 1.0 + 1e-9);
    double t2 = read_time(2, 20000, 5000, &st); /* two cores: twice that */
    CUTEST_NEAR(4000 / t2, 80000, 80000 * 0.01);
    double t4 = read_time(4, 20000, 5000, &st);
    CUTEST_NEAR(4000 / t4, 160000, 160000 * 0.02);
}

/* Seconds for n writes of kib KiB at queue depth qd, with these costs. */
static double write_time(uint64_t kib, uint64_t n, uint32_t qd, uint64_t cmd_cost, uint64_t page_cost,
                         DriveStats *out)
{
    DriveParams dp;
    nvme_tiny(&dp);
    dp.cmd_cost = cmd_cost;
    dp.page_cost = page_cost;
    return loop_time(&dp, IO_WRITE, kib * 1024, n, qd, out);
}

/* page_cost: the map updates of a write's 4 KiB units hold a core after
 * its submission, while its data comes in. Small writes back to back are
 * bound by cmd_cost + page_cost each; one large write is not delayed by
 * its own map updates. */
static void test_map_updates(void)
{
    DriveStats st;
    double t0 = write_time(4, 2000, 32, 50000, 0, &st); /* the dies bind: ~17.7K IOPS */
    double t1 = write_time(4, 2000, 32, 50000, 50000, &st); /* 100 us a write: 10K IOPS */
    CUTEST_NEAR(2000 / t1, 10000, 10000 * 0.01);
    CU_ASSERT(t1 > t0 * 1.4);
    CUTEST_EQ(st.ctrl_busy_ns[CW_MAP], 2000 * 50000ull);
    CUTEST_EQ(st.ctrl_busy_ns[CW_SUBMIT], 2000 * 50000ull);
    /* one 256 KiB write alone: 64 units' map updates (640 us) run while its
     * data moves, so it ends when it would without them */
    double one0 = write_time(256, 1, 1, 20000, 0, &st);
    double one1 = write_time(256, 1, 1, 20000, 10000, &st);
    CUTEST_NEAR(one1, one0, 1e-9);
    CUTEST_EQ(st.ctrl_busy_ns[CW_MAP], 64 * 10000ull);
}

/* Random 4 KiB writes on a full tiny drive: GC moves data, each 4 KiB moved
 * costs relocate_cost on a core, and copy_offload moves it past them. */
static void gc_run(uint64_t relocate, bool offload, DriveStats *out, SimTime *end)
{
    DriveParams dp;
    tiny_drive(&dp, 16, 0.3);
    dp.ctrl_relocate_cost = relocate;
    dp.ctrl_copy_offload = offload;
    dp.ctrl_erase_cost = 7000;
    SimEngine *e = sim_engine_new();
    Drive *d = drive_new(e, &dp, 1);
    SimRng r;
    sim_rng_init(&r, 9, 0);
    uint64_t pages = dp.user_capacity / 4096;
    for (int round = 0; round < 3; round++) {
        for (uint64_t i = 0; i < pages; i++) {
            uint64_t lpn = round == 0 ? i : sim_rng_below(&r, pages);
            drive_submit(d, &(DriveCmd){.op = IO_WRITE, .offset = lpn * 4096, .length = 4096});
            while (drive_outstanding(d) > 0)
                sim_run(e, sim_now(e) + 1000000);
        }
    }
    char why[256];
    CU_ASSERT_TRUE(drive_check(d, why, sizeof why));
    *out = *drive_stats(d);
    *end = sim_now(e);
    drive_free(d);
    sim_engine_free(e);
}

static void test_relocation(void)
{
    DriveStats st, off;
    SimTime t, t_off;
    gc_run(3000, false, &st, &t);
    uint64_t moved = (st.nand_write_bytes[CAUSE_GC] + st.nand_write_bytes[CAUSE_FOLD]) / 4096;
    CU_ASSERT(moved > 1000);
    CUTEST_EQ(st.ctrl_busy_ns[CW_RELOCATE], moved * 3000);
    CUTEST_EQ(st.ctrl_busy_ns[CW_ERASE], st.nand_erases * 7000);
    gc_run(3000, true, &off, &t_off);
    CUTEST_EQ(off.ctrl_busy_ns[CW_RELOCATE], 0);
    CU_ASSERT(off.nand_write_bytes[CAUSE_GC] > 0);
    /* the cores' work between the channel transfers delays the programs */
    CU_ASSERT(t > t_off);
}

/* ctrl_run_now() is ctrl_run() of work ready now, with a short path for
 * one core that has finished what it holds: on one core and two, work
 * given now, later (leaving gaps) and of no cost, at times that step on,
 * both must end the work at the same times and count the same. */
typedef struct NowSteps {
    SimEngine *e;
    Drive *a, *b; /* a: ctrl_run_now(); b: ctrl_run(now) */
    SimRng r;
    uint32_t left, differ;
} NowSteps;

static void now_step(void *ctx, uint64_t arg)
{
    NowSteps *s = ctx;
    (void)arg;
    SimTime now = sim_now(s->e);
    for (uint32_t k = sim_rng_below(&s->r, 3); k > 0; k--) {
        SimTime cost = sim_rng_below(&s->r, 4) == 0 ? 0 : 100 + sim_rng_below(&s->r, 3000);
        if (sim_rng_below(&s->r, 4) == 0) { /* relocation work: ready later */
            SimTime ready = now + sim_rng_below(&s->r, 20000);
            s->differ += ctrl_run(s->a, ready, cost, CW_RELOCATE) != ctrl_run(s->b, ready, cost, CW_RELOCATE);
        } else {
            s->differ += ctrl_run_now(s->a, cost, CW_SUBMIT) != ctrl_run(s->b, now, cost, CW_SUBMIT);
        }
    }
    if (--s->left > 0)
        sim_schedule(s->e, now + sim_rng_below(&s->r, 4000), now_step, s, 0);
}

static void test_run_now(void)
{
    for (uint32_t cores = 1; cores <= 2; cores++) {
        DriveParams dp;
        tiny_drive(&dp, 16, 0.3);
        dp.ctrl_cores = cores;
        NowSteps s = {.e = sim_engine_new(), .left = 20000};
        s.a = drive_new(s.e, &dp, 1);
        s.b = drive_new(s.e, &dp, 1);
        sim_rng_init(&s.r, 3, cores);
        sim_schedule(s.e, 0, now_step, &s, 0);
        sim_run(s.e, SIM_TIME_MAX);
        CUTEST_EQ(s.left, 0);
        CUTEST_EQ(s.differ, 0);
        CU_ASSERT(memcmp(drive_stats(s.a)->ctrl_busy_ns, drive_stats(s.b)->ctrl_busy_ns,
                         sizeof drive_stats(s.a)->ctrl_busy_ns) == 0);
        char why[256];
        CU_ASSERT_TRUE(drive_check(s.a, why, sizeof why));
        drive_free(s.a);
        drive_free(s.b);
        sim_engine_free(s.e);
    }
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"queueing", test_queueing},
        {"gaps", test_gaps},
        {"saturated controller bounds IOPS", test_saturated_bounds_iops},
        {"relocation", test_relocation},
        {"map updates", test_map_updates},
        {"run now", test_run_now},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("ctrl", tests);
}
