/*
 * cmd.h - the records of the host commands in flight (models/cmd.c).
 *
 * The pool is sized by the queue limit at creation; a command is an index
 * into it. The host interface takes and returns records; the parts that
 * serve a command (ftl.c, trim.c, l2p_cache.c) read and fill its record
 * through cmd_at(), and complete it through the host interface's handler.
 */
#ifndef FTLSIM_CMD_H
#define FTLSIM_CMD_H

#include "models/parts.h"

/* One host command in flight. */
typedef struct Cmd {
    uint64_t tag;
    uint64_t offset, length; /* bytes */
    uint32_t pending;        /* die reads outstanding */
    uint32_t next;           /* free list / wait queue link */
    uint32_t slots;          /* 4 KiB units covered */
    uint32_t map_wait;       /* translation pages (or HMB accesses) still awaited */
    uint32_t rmw;            /* 4 KiB pieces of partly written map units to rewrite with it */
    uint32_t rmw_head;       /* of them, those of its first unit (the rest: its last) */
    uint32_t sent, landed;   /* a write: its 4 KiB units given buffer room, and arrived in it */
    uint32_t merge;          /* its map units' merge reads (ftl.c), NO_IDX if none */
    uint8_t op;
    uint16_t pid;            /* a write's FDP placement identifier (0 without FDP) */
    uint8_t zop;             /* ZoneOp of a zone command (ZOP_NONE otherwise) */
    uint8_t status;          /* ZnsStatus it completes with */
    /* where a read's time goes (DriveStats.read_parts_ns) */
    SimTime t_sub;      /* submitted */
    SimTime t_start;    /* reached the FTL (link and controller done) */
    SimTime t_issue;    /* translated: its NAND reads queued; a write: ready for the buffer */
    SimTime t_admit;    /* a write: given room in the buffer (its last piece's, if in pieces) */
    SimTime piece_wait; /* the last NAND read to end: its wait for the die */
} Cmd;

void cmd_init(Drive *d); /* the pool, for drive_queue_limit() commands */
void cmd_release(Drive *d);
Cmd *cmd_at(const Drive *d, uint32_t c);
/* A free record for a command of op, counted outstanding; NO_IDX if none. */
uint32_t cmd_take(Drive *d, IoOp op);
/* Command c completed: its record goes back. True if it was the last
 * write outstanding. */
bool cmd_put(Drive *d, uint32_t c);
uint32_t cmd_writes_outstanding(const Drive *d); /* idle folding waits for none */
/* The host interface's completion handler; its arg is the command. */
void cmd_set_handler(Drive *d, SimEventFn done);
/* Complete command c through the handler, at a time or at once. */
void cmd_complete(Drive *d, uint32_t c, SimTime at);
void cmd_complete_now(Drive *d, uint32_t c);
/* The pool's invariants: the free list holds records of the pool, each
 * once, as many as are not outstanding; the writes outstanding are the
 * records in use for writes (drive_check()). */
bool cmd_pool_check(const Drive *d, char *why, size_t why_len);

#endif
