#!/usr/bin/env bash
# cli_sparse.sh - the sparse map (models/map.c: a prefill formula, overrides
# in a hash or dense chunks, P2L where written) simulates exactly what the
# flat tables do. Each case runs twice, the second time with
# FTLSIM_MAP_STORE=sparse, and every output file must be byte-identical
# (wall time and peak RSS aside): pSLC fills and folding, an aged drive under
# GC, TRIM, a mapping cache in an HMB, 16 KiB map units with their
# read-modify-writes, and reads of prefilled data.
# Usage: bash tests/cli_sparse.sh FTLSIM_BINARY (from the source root).
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
    sed -i -E '/"(wall_time_s|peak_rss_bytes)":/d' "$1/summary.json"
    sed -i -E '/ s wall \(/d' "$1/summary.txt"
}

# the variable does select the sparse map
n=$((n + 1))
FTLSIM_MAP_STORE=sparse "$bin" check -d "$tlc" | grep -q 'a sparse map' ||
    fail "FTLSIM_MAP_STORE=sparse: check does not describe a sparse map"
"$bin" check -d "$tlc" | grep -q 'a sparse map' && fail "small_tlc.ini: sparse without being asked"

for c in "${cases[@]}"; do
    IFS='|' read -r -a f <<<"$c"
    name=${f[0]} drive=${f[1]}
    args=("${f[@]:2}")
    n=$((n + 1))
    "$bin" run -q -d "$drive" "${args[@]}" -o "$tmp/flat/$name" || { fail "$name: flat run failed"; continue; }
    FTLSIM_MAP_STORE=sparse "$bin" run -q -d "$drive" "${args[@]}" -o "$tmp/sparse/$name" ||
        { fail "$name: sparse run failed"; continue; }
    normalise "$tmp/flat/$name"
    normalise "$tmp/sparse/$name"
    # the check must be able to fail: the runs wrote data
    grep -qE '"(write|read)_bytes": [1-9]' "$tmp/flat/$name/summary.json" ||
        fail "$name: the run moved no data"
    diff -r "$tmp/flat/$name" "$tmp/sparse/$name" >"$tmp/diff" 2>&1 ||
        { fail "$name: sparse and flat differ"; head -20 "$tmp/diff" >&2; }
done
finish "$n cases identical with the sparse map" "$fails of $n cases failed"
