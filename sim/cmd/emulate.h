/*
 * emulate.h - the simulated drive as a file, in real time (ftlsim emulate).
 *
 * A FUSE file system holds one file, MOUNTPOINT/disk, of the drive's user
 * capacity. Its reads, writes, fsyncs and hole punches become the drive
 * model's host commands as they arrive; a reply is held until the model
 * completes the command, with the simulated clock kept in step with the
 * wall clock. Unmounting (or SIGINT, SIGTERM, SIGHUP) ends the run; the
 * results folder then holds what `ftlsim run` writes plus trace.iolog,
 * the I/O the applications issued, which `ftlsim run --trace` replays.
 */
#ifndef FTLSIM_EMULATE_H
#define FTLSIM_EMULATE_H

#include "sim/engine/engine.h"

#include <glib.h>

typedef struct EmulateOptions {
    const char *drive;       /* INI file */
    const char *const *sets; /* --set overrides, or NULL */
    const char *prefill;     /* --prefill SPEC, or NULL */
    const char *mountpoint;  /* an empty folder */
    const char *out;         /* results folder */
    gboolean force;          /* replace an earlier results folder */
    gboolean no_data;        /* --no-data: keep no data; reads return zeros */
    gboolean allow_other;    /* -o allow_other: other users (root's losetup) may open the file */
    gboolean plot;           /* draw the figures */
    int plot_format;         /* PlotFormat: png or svg */
    gboolean quiet;          /* no status line, no summary */
    uint64_t seed;
    SimTime interval;        /* a series row every this much time */
} EmulateOptions;

void emulate_options_init(EmulateOptions *o);

/* Mount, emulate until unmounted or signalled, unmount, write the results
 * folder. FALSE with a RUN_ERROR error: RUN_ERROR_INPUT for bad options,
 * a drive that does not fit, or a mount point that cannot be used (nothing
 * mounted, nothing written); RUN_ERROR_FAILED when the emulation failed. */
gboolean emulate_run(const EmulateOptions *o, GError **error);

#endif
