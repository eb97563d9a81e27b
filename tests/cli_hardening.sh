#!/usr/bin/env bash
# cli_hardening.sh - bad inputs of every defect class found by trying the
# command as a new user would: each must exit 2 with exactly one line on
# stderr (prefixed ftlsim:, no raw control bytes), nothing on stdout, and
# nothing left behind (no results folder, no temporary, the earlier result
# of a forced run intact). Then signals, the folder lock, traces and the
# config search path.
# Usage: bash tests/cli_hardening.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@" # bin is absolute: the runs below are made in $tmp
drive=tests/data/drives/small_tlc.ini
small='rw=write,size=32m'

# Nothing but what was there before: no entry of the parent folder may
# appear, none may be a hidden temporary.
snapshot() { (cd "$tmp" && find . | sort); }

# bad PATTERN ARGS...: exit 2, one stderr line with PATTERN, no stdout, no
# new file anywhere under $tmp.
bad() {
    local pattern=$1
    shift
    n=$((n + 1))
    local before after
    before=$(snapshot)
    (cd "$tmp" && "$bin" run "$@") >"$tmp/../stdout.$$" 2>"$tmp/../stderr.$$"
    local rc=$? lines
    after=$(snapshot)
    lines=$(wc -l <"$tmp/../stderr.$$")
    local why=""
    [ "$rc" -eq 2 ] || why="exit code $rc, expected 2"
    [ -z "$why" ] && [ "$lines" -ne 1 ] && why="$lines lines on stderr, expected 1"
    [ -z "$why" ] && [ -s "$tmp/../stdout.$$" ] && why="output on stdout"
    [ -z "$why" ] && [ "$before" != "$after" ] && why="left behind: $(diff <(echo "$before") <(echo "$after") | grep '^>' | head -3 | tr '\n' ' ')"
    [ -z "$why" ] && ! head -c 7 "$tmp/../stderr.$$" | grep -q '^ftlsim:' && why="stderr not prefixed ftlsim:"
    [ -z "$why" ] && LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/../stderr.$$" && why="raw control bytes on stderr"
    [ -z "$why" ] && ! grep -qF -- "$pattern" "$tmp/../stderr.$$" && why="stderr lacks \"$pattern\""
    if [ -n "$why" ]; then
        fail "ftlsim run $*: $why"
        sed 's/^/  stderr: /' "$tmp/../stderr.$$" | head -n 3 >&2
    fi
    rm -f "$tmp/../stdout.$$" "$tmp/../stderr.$$"
}

d=$PWD/$drive
# An empty folder name crashed.
bad '--out "": expected the name of a results folder' -d "$d" -w "$small" -o ""
# Values that never end, or end in a wrong result.
bad "--time-scale nan: expected a number greater than 0" -d "$d" -w "$small" --time-scale=nan -o r
bad "--time-scale inf: expected" -d "$d" -w "$small" --time-scale=inf -o r
bad "--interval 1ns: expected at least 1us" -d "$d" -w "$small" --interval=1ns -o r
# (rate=1 runs for ever: the row bound stops it, in the --force case below)
# Values that were silently bent into others.
bad "--time-scale -1: expected a number greater than 0" -d "$d" -w "$small" --time-scale=-1 -o r
bad "--iodepth 0: expected an integer from 1 to 65536" -d "$d" -w "$small" --iodepth=0 -o r
bad "--seed -1: expected an integer from 0 to" -d "$d" -w "$small" --seed=-1 -o r
bad '--interval-bytes "0": expected a size greater than 0' -d "$d" -w "$small" --interval-bytes=0 -o r
bad "--plot: the figures go into the results folder; expected --out DIR too" -d "$d" -w "$small" --plot
# Control bytes in a spec and in a job file are escaped, on one line.
bad 'found "32m\x1b[31m\x01' -d "$d" -w $'rw=write,size=32m\x1b[31m\x01' -o r
head -c 300 /dev/urandom >"$tmp/../binary.$$.fio"
bad "binary.$$.fio" -d "$d" -j "$tmp/../binary.$$.fio" -o r
printf '[job]\nrw=write\nsize=32m\nname=a\nb\x07c=1\n' >"$tmp/../bell.$$.fio"
bad '\x07' -d "$d" -j "$tmp/../bell.$$.fio" -o r
rm -f "$tmp/../binary.$$.fio" "$tmp/../bell.$$.fio"
# Result file names a job gives are checked where they are parsed, with
# the job file and line: ftlsim's own report.html was silently replaced by
# an iolog; "../x" and ".hidden" named only the results folder, after its
# parents (out/deep) had been made and left.
printf '[job]\nrw=write\nsize=1m\nwrite_iolog=report.html\n' >"$tmp/../html.$$.fio"
bad "html.$$.fio:4: option \"write_iolog\": found \"report.html\", expected a plain file name" \
    -d "$d" -j "$tmp/../html.$$.fio" -o r
