/*
 * tiny_drive.h - small drive geometries for model tests, built directly as
 * DriveParams (no INI parsing), so the model suites do not depend on the
 * config loader. A few blocks per plane make GC run constantly.
 */
#ifndef FTLSIM_TINY_DRIVE_H
#define FTLSIM_TINY_DRIVE_H

#include "models/drive_params.h"

#include <string.h>

/* 2 channels x 1 CE x 1 die, 2 planes, `blocks` blocks per plane of 12 TLC
 * pages (4 wordlines), 16 KiB pages: one block holds 96 slots (384 KiB). */
static inline void tiny_drive(DriveParams *p, uint32_t blocks, double op)
{
    memset(p, 0, sizeof(*p));
    strcpy(p->name, "tiny");
    p->interface = HOSTIF_SATA;
    p->queue_depth = 32;
    p->queue_count = 1;
    p->cmd_cost = 2000;
    p->write_buffer = 256 * 1024;
    p->channels = 2;
    p->ces_per_channel = 1;
    p->channel_rate = 400000000;
    p->channel_width = 8;
    p->dies_per_ce = 1;
    p->planes = 2;
    p->blocks_per_plane = blocks;
    p->pages_per_block = 12;
    p->page_size = 16384;
    p->native_mode = CELL_TLC;
    p->timing[CELL_SLC] = (ModeTiming){.t_read = 30000, .t_prog = 200000, .t_erase = 3000000, .one_shot = true};
    p->timing[CELL_TLC] = (ModeTiming){.t_read = 60000, .t_prog = 2000000, .t_erase = 4000000, .one_shot = true};
    p->gc_policy = GC_GREEDY;
    p->gc_soft_blocks = 2;
    p->gc_hard_blocks = 1;
    uint64_t raw = drive_params_raw_capacity(p);
    p->user_capacity = (uint64_t)((double)raw / (1.0 + op)) / 4096 * 4096;
}

#endif
