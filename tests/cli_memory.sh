#!/usr/bin/env bash
# cli_memory.sh - the memory estimate against what runs take: `ftlsim check`
# with a run's options prints "this run about N MiB", and each case runs
# twice:
#   - as the kernel gives memory: the peak RSS (summary.json
#     peak_rss_bytes) must not exceed the estimate (plus SLACK_MIB) nor a
#     stated ceiling. Nothing bounds it from below here: on a kernel that
#     maps the shared zero page, memory a run maps and never writes costs
#     nothing, so a peak far below the estimate is right there;
#   - with FTLSIM_TOUCH_ALLOC=1, where every page the tables map is written
#     as it is mapped (what memory would cost on a kernel that backs a page
#     on its first read): the peak must lie between LO and 1.0 times the
#     estimate (plus SLACK_MIB), so the estimate is not loose either.
# The verdict is the same on every kernel: the first bound holds whether or
# not untouched memory is free, the second does not depend on it. Cases:
# small drives under random writes, 1 M random writes on a 1 TB drive,
# fills in order and the 61.44 TB drive. A run whose estimate exceeds
# FTLSIM_MEMORY_LIMIT is refused up front: exit 2, one line, no folder.
# Usage: bash tests/cli_memory.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

# The process's own start-up memory (the loader, libc, GLib; MEMORY_BASE in
# models/drive.c) differs from one machine's libraries to another's by
# about this much: a small run may pass its estimate by it.
SLACK_MIB=1

# estimate_mib ARGS...: the "this run" estimate of check, in MiB.
estimate_mib() {
    "$bin" check "$@" | awk '/^this run/ {
        v = $4; if ($5 == "GiB") v *= 1024; print v }'
}

# bounded NAME LO MAX_MIB ARGS...: `ftlsim run ARGS` peaks at most at the
# estimate check gives for ARGS (+ SLACK_MIB) and under MAX_MIB; with
# FTLSIM_TOUCH_ALLOC=1 also at LO times the estimate or more.
bounded() {
    local name=$1 lo=$2 max=$3
    shift 3
    n=$((n + 1))
    local est rss touch=0
    [ "${FTLSIM_TOUCH_ALLOC:-0}" != 0 ] && touch=1
    est=$(estimate_mib "$@")
    [ -n "$est" ] || { fail "$name: check printed no estimate"; return; }
    if ! "$bin" run -q "$@" -o "$tmp/$name"; then
        fail "$name: the run failed"
        return
    fi
    rss=$(sed -n 's/.*"peak_rss_bytes": \([0-9]*\).*/\1/p' "$tmp/$name/summary.json")
    awk -v e="$est" -v r="$rss" -v name="$name" -v lo="$lo" -v max="$max" -v touch="$touch" \
        -v slack="$SLACK_MIB" 'BEGIN {
        m = r / 1048576
        printf "%-26s estimate %7.1f MiB, peak RSS %7.1f MiB (%+.1f%%)\n", name, e, m, 100 * (m - e) / e
        exit (m > e + slack || m > max || (touch && m < lo * e)) }' ||
        if [ "$touch" = 1 ]; then
            fail "$name: peak RSS not within $lo to 1 times the estimate (+${SLACK_MIB} MiB), or over $max MiB"
        else
            fail "$name: peak RSS over the estimate (+${SLACK_MIB} MiB) or over $max MiB"
        fi
}

small=tests/data/drives/small_qlc_hmb.ini # 32 GB QLC, mapping cache in an HMB
mid=(-d configs/990.ini --set nand.blocks_per_plane=200 --set drive.user_capacity=140GB)
tlc1t=tests/data/drives/tlc_1tb_bench.ini # 1 TB TLC

# Each case twice: as the kernel gives memory, and with FTLSIM_TOUCH_ALLOC=1.
both() {
    FTLSIM_TOUCH_ALLOC=0 bounded "$@"
    FTLSIM_TOUCH_ALLOC=1 bounded "$1-touch" "${@:2}"
}
# random writes after a prefill in order, and after a random one (the
# worst case: an entry per page both ways)
both qlc32-seq 0.6 1e9 -d "$small" --prefill 100% -w 'rw=randwrite,bs=4k,io_size=64m'
both qlc32-random 0.6 1e9 -d "$small" --prefill 100%:random -w 'rw=randwrite,bs=4k,io_size=64m'
both 990-140g-seq 0.6 1e9 "${mid[@]}" --prefill 100% -w 'rw=randwrite,bs=4k,io_size=64m'
both 990-140g-random 0.6 1e9 "${mid[@]}" --prefill 100%:random -w 'rw=randwrite,bs=4k,io_size=64m'

# Memory follows the data written, not the capacity: 1 M random 4 KiB
# writes on an empty 1 TB drive take their overrides and the P2L of the
# slots they went to (under 100 MiB); 1 GB written in order to the 4 TB QVO
# takes its runs and the directories (counted whole, as the touch mode
# backs them).
both tlc1t-1m-random 0.6 100 -d "$tlc1t" -w 'rw=randwrite,bs=4k,iodepth=32,io_size=4g'
both qvo4tb-1g-seq 0.6 64 -d configs/870qvo-4tb.ini -w 'rw=write,bs=1m,size=1g'

# Refused before anything is allocated: exit 2, one line naming the drive.
FTLSIM_MEMORY_LIMIT=8MiB expect_error "small_qlc_hmb.ini: simulating this drive needs about" \
    run -d "$small" --prefill 100%:random -w fill

# A sequential fill costs its runs (a program unit each, 16 bytes at most
# with their lists' slack): the 1 TB QVO filled whole (pSLC runs, folded,
# then native ones) in under 300 MiB.
both qvo-fill 0.6 300 -d configs/870qvo.ini -w fill

# The 61.44 TB drive has more slots than 32 bits number: its entries are 8
# bytes wide. 90% prefilled in order (a formula) and given 2 GB of 4 KiB
# random writes (each rewrites a 16 KiB unit: four overrides) it stays
# under the estimate, as does 1 TB written in order (runs); a whole fill is
# refused up front where it does not fit.
n=$((n + 1))
"$bin" check -d configs/p5336-61tb.ini >"$tmp/p5336" || fail "check p5336-61tb failed"
grep -q 'an entry per page (8 bytes)' "$tmp/p5336" || fail "check p5336-61tb: no 8-byte entries"
grep -q '^map unit *16KiB' "$tmp/p5336" || fail "check p5336-61tb: no map unit line"
both p5336-90%-2g-random 0.6 2048 -d configs/p5336-61tb.ini --prefill 90% \
    -w 'rw=randwrite,bs=4k,io_size=2g'
# (run lists double as they grow: the estimate counts each list at twice
# its runs, which it reaches only just before doubling)
both p5336-1t-seq 0.6 2048 -d configs/p5336-61tb.ini -w 'rw=write,bs=1m,size=1t'
FTLSIM_MEMORY_LIMIT=4GiB expect_error "p5336-61tb.ini: simulating this drive needs about" \
    run -d configs/p5336-61tb.ini -w fill

finish "$n checks passed" "$fails of $n checks failed"
