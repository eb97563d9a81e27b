#!/usr/bin/env python3
"""fio_json_keys.py - run each job through fio (ioengine=null) and ftlsim,
in --output-format=json and json+, and compare the documents: every key
fio writes must be in ftlsim's, with the same JSON type, recursively;
"job options" and "global options" must echo the job file as fio does;
and the counts both know (jobs, groups, I/Os, bytes) must agree.

Usage: fio_json_keys.py FTLSIM DRIVE TMPDIR   (exit 0: all agree)
Used by tests/cli_fio_json.sh.
"""
import json
import math
import os
import subprocess
import sys

# Each job file as written for ftlsim; fio's copy gets ioengine=null in
# its [global] section. Varied: directions, mixes, trims, several jobs,
# numjobs with and without group_reporting, stonewall, new_group, fsync,
# rates per direction,
# block-size splits, a job shorter than fio's 1 ms runtime unit.
# Jobs whose random choices differ from fio's (its generator is not
# ftlsim's) are not compared on their per-direction counts.
# the "rate" jobs' direction, rate in KiB/s and block size in KiB
# (rate_iops=2000 of 4 KiB reads, rate=4m of 8 KiB writes)
RATE_KIB_S = {"paced": ("read", 8000, 4), "paced-write": ("write", 4096, 8)}
RANDOM = {"randrw", "percentiles", "mixed", "group", "bssplit", "rate", "rate-mix", "avgtime", "steady"}
JOBS = {
    "read": "[global]\nbs=128k\nsize=8m\n[seqread]\nrw=read\n",
    "write": "[global]\nsize=8m\n[seqwrite]\nrw=write\nbs=64k\niodepth=4\n",
    "randrw": "[mix]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=4m\niodepth=8\n",
    "trim": "[global]\nbs=64k\nsize=4m\n[t]\nrw=trim\n[tw]\nstonewall\nrw=trimwrite\nbs=16k\nsize=1m\n",
    "two-jobs": "[global]\nsize=2m\nbs=8k\n[r]\nrw=randread\n[w]\nrw=randwrite\noffset=4m\n",
    "numjobs": "[n]\nrw=randwrite\nbs=4k\nsize=1m\nnumjobs=3\noffset_increment=2m\n",
    "group": "[global]\ngroup_reporting\nrw=randrw\nbs=4k\nsize=2m\n[a]\nnumjobs=2\n"
             "offset_increment=4m\n[b]\nnew_group\nrw=read\nsize=1m\n",
    "stonewall": "[fill]\nrw=write\nbs=128k\nsize=4m\n[check]\nstonewall\nrw=read\nbs=128k\nsize=4m\n",
    "fsync": "[f]\nrw=write\nbs=4k\nsize=256k\nfsync=8\n",
    "bssplit": "[s]\nrw=randwrite\nbssplit=4k/50:64k/50\nsize=4m\nnorandommap\niodepth=16\n",
    "tiny": "[one]\nrw=read\nbs=4k\nsize=8k\n",
    # 1.2 s at a fixed rate: fio's 500 ms windows give two samples a direction
    "rate": "[paced]\nrw=randread\nrate_iops=2000\nbs=4k\nsize=64m\ntime_based\nruntime=1200ms\n"
            "[paced-write]\nrw=write\nrate=4m\nbs=8k\nsize=64m\ntime_based\nruntime=1200ms\n",
    # bwavgtime and iopsavgtime: 200 ms and 400 ms windows over 1.2 s give
    # 6 bandwidth and 3 IOPS samples
    "avgtime": "[w]\nrw=randread\nrate_iops=1000\nbs=4k\nsize=64m\ntime_based\nruntime=1200ms\n"
               "bwavgtime=200\niopsavgtime=400\n",
    # each direction paced to its own rate (fio's rate_ddir): ~2000 reads/s
    # and ~1000 writes/s, not both held to the one that waits
    "rate-mix": "[mix]\nrw=randrw\nrate_iops=2000,1000\nbs=4k\nsize=64m\ntime_based\n"
                "runtime=1500ms\n",
    # fio's steady-state detection: a paced job is steady once 2 s of samples are in
    "steady": "[s]\nrw=randread\nbs=4k\nsize=64m\nrate_iops=1000\ntime_based\nruntime=4s\n"
              "ss=iops:20%\nss_dur=2s\n",
    # reporting only: the percentiles asked for, latencies with them,
    # directions summed beside their own or instead of them, no disk_util
    "percentiles": "[p]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=4m\npercentile_list=50:99:99.9\n"
                   "lat_percentiles=1\nunified_rw_reporting=both\nsignificant_figures=6\n",
    "mixed": "[m]\nrw=randrw\nbs=4k\nsize=2m\nclat_percentiles=0\nlat_percentiles=1\n"
             "unified_rw_reporting=mixed\ndisk_util=0\nfdatasync=16\niodepth_batch_submit=4\n",
    "options": "; a comment\n[global]\nkb_base=1000\nsize=2m\n[as-written]\nrw=randread   # trailing\n"
               "filename=/dev/null\nbs=4k\nbs=8k\niodepth = 2\nnorandommap\n[bare]\n",
}


