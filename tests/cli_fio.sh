#!/usr/bin/env bash
# cli_fio.sh - fio compatibility through the ftlsim command: a job file with
# fio's value syntax and features (tests/data/jobs/fio_*.fio, written for
# the tests) runs; --output-format=json and json+ write fio's schema, whose
# numbers must agree with summary.json; fio's logs are in fio's format; and
# bad fio input is one line naming the file and line, with exit 2.
# Usage: bash tests/cli_fio.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

# 1. The feature job: fio JSON into --output, nothing on stdout.
"$bin" run -d "$drive" --job tests/data/jobs/fio_features.fio -o "$tmp/r" \
    --output-format=json --output "$tmp/fio.json" >"$tmp/stdout" 2>"$tmp/stderr" ||
    fail "fio_features.fio: exit $?: $(cat "$tmp/stderr")"
[ -s "$tmp/stdout" ] && fail "--output FILE: stdout not empty"
python3 - "$tmp/fio.json" "$tmp/r/summary.json" <<'PY' || fail "fio JSON does not agree with summary.json"
import json, math, sys
fio = json.load(open(sys.argv[1]))
summ = json.load(open(sys.argv[2]))
assert fio["fio version"].startswith("ftlsim-"), fio["fio version"]
import re
names = [j["jobname"] for j in fio["jobs"]]  # fio names clones after their section
want = [re.sub(r"\.[0-9]+$", "", j["name"]) for j in summ["jobs"]]
assert names == want, (names, want)
for fj, sj in zip(fio["jobs"], summ["jobs"]):
    for d in ("read", "write", "trim"):
        f, s = fj[d], sj[d]
        assert f["io_bytes"] == s["bytes"], (fj["jobname"], d, f["io_bytes"], s["bytes"])
        assert f["io_kbytes"] == s["bytes"] // 1024
        assert f["total_ios"] == s["ios"]
        # fio's arithmetic: runtime in whole ms rounded up, rates over it
        rt = max(1, math.ceil(sj["runtime_s"] * 1000 - 1e-6)) if s["ios"] else 0
        assert f["runtime"] == rt, (fj["jobname"], d, f["runtime"], sj["runtime_s"])
        assert abs(f["iops"] - (1000 * s["ios"] / rt if rt else 0)) <= 1e-6 * max(1, s["iops"])
        assert f["bw_bytes"] == (1000 * s["bytes"] // rt if rt else 0), (f["bw_bytes"], s["MBps"])
        assert f["bw"] == f["bw_bytes"] // 1024
        c = f["clat_ns"]
        assert c["N"] == s["ios"] and f["lat_ns"]["N"] == s["ios"]
        if s["ios"]:
            assert abs(c["mean"] / 1e3 - s["lat_us"]["mean"]) < 1e-6 * s["lat_us"]["mean"] + 1e-9
            assert abs(c["max"] / 1e3 - s["lat_us"]["max"]) < 1e-3
            assert c["percentile"]["99.000000"] / 1e3 == s["lat_us"]["p99"], d
            assert c["percentile"]["50.000000"] / 1e3 == s["lat_us"]["p50"], d
            assert c["min"] <= c["mean"] <= c["max"] and c["stddev"] >= 0
            assert f["slat_ns"]["N"] == s["ios"] and f["slat_ns"]["max"] == 0 and "bins" not in c
    assert fj["job_runtime"] == int(sj["runtime_s"] * 1000 + 1e-6), (fj["job_runtime"], sj["runtime_s"])
jobs = {j["name"]: j for j in summ["jobs"]}
v = jobs["fill-and-verify"]["verify"]
assert v["reads"] > 0 and v["mismatches"] == 0, v
for i, c in enumerate(("steady.0", "steady.1")):
    assert fio["jobs"][names.index("steady") + i]["steadystate"]["attained"] == 1
    assert jobs[c]["runtime_s"] < 30, jobs[c]["runtime_s"]
assert jobs["flow-a"]["runtime_s"] < 1.01, jobs["flow-a"]["runtime_s"]  # exitall of "paced"
PY

# 2. fio's logs in fio's format.
for f in fill_lat.1.log fill_clat.1.log fill_slat.1.log zoned-mix_bw.2.log mix_iops.2.log; do
    [ -s "$tmp/r/$f" ] || fail "log $f missing or empty"
done
python3 - "$tmp/r" <<'PY' || fail "logs not in fio's format"
import os, sys
d = sys.argv[1]
for name in os.listdir(d):
    if not name.endswith(".log"):
        continue
    last = -1
    for line in open(os.path.join(d, name)):
        f = [int(x) for x in line.split(",")]
        assert len(f) == 5, (name, line)
        assert f[0] >= last and f[2] in (0, 1, 2) and f[1] >= 0, (name, line)
        last = f[0]
PY

# 2b. Phases: a verified read-back of the whole drive, exitall, wait_for.
"$bin" run -d "$drive" --job tests/data/jobs/fio_phases.fio -o "$tmp/p" -q ||
    fail "fio_phases.fio: exit $?"
python3 - "$tmp/p/summary.json" <<'PY' || fail "fio_phases.fio: jobs did not run as fio runs them"
import json, sys
jobs = {j["name"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
cap = jobs["fill"]["size"]
assert cap > 1e9 and jobs["fill"]["write"]["bytes"] == cap, jobs["fill"]["size"]
assert "verify" in jobs["fill"] and jobs["fill"]["verify"]["reads"] == 0  # do_verify=0
v = jobs["check"]["verify"]
assert v["bytes"] == cap and v["mismatches"] == 0, v
assert jobs["slow"]["read"]["ios"] == 20 and jobs["slow"]["rw"] == "read"
assert abs(jobs["fast"]["runtime_s"] - jobs["slow"]["runtime_s"]) < 0.01, (jobs["fast"], jobs["slow"])
assert jobs["fast"]["runtime_s"] < 1, jobs["fast"]["runtime_s"]     # not its hour
assert jobs["after"]["write"]["ios"] == 0                            # exit_what=all
PY

grep -qE '^verify    [0-9]+ reads \(1\.[0-9]{3} GB\) checked against what was written, 0 mismatches$' \
    "$tmp/p/summary.txt" || fail "summary.txt: no verify line: $(grep verify "$tmp/p/summary.txt")"

# 3. json+ on stdout: the histogram bins add up to the I/Os.
"$bin" run -d "$drive" -w 'rw=randrw,bs=4k,iodepth=8,size=16m' --output-format=json+ \
    >"$tmp/plus.json" 2>"$tmp/stderr" || fail "json+: exit $?"
python3 - "$tmp/plus.json" <<'PY' || fail "json+ bins"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
for d in ("read", "write"):
    c = j[d]["clat_ns"]
    assert sum(c["bins"].values()) == j[d]["total_ios"] > 0
    assert min(int(k) for k in c["bins"]) <= c["min"] and max(int(k) for k in c["bins"]) <= c["max"]
PY

# 3b. group_reporting: one entry per reporting group, its jobs summed.
printf '[global]\ngroup_reporting\nrw=randrw\nbs=4k\niodepth=4\nsize=8m\n[a]\nnumjobs=3\n[b]\nnew_group\n' \
    >"$tmp/group.fio"
"$bin" run -d "$drive" --job "$tmp/group.fio" -o "$tmp/g" --output-format=json+ \
    >"$tmp/group.json" 2>"$tmp/stderr" || fail "group_reporting: exit $?"
python3 - "$tmp/group.json" "$tmp/g/summary.json" <<'PY' || fail "group_reporting entries"
import json, math, sys
fio = json.load(open(sys.argv[1]))["jobs"]
summ = json.load(open(sys.argv[2]))["jobs"]
assert [j["jobname"] for j in fio] == ["a", "b"] and [j["groupid"] for j in fio] == [0, 1]
a = [j for j in summ if j["name"].startswith("a.")]
assert len(a) == 3
for d in ("read", "write"):
    f = fio[0][d]
    assert f["total_ios"] == sum(j[d]["ios"] for j in a) == f["clat_ns"]["N"]
    assert f["io_bytes"] == sum(j[d]["bytes"] for j in a)
    assert sum(f["clat_ns"]["bins"].values()) == f["total_ios"]
    mean = sum(j[d]["ios"] * j[d]["lat_us"]["mean"] for j in a) / f["total_ios"] * 1e3
    assert abs(f["clat_ns"]["mean"] - mean) < 1e-6 * mean, (f["clat_ns"]["mean"], mean)
    assert f["clat_ns"]["max"] / 1e3 == max(j[d]["lat_us"]["max"] for j in a)
    assert fio[1][d]["total_ios"] == summ[3][d]["ios"]
PY

# 3c. A trace replay is one job, "replay", as fio reports a read_iolog job.
"$bin" run -d "$drive" --trace traces/fiu_mail_cheetah_first10000.blkparse --lba-map wrap \
    -o "$tmp/t" --output-format=json >"$tmp/trace.json" 2>"$tmp/stderr" || fail "trace json: exit $?"
python3 - "$tmp/trace.json" "$tmp/t/summary.json" <<'PY' || fail "trace replay in fio JSON"
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"]
summ = json.load(open(sys.argv[2]))["jobs"]
assert len(fio) == 1 and fio[0]["jobname"] == "replay" == summ[0]["name"]
for d in ("read", "write"):
    assert fio[0][d]["total_ios"] == summ[0][d]["ios"] > 0
    assert fio[0][d]["io_bytes"] == summ[0][d]["bytes"]
    assert abs(fio[0][d]["clat_ns"]["mean"] / 1e3 - summ[0][d]["lat_us"]["mean"]) < 1e-6 * summ[0][d]["lat_us"]["mean"]
assert fio[0]["job_runtime"] == int(summ[0]["runtime_s"] * 1000 + 1e-6)
PY

# 4. The syntax job: ${VAR} set, and not set.
FTLSIM_TEST_BS=4k "$bin" run -d "$drive" --job tests/data/jobs/fio_syntax.fio -q ||
    fail "fio_syntax.fio with FTLSIM_TEST_BS=4k: exit $?"
expect_error 'tests/data/jobs/fio_syntax.fio:6: ${FTLSIM_TEST_BS} is not set in the environment' \
    run -d "$drive" --job tests/data/jobs/fio_syntax.fio

# 5. Bad values: one line naming the file and line.
printf '[j]\nrw=write\nsize=(4k*\n' >"$tmp/bad_expr.fio"
expect_error "$tmp/bad_expr.fio:3: option \"size\": found \"(4k*\", expected a non-negative arithmetic expression" \
    run -d "$drive" --job "$tmp/bad_expr.fio"
printf '[j]\nrw=randread\nrandom_distribution=zoned:50/5:30/15\n' >"$tmp/bad_zone.fio"
expect_error "$tmp/bad_zone.fio:3: option \"random_distribution\": found \"zoned:50/5:30/15\"" \
    run -d "$drive" --job "$tmp/bad_zone.fio"
printf '[j]\nioengine=cpuio\n' >"$tmp/bad_engine.fio"
expect_error "$tmp/bad_engine.fio:2: option \"ioengine\": found \"cpuio\", expected a block I/O engine" \
    run -d "$drive" --job "$tmp/bad_engine.fio"
printf '[j]\nrw=write\nsize=1m\nwrite_bw_log=x\n' >"$tmp/log.fio"
# without --out the log goes into the current folder, as fio writes it
n=$((n + 1))
mkdir "$tmp/logcwd"
(cd "$tmp/logcwd" && "$bin" run -q -d "$OLDPWD/$drive" --job "$tmp/log.fio") && [ -s "$tmp/logcwd/x_bw.1.log" ] ||
    fail "write_bw_log without --out: no x_bw.1.log in the current folder"
expect_error '--output-format "xml": expected one of summary, normal, terse, json, json+' run -d "$drive" -w rw=read --output-format xml
expect_error '--output "'"$tmp"'/no/such.json": found no folder '"$tmp"'/no, expected a file in an existing folder' \
    run -d "$drive" -w rw=read --output-format json --output "$tmp/no/such.json"

expect_error "--max-time goes with --workload or --job" \
    run -d "$drive" --trace traces/fiu_mail_cheetah_first10000.blkparse --max-time 1s
# --max-time: a job of an hour stops at 1.5 s of simulated time
"$bin" run -d "$drive" -w 'rw=randread,size=8m,time_based,runtime=1h' --max-time 1500ms \
    >"$tmp/mt.txt" || fail "--max-time: exit $?"
grep -qE '^simulated 1\.50[0-9] s ' "$tmp/mt.txt" || fail "--max-time: $(grep simulated "$tmp/mt.txt")"
# --max-time bounds the wait for the commands in flight too: a 1.4 GB write
# on the drive slowed to 20 MB/s (75 s without --max-time) is still in
# flight 30 s after the jobs stopped: the run fails there, in well under a
# second, instead of waiting for it (or, stuck, ticking on to the row bound)
"$bin" run -q -d "$drive" --set timing.tlc.t_prog=20ms -w 'rw=write,bs=1400m,size=1400m' \
    --max-time 1s -o "$tmp/mt2" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/mt2" ] &&
    grep -qF -- "--max-time 1 s: the drive still had 1 command in flight at 31.000 s simulated" "$tmp/err" ||
    fail "--max-time with a command in flight: exit $rc, $(cat "$tmp/err")"

# 6. ioengine=null: the job issues its I/Os as fio's null engine does, each
# complete at once, and the drive sees none of them; time_based with it
# would never end and is refused.
"$bin" run -d "$drive" -w 'rw=randread,ioengine=null,size=1g' --output-format=json \
    -o "$tmp/null" >"$tmp/null.json" || fail "ioengine=null: exit $?"
python3 -c "
import json,sys; j=json.load(open('$tmp/null.json'))['jobs'][0]
s=json.load(open('$tmp/null/summary.json'))['host']
assert j['read']['total_ios'] == 262144 and j['read']['io_bytes'] == 1 << 30, j['read']
assert j['read']['lat_ns']['mean'] == 0, j['read']['lat_ns']
assert s['read_ios'] == 0 and s['read_bytes'] == 0, s" || fail "ioengine=null: not fio's null engine"
expect_error 'option "time_based": found it with ioengine=null' \
    run -d "$drive" -w 'rw=read,ioengine=null,size=1g,runtime=1s,time_based'

finish "all passed"
