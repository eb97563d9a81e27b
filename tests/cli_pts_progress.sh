#!/usr/bin/env bash
# cli_pts_progress.sh - what pts shows on a terminal while it runs: the
# preconditioning's write rate (not 0 while the drive writes), and within
# each round a status line naming the round ("round N of at most M") with
# the share of the whole test and an ETA. Run under script(1) for a
# terminal; skipped without it.
# Usage: bash tests/cli_pts_progress.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=$PWD/tests/data/drives/small_tlc.ini

if ! command -v script >/dev/null; then
    echo "cli_pts_progress: skipped: needs script(1) (util-linux) for a terminal"
    skipped=1
    finish ""
fi
n=$((n + 1))
script -qec "'$bin' pts -d '$drive' -t iops --round-time 2s --bs 4k --mix 100/0,0/100 \
    --max-rounds 6 -o '$tmp/pts'" /dev/null >"$tmp/tty.raw" 2>&1 ||
    fail "pts under a terminal: $(tail -n 3 "$tmp/tty.raw")"
tr '\r' '\n' <"$tmp/tty.raw" >"$tmp/tty"
# the preconditioning writes at the drive's rate: its line shows it
grep -qE '^iops precondition: +[0-9.]+%  sim [0-9.]+ s  host [0-9.]+ GB  write [1-9][0-9]* MB/s' "$tmp/tty" ||
    fail "no preconditioning line with a write rate: $(grep precondition "$tmp/tty" | head -n 2)"
# every round that ran had a status line before its result, saying which
# round of at most how many, with the test's share and an ETA
rounds=$(grep -c '^iops round [0-9]*: ' "$tmp/tty")
[ "$rounds" -ge 5 ] || fail "only $rounds rounds reported"
for r in $(seq "$rounds"); do
    grep -qE "^iops round $r of at most 6: +[0-9.]+%  sim .*  ETA [0-9:-]+" "$tmp/tty" ||
        fail "round $r: no status line \"iops round $r of at most 6: ...\""
done
# the share grows with the rounds and stays within the test
python3 - "$tmp/tty" <<'PY' || fail "the test's share does not grow from 0 to 100%"
import re, sys
v = [float(m) for m in re.findall(r"^iops round \d+ of at most 6: +([0-9.]+)%", open(sys.argv[1]).read(), re.M)]
assert v and v == sorted(v) and 0 <= v[0] and v[-1] <= 100, v
PY

finish "pts shows its rounds while they run, with the test's share and an ETA"
