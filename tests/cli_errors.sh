#!/usr/bin/env bash
# cli_errors.sh - bad input to `ftlsim run` gives exit 2, exactly one line on
# stderr naming what was wrong, nothing on stdout, and no results folder;
# a good run exits 0 and writes its files.
# Usage: bash tests/cli_errors.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

# --set overrides: the option and what was wrong with it.
expect_error "--set \"trim.polcy=deferred\": unknown key [trim] polcy" run -d "$drive" --set trim.polcy=deferred -w fill
expect_error "--set \"trim.policy=later\": expected one of immediate, deferred" run -d "$drive" --set trim.policy=later -w fill
expect_error "--set \"trimpolicy\": expected GROUP.KEY=VALUE" run -d "$drive" --set trimpolicy -w fill
expect_error "--set \"nand.page_size=16KB2\": expected" run -d "$drive" --set nand.page_size=16KB2 -w fill

# --vary sweeps: every combination is checked before a folder is made.
expect_error "--vary \"gc.policy\": expected GROUP.KEY=V1,V2" run -d "$drive" --vary gc.policy -w fill
# fewer spare blocks per die than gc.soft_blocks and the open blocks: a full drive would lock up
expect_error "configs/p5336-61tb.ini: [gc] soft_blocks = 8: the drive has 2 spare blocks per die" run -d configs/p5336-61tb.ini --set nand.blocks_per_plane=28 --set drive.user_capacity=1.968TB --prefill 100%:random -w fill
expect_error --no-out "configs/p5336-61tb.ini: [gc] soft_blocks = 8: the drive has 2 spare blocks per die" check configs/p5336-61tb.ini --set nand.blocks_per_plane=28 --set drive.user_capacity=1.968TB
expect_error "--vary gc.policy=best: --set \"gc.policy=best\": expected one of" run -d "$drive" --vary gc.policy=greedy,best -w fill
expect_error "--vary \"gc.policy=fifo\": the key is also given by --set" run -d "$drive" --set gc.policy=greedy --vary gc.policy=fifo -w fill
expect_error "--vary timing.tlc.t_prog=2ms,gc.policy=x: " run -d "$drive" --vary timing.tlc.t_prog=2ms,1ms --vary gc.policy=fifo,x -w fill
expect_error "--live does not go with --vary" run -d "$drive" --vary gc.policy=fifo --live -w fill
expect_error "--jobs goes with --vary" run -d "$drive" --jobs 2 -w fill
expect_error "--jobs: expected an integer from 1 to 256" run -d "$drive" --vary gc.policy=fifo --jobs 0 -w fill

# Malformed drive configs: the file, then the group and key or the line.
expect_error "bad_bool.ini: [timing.tlc] one_shot = \"maybe\": expected" run -d tests/data/bad_configs/bad_bool.ini -w fill
expect_error "bad_enum.ini: [host] interface = \"usb\": expected one of sata, nvme" run -d tests/data/bad_configs/bad_enum.ini -w fill
expect_error "bad_size.ini: [nand] page_size = \"16KB2\": expected" run -d tests/data/bad_configs/bad_size.ini -w fill
expect_error "bad_time.ini: [timing.tlc] t_prog = \"2.6mss\": expected" run -d tests/data/bad_configs/bad_time.ini -w fill
expect_error "gc_soft_not_above_hard.ini: [gc] soft_blocks = 2: expected more than" run -d tests/data/bad_configs/gc_soft_not_above_hard.ini -w fill
expect_error "map_unit_not_pow2.ini: [ftl] map_unit = 12KiB: expected 4KiB times a power of two" run -d tests/data/bad_configs/map_unit_not_pow2.ini -w fill
expect_error "map_unit_too_big.ini: [ftl] map_unit = \"128KiB\": expected a size from 4KiB to 64KiB" run -d tests/data/bad_configs/map_unit_too_big.ini -w fill
expect_error "hmb_without_cache.ini: [controller] l2p_cache = 0:" run -d tests/data/bad_configs/hmb_without_cache.ini -w fill
expect_error "int_range.ini: [host] pcie_gen = \"6\": expected an integer from 1 to 5" run -d tests/data/bad_configs/int_range.ini -w fill
expect_error "key_before_group.ini:1:" run -d tests/data/bad_configs/key_before_group.ini -w fill
expect_error "missing_required.ini: [drive] user_capacity: missing, expected" run -d tests/data/bad_configs/missing_required.ini -w fill
expect_error "native_timing_missing.ini: [timing.qlc] t_read: missing" run -d tests/data/bad_configs/native_timing_missing.ini -w fill
expect_error "page_size_not_4k.ini: [nand] page_size = 6kB: expected a multiple of 4KiB" run -d tests/data/bad_configs/page_size_not_4k.ini -w fill
expect_error "pages_not_multiple.ini: [nand] pages_per_block = 1000: expected a multiple of 3" run -d tests/data/bad_configs/pages_not_multiple.ini -w fill
expect_error "percent_range.ini: [pslc] dynamic_share = \"120%\": expected" run -d tests/data/bad_configs/percent_range.ini -w fill
expect_error "pslc_static_too_big.ini: [pslc] static = 500MB:" run -d tests/data/bad_configs/pslc_static_too_big.ini -w fill
expect_error "raw_below_user.ini: [drive] user_capacity = 4GB: expected" run -d tests/data/bad_configs/raw_below_user.ini -w fill
expect_error "repeated_key.ini:19: [nand] planes: key repeated" run -d tests/data/bad_configs/repeated_key.ini -w fill
expect_error "syntax_line.ini:16:" run -d tests/data/bad_configs/syntax_line.ini -w fill
expect_error "time_no_unit.ini: [timing.slc] t_read = \"25\": expected a time with a unit" run -d tests/data/bad_configs/time_no_unit.ini -w fill
expect_error "unknown_group.ini: [nandd]: unknown group" run -d tests/data/bad_configs/unknown_group.ini -w fill
expect_error "unknown_key.ini: [nand] pages_per_blok: unknown key" run -d tests/data/bad_configs/unknown_key.ini -w fill
expect_error "unknown_key_far.ini: [controller] channel_speed: unknown key" run -d tests/data/bad_configs/unknown_key_far.ini -w fill
expect_error "does_not_exist.ini" run -d "$tmp/does_not_exist.ini" -w fill

