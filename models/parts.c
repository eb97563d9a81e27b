/*
 * parts.c - the Drive record: the engine, the parameters, the counters, the
 * geometry and a pointer to each part's private state.
 *
 * The bottom of models/: it calls nothing, so every part may reach the
 * drive's shared values through it without a cycle in the call graph.
 */
#include "models/ftl_impl.h"

Drive *drive_record_new(SimEngine *eng, const DriveParams *p, const Geom *g)
{
    Drive *d = g_new0(Drive, 1);
    d->eng = eng;
    d->p = *p;
    d->g = *g;
    return d;
}

void drive_record_free(Drive *d) { g_free(d); }

SimEngine *drive_engine(const Drive *d) { return d->eng; }
const DriveParams *drive_params(const Drive *d) { return &d->p; }
const DriveStats *drive_stats(const Drive *d) { return &d->st; }
DriveStats *drive_counters(Drive *d) { return &d->st; }
const Geom *drive_geom(const Drive *d) { return &d->g; }
void *drive_part(const Drive *d, DrivePart k) { return d->part[k]; }
void drive_set_part(Drive *d, DrivePart k, void *state) { d->part[k] = state; }
