/*
 * test_blocks.c - the block state's named transitions (models/blocks.h)
 * and their debug checks, which the test programs are built with
 * (FTLSIM_DEBUG, CMakeLists.txt): a transition called out of turn is
 * reported and not applied, or, with no hook set, aborts; the legal round
 * FREE -> OPEN -> FULL -> VICTIM -> FREE passes unreported.
 */
#include "models/blocks.h"
#include "models/drive.h"
#include "models/nand.h"
#include "tests/cutest.h"
#include "tests/tiny_drive.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct Faults {
    int n;          /* faults reported */
    uint32_t block; /* the last one's block */
    char what[256]; /* and what was wrong */
} Faults;

static Faults faults;

static void on_fault(const Drive *d, uint32_t b, const char *what)
{
    (void)d;
    faults.n++;
    faults.block = b;
    g_strlcpy(faults.what, what, sizeof faults.what);
}

typedef struct Tiny {
    SimEngine *e;
    Drive *d;
} Tiny;

static void tiny_open(Tiny *t)
{
    DriveParams p;
    tiny_drive(&p, 8, 0.3);
    t->e = sim_engine_new();
    t->d = drive_new(t->e, &p, 1);
    memset(&faults, 0, sizeof faults);
}

static void tiny_close(Tiny *t)
{
    drive_free(t->d);
    sim_engine_free(t->e);
}

/* One more fault reported, on block b, saying `what`; nothing else. */
static void expect_fault(int *seen, uint32_t b, const char *what)
{
    CUTEST_EQ(faults.n, *seen + 1);
    CUTEST_EQ(faults.block, b);
    if (!strstr(faults.what, what))
        fprintf(stderr, "expected a fault saying \"%s\", got \"%s\"\n", what, faults.what);
    CU_ASSERT_PTR_NOT_NULL(strstr(faults.what, what));
    *seen = faults.n;
}

static void test_checks_compiled_in(void)
{
    Tiny t;
    tiny_open(&t);
    CU_ASSERT_TRUE(blocks_set_fault_hook(t.d, on_fault));
    tiny_close(&t);
}

/* Every transition called from a state it does not leave, and counts past
 * their bounds: each reported, none applied; the drive's checks hold. */
static void test_out_of_turn(void)
{
    Tiny t;
    tiny_open(&t);
    Drive *d = t.d;
    blocks_set_fault_hook(d, on_fault);
    int seen = 0;
    uint32_t b = nand_take_free(d, 0, drive_geom(d)->native);
    CUTEST_REQUIRE(b != NO_BLOCK);
    uint32_t f = die_free_list(d, 0, false, &(uint32_t){0})[0];
    blk_close(d, f, 1);
    expect_fault(&seen, f, "closed while free");
    blk_take_victim(d, f);
    expect_fault(&seen, f, "taken as a victim while free");
    blk_drop_valid(d, f, 1);
    expect_fault(&seen, f, "1 valid slots dropped while free with 0");
    blk_advance(d, f, 1);
    expect_fault(&seen, f, "1 slots written while free");
    CUTEST_EQ(blk_state(d, f), BLK_FREE);
    CUTEST_EQ(blk_wp(d, f), 0);

    blk_open(d, b, CELL_SLC);
    expect_fault(&seen, b, "opened while open");
    CUTEST_EQ(blk_mode(d, b), drive_geom(d)->native);
    uint32_t cap = nand_block_capacity(d, b);
    blk_advance(d, b, cap - 1);
    blk_add_valid(d, b, 2);
    CUTEST_EQ(faults.n, seen);
    blk_advance(d, b, 2);
    expect_fault(&seen, b, "2 slots written while open at ");
    blk_drop_valid(d, b, 3); /* the underflow a silent subtraction made */
    expect_fault(&seen, b, "3 valid slots dropped while open with 2");
    CUTEST_EQ(blk_valid(d, b), 2);
    blk_erase(d, b);
    expect_fault(&seen, b, "erased while open with 2 valid slots");
    blk_return_victim(d, b);
    expect_fault(&seen, b, "given back as a victim while open");
    blk_make_data(d, b);
    expect_fault(&seen, b, "made a data block while open, not a map block");

    blk_close(d, b, 5);
    CUTEST_EQ(faults.n, seen);
    blk_add_valid(d, b, 1);
    expect_fault(&seen, b, "1 more valid slots while full");
    blk_take_victim(d, b);
    blk_erase(d, b);
    expect_fault(&seen, b, "erased while a victim with 2 valid slots");
    CUTEST_EQ(blk_state(d, b), BLK_VICTIM);
    CUTEST_EQ(blk_drop_valid(d, b, 2), 0);
    CUTEST_EQ(faults.n, seen);
    blocks_set_fault_hook(d, NULL);
    /* the legal end of the round: erased (nand_put_free() calls blk_erase()) */
    nand_put_free(d, b);
    CUTEST_EQ(blk_state(d, b), BLK_FREE);
    char why[256];
    bool ok = drive_check(d, why, sizeof why);
    if (!ok)
        fprintf(stderr, "drive_check: %s\n", why);
    CU_ASSERT_TRUE(ok);
    tiny_close(&t);
}

