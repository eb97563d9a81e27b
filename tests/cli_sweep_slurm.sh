#!/usr/bin/env bash
# cli_sweep_slurm.sh - a sweep on a real Slurm: a one-node cluster on this
# machine (munged, slurmctld and slurmd on localhost, with their own key,
# configuration, ports and folders in a temporary folder), the array that
# `run --vary --emit slurm` writes submitted with sbatch, waited for (with
# a bound), `sweep collect`, and sweep.csv compared with the same sweep
# run with --jobs. Everything started is stopped at the end. Where no
# cluster can be started (not root, or slurm-wlm and munge missing:
# scripts/lib/deps.sh installs them), it says why and reports as skipped;
# cli_sweep_emit.sh still runs the array's tasks as Slurm would set them.
# Usage: bash tests/cli_sweep_slurm.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

skip() {
    echo "cli_sweep_slurm: no Slurm cluster here: $*; cli_sweep_emit.sh fakes the array" >&2
    skipped=1
    finish "skipped"
}
[ "$(id -u)" -eq 0 ] || skip "not root (slurmd runs jobs as their user)"
for c in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$c" >/dev/null || skip "$c is not installed (packages slurm-wlm and munge)"
done

drive=tests/data/drives/small_tlc.ini
spec='rw=randwrite,bs=4k,iodepth=8,size=50%,io_size=16m'
vary=(--vary gc.policy=greedy,fifo --vary timing.tlc.t_read=40us,50us,60us)
sl=$tmp/slurm
mkdir -p "$sl/spool" "$sl/state" "$sl/log"
node=$(hostname -s)
port=$((20000 + ($$ % 5000) * 2)) # two ports of our own, next to each other
export SLURM_CONF=$sl/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=ftlsimtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sl/munge.sock
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$sl/state
SlurmdSpoolDir=$sl/spool
SlurmctldPidFile=$sl/slurmctld.pid
SlurmdPidFile=$sl/slurmd.pid
SlurmctldLogFile=$sl/log/slurmctld.log
SlurmdLogFile=$sl/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc)
PartitionName=ftlsim Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

# Stop what was started (by the pids in their pid files), then the folder.
stop() {
    scontrol shutdown >/dev/null 2>&1
    local f pid
    for f in slurmctld slurmd munged; do
        pid=$(cat "$sl/$f.pid" 2>/dev/null) || continue
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill "$pid" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap stop EXIT

head -c 1024 /dev/urandom >"$sl/munge.key" && chmod 600 "$sl/munge.key"
munged --key-file="$sl/munge.key" --socket="$sl/munge.sock" --pid-file="$sl/munged.pid" \
    --log-file="$sl/log/munged.log" --seed-file="$sl/munge.seed" --force ||
    skip "munged did not start: $(tail -n 2 "$sl/log/munged.log" 2>/dev/null)"
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -n 2 "$sl/log/slurmctld.log")"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start: $(tail -n 2 "$sl/log/slurmd.log")"
# the node registers with the controller: at most a minute
for _ in $(seq 120); do
    sinfo -h -o %t 2>/dev/null | grep -qx idle && break
    sleep 0.5
done
sinfo -h -o %t 2>/dev/null | grep -qx idle ||
    skip "the node did not come up: $(tail -n 2 "$sl/log/slurmd.log")"

# The reference, and the same sweep as an array on the cluster.
"$bin" run -q -d "$drive" -w "$spec" "${vary[@]}" -J 2 -o "$tmp/ref" || fail "the --jobs sweep failed"
n=$((n + 1))
"$bin" run -q -d "$drive" -w "$spec" "${vary[@]}" --emit slurm -o "$tmp/arr" || fail "--emit slurm failed"
job=$(sbatch --parsable --chdir="$PWD" "$tmp/arr/sweep.slurm" 2>"$tmp/sbatch.err") ||
    fail "sbatch refused the array: $(cat "$tmp/sbatch.err")"
# the bound guards against a hang, not a speed: 6 short runs, 10 minutes
n=$((n + 1))
for _ in $(seq 1200); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.5
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "array $job still queued or running after 10 minutes"
n=$((n + 1))
"$bin" sweep collect "$tmp/arr" >"$tmp/collect.log" 2>&1 ||
    fail "collect after the array failed: $(cat "$tmp/collect.log") $(cat "$tmp"/arr/logs/slurm-* 2>/dev/null | head -5)"
grep -q "6 of 6 runs finished" "$tmp/collect.log" || fail "collect does not count 6 of 6: $(cat "$tmp/collect.log")"
n=$((n + 1))
cmp -s "$tmp/ref/sweep.csv" "$tmp/arr/sweep.csv" ||
    fail "sweep.csv of the array differs from --jobs: $(diff "$tmp/ref/sweep.csv" "$tmp/arr/sweep.csv" | head -5)"
finish "a 6-run array on a one-node Slurm matches --jobs"
