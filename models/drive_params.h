/*
 * drive_params.h - the parameters of a simulated drive, as plain data.
 *
 * Filled and validated by the INI loader (sim/config.c) from one schema
 * table; the models read it and never change it. Units are in the field
 * comments: sizes in bytes, times in ns, rates in bytes or transfers per
 * second, shares as fractions in [0, 1].
 */
#ifndef FTLSIM_DRIVE_PARAMS_H
#define FTLSIM_DRIVE_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

/* Cell modes; the value is the number of bits per cell. */
typedef enum CellMode {
    CELL_SLC = 1,
    CELL_MLC = 2,
    CELL_TLC = 3,
    CELL_QLC = 4,
} CellMode;
#define CELL_MODES 5 /* index by CellMode; slot 0 unused */
#define DRIVE_FAMILY_DEPTH 4  /* family files a drive file may include, nested */
#define DRIVE_FAMILY_PATH 256 /* bytes of a family file's path, NUL included */

typedef enum HostIfKind {
    HOSTIF_SATA = 0,
    HOSTIF_NVME = 1,
} HostIfKind;

typedef enum L2pKind {
    L2P_DRAM = 0, /* whole table in controller DRAM */
    L2P_HMB = 1,  /* part of the table in a host memory buffer */
    L2P_SRAM = 2, /* part of the table in on-controller SRAM */
} L2pKind;

typedef enum PslcRule {
    PSLC_RULE_NONE = 0,       /* no dynamic part */
    PSLC_RULE_CAPPED = 1,     /* up to dynamic_cap, bounded by free space */
    PSLC_RULE_FREE_SHARE = 2, /* dynamic_share of the free space */
} PslcRule;

typedef enum FoldPolicy {
    FOLD_FIRST = 0,   /* cache exhausted: fold while new data lands natively */
    NATIVE_FIRST = 1, /* cache exhausted: write natively, fold when space runs out */
} FoldPolicy;

typedef enum GcPolicy {
    GC_GREEDY = 0,
    GC_COST_BENEFIT = 1,
    GC_FIFO = 2,
} GcPolicy;

/* How firmware paces host writes against GC's debt below the soft threshold. */
typedef enum GcPacing {
    GC_PACE_STEADY = 0, /* enterprise: each host slot pays its GC share first */
    GC_PACE_BURST = 1,  /* consumer: host first, GC in idle die time, a stall at the reserve */
} GcPacing;

/* What FDP's GC reclaims at a time ([fdp] gc_unit, models/fdp.c). */
typedef enum FdpGcUnit {
    FDP_GC_BLOCK = 0, /* a block, die by die, as any drive */
    FDP_GC_RU = 1,    /* a whole reclaim unit: its blocks on every die, erased together */
} FdpGcUnit;

typedef enum TrimPolicy {
    TRIM_IMMEDIATE = 0,
    TRIM_DEFERRED = 1,
} TrimPolicy;

/* Timing of one cell mode. */
typedef struct ModeTiming {
    uint64_t t_read;  /* ns, tR of one page */
    uint64_t t_prog;  /* ns, one program unit (one-shot: the whole wordline); with
                       * program_by_page, the page times' mean */
    uint64_t t_erase; /* ns, tBERS */
    bool one_shot;    /* all pages of a wordline in one program */
    bool two_pass;    /* programs in two passes (coarse, fine), the data moving in for each */
    /* Latency that varies as NAND does (docs/nand-latency.md); all optional. */
    char read_by_page[64];   /* tR by page type of a wordline, "50us,65us,80us"; "": t_read */
    uint64_t t_read_page[CELL_MODES - 1]; /* ns, read_by_page parsed (lower page first);
                                           * 0: t_read. Not a key: the loader fills it */
    char program_by_page[64]; /* tPROG by page type, one_shot = false only; "": t_prog */
    uint64_t t_prog_page[CELL_MODES - 1]; /* ns, program_by_page parsed (lower page first);
                                           * 0: t_prog. Not a key: the loader fills it */
    double read_retry_rate;  /* probability a page's sensing fails and is retried */
    uint64_t read_retry_time; /* ns, extra sensing time of one retry */
} ModeTiming;

/* Retries of one page read at most (each fails with read_retry_rate). */
#define READ_RETRY_MAX 8

