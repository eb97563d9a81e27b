#!/usr/bin/env python3
"""fio_yardstick.py FTLSIM DIR [JOB...] - run each job file of DIR through the
real fio (ioengine=null, write_iolog) and through ftlsim (write_iolog), and
compare the I/Os each issued.

Every job file starts with a comment that says how to compare:

  # mode: exact   the I/O sequences (action, offset, length per job) are
                  identical; mixed jobs (rw=rw) are compared per direction,
                  with the read share as for stats
  # mode: identical  random jobs that draw from fio's generators: the
                  sequences are identical I/O for I/O, the interleaving of
                  reads and writes included (with "# runs: N", at each of
                  randseed=1..N)
  # mode: stats   random jobs: fio and ftlsim draw from different generators,
                  so the figures of the two sequences must agree instead
  # mode: refuse  both refuse the job (fio exits non-zero, ftlsim exits 2)

A line "# compare: KEY=TOL ..." of a stats job adds figures that must lie
within TOL of fio's (absolute, in shares of the region): coverage (the
4-deviation bound is loose for a figure whose spread across seeds is under
1 point), spread (standard deviation of the offsets), deciles (of the
offsets of I/O starts, the largest difference). A line "# align: OP=BYTES"
says every OP offset of both logs is a multiple of BYTES. A line
"# runs: N" runs both N times with randseed=1..N and compares the mean
number of I/Os (within 4 standard errors) instead of one run's count: for
a job whose end is itself a random event (a random map of two block sizes
ends when a pick of the larger lands beyond the region), one seed's count
says little.

A line "# check: KEY=VALUE ..." after it adds exact figures both must have
(ios=, bytes=, coverage=). A line "# fio-set: KEY=VALUE" replaces that
option in the copy fio reads: fio's null engine has no device, its file is
`size` bytes long, so a job at an offset gives fio size=offset+size where
ftlsim, on a drive, takes size from the offset. A line "# message: TEXT" of
a refused job says what both must say: TEXT in fio's output and in ftlsim's
error (fio's words, which ftlsim's quotes). A line "# fio-file: NAME=SIZE"
makes NAME a sparse file of SIZE bytes (k, m suffixes) where fio runs, for
a job whose engine reads a real file (fio's psync, where ioengine=null
needs none). The job files name their own write_iolog
(one per job section) and filename=/dev/null; fio runs in DIR's copy in a
temporary folder, ftlsim writes into its results folder.

Tolerances for stats, n the number of I/Os of fio's log: a share p (of
reads, of a block size, of I/Os that follow the previous one of their
direction, of the I/Os on the hottest 10% of the region) is a mean of n
draws, so its standard deviation is sqrt(p(1-p)/n); the two shares must lie
within 4 such deviations (from either side) plus 1 percentage point for
rounding. That fails a correct run about once in 15000 comparisons, and
catches a rule that is off by more than a few percent at n >= 1000.
Coverage (the share of the region's 4 KiB units touched) and the total of
bytes must match within 2% when the random map makes them exact in fio
(each unit once), else within the same 4-deviation bound.
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

UNIT = 4096


def parse_log(path):
    """{file: [(action, offset, length)]} of an iolog v3 (I/O rows only)."""
    out = {}
    with open(path) as f:
        head = f.readline().strip()
        if head != "fio version 3 iolog":
            raise ValueError(f"{path}: header {head!r}")
        for line in f:
            p = line.split()
            if len(p) == 5 and p[2] in ("read", "write", "trim"):
                out.setdefault(p[1], []).append((p[2], int(p[3]), int(p[4])))
            elif len(p) == 5 and p[2] in ("sync", "datasync"):
                out.setdefault(p[1], []).append((p[2], 0, 0))
    return out


def figures(ios):
    n = len(ios)
    rw = [x for x in ios if x[0] in ("read", "write", "trim")]
    total = sum(x[2] for x in rw)
    reads = sum(1 for x in rw if x[0] == "read")
    sizes = {}
    for x in rw:
        sizes[x[2]] = sizes.get(x[2], 0) + 1
    units = {}
    last = {}
    seq = 0
    for op, off, ln in rw:
        if last.get(op) == off:
            seq += 1
        last[op] = off + ln
        for u in range(off // UNIT, (off + ln + UNIT - 1) // UNIT):
            units[u] = units.get(u, 0) + 1
    starts = sorted(x[1] for x in rw)
    mean = sum(starts) / max(1, len(starts))
    spread = math.sqrt(sum((x - mean) ** 2 for x in starts) / max(1, len(starts)))
    deciles = [starts[len(starts) * k // 10] for k in range(1, 10)] if starts else []
    hits = sorted(units.values(), reverse=True)
    top = sum(hits[: max(1, len(hits) // 10)]) if hits else 0
    return {
        "ios": n,
        "bytes": total,
        "read_share": reads / max(1, len(rw)),
        "sizes": sizes,
        "units": len(units),
        "once": all(v == 1 for v in units.values()),
        "seq_share": seq / max(1, len(rw)),
        "hot_share": top / max(1, sum(hits)),
        "spread": spread,
        "deciles": deciles,
        "offsets": {op: [x[1] for x in rw if x[0] == op] for op in ("read", "write", "trim")},
    }


def near(a, b, n):
    p = min(max((a + b) / 2, 1.0 / max(n, 1)), 1 - 1.0 / max(n, 1))
    return abs(a - b) <= 4 * math.sqrt(p * (1 - p) / max(n, 1)) + 0.01


def compare_more(f, s, region_units, compare, align):
    """The figures of "# compare:" and "# align:" lines."""
    errs = []
    span = region_units * UNIT
    for key, tol in compare.items():
        if key == "coverage":
            a, b = f["units"] / region_units, s["units"] / region_units
        elif key == "spread":
            a, b = f["spread"] / span, s["spread"] / span
        elif key == "deciles":
            d = [abs(x - y) / span for x, y in zip(f["deciles"], s["deciles"])]
            k = max(range(len(d)), key=lambda i: d[i]) if d else 0
            a, b = (f["deciles"][k] / span, s["deciles"][k] / span) if d else (0, 0)
            key = f"decile {k + 1}"
        else:
            raise ValueError(f"# compare: unknown figure {key}")
        if abs(a - b) > tol:
            errs.append(f"{key}: fio {a:.3f}, ftlsim {b:.3f} (tolerance {tol})")
    for op, unit in align.items():
        for who, fig in (("fio", f), ("ftlsim", s)):
            bad = [o for o in fig["offsets"][op] if o % unit]
            if bad:
                errs.append(f"{who}: {len(bad)} {op} offsets not a multiple of {unit}, "
                            f"first {bad[0]}")
    return errs


def compare_stats(name, f, s, region_units, one_run=True):
    errs = []
    n = f["ios"]
    if one_run and abs(s["ios"] - n) > max(2, 4 * math.sqrt(n)) and \
            abs(s["bytes"] - f["bytes"]) > 0.02 * f["bytes"]:
        errs.append(f"I/Os: fio {n}, ftlsim {s['ios']}")
    if one_run and abs(s["bytes"] - f["bytes"]) > max(0.02 * f["bytes"], 4 * math.sqrt(n) * 65536):
        errs.append(f"bytes: fio {f['bytes']}, ftlsim {s['bytes']}")
    if f["once"] != s["once"]:
        errs.append(f"each unit once: fio {f['once']}, ftlsim {s['once']}")
    cf, cs = f["units"] / region_units, s["units"] / region_units
    if not (abs(cf - cs) <= 0.02 or near(cf, cs, n)):
        errs.append(f"coverage: fio {cf:.3f}, ftlsim {cs:.3f}")
    for key in ("read_share", "seq_share", "hot_share"):
        if not near(f[key], s[key], n):
            errs.append(f"{key}: fio {f[key]:.3f}, ftlsim {s[key]:.3f}")
    for bs in sorted(set(f["sizes"]) | set(s["sizes"])):
        a = f["sizes"].get(bs, 0) / max(1, n)
        b = s["sizes"].get(bs, 0) / max(1, s["ios"])
        if not near(a, b, n):
            errs.append(f"share of {bs}-byte I/Os: fio {a:.3f}, ftlsim {b:.3f}")
    return errs


def compare_identical(f, s):
    """The same I/Os in the same order; the first difference."""
    k = min(len(f), len(s))
    i = next((i for i in range(k) if f[i] != s[i]), k)
    if i == k and len(f) == len(s):
        return []
    got = s[i] if i < len(s) else "nothing"
    want = f[i] if i < len(f) else "nothing"
    return [f"I/O #{i} of fio {len(f)}, ftlsim {len(s)}: fio {want}, ftlsim {got}"]


def compare_exact(f, s):
    """Identical sequences; a mixed job per direction (its interleaving is drawn)."""
    if [x for x in f if x[0] != "sync"] == [x for x in s if x[0] != "sync"] and \
            sum(x[0] == "sync" for x in f) == sum(x[0] == "sync" for x in s):
        return []
    ops = {x[0] for x in f} | {x[0] for x in s}
    if ops >= {"read", "write"}:
        errs = []
        for op in ("read", "write"):
            a = [x for x in f if x[0] == op]
            b = [x for x in s if x[0] == op]
            k = min(len(a), len(b))
            if a[:k] != b[:k]:
                i = next(i for i in range(k) if a[i] != b[i])
                errs.append(f"{op} #{i}: fio {a[i]}, ftlsim {b[i]}")
        if not near(figures(f)["read_share"], figures(s)["read_share"], len(f)):
            errs.append(f"read share: fio {figures(f)['read_share']:.3f}, "
                        f"ftlsim {figures(s)['read_share']:.3f}")
        # the direction of the last I/O is drawn: the totals may differ by one
        if abs(sum(x[2] for x in f) - sum(x[2] for x in s)) > max(x[2] for x in f + s):
            errs.append(f"bytes: fio {sum(x[2] for x in f)}, ftlsim {sum(x[2] for x in s)}")
        return errs
    k = min(len(f), len(s))
    i = next((i for i in range(k) if f[i] != s[i]), k)
    got = s[i] if i < len(s) else "nothing"
    want = f[i] if i < len(f) else "nothing"
    return [f"I/O #{i} of fio {len(f)}, ftlsim {len(s)}: fio {want}, ftlsim {got}"]


SUFFIX = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def header(path):
    mode, checks, region, fio_set = None, {}, None, {}
    extra = {"message": None, "files": {}, "compare": {}, "align": {}, "runs": 0}
    with open(path) as f:
        for line in f:
            m = re.match(r"#\s*mode:\s*(\w+)", line)
            if m:
                mode = m.group(1)
            m = re.match(r"#\s*message:\s*(.*\S)", line)
            if m:
                extra["message"] = m.group(1)
            m = re.match(r"#\s*fio-file:\s*(\S+)=(\d+)([kmg]?)\s*$", line)
            if m:
                extra["files"][m.group(1)] = int(m.group(2)) * SUFFIX[m.group(3)]
            m = re.match(r"#\s*(compare|align):\s*(.*)", line)
            if m:
                for kv in m.group(2).split():
                    k, v = kv.split("=")
                    extra[m.group(1)][k] = float(v) if m.group(1) == "compare" else int(v)
            m = re.match(r"#\s*runs:\s*(\d+)", line)
            if m:
                extra["runs"] = int(m.group(1))
            m = re.match(r"#\s*fio-set:\s*(\w+)=(\S+)", line)
            if m:
                fio_set[m.group(1)] = m.group(2)
            m = re.match(r"#\s*check:\s*(.*)", line)
            if m:
                for kv in m.group(1).split():
                    k, v = kv.split("=")
                    checks[k] = v
            m = re.match(r"\s*size\s*=\s*(\d+)([kmg]?)\s*$", line)
            if m and region is None:
                region = int(m.group(1)) * SUFFIX[m.group(2)]
    return mode, checks, region, fio_set, extra


def check_figures(name, who, fig, checks):
    errs = []
    for k, v in checks.items():
        got = fig.get(k if k != "coverage" else "units")
        want = int(v)
        if got != want:
            errs.append(f"{who}: {k} {got}, expected {want}")
    return errs


def job_copy(job, dst_path, fio_set, seed=None):
    """JOB with fio_set's values, and randseed=SEED in each section."""
    with open(job) as src, open(dst_path, "w") as dst:
        for line in src:
            key = line.split("=")[0].strip()
            dst.write(f"{key}={fio_set[key]}\n" if key in fio_set else line)
            if seed is not None and re.match(r"\s*\[.*\]\s*$", line):
                dst.write(f"randseed={seed}\n")


