#!/usr/bin/env bash
# cli_signals.sh - SIGINT, SIGTERM and SIGHUP (a terminal that went away,
# handled as SIGTERM) to every long command: run, a sweep (here and with
# --jobs), pts, calibrate (with and without --jobs) and the set-up of a job
# file of many jobs. Each must stop within seconds, exit 130, 143 or 129
# with exactly one "ftlsim:" line on stderr, write what it has
# marked "interrupted": true (a sweep: its interrupted column), leave no
# temporaries (.tmp files, calibrate's scratch folder, child processes)
# and, when it has nothing yet, write nothing. The parse of a huge job file
# stops too.
# Usage: bash tests/cli_signals.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
pslc=tests/data/drives/small_tlc_pslc.ini
long='rw=randwrite,size=100%,io_size=400g'
export TMPDIR=$tmp/scratch
mkdir -p "$TMPDIR"

# wait_for TEST...: until the test holds (60 s at most: a loaded machine)
wait_for() { for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done; return 1; }
has() { [ -e "$1" ]; }
lines_at_least() { [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "$3" ]; }

# stopped NAME PID SIGNAL RC: send it, wait, check the exit status, the one
# line and the time it took
stopped() {
    local name=$1 pid=$2 sig=$3 want=$4 t0 t1 rc
    n=$((n + 1))
    t0=$(date +%s%N)
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    t1=$(date +%s%N)
    [ "$rc" -eq "$want" ] || fail "$name: exit $rc, expected $want"
    [ "$(wc -l <"$tmp/$name.err")" -eq 1 ] && grep -q "^ftlsim: interrupted by SIG$sig" "$tmp/$name.err" ||
        fail "$name: stderr was: $(head -c 400 "$tmp/$name.err")"
    [ $(((t1 - t0) / 1000000)) -lt 10000 ] || fail "$name: took $(((t1 - t0) / 1000000)) ms to stop"
}
# clean NAME DIR: no temporaries under DIR or in TMPDIR, no process left
# that writes into DIR
clean() {
    if [ -n "$(find "$2" -name '*.tmp' -o -name '.*.new-*' 2>/dev/null)" ]; then
        fail "$1: temporaries left: $(find "$2" -name '*.tmp' | head -n 3)"
    fi
    [ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left in TMPDIR: $(ls -A "$TMPDIR")"
    if ps -eo args | grep -F -- "$2" | grep -v grep | grep -q ftlsim; then
        fail "$1: a process writing into $2 is still there"
    fi
}
code() { case $1 in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; esac; }
marked() { grep -q '"interrupted": true' "$2" 2>/dev/null || fail "$1: $2 lacks \"interrupted\": true"; }

# 1, 2, 3: one run
for sig in TERM INT HUP; do
    "$bin" run -q -d "$drive" -w "$long" -o "$tmp/run$sig" 2>"$tmp/run$sig.err" &
    pid=$!
    wait_for has "$tmp/run$sig/.series.csv.tmp"
    stopped "run$sig" $pid $sig "$(code $sig)"
    marked "run$sig" "$tmp/run$sig/summary.json"
    clean "run$sig" "$tmp/run$sig"
done

# 4 to 7: a sweep with --jobs 2 (SIGTERM, SIGINT, SIGHUP) and one run at a time:
# the runs in progress stop marked, none starts after, sweep.csv has them
for c in "TERM 2" "INT 2" "TERM 1" "HUP 2"; do
    set -- $c
    name=sweep$1$2
    "$bin" run -q -d "$drive" -w "$long" --vary gc.policy=greedy,fifo,cost_benefit --jobs "$2" \
        -o "$tmp/$name" 2>"$tmp/$name.err" &
    pid=$!
    wait_for has "$tmp/$name/gc.policy=greedy/.series.csv.tmp"
    stopped "$name" $pid "$1" "$(code "$1")"
    csv=$tmp/$name/sweep.csv
    head -n 1 "$csv" 2>/dev/null | grep -q ',interrupted$' || fail "$name: sweep.csv lacks the interrupted column"
    [ "$(awk -F, 'NR > 1 && $NF == 1' "$csv" | wc -l)" -ge 1 ] || fail "$name: no run marked interrupted"
    [ "$(awk -F, 'NR > 1 && $NF != 1' "$csv" | wc -l)" -eq 0 ] || fail "$name: a run marked finished"
    marked "$name" "$tmp/$name/gc.policy=greedy/summary.json"
    [ -e "$tmp/$name/gc.policy=cost_benefit" ] && fail "$name: a run started after the signal"
    clean "$name" "$tmp/$name"
done

# 8, 9, 10: pts after two rounds: the whole rounds, marked. Its rounds take
# a tenth of a second here, so on a loaded machine the signal can come
# after the test reached steady state (round 5 or 6) and began writing its
# folder (then rightly nothing is written): such a run is tried again with
# rounds 10 and then 60 times as long, which the signal cannot miss.
for sig in TERM INT HUP; do
    for rt in 1s 10s 60s; do
        rm -rf "$tmp/pts$sig"
        : >"$tmp/pts$sig.log" # emptied here: the shell that starts pts truncates it only later
        "$bin" pts -d "$drive" -t iops --round-time $rt --bs 4k,128k --mix 100/0,0/100 \
            --precondition fast -o "$tmp/pts$sig" >/dev/null 2>"$tmp/pts$sig.log" &
        pid=$!
        wait_for lines_at_least "$tmp/pts$sig.log" '^iops round' 2
        kill -$sig $pid
        wait $pid
        rc=$?
        grep -q '^steady state round' "$tmp/pts$sig/summary.txt" 2>/dev/null ||
            grep -q '^iops round .*: steady$' "$tmp/pts$sig.log" || break
    done
    : >"$tmp/pts$sig.err"
    n=$((n + 1))
    [ $rc -eq "$(code $sig)" ] || fail "pts$sig: exit $rc"
    [ "$(grep -c '^ftlsim:' "$tmp/pts$sig.log")" -eq 1 ] || fail "pts$sig: not one ftlsim: line"
    marked "pts$sig" "$tmp/pts$sig/summary.json"
    grep -q 'was interrupted after' "$tmp/pts$sig/report.html" 2>/dev/null ||
        fail "pts$sig: no report.html saying the test was interrupted"
    rounds=$(awk -F, 'NR > 1 { print $1 }' "$tmp/pts$sig/rounds.csv" | sort -u | wc -l)
    cells=$(awk -F, 'NR > 1' "$tmp/pts$sig/rounds.csv" | wc -l)
    [ "$rounds" -ge 2 ] && [ "$cells" -eq $((rounds * 4)) ] ||
        fail "pts$sig: rounds.csv has $cells cells in $rounds rounds, expected whole rounds of 4"
    clean "pts$sig" "$tmp/pts$sig"
done

# 11: pts without a folder: the summary so far on stdout, marked stopped
# (tried again with longer rounds if the signal came after steady state,
# as above)
for rt in 2s 20s 120s; do
    : >"$tmp/ptsout.log"
    "$bin" pts -d "$drive" -t iops --round-time $rt --bs 4k,128k --mix 100/0,0/100 --precondition fast \
        >"$tmp/ptsout.txt" 2>"$tmp/ptsout.log" &
    pid=$!
    wait_for lines_at_least "$tmp/ptsout.log" '^iops round' 1
    kill -TERM $pid
    wait $pid
    rc=$?
    grep -q '^iops round .*: steady$' "$tmp/ptsout.log" || break
done
n=$((n + 1))
[ $rc -eq 143 ] || fail "pts without -o: exit $rc, expected 143"
grep -q '^stopped ' "$tmp/ptsout.txt" || fail "pts without -o: no stopped line in the summary"

# 12, 13: calibrate with and without --jobs: the best point so far, marked,
# and its scratch folder gone
wl='rw=write,bs=128k,iodepth=32,size=600m'
"$bin" run -q -d "$pslc" -w "$wl" --interval-bytes 20MB --set pslc.dynamic_cap=150MB -o "$tmp/truth" ||
    fail "the truth run"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "GB,MBps"; next }
         { gb = $c["host_written_GB"]; printf "%.4f,%.2f\n", (gb + prev) / 2, $c["write_MBps"]; prev = gb }' \
    "$tmp/truth/series.csv" >"$tmp/curve.csv"