printf '[job]\nrw=write\nsize=1m\nwrite_iolog=../x\n' >"$tmp/../up.$$.fio"
bad "up.$$.fio:4: option \"write_iolog\": found \"../x\"" -d "$d" -j "$tmp/../up.$$.fio" -o out/deep
printf '[job]\nrw=write\nsize=1m\nwrite_bw_log=.hidden\n' >"$tmp/../dot.$$.fio"
bad "dot.$$.fio:4: option \"write_bw_log\": found \".hidden\"" -d "$d" -j "$tmp/../dot.$$.fio" -o out/deep
rm -f "$tmp/../html.$$.fio" "$tmp/../up.$$.fio" "$tmp/../dot.$$.fio"
# --output "" was found bad after the run, its results folder left.
bad '--output "": an empty name; expected a file name' -d "$d" -w "$small" --output "" -o r
# A drive too big for the memory available is refused before it is made.
FTLSIM_MEMORY_LIMIT=4MiB bad "simulating this drive needs about" -d "$d" -w "$small" -o r
FTLSIM_MEMORY_LIMIT=lots bad 'FTLSIM_MEMORY_LIMIT "lots": expected a size' -d "$d" -w "$small" -o r
unset FTLSIM_MEMORY_LIMIT
"$bin" check "$drive" | grep -qE "^ +empty drive, sequential fill: about [0-9.]+ [MG]iB" ||
    fail "check does not print the memory estimate"
"$bin" check "$drive" | grep -qE "^ +fully fragmented \(worst case\): about [0-9.]+ [MG]iB" ||
    fail "check does not print the worst-case memory estimate"

# --force with a run that fails keeps the earlier result whole.
"$bin" run -q -d "$drive" -w "$small" -o "$tmp/keep" || fail "first run into keep failed"
sum_before=$(cat "$tmp/keep/summary.json" | md5sum)
bad "the run reached 1000000 series rows" -d "$d" -w 'rw=write,size=16m,rate=1' -o keep --force
[ "$(md5sum <"$tmp/keep/summary.json")" = "$sum_before" ] || fail "--force and a failing run changed the earlier result"
ls -A "$tmp" | grep -q '\.new-' && fail "a failed forced run left its temporary folder"

# A second run into a folder in use is refused; SIGTERM and SIGINT stop a
# run cleanly with what it simulated.
long='rw=randwrite,size=100%,io_size=400g'
"$bin" run -q -d "$drive" -w "$long" -o "$tmp/busy" 2>"$tmp/busy.err" &
pid=$!
# started: rows have reached the series (a signal before the simulation
# starts is answered with nothing written, by design)
started() { for _ in $(seq 100); do [ -s "$1" ] && return; sleep 0.1; done; }
started "$tmp/busy/.series.csv.tmp"
bad "another ftlsim run is writing into this folder" -d "$d" -w "$small" -o busy --force
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM: exit code $rc, expected 143"
[ "$(wc -l <"$tmp/busy.err")" -eq 1 ] && grep -q "^ftlsim: interrupted by SIGTERM at .* s simulated" "$tmp/busy.err" ||
    fail "SIGTERM: stderr was: $(cat "$tmp/busy.err")"
grep -q '"interrupted": true' "$tmp/busy/summary.json" 2>/dev/null || fail "SIGTERM: summary.json lacks \"interrupted\": true"
ls -A "$tmp/busy" | grep -q '\.tmp$' && fail "SIGTERM: a temporary was left"
"$bin" run -q -d "$drive" -w "$long" -o "$tmp/int" 2>"$tmp/int.err" &
pid=$!
started "$tmp/int/.series.csv.tmp"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "SIGINT: exit code $rc, expected 130"
grep -q '"interrupted": true' "$tmp/int/summary.json" 2>/dev/null || fail "SIGINT: no interrupted summary"
"$bin" run -q -d "$drive" -w "$small" -o "$tmp/whole" && grep -q '"interrupted": false' "$tmp/whole/summary.json" ||
    fail "a whole run does not say \"interrupted\": false"

