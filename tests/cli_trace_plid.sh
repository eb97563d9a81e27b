#!/usr/bin/env bash
# cli_trace_plid.sh - a CSV trace whose header ends in a plid column places
# each write by it: on configs/pm9d3a-fdp.ini cut small, the per-handle
# host bytes of summary.json are the trace's bytes per identifier (awk
# sums them from the file); a trace naming identifiers on a drive without
# FDP, or beyond the drive's, is refused at FILE:LINE; and placement from
# the trace simulates what the fio job with fdp_pli does.
# Usage: bash tests/cli_trace_plid.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

fdp=configs/pm9d3a-fdp.ini
small=(--set nand.pages_per_block=288 --set nand.blocks_per_plane=64
       --set controller.channels=2 --set controller.ces_per_channel=2
       --set drive.user_capacity=4GB --set fdp.ru_size=72MiB)

# Alibaba lines (device_id,opcode,offset,length,timestamp in us) with a
# plid column: 3000 writes of 4 to 64 KiB at distinct offsets, a third to
# identifier 1, the rest to 0. The run ends with the last writes still in
# the write buffer: a handle's host bytes count them too (host data naming
# it, not only what reached NAND).
awk 'BEGIN {
    print "device_id,opcode,offset,length,timestamp,plid"
    srand(3)
    for (i = 0; i < 3000; i++)
        printf "0,W,%d,%d,%d,%d\n", i * 65536, 4096 * (1 + int(rand() * 16)), i * 100, (i % 3 == 0)
}' >"$tmp/two.csv"

# "host bytes of handle 0, of handle 1, of the others" from summary.json
handle_bytes() {
    python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["fdp"]["per_handle"]
print(h[0]["host_bytes"], h[1]["host_bytes"], sum(x["host_bytes"] for x in h[2:]))' "$1"
}

n=$((n + 1))
want=$(awk -F, 'NR > 1 && $2 == "W" { b[$6] += $4 } END { printf "%.0f %.0f 0\n", b[0], b[1] }' "$tmp/two.csv")
if "$bin" run -d $fdp "${small[@]}" -t "$tmp/two.csv" -o "$tmp/two" >/dev/null 2>"$tmp/err"; then
    got=$(handle_bytes "$tmp/two/summary.json")
    [ "$got" = "$want" ] || fail "per-handle host bytes: got $got, the trace has $want"
    grep -q '"header_skipped": true' "$tmp/two/summary.json" || fail "the plid header was not skipped"
else
    fail "replay of a trace with a plid column failed: $(cat "$tmp/err")"
fi

# The same column with a named format.
n=$((n + 1))
if "$bin" run -d $fdp "${small[@]}" -t "$tmp/two.csv" --trace-format alibaba -o "$tmp/named" >/dev/null 2>"$tmp/err"; then
    got=$(handle_bytes "$tmp/named/summary.json")
    [ "$got" = "$want" ] || fail "--trace-format alibaba: per-handle host bytes $got, the trace has $want"
else
    fail "replay with --trace-format alibaba failed: $(cat "$tmp/err")"
fi

# Refused: identifiers on a drive without FDP, beyond the drive's, not a number.
expect_error "two.csv:2: field plid: found \"1\", expected 0 on a drive without FDP" \
    run -d $fdp "${small[@]}" --set fdp.handles=0 -t "$tmp/two.csv"
printf 'device_id,opcode,offset,length,timestamp,plid\n0,W,0,4096,0,0\n0,W,4096,4096,1,8\n' >"$tmp/far.csv"
expect_error "far.csv:3: field plid: found \"8\", expected below the drive's 8 placement identifiers" \
    run -d $fdp "${small[@]}" -t "$tmp/far.csv"
printf 'device_id,opcode,offset,length,timestamp,plid\n0,W,0,4096,0,0\n0,W,4096,4096,1,x\n' >"$tmp/bad.csv"
expect_error "bad.csv:3: field plid: found \"x\", expected a placement identifier" \
    run -d $fdp "${small[@]}" -t "$tmp/bad.csv" --trace-format alibaba
# identifier 0 (and reads naming any) is what a drive without FDP takes
n=$((n + 1))
"$bin" run -d $fdp "${small[@]}" --set fdp.handles=0 -t "$tmp/far.csv" \
    -o "$tmp/zero" >/dev/null 2>&1 && fail "identifier 8 on a drive without FDP was taken"
head -n 2 "$tmp/far.csv" >"$tmp/zero.csv"
"$bin" run -d $fdp "${small[@]}" --set fdp.handles=0 -t "$tmp/zero.csv" -o "$tmp/zero" >/dev/null 2>&1 ||
    fail "identifier 0 on a drive without FDP was refused"

# Placement from the trace against fio's: a job writing 64 KiB in order at
# QD 1 with fdp_pli=0,1 (round robin) and the trace of the same commands
# replayed closed at QD 1 give the same drive: the FDP statistics, NAND,
# WAF, host counts, latencies and simulated time of summary.json agree.
n=$((n + 1))
awk 'BEGIN { print "device_id,opcode,offset,length,timestamp,plid"
    for (i = 0; i < 2000; i++) printf "0,W,%d,65536,%d,%d\n", i * 65536, i, i % 2 }' >"$tmp/eq.csv"
printf '[w]\nioengine=io_uring_cmd\ncmd_type=nvme\nrw=write\nbs=64k\nsize=131072000\niodepth=1\nfdp=1\nfdp_pli=0,1\n' >"$tmp/eq.fio"
if "$bin" run -d $fdp "${small[@]}" -t "$tmp/eq.csv" --replay closed --iodepth 1 -o "$tmp/eq_trace" >/dev/null 2>&1 &&
    "$bin" run -d $fdp "${small[@]}" -j "$tmp/eq.fio" -o "$tmp/eq_job" >/dev/null 2>&1; then
    why=$(python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
diff = [k for k in ("fdp", "nand", "waf", "host", "latency_us", "sim_time_s") if a[k] != b[k]]
both = a["fdp"]["per_handle"][0]["host_bytes"] > 0 and a["fdp"]["per_handle"][1]["host_bytes"] > 0
print(" ".join(diff) if diff else "" if both else "one handle only")' "$tmp/eq_trace/summary.json" "$tmp/eq_job/summary.json")
    [ -z "$why" ] || fail "trace placement and fio's fdp_pli differ in: $why"
else
    fail "the trace or the fio job of the equivalence did not run"
fi

finish "trace placement"
