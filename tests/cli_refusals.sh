#!/usr/bin/env bash
# cli_refusals.sh - corpora of bad input of three classes, each case held
# to what the README promises of bad input: exit 2, nothing on stdout,
# exactly one "ftlsim: " line on stderr naming the problem, no results
# folder or partial file made, an earlier results folder given again with
# --force left untouched, and no temporaries left in TMPDIR.
#   job files:          NUL bytes, job sets too large to set up, bad syntax
#   drives that cannot progress: GC thresholds and spare blocks the drive
#                       cannot hold, in check, run, pts, calibrate, --vary
#   calibration input:  unitless and one-value --fit ranges, figures the
#                       workload cannot reach
# and one calibration that ends at a bound of its range warns of it.
# Usage: bash tests/cli_refusals.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
src=$PWD
tlc=$src/tests/data/drives/small_tlc.ini
pslc=$src/tests/data/drives/small_tlc_pslc.ini
qlc=$src/tests/data/drives/small_qlc_hmb.ini
p5336=$src/configs/p5336-61tb.ini
work=$tmp/work # the commands' working folder: nothing may be left in it
mkdir -p "$work" "$tmp/tmpdir"
export TMPDIR=$tmp/tmpdir

# an earlier result, which every refused command is pointed at with --force
keep=$tmp/keep
"$bin" run -q -d "$tlc" -w rw=write,size=4m -o "$keep" || { fail "the earlier run"; exit 1; }
sum() { (cd "$1" && find . -type f -exec sha1sum {} + | sort); }
keep_sum=$(sum "$keep")