def run_both(ftlsim, drive, job, work, fio_set, seed=None, sim_job=None):
    """fio on a copy of JOB in WORK, ftlsim on JOB (or SIM_JOB) into WORK/out."""
    job_copy(job, os.path.join(work, os.path.basename(job)), fio_set, seed)
    if sim_job is None:
        sim_job = os.path.abspath(job)
    fio = subprocess.run(["fio", "--output-format=terse", os.path.basename(job)], cwd=work,
                         capture_output=True, text=True, timeout=60)
    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
    sim = subprocess.run([ftlsim, "run", "-q", "-d", drive, "--job", sim_job, "-o",
                          os.path.join(work, "out")], cwd=work, capture_output=True, text=True,
                         timeout=60)
    return fio, sim


def run_seeds(ftlsim, drive, job, work, mode, region, fio_set, more):
    """Both tools N times (randseed=1..N): the mean I/O count, and the figures
    of every run."""
    counts = {"fio": [], "ftlsim": []}
    errs = []
    sim_job = os.path.join(work, "sim-" + os.path.basename(job))
    for seed in range(1, more["runs"] + 1):
        job_copy(job, sim_job, {}, seed)
        fio, sim = run_both(ftlsim, drive, job, work, fio_set, seed, sim_job)
        if fio.returncode != 0 or sim.returncode != 0:
            return [f"seed {seed}: fio exit {fio.returncode}, ftlsim exit {sim.returncode}: "
                    f"{(sim.stderr or fio.stderr).strip()[:200]}"]
        for log in sorted(x for x in os.listdir(work) if x.endswith(".iolog")):
            fi = [x for v in parse_log(os.path.join(work, log)).values() for x in v]
            si = [x for v in parse_log(os.path.join(work, "out", log)).values() for x in v]
            os.remove(os.path.join(work, log))
            counts["fio"].append(len(fi))
            counts["ftlsim"].append(len(si))
            if mode == "identical":
                errs += [f"seed {seed}: {e}" for e in compare_identical(fi, si)]
            units = (region or max(x[1] + x[2] for x in fi)) // UNIT
            errs += [f"seed {seed}: {e}" for e in
                     compare_more(figures(fi), figures(si), units, {}, more["align"])]
    n = len(counts["fio"])
    mf, ms = (sum(v) / n for v in counts.values())
    var = sum(sum((x - m) ** 2 for x in v) / max(1, n - 1) for v, m in
              ((counts["fio"], mf), (counts["ftlsim"], ms)))
    if abs(mf - ms) > 4 * math.sqrt(var / n) + 1:
        errs.append(f"mean I/Os over {n} seeds: fio {mf:.1f}, ftlsim {ms:.1f}")
    return errs


