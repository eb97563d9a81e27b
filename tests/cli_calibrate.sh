#!/usr/bin/env bash
# cli_calibrate.sh - ftlsim calibrate end to end on a small drive: bad input
# gives exit 2, one line on stderr and no results folder; a curve the
# simulator made at known values (dynamic_cap 150 MB, TLC tPROG 3 ms) is
# fitted back within 5% from the config's 100 MB and 2.4 ms, a key the
# writes do not depend on (timing.tlc.t_read, no reads) is reported unidentifiable, and
# the calibrated.ini loads and carries the fitted values.
# Usage: bash tests/cli_calibrate.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc_pslc.ini
wl='rw=write,bs=128k,iodepth=32,size=600m'

# the measured curve: the simulator at the known values, one point a 20 MB row
"$bin" run -q -d "$drive" -w "$wl" --interval-bytes 20MB --set pslc.dynamic_cap=150MB \
    --set timing.tlc.t_prog=3ms -o "$tmp/truth" || { fail "the truth run"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "GB,MBps"; next }
         { gb = $c["host_written_GB"]; printf "%.4f,%.2f\n", (gb + prev) / 2, $c["write_MBps"]; prev = gb }' \
    "$tmp/truth/series.csv" > "$tmp/curve.csv"
printf 'GB,MBps\n0.1,500\n0.2,120\n' > "$tmp/two.csv"
printf 'GB,MBps\n0.1,500\n0.2,fast\n0.3,120\n' > "$tmp/cell.csv"
printf 'GB,MBps\n0.1,500\n0.2,120\n5,120\n' > "$tmp/far.csv"

c=(-d "$drive" -w "$wl" --curve "$tmp/curve.csv")
expect_error "--fit \"drive.name\": not a number" calibrate "${c[@]}" --fit drive.name=1..2
expect_error "--fit \"trim.nope\": unknown key" calibrate "${c[@]}" --fit trim.nope=1..2
expect_error "--fit \"timing.tlc.t_prog=3ms..1ms\": LO is not below HI" calibrate "${c[@]}" --fit timing.tlc.t_prog=3ms..1ms
expect_error "--fit \"timing.tlc.t_prog=2ms..2ms\": LO is not below HI" calibrate "${c[@]}" --fit timing.tlc.t_prog=2ms..2ms
expect_error "--fit \"timing.tlc.t_prog=..\": empty range" calibrate "${c[@]}" --fit timing.tlc.t_prog=..
expect_error "--fit \"timing.tlc.t_prog=fast..3ms\": found \"fast..3ms\"" calibrate "${c[@]}" --fit timing.tlc.t_prog=fast..3ms
expect_error "--fit \"timing.tlc.t_prog\": expected GROUP.KEY=LO..HI" calibrate "${c[@]}" --fit timing.tlc.t_prog
expect_error "--fit \"pslc.dynamic_cap=0..300MB\": the drive does not load at 0:" calibrate "${c[@]}" --fit pslc.dynamic_cap=0..300MB
expect_error "--fit timing.tlc.t_prog: the key is also given by --set" calibrate "${c[@]}" --set timing.tlc.t_prog=2ms --fit timing.tlc.t_prog=1ms..3ms
expect_error "--fit \"workload.bs=4k..8k\": unknown workload key" calibrate "${c[@]}" --fit workload.bs=4k..8k
expect_error "--fit \"workload.thinktime=2ms..1ms\": LO is not below HI" calibrate "${c[@]}" --fit workload.thinktime=2ms..1ms
expect_error "calibrate needs at least one --fit" calibrate "${c[@]}"
expect_error "two.csv: found 2 points, expected at least 3" calibrate -d "$drive" -w "$wl" --curve "$tmp/two.csv" --fit timing.tlc.t_prog=1ms..3ms
expect_error "cell.csv:3: found \"0.2,fast\", expected two numbers GB,MBps" calibrate -d "$drive" -w "$wl" --curve "$tmp/cell.csv" --fit timing.tlc.t_prog=1ms..3ms
expect_error "far.csv:4: GB 5 is beyond the stock run" calibrate -d "$drive" -w "$wl" --curve "$tmp/far.csv" --fit timing.tlc.t_prog=1ms..3ms
expect_error "--figure rate@GB=1..2: found 2 GB, beyond the 0.629 GB the workload writes at most" calibrate -d "$drive" -w "$wl" --figure rate@GB=1..2=100 --fit timing.tlc.t_prog=1ms..3ms
expect_error "--figure \"speed=3\": unknown figure" calibrate -d "$drive" -w "$wl" --figure speed=3 --fit timing.tlc.t_prog=1ms..3ms
expect_error "calibrate needs a --curve CSV or at least one --figure" calibrate -d "$drive" -w "$wl" --fit timing.tlc.t_prog=1ms..3ms