# Workload specs and job files.
expect_error "option \"rw\": found \"bogus\", expected read, write" run -d $drive -w rw=bogus
expect_error "no_such_workload" run -d $drive -w no_such_workload
expect_error "bad_option.fio:7: option \"exec_prerun\": not supported" run -d $drive -j tests/data/jobs/bad_option.fio
expect_error "bad_value.fio:3: option \"iodepth\": found \"0\", expected an integer" run -d $drive -j tests/data/jobs/bad_value.fio
expect_error "no_section.fio:2: found \"rw=write\" before any section" run -d $drive -j tests/data/jobs/no_section.fio
expect_error "give only one of --workload, --job and --trace" run -d $drive -w fill -j tests/data/jobs/basic.fio
expect_error "no workload" run -d $drive

# Traces: a malformed line, an unknown format, addresses beyond the drive.
printf '0 0 0 8 0\n1000 0 8 8 1\n2000 0 x 8 0\n' >"$tmp/bad.trace"
expect_error "bad.trace:3: field" run -d $drive -t "$tmp/bad.trace" --trace-format mqsim
expect_error "unknown trace format \"nosuch\"" run -d $drive -t traces/mqsim_wsrch-small.trace --trace-format nosuch
printf "Timestamp,Hostname,DiskNumber\nnot,a,trace\n" >"$tmp/header.csv"
expect_error "after the header line \"Timestamp,Hostname,DiskNumber\"" run -d $drive -t "$tmp/header.csv"
printf '0 0 999999999999 8 0\n' >"$tmp/far.trace"
expect_error "ends beyond the drive capacity" run -d $drive -t "$tmp/far.trace" --trace-format mqsim

# Option values.
expect_error "--interval \"soon\": expected a duration" run -d $drive -w fill --interval soon
expect_error "--interval-bytes \"lots\": expected a size" run -d $drive -w fill --interval-bytes lots
expect_error "--lba-map \"fold\": expected one of error, wrap, scale" run -d $drive -w fill --lba-map fold
expect_error "--replay \"later\": expected one of open, closed" run -d $drive -w fill --replay later
expect_error "--blk-events \"X\": expected one of auto, Q, D" run -d $drive -w fill --blk-events X
expect_error "--plot-format \"gif\": expected one of png, svg" run -d $drive -w fill --plot-format gif
expect_error "--max-idle \"1parsec\": expected a duration" run -d $drive -w fill --max-idle 1parsec
expect_error "--interval must be greater than 0" run -d $drive -w fill --interval 0s
expect_error "--prefill \"lots\": found \"lots\", expected a fill" run -d $drive -w fill --prefill lots
expect_error "--prefill \"101%\": found 101%, expected a fill from 0% to 100%" run -d $drive -w fill --prefill 101%
expect_error "--prefill \"50%:sideways\": found \"sideways\", expected random or slc=SIZE" run -d $drive -w fill --prefill 50%:sideways
expect_error "--prefill \"50%:slc=1GB\": found room for 0.000 GB in the pSLC cache" run -d $drive -w fill --prefill 50%:slc=1GB
expect_error "run needs --drive FILE" run -w fill
# The options every command shares are read and checked in one place: the
# same message from each command that has them.
for cmd in pts plot sweep; do
    case $cmd in
    pts) args=(pts -d "$drive" -t iops -o "$tmp/pts-fmt") ;;
    plot) args=(plot "$tmp" -o "$tmp/overlay.png") ;;
    sweep) args=(sweep collect "$tmp") ;;
    esac
    expect_error --no-out "--plot-format \"gif\": expected one of png, svg" "${args[@]}" --plot-format gif
