/*
 * drive_params.c - quantities derived from a drive's parameters.
 *
 * Pure functions of DriveParams; used by the models, by `ftlsim check` and
 * by the config validation pass.
 */
#include "models/drive_params.h"

#include <string.h>

uint32_t drive_params_dies(const DriveParams *p)
{
    return p->channels * p->ces_per_channel * p->dies_per_ce;
}

uint64_t drive_params_blocks(const DriveParams *p)
{
    return (uint64_t)drive_params_dies(p) * p->planes * p->blocks_per_plane;
}

uint64_t drive_params_raw_capacity(const DriveParams *p)
{
    return drive_params_blocks(p) * p->pages_per_block * (uint64_t)p->page_size;
}

double drive_params_op(const DriveParams *p)
{
    if (drive_params_writable(p) == 0)
        return 0;
    return ((double)drive_params_raw_capacity(p) - (double)drive_params_writable(p)) /
           (double)drive_params_writable(p);
}

uint64_t drive_params_program_unit(const DriveParams *p, CellMode m)
{
    uint64_t bits = p->timing[m].one_shot ? (uint64_t)m : 1;
    return (uint64_t)p->planes * p->page_size * bits;
}

uint64_t drive_params_write_buffer(const DriveParams *p)
{
    uint64_t unit = drive_params_map_unit(p);
    for (CellMode m = CELL_SLC; m <= CELL_QLC; m++)
        if (drive_params_program_unit(p, m) > unit)
            unit = drive_params_program_unit(p, m);
    uint64_t key = p->write_buffer / SLOT_SIZE * SLOT_SIZE;
    return key > 2 * unit ? key : 2 * unit;
}

double drive_params_die_write_bw(const DriveParams *p, CellMode m)
{
    if (p->timing[m].t_prog == 0)
        return 0;
    return (double)drive_params_program_unit(p, m) * 1e9 / (double)p->timing[m].t_prog;
}

double drive_params_channel_bw(const DriveParams *p)
{
    return (double)p->channel_rate * (double)p->channel_width / 8.0;
}

/* A die reads a round of one page per plane in tR, then moves it over its
 * channel; with cache read it senses the next round meanwhile, so a round
 * takes max(tR, transfer) instead of their sum. Channel sharing between
 * the dies of a channel is not counted here (it bounds the channels). */
double drive_params_die_read_bw(const DriveParams *p, CellMode m)
{
    double round = (double)p->planes * p->page_size;
    double t_read = (double)p->timing[m].t_read / 1e9, out = round / drive_params_channel_bw(p);
    if (t_read <= 0)
        return 0;
    return round / (p->cache_read ? (t_read > out ? t_read : out) : t_read + out);
}

/* Link time for one command moving `bytes` of data in one direction.
 *
 * SATA (6 Gbit/s, 8b/10b: a 32-bit dword takes 40 line bits): every FIS is
 * framed (SOF, CRC, EOF) and acknowledged (X_RDY/R_RDY before, WTRM/R_OK
 * after, with the receiver checking the CRC in between); that handshake costs
 * about 1 us on real links, SATA_FIS_OVERHEAD_DW dwords. Data moves in FISes
 * of at most 8 KiB, with two ALIGN primitives every 256 dwords. An NCQ command
 * costs two more FISes (Register H2D, DMA Setup; the Set Device Bits FIS that
 * reports completion carries many commands at once at depth, so it is not
 * charged per command); a write also waits for a DMA Activate FIS before each
 * data FIS. SATA is half duplex. This gives ~100K 4 KiB reads/s, ~91K 4 KiB
 * writes/s, ~550 MB/s reading and ~515 MB/s writing with 128 KiB commands:
 * the ceilings every SATA drive of the reviews shows.
 *
 * NVMe: PCIe lanes x rate x line code (8b/10b up to gen 2, 128b/130b after),
 * payload in 256-byte TLPs with 26 bytes of header, sequence, LCRC and
 * framing each; a command also moves its 64-byte submission entry and its
 * 16-byte completion entry. Each direction is its own link. */
#define SATA_DWORD_NS (40.0 / 6.0)
#define SATA_FIS_OVERHEAD_DW 150.0

