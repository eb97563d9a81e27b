/*
 * drive.h - the simulated SSD as the host sees it.
 *
 * A Drive is made from a validated DriveParams and an engine. The host side
 * submits commands with drive_submit() at the engine's current time; the
 * drive calls the completion callback when each finishes. All timing comes
 * from the mechanisms inside (host link, controller, write buffer, flash
 * scheduler, channels, dies); the drive never prints or reads files.
 */
#ifndef FTLSIM_DRIVE_H
#define FTLSIM_DRIVE_H

#include "models/drive_params.h"
#include "sim/engine/engine.h"

typedef enum IoOp {
    IO_READ = 0,
    IO_WRITE = 1,
    IO_TRIM = 2,
    IO_FLUSH = 3,
} IoOp;
#define IO_OPS 4

/* One host command, as workloads and trace readers produce it. */
typedef struct HostIo {
    SimTime time;    /* ns; arrival time for traces (0 for closed loop) */
    uint64_t offset; /* bytes */
    uint64_t length; /* bytes; 0 for FLUSH */
    uint32_t dev;    /* device or volume number from a trace (0 otherwise) */
    uint8_t op;      /* IoOp */
    uint16_t pid;    /* FDP placement identifier of a write (a trace's plid column) */
    uint8_t zop;     /* ZoneOp of a zone management action (offset: the zone's start; length 0) */
} HostIo;

/* Why the NAND was written. */
typedef enum NandCause {
    CAUSE_HOST = 0,
    CAUSE_GC = 1,
    CAUSE_FOLD = 2,
    CAUSE_MAP = 3,
    CAUSE_RMW = 4, /* the rest of a map unit a write covered only in part */
} NandCause;
#define CAUSES 5

/* What a die spends its time on (DriveStats.die_busy_ns). */
typedef enum DieWork {
    WORK_READ = 0, /* sensing and moving data out, host or mapping reads; suspend windows */
    WORK_HOST = 1, /* programming host data from the write buffer */
    WORK_GC = 2,   /* relocating valid data (and translation pages) */
    WORK_FOLD = 3, /* moving SLC data into native blocks */
    WORK_ERASE = 4,
    WORK_MAP = 5, /* writing translation pages */
} DieWork;
#define DIE_WORKS 6
const char *die_work_name(DieWork w);

/* What the controller's firmware cores spend their time on
 * (DriveStats.ctrl_busy_ns; models/ctrl.c). */
typedef enum CtrlWork {
    CW_SUBMIT = 0,   /* a host command taken in ([host] cmd_cost) */
    CW_MAP = 1,      /* map updates of the 4 KiB units a write maps ([host] page_cost) */
    CW_COMPLETE = 2, /* a host command's completion posted */
    CW_MISS = 3,     /* a mapping-cache miss handled */
    CW_RELOCATE = 4, /* GC, folding and translation-page moves, per 4 KiB slot */
    CW_TRIM = 5,     /* TRIM entries and their translation pages */
    CW_ERASE = 6,    /* the bookkeeping of an erased block */
} CtrlWork;
#define CTRL_WORKS 7

/* Where a host read's time goes, from submission to completion: the link
 * and the controller (front), translation-page loads (map), waiting for a
 * die (die_wait) and the NAND read itself (nand) of its last NAND read to
 * end, and the data out over the link (back). */
typedef enum ReadPart {
    PART_FRONT = 0,
    PART_MAP = 1,
    PART_DIE_WAIT = 2,
    PART_NAND = 3,
    PART_BACK = 4,
} ReadPart;
#define READ_PARTS 5
const char *read_part_name(ReadPart p);

/* Where a host write's time goes: the link and the controller (front),
 * merging with the data of partly written 4 KiB units (merge: translation
 * and reads), waiting for room in the write buffer (buffer_wait), and its
 * data over the link into the buffer (data). */
typedef enum WritePart {
    WPART_FRONT = 0,
    WPART_MERGE = 1,
    WPART_BUFFER = 2,
    WPART_DATA = 3,
} WritePart;
#define WRITE_PARTS 4
const char *write_part_name(WritePart p);

