#!/usr/bin/env bash
# cli_zbd.sh - fio's zonemode=zbd on the ZN540 cut down to 64 zones of
# 64 MiB (48 MiB writable), every run with the drive's checks (zns_check
# among them) every 500 events: random writes over at most 4 open zones
# (no write off its write pointer, never more zones open), resets past
# zone_reset_threshold and trims as resets counted alike by the jobs and
# the drive, reads kept to written data, Zone Append, the drive's refusal
# of a zone beyond its active limit counted and the run still done, and
# what fio refuses refused with one line. A trace's zone actions (open,
# close, finish, reset) reach the drive, each counted with its latency in
# summary.json and summary.txt: a finish programs the zone's buffered data
# (a program's time), an open or close takes only firmware time.
# Usage: bash tests/cli_zbd.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=configs/zn540.ini
small=(--set zns.zone_size=64MiB --set zns.zone_capacity=48MiB --set drive.user_capacity=4GiB)

# zbd NAME JOBTEXT: run the job; its summary.json in $tmp/NAME
zbd() {
    printf '%s\n' "$2" >"$tmp/$1.fio"
    "$bin" run -d "$drive" "${small[@]}" --job "$tmp/$1.fio" --check-every 500 -o "$tmp/$1" -q \
        >"$tmp/$1.log" 2>&1 || fail "$1: exit $? ($(head -n 3 "$tmp/$1.log"))"
}
# check NAME EXPR: a Python expression over s (summary.json), jobs and zns
check() {
    n=$((n + 1))
    local why
    why=$(python3 - "$tmp/$1/summary.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); jobs = s["jobs"]; zns = s["zns"]
print("ok" if eval(sys.argv[2]) else "no")
PY
)
    [ "$why" = ok ] || fail "$1: expected $2"
}

zbd rand "[w]
zonemode=zbd
rw=randwrite
bs=128k
iodepth=4
numjobs=3
max_open_zones=4
size=32z
time_based
runtime=200ms"
check rand 'sum(j["write"]["ios"] for j in jobs) > 100'
check rand 'sum(zns["errors"].values()) == 0'                  # every write at its write pointer
check rand 'all(j["zbd"]["open_zones_peak"] == 4 for j in jobs)' # the limit reached, never passed
check rand 'zns["by_state"]["implicit_open"] <= 4'

zbd reset "[w]
zonemode=zbd
rw=randwrite
bs=1m
size=8z
zone_reset_threshold=0.7
zone_reset_frequency=0.125
time_based
runtime=1s"
check reset 'jobs[0]["zbd"]["zone_resets"] > 5'
check reset 'jobs[0]["zbd"]["emulated"] is False and jobs[0]["zbd"]["zone_size_bytes"] == 64 << 20'
check reset 'zns["commands"]["reset"] == jobs[0]["zbd"]["zone_resets"]'
check reset 'sum(zns["errors"].values()) == 0'

zbd trim "[fill]
zonemode=zbd
rw=write
bs=1m
size=6z
[trim]
stonewall
zonemode=zbd
rw=randtrim
bs=64m
size=6z
number_ios=4"
check trim 'jobs[1]["trim"]["ios"] == 4 and jobs[1]["zbd"]["zone_resets"] == 4'
check trim 'zns["commands"]["reset"] == 4 and zns["by_state"]["empty"] == 64 - 2'

zbd read "[w]
zonemode=zbd
rw=write
bs=1m
size=1z
io_size=20m
[r]
stonewall
zonemode=zbd
rw=read
bs=256k
size=4z"
check read 'jobs[1]["read"]["bytes"] == 20 * 2**20' # what was written, no more

zbd append "[a]
zonemode=zbd
zone_append=1
rw=write
bs=128k
iodepth=16
size=4z
io_size=300m"
check append 'zns["commands"]["append"] > 0 and zns["commands"]["write"] == 0'
check append 'sum(zns["errors"].values()) == 0 and zns["commands"]["reset"] > 0'

zbd limits "[w]
zonemode=zbd
rw=randwrite
bs=128k
max_open_zones=20
ignore_zone_limits=1
size=32z
time_based
runtime=100ms"
check limits 'zns["errors"]["too_many_active_zones"] == 1 and jobs[0]["zbd"]["errors"] == 1'

