#!/usr/bin/env bash
# cli_limits.sh - values the checks accepted and the run then died on:
# each is refused up front with one line naming the key or option (exit 2,
# nothing left), or runs. Zones that need more blocks than a zone can own,
# an open-zone limit lifted to 2^32 - 1, a host queue of 65535 x 65535
# commands, a drive bigger than the address-space limit leaves. And files
# that would block: a FIFO nobody writes to, named as a trace, a job file,
# a read_iolog, a drive or a drive in a listed folder, is refused, never
# waited on (every command here runs under timeout).
# Usage: bash tests/cli_limits.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
tlc=tests/data/drives/small_tlc.ini
zn=configs/zn540.ini
small=(--set zns.zone_size=8MiB --set zns.zone_capacity=6MiB --set drive.user_capacity=128MiB
    --set nand.blocks_per_plane=24)

# One zone of 400 GiB takes 356 blocks on each of the 32 dies: a zone
# counts its blocks in a byte (it aborted in zns_init).
expect_error "[zns] zone_capacity = 400GiB: a zone takes 356 blocks on every die, expected at most 255" \
    run -d "$zn" --set drive.user_capacity=512GiB --set zns.zone_size=512GiB \
    --set zns.zone_capacity=400GiB -w 'rw=write,size=1m'

# max_open_zones=4294967295 with ignore_zone_limits=1 allocated a slot per
# zone the limit allows (16 GiB): no more zones open than there are, on a
# zoned drive and on zones the host emulates.
n=$((n + 1))
"$bin" run -q -d "$zn" "${small[@]}" --max-time 20ms -o "$tmp/mo" \
    -w 'zonemode=zbd,rw=randwrite,bs=64k,max_open_zones=4294967295,ignore_zone_limits=1' ||
    fail "max_open_zones=4294967295 on a zoned drive: exit $?"
n=$((n + 1))
"$bin" run -q -d "$tlc" --max-time 20ms -o "$tmp/moe" \
    -w 'zonemode=zbd,zonesize=4m,rw=randwrite,bs=64k,max_open_zones=4294967295,ignore_zone_limits=1' ||
    fail "max_open_zones=4294967295 on emulated zones: exit $?"

# 65535 queues of 65535 commands: a 481 GB command table.
expect_error "[host] queue_count = 65535: queue_depth x queue_count is 4294836225 commands outstanding, expected at most 1048576" \
    run -d "$zn" --set host.queue_depth=65535 --set host.queue_count=65535 -w 'rw=write,size=1m'
expect_error --no-out "[host] queue_count = 65535" check "$zn" --set host.queue_depth=65535 --set host.queue_count=65535

# A random prefill of the 860 PRO under a 1 GiB address-space limit: the
# estimate (about 1 GiB) is held to what ulimit -v leaves, not to the
# machine's memory (it died in the map's allocation).
n=$((n + 1))
(ulimit -v 1048576 && exec "$bin" run -d configs/860pro.ini --prefill 90%:random -w 'rw=write,size=1m' \
    -o "$tmp/as") >"$tmp/as.out" 2>"$tmp/as.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/as.err")" -eq 1 ] && [ ! -e "$tmp/as" ] &&
    grep -q "860pro.ini: simulating this drive needs about .* available (the address-space limit, ulimit -v)" "$tmp/as.err" ||
    fail "ulimit -v 1 GiB, random prefill: exit $rc, $(head -c 300 "$tmp/as.err")"

