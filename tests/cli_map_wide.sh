#!/usr/bin/env bash
# cli_map_wide.sh - the map with 8-byte entries (models/map.c, as the drives
# whose numbers outgrow 32 bits keep it) simulates exactly what it does with
# 4-byte ones. Each case runs twice, the second time with
# FTLSIM_MAP_STORE=wide, and every output file must be byte-identical
# (wall time and peak RSS aside): pSLC fills and folding, an aged drive under
# GC, TRIM, a mapping cache in an HMB, 16 KiB map units with their
# read-modify-writes, and reads of prefilled data.
# Usage: bash tests/cli_map_wide.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

tlc=tests/data/drives/small_tlc.ini
pslc=tests/data/drives/small_tlc_pslc.ini
hmb=tests/data/drives/small_qlc_hmb.ini
cases=(
    "pslc-fill|$pslc|-w|rw=write,bs=128k,iodepth=32,size=1g;idle=2s;rw=write,bs=128k,size=400m"
    "aged-gc|$pslc|--prefill|90%|-w|rw=randwrite,bs=4k,iodepth=32,norandommap,io_size=3g"
    "random-prefill|$tlc|--prefill|100%:random|-w|rw=randwrite,bs=4k,iodepth=16,io_size=1g"
    "slc-prefill|$pslc|--prefill|60%:slc=50MB|-w|rw=randrw,rwmixread=50,bs=8k,iodepth=8,io_size=500m"
    "trim|$tlc|--prefill|100%|-w|rw=trimwrite,bs=64k,iodepth=8,size=600m"
    "hmb|$hmb|--prefill|100%|-w|rw=randrw,rwmixread=70,bs=4k,iodepth=16,norandommap,io_size=1g"
    "unit16k|$tlc|--set|ftl.map_unit=16KiB|--prefill|95%|-w|rw=randwrite,bs=4k,iodepth=32,io_size=1500m"
    "read-prefilled|$tlc|--prefill|100%|-w|rw=randread,bs=16k,iodepth=32,io_size=300m"
)

normalise() {
    sed -i -E '/"(wall_time_s|setup_wall_s|total_wall_s|peak_rss_bytes)":/d' "$1/summary.json"
    sed -i -E '/ s wall \(/d' "$1/summary.txt"
    rm -f "$1/report.html" # made from the files above, wall time and file sizes included
}

# the variable does select the wide entries
n=$((n + 1))
FTLSIM_MAP_STORE=wide "$bin" check -d "$tlc" | grep -q 'an entry per page (8 bytes)' ||
    fail "FTLSIM_MAP_STORE=wide: check does not describe 8-byte entries"
"$bin" check -d "$tlc" | grep -q 'an entry per page (4 bytes)' ||
    fail "small_tlc.ini: entries not 4 bytes without being asked"

for c in "${cases[@]}"; do
    IFS='|' read -r -a f <<<"$c"
    name=${f[0]} drive=${f[1]}
    args=("${f[@]:2}")
    n=$((n + 1))
    "$bin" run -q -d "$drive" "${args[@]}" -o "$tmp/narrow/$name" || { fail "$name: narrow run failed"; continue; }
    FTLSIM_MAP_STORE=wide "$bin" run -q -d "$drive" "${args[@]}" -o "$tmp/wide/$name" ||
        { fail "$name: wide run failed"; continue; }
    normalise "$tmp/narrow/$name"
    normalise "$tmp/wide/$name"
    # the check must be able to fail: the runs wrote data
    grep -qE '"(write|read)_bytes": [1-9]' "$tmp/narrow/$name/summary.json" ||
        fail "$name: the run moved no data"
    diff -r "$tmp/narrow/$name" "$tmp/wide/$name" >"$tmp/diff" 2>&1 ||
        { fail "$name: wide and narrow entries differ"; head -20 "$tmp/diff" >&2; }
done
finish "$n cases identical with wide map entries" "$fails of $n cases failed"