/* Counters and gauges the reports read; all monotonic unless noted. */
typedef struct DriveStats {
    uint64_t host_bytes[IO_OPS]; /* accepted and completed, by op */
    uint64_t host_ios[IO_OPS];
    uint64_t nand_write_bytes[CAUSES];
    uint64_t host_slc_bytes;   /* host data programmed in SLC mode */
    uint64_t nand_read_bytes;
    uint64_t read_retries;     /* page sensings repeated ([timing.<mode>] read_retry_rate) */
    uint64_t rmw_read_bytes;   /* of nand_read_bytes: reads of map units written in part */
    uint64_t nand_erases;
    uint64_t gc_blocks;        /* blocks reclaimed by GC */
    uint64_t gc_idle_steps;    /* GC steps taken by idle GC ([gc] idle_blocks) */
    uint64_t fold_blocks;      /* SLC blocks emptied by folding */
    uint64_t wl_blocks;        /* blocks of cold data moved by static wear leveling */
    uint64_t free_blocks;      /* gauge: erased blocks not allocated */
    uint64_t pslc_used;        /* gauge: bytes of valid host data in SLC blocks */
    uint64_t pslc_limit;       /* gauge: bytes the cache may hold now */
    uint64_t pslc_limit_start; /* what the cache could hold when the run started */
    uint64_t pslc_static;      /* bytes of the static part */
    uint64_t pslc_first_exhausted; /* host bytes written when the cache first ran out (UINT64_MAX: never) */
    uint64_t l2p_hits, l2p_misses, l2p_writebacks;
    uint32_t wear_min, wear_max; /* gauge: fewest and most erases of a pool block */
    uint64_t wear_erases;      /* erases of pool blocks (not static SLC) */
    uint64_t die_busy_ns[DIE_WORKS]; /* summed over dies, up to drive_account() */
    uint64_t chan_busy_ns;     /* summed over channels, transfers as they are scheduled */
    uint64_t ctrl_busy_ns[CTRL_WORKS]; /* summed over firmware cores, work as it is queued */
    uint64_t read_parts_ns[READ_PARTS]; /* summed over host reads completed */
    uint64_t read_parts_n;     /* host reads in read_parts_ns */
    uint64_t write_parts_ns[WRITE_PARTS]; /* summed over host writes completed */
    uint64_t write_parts_n;
    uint64_t buf_absorbed_bytes; /* host data overwritten (bytes of the new write) or trimmed
                                  * (4 KiB units) while still in the write buffer: never programmed */
    uint64_t buf_held_bytes;   /* gauge: host data in the write buffer, not yet programmed, up to
                                * drive_account() */
    uint64_t unwritten_read_units; /* 4 KiB units host reads found never written (or trimmed):
                                    * answered without a NAND read */
    uint64_t written_lo, written_hi; /* gauge: bytes; the logical range [lo, hi) host writes
                                      * completed since drive_restart_written() (hi 0: none) */
    int phase;                 /* gauge: DrivePhase now */
} DriveStats;

/* What the drive is doing with host writes, for phase classification. */
typedef enum DrivePhase {
    PHASE_IDLE = 0,
    PHASE_PSLC = 1,    /* host writes land in SLC blocks */
    PHASE_FOLDING = 2, /* native writes with active folding */
    PHASE_NATIVE = 3,  /* native writes, no folding */
    PHASE_GC = 4,      /* host writes wait on GC */
    PHASE_READ = 5,    /* no host writes, host reads */
} DrivePhase;
const char *drive_phase_name(DrivePhase p);

typedef struct Drive Drive;

/* Zoned namespaces (models/zns.c). Zone states as NVMe ZNS names them
 * (read-only and offline zones are not modelled). */
typedef enum ZoneState {
    ZONE_EMPTY = 0,
    ZONE_IMPLICIT_OPEN = 1,
    ZONE_EXPLICIT_OPEN = 2,
    ZONE_CLOSED = 3,
    ZONE_FULL = 4,
} ZoneState;
#define ZONE_STATES 5
const char *zone_state_name(ZoneState s);