def run_one(ftlsim, drive, job, tmp):
    name = os.path.basename(job)[:-4]
    mode, checks, region, fio_set, more = header(job)
    work = os.path.join(tmp, name)
    os.makedirs(work)
    for fname, size in more["files"].items():
        with open(os.path.join(work, fname), "wb") as f:
            f.truncate(size)
    for extra in os.listdir(os.path.dirname(job)):
        if extra.endswith(".in"):
            shutil.copy(os.path.join(os.path.dirname(job), extra), work)
    if more["runs"]:
        return run_seeds(ftlsim, drive, job, work, mode, region, fio_set, more)
    fio, sim = run_both(ftlsim, drive, job, work, fio_set)
    if mode == "refuse":
        errs = []
        if fio.returncode == 0:
            errs.append("fio ran it, expected a refusal")
        if sim.returncode != 2:
            errs.append(f"ftlsim exit {sim.returncode}, expected 2: {sim.stderr.strip()}")
        said = more["message"]
        if said and said not in fio.stdout + fio.stderr:
            errs.append(f"fio did not say {said!r}: {(fio.stderr or fio.stdout).strip()[:200]}")
        if said and said not in sim.stderr:
            errs.append(f"ftlsim did not say {said!r}: {sim.stderr.strip()[:200]}")
        return errs
    if fio.returncode != 0:
        return [f"fio failed: {(fio.stderr or fio.stdout).strip()[:200]}"]
    if sim.returncode != 0:
        return [f"ftlsim failed: {sim.stderr.strip()[:200]}"]
    logs = sorted(x for x in os.listdir(work) if x.endswith(".iolog"))
    if not logs:
        return ["fio wrote no iolog (each job needs write_iolog=NAME.iolog)"]
    errs = []
    for log in logs:
        f = parse_log(os.path.join(work, log))
        spath = os.path.join(work, "out", log)
        if not os.path.exists(spath):
            errs.append(f"{log}: ftlsim wrote no such iolog")
            continue
        s = parse_log(spath)
        for fname in sorted(set(f) | set(s)):
            fi, si = f.get(fname, []), s.get(fname, [])
            if mode == "exact":
                errs += [f"{log}: {e}" for e in compare_exact(fi, si)]
            elif mode == "identical":
                errs += [f"{log}: {e}" for e in compare_identical(fi, si)]
            else:
                units = (region or max(x[1] + x[2] for x in fi)) // UNIT
                errs += [f"{log}: {e}" for e in compare_stats(name, figures(fi), figures(si), units)]
                errs += [f"{log}: {e}" for e in compare_more(figures(fi), figures(si), units,
                                                             more["compare"], more["align"])]
            errs += [f"{log}: {e}" for e in check_figures(name, "fio", figures(fi), checks)]
            errs += [f"{log}: {e}" for e in check_figures(name, "ftlsim", figures(si), checks)]
    return errs


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    ftlsim, folder = os.path.abspath(sys.argv[1]), sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    drive = os.path.join(here, "data", "drives", "small_tlc.ini")
    jobs = sys.argv[3:] or sorted(os.path.join(folder, x) for x in os.listdir(folder)
                                  if x.endswith(".fio"))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for job in jobs:
            errs = run_one(ftlsim, drive, job, tmp)
            name = os.path.basename(job)
            if errs:
                failed += 1
                print(f"FAIL {name}")
                for e in errs[:6]:
                    print(f"     {e}")
            else:
                print(f"ok   {name}")
    print(f"{len(jobs) - failed} of {len(jobs)} jobs agree with fio")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
