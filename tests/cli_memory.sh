#!/usr/bin/env bash
# cli_memory.sh - the memory estimate against what runs take: `ftlsim check`
# with a run's options prints "this run about N MiB"; the run's peak RSS
# (summary.json peak_rss_bytes) must be within 15% of it, on two small
# drives and for two workload classes each (a sequential prefill with random
# writes, and a random prefill: the worst case); a sparse map (the 61.44 TB
# drive's, and the 1 TB QVO's when asked for) stays under its estimate for
# random writes and for a fill in order. A run whose estimate exceeds
# FTLSIM_MEMORY_LIMIT is refused up front: exit 2, one line, no folder.
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
within15() { bounded "$1" 0.85 1.15 1e9 "${@:2}"; }
within15 qlc32-seq -d "$small" --prefill 100% -w 'rw=randwrite,bs=4k,io_size=64m'
within15 qlc32-random -d "$small" --prefill 100%:random -w 'rw=randwrite,bs=4k,io_size=64m'
within15 990-140g-seq "${mid[@]}" --prefill 100% -w 'rw=randwrite,bs=4k,io_size=64m'
within15 990-140g-random "${mid[@]}" --prefill 100%:random -w 'rw=randwrite,bs=4k,io_size=64m'

# The tables are backed only where written: 1 GB written in order to the
# 4 TB QVO backs a few MB of its 7.5 GiB of tables. The estimate is an upper
# bound here (it counts a whole huge page per die of P2L, which a kernel
# without transparent huge pages does not back), and the run stays far
# below the full tables.
bounded qvo4tb-1g-seq 0 1.15 256 -d configs/870qvo-4tb.ini -w 'rw=write,bs=1m,size=1g'

# Refused before anything is allocated: exit 2, one line naming the drive.
FTLSIM_MEMORY_LIMIT=32MiB expect_error "small_qlc_hmb.ini: simulating this drive needs about" \
    run -d "$small" -w fill

# A sequential fill on the sparse map costs its runs (a program unit each,
# 16 bytes at most with their lists' slack, which the estimate counts): the
# 1 TB QVO filled whole (pSLC runs, folded, then native ones) stays under
# its estimate and within 60% of it.
FTLSIM_MAP_STORE=sparse bounded qvo-sparse-fill 0.6 1 1e9 -d configs/870qvo.ini -w fill

# The 61.44 TB drive has more slots than 32 bits number: its map is sparse.
# check says so; 90% prefilled in order (a formula) and given 2 GB of 4 KiB
# random writes (each rewrites a 16 KiB unit: four overrides) it stays under
# the estimate and within a third of it, as does 1 TB written in order
# (runs); a whole fill (7.4 GiB estimated) is refused up front where it
# does not fit.
n=$((n + 1))
"$bin" check -d configs/p5336-61tb.ini >"$tmp/p5336" || fail "check p5336-61tb failed"
grep -q 'a sparse map' "$tmp/p5336" || fail "check p5336-61tb: no sparse map line"
grep -q '^map unit *16KiB' "$tmp/p5336" || fail "check p5336-61tb: no map unit line"
bounded p5336-90%-2g-random 0.333 1 4096 -d configs/p5336-61tb.ini --prefill 90% \
    -w 'rw=randwrite,bs=4k,io_size=2g'
bounded p5336-1t-seq 0.333 1 4096 -d configs/p5336-61tb.ini -w 'rw=write,bs=1m,size=1t'
FTLSIM_MEMORY_LIMIT=4GiB expect_error "p5336-61tb.ini: simulating this drive needs about" \
    run -d configs/p5336-61tb.ini -w fill

finish "$n checks passed" "$fails of $n checks failed"
