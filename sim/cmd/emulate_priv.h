/*
 * emulate_priv.h - what the two halves of emulate share: the FUSE side
 * (emulate_fuse.c: the file, its data, the worker threads) hands commands
 * to the engine side (emulate.c: the one thread that runs the simulation
 * in step with the wall clock) through a queue under one mutex, and waits
 * on its slot's condition variable for the model's completion.
 */
#ifndef FTLSIM_EMULATE_PRIV_H
#define FTLSIM_EMULATE_PRIV_H

#include "models/drive.h"
#include "sim/cmd/emulate.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Command slots: at most this many commands between FUSE and the model
 * (the kernel's FUSE background queue is set to EMU_BACKGROUND, below it). */
#define EMU_SLOTS 256
#define EMU_BACKGROUND 128

enum { EMU_FREE = 0, EMU_QUEUED, EMU_IN_MODEL, EMU_DONE };

typedef struct EmuSlot {
    uint64_t offset, length; /* bytes */
    uint64_t arrival;        /* ns after the start: when the request reached us */
    uint64_t submit;         /* ns, simulated: when the model got it */
    uint64_t done;           /* ns, simulated: when the model completed it */
    uint8_t op;              /* IoOp */
    uint8_t state;           /* EMU_* */
    pthread_cond_t cv;       /* the worker waits here for EMU_DONE */
} EmuSlot;

/* What the emulation itself cost, per command (the floor under the model). */
typedef struct EmuFloor {
    uint64_t commands;
    uint64_t pickup_ns, pickup_max;  /* arrival to the model's submission */
    uint64_t reply_ns, reply_max;    /* the model's completion to the worker awake */
    uint64_t model_ns;               /* the model's latencies, summed */
    uint32_t depth_max;              /* most commands at once between FUSE and the model */
} EmuFloor;

typedef struct Emu {
    pthread_mutex_t m;
    pthread_cond_t engine_cv; /* the engine thread waits for commands or the stop */
    pthread_cond_t slot_cv;   /* a worker waits for a free slot */
    EmuSlot slot[EMU_SLOTS];
    uint32_t free_slot[EMU_SLOTS], nfree;
    uint32_t queue[EMU_SLOTS], qhead, qlen; /* arrived, not yet taken by the engine */
    uint32_t depth;                         /* slots taken */
    bool stopping;                          /* the file system is gone: drain and stop */
    bool failed;                            /* the model stopped: commands fail with EIO */
    uint64_t t0;                            /* CLOCK_MONOTONIC ns at simulated 0 */
    EmuFloor floor;                         /* under m */
    uint64_t capacity;                      /* bytes: the file's size */
    uint8_t *data;                          /* the drive's data; NULL with --no-data */
    const EmulateOptions *o;
} Emu;

/* ns on CLOCK_MONOTONIC. */
uint64_t emu_clock(void);
/* A command of op on [offset, offset + length) from a FUSE worker: queued
 * for the engine, waited for; 0, or -EIO when the model has stopped. */
int emu_command(Emu *emu, IoOp op, uint64_t offset, uint64_t length);

/* emulate_fuse.c: mount the file system on o->mountpoint, serve it with
 * worker threads until it is unmounted or a signal (SIGINT, SIGTERM,
 * SIGHUP) asks, then unmount. FALSE with error when it cannot be mounted.
 * emu_fuse_close() frees the session once the engine thread is gone. */
gboolean emu_fuse_serve(Emu *emu, GError **error);
void emu_fuse_close(void);
/* Can the folder be mounted on: an empty folder that is not a mount point
 * already? FALSE with a one-line error naming it. */
gboolean emu_fuse_check_mountpoint(const char *path, GError **error);
/* Ask emu_fuse_serve() to return (the model stopped). */
void emu_fuse_stop(void);
/* A signal or the unmount asked emu_fuse_serve() to return: commands still
 * waiting for the model are failed (EIO) so that its workers can end. */
bool emu_fuse_exited(void);

#endif
