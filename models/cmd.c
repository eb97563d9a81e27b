/*
 * cmd.c - the command records, and completing commands from inside the
 * drive.
 *
 * The parts that finish a command (ftl.c, trim.c) sit below the host
 * interface; they complete it through the handler the host interface
 * registered, at a time or at once. The counts of commands outstanding
 * live here, below everything that asks for them.
 */
#include "models/cmd.h"
#include "models/ctrl.h"

typedef struct CmdPool {
    Cmd *cmds;
    uint32_t limit;
    uint32_t free;               /* free list head */
    uint32_t outstanding;
    uint32_t writes_outstanding; /* idle folding waits for the host to stop writing */
    SimEventFn done;             /* completes a command (hostif.c); arg: its index */
} CmdPool;

static CmdPool *pool(const Drive *d) { return drive_part(d, DP_CMDS); }

void cmd_init(Drive *d)
{
    const DriveParams *p = drive_params(d);
    CmdPool *cp = g_new0(CmdPool, 1);
    g_assert(drive_params_queue_limit(p) <= QUEUE_LIMIT_MAX);
    cp->limit = (uint32_t)drive_params_queue_limit(p);
    cp->cmds = g_new0(Cmd, cp->limit);
    for (uint32_t i = 0; i < cp->limit; i++)
        cp->cmds[i].next = i + 1 < cp->limit ? i + 1 : NO_IDX;
    cp->free = 0;
    drive_set_part(d, DP_CMDS, cp);
}

void cmd_release(Drive *d)
{
    CmdPool *cp = pool(d);
    if (cp)
        g_free(cp->cmds);
    g_free(cp);
}

Cmd *cmd_at(const Drive *d, uint32_t c) { return &pool(d)->cmds[c]; }

uint32_t cmd_take(Drive *d, IoOp op)
{
    CmdPool *cp = pool(d);
    uint32_t c = cp->free;
    if (c == NO_IDX)
        return NO_IDX;
    cp->free = cp->cmds[c].next;
    cp->outstanding++;
    cp->writes_outstanding += op == IO_WRITE;
    return c;
}

bool cmd_put(Drive *d, uint32_t c)
{
    CmdPool *cp = pool(d);
    Cmd *cmd = &cp->cmds[c];
    cmd->next = cp->free;
    cp->free = c;
    cp->outstanding--;
    return cmd->op == IO_WRITE && --cp->writes_outstanding == 0;
}

uint32_t drive_queue_limit(const Drive *d) { return pool(d)->limit; }
uint32_t drive_outstanding(const Drive *d) { return pool(d)->outstanding; }
uint32_t cmd_writes_outstanding(const Drive *d) { return pool(d)->writes_outstanding; }
void cmd_set_handler(Drive *d, SimEventFn done) { pool(d)->done = done; }

/* Posting a completion is firmware work too ([controller] complete_cost):
 * the host sees the command end when a core has posted it. */
void cmd_complete(Drive *d, uint32_t c, SimTime at)
{
    SimTime cost = drive_params(d)->ctrl_complete_cost;
    if (cost > 0)
        at = ctrl_run(d, at, cost, CW_COMPLETE);
    sim_schedule(drive_engine(d), at, pool(d)->done, d, c);
}

void cmd_complete_now(Drive *d, uint32_t c)
{
    if (drive_params(d)->ctrl_complete_cost > 0) {
        cmd_complete(d, c, sim_now(drive_engine(d)));
        return;
    }
    pool(d)->done(d, c);
}

bool cmd_pool_check(const Drive *d, char *why, size_t why_len)
{
    const CmdPool *cp = pool(d);
    g_autofree uint8_t *free_rec = g_new0(uint8_t, cp->limit);
    uint32_t nfree = 0, writes = 0;
    for (uint32_t c = cp->free; c != NO_IDX; c = cp->cmds[c].next) {
        CHECK(c < cp->limit && !free_rec[c] && nfree < cp->limit,
              "the free list holds record %u: beyond the pool's %u, or twice", c, cp->limit);
        free_rec[c] = 1;
        nfree++;
    }
    CHECK(nfree + cp->outstanding == cp->limit,
          "%u records free and %u commands outstanding, the pool holds %u", nfree,
          cp->outstanding, cp->limit);
    for (uint32_t c = 0; c < cp->limit; c++)
        writes += !free_rec[c] && cp->cmds[c].op == IO_WRITE;
    CHECK(writes == cp->writes_outstanding, "%u records in use for writes, %u writes counted",
          writes, cp->writes_outstanding);
    return true;
}