done
expect_error "--seed -3: expected an integer from 0 to" pts -d "$drive" -t iops --seed -3
expect_error "--seed -3: expected an integer from 0 to" calibrate -d "$drive" -w fill --figure cliff_gb=1 --fit pslc.dynamic_cap=1MB..2MB --seed -3
expect_error --no-out "--out \"\": expected the name of a results folder" pts -d "$drive" -t iops --out ""
expect_error "pts needs --drive FILE" pts -t iops
expect_error "emulate needs --drive FILE" emulate -o "$tmp/emu" "$tmp"
# A drive named as `ftlsim drives` lists it is found by every command.
for cmd in "pts -t iops" "calibrate -w fill --figure cliff_gb=1 --fit pslc.dynamic_cap=1MB..2MB -o $tmp/cal-dry" "check" "run -w fill"; do
    # shellcheck disable=SC2086 # the command and its options
    if ! "$bin" ${cmd%% *} -d 860evo ${cmd#* } --dry-run >"$tmp/named.out" 2>&1; then
        [ "$cmd" = check ] && "$bin" check -d 860evo >"$tmp/named.out" 2>&1 && continue
        fail "${cmd%% *} -d 860evo: the drive name was not found in configs/: $(head -c 300 "$tmp/named.out")"
    fi
done
expect_error "run takes no positional arguments" run -d $drive -w fill extra
# --dry-run refuses the results folder the real command would refuse: an
# existing folder with files in it (without --force) or a file; with --force
# it passes, and nothing is made or changed.
mkdir -p "$tmp/dry-full" && echo kept >"$tmp/dry-full/notes.txt" && echo kept >"$tmp/dry-file"
for cmd in "run -w fill" "pts -t iops" "calibrate -w fill --figure cliff_gb=1 --fit pslc.dynamic_cap=1MB..2MB"; do
    # shellcheck disable=SC2086 # the command and its options
    expect_error --no-out "$tmp/dry-full: exists; use --force to overwrite" ${cmd%% *} -d $drive ${cmd#* } --dry-run -o "$tmp/dry-full"
    # shellcheck disable=SC2086
    expect_error --no-out "$tmp/dry-file: exists and is not a folder" ${cmd%% *} -d $drive ${cmd#* } --dry-run -o "$tmp/dry-file"
    # shellcheck disable=SC2086
    "$bin" ${cmd%% *} -d $drive ${cmd#* } --dry-run --force -o "$tmp/dry-full" >/dev/null 2>&1 ||
        fail "${cmd%% *} --dry-run --force refused a folder it may overwrite"
    # shellcheck disable=SC2086
    "$bin" ${cmd%% *} -d $drive ${cmd#* } --dry-run -o "$tmp/dry-new" >/dev/null 2>&1 ||
        fail "${cmd%% *} --dry-run refused a new folder"
    [ -e "$tmp/dry-new" ] && fail "${cmd%% *} --dry-run made its results folder"
done
[ "$(ls -A "$tmp/dry-full")" = notes.txt ] && [ "$(cat "$tmp/dry-file")" = kept ] ||
    fail "--dry-run changed the folder or the file it was given"

# A good run exits 0, prints nothing with -q, and writes its files.
good="$tmp/good"
if ! "$bin" run -q -d $drive -w 'rw=randwrite,bs=4k,iodepth=8,io_size=8m' --prefill 50%:random \
    -o "$good" >"$tmp/stdout" 2>"$tmp/stderr"; then
    fail "a good run failed:"
    cat "$tmp/stderr" >&2
else
    if [ -s "$tmp/stdout" ] || [ -s "$tmp/stderr" ]; then
        fail "a good run with -q printed something"
    fi
    for f in summary.json summary.txt series.csv phases.csv latency_read.csv latency_write.csv; do
        [ -s "$good/$f" ] || fail "a good run did not write $f"
    done
    grep -q '"prefill": "50%:random"' "$good/summary.json" || fail "summary.json does not record the prefill"
    # --set changes the drive for one run; the resolved config records it.
    "$bin" run -q -d $drive --set gc.soft_blocks=9 -w 'rw=write,bs=128k,io_size=1m' \
        -o "$tmp/set" >"$tmp/stdout" 2>"$tmp/stderr" &&
        grep -q '"soft_blocks": 9,' "$tmp/set/summary.json" ||
        fail "a run with --set gc.soft_blocks=9 does not record it"
    # The folder exists now: without --force it is bad input and stays untouched.
    before=$(ls -l --time-style=+%s.%N "$good" | md5sum)
    "$bin" run -q -d $drive -w 'rw=write,bs=128k,io_size=1m' -o "$good" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/stderr")" -ne 1 ] || ! grep -q -- "--force" "$tmp/stderr" ||
        [ "$(ls -l --time-style=+%s.%N "$good" | md5sum)" != "$before" ]; then
        fail "an existing results folder without --force: exit $rc, stderr:"
        cat "$tmp/stderr" >&2
    fi
fi
n=$((n + 1))

finish "$n checks passed" "$fails of $n checks failed"
