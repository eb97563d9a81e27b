#!/usr/bin/env bash
# cli_pts_hir.sh - pts --test hir, host idle recovery, on the small drive:
# its rounds reach steady state, then each of the five wait states runs 360
# access periods each followed by host idle time (0.025 s to 0.25 s at 0.3 s
# rounds) and 360 without; hir.csv holds all 3600 periods with the idle
# time measured before each, the drive recovers while the host is idle (the
# access periods with idle have more IOPS than their returns to baseline),
# the baseline is the steady state's rate again, and summary.txt and
# report.html show the table.
# Usage: bash tests/cli_pts_hir.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

n=$((n + 1))
if "$bin" pts -q -d "$drive" -t hir --round-time 300ms --precondition random -o "$tmp/hir" \
    2>"$tmp/hir.err"; then
    python3 - "$tmp/hir" <<'PY' || fails=$((fails + 1))
import csv, json, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "hir.csv"))))
bad = []
if len(rows) != 3600:
    bad.append(f"{len(rows)} periods in hir.csv, expected 5 wait states x 2 x 360")
waits = [0.025, 0.05, 0.075, 0.125, 0.25]
ss = json.load(open(os.path.join(d, "summary.json")))["steady_state"][0]
if not ss["reached"]:
    bad.append("the rounds did not reach steady state")
for k in range(1, 6):
    w = [r for r in rows if r["wait_state"] == str(k) and r["phase"] == "wait"]
    b = [r for r in rows if r["wait_state"] == str(k) and r["phase"] == "baseline"]
    if len(w) != 360 or len(b) != 360:
        bad.append(f"wait state {k}: {len(w)} periods with idle and {len(b)} without, expected 360 each")
        continue
    # every access period but the first follows the wait state's idle time;
    # the baseline's only the first
    idle = [float(r["idle_before_s"]) for r in w[1:]]
    if any(abs(i - waits[k - 1]) > 1e-6 for i in idle):
        bad.append(f"wait state {k}: idle before its periods {min(idle)}-{max(idle)} s, expected {waits[k - 1]}")
    if any(float(r["idle_before_s"]) != 0 for r in b[1:]):
        bad.append(f"wait state {k}: idle time within its return to baseline")
    wi = sum(float(r["iops"]) for r in w) / 360
    bi = sum(float(r["iops"]) for r in b) / 360
    if not wi > 1.5 * bi:
        bad.append(f"wait state {k}: {wi:.0f} IOPS with idle, {bi:.0f} without: no recovery")
    if not 0.7 * ss["window_avg"] < bi < 1.3 * ss["window_avg"]:
        bad.append(f"wait state {k}: baseline {bi:.0f} IOPS, steady state {ss['window_avg']:.0f}")
summary = open(os.path.join(d, "summary.txt")).read()
if "host idle recovery" not in summary or "with idle / baseline" not in summary:
    bad.append("summary.txt lacks the recovery table")
page = open(os.path.join(d, "report.html")).read()
for w in ("Host idle recovery", "IOPS of the return to baseline", "hir.csv"):
    if w not in page:
        bad.append(f"report.html lacks {w!r}")
for b in bad:
    print("FAIL: pts hir:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
else
    fail "pts hir: exit $? ($(head -n 2 "$tmp/hir.err"))"
fi
finish "$n checks passed" "$fails of $n checks failed"
