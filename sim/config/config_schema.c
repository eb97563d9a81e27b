/*
 * config_schema.c - every key a drive config may hold, as one table.
 *
 * Rows are in load order: a row may depend on rows above it (the timing
 * group of the native mode is required, so [nand] comes before [timing.*]).
 * Help texts end up in configs/reference.ini and docs/config.md.
 */
#include "sim/config/config_schema.h"

#include <string.h>

#include "sim/config/config_units.h"

#define FIELD(f) .offset = offsetof(DriveParams, f), .width = sizeof(((DriveParams *)0)->f)

/* The table reads best one key per few lines; keep the formatter off it. */
/* clang-format off */
static const ConfigChoice hostif_choices[] = {
    {"sata", HOSTIF_SATA}, {"nvme", HOSTIF_NVME}, {NULL, 0}};
static const ConfigChoice lane_choices[] = {
    {"1", 1}, {"2", 2}, {"4", 4}, {"8", 8}, {"16", 16}, {NULL, 0}};
static const ConfigChoice l2p_choices[] = {
    {"dram", L2P_DRAM}, {"hmb", L2P_HMB}, {"sram", L2P_SRAM}, {NULL, 0}};
static const ConfigChoice mode_choices[] = {
    {"slc", CELL_SLC}, {"mlc", CELL_MLC}, {"tlc", CELL_TLC}, {"qlc", CELL_QLC}, {NULL, 0}};
static const ConfigChoice rule_choices[] = {{"none", PSLC_RULE_NONE},
                                            {"capped", PSLC_RULE_CAPPED},
                                            {"free_share", PSLC_RULE_FREE_SHARE},
                                            {NULL, 0}};
static const ConfigChoice fold_choices[] = {
    {"fold_first", FOLD_FIRST}, {"native_first", NATIVE_FIRST}, {NULL, 0}};
static const ConfigChoice gc_choices[] = {
    {"greedy", GC_GREEDY}, {"cost_benefit", GC_COST_BENEFIT}, {"fifo", GC_FIFO}, {NULL, 0}};
static const ConfigChoice pacing_choices[] = {
    {"steady", GC_PACE_STEADY}, {"burst", GC_PACE_BURST}, {NULL, 0}};
static const ConfigChoice gc_unit_choices[] = {
    {"block", FDP_GC_BLOCK}, {"reclaim_unit", FDP_GC_RU}, {NULL, 0}};
static const ConfigChoice trim_choices[] = {
    {"immediate", TRIM_IMMEDIATE}, {"deferred", TRIM_DEFERRED}, {NULL, 0}};

/* The keys of [timing.<mode>]; examples are plausible for the mode. */
#define TIMING_ROWS(grp, m, ex_read, ex_prog, ex_erase)                                            \
    {.group = grp, .key = "t_read", .type = CT_TIME, .flags = CK_REQUIRED_GROUP,                   \
     FIELD(timing[m].t_read), .example = ex_read,                                                  \
     .help = "Time to read one page into the die's page register (tR)."},                          \
    {.group = grp, .key = "t_prog", .type = CT_TIME, .flags = CK_REQUIRED_GROUP,                   \
     FIELD(timing[m].t_prog), .example = ex_prog,                                                  \
     .help = "Time of one program (tPROG); with one_shot, of a whole wordline; with "              \
             "program_by_page, the mean of its times."},                                           \
    {.group = grp, .key = "t_erase", .type = CT_TIME, .flags = CK_REQUIRED_GROUP,                  \
     FIELD(timing[m].t_erase), .example = ex_erase, .help = "Time to erase one block (tBERS)."},   \
    {.group = grp, .key = "one_shot", .type = CT_BOOL, FIELD(timing[m].one_shot), .def = "true",   \
     .help = "All pages of a wordline are programmed in one tPROG."},                              \
    {.group = grp, .key = "two_pass", .type = CT_BOOL, FIELD(timing[m].two_pass), .def = "false",  \
     .help = "Programs take two passes, coarse then fine, and the data moves over the channel "    \
             "for each; tPROG is their sum, half each. Not for SLC."},                               \
    {.group = grp, .key = "read_by_page", .type = CT_STRING, .flags = CK_QUIET,                     \
     FIELD(timing[m].read_by_page), .def = "",                                                     \
     .help = "tR by page type of a wordline, one time per bit of the mode, lower page first "     \
             "(TLC: lower, middle, upper, such as 50us,65us,80us); a host read senses with the "  \
             "slowest type of the pages it reads. Empty: every page takes t_read. Background "    \
             "reads (GC, folding) keep t_read."},                                                  \
    {.group = grp, .key = "program_by_page", .type = CT_STRING, .flags = CK_QUIET,                  \
     FIELD(timing[m].program_by_page), .def = "",                                                  \
     .help = "tPROG by page type of a wordline, one time per bit of the mode, lower page first "  \
             "(MLC: lower, upper, such as 400us,960us); only with one_shot = false, where each "  \
             "program writes one page of every plane. Their mean must be t_prog. Every program "  \
             "of the mode (host data, GC, folding) takes its page type's time; with two_pass, "   \
             "half in each pass. Empty: every program takes t_prog."},                             \
    {.group = grp, .key = "read_retry_rate", .type = CT_PERCENT, .flags = CK_QUIET,                 \
     FIELD(timing[m].read_retry_rate), .def = "0",                                                 \
     .help = "Probability that a host read's sensing of a page fails and is retried; a retry "    \
             "fails again with the same probability, at most 8 retries. Drawn from the drive's "  \
             "seeded generator. 0: no retries."},                                                  \
    {.group = grp, .key = "read_retry_time", .type = CT_TIME, .flags = CK_QUIET,                    \
     FIELD(timing[m].read_retry_time), .def = "0",                                                 \
     .help = "Sensing time one read retry adds (shifted read levels, often about tR); needed "    \
             "above 0 when read_retry_rate is."}

