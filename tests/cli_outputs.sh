#!/usr/bin/env bash
# cli_outputs.sh - the results folder and figures end to end, through the
# ftlsim command: `run --plot` writes the four PNGs, `plot` overlays two
# runs, --live without a display keeps a PNG, a run without gnuplot on PATH
# still writes its results and says so in one line, and an existing folder
# without --force is refused and left as it was.
# Usage: bash tests/cli_outputs.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
spec='rw=write,bs=128k,iodepth=32,size=20%;rw=randread,bs=4k,iodepth=32,io_size=8m'

# The file exists and starts with the 8-byte PNG signature.
is_png() {
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}

run() { # run DIR [options...]: a small run into DIR, output in DIR.log
    local dir=$1
    shift
    "$bin" run -d "$drive" -w "$spec" -o "$dir" "$@" >"$dir.log" 2>&1
}

results_ok() { # the results files of a finished run
    local f
    for f in summary.txt summary.json series.csv phases.csv latency_read.csv latency_write.csv \
        .ftlsim-files; do
        [ -s "$1/$f" ] || fail "$1/$f missing or empty"
    done
}

# Without gnuplot on PATH: results written, one line about gnuplot, exit 0.
# (The binary is called by its full path, so PATH only hides gnuplot.)
PATH=/nonexistent run "$tmp/nogp" --plot
rc=$?
[ "$rc" -eq 0 ] || fail "run --plot without gnuplot: exit $rc, expected 0"
results_ok "$tmp/nogp"
lines=$(grep -ci gnuplot "$tmp/nogp.log")
[ "$lines" -eq 1 ] || fail "without gnuplot: $lines lines mention gnuplot, expected 1"
grep -q 'figures need gnuplot' "$tmp/nogp.log" || fail "without gnuplot: no install hint"
ls "$tmp/nogp"/*.png >/dev/null 2>&1 && fail "without gnuplot: a PNG was written"
# Quiet runs say it too: it is the only line.
PATH=/nonexistent run "$tmp/nogp-q" --plot --quiet
[ "$(wc -l <"$tmp/nogp-q.log")" -eq 1 ] || fail "quiet without gnuplot: expected one line"

# An existing folder without --force: exit 2, nothing touched.
before=$(cd "$tmp/nogp" && ls -la --time-style=full-iso . && md5sum summary.json series.csv)
run "$tmp/nogp" --plot
rc=$?
[ "$rc" -eq 2 ] || fail "existing folder without --force: exit $rc, expected 2"
grep -q 'exists; use --force to overwrite' "$tmp/nogp.log" ||
    fail "existing folder: message was: $(cat "$tmp/nogp.log")"
after=$(cd "$tmp/nogp" && ls -la --time-style=full-iso . && md5sum summary.json series.csv)
[ "$before" = "$after" ] || fail "existing folder without --force was changed"

if ! command -v gnuplot >/dev/null; then
    echo "notice: gnuplot not on PATH; figure checks skipped (apt-get install gnuplot-nox)"
    skipped=1 # finish exits 77: CTest reports the test as skipped, not passed
else
    # run --plot: the four figures, as PNGs.
    run "$tmp/a" --plot
    rc=$?
    [ "$rc" -eq 0 ] || fail "run --plot: exit $rc: $(tail -3 "$tmp/a.log")"
    results_ok "$tmp/a"
    for f in write_curve throughput cache latency_cdf; do
        is_png "$tmp/a/$f.png" || fail "run --plot: $f.png missing or not a PNG"
    done
    grep -qi gnuplot "$tmp/a.log" && fail "run --plot with gnuplot mentions gnuplot"

    # The figures of this write-only run, drawn as SVG to read their text:
    # throughput has its phase shading and no read line, the latency
    # distribution a log axis that names p99 and p99.9, utilization lists
    # only what the dies did (host programs, no reads or folding here).
    n=$((n + 1))
    "$bin" run -d "$drive" -w 'rw=write,bs=128k,iodepth=32,size=20%' -q -o "$tmp/w" ||
        fail "the write-only run failed"
    for f in throughput latency_cdf utilization; do
        gnuplot -e "dir='$tmp/w'; out='$tmp/a/$f.svg'" "scripts/plot/$f.gp" 2>"$tmp/$f.gp.log" ||
            fail "$f.gp: $(head -n 2 "$tmp/$f.gp.log")"
    done
    # (the key's words are <tspan> text; gnuplot leaves an empty group with a
    # <title> for each plot it skipped)
    key() { grep -o '<tspan[^>]*>[^<]*' "$tmp/a/$1.svg" | sed 's/.*>//'; }
    key throughput | grep -q '^phase: native writes$' || fail "throughput: no phase shading"
    key throughput | grep -q '^write, mean per' || fail "throughput: no write line"
    key throughput | grep -q '^read' && fail "throughput: a read line on a write-only run"
    grep -q 'set logscale y' scripts/plot/latency_cdf.gp || fail "latency_cdf.gp: no log y axis"
    key latency_cdf | grep -q '(p99.9)' || fail "latency_cdf: the tail's axis is not labelled"
    key utilization | grep -qx 'host programs' || fail "utilization: no host programs"
    for a in read fold GC erase 'map writes'; do
        key utilization | grep -qx "$a" && fail "utilization lists $a, which never happened"
    done

    # plot DIR DIR --out: the overlay of two runs.
    run "$tmp/b" --seed 2 --interval-bytes 50MB || fail "second run failed"
    "$bin" plot "$tmp/a" "$tmp/b" --out "$tmp/overlay.png" >"$tmp/plot.log" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "plot: exit $rc: $(cat "$tmp/plot.log")"
    is_png "$tmp/overlay.png" || fail "plot: overlay.png missing or not a PNG"
    "$bin" plot "$tmp/a" "$tmp/missing" --out "$tmp/bad.png" >/dev/null 2>&1
    rc=$?
    [ "$rc" -eq 2 ] || fail "plot of a missing folder: exit $rc, expected 2"

    # --live without a display: the live write curve as a PNG; no live CSV left.
    (unset DISPLAY; run "$tmp/live" --live) || fail "run --live failed: $(tail -3 "$tmp/live.log")"
    is_png "$tmp/live/write_curve.live.png" || fail "--live: write_curve.live.png missing"
    [ -e "$tmp/live/series.live.csv" ] && fail "--live: series.live.csv left behind"
    results_ok "$tmp/live"
fi

# --series-percentiles adds the six latency columns.
run "$tmp/pct" --series-percentiles --quiet || fail "run --series-percentiles failed"
latency=read_p50_us,read_p99_us,read_p999_us,write_p50_us,write_p99_us,write_p999_us
head -1 "$tmp/pct/series.csv" | grep -q ",host_written_GB,die_read,die_host,die_gc,die_fold,die_erase,die_map,chan_busy,wear_min,wear_mean,wear_max,ctrl_busy,$latency\$" ||
    fail "--series-percentiles: header is $(head -1 "$tmp/pct/series.csv")"

finish "all checks passed"
