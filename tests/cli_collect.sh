#!/usr/bin/env bash
# cli_collect.sh - `sweep collect` on an emitted sweep whose runs finished,
# were stopped by SIGTERM (Slurm's time limit), are missing, or left a
# damaged sweep-row.csv: an interrupted run is not counted as finished and
# its row says so; a damaged row is refused with one line naming the file
# and line, exit 2, and the earlier sweep.csv left as it was.
# Usage: bash tests/cli_collect.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
sw=$tmp/sw
"$bin" run -d "$drive" -w 'rw=randwrite,size=100%,io_size=400g' --max-time 100ms \
    --vary gc.policy=greedy,fifo,cost_benefit --emit parallel -o "$sw" >/dev/null ||
    { fail "emit"; finish "" "emit failed"; }
mapfile -t jobs <"$sw/jobs.txt"
for j in "${jobs[@]}"; do bash -c "$j" || fail "job failed: $j"; done

# collect DIR RC: run it, check the status and the stderr lines
collect() {
    n=$((n + 1))
    "$bin" sweep collect "$1" >"$tmp/c.out" 2>"$tmp/c.err"
    local rc=$?
    [ $rc -eq "$2" ] || fail "collect ($3): exit $rc, expected $2: $(head -c 300 "$tmp/c.err")"
}
# refused WHAT PATTERN: collect must refuse with one line, earlier table kept
refused() {
    local before
    before=$(md5sum <"$sw/sweep.csv")
    collect "$sw" 2 "$1"
    [ "$(wc -l <"$tmp/c.err")" -eq 1 ] && grep -q '^ftlsim: ' "$tmp/c.err" && grep -qF -- "$2" "$tmp/c.err" ||
        fail "collect ($1): stderr was: $(head -c 300 "$tmp/c.err")"
    [ -s "$tmp/c.out" ] && fail "collect ($1): output on stdout"
    [ "$(md5sum <"$sw/sweep.csv")" = "$before" ] || fail "collect ($1): sweep.csv changed"
    ls -A "$sw" | grep -q '\.tmp' && fail "collect ($1): a temporary left"
}

# 1: every run finished
collect "$sw" 0 "all finished"
head -n 1 "$sw/sweep.csv" | grep -q ',interrupted$' || fail "sweep.csv lacks the interrupted column"
[ "$(awk -F, 'NR > 1 && $NF == 0' "$sw/sweep.csv" | wc -l)" -eq 3 ] || fail "not 3 finished rows"
grep -q "3 of 3 runs finished" "$tmp/c.out" || fail "collect: $(cat "$tmp/c.out")"

# 2: a run stopped by SIGTERM is named, not counted as finished, its row marked
long=${jobs[1]//\'100ms\'/\'100000s\'}
bash -c "exec ${long#*&& }" &
pid=$!
# a --force run writes beside its folder until it ends: wait for rows in its
# series, so that its simulation has begun (a signal before that is answered
# with nothing written and the earlier folder kept, by design)
for _ in $(seq 600); do
    for f in "$sw"/.gc.policy=fifo.new-*/.series.csv.tmp; do
        [ "$(wc -l 2>/dev/null <"$f" || echo 0)" -ge 2 ] && break 2
    done
    sleep 0.1
done
kill -TERM $pid
wait $pid
[ $? -eq 143 ] || fail "the job stopped by SIGTERM did not exit 143"
collect "$sw" 1 "interrupted"
grep -q "gc.policy=fifo interrupted" "$tmp/c.err" || fail "collect does not name the interrupted run"
grep -q "2 of 3 runs finished, 1 interrupted" "$tmp/c.out" || fail "collect: $(cat "$tmp/c.out")"
[ "$(awk -F, 'NR > 1 && $NF == 1 && $1 == "fifo"' "$sw/sweep.csv" | wc -l)" -eq 1 ] ||
    fail "the interrupted run's row is not marked 1"
cp -a "$sw/gc.policy=fifo/sweep-row.csv" "$tmp/row.csv"
good=$(sed -n 2p "$tmp/row.csv")
nh=$(head -n 1 "$tmp/row.csv" | awk -F, '{ print NF }')

# 3-9: damaged sweep-row.csv files are refused with file and line
row=$sw/gc.policy=fifo/sweep-row.csv
damage() { { head -n 1 "$tmp/row.csv"; printf '%s' "$1"; } >"$row"; }
damage "${good%,*,*}"$'\n'
refused "fewer fields" "sweep-row.csv:2: found $((nh - 2)) fields, expected $nh"
damage "$good,7"$'\n'
refused "more fields" "sweep-row.csv:2: found $((nh + 1)) fields, expected $nh"
damage "$good"
refused "no newline" "sweep-row.csv:2: found a row without its newline"
damage "$good"$'\n'"$good"$'\n'
refused "two rows" "sweep-row.csv:2: found more than one row"
damage "${good%,*},yes"$'\n'
refused "a bad interrupted value" "found \"yes\" in column interrupted, expected 0 or 1"
{ head -n 1 "$tmp/row.csv"; printf '%s\0\n' "$good"; } >"$row"
refused "a NUL byte" "sweep-row.csv:2: found a NUL byte"
{ sed 's/waf/WAF/' "$tmp/row.csv" | head -n 1; echo "$good"; } >"$row"
refused "another header" "sweep-row.csv:1: expected the header"
cp "$tmp/row.csv" "$row"

# 10: a damaged manifest row
cp "$sw/sweep-manifest.csv" "$tmp/manifest.csv"
printf 'greedy\n' >>"$sw/sweep-manifest.csv"
refused "a manifest row" "sweep-manifest.csv:5: expected 2 fields"
cp "$tmp/manifest.csv" "$sw/sweep-manifest.csv"

# 11: a missing run: exit 1, named, the others tabulated
mv "$sw/gc.policy=greedy" "$tmp/greedy"
collect "$sw" 1 "missing"
grep -q "gc.policy=greedy missing" "$tmp/c.err" || fail "collect does not name the missing run"
[ "$(awk -F, 'NR > 1' "$sw/sweep.csv" | wc -l)" -eq 2 ] || fail "not 2 rows with a run missing"
mv "$tmp/greedy" "$sw/gc.policy=greedy"

# 12: sweep.csv a link: followed, the link stays
mv "$sw/sweep.csv" "$tmp/table.csv"
ln -s "$tmp/table.csv" "$sw/sweep.csv"
collect "$sw" 1 "through a link"
[ -L "$sw/sweep.csv" ] || fail "collect replaced the sweep.csv link"
[ "$(awk -F, 'NR > 1' "$tmp/table.csv" | wc -l)" -eq 3 ] || fail "the link's target lacks the table"

finish "$n collections checked"