static const ConfigKey schema[] = {
    /* [drive] */
    {.group = "drive", .key = "name", .type = CT_STRING, .flags = CK_REQUIRED, FIELD(name),
     .example = "Example 1TB TLC SATA", .help = "The drive's name in reports."},
    {.group = "drive", .key = "notes", .type = CT_STRING, FIELD(notes), .def = "",
     .help = "Free text: sources of the figures, caveats."},
    {.group = "drive", .key = "user_capacity", .type = CT_SIZE, .flags = CK_REQUIRED,
     FIELD(user_capacity), .example = "1TB", .min = SLOT_SIZE,
     .help = "Capacity the host sees."},
    /* [host] */
    {.group = "host", .key = "interface", .type = CT_ENUM, .flags = CK_REQUIRED, FIELD(interface),
     .example = "sata", .choices = hostif_choices, .help = "Host interface."},
    {.group = "host", .key = "pcie_gen", .type = CT_INT, FIELD(pcie_gen), .def = "3", .min = 1,
     .max = 5, .help = "PCIe generation (NVMe only)."},
    {.group = "host", .key = "pcie_lanes", .type = CT_INT, FIELD(pcie_lanes), .def = "4",
     .choices = lane_choices, .help = "PCIe lanes (NVMe only)."},
    {.group = "host", .key = "queue_depth", .type = CT_INT, FIELD(queue_depth), .def = "32",
     .min = 1, .max = 65535, .help = "Commands outstanding per queue (SATA NCQ: 32)."},
    {.group = "host", .key = "queue_count", .type = CT_INT, FIELD(queue_count), .def = "1",
     .min = 1, .max = 65535,
     .help = "I/O queues (NVMe); queue_depth x queue_count at most 1048576 commands."},
    {.group = "host", .key = "cmd_cost", .type = CT_TIME, FIELD(cmd_cost), .def = "2us",
     .help = "Firmware work per command taken in, on a controller core ([controller] cores)."},
    {.group = "host", .key = "page_cost", .type = CT_TIME, FIELD(page_cost), .def = "0",
     .example = "100ns", .help = "Firmware work per 4 KiB mapped unit written (its map update), "
     "after the command's cmd_cost on a core; it runs while the data comes in, so it holds the "
     "core from later commands but does not delay its own."},
    {.group = "host", .key = "write_buffer", .type = CT_SIZE, FIELD(write_buffer), .def = "4MiB",
     .help = "Controller write buffer; writes complete once they are in it. A write "
             "larger than the buffer enters it in pieces as programs free room, and "
             "completes when its last piece is in. It holds at least two program units "
             "of the largest cell mode and two map units (`ftlsim check` prints the size "
             "used)."},
    {.group = "host", .key = "hmb_latency", .type = CT_TIME, FIELD(hmb_latency), .def = "1us",
     .help = "Round trip of one controller access to the host memory buffer over PCIe "
             "(l2p_kind = hmb): paid once per translation page a command touches; a page "
             "loaded into or written back from the buffer also crosses the link."},
    /* [controller] */
    {.group = "controller", .key = "channels", .type = CT_INT, .flags = CK_REQUIRED,
     FIELD(channels), .example = "8", .min = 1, .max = 64, .help = "NAND channels (buses)."},
    {.group = "controller", .key = "ces_per_channel", .type = CT_INT, FIELD(ces_per_channel),
     .def = "1", .min = 1, .max = 64, .help = "Chip enables (ways) per channel."},
    {.group = "controller", .key = "channel_rate", .type = CT_RATE, .flags = CK_REQUIRED,
     FIELD(channel_rate), .example = "400MT/s", .min = 1,
     .help = "Transfers per second on a channel bus."},
    {.group = "controller", .key = "channel_width", .type = CT_INT, FIELD(channel_width),
     .def = "8", .min = 1, .max = 64, .help = "Bits per transfer on a channel bus."},
    {.group = "controller", .key = "dram", .type = CT_SIZE, FIELD(dram), .def = "0",
     .example = "1GiB", .help = "Controller DRAM (0: DRAM-less)."},
    {.group = "controller", .key = "l2p_kind", .type = CT_ENUM, FIELD(l2p_kind), .def = "dram",
     .choices = l2p_choices,
     .help = "Where the mapping table lives: all of it in DRAM, or a cache of part of it in a "
             "host memory buffer (hmb) or controller SRAM (sram)."},
    {.group = "controller", .key = "l2p_cache", .type = CT_SIZE, FIELD(l2p_cache), .def = "0",
     .example = "64MiB", .help = "Mapping cache for hmb and sram (required above 0 there); it "
     "holds l2p_cache / page_size translation pages of page_size / 4 entries each."},
    {.group = "controller", .key = "l2p_prefetch", .type = CT_BOOL, FIELD(l2p_prefetch),
     .def = "false",
     .help = "hmb and sram: when a command continues a sequential run, load the next "
             "translation page ahead of need."},
    {.group = "controller", .key = "cores", .type = CT_INT, FIELD(ctrl_cores), .def = "1", .min = 1,
     .max = 64,
     .help = "Firmware cores. Every piece of firmware work (command submission and completion, "
             "map updates, mapping-cache misses, GC and fold relocation, TRIM, erase bookkeeping) "
             "queues for the first core free and holds it for its cost."},
    {.group = "controller", .key = "complete_cost", .type = CT_TIME, FIELD(ctrl_complete_cost),
     .def = "0", .example = "1us",
     .help = "Firmware work to post a host command's completion; the host sees it end after."},
    {.group = "controller", .key = "miss_cost", .type = CT_TIME, FIELD(ctrl_miss_cost), .def = "0",
     .example = "2us",
     .help = "Firmware work per mapping-cache miss (hmb, sram), after the translation page is read."},
    {.group = "controller", .key = "relocate_cost", .type = CT_TIME, FIELD(ctrl_relocate_cost),
     .def = "0", .example = "500ns",
     .help = "Firmware work per 4 KiB that GC or folding moves (ECC, re-encoding, program "
             "issue), between the data coming out of the die and going back."},
    {.group = "controller", .key = "erase_cost", .type = CT_TIME, FIELD(ctrl_erase_cost),
     .def = "0", .example = "20us", .help = "Firmware bookkeeping per block erased."},
    {.group = "controller", .key = "copy_offload", .type = CT_BOOL, FIELD(ctrl_copy_offload),
     .def = "false",
     .help = "GC and fold relocations take a hardware copy path that bypasses the cores "
             "(relocate_cost unpaid)."},
    {.group = "controller", .key = "max_program_dies", .type = CT_INT, .flags = CK_QUIET,
     FIELD(ctrl_max_program_dies),
     .def = "0", .example = "16", .min = 0, .max = 65536,
     .help = "Dies that may program or erase at once (0: no limit). While that many do, an "
             "idle die serves only its reads; the others wait for a program or erase to end. "
             "A limit of the controller's firmware (how many array operations it keeps in "
             "flight), not of the NAND."},
    /* [ftl] */
    {.group = "ftl", .key = "map_unit", .type = CT_SIZE, FIELD(map_unit), .def = "4KiB",
     .example = "16KiB", .min = SLOT_SIZE, .max = 64 * 1024,
     .help = "Bytes one mapping-table entry maps (the indirection unit): 4 KiB times a power "
             "of two. A write that covers part of a unit is a read-modify-write: the unit's "
             "other 4 KiB pieces that are on NAND are read and written again with it."},
    /* [nand] */
    {.group = "nand", .key = "dies_per_ce", .type = CT_INT, FIELD(dies_per_ce), .def = "1",
     .min = 1, .max = 16, .help = "Dies behind one chip enable."},
    {.group = "nand", .key = "planes", .type = CT_INT, FIELD(planes), .def = "2", .min = 1,
     .max = 16, .help = "Planes per die; multi-plane programs run them together."},
    {.group = "nand", .key = "blocks_per_plane", .type = CT_INT, .flags = CK_REQUIRED,
     FIELD(blocks_per_plane), .example = "2800", .min = 1, .max = 10000000,
     .help = "Erase blocks per plane."},
    {.group = "nand", .key = "pages_per_block", .type = CT_INT, .flags = CK_REQUIRED,
     FIELD(pages_per_block), .example = "1536", .min = 1, .max = 1048576,
     .help = "Pages per block in the native mode (wordlines x bits per cell)."},
    {.group = "nand", .key = "page_size", .type = CT_SIZE, FIELD(page_size), .def = "16KiB",
     .min = SLOT_SIZE, .max = 1u << 20, .help = "Bytes of one page; a multiple of 4 KiB."},
    {.group = "nand", .key = "native_mode", .type = CT_ENUM, .flags = CK_REQUIRED,
     FIELD(native_mode), .example = "tlc", .choices = mode_choices,
     .help = "Cell mode of the NAND's native blocks."},
    {.group = "nand", .key = "erase_suspend", .type = CT_BOOL, FIELD(erase_suspend),
     .def = "false", .help = "Host reads may suspend an erase."},
    {.group = "nand", .key = "program_suspend", .type = CT_BOOL, FIELD(program_suspend),
     .def = "false",
     .help = "Host reads may suspend a program (host data, GC, folding, map writes)."},
    {.group = "nand", .key = "cache_read", .type = CT_BOOL, FIELD(cache_read), .def = "false",
     .help = "Reads use the cache read commands: a die senses its next page (tR) while the "
             "previous one moves out over the channel from the cache register."},
    /* [timing.*] */
    TIMING_ROWS("timing.slc", CELL_SLC, "25us", "200us", "3ms"),
    TIMING_ROWS("timing.mlc", CELL_MLC, "50us", "600us", "3ms"),
    TIMING_ROWS("timing.tlc", CELL_TLC, "50us", "2.6ms", "4ms"),
    TIMING_ROWS("timing.qlc", CELL_QLC, "120us", "6ms", "10ms"),
    /* [pslc] */
    {.group = "pslc", .key = "static", .type = CT_SIZE, FIELD(pslc_static), .def = "0",
     .example = "6GB",
     .help = "Host data the static SLC cache holds; its blocks come from over-provisioning "
             "and each SLC byte costs as many native bytes as the native mode has bits."},
    {.group = "pslc", .key = "dynamic_rule", .type = CT_ENUM, FIELD(pslc_rule), .def = "none",
     .choices = rule_choices,
     .help = "Sizing of the dynamic SLC cache taken from free user blocks, per die with "
             "b = bits per cell, G = free + dynamic SLC blocks and R = the die's "
             "over-provisioning in blocks (at least gc hard_blocks + 1): none; capped, "
             "S <= min(b (G - R) / (b + 1), dynamic_cap / dies / SLC block); free_share, "
             "S <= s b (G - R) / (1 + s b) with s = dynamic_share. Both keep everything in "
             "SLC foldable: F >= S / (s b) + R."},
    {.group = "pslc", .key = "dynamic_cap", .type = CT_SIZE, FIELD(pslc_dynamic_cap),
     .def = "0", .example = "40GB", .help = "Host data the dynamic cache may hold (capped): dynamic_cap / dies / SLC block "
             "bytes blocks per die, also bounded by b (G - R) / (b + 1)."},
    {.group = "pslc", .key = "dynamic_share", .type = CT_PERCENT, FIELD(pslc_dynamic_share),
     .def = "100%", .help = "Share s of the free space the dynamic cache may use (free_share): "
             "S <= s b (G - R) / (1 + s b) SLC blocks per die; 100% gives (G - R) b / (b + 1)."},
    {.group = "pslc", .key = "fold_policy", .type = CT_ENUM, FIELD(fold_policy),
     .def = "fold_first", .choices = fold_choices,
     .help = "Once the cache is exhausted: fold while new data lands natively (fold_first), "
             "or write natively and fold only when space runs out (native_first)."},
    {.group = "pslc", .key = "fold_idle_delay", .type = CT_TIME, FIELD(fold_idle_delay),
     .def = "1s", .help = "Host idleness before idle folding starts."},
    {.group = "pslc", .key = "fold_high_watermark", .type = CT_PERCENT,
     FIELD(fold_high_watermark), .def = "100%",
     .help = "Cache occupancy, as a share of its limit, that starts folding early."},
    {.group = "pslc", .key = "reserve", .type = CT_SIZE, FIELD(pslc_reserve), .def = "0",
     .example = "150GB",
     .help = "Native free space the dynamic cache leaves to GC and folding on top of the "
             "over-provisioning: R grows by reserve / dies / native block bytes blocks per "
             "die (rounded up), for the sizing rules and for forced folding."},
    {.group = "pslc", .key = "fold_background", .type = CT_BOOL, FIELD(fold_background),
     .def = "false",
     .help = "Fold while the host writes, in die time its writes leave: a die with SLC data "
             "and no host program ready folds one unit, so the cache a host sees grows the "
             "slower it writes."},
    {.group = "pslc", .key = "floor", .type = CT_SIZE, FIELD(pslc_floor), .def = "0",
     .example = "6GB",
     .help = "Host data the cache (static and dynamic parts) holds however little free "
             "space is left: where the sizing rule allows the dynamic part less than floor "
             "less the static capacity, it keeps that much in blocks lent from "
             "over-provisioning (never below gc hard_blocks + 1 free blocks), and forced "
             "folding leaves it alone. 0: the rule alone."},
    /* [gc] */
    {.group = "gc", .key = "policy", .type = CT_ENUM, FIELD(gc_policy), .def = "greedy",
     .choices = gc_choices, .help = "Victim selection."},
    {.group = "gc", .key = "soft_blocks", .type = CT_INT, FIELD(gc_soft_blocks), .def = "4",
     .max = 1000000, .help = "Free blocks per die below which background GC runs."},
    {.group = "gc", .key = "hard_blocks", .type = CT_INT, FIELD(gc_hard_blocks), .def = "2",
     .max = 1000000, .help = "Free blocks per die below which GC holds back host writes."},
    {.group = "gc", .key = "pacing", .type = CT_ENUM, FIELD(gc_pacing), .def = "steady",
     .choices = pacing_choices,
     .help = "Host writes against GC below soft_blocks: steady (enterprise) makes each host "
             "slot owe v / (cap - v) slots of GC (v the last victim's valid slots, at most the "
             "ratio of a victim at the steady state; the debt below one block), moved before "
             "the next host program, so the "
             "write rate falls smoothly to its steady state; burst (consumer) writes host data "
             "first and collects only in idle die time, until a die reaches hard_blocks and "
             "host writes stall behind whole victims."},
    {.group = "gc", .key = "idle_blocks", .type = CT_INT, FIELD(gc_idle_blocks), .def = "0",
     .max = 1000000,
     .help = "Free blocks per die GC collects up to once the host has not written for "
             "idle_delay (above soft_blocks), in die time reads leave and after all other "
             "work; a host write ends it after the step under way, and a victim it began is "
             "finished as background GC. 0: no idle GC."},
    {.group = "gc", .key = "idle_delay", .type = CT_TIME, FIELD(gc_idle_delay), .def = "1s",
     .help = "Time without host writes before idle GC starts (idle_blocks)."},
    {.group = "gc", .key = "idle_pause", .type = CT_TIME, FIELD(gc_idle_pause), .def = "0",
     .help = "Die time idle GC leaves unused after each of its steps on a die (a relocated "
             "program unit or an erase), which bounds its rate; 0: back to back."},
    /* [wear] */
    {.group = "wear", .key = "dynamic", .type = CT_BOOL, FIELD(wear_dynamic), .def = "false",
     .help = "Dynamic wear leveling: a new block is the least-worn erased block of its die "
             "(false: the last one erased)."},
    {.group = "wear", .key = "static_threshold", .type = CT_INT, FIELD(wear_static_threshold),
     .def = "0", .example = "64", .max = 1000000,
     .help = "Static wear leveling: when a die's most-worn block has more than this many "
             "erases above its least-worn block holding data, GC moves that cold data next "
             "(host writes wait for the move at the hard threshold); 0 turns it off."},
    /* [trim] */
    {.group = "trim", .key = "policy", .type = CT_ENUM, FIELD(trim_policy), .def = "immediate",
     .choices = trim_choices,
     .help = "Pay the mapping work of a TRIM when it arrives, or defer it to idle time."},
    {.group = "trim", .key = "entry_cost", .type = CT_TIME, FIELD(trim_entry_cost), .def = "0",
     .example = "20ns", .help = "Firmware work per mapped 4 KiB unit trimmed, on a controller core."},
    /* [fdp] */
    {.group = "fdp", .key = "handles", .type = CT_INT, FIELD(fdp_handles), .def = "0",
     .example = "8", .max = 128,
     .help = "NVMe Flexible Data Placement: reclaim unit handles, each filling reclaim units of "
             "its own with the writes that name it (placement identifiers); 0 turns FDP off. "
             "Needs 4 KiB map units and no pSLC cache."},
    {.group = "fdp", .key = "reclaim_groups", .type = CT_INT, FIELD(fdp_groups), .def = "1",
     .min = 1, .max = 64,
     .help = "Reclaim groups: the dies split into this many equal sets; placement identifier p "
             "writes handle p % handles on the dies of group p / handles."},
    {.group = "fdp", .key = "ru_size", .type = CT_SIZE, FIELD(fdp_ru_size), .def = "0",
     .example = "1GiB",
     .help = "Bytes of one reclaim unit, a whole number of (multi-plane) blocks; a handle's "
             "unit is that many blocks taken in turn on the dies of its group. 0: one block."},
    {.group = "fdp", .key = "isolation", .type = CT_STRING, FIELD(fdp_isolation),
     .def = "initial", .example = "persistent",
     .help = "Reclaim unit handle type, one for all handles or one per handle separated by "
             "commas: initial (initially isolated: GC may move a handle's valid data into "
             "reclaim units shared by the handles) or persistent (persistently isolated: GC "
             "keeps it in reclaim units of its handle)."},
    {.group = "fdp", .key = "gc_unit", .type = CT_ENUM, FIELD(fdp_gc_unit), .def = "block",
     .choices = gc_unit_choices, .example = "reclaim_unit",
     .help = "What GC reclaims: block (a victim block at a time on the die that needs space, "
             "as on a drive without FDP) or reclaim_unit (a whole reclaim unit, chosen by "
             "[gc] policy over its blocks' valid data; its valid data moves and all its "
             "blocks, on every die, are erased)."},
    /* [zns] */
    {.group = "zns", .key = "zone_size", .type = CT_SIZE, FIELD(zns_zone_size), .def = "0",
     .example = "2GiB",
     .help = "NVMe Zoned Namespace: bytes of LBA space per zone (user_capacity is a whole number "
             "of zones); 0: a conventional namespace. Writes go in order at each zone's write "
             "pointer; reset, finish, open and close act on whole zones."},
    {.group = "zns", .key = "zone_capacity", .type = CT_SIZE, FIELD(zns_zone_cap), .def = "0",
     .example = "1077MiB",
     .help = "Bytes of each zone the host may write, from its start (at most zone_size); 0: "
             "zone_size."},
    {.group = "zns", .key = "max_open", .type = CT_INT, FIELD(zns_max_open), .def = "14",
     .min = 1, .max = 4096,
     .help = "Zones open (implicitly or explicitly) at once; a write that would open one more "
             "closes an implicitly opened zone, or fails with Too Many Open Zones."},
    {.group = "zns", .key = "max_active", .type = CT_INT, FIELD(zns_max_active), .def = "14",
     .min = 1, .max = 4096,
     .help = "Zones open or closed at once (at least max_open); opening an empty zone beyond it "
             "fails with Too Many Active Zones."},
    {.group = "zns", .key = "append_cost", .type = CT_TIME, FIELD(zns_append_cost), .def = "0",
     .example = "3.4us",
     .help = "Firmware time of a Zone Append beyond a write's ([host] cmd_cost): the drive gives "
             "a zone's appends their place one at a time, so appends to one zone queue for it."},
};