# refuse [--no-out] PATTERN COMMAND ARGS...: bad input, refused as promised.
refuse() {
    n=$((n + 1))
    local out=1
    if [ "$1" = --no-out ]; then
        out=
        shift
    fi
    local pattern=$1
    shift
    (cd "$work" && "$bin" "$@" ${out:+-o "$keep" --force}) >"$tmp/stdout" 2>"$tmp/stderr"
    local rc=$? why=""
    [ "$rc" -eq 2 ] || why="exit code $rc, expected 2"
    [ -z "$why" ] && [ "$(wc -l <"$tmp/stderr")" -ne 1 ] && why="$(wc -l <"$tmp/stderr") lines on stderr"
    [ -z "$why" ] && ! grep -q '^ftlsim: ' "$tmp/stderr" && why="stderr not prefixed \"ftlsim: \""
    [ -z "$why" ] && ! grep -qF -- "$pattern" "$tmp/stderr" && why="stderr lacks \"$pattern\""
    [ -z "$why" ] && [ -s "$tmp/stdout" ] && why="output on stdout"
    [ -z "$why" ] && [ "$(sum "$keep")" != "$keep_sum" ] && why="the earlier results changed"
    local left
    left=$(find "$work" "$TMPDIR" -mindepth 1 | tr '\n' ' ')
    [ -z "$why" ] && [ -n "$left" ] && why="left $left"
    if [ -n "$why" ]; then
        fail "ftlsim $*: $why"
        sed 's/^/  stderr: /' "$tmp/stderr" | head -n 3 >&2
    fi
    rm -rf "${work:?}"/* "${TMPDIR:?}"/*
}

# ---- job files ---------------------------------------------------------------
j=$tmp/jobs
mkdir -p "$j"
printf '[w]\nrw=write\nbs=128k\nsize=16m\n\0size=100%%\n' >"$j/nul_mid.fio"
printf '\0[w]\nrw=write\n' >"$j/nul_first.fio"
printf '[w]\nrw=write\nsize=16m\n\0' >"$j/nul_last.fio"
printf '[w]\nrw=wr\0ite\nsize=16m\n' >"$j/nul_in_value.fio"
printf '[w]\nrw=write\ninclude part.fio\n' >"$j/include.fio"
printf 'size=16m\n\0bs=4k\n' >"$j/part.fio"
{ printf '[global]\nnumjobs=4096\nrw=randwrite\nbs=4k\nsize=1m\n'
  for i in $(seq 10000); do printf '[j%d]\n' "$i"; done; } >"$j/many.fio"
printf '[a]\nnumjobs=4096\niodepth=65536\nrw=randwrite\nsize=1m\n[b]\nnumjobs=4096\niodepth=65536\nrw=randwrite\nsize=1m\n' >"$j/deep.fio"
printf '[w]\nrw=write\nnumjobs=4097\n' >"$j/numjobs.fio"
printf 'rw=write\n[w]\n' >"$j/before.fio"
printf '[w\nrw=write\n' >"$j/header.fio"
printf '; nothing but a comment\n' >"$j/empty.fio"

refuse "nul_mid.fio:5: found a NUL byte, expected text" run -d "$tlc" -j "$j/nul_mid.fio"
refuse --no-out "nul_mid.fio:5: found a NUL byte" check "$tlc" -j "$j/nul_mid.fio"
refuse "nul_first.fio:1: found a NUL byte" run -d "$tlc" -j "$j/nul_first.fio"
refuse "nul_last.fio:4: found a NUL byte" run -d "$tlc" -j "$j/nul_last.fio"
refuse "nul_in_value.fio:2: found a NUL byte" run -d "$tlc" -j "$j/nul_in_value.fio"
refuse "part.fio:2: found a NUL byte" run -d "$tlc" -j "$j/include.fio"
refuse "many.fio: setting up its 40960000 jobs (numjobs clones) needs about" run -d "$tlc" -j "$j/many.fio"
refuse --no-out "many.fio: setting up its 40960000 jobs" check "$tlc" -j "$j/many.fio"
FTLSIM_MEMORY_LIMIT=1GiB refuse "deep.fio: setting up its 8192 jobs (numjobs clones) needs about" run -d "$tlc" -j "$j/deep.fio"
refuse "numjobs.fio:3" run -d "$tlc" -j "$j/numjobs.fio"
refuse "before.fio:1: found \"rw=write\" before any section" run -d "$tlc" -j "$j/before.fio"
refuse "header.fio:1: found \"[w\", expected a section header" run -d "$tlc" -j "$j/header.fio"
refuse "empty.fio: found no job section" run -d "$tlc" -j "$j/empty.fio"

# ---- drives that cannot progress ----------------------------------------------
big="--set nand.blocks_per_plane=28 --set drive.user_capacity=1.968TB"
four="--set controller.channels=1 --set controller.ces_per_channel=4 --set nand.dies_per_ce=1 --set nand.blocks_per_plane=28 --set drive.user_capacity=20.5GB"
# shellcheck disable=SC2086 # the --set lists split into their words
{
refuse "[gc] soft_blocks = 8: the drive has 2 spare blocks per die" run -d "$p5336" $big --prefill 100%:random -w fill
refuse --no-out "2 of them held open for writing, which leaves none above hard_blocks = 2" check "$p5336" $big
refuse "[gc] soft_blocks = 2: the drive has 2 spare blocks per die" run -d "$p5336" $four --set gc.soft_blocks=2 --set gc.hard_blocks=1 --prefill 100%:random -w rw=randwrite,bs=4k,io_size=200m
refuse "[gc] soft_blocks = 4: expected at most 2: the drive has 4 spare blocks per die" run -d "$tlc" --set drive.user_capacity=1585446912B --prefill 100%:random -w rw=randwrite,bs=4k,io_size=50m
refuse "[gc] soft_blocks = 40: expected at most 15" run -d "$tlc" --set gc.soft_blocks=40 -w fill
refuse "4 of them held open for writing" run -d "$pslc" --set drive.user_capacity=1.57GB -w fill
refuse "3 of them held open for writing" run -d "$qlc" --set gc.soft_blocks=30 -w fill
refuse "[gc] soft_blocks = 4: expected at most 2" pts -d "$tlc" --set drive.user_capacity=1585446912B -t iops --round-time 10ms
refuse "[gc] soft_blocks = 4: expected at most 2" calibrate -d "$tlc" --set drive.user_capacity=1585446912B -w rw=write,size=64m --figure cliff_gb=0.01 --fit timing.tlc.t_prog=1ms..3ms
refuse "soft_blocks = 40: expected at most 15" run -d "$tlc" --vary gc.soft_blocks=4,40 -w fill
# --vary values that would break sweep.csv (a newline) or make one folder
# of two runs are refused before anything runs
refuse 'a value holds a control character (such as a newline); expected printable values' \
    run -d "$tlc" --vary $'drive.name=a\nb,c' -w rw=write,size=1m
refuse "two values make one folder name ('/' and '\\' become '_')" \
    run -d "$tlc" --vary 'drive.name=a/b,a_b' -w rw=write,size=1m
refuse "[gc] soft_blocks = 2: expected more than hard_blocks = 2" run -d "$tlc" --set gc.soft_blocks=2 --set gc.hard_blocks=2 -w fill
refuse "[pslc] static" run -d "$tlc" --set pslc.static=200MB -w fill
}

# ---- calibration input ----------------------------------------------------------
cal=(calibrate -d "$pslc" -w rw=write,bs=128k,iodepth=32,size=300m)
refuse '--fit "pslc.dynamic_cap=20..60": found "20" without a unit, expected sizes with units such as 20GB..60GB' "${cal[@]}" --figure cliff_gb=0.1 --fit pslc.dynamic_cap=20..60
refuse 'found "8" without a unit' "${cal[@]}" --figure cliff_gb=0.1 --fit host.write_buffer=1MiB..8
refuse 'found "20" without %, expected percentages such as 20%..60%' "${cal[@]}" --figure cliff_gb=0.1 --fit pslc.dynamic_share=20..60
refuse '--fit "pslc.dynamic_cap=30GB..30GB": LO is not below HI (both are 30GB), a range of one value; expected a wider range such as 20GB..60GB, or --set pslc.dynamic_cap=30GB' "${cal[@]}" --figure cliff_gb=0.1 --fit pslc.dynamic_cap=30GB..30GB
refuse 'a range of one value' "${cal[@]}" --figure cliff_gb=0.1 --fit pslc.dynamic_cap=1GB..1000MB
refuse 'a range of one value' "${cal[@]}" --figure cliff_gb=0.1 --fit timing.tlc.t_prog=2ms..2ms
refuse 'a range of one value; expected a wider range such as 100us..2ms, or the value in the workload itself' "${cal[@]}" --figure cliff_gb=0.1 --fit workload.thinktime=1ms..1ms
refuse '--figure cliff_gb: found 142 GB, beyond the 0.315 GB the workload writes at most' "${cal[@]}" --figure cliff_gb=142 --fit pslc.dynamic_cap=20MB..60MB
refuse '--figure rate@GB=0.2..0.4: found 0.4 GB, beyond the 0.315 GB' "${cal[@]}" --figure rate@GB=0.2..0.4=100 --fit pslc.dynamic_cap=20MB..60MB
refuse 'LO is not below HI; expected a range such as 20MB..60MB' "${cal[@]}" --figure cliff_gb=0.1 --fit pslc.dynamic_cap=60MB..20MB
refuse 'found "3..5", expected two values' "${cal[@]}" --figure cliff_gb=0.1 --fit timing.tlc.t_prog=3..5

# a fit that ends at a bound says so (a curve of the drive's own 100 MB
# SLC cache, fitted within 40 MB..80 MB), and still writes its results
n=$((n + 1))
"$bin" run -q -d "$pslc" -w rw=write,bs=128k,iodepth=32,size=300m --interval-bytes 20MB -o "$tmp/truth"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "GB,MBps"; next }
         { gb = $c["host_written_GB"]; printf "%.4f,%.2f\n", (gb + prev) / 2, $c["write_MBps"]; prev = gb }' \
    "$tmp/truth/series.csv" >"$tmp/curve.csv"
if (cd "$work" && "$bin" calibrate "${cal[@]:1}" --curve "$tmp/curve.csv" \
    --fit pslc.dynamic_cap=40MB..80MB --max-evals 8 -o "$tmp/bound") >/dev/null 2>"$tmp/bound.err"; then
    grep -q '^ftlsim: warning: --fit pslc.dynamic_cap ended at its upper bound 80MB' "$tmp/bound.err" ||
        fail "the fit at its bound: no warning ($(head -n 2 "$tmp/bound.err"))"
    [ -s "$tmp/bound/calibrated.ini" ] || fail "the fit at its bound wrote no calibrated.ini"
else
    fail "the fit at its bound: exit $? ($(head -n 2 "$tmp/bound.err"))"
fi
[ -z "$(find "$TMPDIR" -mindepth 1)" ] || fail "the calibration left $(find "$TMPDIR" -mindepth 1)"

finish "$n checks passed" "$fails of $n checks failed"