double drive_params_link_xfer_ns(const DriveParams *p, uint64_t bytes, bool to_device)
{
    if (p->interface == HOSTIF_SATA) {
        double data_dw = (double)((bytes + 3) / 4);
        double fises = (double)((bytes + 8191) / 8192);
        double align = 2.0 * (double)(uint64_t)(data_dw / 256.0);
        double dw = data_dw + align + fises * SATA_FIS_OVERHEAD_DW;
        if (to_device)
            dw += fises * (1.0 + SATA_FIS_OVERHEAD_DW); /* DMA Activate */
        dw += 2.0 * SATA_FIS_OVERHEAD_DW + 5.0 + 7.0;
        return dw * SATA_DWORD_NS;
    }
    static const double gts[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0};
    uint32_t gen = p->pcie_gen >= 1 && p->pcie_gen <= 5 ? p->pcie_gen : 3;
    double code = gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    double lane = gts[gen] * code / 8.0 * (double)(p->pcie_lanes ? p->pcie_lanes : 1); /* bytes/ns */
    double tlps = (double)((bytes + 255) / 256) + 2.0; /* data, SQ entry, CQ entry */
    return ((double)bytes + 64.0 + 16.0 + tlps * 26.0) / lane;
}

/* Payload bandwidth of the host link for large transfers, bytes/s. */
double drive_params_link_bw(const DriveParams *p, bool to_device)
{
    const uint64_t big = 1u << 20;
    return (double)big * 1e9 / drive_params_link_xfer_ns(p, big, to_device);
}

uint32_t drive_params_map_unit(const DriveParams *p)
{
    return p->map_unit ? p->map_unit : SLOT_SIZE;
}

uint64_t drive_params_l2p_bytes(const DriveParams *p)
{
    uint64_t unit = drive_params_map_unit(p);
    return (p->user_capacity + unit - 1) / unit * 4;
}

const char *cell_mode_name(CellMode m)
{
    switch (m) {
    case CELL_SLC:
        return "slc";
    case CELL_MLC:
        return "mlc";
    case CELL_TLC:
        return "tlc";
    case CELL_QLC:
        return "qlc";
    }
    return "?";
}

uint32_t drive_params_fdp_pids(const DriveParams *p)
{
    return p->fdp_handles * (p->fdp_groups ? p->fdp_groups : 1);
}

/* The k-th comma-separated word of s (leading and trailing blanks off)
 * into out; false if s has fewer words. */
static bool word_at(const char *s, uint32_t k, char *out, size_t len)
{
    for (uint32_t i = 0; i < k; i++) {
        s = strchr(s, ',');
        if (!s)
            return false;
        s++;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strcspn(s, ",");
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= len)
        return false;
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

int drive_params_fdp_persistent(const DriveParams *p, uint32_t h)
{
    char w[32];
    bool list = strchr(p->fdp_isolation, ',') != NULL;
    if (!word_at(p->fdp_isolation, list ? h : 0, w, sizeof w))
        return -1;
    if (strcmp(w, "persistent") == 0)
        return 1;
    return strcmp(w, "initial") == 0 ? 0 : -1;
}

uint64_t drive_params_block_bytes(const DriveParams *p)
{
    return (uint64_t)p->planes * p->pages_per_block * p->page_size;
}

uint32_t drive_params_streams(const DriveParams *p)
{
    if (p->zns_zone_size)
        return (uint32_t)(p->user_capacity / p->zns_zone_size);
    return drive_params_fdp_pids(p);
}

uint64_t drive_params_queue_limit(const DriveParams *p)
{
    return (uint64_t)p->queue_depth * (p->interface == HOSTIF_NVME ? p->queue_count : 1);
}

uint32_t drive_params_zone_blocks(const DriveParams *p)
{
    uint64_t per_die = drive_params_dies(p) * drive_params_block_bytes(p);
    uint64_t cap = p->zns_zone_cap ? p->zns_zone_cap : p->zns_zone_size;
    return (uint32_t)((cap + per_die - 1) / per_die);
}

uint64_t drive_params_writable(const DriveParams *p)
{
    if (p->zns_zone_size == 0)
        return p->user_capacity;
    return p->user_capacity / p->zns_zone_size * (p->zns_zone_cap ? p->zns_zone_cap : p->zns_zone_size);
}
