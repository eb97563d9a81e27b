#!/usr/bin/env bash
# cli_fio_report.sh - fio's reporting-only options, as a user's job has them:
# accepted and honoured (percentiles asked for, directions summed,
# latency_target with a unit), logs in the current folder without --out as
# fio writes them, no log row past the job's end, and fio's histogram log
# in fio's layout (against the real fio 3.33's when it is installed);
# log_store_compressed writes fio's compressed logs (NAME.log.fz).
# Usage: bash tests/cli_fio_report.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=$PWD/tests/data/drives/small_tlc.ini

# 1. The job as a storage engineer has it runs unchanged, without --out:
# its logs land in the current folder, and --dry-run writes none.
mkdir "$tmp/here"
cat >"$tmp/here/mix.fio" <<'EOF'
[mix]
rw=randrw
rwmixread=70
bs=4k
size=4m
iodepth=4
percentile_list=50:99:99.9
lat_percentiles=1
clat_percentiles=1
unified_rw_reporting=both
significant_figures=6
write_bw_log=mix
write_lat_log=mix
write_hist_log=mix
log_hist_msec=1
hipri
fdatasync=64
iodepth_batch_submit=4
latency_target=1ms
EOF
n=$((n + 1))
(cd "$tmp/here" && "$bin" run -d "$drive" --job mix.fio --dry-run >/dev/null 2>"$tmp/err") ||
    fail "the job was refused: $(cat "$tmp/err")"
[ "$(ls "$tmp/here")" = mix.fio ] || fail "--dry-run wrote logs: $(ls "$tmp/here")"
n=$((n + 1))
(cd "$tmp/here" && "$bin" run -d "$drive" --job mix.fio --output-format=json \
    >"$tmp/mix.json" 2>"$tmp/err") || fail "the job failed: $(cat "$tmp/err")"
for f in mix_bw.1.log mix_lat.1.log mix_clat.1.log mix_slat.1.log mix_clat_hist.1.log; do
    [ -s "$tmp/here/$f" ] || fail "no $f in the current folder"
done

# 2. fio's JSON honours the options: the percentiles asked for on clat and
# lat, a "mixed" entry after the directions, the target in ns.
n=$((n + 1))
python3 - "$tmp/mix.json" <<'PY' || fail "fio JSON does not honour the options"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
keys = ["50.000000", "99.000000", "99.900000"]
for d in ("read", "write", "mixed"):
    for lat in ("clat_ns", "lat_ns"):
        got = list(j[d][lat]["percentile"])
        assert got == keys, (d, lat, got)
assert [k for k in j if k in ("read", "write", "trim", "sync", "mixed")] == \
    ["read", "write", "trim", "sync", "mixed"], list(j)
assert j["mixed"]["total_ios"] == j["read"]["total_ios"] + j["write"]["total_ios"] == 1024
assert j["latency_target"] == 1000000, j["latency_target"]
PY
n=$((n + 1))
sed -e 's/^unified_rw_reporting=both/unified_rw_reporting=mixed/' -e '/^write_/d' \
    -e '/^log_hist/d' -e 's/^clat_percentiles=1/clat_percentiles=0/' \
    "$tmp/here/mix.fio" >"$tmp/mixed.fio"
"$bin" run -d "$drive" --job "$tmp/mixed.fio" --output-format=json >"$tmp/mixed.json" 2>"$tmp/err" ||
    fail "unified_rw_reporting=mixed: $(cat "$tmp/err")"
python3 - "$tmp/mixed.json" <<'PY' || fail "unified_rw_reporting=mixed, clat_percentiles=0 not honoured"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert "read" not in j and "sync" not in j and j["mixed"]["total_ios"] == 1024, list(j)
assert "percentile" not in j["mixed"]["clat_ns"] and "percentile" in j["mixed"]["lat_ns"]
PY

# 3. fio's histogram log: time, direction, block size and 1856 bins (464
# with log_hist_coarseness=2) a row, the bins adding up to the I/Os done;
# rows from the first completion after 0 ms (fio's hist_last), every 500 ms.
n=$((n + 1))
python3 - "$tmp/here/mix_clat_hist.1.log" 1856 <<'PY' || fail "histogram log not in fio's layout"
import sys
rows = [l.split(", ") for l in open(sys.argv[1])]
assert rows and all(len(r) == 3 + int(sys.argv[2]) for r in rows), len(rows[0])
assert all(r[1] in ("0", "1") and r[2] == "4096" for r in rows)
assert sum(sum(map(int, r[3:])) for r in rows) <= 1024
PY

# 4. No row past the job's end: runtime=2 with 1 s windows ends the
# bandwidth log at 1000 ms (its last window is not sampled, as fio's timer
# stops with the job) and the latency log at 2000 ms, the job's end.
cat >"$tmp/timed.fio" <<'EOF'
[t]
rw=randwrite
bs=4k
size=4m
rate_iops=500
time_based
runtime=2
log_avg_msec=1000
write_bw_log=t
write_lat_log=t
write_hist_log=t
log_hist_msec=500
log_hist_coarseness=2
EOF
n=$((n + 1))
"$bin" run -d "$drive" --job "$tmp/timed.fio" -q -o "$tmp/timed" 2>"$tmp/err" ||
    fail "time_based logs: $(cat "$tmp/err")"
[ "$(cut -d, -f1 "$tmp/timed/t_bw.1.log" | tr '\n' ' ')" = "1000 " ] ||
    fail "bw log times: $(cut -d, -f1 "$tmp/timed/t_bw.1.log" | tr '\n' ' ')"