/* clang-format on */

static const char *const groups[] = {"drive",      "host",       "controller", "ftl",
                                     "nand",       "timing.slc", "timing.mlc", "timing.tlc",
                                     "timing.qlc", "pslc",       "gc",         "wear",
                                     "trim",       "fdp",        "zns",        NULL};

static const char *const group_help[] = {
    "The drive as a product.",
    "Host interface, queues and controller costs.",
    "Channels, chip enables and the mapping table's home.",
    "The mapping: what one table entry maps.",
    "Geometry of the NAND.",
    "SLC (and pSLC) timing; always required.",
    "MLC timing; required when native_mode is mlc.",
    "TLC timing; required when native_mode is tlc.",
    "QLC timing; required when native_mode is qlc.",
    "The pSLC write cache and folding into native blocks.",
    "Garbage collection.",
    "Wear leveling: which blocks take the erases.",
    "TRIM handling.",
    "NVMe Flexible Data Placement: reclaim units, groups and handles (absent: no FDP).",
    ("NVMe Zoned Namespace: zones, their writable capacity, open and active limits (absent: "
     "not zoned)."),
};

const ConfigKey *config_schema(gsize *n)
{
    *n = G_N_ELEMENTS(schema);
    return schema;
}

const char *const *config_schema_groups(void)
{
    return groups;
}

