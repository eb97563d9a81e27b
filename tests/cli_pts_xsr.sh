#!/usr/bin/env bash
# cli_pts_xsr.sh - pts --test xsr, cross stimulus recovery, on the small
# drive cut to 340 MB (--set), at 20 ms intervals: from the purged drive
# (no preconditioning, no rounds) the three access groups run in order with
# the PTS's 480, 360 and 480 intervals and their block sizes (1024 KiB
# sequential, 8 KiB random, 1024 KiB sequential writes); the sequential
# stream goes on across intervals and covers the drive; the random writes
# fragment the drive (their MB/s and IOPS fall below the sequential
# group's); group 3 starts slow and recovers, at the interval summary.json
# names, which xsr.csv confirms; summary.txt and report.html show the table;
# --bs and --max-rounds are refused.
# Usage: bash tests/cli_pts_xsr.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
small=(--set nand.blocks_per_plane=64 --set drive.user_capacity=340MB)

n=$((n + 1))
if "$bin" pts -q -d "$drive" "${small[@]}" -t xsr --round-time 20ms -o "$tmp/xsr" \
    2>"$tmp/xsr.err"; then
    python3 - "$tmp/xsr" <<'PY' || fails=$((fails + 1))
import csv, json, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "xsr.csv"))))
sj = json.load(open(os.path.join(d, "summary.json")))
bad = []
want = [(1, 480, 1048576, "seq"), (2, 360, 8192, "random"), (3, 480, 1048576, "seq")]
# the groups in order, whole, with their block sizes and access
order = [int(r["group"]) for r in rows]
if order != sorted(order):
    bad.append("the access groups are not in order 1, 2, 3")
if [int(r["n"]) for r in rows] != list(range(1, len(rows) + 1)):
    bad.append("xsr.csv's n is not 1, 2, ... across the groups")
g = {}
for k, count, bs, access in want:
    g[k] = [r for r in rows if int(r["group"]) == k]
    if len(g[k]) != count:
        bad.append(f"group {k}: {len(g[k])} intervals, expected {count}")
    if any(int(r["bs_bytes"]) != bs or r["access"] != access for r in g[k]):
        bad.append(f"group {k}: not all {bs} B {access}")
    if [int(r["interval"]) for r in g[k]] != list(range(1, len(g[k]) + 1)):
        bad.append(f"group {k}: intervals not numbered 1..{len(g[k])}")
if bad:
    print("FAIL: pts xsr:", *bad, sep="\n  ", file=sys.stderr)
    sys.exit(1)
if sj["precondition"] != "none" or sj["steady_state"] != [] or sj["cells"] != []:
    bad.append("expected no preconditioning, no steady state and no cells of rounds")
if os.path.exists(os.path.join(d, "rounds.csv")):
    bad.append("rounds.csv written for a test without rounds")
# the sequential stream goes on across intervals: it wrote the whole drive
ar = sj["active_range"]
if ar.get("written_end_byte", 0) < 0.95 * sj["capacity_bytes"]:
    bad.append(f"the writes reached {ar.get('written_end_byte')} B of {sj['capacity_bytes']}")
mbps = lambda rs: sum(float(r["MBps"]) for r in rs) / len(rs)
iops = lambda rs: sum(float(r["iops"]) for r in rs) / len(rs)
g1, g2 = mbps(g[1]), mbps(g[2])
# random 8 KiB writes: more commands, but fewer bytes than the sequential group once the drive collects garbage
if not iops(g[2]) > 10 * iops(g[1]):
    bad.append(f"group 2 {iops(g[2]):.0f} IOPS, group 1 {iops(g[1]):.0f}: 8 KiB commands not more numerous")
if not mbps(g[2][-60:]) < 0.6 * g1:
    bad.append(f"group 2 ends at {mbps(g[2][-60:]):.1f} MB/s against group 1's {g1:.1f}: no fragmentation")
if not float(g[2][-1]["waf"]) > 1.5:
    bad.append(f"group 2 ends at WAF {g[2][-1]['waf']}: the drive never collected garbage")
# group 3: slow after the random writes, then back to group 1's rate
if not float(g[3][0]["MBps"]) < 0.5 * g1:
    bad.append(f"group 3 starts at {g[3][0]['MBps']} MB/s against group 1's {g1:.1f}: nothing to recover")
if not 0.9 * g1 < mbps(g[3][-100:]) < 1.1 * g1:
    bad.append(f"group 3 ends at {mbps(g[3][-100:]):.1f} MB/s against group 1's {g1:.1f}: not recovered")
rec = sj["xsr"]["recovery_interval"]
first = next((int(r["interval"]) for r in g[3] if float(r["MBps"]) >= g1 - 0.01), None)
if rec is None or first is None or rec != first:
    bad.append(f"summary.json recovery interval {rec}, xsr.csv's first at group 1's average {first}")
elif not 1 < rec < 240:
    bad.append(f"recovery in interval {rec} of group 3")
js = {x["group"]: x for x in sj["xsr"]["groups"]}
for k in (1, 2, 3):
    if abs(js[k]["avg_MBps"] - mbps(g[k])) > 0.01 * mbps(g[k]):
        bad.append(f"group {k}: summary.json {js[k]['avg_MBps']:.2f} MB/s, xsr.csv {mbps(g[k]):.2f}")
summary = open(os.path.join(d, "summary.txt")).read()
for w in ("cross stimulus recovery", "RND 8KiB", f"in interval {rec} of access group 3"):
    if w not in summary:
        bad.append(f"summary.txt lacks {w!r}")
page = open(os.path.join(d, "report.html")).read()
for w in ("Cross stimulus recovery", "MRT, peak (us)", "xsr.csv", "no steady state is judged"):
    if w not in page:
        bad.append(f"report.html lacks {w!r}")
if "Steady state" in page:
    bad.append("report.html has a steady state section")
for b in bad:
    print("FAIL: pts xsr:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
else
    fail "pts xsr: exit $? ($(head -n 2 "$tmp/xsr.err"))"
fi
expect_error "--bs: found it with --test xsr" pts -d "$drive" -t xsr --bs 8k
expect_error "--max-rounds: found it with --test xsr" pts -d "$drive" -t xsr --max-rounds 3
finish "$n checks passed" "$fails of $n checks failed"