# Small random writes over 8 zones beside a sequential writer that resets
# each zone it comes back to, with over a hundred blocks reclaimed by GC:
# blocks come and go from the dead stacks under the
# checks. A closed placement stream once stacked a block a second time
# when GC had erased it as a victim while it waited there ("blocks flagged
# dead, ... stacked").
printf '%s\n' "[global]
iodepth=16
flow_id=1
zonemode=zbd
job_max_open_zones=7
[soc]
rw=randwrite
bs=4k
offset=0
size=8z
io_size=5000m
flow=64
[loc]
rw=write
bs=256k
offset=8z
size=56z
io_size=5000m
flow=1" >"$tmp/churn.fio"
"$bin" run -d "$drive" --set nand.pages_per_block=288 --set nand.blocks_per_plane=96 \
    --set controller.channels=4 --set controller.ces_per_channel=2 --set drive.user_capacity=4GiB \
    --set zns.zone_size=64MiB --set zns.zone_capacity=64MiB --job "$tmp/churn.fio" \
    --check-every 20000 -o "$tmp/churn" -q >"$tmp/churn.log" 2>&1 ||
    fail "churn: exit $? ($(head -n 3 "$tmp/churn.log"))"
check churn 's["nand"]["gc_blocks"] > 100 and sum(zns["errors"].values()) == 0'

job() { printf '%s\n' "$2" >"$tmp/$1.fio"; }
job badsize "[w]
zonemode=zbd
zonesize=256m
rw=write"
expect_error 'does not match disk zone size' run -d "$drive" --job "$tmp/badsize.fio"
job badopen "[w]
zonemode=zbd
max_open_zones=32
rw=randwrite"
expect_error 'expected at most the drive'"'"'s 14 open zones' run -d "$drive" --job "$tmp/badopen.fio"
expect_error 'Specifying the zone size is mandatory' run -d tests/data/drives/small_tlc.ini --job "$tmp/badopen.fio"
job badtrim "[w]
zonemode=zbd
rw=trim
bs=1m"
expect_error 'expected the zone size' run -d "$drive" --job "$tmp/badtrim.fio"
job small "[w]
zonemode=zbd
rw=write
size=1g"
expect_error 'expected at least one whole zone' run -d "$drive" --job "$tmp/small.fio"
job nz "[w]
rw=write
size=2z"
expect_error 'expected zonemode=zbd as well' run -d "$drive" --job "$tmp/nz.fio"
# the drive's own rules for zones: every die holds each zone's blocks
# besides the GC reserve and one more; no static wear leveling; at most
# 65535 zones
expect_error --no-out "configs/zn540.ini: [zns] zone_capacity = 1077MiB: the 904 zones take 1 block each on every die, 909 with the GC reserve ([gc] soft_blocks) and one more, expected at most the die's 908 ([nand] blocks_per_plane)" check configs/zn540.ini --set nand.blocks_per_plane=908
expect_error --no-out "configs/zn540.ini: [wear] static_threshold = 100: expected 0 on a zoned drive" check configs/zn540.ini --set wear.static_threshold=100
expect_error --no-out "configs/zn540.ini: [zns] zone_size = 16MiB: found 115712 zones, expected at most 65535" check configs/zn540.ini --set zns.zone_size=16MiB --set zns.zone_capacity=8MiB

# Zones emulated on a drive without them (fio's ZBD_NONE): random writes
# at QD 4 over two open zones of 1 MiB (768 KiB writable), each at its
# zone's write pointer as the host keeps it, a full zone reset by the
# host alone, never more than two zones open.
printf '%s\n' "[w]
zonemode=zbd
zonesize=1m
zonecapacity=768k
max_open_zones=2
rw=randwrite
bs=16k
iodepth=4
size=16m
write_iolog=emu.iolog
time_based
runtime=50ms" >"$tmp/emu.fio"
"$bin" run -d tests/data/drives/small_tlc.ini --job "$tmp/emu.fio" --check-every 500 -o "$tmp/emu" -q \
    >"$tmp/emu.log" 2>&1 || fail "emu: exit $? ($(head -n 3 "$tmp/emu.log"))"
