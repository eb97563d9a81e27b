#!/usr/bin/env bash
# cli_memory.sh - the memory estimate against what runs take: `ftlsim check`
# with a run's options prints "this run about N MiB"; the run's peak RSS
# (summary.json peak_rss_bytes) must lie between 0.6 (looser where said)
# and 1.0 times it, and under a stated ceiling, as the kernel gives memory
# and with every mapped page backed at once (FTLSIM_TOUCH_ALLOC=1, as on a
# kernel that backs pages read before they are written): small drives
# under random writes, 1 M random writes on a 1 TB drive, fills in order
# and the 61.44 TB drive. A run whose estimate exceeds FTLSIM_MEMORY_LIMIT
# is refused up front: exit 2, one line, no folder.
# Usage: bash tests/cli_memory.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

# estimate_mib ARGS...: the "this run" estimate of check, in MiB.
estimate_mib() {
    "$bin" check "$@" | awk '/^this run/ {
        v = $4; if ($5 == "GiB") v *= 1024; print v }'
}

# bounded NAME LO HI MAX_MIB ARGS...: `ftlsim run ARGS` peaks between LO
# and HI times the estimate check gives for ARGS, and under MAX_MIB.
bounded() {
    local name=$1 lo=$2 hi=$3 max=$4
    shift 4
    n=$((n + 1))
    local est rss
    est=$(estimate_mib "$@")
    [ -n "$est" ] || { fail "$name: check printed no estimate"; return; }
    if ! "$bin" run -q "$@" -o "$tmp/$name"; then
        fail "$name: the run failed"
        return
    fi
    rss=$(sed -n 's/.*"peak_rss_bytes": \([0-9]*\).*/\1/p' "$tmp/$name/summary.json")
    awk -v e="$est" -v r="$rss" -v name="$name" -v lo="$lo" -v hi="$hi" -v max="$max" 'BEGIN {
        m = r / 1048576
        printf "%-22s estimate %7.1f MiB, peak RSS %7.1f MiB (%+.1f%%)\n", name, e, m, 100 * (m - e) / e
        exit (m > hi * e || m < lo * e || m > max) }' ||
        fail "$name: peak RSS not within $lo to $hi times the estimate, or over $max MiB"
}

small=tests/data/drives/small_qlc_hmb.ini # 32 GB QLC, mapping cache in an HMB
mid=(-d configs/990.ini --set nand.blocks_per_plane=200 --set drive.user_capacity=140GB)
tlc1t=tests/data/drives/tlc_1tb_bench.ini # 1 TB TLC

# Each case twice: as the kernel gives memory, and with FTLSIM_TOUCH_ALLOC=1,
# where every page the tables map is written as it is mapped, so that
# memory mapped and never used costs what it would on a kernel that backs
# a page on its first read. The map reads nothing it did not write: the
# estimate bounds the peak either way.
both() {
    bounded "$@"
    FTLSIM_TOUCH_ALLOC=1 bounded "$1-touch" "${@:2}"
}
# random writes after a prefill in order, and after a random one (the
# worst case: an entry per page both ways)
both qlc32-seq 0.6 1 1e9 -d "$small" --prefill 100% -w 'rw=randwrite,bs=4k,io_size=64m'
both qlc32-random 0.6 1 1e9 -d "$small" --prefill 100%:random -w 'rw=randwrite,bs=4k,io_size=64m'
both 990-140g-seq 0.6 1 1e9 "${mid[@]}" --prefill 100% -w 'rw=randwrite,bs=4k,io_size=64m'
both 990-140g-random 0.6 1 1e9 "${mid[@]}" --prefill 100%:random -w 'rw=randwrite,bs=4k,io_size=64m'

# Memory follows the data written, not the capacity: 1 M random 4 KiB
# writes on an empty 1 TB drive take their overrides and the P2L of the
# slots they went to (under 100 MiB); 1 GB written in order to the 4 TB QVO
# takes its runs and the directories (the estimate counts the directories
# and per-block arrays whole, which a run this short reads little of: on a
# kernel that backs pages only when touched, the lower bound is looser).
both tlc1t-1m-random 0.6 1 100 -d "$tlc1t" -w 'rw=randwrite,bs=4k,iodepth=32,io_size=4g'
bounded qvo4tb-1g-seq 0.3 1 64 -d configs/870qvo-4tb.ini -w 'rw=write,bs=1m,size=1g'
FTLSIM_TOUCH_ALLOC=1 bounded qvo4tb-1g-seq-touch 0.6 1 64 -d configs/870qvo-4tb.ini \
    -w 'rw=write,bs=1m,size=1g'

# Refused before anything is allocated: exit 2, one line naming the drive.
FTLSIM_MEMORY_LIMIT=8MiB expect_error "small_qlc_hmb.ini: simulating this drive needs about" \
    run -d "$small" --prefill 100%:random -w fill

# A sequential fill costs its runs (a program unit each, 16 bytes at most
# with their lists' slack): the 1 TB QVO filled whole (pSLC runs, folded,
# then native ones) in under 300 MiB.
both qvo-fill 0.6 1 300 -d configs/870qvo.ini -w fill

# The 61.44 TB drive has more slots than 32 bits number: its entries are 8
# bytes wide. 90% prefilled in order (a formula) and given 2 GB of 4 KiB
# random writes (each rewrites a 16 KiB unit: four overrides) it stays
# under the estimate, as does 1 TB written in order (runs); a whole fill is
# refused up front where it does not fit.
n=$((n + 1))
"$bin" check -d configs/p5336-61tb.ini >"$tmp/p5336" || fail "check p5336-61tb failed"
grep -q 'an entry per page (8 bytes)' "$tmp/p5336" || fail "check p5336-61tb: no 8-byte entries"
grep -q '^map unit *16KiB' "$tmp/p5336" || fail "check p5336-61tb: no map unit line"
both p5336-90%-2g-random 0.6 1 2048 -d configs/p5336-61tb.ini --prefill 90% \
    -w 'rw=randwrite,bs=4k,io_size=2g'
# (run lists double as they grow: the estimate counts each list at twice
# its runs, which it reaches only just before doubling; and, as for the
# QVO above, the directories whole, which this run reads little of)
bounded p5336-1t-seq 0.3 1 2048 -d configs/p5336-61tb.ini -w 'rw=write,bs=1m,size=1t'
FTLSIM_TOUCH_ALLOC=1 bounded p5336-1t-seq-touch 0.6 1 2048 -d configs/p5336-61tb.ini \
    -w 'rw=write,bs=1m,size=1t'
FTLSIM_MEMORY_LIMIT=4GiB expect_error "p5336-61tb.ini: simulating this drive needs about" \
    run -d configs/p5336-61tb.ini -w fill

finish "$n checks passed" "$fails of $n checks failed"
