/*
 * drive_params.c - quantities derived from a drive's parameters.
 *
 * Pure functions of DriveParams; used by the models, by `ftlsim check` and
 * by the config validation pass.
 */
#include "models/drive_params.h"

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
    if (p->user_capacity == 0)
        return 0;
    return ((double)drive_params_raw_capacity(p) - (double)p->user_capacity) /
           (double)p->user_capacity;
}

uint64_t drive_params_program_unit(const DriveParams *p, CellMode m)
{
    uint64_t bits = p->timing[m].one_shot ? (uint64_t)m : 1;
    return (uint64_t)p->planes * p->page_size * bits;
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

/* Per-direction payload bandwidth of the host link for large transfers.
 * SATA: 6 Gbit/s, 8b/10b, 8 KiB data FISes, each with its framing and
 * handshake (hostif.c holds the per-FIS model this mirrors). NVMe: PCIe
 * lanes x rate x line code, 256-byte TLP payloads with their headers. */
double drive_params_link_bw(const DriveParams *p)
{
    if (p->interface == HOSTIF_SATA) {
        const double dword_ns = 40.0 / 6.0; /* 32 bits as 40 line bits at 6 Gbit/s */
        const double fis_dwords = 2048.0 + 64.0 + 16.0;
        return 8192.0 / (fis_dwords * dword_ns) * 1e9;
    }
    static const double gts[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0};
    uint32_t gen = p->pcie_gen >= 1 && p->pcie_gen <= 5 ? p->pcie_gen : 3;
    double code = gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    double lane = gts[gen] * 1e9 * code / 8.0; /* bytes/s */
    double tlp = 256.0 / (256.0 + 26.0);       /* payload / (payload + header, seq, CRC, framing) */
    return lane * p->pcie_lanes * tlp;
}

uint64_t drive_params_l2p_bytes(const DriveParams *p)
{
    return (p->user_capacity + SLOT_SIZE - 1) / SLOT_SIZE * 4;
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
