#!/usr/bin/env bash
# cli_sweep_emit.sh - sweeps beyond one machine: `run --vary --emit` writes
# jobs instead of running them, GNU parallel (or a Slurm array, faked here by
# setting SLURM_ARRAY_TASK_ID) runs them, and `sweep collect` builds the same
# sweep.csv as `--vary --jobs`. A missing or failed run is named and the
# exit status is 1; bad input is one line and exit 2.
# Usage: bash tests/cli_sweep_emit.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
if ! command -v parallel >/dev/null; then
    fail "GNU parallel is not installed (scripts/test installs it)"
    exit 1
fi
drive=tests/data/drives/small_tlc.ini
spec='rw=randwrite,bs=4k,iodepth=8,size=50%,io_size=16m'
# 3 x 2 x 4 = 24 runs
vary=(--vary timing.tlc.t_prog=500us,700us,900us --vary gc.policy=greedy,fifo
      --vary timing.tlc.t_read=40us,50us,60us,70us)

# The reference: the same sweep run here, two at a time.
"$bin" run -q -d "$drive" -w "$spec" "${vary[@]}" -J 2 -o "$tmp/ref" ||
    fail "the --jobs sweep failed"
[ "$(tail -n +2 "$tmp/ref/sweep.csv" | wc -l)" -eq 24 ] || fail "the --jobs sweep has not 24 rows"

# GNU parallel
"$bin" run -d "$drive" -w "$spec" "${vary[@]}" --emit parallel -o "$tmp/par" >"$tmp/emit.log" ||
    fail "--emit parallel failed"
[ "$(wc -l <"$tmp/par/jobs.txt")" -eq 24 ] || fail "jobs.txt has not 24 lines"
[ -f "$tmp/par/sweep.csv" ] && fail "--emit ran something: sweep.csv is there"
grep -q "sweep collect" "$tmp/emit.log" || fail "--emit does not say how to collect"
parallel --will-cite -j 2 --joblog "$tmp/par/joblog" <"$tmp/par/jobs.txt" ||
    fail "parallel reports failed jobs: $(cat "$tmp/par/joblog")"
"$bin" sweep collect "$tmp/par" >"$tmp/collect.log" 2>&1 || fail "collect failed: $(cat "$tmp/collect.log")"
cmp -s "$tmp/ref/sweep.csv" "$tmp/par/sweep.csv" ||
    fail "collected sweep.csv differs from --jobs: $(diff "$tmp/ref/sweep.csv" "$tmp/par/sweep.csv" | head -5)"
grep -q "24 of 24 runs finished" "$tmp/collect.log" || fail "collect does not count 24 of 24"

# A Slurm array, its tasks run one by one as Slurm would set them.
"$bin" run -q -d "$drive" -w "$spec" "${vary[@]}" --emit slurm -o "$tmp/slurm" ||
    fail "--emit slurm failed"
bash -n "$tmp/slurm/sweep.slurm" || fail "sweep.slurm is not valid bash"
grep -q '^#SBATCH --array=0-23$' "$tmp/slurm/sweep.slurm" || fail "sweep.slurm has no array 0-23"
for i in $(seq 0 23); do
    SLURM_ARRAY_TASK_ID=$i bash "$tmp/slurm/sweep.slurm" || fail "slurm task $i failed"
done
SLURM_ARRAY_TASK_ID=24 bash "$tmp/slurm/sweep.slurm" 2>/dev/null && fail "task 24 of 24 ran"
"$bin" sweep collect "$tmp/slurm" >/dev/null 2>&1 || fail "collect after slurm failed"
cmp -s "$tmp/ref/sweep.csv" "$tmp/slurm/sweep.csv" || fail "slurm sweep.csv differs from --jobs"

# A run that did not finish, and one that failed, are named; exit 1.
first=$(sed -n 2p "$tmp/par/sweep-manifest.csv" | sed 's/.*,"\(.*\)"$/\1/')
second=$(sed -n 3p "$tmp/par/sweep-manifest.csv" | sed 's/.*,"\(.*\)"$/\1/')
rm -rf "$tmp/par/$first" "$tmp/par/$second"
echo "ftlsim: out of memory" >"$tmp/par/logs/$second.err"
"$bin" sweep collect "$tmp/par" >"$tmp/collect.log" 2>"$tmp/collect.err"
rc=$?
[ "$rc" -eq 1 ] || fail "collect with two runs gone: exit $rc, expected 1"
grep -qF "$first missing" "$tmp/collect.err" || fail "the missing run is not named: $(cat "$tmp/collect.err")"
grep -qF "$second failed: ftlsim: out of memory" "$tmp/collect.err" ||
    fail "the failed run is not named with its log: $(cat "$tmp/collect.err")"
[ "$(tail -n +2 "$tmp/par/sweep.csv" | wc -l)" -eq 22 ] || fail "the partial table has not 22 rows"

# Emitting again over finished runs needs --force, and then clears them.
expect_error --no-out "results of an earlier run are there; use --force to replace them" \
    run -q -d "$drive" -w "$spec" "${vary[@]}" --emit parallel -o "$tmp/slurm"
"$bin" run -q -d "$drive" -w "$spec" "${vary[@]}" --emit parallel -o "$tmp/slurm" -f ||
    fail "re-emit with --force failed"
"$bin" sweep collect "$tmp/slurm" >/dev/null 2>&1
[ $? -eq 1 ] || fail "collect right after a forced re-emit found old results"

# Options pass to the jobs as given; the sweep's own do not.
"$bin" run -d "$drive" -qw "$spec" -s 7 --prefill=30% "${vary[@]}" --emit=parallel -fo "$tmp/opts"
line=$(head -1 "$tmp/opts/jobs.txt")
for want in "'-s' '7'" "'--prefill=30%'" "'-w' '$spec'" "--set 'timing.tlc.t_prog=500us'"; do
    case $line in *"$want"*) ;; *) fail "jobs.txt line lacks $want: $line" ;; esac
done
case $line in *"'-fo'"* | *"--emit"* | *"--vary"*) fail "jobs.txt keeps a sweep option: $line" ;; esac

# Bad input
expect_error "--emit goes with --vary" run -d "$drive" -w "$spec" --emit parallel
expect_error '--emit "bogus": expected one of none, parallel, slurm' run -d "$drive" -w "$spec" "${vary[@]}" --emit bogus
expect_error "--emit writes jobs and runs nothing: --jobs, --plot and --live do not go with it" \
    run -d "$drive" -w "$spec" "${vary[@]}" --emit slurm --plot
expect_error --no-out "expected the folder of a sweep written by run --vary --emit" sweep collect "$tmp"
expect_error --no-out "expected 'sweep collect DIR'" sweep "$tmp/par"

finish "all checks passed"