# the recovery
out=$tmp/cal
if ! "$bin" calibrate "${c[@]}" --fit pslc.dynamic_cap=50MB..300MB --fit timing.tlc.t_prog=1.5ms..5ms \
    --fit timing.tlc.t_read=30us..120us --figure cliff_gb=0.14:0.5 --jobs 2 -o "$out" >"$tmp/stdout" 2>"$tmp/stderr"; then
    fail "the calibration failed"
    cat "$tmp/stderr" >&2
    exit 1
fi
python3 - "$out/fit.json" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
ok = True
for key, true in (("pslc.dynamic_cap", 150e6), ("timing.tlc.t_prog", 3e-3)):
    got = j["fitted"][key]
    if got is None or abs(got - true) / true > 0.05:
        print(f"FAIL: {key} fitted {got}, expected {true} within 5%", file=sys.stderr)
        ok = False
if j["fitted"]["timing.tlc.t_read"] is not None or j["parameters"]["timing.tlc.t_read"]["unidentifiable"] != "flat":
    print("FAIL: timing.tlc.t_read should be unidentifiable (flat)", file=sys.stderr)
    ok = False
if not j["loss"] < j["stock_loss"] / 100:
    print(f"FAIL: loss {j['loss']} not far below the stock's {j['stock_loss']}", file=sys.stderr)
    ok = False
sys.exit(0 if ok else 1)
PY
grep -q "timing.tlc.t_read: unidentifiable (flat" "$tmp/stdout" || fail "no unidentifiable line"
for f in calibrated.ini fit.json curves.csv; do
    [ -s "$out/$f" ] || fail "$out/$f missing"
done
# the calibrated config loads, holds the fitted values with their mark, and
# leaves the unidentifiable key as it was
"$bin" check "$out/calibrated.ini" >/dev/null || fail "calibrated.ini does not load"
grep -q "^# C: calibrated to .*curve.csv and cliff_gb=0.14: loss" "$out/calibrated.ini" ||
    fail "calibrated.ini lacks the mark"
grep -q "^# C: not identifiable from" "$out/calibrated.ini" ||
    fail "calibrated.ini lacks the unidentifiable note"
grep -q "^t_read = 60us" "$out/calibrated.ini" ||
    fail "the unidentifiable key changed"

# the end of the run shows the fit: each figure's three values, each
# determined key with an uncertainty (fit.json has it too, positive and
# small against the value), fit.png and report.html
grep -q "^figure    cliff_gb: measured 0.14, stock [0-9.]*, calibrated [0-9.]*$" "$tmp/stdout" ||
    fail "no line with the figure's measured, stock and calibrated value"
grep -q "^fitted    pslc.dynamic_cap = .* +- " "$tmp/stdout" || fail "no uncertainty printed for a fitted key"
python3 - "$out/fit.json" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
for key in ("pslc.dynamic_cap", "timing.tlc.t_prog"):
    p = j["parameters"][key]
    u = p["uncertainty"]
    if u is None or not 0 < u < 0.1 * p["best"]:
        print(f"FAIL: {key}: uncertainty {u} not in (0, 10% of {p['best']})", file=sys.stderr)
        sys.exit(1)
PY
for f in fit.png report.html; do
    [ -s "$out/$f" ] || fail "$out/$f missing"
done

# One figure, two keys that add up in it: the per-command cost and the
# completion cost both lengthen each QD 1 read, so the data fix only their
# sum; fit.png is drawn without a curve, as points.
sum=$tmp/sum
if "$bin" calibrate -d "$drive" -w 'rw=randread,bs=4k,iodepth=1,io_size=4m' --prefill 50% \
    --figure 'summary:read_mean_us=120' --fit host.cmd_cost=1us..40us \
    --fit controller.complete_cost=1us..40us --jobs 2 --max-evals 30 -o "$sum" >"$tmp/sum.out" 2>&1; then
    grep -q "host.cmd_cost: unidentifiable (correlated with controller.complete_cost, r = 1.000: only their sum is determined" "$tmp/sum.out" ||
        fail "confounded keys do not say only their sum is determined: $(grep fitted "$tmp/sum.out" | head -n 1)"
    grep -q "^figure    summary:read_mean_us: measured 120, stock" "$tmp/sum.out" || fail "no figure line"
    [ -s "$sum/fit.png" ] || fail "no fit.png without a curve"
    [ "$(tail -n +2 "$sum/figures.csv" | wc -l)" -eq 1 ] || fail "figures.csv lacks its row"
else
    fail "the confounded calibration failed: $(tail -n 2 "$tmp/sum.out")"
fi

finish "$n bad inputs refused, the small drive's keys recovered"
