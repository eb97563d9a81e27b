#!/usr/bin/env bash
# cli_pts_waf.sh - pts and run report the same write amplification for the
# same jobs: the throughput test's 128 KiB sequential writes (8 threads
# over the same blocks, which the write buffer partly absorbs) give 1.00
# in pts's rounds and in run's summary, not the plain ratio's 0.3; and a
# --round-time too short for a round is refused naming --round-time.
# Usage: bash tests/cli_pts_waf.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

n=$((n + 1))
if "$bin" pts -q -d "$drive" -t tp --bs 128k --round-time 300ms --max-rounds 3 \
    --precondition fast -o "$tmp/pts" 2>"$tmp/pts.err"; then
    # the write cells of rounds.csv: every one at 1.00
    awk -F, 'NR > 1 && $3 == 0 { n++; if ($13 < 0.99 || $13 > 1.01) bad = bad " " $13 }
             END { if (!n) print "no write cells"; else if (bad) print "WAF" bad }' \
        "$tmp/pts/rounds.csv" >"$tmp/pts.bad"
    [ -s "$tmp/pts.bad" ] && fail "pts tp: $(cat "$tmp/pts.bad"), expected 1.00 in every write cell"
else
    fail "pts tp: exit $? ($(head -n 2 "$tmp/pts.err"))"
fi
# the same jobs as one write cell, as run takes them
n=$((n + 1))
if "$bin" run -q -d "$drive" --prefill 100% -o "$tmp/run" \
    -w "rw=write,bs=131072,iodepth=16,numjobs=8,runtime=300000us,time_based" 2>"$tmp/run.err"; then
    python3 - "$tmp/run/summary.json" "$tmp/pts/rounds.csv" <<'PY' || fails=$((fails + 1))
import csv, json, sys
run = json.load(open(sys.argv[1]))["waf"]
cells = [float(r["waf"]) for r in csv.DictReader(open(sys.argv[2])) if r["read_pct"] == "0"]
if not cells or abs(run - cells[0]) > 0.01:
    print(f"FAIL: run WAF {run}, pts first write cell {cells[:1]}: expected the same", file=sys.stderr)
    sys.exit(1)
PY
else
    fail "run of the tp cell: exit $? ($(head -n 2 "$tmp/run.err"))"
fi

expect_error '--round-time "1ns": expected at least 1ms' pts -d "$drive" -t iops --round-time 1ns
expect_error '--round-time "999us": expected at least 1ms' pts -d "$drive" -t tp --round-time 999us
expect_error '--round-time "0.5ms": expected at least 1ms' pts -d "$drive" -t lat --round-time 0.5ms

finish "$n checks passed" "$fails of $n checks failed"