const char *config_schema_group_help(const char *group)
{
    for (unsigned i = 0; groups[i]; i++)
        if (strcmp(groups[i], group) == 0)
            return group_help[i];
    return "";
}

gboolean config_schema_group_required(const char *group, const DriveParams *p)
{
    if (strcmp(group, "timing.slc") == 0)
        return TRUE;
    if (g_str_has_prefix(group, "timing."))
        return strcmp(group + 7, cell_mode_name(p->native_mode)) == 0;
    return FALSE;
}

gboolean config_group_in_use(const char *group, const DriveParams *p)
{
    if (strcmp(group, "fdp") == 0)
        return p->fdp_handles > 0;
    if (strcmp(group, "zns") == 0)
        return p->zns_zone_size > 0;
    return TRUE;
}

uint64_t config_key_max(const ConfigKey *k)
{
    uint64_t limit = k->width == 4 ? UINT32_MAX : UINT64_MAX;
    return k->max && k->max < limit ? k->max : limit;
}

const char *config_choice_name(const ConfigChoice *c, int value)
{
    for (; c && c->name; c++)
        if (c->value == value)
            return c->name;
    return "?";
}

/* The member of v that holds a row's field, and the field's size; a
 * 4-byte integer goes through *narrow. Not for text rows. */
static void *value_member(const ConfigKey *k, ConfigValue *v, uint32_t *narrow, size_t *size)
{
    switch (k->type) {
    case CT_PERCENT:
        *size = sizeof v->share;
        return &v->share;
    case CT_BOOL:
        *size = sizeof v->flag;
        return &v->flag;
    case CT_ENUM:
        *size = sizeof v->choice;
        return &v->choice;
    default: /* sizes, times, rates, bandwidths, integers */
        *size = k->width == 4 ? sizeof *narrow : sizeof v->u;
        return k->width == 4 ? (void *)narrow : (void *)&v->u;
    }
}