typedef struct DriveParams {
    /* [drive] */
    char name[64];
    char notes[512];
    uint64_t user_capacity; /* bytes the host sees */
    /* The family files the drive file included (its `include` line, then
     * theirs), nearest first, as opened; "" after the last. Not a schema
     * key: the loader records where the values came from. */
    char family_files[DRIVE_FAMILY_DEPTH][DRIVE_FAMILY_PATH];

    /* [host] */
    HostIfKind interface;
    uint32_t pcie_gen;     /* 1..5, NVMe only */
    uint32_t pcie_lanes;   /* 1, 2, 4, 8, 16; NVMe only */
    uint32_t queue_depth;  /* commands outstanding per queue (SATA NCQ: 32) */
    uint32_t queue_count;  /* NVMe I/O queues */
    uint64_t cmd_cost;     /* ns of controller firmware work per command */
    uint64_t page_cost;    /* ns of controller work per 4 KiB mapped unit written */
    uint64_t write_buffer; /* bytes of write buffer in the controller */
    uint64_t hmb_latency;  /* ns, one access of the controller to the host memory buffer */

    /* [controller] */
    uint32_t channels;
    uint32_t ces_per_channel;
    uint64_t channel_rate; /* transfers per second on the bus (MT/s * 1e6) */
    uint32_t channel_width; /* bits per transfer */
    uint64_t dram;          /* bytes of controller DRAM (0: DRAM-less) */
    L2pKind l2p_kind;
    uint64_t l2p_cache;     /* bytes of mapping cache for hmb / sram */
    bool l2p_prefetch;      /* a sequential run loads the next translation page ahead */
    uint32_t ctrl_cores;           /* firmware cores (models/ctrl.c) */
    uint64_t ctrl_complete_cost;   /* ns of firmware work per host command completed */
    uint64_t ctrl_miss_cost;       /* ns per mapping-cache miss handled */
    uint64_t ctrl_relocate_cost;   /* ns per 4 KiB slot GC or folding moves */
    uint64_t ctrl_erase_cost;      /* ns of bookkeeping per block erased */
    bool ctrl_copy_offload;        /* relocations bypass the cores (a hardware copy path) */
    uint32_t ctrl_max_program_dies; /* dies programming or erasing at once (0: no limit) */
    uint32_t l2p_tp_entries; /* entries per translation page; 0 (configs): page_size / 4.
                              * Not a config key: tests set fewer to make tiny drives thrash */

    /* [ftl] */
    uint32_t map_unit;      /* bytes one L2P entry maps: 4 KiB x 2^k (0 in hand-built params: 4 KiB) */

    /* [nand] */
    uint32_t dies_per_ce;
    uint32_t planes;
    uint32_t blocks_per_plane;
    uint32_t pages_per_block; /* pages of the native mode (wordlines x bits) */
    uint32_t page_size;       /* bytes */
    CellMode native_mode;
    bool erase_suspend;       /* host reads may suspend an erase */
    bool program_suspend;     /* host reads may suspend a program */
    bool cache_read;          /* a die senses its next page while the last one moves out */

    /* [timing.slc] [timing.mlc] [timing.tlc] [timing.qlc]; index by CellMode */
    ModeTiming timing[CELL_MODES];

    /* [pslc] */
    uint64_t pslc_static;     /* bytes of host data the static part holds */
    PslcRule pslc_rule;
    uint64_t pslc_dynamic_cap; /* bytes of host data, rule capped */
    double pslc_dynamic_share; /* fraction of free space, rule free_share */
    FoldPolicy fold_policy;
    uint64_t fold_idle_delay;  /* ns of host idleness before idle folding starts */
    double fold_high_watermark; /* fraction of the cache limit that starts folding early */
    uint64_t pslc_reserve;      /* bytes of native free space the dynamic part leaves beyond R */
    bool fold_background;       /* fold in die time host writes leave */
    uint64_t pslc_floor;        /* bytes of host data the cache keeps room for however full the drive */

    /* [gc] */
    GcPolicy gc_policy;
    uint32_t gc_soft_blocks; /* free blocks per die below which background GC runs */
    uint32_t gc_hard_blocks; /* free blocks per die below which GC blocks host writes */
    GcPacing gc_pacing;
    uint32_t gc_idle_blocks; /* free blocks per die idle GC collects up to; 0: no idle GC */
    uint64_t gc_idle_delay;  /* ns without host writes before idle GC starts */
    uint64_t gc_idle_pause;  /* ns a die rests after each idle GC step */

    /* [wear] */
    bool wear_dynamic;              /* new blocks: the least-worn erased one */
    uint32_t wear_static_threshold; /* P/E spread per die that moves cold data; 0: off */

    /* [trim] */
    TrimPolicy trim_policy;
    uint64_t trim_entry_cost; /* ns of controller work per mapped 4 KiB unit */

    /* [fdp] NVMe Flexible Data Placement (TP4146); models/fdp.c */
    uint32_t fdp_handles;    /* reclaim unit handles; 0: no FDP */
    uint32_t fdp_groups;     /* reclaim groups: the dies split into this many sets */
    uint64_t fdp_ru_size;    /* bytes of one reclaim unit, a whole number of blocks */
    char fdp_isolation[256]; /* "initial" or "persistent" for every handle, or one per handle
                              * separated by commas */
    FdpGcUnit fdp_gc_unit;   /* GC victims: blocks or whole reclaim units */

    /* [zns] NVMe Zoned Namespace; models/zns.c */
    uint64_t zns_zone_size;  /* bytes of LBA space per zone; 0: not zoned */
    uint64_t zns_zone_cap;   /* bytes of a zone the host may write (<= zone size) */
    uint32_t zns_max_open;   /* zones open at once (implicitly or explicitly) */
    uint32_t zns_max_active; /* zones open or closed at once */
    uint64_t zns_append_cost; /* ns: a Zone Append's stage, one append of a zone at a time */
} DriveParams;

