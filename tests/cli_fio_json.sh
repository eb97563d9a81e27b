#!/usr/bin/env bash
# cli_fio_json.sh - ftlsim's fio JSON against the real fio 3.33: the same
# jobs through both (fio with ioengine=null), every key of fio's json and
# json+ present in ftlsim's with the same type, the options echoed as fio
# echoes them, the counts alike (tests/fio_json_keys.py); and fio's own
# tools read ftlsim's output: fio_jsonplus_clat2csv its json+ (and
# validates the CSV against it), fio2gnuplot its per-I/O bandwidth log.
# Skipped without Debian's fio 3.33 (apt-get install fio).
# Usage: bash tests/cli_fio_json.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

version=$(fio --version 2>/dev/null)
if [ "$version" != fio-3.33 ]; then
    echo "cli_fio_json: skipped: needs fio 3.33 (found: ${version:-no fio}; apt-get install fio)"
    skipped=1
    finish ""
fi

# 1. The key trees, job by job (the helper says what differs).
n=$((n + 1))
python3 tests/fio_json_keys.py "$bin" "$drive" "$tmp" >"$tmp/keys.out" 2>&1 ||
    fail "ftlsim's fio JSON differs from fio's: $(head -n 20 "$tmp/keys.out")"
grep -q '^18 jobs, json and json+: 0 differ from fio$' "$tmp/keys.out" ||
    fail "fio_json_keys.py: $(tail -n 1 "$tmp/keys.out")"

# 2. fio_jsonplus_clat2csv turns ftlsim's json+ into fio's latency CSV (a
# file per job) and validates it against the bins; the cumulative counts
# end at each direction's I/Os.
for job in randrw two-jobs; do
    n=$((n + 1))
    (cd "$tmp" && fio_jsonplus_clat2csv "$job.json+" "$job.csv" >clat2csv.out 2>&1 &&
        fio_jsonplus_clat2csv --validate "$job.json+" "$job.csv" >>clat2csv.out 2>&1) ||
        fail "fio_jsonplus_clat2csv on $job.json+: $(tail -n 3 "$tmp/clat2csv.out")"
    python3 - "$tmp/$job.json+" "$tmp/$job.csv" <<'PY' || fail "clat2csv of $job: CSV does not add up"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["jobs"]
for i, job in enumerate(doc["jobs"]):
    rows = open(sys.argv[2].replace(".csv", f"_job{i}.csv")).read().splitlines()
    head = [c.strip() for c in rows[0].split(",")]
    last = {}
    for row in rows[1:]:
        cells = [c.strip() for c in row.split(",")]
        for d in ("read", "write"):
            c = cells[head.index(f"{d}_clat_ns_cumulative")]
            if c:
                last[d] = int(c)
    for d in ("read", "write"):
        assert last.get(d, 0) == job[d]["total_ios"], (i, d, last, job[d]["total_ios"])
    assert sum(job[d]["total_ios"] for d in ("read", "write")) > 0
PY
done

# 3. fio2gnuplot reads the per-I/O bandwidth log (fio 3.33's format without
# log_avg_msec) and draws it: its statistics lie within the log's values.
n=$((n + 1))
printf '[bwlog]\nrw=randread\nbs=4k\nsize=64m\nrate_iops=400\ntime_based\nruntime=2s\nwrite_bw_log=paced\n' \
    >"$tmp/bwlog.fio"
"$bin" run -d "$drive" --job "$tmp/bwlog.fio" -q -o "$tmp/bw" 2>"$tmp/stderr" ||
    fail "bw log job: exit $?: $(cat "$tmp/stderr")"
mkdir -p "$tmp/bw/plots"
(cd "$tmp/bw" && fio2gnuplot -b -g -k -d plots >"$tmp/fio2gnuplot.out" 2>&1) ||
    fail "fio2gnuplot: $(tail -n 3 "$tmp/fio2gnuplot.out")"
python3 - "$tmp/bw" <<'PY' || fail "fio2gnuplot's reading of paced_bw.1.log"
import os, sys
d = sys.argv[1]
vals = [int(line.split(",")[1]) for line in open(os.path.join(d, "paced_bw.1.log"))]
assert 700 <= len(vals) <= 850, len(vals)  # a row per I/O: ~400/s for 2 s
p = os.path.join(d, "plots")
stats = dict(line.strip().split("=") for line in open(os.path.join(p, "result.global")))
lo, hi, avg = float(stats["min"]), float(stats["max"]), float(stats["avg"])
assert min(vals) <= lo <= avg <= hi <= max(vals), (stats, min(vals), max(vals))
assert "Blocksize = 4K" in open(os.path.join(p, "mymath")).read()
pngs = [f for f in os.listdir(p) if f.endswith(".png")]
assert "paced_bw.1-2Draw.png" in pngs and all(os.path.getsize(os.path.join(p, f)) > 1000
                                               for f in pngs), pngs
PY

finish "ftlsim's fio JSON has fio 3.33's keys; fio's tools read it ($n checks)"
