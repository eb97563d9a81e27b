#!/usr/bin/env bash
# cli_pts_ecw.sh - pts --test ecw, the enterprise composite workload, on the
# small drive with 16 dies (so that the knee of its demand intensity curve
# comes at the interface's queue, not at 2 commands) and the matrix capped
# at 8 threads x QD 8. ecw.csv holds every threads x QD point from the most
# outstanding down; what the drive completed over the window is 40/60
# reads/writes and the mix's mean size (7,818 B), within five standard
# errors of the mix; IOPS grow with the commands outstanding (1, 4, 16), the
# average response time up to the queue (32), and the highest IOPS need at
# least 16; the histograms of ecw_histogram.csv hold the commands of their points'
# window. The stimulus summary.txt gives, run with write_iolog, issues the
# twelve block sizes and the three access ranges in their shares (within
# five standard errors) at 4 KiB-aligned offsets. summary.txt and
# report.html show the tables. --bs is refused: the test mixes its own.
# Usage: bash tests/cli_pts_ecw.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
dies=(--set controller.channels=4 --set controller.ces_per_channel=8)

n=$((n + 1))
if "$bin" pts -q -d "$drive" "${dies[@]}" -t ecw --threads 8 --iodepth 8 --round-time 100ms \
    --precondition random -o "$tmp/ecw" 2>"$tmp/ecw.err"; then
    python3 - "$tmp/ecw" <<'PY' || fails=$((fails + 1))
import csv, math, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "ecw.csv"))))
hist = list(csv.DictReader(open(os.path.join(d, "ecw_histogram.csv"))))
bad = []
tq = [8, 6, 4, 2, 1]
got = [(int(r["threads"]), int(r["iodepth"])) for r in rows]
if got != [(t, q) for t in tq for q in tq]:
    bad.append(f"ecw.csv ran {got[:4]}..., expected every threads x QD from 8 x 8 down")
at = {(int(r["threads"]), int(r["iodepth"])): r for r in rows}
# the mixes of what the drive completed, against the job's
sizes = {512: 4, 1024: 1, 1536: 1, 2048: 1, 2560: 1, 3072: 1, 3584: 1, 4096: 67, 8192: 10,
         16384: 7, 32768: 3, 65536: 3}
mean = sum(b * s for b, s in sizes.items()) / 100
sd = math.sqrt(sum(b * b * s for b, s in sizes.items()) / 100 - mean * mean)
ios = [sum(int(r[k]) for r in rows) for k in ("read_ios", "write_ios")]
byt = [sum(int(r[k]) for r in rows) for k in ("read_bytes", "write_bytes")]
total = sum(ios)
share = ios[0] / total
if abs(share - 0.4) > 5 * math.sqrt(0.24 / total):
    bad.append(f"{100 * share:.2f}% reads of {total} commands, expected 40%")
for k, name in enumerate(("reads", "writes")):
    m = byt[k] / ios[k]
    if abs(m - mean) > 5 * sd / math.sqrt(ios[k]):
        bad.append(f"{name}: mean size {m:.0f} B over {ios[k]}, expected {mean:.0f} B")
# demand intensity: IOPS grow with the commands outstanding from 1 to 4 to
# 16, the average response time up to the queue (32 at the drive)
diag = [at[(k, k)] for k in (1, 2, 4)] + [at[(8, 4)]]
for i, (a, b) in enumerate(zip(diag, diag[1:])):
    oa = int(a["outstanding"]); ob = int(b["outstanding"])
    if i < 2 and not float(b["iops"]) > 1.2 * float(a["iops"]):
        bad.append(f"IOPS {a['iops']} at {oa} outstanding, {b['iops']} at {ob}: expected 20% more")
    if not float(b["mean_us"]) > float(a["mean_us"]):
        bad.append(f"mean response time {a['mean_us']} us at {oa} outstanding, {b['mean_us']} "
                   f"at {ob}: expected it to grow")
top = max(rows, key=lambda r: float(r["iops"]))
if int(top["outstanding"]) < 16:
    bad.append(f"the highest IOPS at {top['outstanding']} outstanding, expected the knee at 16+")
for r in rows:
    if not float(r["mean_us"]) <= float(r["p99_us"]) <= float(r["max_us"]):
        bad.append(f"{r['threads']} x {r['iodepth']}: mean, p99, max out of order")
