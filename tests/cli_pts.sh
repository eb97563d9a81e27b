#!/usr/bin/env bash
# cli_pts.sh - `ftlsim pts` end to end on the small TLC drive with short
# rounds: each of the four tests writes its table, steady_state.csv and
# summaries with values the mechanisms must give (reads faster than writes
# on a full drive, the WSAT cliff once the capacity is written, and WSAT's
# end and trend alike in every report, latency percentiles in order); a seed repeats a test exactly; and bad input
# (test, block size, mix, round time, depth) exits 2 with one line on
# stderr and no results folder.
# Usage: bash tests/cli_pts.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

pts() { # pts DIR [options...]: one test into DIR, output in DIR.log
    local dir=$1
    shift
    "$bin" pts -d "$drive" -o "$dir" -q "$@" >"$dir.log" 2>&1 || fail "pts $*: exit $? ($(head -n 3 "$dir.log"))"
}

# csv FILE EXPR: awk over the data rows (comma-separated, header skipped);
# EXPR prints "ok" or a reason.
csv() {
    local verdict
    verdict=$(awk -F, "NR > 1 { $2 } END { $3 }" "$1" 2>&1)
    [ "$verdict" = ok ] || fail "$1: $verdict"
}

# iops: full preconditioning, four cells. 4 KiB random reads on a full drive
# outrun its writes (GC); every cell has IOPS.
pts "$tmp/iops" -t iops --round-time 300ms --bs 4k,128k --mix 100/0,0/100 --max-rounds 6
[ "$(wc -l <"$tmp/iops/iops.csv")" -eq 5 ] || fail "iops.csv: expected 4 cells"
csv "$tmp/iops/iops.csv" 'if ($3 <= 0) bad = bad " no IOPS at " $1 "/" $2; if ($1 == 4096) v[$2] = $3' \
    'if (bad) print bad; else if (v[100] > 2 * v[0]) print "ok"; else print "4 KiB reads " v[100] " not above twice the writes " v[0]'
grep -q '"precondition": "full"' "$tmp/iops/summary.json" || fail "iops: summary.json lacks the full precondition"
grep -q "32 at the drive, the rest in the host queue" "$tmp/iops/summary.txt" ||
    fail "iops: 16 x 8 on SATA's 32 should say the host queues the rest"
# the steady-state file judges round 5 onwards, and its verdict matches the summary
csv "$tmp/iops/steady_state.csv" 'n++; if ($3 < 5 && $9 != "-") bad = 1; if ($3 >= 5 && $9 != "yes" && $9 != "no") bad = 1; if ($9 == "yes" && !first) first = $3' \
    'if (bad || n < 5) print "verdicts wrong (" n " rows)"; else print "ok"'

# The report's header says when, with what and on what the test ran, and
# the drive as tested: its title names the keys --set changed.
pts "$tmp/iopsset" -t iops --round-time 300ms --bs 4k --mix 0/100 --max-rounds 5 \
    --set drive.user_capacity=1GB
n=$((n + 1))
python3 - "$tmp/iopsset/report.html" <<'PY' || fail "pts report.html: header incomplete"
import re, sys
h = open(sys.argv[1]).read()
assert re.search(r"<h1>SNIA PTS-E 1.1 IOPS: [^<]* with drive.user_capacity=1GB</h1>", h), "title"
for row in ("test date", "ftlsim version", "platform", "drive keys set (--set)"):
    m = re.search(r">" + re.escape(row) + r"</td><td class=\"l\">([^<]+)<", h)
    assert m and m.group(1).strip(), row
assert re.search(r">test date</td><td class=\"l\">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", h)
# the IOPS matrix once: under Results, not again in the summary
assert h.count("IOPS (steady-state window average)") + h.count("<caption>IOPS, steady-state") == 1, "matrix"
PY

# The same seed gives the same numbers; another seed other offsets.
pts "$tmp/iops2" -t iops --round-time 300ms --bs 4k,128k --mix 100/0,0/100 --max-rounds 6
cmp -s "$tmp/iops/iops.csv" "$tmp/iops2/iops.csv" || fail "iops: the same seed gave other numbers"
# SNIA's sample reports' order: the steady state before the results, block
# sizes from the smallest down and mixes from 0/100 across, in report.html
# and summary.txt alike (the tests run them the other way round)
n=$((n + 1))
python3 - "$tmp/iops2" <<'PY' || fail "iops: the report's order is not SNIA's sample reports'"
import re, sys
d = sys.argv[1]
h = open(d + "/report.html").read()
assert 0 <= h.index("<h2>Steady state</h2>") < h.index("<h2>Results</h2>"), "sections"
t = h[h.index("<caption>IOPS, steady-state"):]
t = t[:t.index("</table>")]
cells = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", t)
assert cells[:3] == ["block size", "0/100", "100/0"], cells[:3]
assert [c for c in cells if c.endswith("KiB")] == ["4KiB", "128KiB"], cells
s = open(d + "/summary.txt").read()
m = s[s.index("IOPS (steady-state window average)"):].splitlines()
assert m[1].split()[1:] == ["0/100", "100/0"] and m[2].split()[0] == "4KiB" and m[3].split()[0] == "128KiB", m[:4]
PY