/* Zone commands besides writes and reads (Zone Management Send actions,
 * and Zone Append). */
typedef enum ZoneOp {
    ZOP_NONE = 0,
    ZOP_OPEN = 1,
    ZOP_CLOSE = 2,
    ZOP_FINISH = 3,
    ZOP_RESET = 4,
    ZOP_APPEND = 5,
} ZoneOp;
#define ZONE_OPS 6

/* NVMe status codes a zoned command completes with (ZNS command set 1.1,
 * Command Specific Status Values; and the generic ones it uses). */
typedef enum ZnsStatus {
    ZNS_OK = 0,                   /* 0x00 Successful Completion */
    ZNS_INVALID_FIELD = 1,        /* 0x02 Invalid Field in Command (an append or action not at a zone start) */
    ZNS_LBA_OUT_OF_RANGE = 2,     /* 0x80 LBA Out of Range */
    ZNS_BOUNDARY = 3,             /* 0xB8 Zone Boundary Error: past the zone's writable capacity */
    ZNS_FULL = 4,                 /* 0xB9 Zone Is Full */
    ZNS_INVALID_WRITE = 5,        /* 0xBC Zone Invalid Write: not at the write pointer */
    ZNS_TOO_MANY_ACTIVE = 6,      /* 0xBD Too Many Active Zones */
    ZNS_TOO_MANY_OPEN = 7,        /* 0xBE Too Many Open Zones */
    ZNS_INVALID_TRANSITION = 8,   /* 0xBF Invalid Zone State Transition */
} ZnsStatus;
#define ZNS_STATUSES 9
const char *zns_status_name(ZnsStatus s);
uint8_t zns_status_code(ZnsStatus s); /* the NVMe status code */

/* A zoned drive's counters over the run. */
typedef struct DriveZns {
    uint64_t ops[ZONE_OPS];          /* commands accepted, by op (ZOP_NONE: writes) */
    uint64_t errors[ZNS_STATUSES];   /* commands failed, by status (ZNS_OK: unused) */
    uint64_t implicit_opens;         /* zones a write opened */
    uint64_t implicit_closes;        /* implicitly open zones closed to open another */
    uint32_t zones;                  /* zones in the namespace */
    uint32_t by_state[ZONE_STATES];  /* gauge: zones in each state */
} DriveZns;

/* A zone's state and write pointer (bytes from its start); the counters. */
ZoneState drive_zone_state(const Drive *d, uint64_t zone_offset, uint64_t *wp);
const DriveZns *drive_zns(const Drive *d); /* NULL on a drive without zones */

/* FDP statistics of one reclaim unit handle (models/fdp.c), over the run.
 * The handle's write amplification is (host_bytes + gc_bytes) / host_bytes. */
typedef struct DriveFdpHandle {
    uint64_t host_bytes;   /* host data written naming the handle */
    uint64_t media_bytes;  /* programmed into its reclaim units: its host data, and GC's copies
                            * kept within them (persistently isolated) */
    uint64_t gc_bytes;     /* valid data GC moved out of its reclaim units */
    uint64_t moved_across; /* of gc_bytes: into reclaim units the handles share */
    uint64_t blocks;       /* blocks taken for it (host and GC) */
    bool persistent;       /* persistently isolated (else initially) */
} DriveFdpHandle;

/* One host command: an I/O, a Zone Append, or a Zone Management Send
 * action (open, close, finish, reset) on the zone starting at offset. */
typedef struct DriveCmd {
    uint64_t offset; /* bytes; a zone command's: the zone's start */
    uint64_t length; /* bytes; 0 for FLUSH and zone management actions */
    uint64_t tag;    /* handed back in its completion */
    uint8_t op;      /* IoOp; a zone command's is set by the drive */
    uint8_t zop;     /* ZoneOp: ZOP_NONE for a plain I/O */
    uint16_t pid;    /* a write's FDP placement identifier (below drive_params_fdp_pids();
                      * ignored by a drive without FDP; 0 on a zoned drive) */
} DriveCmd;

