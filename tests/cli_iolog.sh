#!/usr/bin/env bash
# cli_iolog.sh - fio's iolog: write_iolog records the I/Os a job issues in
# fio's version 3 format; the log replays through read_iolog (a job) and
# through --trace (a trace replay) to the same results; and bad iologs
# are refused cleanly.
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

# 1. Record: mixed block sizes, random, 4 in flight.
cat >"$tmp/rec.fio" <<'JOB'
[rec]
rw=randrw
rwmixread=30
bssplit=4k/60:16k/30:64k/10
iodepth=4
size=64m
write_iolog=rec.iolog
JOB
"$bin" run -q -d "$drive" --job "$tmp/rec.fio" -o "$tmp/rec" || fail "write_iolog: exit $?"
log=$tmp/rec/rec.iolog
head -1 "$log" | grep -qx 'fio version 3 iolog' || fail "write_iolog: header $(head -1 "$log")"
sed -n 2,3p "$log" | tr '\n' '|' | grep -qx '0 rec.0.0 add|0 rec.0.0 open|' ||
    fail "write_iolog: add/open rows $(sed -n 2,3p "$log")"
tail -1 "$log" | grep -qE '^[0-9]+ rec\.0\.0 close$' || fail "write_iolog: last row $(tail -1 "$log")"
rows=$(grep -cE '^[0-9]+ rec\.0\.0 (read|write) [0-9]+ [0-9]+$' "$log")
[ "$rows" -ge 1000 ] || fail "write_iolog: $rows I/O rows"
python3 - "$log" "$tmp/rec/summary.json" <<'PY' || fail "write_iolog: rows do not match the run"
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.split()[2:3] in (["read"], ["write"])]
host = json.load(open(sys.argv[2]))["host"]
for op in ("read", "write"):
    n = sum(1 for r in rows if r[2] == op)
    b = sum(int(r[4]) for r in rows if r[2] == op)
    assert (n, b) == (host[op + "_ios"], host[op + "_bytes"]), (op, n, b, host)
covered = set()
for r in rows:
    off, ln = int(r[3]), int(r[4])
    covered.update(range(off // 4096, (off + ln) // 4096))
assert len(covered) == (64 << 20) // 4096, len(covered)  # the random map: every block once
PY

# 2. Replay it, closed loop at 4 in flight: read_iolog and --trace agree.
cat >"$tmp/replay.fio" <<JOB
[replay]
read_iolog=$log
replay_no_stall
iodepth=4
write_iolog=replay.iolog
JOB
"$bin" run -q -d "$drive" --job "$tmp/replay.fio" -o "$tmp/job" || fail "read_iolog: exit $?"
"$bin" run -q -d "$drive" --trace "$log" --replay closed --iodepth 4 -o "$tmp/trace" ||
    fail "--trace of an iolog: exit $?"
python3 - "$tmp/rec" "$tmp/job" "$tmp/trace" <<'PY' || fail "read_iolog and --trace differ"
import json, sys
rec, job, trace = (json.load(open(d + "/summary.json")) for d in sys.argv[1:])
for key in ("host", "nand", "waf", "latency_us", "sim_time_s"):
    assert job[key] == trace[key], (key, job[key], trace[key])
assert job["host"] == rec["host"], (job["host"], rec["host"])
PY
diff <(awk 'NF == 5 {print $3, $4, $5}' "$log") \
     <(awk 'NF == 5 {print $3, $4, $5}' "$tmp/job/replay.iolog") >/dev/null ||
    fail "read_iolog did not issue the recorded I/Os in order"

# 3. Replay at the recorded times: read_iolog and --trace (open loop) agree.
cat >"$tmp/timed.fio" <<JOB
[timed]
read_iolog=$log
iodepth=1024
JOB
"$bin" run -q -d "$drive" --job "$tmp/timed.fio" -o "$tmp/tjob" || fail "timed read_iolog: exit $?"
"$bin" run -q -d "$drive" --trace "$log" -o "$tmp/ttrace" || fail "timed --trace: exit $?"
python3 - "$tmp/tjob" "$tmp/ttrace" <<'PY' || fail "timed read_iolog and --trace differ"
import json, sys
job, trace = (json.load(open(d + "/summary.json")) for d in sys.argv[1:])
for key in ("host", "nand", "waf", "latency_us"):
    assert job[key] == trace[key], (key, job[key], trace[key])
PY

# 4. Bad input.
printf '[a]\nread_iolog=%s/none.iolog\n' "$tmp" >"$tmp/missing.fio"
expect_error 'option "read_iolog"' run -d "$drive" --job "$tmp/missing.fio"
printf '[a]\nread_iolog=%s/traces/mqsim_wsrch-small.trace\n' "$PWD" >"$tmp/notfio.fio"
expect_error 'expected a fio iolog' run -d "$drive" --job "$tmp/notfio.fio"
# a log whose header says fio: its bad line named with its number, as a
# job's read_iolog and as a trace (not "cannot detect the trace format")
printf 'fio version 3 iolog\n0 d add\n0 d open\n10 d write 0 4096\n20 d wrote 0 4096\n' >"$tmp/badrow.iolog"
printf '[a]\nread_iolog=%s/badrow.iolog\n' "$tmp" >"$tmp/badrow.fio"
expect_error 'badrow.iolog:5: field action: found "wrote"' run -d "$drive" --job "$tmp/badrow.fio"
expect_error 'badrow.iolog:5: field action: found "wrote"' run -d "$drive" -t "$tmp/badrow.iolog"
# a zone action in a job's log: refused with its line, not a command of
# length 0 handed to the drive (which stalled the run)
printf 'fio version 3 iolog\n0 d add\n0 d open\n10 d write 0 4096\n20 d zone_close 65536\n' \
    >"$tmp/zone.iolog"
printf '[a]\nread_iolog=%s/zone.iolog\n' "$tmp" >"$tmp/zone.fio"
expect_error 'zone.iolog:5: a zone action at offset 65536, expected read, write' \
    run -d "$drive" --job "$tmp/zone.fio"
printf 'fio version 2 iolog\nd add\nd write x 4096\n' >"$tmp/badrow2.iolog"
expect_error 'badrow2.iolog:3:' run -d "$drive" -t "$tmp/badrow2.iolog"
printf '[a]\nrw=write\nsize=1m\nwrite_iolog=w.iolog\n' >"$tmp/noout.fio"
n=$((n + 1))
mkdir "$tmp/noout"
(cd "$tmp/noout" && "$bin" run -q -d "$OLDPWD/$drive" --job "$tmp/noout.fio") &&
    head -n 1 "$tmp/noout/w.iolog" | grep -q '^fio version 3 iolog$' ||
    fail "write_iolog without --out: no w.iolog in the current folder"
printf 'fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x write 0 4096\n/dev/x write 999999999999 4096\n' \
    >"$tmp/far.iolog"
printf '[a]\nread_iolog=%s/far.iolog\n' "$tmp" >"$tmp/far.fio"
"$bin" run -q -d "$drive" --job "$tmp/far.fio" -o "$tmp/far" 2>"$tmp/far.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/far.err")" -eq 1 ] &&
    grep -q 'far.iolog:5: offset 999999999999' "$tmp/far.err" ||
    fail "read_iolog past the drive: exit $rc, $(cat "$tmp/far.err")"
n=$((n + 8))
finish "all passed"
