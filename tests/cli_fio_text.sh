#!/usr/bin/env bash
# cli_fio_text.sh - fio's text outputs, --output-format=normal and terse:
# the same jobs through the real fio 3.33 (ioengine=null) and ftlsim, line
# for line the same layout (numbers, their units and padding aside; the
# latency bucket lines, whose buckets are the data, checked for fio's form),
# terse with the same fields, and the figures both know (I/Os, KiB) equal.
# Without fio 3.33 only ftlsim's own consistency is checked.
# Usage: bash tests/cli_fio_text.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

jobs=(
    "[mix]\nioengine=null\nrw=randrw\nrwmixread=70\nbs=4k\nsize=4m\niodepth=4\n"
    "[seq]\nioengine=null\nrw=read\nbs=64k\nsize=1m\npercentile_list=50:99:99.999\n"
    "[w]\nioengine=null\nrw=write\nbs=8k\nsize=512k\nfsync=4\n[r]\nioengine=null\nstonewall\nrw=randread\nbs=4k\nsize=256k\n"
    "[m]\nioengine=null\nrw=randrw\nbs=4k\nsize=2m\nclat_percentiles=0\nlat_percentiles=1\nunified_rw_reporting=mixed\n"
    "[g]\nioengine=null\nrw=randwrite\nbs=4k\nsize=1m\nnumjobs=2\ngroup_reporting\nsignificant_figures=6\n"
)
# The layout of a line: numbers, unit prefixes and the padding fio gives a
# number dropped; the version line and latency bucket lines left out.
skeleton() {
    grep -v -e '^fio-' -e '^ftlsim-' -e '^  lat (' "$1" |
        sed -e 's/[0-9.]\+/#/g' -e 's/  */ /g' -e 's/\[ /[/g' -e 's/= /=/g' \
            -e 's/[kKMGTP]\?i\?B/U/g' -e 's/=#k,/=#,/'
}
have_fio=0
[ "$(fio --version 2>/dev/null)" = fio-3.33 ] && have_fio=1

i=0
for j in "${jobs[@]}"; do
    i=$((i + 1))
    printf "$j" >"$tmp/j$i.fio"
    n=$((n + 1))
    "$bin" run -d "$drive" --job "$tmp/j$i.fio" --output-format=normal >"$tmp/s$i.normal" 2>"$tmp/err" &&
        "$bin" run -d "$drive" --job "$tmp/j$i.fio" --output-format=terse >"$tmp/s$i.terse" 2>>"$tmp/err" &&
        "$bin" run -d "$drive" --job "$tmp/j$i.fio" --output-format=json >"$tmp/s$i.json" 2>>"$tmp/err" ||
        { fail "job $i: $(cat "$tmp/err")"; continue; }
    # the latency bucket lines in fio's form
    grep '^  lat (' "$tmp/s$i.normal" | grep -qvE '^  lat \((nsec|usec|msec)\)   : (>=)?[0-9]+=[0-9]+\.[0-9]{2}%(, (>=)?[0-9]+=[0-9]+\.[0-9]{2}%)*$' &&
        fail "job $i: a latency line not in fio's form: $(grep '^  lat (' "$tmp/s$i.normal" | head -n 2)"
    # normal and terse say what the JSON says: I/Os per job, KiB per direction
    python3 - "$tmp/s$i.normal" "$tmp/s$i.terse" "$tmp/s$i.json" <<'PY' || fail "job $i: normal or terse disagrees with the JSON"
import json, re, sys
normal, terse = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
doc = json.load(open(sys.argv[3]))
issued = [tuple(map(int, m)) for m in re.findall(r"issued rwts: total=(\d+),(\d+),(\d+),0", normal)]
jobs = doc["jobs"]
want = [tuple(j[d]["total_ios"] if d in j else 0 for d in ("read", "write", "trim")) for j in jobs]
if any("mixed" in j and "read" not in j for j in jobs):
    want = [(j["mixed"]["total_ios"],) for j in jobs]
    issued = [(sum(x),) for x in issued]
assert issued == want, (issued, want)
assert len(terse) == len(jobs)
for line, j in zip(terse, jobs):
    f = line.split(";")
    assert f[0] == "3" and f[2] == j["jobname"] and f[3] == str(j["groupid"]), f[:5]
    first = j["mixed"] if "read" not in j else j["read"]
    assert int(f[5]) == first["io_kbytes"], (f[5], first["io_kbytes"])
PY
    [ "$have_fio" = 1 ] || continue
    (cd "$tmp" && fio --output-format=normal "j$i.fio" >"f$i.normal" 2>&1 &&
        fio --output-format=terse "j$i.fio" >"f$i.terse" 2>&1) || { fail "fio on job $i"; continue; }
    n=$((n + 1))
    diff <(skeleton "$tmp/f$i.normal") <(skeleton "$tmp/s$i.normal") >"$tmp/d$i" ||
        fail "job $i: normal output's layout differs from fio's: $(head -n 12 "$tmp/d$i")"
    n=$((n + 1))
    [ "$(awk -F';' '{print NF}' "$tmp/f$i.terse")" = "$(awk -F';' '{print NF}' "$tmp/s$i.terse")" ] ||
        fail "job $i: terse fields $(awk -F';' '{print NF}' "$tmp/s$i.terse" | tr '\n' ' '), fio $(awk -F';' '{print NF}' "$tmp/f$i.terse" | tr '\n' ' ')"
    # sequential jobs issue what fio issues: the KiB fields agree
    if [ "$i" -eq 2 ]; then
        [ "$(cut -d';' -f6 "$tmp/f$i.terse")" = "$(cut -d';' -f6 "$tmp/s$i.terse")" ] ||
            fail "job $i: terse read KiB $(cut -d';' -f6 "$tmp/s$i.terse"), fio $(cut -d';' -f6 "$tmp/f$i.terse")"
    fi
done
[ "$have_fio" = 1 ] || skipped=1

expect_error '--output-format "tersely": expected one of summary, normal, terse, json, json+' \
    run -d "$drive" -w rw=read --output-format tersely

finish "fio's normal and terse outputs in fio's layout"