# wsat from a purged drive: the plateau, then the cliff once a capacity is written.
pts "$tmp/wsat" -t wsat --round-time 1s --max-rounds 12 --threads 4 --iodepth 8
csv "$tmp/wsat/wsat.csv" 'if (NR == 2) first = $5; last = $5; fills = $4' \
    'if (fills < 1) print "only " fills " fills written"; else if (last < 0.8 * first) print "ok"; else print "no cliff: " first " -> " last " IOPS"'
# WSAT judges no steady-state window (its IOPS still fall after the cliff,
# which a 5-round window passes): it says how it ended, the round limit here,
# and the trend of IOPS against TB written over the last capacity written,
# the same in summary.txt, summary.json, report.html and the round lines.
wsat_agrees() { # wsat_agrees DIR END: END as summary.json says it
    n=$((n + 1))
    python3 - "$1" "$2" <<'PY' || fail "wsat $1: its reports disagree"
import csv, json, sys
d, end = sys.argv[1], sys.argv[2]
j = json.load(open(d + "/summary.json"))
w = j["wsat"]
assert w["end"] == end and j["steady_state"] == [], (w, j["steady_state"])
t = w["trend"]
assert t is not None and t["last_round"] == w["rounds_run"], w
assert t["verdict"] == ("flat" if abs(t["change"]) <= 0.10 else "falling" if t["change"] < 0 else "rising"), t
rows = list(csv.DictReader(open(d + "/wsat.csv")))
fills = [float(r["fills"]) for r in rows]
# the trend's rounds: those that began within the last capacity written
first = t["first_round"]
assert fills[-1] - (fills[first - 2] if first > 1 else 0) <= 1 + 1e-9 < fills[-1] - (fills[first - 3] if first > 2 else 0), (first, fills)
assert all(r["steady"] == "-" for r in csv.DictReader(open(d + "/steady_state.csv")))
txt = open(d + "/summary.txt").read()
want = {"fills": "ended        at 4 x capacity:", "rounds": "ended        at the round limit:"}[end]
assert want in txt and f"{100 * t['change']:+.1f}% over them: {t['verdict']}" in txt, txt
assert "steady state from" not in txt
html = open(d + "/report.html").read()
assert (t["verdict"] == "flat") == ("the drive had not settled" not in html), t
assert (end == "fills") == ("short of the 4 x capacity" not in html), end
assert end == "fills" or "WSAT ended at the round limit after" in html, end
assert "<h2>Steady state</h2>" not in html, "WSAT judges no window: no table of verdicts"
assert "steady-state convergence" not in html
PY
}
wsat_agrees "$tmp/wsat" rounds
# to the end the PTS sets, 4 x capacity, with the round lines kept
"$bin" pts -d "$drive" -o "$tmp/wsat4" -t wsat --round-time 1s --threads 4 --iodepth 8 >"$tmp/wsat4.log" 2>&1 ||
    fail "wsat to 4 x capacity: exit $?"
wsat_agrees "$tmp/wsat4" fills
grep -q "x capacity written; over the last capacity" "$tmp/wsat4.log" || fail "wsat: no trend in the round lines"
grep -q '"precondition": "none"' "$tmp/wsat/summary.json" || fail "wsat: summary.json does not say it started purged"
# wsat preconditioned as the PM863a's review ran it (R3.2): 2 x capacity of
# sequential writes first, so the drive is full when the rounds begin. The
# capacities and the time of wsat.csv count from the rounds' start, and the
# first round already falls off the plateau a purged drive gives: no free
# LBA space is left to absorb the writes.
pts "$tmp/wsatpre" -t wsat --round-time 1s --max-rounds 3 --threads 4 --iodepth 8 --precondition full
grep -q '"precondition": "full"' "$tmp/wsatpre/summary.json" || fail "wsat: the full precondition is not reported"
grep -q "^precondition 2 x capacity in 128 KiB sequential writes" "$tmp/wsatpre/summary.txt" ||
    fail "wsat: summary.txt does not give the preconditioning"
csv "$tmp/wsatpre/wsat.csv" 'if (NR == 2) { t1 = $2; f1 = $4; i1 = $5 }' \
    'if (!(t1 > 0.9 && t1 < 1.5 && f1 > 0 && f1 < 0.5)) print "round 1 ends at " t1 " s, " f1 " fills"; else print "ok"'
awk -F, 'NR == 2 { print $5 }' "$tmp/wsat/wsat.csv" >"$tmp/purged1"
awk -F, 'NR == 4 { print $5 }' "$tmp/wsatpre/wsat.csv" >"$tmp/pre3"
awk -v a="$(cat "$tmp/purged1")" -v b="$(cat "$tmp/pre3")" 'BEGIN { exit !(b < 0.8 * a) }' ||
    fail "wsat after preconditioning: round 3 at $(cat "$tmp/pre3") IOPS, not below the purged drive's $(cat "$tmp/purged1")"