check_emu() {
    n=$((n + 1))
    python3 - "$tmp/emu/emu.iolog" "$tmp/emu/summary.json" <<'PY' || fail "emu: a write off its zone's write pointer"
import json, sys
ZS, CAP = 1 << 20, 768 << 10
wp, part, writes, resets = {}, set(), 0, 0
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) != 5 or p[2] != "write":
        continue
    off, ln = int(p[3]), int(p[4])
    k, at = off // ZS, off % ZS
    if at == 0 and wp.get(k, 0) == CAP:
        wp[k] = 0                           # full: reset by the host
        resets += 1
    assert at == wp.get(k, 0), (off, wp.get(k, 0))
    assert at + ln <= CAP and off < 16 << 20, (off, ln)
    wp[k] = at + ln
    part = {z for z in part | {k} if 0 < wp[z] < CAP}
    assert len(part) <= 2, part              # never more than two zones open
    writes += 1
j = json.load(open(sys.argv[2]))["jobs"][0]
assert writes > 500 and resets > 0 and j["write"]["ios"] == writes, (writes, resets)
assert j["zbd"]["open_zones_peak"] == 2 and j["zbd"]["zone_resets"] == resets, j["zbd"]
assert j["zbd"]["emulated"] is True and j["zbd"]["zone_size_bytes"] == ZS and j["zbd"]["zone_capacity_bytes"] == CAP, j["zbd"]
PY
}
check_emu
job emucap "[w]
zonemode=zbd
zonesize=1m
zonecapacity=2m
rw=write"
expect_error 'job parameter zonecapacity 2097152 is larger than zone size 1048576' \
    run -d tests/data/drives/small_tlc.ini --job "$tmp/emucap.fio"
# A plain job (no zonemode=zbd) on the zoned drive: the writes the drive
# refuses (off the write pointer) are counted as errors, not as written, and
# the job stops at the first, as fio's does on an I/O error.
zbd plain "[p]
rw=randwrite
bs=4k
size=16m"
check plain 'jobs[0]["write"]["bytes"] == s["host"]["write_bytes"] and jobs[0]["errors"] >= 1'
check plain 'jobs[0]["write"]["ios"] == s["host"]["write_ios"] < 4096'

# zone actions from an fio iolog: two zones opened, written (less than a
# program unit left buffered), closed, finished and reset
{
    echo "fio version 3 iolog"
    echo "0 zn add"
    for k in 0 1; do
        z=$((k * 64 * 1024 * 1024))
        echo "$((k * 10000 + 1)) zn zone_open $z"
        for i in 0 1 2; do echo "$((k * 10000 + 2 + i)) zn write $((z + i * 16384)) 16384"; done
        echo "$((k * 10000 + 10)) zn zone_close $z"
        echo "$((k * 10000 + 20)) zn zone_finish $z"
        echo "$((k * 10000 + 5000)) zn zone_reset $z"
    done
} >"$tmp/za.iolog"
"$bin" run -d "$drive" "${small[@]}" --trace "$tmp/za.iolog" --check-every 50 -o "$tmp/za" -q >"$tmp/za.log" 2>&1 ||
    fail "zone actions: exit $? ($(head -n 3 "$tmp/za.log"))"
t_prog_us=$(awk '/^\[/ { tlc = $0 == "[timing.tlc]" } tlc && /^t_prog = [0-9.]+ms$/ { sub(/ms$/, "", $3); print $3 * 1000 }' "$drive")
check za 'all(zns["latency_us"][a]["count"] == 2 and zns["commands"][a] == 2 for a in ("open", "close", "finish", "reset"))'
check za "zns['latency_us']['finish']['p50'] >= $t_prog_us > 10 * zns['latency_us']['close']['max']"
check za 'zns["latency_us"]["open"]["max"] < 100 and zns["by_state"]["empty"] == zns["zones"]'
grep -q '^          finish  2 done, latency us: mean' "$tmp/za/summary.txt" || fail "zone actions: no finish line in summary.txt"
printf 'fio version 3 iolog\n0 zn add\n1 zn zone_reset 0\n' >"$tmp/zr.iolog"
expect_error "zr.iolog:3: a zone action at offset 0, expected a zoned drive ([zns])" \
    run -d configs/990.ini --trace "$tmp/zr.iolog" -q

finish "$n checks"