for c in "TERM 2" "INT 1"; do
    set -- $c
    name=cal$1$2
    "$bin" calibrate -d "$pslc" -w "$wl" --curve "$tmp/curve.csv" --fit pslc.dynamic_cap=50MB..300MB \
        --fit timing.tlc.t_prog=1ms..5ms --max-evals 2000 --jobs "$2" -o "$tmp/$name" \
        >"$tmp/$name.out" 2>"$tmp/$name.err" &
    pid=$!
    wait_for lines_at_least "$tmp/$name.out" '^eval' 6
    stopped "$name" $pid "$1" "$(code "$1")"
    marked "$name" "$tmp/$name/fit.json"
    grep -q '^# Interrupted by a signal' "$tmp/$name/calibrated.ini" 2>/dev/null ||
        fail "$name: calibrated.ini not marked"
    "$bin" check "$tmp/$name/calibrated.ini" >/dev/null || fail "$name: calibrated.ini does not load"
    clean "$name" "$tmp/$name"
done

# 14: calibrate stopped (by SIGHUP) before its stock run ended writes nothing
"$bin" calibrate -d "$drive" -w "$long" --figure cliff_gb=1 --fit timing.tlc.t_prog=1ms..5ms \
    -o "$tmp/calnone" >/dev/null 2>"$tmp/calnone.err" &
