#!/usr/bin/env bash
# cli_pts_dirth.sh - pts --test dirth, demand intensity and response time
# histograms, on the small drive: dirth.csv holds the 7 x 7 sweep of
# threads x queue depth from the most outstanding down and the three
# histogram captures at the sweep's highest, middle and lowest IOPS (the
# lowest being 1 x 1 on any drive the queue helps); each histogram of
# dirth_histogram.csv sums to the commands the drive completed in its
# capture, its cumulative fraction ends at 1, and summary.txt and
# report.html show the tables.
# Usage: bash tests/cli_pts_dirth.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

n=$((n + 1))
if "$bin" pts -q -d "$drive" -t dirth --round-time 100ms --precondition random -o "$tmp/dirth" \
    2>"$tmp/dirth.err"; then
    python3 - "$tmp/dirth" <<'PY' || fails=$((fails + 1))
import csv, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "dirth.csv"))))
hist = list(csv.DictReader(open(os.path.join(d, "dirth_histogram.csv"))))
bad = []
sweep = [r for r in rows if r["stage"] == "demand"]
caps = {r["point"]: r for r in rows if r["stage"] == "histogram"}
tq = [32, 16, 8, 6, 4, 2, 1]
want = [(t, q) for t in tq for q in tq]
got = [(int(r["threads"]), int(r["iodepth"])) for r in sweep]
if got != want:
    bad.append(f"the sweep ran {got[:4]}..., expected every threads x QD from 32 x 32 down")
if sorted(caps) != ["max IOPS", "mid IOPS", "min IOPS"]:
    bad.append(f"histogram captures {sorted(caps)}, expected max, mid and min IOPS")
else:
    top = max(sweep, key=lambda r: float(r["iops"]))
    low = min(sweep, key=lambda r: float(r["iops"]))
    for name, r in (("max IOPS", top), ("min IOPS", low)):
        if (caps[name]["threads"], caps[name]["iodepth"]) != (r["threads"], r["iodepth"]):
            bad.append(f"{name} captured at {caps[name]['threads']} x {caps[name]['iodepth']}, "
                       f"the sweep's is {r['threads']} x {r['iodepth']}")
    if (low["threads"], low["iodepth"]) != ("1", "1"):
        bad.append(f"the lowest IOPS at {low['threads']} x {low['iodepth']}, expected 1 x 1")
    for name, r in caps.items():
        mine = [h for h in hist if h["point"] == name]
        total = sum(int(h["count"]) for h in mine)
        if total != int(r["ios"]) or total == 0:
            bad.append(f"{name}: the histogram holds {total} IOs, the drive completed {r['ios']}")
        if mine and abs(float(mine[-1]["cumulative_fraction"]) - 1) > 1e-6:
            bad.append(f"{name}: cumulative fraction ends at {mine[-1]['cumulative_fraction']}")
        lows = [float(h["bucket_low_us"]) for h in mine]
        if lows != sorted(lows) or len(set(lows)) != len(lows):
            bad.append(f"{name}: buckets not in order")
summary = open(os.path.join(d, "summary.txt")).read()
for w in ("demand intensity", "response time histograms", "max IOPS"):
    if w not in summary:
        bad.append(f"summary.txt lacks {w!r}")
page = open(os.path.join(d, "report.html")).read()
for w in ("Demand intensity: IOPS", "Response time histograms", "dirth_histogram.csv"):
    if w not in page:
        bad.append(f"report.html lacks {w!r}")
for b in bad:
    print("FAIL: pts dirth:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
else
    fail "pts dirth: exit $? ($(head -n 2 "$tmp/dirth.err"))"
fi
finish "$n checks passed" "$fails of $n checks failed"
