#!/usr/bin/env bash
# cli_steady.sh - the steady-random workload of `ftlsim run` end to end on
# the small TLC drive with 1 s rounds: after a random prefill, 4 KiB random
# writes until the PTS steady state, with steady_state.csv and the summaries
# agreeing with each other and with what the mechanisms must give (GC on a
# full drive: IOPS below the first round's and a WAF above 1; a fresh drive
# steady at once with a WAF of 1); a seed repeats a run exactly; bad
# parameters exit 2 with one line and no results folder.
# Usage: bash tests/cli_steady.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

run() { # run DIR SPEC: one run into DIR, output in DIR.log
    "$bin" run -d "$drive" -w "$2" -o "$1" -q >"$1.log" 2>&1 || fail "run $2: exit $? ($(head -n 3 "$1.log"))"
}

# check DIR PYTHON: a Python check over the run's files (s: summary.json,
# rows: steady_state.csv as dicts); it prints "ok" or a reason.
check() {
    local verdict
    verdict=$(python3 - "$1" "$2" <<'EOF' 2>&1
import csv, json, math, os, sys
d, code = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(d, "summary.json")))
rows = list(csv.DictReader(open(os.path.join(d, "steady_state.csv"))))
exec(code)
EOF
)
    [ "$verdict" = ok ] || fail "$1: $verdict"
}

# An aged drive: random prefill, then rounds until steady state.
run "$tmp/aged" steady-random:round=1s
for f in series.csv phases.csv summary.txt summary.json latency_write.csv steady_state.csv; do
    [ -s "$tmp/aged/$f" ] || fail "aged: $f missing"
done
check "$tmp/aged" '
st = s["steady_state"]
n, win = st["rounds"], rows[st["window_first"] - 1:st["window_last"]]
mean = sum(float(r["iops"]) for r in win) / len(win)
wafs = [float(r["waf"]) for r in win]
verdicts = [r["steady"] for r in rows]
lat = st["latency_us"]
if not st["reached"] or st["round"] != n or len(rows) != n:
    print("not steady, or rows %d against %d rounds" % (len(rows), n))
elif verdicts[:4] != ["-"] * 4 or verdicts[-1] != "yes" or "yes" in verdicts[4:-1]:
    print("verdicts %s: expected - for rounds 1-4, yes only at the last" % verdicts)
elif st["window_last"] != n or st["window_first"] != n - 4:
    print("the window is not the last 5 rounds")
elif abs(mean - st["iops"]) > 1e-6 * mean or abs(float(rows[-1]["window_avg"]) - mean) > 0.1:
    print("window IOPS %s against the rounds mean %s" % (st["iops"], mean))
elif not st["iops"] < 0.5 * float(rows[0]["iops"]):
    print("steady IOPS %s not below half the first round %s (GC)" % (st["iops"], rows[0]["iops"]))
elif not (min(wafs) - 1e-3 <= st["waf"] <= max(wafs) + 1e-3 and st["waf"] > 1.5):
    print("window WAF %s outside its rounds %s or not above 1.5" % (st["waf"], wafs))
elif not (0 < lat["mean"] <= lat["p99"] <= lat["p99.9"] <= lat["p99.99"] <= lat["max"]):
    print("latency out of order: %s" % lat)
elif abs(lat["count"] - mean * 5 * st["round_s"]) > 0.01 * lat["count"]:
    print("%s latencies in the window, expected its I/Os" % lat["count"])
else:
    print("ok")'
grep -q "^steady    PTS steady state at round" "$tmp/aged/summary.txt" ||
    fail "aged: summary.txt lacks the steady-state line"

# The same seed gives the same rounds.
run "$tmp/aged2" steady-random:round=1s
cmp -s "$tmp/aged/steady_state.csv" "$tmp/aged2/steady_state.csv" ||
    fail "the same seed gave other rounds"

# A fresh drive (no prefill) with 8 threads: no GC within 5 short rounds,
# so every round is alike and round 5 is steady at a WAF of 1.
run "$tmp/fresh" steady-random:prefill=none:threads=8:iodepth=4:round=200ms
check "$tmp/fresh" '
st = s["steady_state"]
if st["round"] != 5 or st["rounds"] != 5 or st["excursion_pct"] > 10:
    print("fresh drive: steady at round %s of %s, range %s%%" % (st["round"], st["rounds"], st["excursion_pct"]))
elif abs(st["waf"] - 1) > 0.05:
    print("fresh drive: WAF %s, expected 1" % st["waf"])
elif len([j for j in s["jobs"] if j["name"].startswith("steady.")]) != 8:
    print("expected 8 clones of the steady job")
else:
    print("ok")'

# The round limit ends the rounds: 5 rounds of 1 s on the aged drive are
# too few to settle (the first still has free blocks, the next do not).
run "$tmp/limit" steady-random:round=1s:rounds=5
check "$tmp/limit" '
st = s["steady_state"]
if st["rounds"] != 5 or st["reached"] or rows[-1]["steady"] != "no":
    print("expected 5 rounds without steady state, got %s" % st)
else:
    print("ok")'
grep -q "^steady    PTS steady state not reached in 5 rounds" "$tmp/limit/summary.txt" ||
    fail "limit: summary.txt does not say steady state was not reached"

# Bad parameters: one line, exit 2, no folder.
for spec in steady-random:rounds=4 steady-random:round=0 steady-random:prefill=full \
    steady-random:threads=0 steady-random:size=1g; do
    expect_error 'workload "steady-random' run -d "$drive" -w "$spec" -q
done

"$bin" run --help | grep -q "steady-random" || fail "run --help does not name steady-random"

finish "all passed"