/* What the host learns when a command ends. */
typedef struct DriveCompletion {
    uint64_t tag;    /* DriveCmd.tag */
    uint64_t offset; /* where a Zone Append wrote (bytes); else the command's offset */
    uint8_t status;  /* ZnsStatus (ZNS_OK on a drive without zones) */
} DriveCompletion;

/* Called when a command completes; c is valid during the call only. */
typedef void (*DriveDoneFn)(void *ctx, const DriveCompletion *c);

/* Make a drive. p must have passed validation; the drive keeps a copy.
 * NULL when its tables cannot be mapped (see drive_memory_estimate()). */
Drive *drive_new(SimEngine *engine, const DriveParams *p, uint64_t seed);

/* Whether a drive of p keeps its map entries in 4 bytes: its slots and
 * pages fit 32 bits (models/map.c). FTLSIM_MAP_STORE=wide in the
 * environment gives every drive 8-byte entries. */
bool drive_params_narrow_map(const DriveParams *p);

/* What a run does to the drive's mapping, for the memory its state takes:
 * how much of the user capacity ends up mapped in long sequential runs
 * and how much at random. Shares of the user capacity, 0..1. */
typedef struct MemoryClass {
    double seq_fill;       /* written in order by the host: a sequential fill */
    double seq_prefill;    /* prefilled in order (the map keeps it as a formula) */
    double random_fill;    /* mapped in random order: a random prefill */
    uint64_t random_bytes; /* host bytes then written at random offsets */
    uint32_t random_bs;    /* their size, bytes (0: 4 KiB) */
} MemoryClass;

/* Estimate of the peak memory a run of class c takes on a drive of p (c
 * NULL: the worst case, every page mapped at random): the mapping tables
 * both ways, the per-block arrays, the mapping cache's arrays, the write
 * buffer's ring, a random prefill's sort buffers and the process itself.
 * The map (models/map.c) costs its directories, nothing for a sequential
 * prefill, its runs for data written in order and per lpn changed at
 * random, up to an entry per page and slot for a drive mapped at random.
 * An upper bound, whatever the kernel does with memory read before it is
 * written (the map reads none). */
uint64_t drive_memory_estimate(const DriveParams *p, const MemoryClass *c);
/* The run about to start on d is of class c: its tables take, within the
 * estimate, the size they would grow to (the map's overrides' hash). */
void drive_expect(Drive *d, const MemoryClass *c);
void drive_free(Drive *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Drive, drive_free)

void drive_set_done(Drive *d, DriveDoneFn fn, void *ctx);

/* Reclaim unit handles of an FDP drive (0 without FDP), and handle h's
 * statistics; h == drive_fdp_handles(): the reclaim units the handles share
 * (GC's destination for initially isolated handles; prefilled data). */
uint32_t drive_fdp_handles(const Drive *d);
const DriveFdpHandle *drive_fdp_handle(const Drive *d, uint32_t h);

/* Submit a command now; the drive copies it. length and offset must lie
 * within the user capacity (callers check); zone commands only on a zoned
 * drive. At most drive_queue_limit() may be outstanding. */
void drive_submit(Drive *d, const DriveCmd *c);

/* A command at offset will be submitted soon, and one at next after it
 * (UINT64_MAX where not known; offset UINT64_MAX where only next is): fetch
 * their map entries into the cache meanwhile, next's without waiting on a
 * load. Changes nothing but speed: the map is tens to hundreds of MB, and
 * a random command's entry is a cache and TLB miss. A host that calls it
 * calls it for each read and write it submits: the drive then leaves the
 * warming to it. */
void drive_warm(const Drive *d, uint64_t offset, uint64_t next);

/* Start DriveStats.written_lo/hi afresh (nothing written), as a test's
 * measured rounds begin after its preconditioning. */
void drive_restart_written(Drive *d);

uint32_t drive_queue_limit(const Drive *d);
uint32_t drive_outstanding(const Drive *d); /* commands submitted and not completed */
uint64_t drive_capacity(const Drive *d); /* user bytes */
const DriveParams *drive_params(const Drive *d);
const DriveStats *drive_stats(const Drive *d);