# FDP configs GC cannot work with, refused before the run. On a cut
# PM9D3a (100 blocks of 6 MiB per die) 8 handles' reclaim units of 400
# blocks, with GC by reclaim unit, need more blocks than the group has
# beside its GC reserve: no unit completes (the run stalled). And 128
# handles on the stock drive keep 129 blocks open on every die, more than
# its 115 spare blocks less hard_blocks (the run stopped, "cannot make
# progress"). The stock 8-handle drive, with either GC unit, is accepted.
fdp=configs/pm9d3a-fdp.ini
cut=(--set nand.pages_per_block=96 --set nand.blocks_per_plane=100 --set drive.user_capacity=17GB)
expect_error "[fdp] ru_size = 2400MiB: the reclaim group's 9 open reclaim units (8 for host data, 1 for GC's copies) of 400 blocks need 3600 blocks, more than the 3136 its 32 dies have beside [gc] hard_blocks = 2, so no unit could be completed for GC to reclaim; expected at most 2088MiB" \
    run -d $fdp "${cut[@]}" --set fdp.gc_unit=reclaim_unit --set fdp.ru_size=2400MiB \
    -w 'rw=randwrite,bs=64k,fdp=1,io_size=1g'
expect_error --no-out "[fdp] ru_size = 232488MiB" check $fdp --set fdp.gc_unit=reclaim_unit \
    --set fdp.ru_size=232488MiB
expect_error "[fdp] handles = 128: each die holds up to 129 blocks open (128 for host data, 1 for GC's copies) and [gc] hard_blocks = 2 free" \
    run -d $fdp --set fdp.handles=128 -w 'rw=randwrite,bs=64k,fdp=1,io_size=1g'
expect_error --no-out "expected fewer handles or more spare blocks (at most 113 open blocks per die)" \
    check $fdp --set fdp.handles=64 --set fdp.isolation=persistent
for a in "" "--set fdp.gc_unit=reclaim_unit" "--set fdp.handles=112"; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # the options split on purpose
    "$bin" check $fdp $a >/dev/null 2>"$tmp/fdp.err" ||
        fail "the stock FDP drive ($a) refused: $(head -c 300 "$tmp/fdp.err")"
done

# FIFOs: each command runs under a timeout (exit 124 fails the check).
real=$bin
bin=$tmp/bounded
printf '#!/bin/sh\nexec timeout 30 "%s" "$@"\n' "$real" >"$bin"
chmod +x "$bin"
mkfifo "$tmp/f.trace" "$tmp/f.fio" "$tmp/f.ini"
nobody="a FIFO (named pipe) that nobody writes to, found nothing in it"
expect_error "f.trace: $nobody; expected a trace" run -d "$tlc" -t "$tmp/f.trace"
expect_error "f.fio: $nobody; expected a job file" run -d "$tlc" -j "$tmp/f.fio"
expect_error "option \"read_iolog\": $tmp/f.trace: $nobody" run -d "$tlc" -w "rw=read,read_iolog=$tmp/f.trace"
expect_error "f.ini: $nobody; expected a drive file" run -d "$tmp/f.ini" -w 'rw=write,size=1m'
mkdir "$tmp/cfg"
cp "$tlc" "$tmp/cfg/mine.ini"
mv "$tmp/f.ini" "$tmp/cfg/pipe.ini"
n=$((n + 1))
"$bin" drives "$tmp/cfg" >"$tmp/drives.out" 2>&1 || fail "drives with a FIFO: exit $?"
grep -q "^pipe.ini  *error: .*pipe.ini: $nobody" "$tmp/drives.out" && grep -q '^mine.ini .* ok$' "$tmp/drives.out" ||
    fail "drives with a FIFO: $(cat "$tmp/drives.out")"
n=$((n + 1))
(cd "$tmp" && FTLSIM_CONFIG_PATH="$tmp/cfg" "$bin" check pipe >/dev/null 2>"$tmp/pipe.err")
rc=$?
[ "$rc" -eq 2 ] || fail "check pipe from FTLSIM_CONFIG_PATH: exit $rc, $(cat "$tmp/pipe.err")"
# A pipe with a writer is read as it comes.
n=$((n + 1))
"$bin" run -q -d "$tlc" -j <(printf '[w]\nrw=write\nsize=1m\n') -o "$tmp/piped" || fail "a job file from a pipe: exit $?"

finish "$n checks passed"