/* With no hook, a transition out of turn ends the program (as a failed
 * assertion does) rather than going on with a broken block. */
static void test_aborts_without_hook(void)
{
    fflush(NULL);
    pid_t pid = fork();
    CUTEST_REQUIRE(pid >= 0);
    if (pid == 0) {
        Tiny t;
        tiny_open(&t);
        uint32_t n;
        uint32_t f = die_free_list(t.d, 0, false, &n)[0];
        if (freopen("/dev/null", "w", stderr) == NULL)
            _exit(3);
        blk_erase(t.d, f);
        _exit(0); /* not reached when the check works */
    }
    int status = 0;
    CUTEST_REQUIRE(waitpid(pid, &status, 0) == pid);
    if (!WIFSIGNALED(status))
        fprintf(stderr, "child ended with status %d, expected a signal\n", status);
    CU_ASSERT_TRUE(WIFSIGNALED(status));
}

/* Greedy GC's scan (blk_fewest_valid(), four lanes at a time) against a
 * plain loop, on blocks given states and valid counts at random with many
 * ties, over ranges of every length mod 4 (the lanes and the tail): the
 * same block each time, the first full one with the fewest. */
static void test_fewest_valid(void)
{
    Tiny t;
    tiny_open(&t);
    Drive *d = t.d;
    uint32_t nb = drive_geom(d)->nblocks;
    SimRng rng;
    sim_rng_init(&rng, 7, 0);
    int wrong = 0;
    for (int round = 0; round < 200; round++) {
        for (uint32_t b = 0; b < nb; b++) /* counts 0-9: ties everywhere */
            blk_corrupt(d, b, sim_rng_below(&rng, 3) ? BLK_FULL : (int)sim_rng_below(&rng, 2),
                        (uint32_t)sim_rng_below(&rng, 10));
        uint32_t lo = (uint32_t)sim_rng_below(&rng, nb), hi = lo + (uint32_t)sim_rng_below(&rng, nb - lo + 1);
        uint32_t below = (uint32_t)sim_rng_below(&rng, 12), want = NO_BLOCK;
        for (uint32_t b = lo, least = below; b < hi; b++)
            if (blk_state(d, b) == BLK_FULL && blk_valid(d, b) < least) {
                least = blk_valid(d, b);
                want = b;
            }
        wrong += blk_fewest_valid(d, lo, hi, below, 1) != want;
    }
    CUTEST_EQ(wrong, 0);
    /* no full block, any count allowed: none, not a lane's empty place */
    for (uint32_t b = 0; b < nb; b++)
        blk_corrupt(d, b, (int)sim_rng_below(&rng, 2), 0);
    CUTEST_EQ(blk_fewest_valid(d, 0, nb, UINT32_MAX, 1), NO_BLOCK);
    tiny_close(&t);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"debug checks compiled in", test_checks_compiled_in},
        {"transitions out of turn", test_out_of_turn},
        {"aborts without a hook", test_aborts_without_hook},
        {"greedy scan: the first full block with the fewest", test_fewest_valid},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("blocks", tests);
}