ConfigValue config_key_get(const ConfigKey *k, const DriveParams *p)
{
    const char *f = (const char *)p + k->offset;
    ConfigValue v = {0};
    if (k->type == CT_STRING) {
        v.text = f;
        return v;
    }
    uint32_t narrow = 0;
    size_t size;
    void *m = value_member(k, &v, &narrow, &size);
    memcpy(m, f, size);
    if (m == &narrow)
        v.u = narrow;
    return v;
}

void config_key_put(const ConfigKey *k, DriveParams *p, const ConfigValue *v)
{
    char *f = (char *)p + k->offset;
    if (k->type == CT_STRING) {
        g_strlcpy(f, v->text, k->width);
        return;
    }
    ConfigValue c = *v;
    uint32_t narrow = (uint32_t)v->u;
    size_t size;
    const void *m = value_member(k, &c, &narrow, &size);
    memcpy(f, m, size);
}

void config_key_format(const ConfigKey *k, const DriveParams *p, char *buf, gsize len)
{
    ConfigValue v = config_key_get(k, p);
    switch (k->type) {
    case CT_STRING:
        g_strlcpy(buf, v.text, len);
        return;
    case CT_SIZE:
        config_format_size(v.u, buf, len);
        return;
    case CT_TIME:
        config_format_time(v.u, buf, len);
        return;
    case CT_RATE:
        config_format_rate(v.u, buf, len);
        return;
    case CT_BANDWIDTH:
        config_format_bandwidth(v.u, buf, len);
        return;
    case CT_PERCENT:
        config_format_percent(v.share, buf, len);
        return;
    case CT_INT:
        g_snprintf(buf, len, "%" G_GUINT64_FORMAT, v.u);
        return;
    case CT_BOOL:
        g_strlcpy(buf, v.flag ? "true" : "false", len);
        return;
    case CT_ENUM:
        g_strlcpy(buf, config_choice_name(k->choices, v.choice), len);
        return;
    }
}