points = {h["point"] for h in hist}
if points != {"max IOPS", "mid IOPS", "min IOPS"}:
    bad.append(f"histograms of {sorted(points)}, expected max, mid and min IOPS")
low = min(rows, key=lambda r: float(r["iops"]))
for name, r in (("max IOPS", top), ("min IOPS", low)):
    mine = [h for h in hist if h["point"] == name]
    if not mine or (mine[0]["threads"], mine[0]["iodepth"]) != (r["threads"], r["iodepth"]):
        bad.append(f"{name}: histogram not of {r['threads']} x {r['iodepth']}")
        continue
    count = sum(int(h["count"]) for h in mine)
    if count != int(r["read_ios"]) + int(r["write_ios"]):
        bad.append(f"{name}: the histogram holds {count} IOs, the window "
                   f"{int(r['read_ios']) + int(r['write_ios'])}")
    if abs(float(mine[-1]["cumulative_fraction"]) - 1) > 1e-6:
        bad.append(f"{name}: cumulative fraction ends at {mine[-1]['cumulative_fraction']}")
summary = open(os.path.join(d, "summary.txt")).read()
for w in ("demand intensity: IOPS", "maximum response time", "response time histograms",
          "stimulus     randrw 40/60, bssplit="):
    if w not in summary:
        bad.append(f"summary.txt lacks {w!r}")
page = open(os.path.join(d, "report.html")).read()
for w in ("Demand intensity: IOPS of the ECW", "maximum response time", "ecw_histogram.csv"):
    if w not in page:
        bad.append(f"report.html lacks {w!r}")
for b in bad:
    print("FAIL: pts ecw:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
else
    fail "pts ecw: exit $? ($(head -n 2 "$tmp/ecw.err"))"
fi

# the stimulus as pts runs it, each command logged: its sizes and ranges
n=$((n + 1))
job=$(sed -n 's/^stimulus     randrw 40\/60, //p' "$tmp/ecw/summary.txt" 2>/dev/null)
if [ -z "$job" ]; then
    fail "pts ecw: no stimulus line in summary.txt"
elif "$bin" run -q -d "$drive" --workload "rw=randrw,rwmixread=40,$job,iodepth=8,runtime=2s,time_based,write_iolog=ecw.log" \
    -o "$tmp/run" 2>"$tmp/run.err"; then
    python3 - "$tmp/run/ecw.log" 1500000000 <<'PY' || fails=$((fails + 1))
import math, sys
log, cap = sys.argv[1], int(sys.argv[2])
sizes = {512: 4, 1024: 1, 1536: 1, 2048: 1, 2560: 1, 3072: 1, 3584: 1, 4096: 67, 8192: 10,
         16384: 7, 32768: 3, 65536: 3}
ranges = [(0.0, 0.05, 50), (0.05, 0.20, 30), (0.20, 1.0, 20)]
seen, zone, n, misaligned = {}, [0, 0, 0], 0, 0
for line in open(log):
    f = line.split()
    if len(f) != 5 or f[2] not in ("read", "write"):
        continue
    off, length = int(f[3]), int(f[4])
    n += 1
    seen[length] = seen.get(length, 0) + 1
    misaligned += off % 4096 != 0
    for k, (lo, hi, _) in enumerate(ranges):
        if lo * cap <= off < hi * cap:
            zone[k] += 1
bad = []
if n < 20000:
    bad.append(f"only {n} commands logged")
if set(seen) != set(sizes):
    bad.append(f"block sizes {sorted(seen)}, expected {sorted(sizes)}")
def near(what, got, pct):
    p = pct / 100
    if abs(got / n - p) > 5 * math.sqrt(p * (1 - p) / n):
        bad.append(f"{what}: {100 * got / n:.2f}% of {n} commands, expected {pct}%")
for b, pct in sizes.items():
    near(f"{b} B", seen.get(b, 0), pct)
for k, (lo, hi, pct) in enumerate(ranges):
    near(f"LBAs {100 * lo:.0f}-{100 * hi:.0f}%", zone[k], pct)
if misaligned:
    bad.append(f"{misaligned} commands off 4 KiB boundaries")
for b in bad:
    print("FAIL: ecw stimulus:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
else
    fail "run of the ecw stimulus: exit $? ($(head -n 2 "$tmp/run.err"))"
fi
expect_error '--bs "4k": found a block size, expected none: the ecw test mixes its own' \
    pts -d "$drive" -t ecw --bs 4k
finish "$n checks passed" "$fails of $n checks failed"
