/*
 * cmd.c - completing host commands from inside the drive.
 *
 * The parts that finish a command (ftl.c, trim.c) sit below the host
 * interface; they complete it through the handler the host interface
 * registered (Drive.cmd_done), at a time or at once.
 */
#include "models/ftl_impl.h"

void cmd_complete(Drive *d, uint32_t c, SimTime at)
{
    sim_schedule(drive_engine(d), at, d->cmd_done, d, c);
}

void cmd_complete_now(Drive *d, uint32_t c)
{
    d->cmd_done(d, c);
}
