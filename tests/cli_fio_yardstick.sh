#!/usr/bin/env bash
# cli_fio_yardstick.sh - fio as the yardstick: every job of
# tests/data/fio-yardstick/ runs through the real fio (ioengine=null,
# write_iolog) and through ftlsim (write_iolog), and the two iologs must
# agree: identical sequences for the deterministic jobs and for the random
# ones drawn from fio's generators, the same coverage, block sizes, read
# share, sequential share and skew for the others (zipf, pareto, normal,
# lfsr; tests/fio_yardstick.py says how, and why the tolerances).
# Skipped when fio is not installed (scripts/lib/deps.sh installs it).
set -uo pipefail
source tests/lib.sh "$@"

if ! command -v fio >/dev/null 2>&1; then
    echo "cli_fio_yardstick: skipped: fio is not installed (apt-get install fio)"
    skipped=1
    finish "skipped"
fi
jobs=$(ls tests/data/fio-yardstick/*.fio | wc -l)
[ "$jobs" -ge 40 ] || fail "only $jobs yardstick jobs, expected at least 40"
if ! python3 tests/fio_yardstick.py "$bin" tests/data/fio-yardstick >"$tmp/report" 2>&1; then
    grep -v '^ok ' "$tmp/report" >&2
    fail "ftlsim's I/O differs from fio's"
fi
n=$((n + jobs))
finish "$(tail -1 "$tmp/report")"