# tp: both block sizes, read and write, each after its own purge.
pts "$tmp/tp" -t tp --round-time 300ms --max-rounds 5 --precondition fast
[ "$(wc -l <"$tmp/tp/tp.csv")" -eq 5 ] || fail "tp.csv: expected 4 rows"
csv "$tmp/tp/tp.csv" 'if ($3 <= 0) bad = 1' 'if (bad) print "a cell without MB/s"; else print "ok"'
[ "$(grep -c '"bs_bytes"' "$tmp/tp/summary.json")" -ge 6 ] || fail "tp: summary.json lacks the cells"

# lat: 1 thread QD 1, nine cells, percentiles in order.
pts "$tmp/lat" -t lat --round-time 300ms --max-rounds 5 --precondition fast
[ "$(wc -l <"$tmp/lat/lat.csv")" -eq 10 ] || fail "lat.csv: expected 9 cells"
csv "$tmp/lat/lat.csv" 'if (!($4 > 0 && $5 >= $4 * 0.5 && $6 >= $5 && $7 >= $6 && $8 >= $7 && $9 >= $8 && $10 > 0 && $10 <= $4 + 0.01 && $10 <= $9 + 0.01)) bad = bad " " $1 "/" $2' \
    'if (bad) print "percentiles out of order at" bad; else print "ok"'
grep -q "1 thread x QD 1" "$tmp/lat/summary.txt" || fail "lat: not at 1 thread QD 1"
# what bounded the window: one of the four resources, busy in [0, 100]%
grep -Eq "^bounded by   the (controller|dies|channels|host link) \(busy ([0-9]|[1-9][0-9]|100)%; " \
    "$tmp/lat/summary.txt" || fail "lat: no 'bounded by' line naming a resource"

# Progress keeps its history: the preconditioning's line, then one line per
# finished round (test, block size, mix, value, verdict so far), none
# rewritten in place. One cell (the aged-drive recipe's --bs 4k --mix 0/100)
# still draws its IOPS figures.
"$bin" pts -d "$drive" -o "$tmp/one" -t iops --round-time 300ms --bs 4k --mix 0/100 --max-rounds 6 \
    --plot >"$tmp/one.out" 2>"$tmp/one.err" || fail "pts --bs 4k --mix 0/100: exit $?"
grep -q "^iops precondition: 2 x capacity in 128 KiB sequential writes, [0-9]* s simulated" "$tmp/one.err" ||
    fail "no preconditioning line: $(head -n 2 "$tmp/one.err")"
rounds=$(tail -n +2 "$tmp/one/steady_state.csv" | wc -l)
[ "$(grep -cE '^iops round [0-9]+: 4KiB 0/100 [0-9.]+ IOPS' "$tmp/one.err")" -eq "$rounds" ] ||
    fail "expected $rounds round lines on stderr: $(grep -c round "$tmp/one.err") found"
grep -q "^iops round 1: .*: not judged before round 5$" "$tmp/one.err" || fail "round 1 does not say it is not judged"
grep -q $'\r' "$tmp/one.err" && fail "a progress line was rewritten in place"
if command -v gnuplot >/dev/null; then
    for f in iops.png iops_3d.png convergence.png steady_state.png; do
        [ -s "$tmp/one/$f" ] || fail "one cell: $f not drawn"
    done
fi

# Bad input: exit 2, one line naming the option, no folder.
expect_error '--test "bogus": expected wsat, iops, tp, lat, dirth, ecw, hir or xsr' pts -d $drive -t bogus
expect_error '--bs "3k": found "3k", expected block sizes of the iops test' pts -d $drive -t iops --bs 3k
expect_error '--bs "1m,2m": found "2m"' pts -d $drive -t tp --bs 1m,2m
expect_error 'found a zoned namespace, expected a conventional one' pts -d configs/zn540.ini -t iops
expect_error '--mix "60/40": found "60/40", expected read/write mixes of the lat test' pts -d $drive -t lat --mix 60/40
expect_error '--mix "70/20"' pts -d $drive -t iops --mix 70/20
expect_error '--round-time "0": expected a duration greater than 0' pts -d $drive -t iops --round-time 0
expect_error '--round-time "-5s": expected a duration greater than 0' pts -d $drive -t iops --round-time=-5s
expect_error '--iodepth "0": expected an integer from 1' pts -d $drive -t iops --iodepth 0
expect_error '--threads "-2": expected an integer from 1' pts -d $drive -t iops --threads=-2
expect_error '--max-rounds "0": expected an integer from 1' pts -d $drive -t iops --max-rounds 0
expect_error '--precondition "half": expected full, fast, random or none' pts -d $drive -t iops --precondition half
expect_error 'pts needs --test NAME' pts -d $drive
expect_error 'does_not_exist.ini' pts -d "$tmp/does_not_exist.ini" -t iops

finish "all checks passed"