class Pairs(dict):
    """A JSON object that also keeps its members in order, duplicates too."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = [list(p) for p in pairs]


def load(text):
    return json.loads(text, object_pairs_hook=Pairs)


def kind(v):
    return type(v).__name__


def compare(f, s, path, errs):
    """Every key of f is in s with the same JSON type, recursively."""
    if isinstance(f, dict):
        if not isinstance(s, dict):
            errs.append(f"{path}: fio has an object, ftlsim {kind(s)}")
            return
        if path.endswith("/bins"):  # histogram: keys are data
            if f and not s:
                errs.append(f"{path}: fio has bins, ftlsim none")
            for k, v in s.items():
                if not k.isdigit() or not isinstance(v, int):
                    errs.append(f"{path}: bin {k!r}: {v!r}")
            return
        if path.endswith("/percentile") and list(f) != list(s):  # the list asked for
            errs.append(f"{path}: fio {list(f)}, ftlsim {list(s)}")
        for k, v in f.items():
            if k not in s:
                errs.append(f"{path}/{k}: missing in ftlsim's")
            else:
                compare(v, s[k], f"{path}/{k}", errs)
    elif isinstance(f, list):
        if not isinstance(s, list) or len(f) != len(s):
            errs.append(f"{path}: fio has {len(f)} entries, ftlsim {s!r:.60}")
            return
        for i, (a, b) in enumerate(zip(f, s)):
            compare(a, b, f"{path}[{i}]", errs)
    elif kind(f) != kind(s):
        errs.append(f"{path}: fio {kind(f)} {f!r}, ftlsim {kind(s)} {s!r}")


def fio_text(text):
    if "[global]" in text:
        return text.replace("[global]\n", "[global]\nioengine=null\n", 1)
    return "[global]\nioengine=null\n" + text


def drop_engine(f):
    """fio's copy has ioengine=null in [global], ftlsim's does not."""
    g = f.get("global options")
    if g is None:
        return
    g.pop("ioengine", None)
    g.pairs = [p for p in g.pairs if p[0] != "ioengine"]
    if not g:
        del f["global options"]


def check_values(name, f, s, errs):
    if [j["jobname"] for j in f["jobs"]] != [j["jobname"] for j in s["jobs"]]:
        errs.append(f"jobnames {[j['jobname'] for j in s['jobs']]}")
        return
    fg = f.get("global options", Pairs([]))
    sg = s.get("global options", Pairs([]))
    if fg.pairs != sg.pairs:
        errs.append(f"global options {sg.pairs}, fio {fg.pairs}")
    for fj, sj in zip(f["jobs"], s["jobs"]):
        where = fj["jobname"]
        fo, so = fj.get("job options"), sj.get("job options")
        if (fo is None) != (so is None) or (fo is not None and fo.pairs != so.pairs):
            errs.append(f"{where}: job options {so and so.pairs}, fio {fo and fo.pairs}")
        if fj["groupid"] != sj["groupid"]:
            errs.append(f"{where}: groupid {sj['groupid']}, fio {fj['groupid']}")
        if [k for k in fj if k in ("read", "write", "trim", "sync", "mixed")] != \
                [k for k in sj if k in ("read", "write", "trim", "sync", "mixed")]:
            errs.append(f"{where}: directions {list(sj)}, fio {list(fj)}")
        for d in ("read", "write", "trim", "mixed"):
            if d not in fj or d not in sj:
                continue
            a, b = fj[d], sj[d]
            for k in ("total_ios", "io_bytes", "io_kbytes"):
                if a[k] != b[k] and name not in RANDOM:
                    errs.append(f"{where}: {d}.{k} {b[k]}, fio {a[k]}")
            # fio's runtime arithmetic: whole ms, never 0 for a direction with I/O
            if b["total_ios"] and (b["runtime"] < 1 or
                                   not math.isclose(b["iops"], 1000 * b["total_ios"] / b["runtime"],
                                                    rel_tol=1e-6)):
                errs.append(f"{where}: {d}: runtime {b['runtime']} ms, iops {b['iops']}")
            if b["slat_ns"]["N"] != b["total_ios"] or b["clat_ns"]["N"] != b["total_ios"]:
                errs.append(f"{where}: {d}: slat/clat N")
            if name == "avgtime" and d == "read":
                # a sample per whole window of the 1.2 s; fio's sampling thread
                # runs on wall time and, on a loaded machine, starts windows
                # late (fio alone takes 6 and 3 here too; with both cores
                # busy it took 3 of the 6): ftlsim must take every one, fio
                # at least one and no more
                for k, win in (("bw_samples", 200), ("iops_samples", 400)):
                    if b[k] != 1200 // win or not 1 <= a[k] <= 1200 // win:
                        errs.append(f"{where}: {d}.{k} {b[k]}, fio {a[k]}, expected {1200 // win}")
            if name == "rate":
                # fio's 500 ms windows over 1.2 s: two samples a direction,
                # at the job's rate. fio samples and paces on wall time: on
                # a quiet machine it takes both windows within a few % of
                # the rate, but on a loaded one it starts windows late and
                # falls short (with both cores busy: one sample of two, 1528
                # IOPS of 2000). So ftlsim is held to the windows and the
                # rate, and fio only to what a late start allows: one sample
                # or two, and never ahead of ftlsim
                paced, kib_s, bs_kib = RATE_KIB_S[where]
                for k in ("bw_samples", "iops_samples", "bw_mean", "iops_mean"):
                    if d != paced and a[k] != b[k]:  # the direction it does not do
                        errs.append(f"{where}: {d}.{k} {b[k]}, fio {a[k]}")
                if d != paced:
                    continue
                for k in ("bw_samples", "iops_samples"):
                    if b[k] != 1200 // 500 or not 1 <= a[k] <= 1200 // 500:
                        errs.append(f"{where}: {d}.{k} {b[k]}, fio {a[k]}, expected {1200 // 500}")
                for k, want in (("bw_mean", kib_s), ("iops_mean", kib_s / bs_kib)):
                    if not math.isclose(b[k], want, rel_tol=0.02) or a[k] > b[k] * 1.05:
                        errs.append(f"{where}: {d}.{k} {b[k]}, fio {a[k]}, rate {want}")
        # fio paces on wall time: quiet, it falls short of its rate by 1-2%;
        # loaded, by as much as the machine takes. ftlsim is held to the
        # rate, fio to not running ahead of it
        if name == "rate-mix":  # each direction at its own rate
            for d, rate in (("read", 2000), ("write", 1000)):
                if not math.isclose(sj[d]["iops"], rate, rel_tol=0.02) or \
                        fj[d]["iops"] > sj[d]["iops"] * 1.05:
                    errs.append(f"{where}: {d}.iops {sj[d]['iops']}, fio {fj[d]['iops']}, rate {rate}")
        if "steadystate" in fj:
            # a job paced to 1000 IOPS is steady once ss_dur's samples are
            # in, as fio finds it on a quiet machine (loaded, its samples
            # come late and may not settle within the run)
            a, b = fj["steadystate"], sj["steadystate"]
            if (a["ss"], a["duration"]) != (b["ss"], b["duration"]) or b["attained"] != 1 \
                    or not math.isclose(b["data"]["iops_mean"], 1000, rel_tol=0.02) \
                    or a["data"]["iops_mean"] > b["data"]["iops_mean"] * 1.05:
                errs.append(f"{where}: steadystate {b}, fio {a}")
        depth = sum(sj["iodepth_level"].values())
        lat = sum(sj["latency_ns"].values()) + sum(sj["latency_us"].values()) + \
            sum(sj["latency_ms"].values())
        if any(sj[d]["total_ios"] for d in ("read", "write", "trim", "mixed") if d in sj) and \
                not (99.0 < depth < 101.5 and 99.0 < lat < 101.5):
            errs.append(f"{where}: iodepth_level adds up to {depth}, latency buckets to {lat}")


def check_disk(name, s, errs):
    """disk_util: the simulated drive saw every read and write of the jobs
    (left out, as fio leaves it out, with disk_util=0)."""
    if "disk_util=0" in JOBS[name]:
        if "disk_util" in s:
            errs.append("disk_util=0, but ftlsim has disk_util")
        return
    du = s.get("disk_util", [])
    if len(du) != 1:
        errs.append(f"disk_util {du}")
        return
    for d in ("read", "write"):
        n = sum(j[d]["total_ios"] for j in s["jobs"] if d in j)
        if du[0][f"{d}_ios"] != n:
            errs.append(f"disk_util {d}_ios {du[0][f'{d}_ios']}, the jobs {n}")
    if not 0 < du[0]["util"] <= 100 or du[0]["in_queue"] < du[0]["read_ticks"] + du[0]["write_ticks"]:
        errs.append(f"disk_util {du[0]}")


def main():
    ftlsim, drive, tmp = (os.path.abspath(a) for a in sys.argv[1:4])
    failures = 0
    runs = []
    for name, text in JOBS.items():
        ffile = os.path.join(tmp, f"{name}.fio.fio")
        sfile = os.path.join(tmp, f"{name}.ftlsim.fio")
        with open(ffile, "w") as fh:
            fh.write(fio_text(text))
        with open(sfile, "w") as fh:
            fh.write(text)
        # fio's json is its json+ less the bins: one fio run serves both;
        # every run at once (fio mostly waits on its clock)
        def start(cmd):
            return subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        fr = start(["fio", "--output-format=json+", ffile])
        srs = {fmt: start([ftlsim, "run", "-d", drive, "--job", sfile, f"--output-format={fmt}"])
               for fmt in ("json", "json+")}
        runs.append((name, fr, srs))
    for name, fr, srs in runs:
        fout, ferr = fr.communicate()
        for fmt, sr in srs.items():
            sout, serr = sr.communicate()
            if fr.returncode or sr.returncode:
                print(f"{name} {fmt}: fio exit {fr.returncode} {ferr.strip()[:200]}; "
                      f"ftlsim exit {sr.returncode} {serr.strip()[:200]}")
                failures += 1
                continue
            failures += check(name, fmt, load(fout), load(sout))
            with open(os.path.join(tmp, f"{name}.{fmt}"), "w") as fh:
                fh.write(sout)
    print(f"{len(JOBS)} jobs, json and json+: {failures} differ from fio")
    return 1 if failures else 0


def strip_bins(v):
    if isinstance(v, dict):
        v.pop("bins", None)
        for x in v.values():
            strip_bins(x)
    elif isinstance(v, list):
        for x in v:
            strip_bins(x)


def has_bins(v):
    if isinstance(v, dict):
        return "bins" in v or any(has_bins(x) for x in v.values())
    return isinstance(v, list) and any(has_bins(x) for x in v)


def check(name, fmt, f, s):
    """1 when ftlsim's document s differs from fio's f, with the reasons printed."""
    drop_engine(f)
    errs = []
    if fmt == "json":
        strip_bins(f)
        if has_bins(s):
            errs.append("json has bins (only json+ has)")
    compare(f, s, "", errs)
    check_values(name, f, s, errs)
    check_disk(name, s, errs)
    for e in errs[:12]:
        print(f"{name} {fmt}: {e}")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