[ "$(cut -d, -f1 "$tmp/timed/t_lat.1.log" | tr '\n' ' ')" = "1000 2000 " ] ||
    fail "lat log times: $(cut -d, -f1 "$tmp/timed/t_lat.1.log" | tr '\n' ' ')"
python3 - "$tmp/timed/t_clat_hist.1.log" 464 <<'PY' || fail "coarse histogram log"
import sys
rows = [l.split(", ") for l in open(sys.argv[1])]
assert all(len(r) == 3 + int(sys.argv[2]) for r in rows)
assert [int(r[0]) for r in rows] == [502, 1002, 1502], [r[0] for r in rows]
PY

# 5. Against fio 3.33 (null engine): the same job, the histogram log's rows
# for the same intervals (fio runs on wall time, so its stamps are late by
# what the machine's load makes them), with the same directions and number
# of bins.
if [ "$(fio --version 2>/dev/null)" = fio-3.33 ]; then
    n=$((n + 1))
    mkdir "$tmp/fio" "$tmp/sim"
    printf '[h]\nioengine=null\nrw=randrw\nbs=4k\nsize=4m\nrate_iops=2000\nwrite_hist_log=h\nlog_hist_msec=100\n' \
        >"$tmp/h.fio"
    (cd "$tmp/fio" && fio "$tmp/h.fio" >/dev/null 2>&1) || fail "fio did not run the job"
    (cd "$tmp/sim" && "$bin" run -d "$drive" --job "$tmp/h.fio" -q 2>"$tmp/err") ||
        fail "ftlsim: $(cat "$tmp/err")"
    python3 - "$tmp/fio/h_clat_hist.1.log" "$tmp/sim/h_clat_hist.1.log" <<'PY' ||
import sys
# fio stamps a row when its wall clock passes the interval, a few ms late
# on a quiet machine and more on a busy one: rows are matched by the
# interval they close (the nearest multiple of log_hist_msec); fio may
# also end one interval later or sooner than the job's simulated end.
msec = 100
f, s = ({(round(int(r[0]) / msec), r[1]): r for r in (l.split(", ") for l in open(p))}
        for p in sys.argv[1:3])
assert all(int(r[0]) % msec == 0 or abs(int(r[0]) - msec * k[0]) <= 5 for k, r in s.items()), \
    sorted(int(r[0]) for r in s.values())
common = f.keys() & s.keys()
last = max(k[0] for k in f.keys() | s.keys())
assert common and all(k[0] >= last - 1 for k in f.keys() ^ s.keys()), (sorted(f), sorted(s))
for k in common:
    a, b = f[k], s[k]
    assert len(a) == len(b) and a[1:3] == b[1:3], (a[:3], b[:3])
PY
        fail "histogram log differs from fio's"
fi

# 6. log_store_compressed: NAME.log.fz, a zlib stream of fio's binary
# samples that inflates (zlib, then fio's 32-byte record, 40 with an offset)
# to the very rows of the same job's text log; fio 3.33's --inflate-log
# prints them. The histogram log stays text.
n=$((n + 1))
mkdir "$tmp/gz" "$tmp/txt"
printf '[z]\nrw=randwrite\nbs=4k\nsize=4m\nwrite_bw_log=z\nwrite_lat_log=z\nlog_offset=1\nwrite_hist_log=z\nlog_hist_msec=1\nlog_store_compressed=1\n' \
    >"$tmp/gz.fio"
sed 's/^log_store_compressed=1/log_store_compressed=0/' "$tmp/gz.fio" >"$tmp/txt.fio"
(cd "$tmp/gz" && "$bin" run -d "$drive" --job "$tmp/gz.fio" -q 2>"$tmp/err") ||
    fail "log_store_compressed: $(cat "$tmp/err")"
(cd "$tmp/txt" && "$bin" run -d "$drive" --job "$tmp/txt.fio" -q 2>"$tmp/err") ||
    fail "log_store_compressed=0: $(cat "$tmp/err")"
[ "$(ls "$tmp/gz" | tr '\n' ' ')" = "z_bw.1.log.fz z_clat.1.log.fz z_clat_hist.1.log z_lat.1.log.fz z_slat.1.log.fz " ] ||
    fail "compressed log names: $(ls "$tmp/gz" | tr '\n' ' ')"
for f in z_bw.1.log z_clat.1.log z_lat.1.log z_slat.1.log; do
    python3 - "$tmp/gz/$f.fz" "$tmp/txt/$f" <<'PY' || fail "$f.fz does not inflate to $f"
import struct, sys, zlib
raw = zlib.decompress(open(sys.argv[1], "rb").read())
rows = []
while raw:
    t, v, ddir, prio, bs = struct.unpack_from("<QQIHxxQ", raw)
    size = 40 if ddir & 0x80000000 else 32
    off = struct.unpack_from("<Q", raw, 32)[0] if size == 40 else None
    rows.append(", ".join(str(x) for x in (t, v, ddir & 0xffff, bs) + ((off,) if size == 40 else ()) + (0,)))
    raw = raw[size:]
text = open(sys.argv[2]).read().splitlines()
sys.exit(0 if rows == text and rows else 1)
PY
done
cmp -s "$tmp/gz/z_clat_hist.1.log" "$tmp/txt/z_clat_hist.1.log" || fail "histogram log differs"
if [ "$(fio --version 2>/dev/null)" = fio-3.33 ]; then
    fio --inflate-log="$tmp/gz/z_lat.1.log.fz" 2>/dev/null | cmp -s - "$tmp/txt/z_lat.1.log" ||
        fail "fio --inflate-log does not read z_lat.1.log.fz"
fi

finish "fio's reporting options honoured, logs where fio writes them (compressed as fio stores them), the histogram log in fio's layout"