pid=$!
nonempty() { [ -n "$(ls -A "$1")" ]; }
wait_for nonempty "$TMPDIR"
sleep 0.5
stopped calnone $pid HUP 129
grep -q "nothing written" "$tmp/calnone.err" || fail "calnone: $(cat "$tmp/calnone.err")"
[ -e "$tmp/calnone" ] && fail "calnone: a results folder was made"
clean calnone "$tmp/calnone"

# 15: the set-up of a job file of 40,000 jobs stops at once; with --force
# the earlier result stays as it was
"$bin" run -q -d "$drive" -w 'rw=write,size=8m' -o "$tmp/keep" || fail "the keep run"
before=$(md5sum <"$tmp/keep/summary.json")
{
    printf '[global]\nrw=randwrite\nbs=4k\nsize=1m\n'
    for i in $(seq 40000); do printf '[j%d]\n' "$i"; done
} >"$tmp/many.fio"
"$bin" run -q -d "$drive" -j "$tmp/many.fio" -o "$tmp/keep" --force 2>"$tmp/setup.err" &
pid=$!
sleep 1.5
stopped setup $pid TERM 143
[ "$(md5sum <"$tmp/keep/summary.json")" = "$before" ] || fail "setup: the earlier result changed"
clean setup "$tmp/keep"

# 16: the parse itself of a job file too big to read in a second (400,000
# sections: several seconds on a quick machine) stops at the line it was on
{
    printf '[global]\nrw=randwrite\nbs=4k\nsize=1m\n'
    seq 400000 | sed 's/.*/[j&]/'
} >"$tmp/huge.fio"
"$bin" run -q -d "$drive" -j "$tmp/huge.fio" -o "$tmp/parse" 2>"$tmp/parse.err" &
pid=$!
sleep 1
stopped parse $pid INT 130
grep -q "while reading .*huge.fio (line [0-9]*); nothing written" "$tmp/parse.err" ||
    fail "parse: not stopped while reading: $(cat "$tmp/parse.err")"
[ -e "$tmp/parse" ] && fail "parse: a results folder was made"
clean parse "$tmp/parse"

# 17: past ulimit -f the series write fails (SIGXFSZ is ignored, not the
# end of the process): one line naming the file, and nothing left behind
n=$((n + 1))
(ulimit -f 64 && exec "$bin" run -q -d "$drive" -w "rw=randwrite,size=100%,io_size=20g" --interval 1ms \
    -o "$tmp/fsize") 2>"$tmp/fsize.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/fsize.err")" -eq 1 ] && grep -q "^ftlsim: .*series.csv: write failed: File too large" "$tmp/fsize.err" ||
    fail "ulimit -f: exit $rc, $(head -c 300 "$tmp/fsize.err")"
[ -e "$tmp/fsize" ] && fail "ulimit -f: left $(ls -A "$tmp/fsize" | head -n 3 | tr '\n' ' ')"

finish "$n interrupted commands stopped cleanly and marked"
