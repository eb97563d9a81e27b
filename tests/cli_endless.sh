#!/usr/bin/env bash
# cli_endless.sh - inputs that never end (/dev/zero, an endless pipe) or
# are far too large: every reader is bounded and refuses them with one
# "ftlsim:" line, exit 2, within seconds, and no results folder made.
# Usage: bash tests/cli_endless.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
w='rw=write,size=8m'
# timed PATTERN COMMAND...: expect_error, and within 30 s
timed() {
    local t0=$SECONDS
    expect_error "$@"
    [ $((SECONDS - t0)) -lt 30 ] || fail "ftlsim ${*:2}: took $((SECONDS - t0)) s"
}
nonl='/dev/zero:1: found no newline in 64 MiB'
timed "$nonl" run -d "$drive" -t /dev/zero
timed "$nonl" run -d "$drive" -t /dev/zero --trace-format msr
timed "$nonl" run -d "$drive" -t /dev/zero --trace-format blkparse
timed "$nonl" run -d "$drive" -t /dev/zero --trace-format spc --skip-bad-lines
timed "/dev/zero: found more than 16 MiB, expected a job file" run -d "$drive" --job /dev/zero
timed "/dev/zero: found more than 16 MiB, expected a drive file" run -d /dev/zero -w "$w"
timed --no-out "/dev/zero: found more than 16 MiB, expected a drive file" check /dev/zero
timed --no-out "/dev/zero: found more than 16 MiB, expected a job file" check "$drive" -j /dev/zero
printf '[j]\nrw=write\nsize=8m\ninclude /dev/zero\n' >"$tmp/inc.fio"
timed 'inc.fio:4: include "/dev/zero": /dev/zero: found more than 16 MiB' run -d "$drive" -j "$tmp/inc.fio"
timed "--curve /dev/zero: found more than 16 MiB, expected a curve CSV" \
    calibrate -d "$drive" -w "$w" --curve /dev/zero --fit timing.tlc.t_prog=1ms..3ms
# a regular file too large is refused from its size, without reading it
truncate -s 20M "$tmp/big.fio"
timed "big.fio: found more than 16 MiB, expected a job file" run -d "$drive" -j "$tmp/big.fio"
# an endless stream of blank lines through a pipe, with and without a format
mkfifo "$tmp/blank"
# the test holds a writer open from the start (read-write, which does not
# block), so the command never finds the pipe before the writer came
exec 3<>"$tmp/blank"
for f in "" "--trace-format msr"; do
    yes '' >"$tmp/blank" 2>/dev/null &
    writer=$!
    timed "without " run -d "$drive" -t "$tmp/blank" $f
    kill $writer 2>/dev/null
    wait $writer 2>/dev/null
done
exec 3>&-
# a line too long is skipped with --skip-bad-lines, and the trace goes on
{
    head -c 100000 /dev/zero | tr '\0' x
    printf '\n'
    for i in $(seq 20); do printf '%d,host,0,Write,%d,4096,10\n' $((i * 100000)) $((i * 4096)); done
} >"$tmp/long.csv"
n=$((n + 1))
"$bin" run -q -d "$drive" -t "$tmp/long.csv" --trace-format msr --skip-bad-lines 2>"$tmp/err" ||
    fail "a trace with one long line and --skip-bad-lines: $(cat "$tmp/err")"
finish "$n endless or oversized inputs refused"
