#!/usr/bin/env bash
# cli_check_every.sh - run --check-every N verifies the FTL invariants
# (drive_check()) after every N commands on small drives (pSLC cache and
# folding, a mapping cache on HMB, TRIM), every check holds, the count of
# checks is what the commands make, and checking changes nothing the run
# writes.
# Usage: bash tests/cli_check_every.sh FTLSIM_BINARY (from the source root)
set -uo pipefail
source tests/lib.sh "$@"

# name|drive|commands the workload completes|workload
cases=(
    "pslc|tests/data/drives/small_tlc_pslc.ini|6144|rw=randwrite,bs=4k,iodepth=16,size=60%,io_size=24m"
    "hmb|tests/data/drives/small_qlc_hmb.ini|4096|rw=randrw,rwmixread=50,bs=4k,iodepth=8,size=50%,io_size=16m"
    "trim|tests/data/drives/small_tlc.ini|2048|rw=randtrim,bs=16k,iodepth=4,size=50%,io_size=32m"
)
every=250
for c in "${cases[@]}"; do
    IFS='|' read -r name drive cmds spec <<<"$c"
    n=$((n + 1))
    if ! "$bin" run -d "$drive" --prefill 50% -w "$spec" --check-every $every -o "$tmp/$name" \
        >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        fail "$name: the checked run failed: $(head -n 2 "$tmp/$name.err")"
        continue
    fi
    want=$((cmds / every))
    grep -q "the FTL invariants held at all $want checks (one every $every commands)" "$tmp/$name.err" ||
        fail "$name: expected $want checks held: $(cat "$tmp/$name.err")"
    "$bin" run -q -d "$drive" --prefill 50% -w "$spec" -o "$tmp/$name-plain" ||
        fail "$name: the plain run failed"
    for d in "$tmp/$name" "$tmp/$name-plain"; do
        sed -i -E '/"(wall_time_s|setup_wall_s|total_wall_s|peak_rss_bytes)":/d' "$d/summary.json"
        sed -i -E '/ s wall \(/d' "$d/summary.txt"
        rm -f "$d/report.html" # made from the files above, wall time and file sizes included
    done
    diff -r "$tmp/$name" "$tmp/$name-plain" >/dev/null || fail "$name: checking changed the results"
done
expect_error "--check-every: expected a count of commands" run -d tests/data/drives/small_tlc.ini \
    -w 'rw=write,bs=4k,size=1m' --check-every=-1
finish "$n checks passed"