/* ---- Derived quantities (models/drive_params.c) ------------------------ */

#define SLOT_SIZE 4096u /* bytes of one mapping unit */

uint32_t drive_params_dies(const DriveParams *p);
/* Commands the host may have outstanding: queue_depth, times queue_count
 * on NVMe; at most QUEUE_LIMIT_MAX (the config rules refuse more). */
uint64_t drive_params_queue_limit(const DriveParams *p);
#define QUEUE_LIMIT_MAX (1u << 20)
uint64_t drive_params_blocks(const DriveParams *p);     /* plane blocks */
uint64_t drive_params_raw_capacity(const DriveParams *p); /* bytes, native mode */
double drive_params_op(const DriveParams *p);           /* (raw - user) / user */
/* Bytes one program of a die holds in mode m (planes x page x bits when one-shot). */
uint64_t drive_params_program_unit(const DriveParams *p, CellMode m);
/* Bytes of host data the write buffer holds (models/ftl.c): write_buffer,
 * but at least two program units of every mode, so one can fill while the
 * other programs, and two map units, so a piece of a write larger than the
 * buffer (whole map units) always fits. */
uint64_t drive_params_write_buffer(const DriveParams *p);
/* Peak program bandwidth of one die in mode m, bytes/s (unit / tPROG). */
double drive_params_die_write_bw(const DriveParams *p, CellMode m);
double drive_params_die_read_bw(const DriveParams *p, CellMode m);
/* Channel bus bandwidth, bytes/s. */
double drive_params_channel_bw(const DriveParams *p);
/* Host link time for one command of `bytes` in one direction, ns, with its
 * protocol framing (SATA FISes, PCIe TLPs). */
double drive_params_link_xfer_ns(const DriveParams *p, uint64_t bytes, bool to_device);
/* Host link payload bandwidth for large transfers in one direction, bytes/s. */
double drive_params_link_bw(const DriveParams *p, bool to_device);
/* Bytes one L2P entry maps (map_unit, 4 KiB when unset). */
uint32_t drive_params_map_unit(const DriveParams *p);
/* Bytes of the full L2P table (4 bytes per map unit of user capacity). */
uint64_t drive_params_l2p_bytes(const DriveParams *p);
const char *cell_mode_name(CellMode m);
/* Placement identifiers an FDP drive takes: reclaim groups x handles (0
 * without FDP). Identifier pid is handle pid % handles of group pid / handles. */
uint32_t drive_params_fdp_pids(const DriveParams *p);
/* Whether FDP handle h is persistently isolated ([fdp] isolation), -1 when
 * the key does not parse for this handle. */
int drive_params_fdp_persistent(const DriveParams *p, uint32_t h);
/* Write streams the FTL keeps apart: FDP's placement identifiers, or on a
 * zoned drive its zones (each zone writes blocks of its own). */
uint32_t drive_params_streams(const DriveParams *p);
/* Blocks a zone owns on each die: its capacity over the dies' blocks,
 * rounded up (a zone's data fills blocks of its own, die by die); at most
 * ZNS_ZONE_BLOCKS_MAX, which models/zns.c counts in a byte (the config
 * rules refuse more). */
uint32_t drive_params_zone_blocks(const DriveParams *p);
#define ZNS_ZONE_BLOCKS_MAX 255u
/* Bytes the host may write: user_capacity, or on a zoned drive its zones'
 * capacity (its LBA space, user_capacity, is zones x zone_size). */
uint64_t drive_params_writable(const DriveParams *p);
/* Bytes of one multi-plane block in the native mode. */
uint64_t drive_params_block_bytes(const DriveParams *p);

#endif
