#!/usr/bin/env bash
# cli_limits.sh - values the checks accepted and the run then died on:
# each is refused up front with one line naming the key or option (exit 2,
# nothing left), or runs. Zones that need more blocks than a zone can own,
# an open-zone limit lifted to 2^32 - 1, a host queue of 65535 x 65535
# commands, a drive bigger than the address-space limit leaves.
# Usage: bash tests/cli_limits.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
tlc=tests/data/drives/small_tlc.ini
zn=configs/zn540.ini
small=(--set zns.zone_size=8MiB --set zns.zone_capacity=6MiB --set drive.user_capacity=128MiB
    --set nand.blocks_per_plane=24)

# One zone of 200 GiB takes 356 blocks on each die: a zone counts its
# blocks in a byte (it aborted in zns_init).
expect_error "[zns] zone_capacity = 200GiB: a zone takes 356 blocks on every die, expected at most 255" \
    run -d "$zn" --set drive.user_capacity=256GiB --set zns.zone_size=256GiB \
    --set zns.zone_capacity=200GiB -w 'rw=write,size=1m'

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

finish "$n checks passed"