/* Erase counts per block (P/E cycles) over the run, for one group of
 * blocks. A prefilled drive starts every block at zero, as its counters. */
typedef struct DriveWearGroup {
    uint32_t blocks;
    uint64_t erases; /* sum over the group's blocks */
    uint32_t min, max;
} DriveWearGroup;

/* The static SLC blocks, which never leave SLC mode and take every burst,
 * apart from the pool (native, dynamic SLC and spare blocks). Their sum is
 * DriveStats.nand_erases. */
typedef struct DriveWear {
    DriveWearGroup pool;
    DriveWearGroup static_slc; /* blocks == 0 without a static part */
} DriveWear;
void drive_wear(const Drive *d, DriveWear *w);

/* Bring die_busy_ns up to the engine's time: each die's operation in
 * progress is counted to now, and set buf_held_bytes. Call before reading them. */
void drive_account(Drive *d);

/* ---- Checking (tests, --check) -----------------------------------------
 * drive_check() verifies the FTL invariants, each part's own (in the part's file,
 * x_check()): every mapped page points to a valid slot that maps back to it
 * (or to its buffer entry), per-block valid counts equal the valid slots,
 * free blocks hold nothing valid and sit on their die's free stack once,
 * open blocks and victims are in the state their list says, and every
 * counter agrees with what it counts. O(drive size). On failure it writes
 * the first broken invariant into why, after the part's name ("map: ..."). */
bool drive_check(const Drive *d, char *why, size_t why_len);
/* Why the drive can make no progress, for the message of a run that
 * stalled or crawled: the die with the fewest free blocks, against GC's
 * hard threshold, and how much its best GC victim would give back (every
 * full block holding only valid data: nothing). Writes one clause into
 * why; true when the free blocks explain it (a die at the hard threshold
 * whose best victim frees under 1% of its slots: the configuration cannot
 * work), false when they do not (why then describes them anyway). */
bool drive_stall_reason(const Drive *d, char *why, size_t why_len);

#define DRIVE_UNMAPPED UINT64_MAX
#define DRIVE_BUFFERED (UINT64_MAX - 1)
/* Where logical 4 KiB page lpn lives: a slot number, DRIVE_BUFFERED or DRIVE_UNMAPPED. */
uint64_t drive_lookup(const Drive *d, uint64_t lpn);

/* Called for every slot the drive programs with a page: src is the slot it
 * was copied from (GC, folding) or DRIVE_UNMAPPED when it came from the
 * write buffer. For integrity oracles in tests. */
typedef void (*DrivePlaceFn)(void *ctx, uint64_t lpn, uint64_t dst, uint64_t src);
void drive_set_place_hook(Drive *d, DrivePlaceFn fn, void *ctx);
uint64_t drive_slots(const Drive *d); /* physical 4 KiB slots */

/* ---- Aging (models/prefill.c) --------------------------------------------
 * drive_prefill() puts a fresh drive (nothing written yet) in the state a
 * fill would leave, without simulating the time: lpns [0, fill x pages)
 * mapped, block states, valid counts, free lists and the pSLC gauges set
 * directly; counters stay at zero. Sequential: written in order, one program
 * unit per die in turn, folded into native blocks but for the last
 * slc_bytes, left in SLC blocks as far as the cache allows (pslc_used tells
 * how much). Random: then as many uniform random overwrites as pages filled,
 * with die-local GC by the drive's victim policy, the last slc_bytes of them
 * into SLC. Deterministic for a seed. False on misuse (fill outside [0, 1],
 * a drive already written; the drive is unchanged) or if the drive cannot
 * hold the fill (the drive is then unusable: free it). */
typedef struct DrivePrefill {
    double fill;        /* share of the user capacity, 0..1 */
    bool random;        /* fragmented as by uniform random overwrites */
    uint64_t slc_bytes; /* bytes of the latest data left in pSLC (not folded) */
    uint64_t seed;
} DrivePrefill;
bool drive_prefill(Drive *d, const DrivePrefill *pf);

#endif