# WAF: a short sequential write is not below 1; the buffer is reported.
"$bin" run -q -d "$drive" -w "$small" -o "$tmp/waf" || fail "waf run failed"
python3 - "$tmp/waf/summary.json" <<'EOF' || fail "short sequential write: WAF or buffer report wrong"
import json, sys
s = json.load(open(sys.argv[1]))
b = s["write_buffer"]
assert b["held_at_end_bytes"] > 0, b  # the run ends before the buffer empties
assert abs(s["waf"] - 1.0) < 1e-3, s["waf"]
assert s["nand"]["write_bytes"]["total"] < s["host"]["write_bytes"]  # the plain ratio is below 1
EOF

# A write larger than the drive's write buffer (the 990's is 8 MiB) waited
# for room it could never get: it goes in pieces, its data no faster than
# the dies program it in SLC (2.62 GB/s; the link carries 7.15 GB/s).
timeout 60 "$bin" run -q -d configs/990.ini -w 'rw=write,bs=16m,size=256m' --check -o "$tmp/big" ||
    fail "16 MiB writes on the 990: exit $?"
python3 - "$tmp/big/summary.json" <<'EOF' || fail "16 MiB writes on the 990: wrong summary"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["host"]["write_ios"] == 16 and s["host"]["write_bytes"] == 256 << 20, s["host"]
assert s["sim_time_s"] > (256 << 20) / 2.63e9, s["sim_time_s"]
EOF

# Traces: MQSim/SSDsim named as both, a CSV header skipped, lines dropped
# by --skip-bad-lines counted on stderr and in the summaries.
"$bin" run -q -d "$drive" -t traces/ssdsim_example_fin1.ascii --lba-map wrap -o "$tmp/twin" ||
    fail "an ssdsim trace was refused"
grep -q '^trace     mqsim/ssdsim format (detected)' "$tmp/twin/summary.txt" || fail "summary.txt does not name mqsim/ssdsim"
{
    echo "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"
    cat traces/quoted_rows/msr_cambridge_rows.csv
    echo "not a record"
} >"$tmp/hdr.csv"
"$bin" run -q -d "$drive" -t "$tmp/hdr.csv" --trace-format msr --skip-bad-lines --lba-map wrap \
    -o "$tmp/hdr" 2>"$tmp/hdr.err" || fail "a trace with a header and a bad line failed"
grep -q "hdr.csv: skipped 1 malformed lines (--skip-bad-lines)" "$tmp/hdr.err" || fail "stderr lacks the skipped lines"
grep -q "header line skipped, 1 malformed lines skipped" "$tmp/hdr/summary.txt" || fail "summary.txt lacks the skipped lines"
grep -q '"bad_lines_skipped": 1' "$tmp/hdr/summary.json" || fail "summary.json lacks the skipped lines"
printf 'Time,Offset\nhello,world\n' >"$tmp/../hdrbad.$$.csv"
bad 'after the header line "Time,Offset"' -d "$d" -t "$tmp/../hdrbad.$$.csv" -o r
rm -f "$tmp/../hdrbad.$$.csv"

# Reads of never-written data: one note on stderr with the hint.
"$bin" run -d "$drive" -w 'rw=read,size=8m' >/dev/null 2>"$tmp/read.err" || fail "read run failed"
[ "$(grep -c 'never-written.*--prefill' "$tmp/read.err")" -eq 1 ] || fail "no note about reads of unwritten LBAs"

# Drive files and `drives` outside the source tree, by FTLSIM_CONFIG_PATH.
mkdir -p "$tmp/cfg" "$tmp/elsewhere"
cp "$drive" "$tmp/cfg/mine.ini"
(cd "$tmp/elsewhere" && FTLSIM_CONFIG_PATH="$tmp/cfg" "$bin" drives | grep -q '^mine.ini') ||
    fail "drives does not list FTLSIM_CONFIG_PATH"
(cd "$tmp/elsewhere" && FTLSIM_CONFIG_PATH="$tmp/cfg" "$bin" check mine >/dev/null) ||
    fail "check does not find a drive by name in FTLSIM_CONFIG_PATH"
(cd "$tmp/elsewhere" && "$bin" check configs/860pro.ini >/dev/null) ||
    fail "check does not find configs/860pro.ini outside the source root"
(cd "$tmp/elsewhere" && "$bin" check no_such_drive >/dev/null 2>"$tmp/missing.err")
rc=$?
[ "$rc" -eq 2 ] && grep -q '^ftlsim: no_such_drive: no such drive file' "$tmp/missing.err" ||
    fail "a missing drive file: exit $rc, $(cat "$tmp/missing.err")"
rm -rf "$tmp/elsewhere"

finish "$n bad inputs refused cleanly; signals, lock, traces, config path ok"
