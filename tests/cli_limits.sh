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
