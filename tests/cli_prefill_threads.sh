#!/usr/bin/env bash
# cli_prefill_threads.sh - a random prefill deals the pages to their slots
# on two threads where the machine has a second CPU (models/prefill.c,
# pf_deal()), and the drive it leaves is the one a single thread leaves:
# each case runs as usual and again under `taskset -c 0` (one CPU, so one
# thread), and every output file must be byte-identical (wall time and peak
# RSS aside), and the FTL's invariants must hold at the end (--check: a
# page dealt twice or not at all breaks them). The drives: one of a single
# batch of blocks (its two shares split inside it), one of six (the lpns
# each share starts from carried across batches), and one with 2 GB left
# in its pSLC cache (which must then hold all of it: overwrites drawn after
# that data landed hit some of it, and the last go on until 2 GB is there).
# Usage: bash tests/cli_prefill_threads.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

if ! command -v taskset >/dev/null || ! taskset -c 0 true 2>/dev/null; then
    echo "taskset cannot bind to one CPU here: skipped"
    skipped=1
    finish
fi
if [ "$(nproc)" -lt 2 ]; then
    echo "one CPU: the prefill deals on one thread either way: skipped"
    skipped=1
    finish
fi

cases=(
    "one-batch|tests/data/drives/small_tlc.ini|--prefill|100%:random|-w|rw=randrw,rwmixread=50,bs=4k,iodepth=16,io_size=200m"
    "six-batches|configs/860evo-250gb.ini|--prefill|90%:random|-w|rw=randwrite,bs=4k,iodepth=32,norandommap,io_size=1g"
    "pslc|configs/860evo-250gb.ini|--prefill|80%:random:slc=2GB|-w|rw=randread,bs=4k,iodepth=32,io_size=500m"
)

normalise() {
    sed -i -E '/"(wall_time_s|setup_wall_s|total_wall_s|peak_rss_bytes)":/d' "$1/summary.json"
    sed -i -E '/ s wall \(/d' "$1/summary.txt"
    rm -f "$1/report.html" # made from the files above, wall time and file sizes included
}

for c in "${cases[@]}"; do
    IFS='|' read -r -a f <<<"$c"
    name=${f[0]} drive=${f[1]}
    args=("${f[@]:2}")
    n=$((n + 1))
    "$bin" run -q --check -d "$drive" "${args[@]}" -o "$tmp/two/$name" || { fail "$name: run failed"; continue; }
    taskset -c 0 "$bin" run -q --check -d "$drive" "${args[@]}" -o "$tmp/one/$name" ||
        { fail "$name: run on one CPU failed"; continue; }
    normalise "$tmp/two/$name"
    normalise "$tmp/one/$name"
    # the check must be able to fail: the runs moved data on a drive with
    # prefilled data to find
    grep -qE '"(write|read)_bytes": [1-9]' "$tmp/two/$name/summary.json" ||
        fail "$name: the run moved no data"
    if [ "$name" = pslc ]; then
        n=$((n + 1))
        used=$(sed -n 's/^ *"used_bytes": \([0-9]*\).*/\1/p' "$tmp/two/$name/summary.json")
        [ "${used:-0}" -ge 2000000000 ] || fail "pslc: ${used:-no} bytes in the pSLC cache, expected 2 GB"
    fi
    diff -r "$tmp/two/$name" "$tmp/one/$name" >"$tmp/diff" 2>&1 ||
        { fail "$name: the prefill on two threads and on one differ"; head -20 "$tmp/diff" >&2; }
done
finish "$n cases identical on one CPU and on two" "$fails of $n cases failed"
