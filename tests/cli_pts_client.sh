#!/usr/bin/env bash
# cli_pts_client.sh - `ftlsim pts --spec client` (PTS-C 1.2) on the small
# TLC drive with short rounds: the report says PTS-C with its version, the
# stimulus is the client's (IOPS at 2 threads x QD 16), the rounds' writes
# stay in the client's active range (the first 75% of the LBAs, as the
# drive counted them: the range its host writes covered) while the
# same test under --spec enterprise writes past it, TP runs 1024 KiB only,
# and bad input (--spec, a block size PTS-C's TP does not run) exits 2.
# Usage: bash tests/cli_pts_client.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

pts() { # pts DIR [options...]: one test into DIR, output in DIR.log
    local dir=$1
    shift
    "$bin" pts -d "$drive" -o "$dir" -q "$@" >"$dir.log" 2>&1 || fail "pts $*: exit $? ($(head -n 3 "$dir.log"))"
}

# json FILE KEY: the first number or string after "KEY": in FILE
json() {
    grep -o "\"$2\": *[^,}]*" "$1" | head -n 1 | sed 's/^[^:]*: *//; s/"//g'
}

# IOPS, one cell, full preconditioning (its last writes still buffered when
# the rounds begin are not counted as the rounds').
pts "$tmp/c" --spec client -t iops --round-time 100ms --bs 4k --mix 0/100 --max-rounds 5
pts "$tmp/e" --spec enterprise -t iops --round-time 100ms --bs 4k --mix 0/100 --max-rounds 5
[ "$(json "$tmp/c/summary.json" specification)" = "PTS-C 1.2" ] || fail "client: summary.json does not say PTS-C 1.2"
[ "$(json "$tmp/e/summary.json" specification)" = "PTS-E 1.1" ] || fail "enterprise: summary.json does not say PTS-E 1.1"
[ "$(json "$tmp/c/summary.json" threads)x$(json "$tmp/c/summary.json" iodepth)" = 2x16 ] ||
    fail "client IOPS: expected 2 threads x QD 16, got $(json "$tmp/c/summary.json" threads)x$(json "$tmp/c/summary.json" iodepth)"
grep -q "SNIA PTS-C 1.2 IOPS, 2 threads x QD 16" "$tmp/c/summary.txt" || fail "client: summary.txt test line"
grep -q "Client (PTS-C) 1.2" "$tmp/c/report.html" || fail "client: report.html header lacks PTS-C 1.2"
grep -q "PTS-E" "$tmp/c/report.html" && fail "client: report.html still names PTS-E"
cap=$(json "$tmp/c/summary.json" capacity_bytes)
for d in c e; do
    end=$(json "$tmp/$d/summary.json" written_end_byte)
    [ -n "$end" ] || { fail "$d: summary.json has no written range"; continue; }
    pct=$(awk -v e="$end" -v c="$cap" 'BEGIN { printf "%.2f", 100 * e / c }')
    case $d in
        # random writes over the range reach close to its end, never past it
        c) awk -v p="$pct" 'BEGIN { exit !(p > 70 && p <= 75) }' ||
            fail "client: the rounds wrote up to $pct% of the LBAs, expected 70-75%" ;;
        e) awk -v p="$pct" 'BEGIN { exit !(p > 95) }' ||
            fail "enterprise: the rounds wrote up to $pct% of the LBAs, expected the whole drive" ;;
    esac
done
grep -q "^active range 75% of the LBAs" "$tmp/c/summary.txt" || fail "client: summary.txt lacks the active range"

# TP under PTS-C: 1024 KiB only, read and write, at 1 thread x QD 32.
pts "$tmp/tp" --spec client -t tp --round-time 100ms --max-rounds 5 --precondition fast
[ "$(tail -n +2 "$tmp/tp/tp.csv" | cut -d, -f1 | sort -u)" = 1048576 ] ||
    fail "client TP: expected 1024 KiB rows only: $(cut -d, -f1 "$tmp/tp/tp.csv" | tr '\n' ' ')"
[ "$(json "$tmp/tp/summary.json" threads)x$(json "$tmp/tp/summary.json" iodepth)" = 1x32 ] ||
    fail "client TP: expected 1 thread x QD 32"

expect_error '--spec "home": expected enterprise (PTS-E 1.1) or client (PTS-C 1.2)' pts -d $drive -t iops --spec home
expect_error '--bs "128k": found "128k", expected block sizes of the tp test of PTS-C: 1MiB' \
    pts -d $drive -t tp --spec client --bs 128k

finish "PTS-C: its header, stimulus and active range"