/* "one of a, b, c" */
static char *choices_text(const ConfigChoice *c)
{
    GString *s = g_string_new("one of ");
    for (const ConfigChoice *i = c; i->name; i++)
        g_string_append_printf(s, "%s%s", i == c ? "" : ", ", i->name);
    return g_string_free(s, FALSE);
}

/* " from A to B", " of at least A" or "" for a size row. */
static char *size_range_text(const ConfigKey *k)
{
    char lo[CONFIG_VALUE_LEN], hi[CONFIG_VALUE_LEN];
    config_format_size(k->min, lo, sizeof lo);
    config_format_size(config_key_max(k), hi, sizeof hi);
    if (k->max)
        return g_strdup_printf(" from %s to %s", lo, hi);
    if (k->min)
        return g_strdup_printf(" of at least %s", lo);
    return g_strdup("");
}

char *config_key_expected(const ConfigKey *k, gboolean with_range)
{
    static const char *const generic[] = {
        [CT_SIZE] = "16KiB",
        [CT_TIME] = "50us",
        [CT_RATE] = "400MT/s",
        [CT_BANDWIDTH] = "600MB/s",
    };
    const char *ex = k->example ? k->example : k->def;
    if (k->type <= CT_BANDWIDTH && k->type != CT_STRING && (!ex || strcmp(ex, "0") == 0))
        ex = generic[k->type];
    switch (k->type) {
    case CT_STRING:
        if (!with_range)
            return g_strdup("text without control characters");
        return g_strdup_printf("text of at most %u bytes", (unsigned)k->width - 1);
    case CT_SIZE: {
        g_autofree char *range = with_range ? size_range_text(k) : g_strdup("");
        return g_strdup_printf("a size%s such as %s", range, ex);
    }
    case CT_TIME:
        return g_strdup_printf("a time with a unit such as %s", ex);
    case CT_RATE:
        return g_strdup_printf("a transfer rate with a unit such as %s", ex);
    case CT_BANDWIDTH:
        return g_strdup_printf("a bandwidth with a unit such as %s", ex);
    case CT_PERCENT:
        return g_strdup("a percentage from 0% to 100% such as 7%, or a fraction such as 0.07");
    case CT_INT:
        if (k->choices)
            return choices_text(k->choices);
        return g_strdup_printf("an integer from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                               k->min, config_key_max(k));
    case CT_BOOL:
        return g_strdup("true, false, yes, no, 1 or 0");
    case CT_ENUM:
        return choices_text(k->choices);
    }
    return g_strdup("?");
}

const ConfigKey *config_schema_find(const char *group, const char *key)
{
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    for (gsize i = 0; i < n; i++)
        if (strcmp(rows[i].group, group) == 0 && strcmp(rows[i].key, key) == 0)
            return &rows[i];
    return NULL;
}
