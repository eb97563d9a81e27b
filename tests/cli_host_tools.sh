#!/usr/bin/env bash
# cli_host_tools.sh - the host side of a workload (docs/host-tools.md): a
# bandwidth cap (fio's rate) gives that throughput on a drive faster than
# it; a per-command host cost (fio's thinktime) lowers QD 1 IOPS to
# 1 / (latency + cost), computed from the run without it; the tool
# profiles in tools/ run, refuse to run without their host parameters, and
# write their file-system metadata in proportion; calibrate fits a host
# parameter of a job file (--fit env.NAME) back from a figure the
# simulator made at a known value.
# Usage: bash tests/cli_host_tools.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
# jq-free: one number out of summary.json by a Python expression over s
val() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"; }
# near A B TOL: |A/B - 1| <= TOL
near() { python3 -c "import sys; a,b,t=map(float,sys.argv[1:]); sys.exit(abs(a/b-1)>t)" "$1" "$2" "$3"; }

fast=configs/970evoplus.ini # NVMe, ~3 GB/s of sequential writes into pSLC

# 1. A cap of 500 MiB/s on 1 MiB writes at QD 8: the host moves 500 MiB/s.
"$bin" run -q -d $fast -w 'rw=write,bs=1m,iodepth=8,size=2g' -o "$tmp/free" || fail "uncapped run"
"$bin" run -q -d $fast -w 'rw=write,bs=1m,iodepth=8,size=2g,rate=500m' -o "$tmp/cap" || fail "capped run"
free=$(val "$tmp/free" "s['jobs'][0]['write']['MBps']")
cap=$(val "$tmp/cap" "s['jobs'][0]['write']['MBps']")
near "$cap" 524.288 0.01 || fail "rate=500m gave $cap MB/s, expected 524.3 (500 MiB/s)"
python3 -c "import sys; sys.exit(not float(sys.argv[1]) > 2 * 524.288)" "$free" ||
    fail "the drive alone writes $free MB/s: not fast enough for the cap to be the limit"

# 2. QD 1 random 4 KiB reads; a 100 us host cost per command:
#    IOPS = 1e6 / (mean latency in us + 100).
wl='rw=randread,bs=4k,iodepth=1,size=1g,number_ios=2000'
"$bin" run -q -d $fast --prefill 10% -w "$wl" -o "$tmp/qd1" || fail "QD 1 run"
"$bin" run -q -d $fast --prefill 10% -w "$wl,thinktime=100us" -o "$tmp/think" || fail "thinktime run"
lat=$(val "$tmp/qd1" "s['jobs'][0]['read']['lat_us']['mean']")
iops=$(val "$tmp/think" "s['jobs'][0]['read']['iops']")
want=$(python3 -c "print(1e6 / ($lat + 100))")
near "$iops" "$want" 0.01 || fail "thinktime=100us gave $iops IOPS, expected $want (latency $lat us)"

# 3. The profiles: refused without their host parameters (one line, exit
#    2), run with them; H2testw's metadata writes are 1 per 100 data writes.
expect_error '${H2TESTW_THINKTIME} is not set' run -q -d $fast --job tools/h2testw.fio --max-time 1s
H2TESTW_THINKTIME=0 H2TESTW_RATE=0 "$bin" run -q -d $fast --job tools/h2testw.fio --max-time 2s \
    -o "$tmp/h2" || fail "h2testw.fio"
ratio=$(val "$tmp/h2" "s['jobs'][0]['write']['ios'] / s['jobs'][1]['write']['ios']")
near "$ratio" 100 0.05 || fail "h2testw.fio: $ratio data writes per metadata write, expected 100"
CDM_SIZE=1g CDM_CMD_RATE=0 "$bin" run -q -d $fast --job tools/cdm.fio --max-time 3s \
    -o "$tmp/cdm" || fail "cdm.fio"
ATTO_CMD_RATE=0 "$bin" run -q -d $fast --job tools/atto.fio --max-time 1s -o "$tmp/atto" ||
    fail "atto.fio"

# 4. calibrate --fit env.NAME: a job file's host cost fitted back within 5%
#    from the run time the simulator gave at 300 us (128 MiB of QD 1 4 KiB
#    writes: ~10 s, so the 0.1 s steps of the run time are 1% of it); bad
#    input exits 2.
printf '[w]\nrw=write\nbs=4k\nsize=128m\nthinktime=${HOST_COST}\n' >"$tmp/host.fio"
drive=tests/data/drives/small_tlc.ini
HOST_COST=300us "$bin" run -q -d $drive --job "$tmp/host.fio" --interval 100ms -o "$tmp/truth" ||
    fail "truth run"
t=$(val "$tmp/truth" "s['sim_time_s']")
"$bin" calibrate -q -d $drive --job "$tmp/host.fio" --figure "summary:sim_time_s=$t" \
    --fit env.HOST_COST=50us..1ms -o "$tmp/fit" || fail "calibrate --fit env.HOST_COST"
got=$(python3 -c "import json; print(json.load(open('$tmp/fit/fit.json'))['fitted']['env.HOST_COST'])")
near "$got" 0.0003 0.05 || fail "fitted HOST_COST $got s, expected 0.0003"
for bad in 'env.1X=1ms..2ms' 'env.HOST_COST=2ms..1ms' 'env.HOST_COST=1GB..2GB'; do
    expect_error "ftlsim: --fit \"$bad\"" calibrate -q -d $drive --job "$tmp/host.fio" \
        --figure summary:sim_time_s=1 --fit "$bad"
done

finish "all passed"
