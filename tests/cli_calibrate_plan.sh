#!/usr/bin/env bash
# cli_calibrate_plan.sh - ftlsim calibrate --plan: one key a family shares
# (TLC tPROG, in the family file two small drives include) fitted on both
# drives' figures at once comes back within 3% of the value that made them
# (3 ms, from the family's 2.4 ms); a check run whose "measurement" was made
# at 4.5 ms is reported beside the fit but does not move it (the same run as
# a fit run does: that is what the check would do if it reached the loss);
# bad plans are refused with one line naming the plan, group and key.
# Usage: bash tests/cli_calibrate_plan.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
wl='rw=write,bs=128k,iodepth=32,size=600m'

# the family (the small drive) and two members: a 100 MB and a 200 MB cache
cp tests/data/drives/small_tlc_pslc.ini "$tmp/fam.ini"
printf 'include = fam.ini\n[drive]\nname = member A\n' >"$tmp/a.ini"
printf 'include = fam.ini\n[drive]\nname = member B\n[pslc]\ndynamic_cap = 200MB\n' >"$tmp/b.ini"
printf 'include = fam.ini\n[timing.tlc]\nt_prog = 2ms\n' >"$tmp/c.ini"

# rate@GB=A..B of a run's series: (B - A) * 1000 / (t(B) - t(A)), t linear
# between rows, as the figure language defines it
rate() { # DRIVE T_PROG A B
    "$bin" run -q -d "$tmp/$1" -w "$wl" --interval-bytes 10MB --set "timing.tlc.t_prog=$2" \
        -o "$tmp/truth-$1-$2" || return 1
    python3 - "$tmp/truth-$1-$2/series.csv" "$3" "$4" <<'PY'
import csv, sys
rows = [(0.0, 0.0)] + [(float(r["host_written_GB"]), float(r["t_s"]))
                       for r in csv.DictReader(open(sys.argv[1]))]
def t(x):
    for (g0, t0), (g1, t1) in zip(rows, rows[1:]):
        if g0 <= x <= g1:
            return t0 + (t1 - t0) * (x - g0) / (g1 - g0)
a, b = float(sys.argv[2]), float(sys.argv[3])
print(f"{round((b - a) * 1000 / (t(b) - t(a)), 2):g}")
PY
}
va=$(rate a.ini 3ms 0.3 0.6) && vb=$(rate b.ini 3ms 0.35 0.6) && vc=$(rate b.ini 4.5ms 0.35 0.6) ||
    { fail "the truth runs"; exit 1; }

plan() { # FILE ROLE_OF_THE_THIRD_RUN
    cat >"$1" <<EOF
# two members of a family, one shared key
[plan]
family = fam.ini

[fit]
timing.tlc.t_prog = 1.5ms..6ms

[run a]
drive = a.ini
workload = $wl
figures = rate@GB=0.3..0.6=$va
sources = A1

[run b]
drive = b.ini
workload = $wl
figures = rate@GB=0.35..0.6=$vb
sources = B1
role = fit

[run b-other]
drive = b.ini
workload = $wl
figures = rate@GB=0.35..0.6=$vc
sources = B2
role = $2
EOF
}
plan "$tmp/fam.plan" check
plan "$tmp/all.plan" fit

# bad plans: one line naming the plan, group and key
bad() { # NAME: a copy of fam.plan through sed EXPR
    sed "$2" "$tmp/fam.plan" >"$tmp/$1.plan"
}
bad role 's/^role = check/role = maybe/'
bad key 's/^sources = A1/source = A1/'
bad group 's/^\[run a\]/[runs a]/'
bad nofig 's/^figures = rate@GB=0.3..0.6=.*/figures = /'
bad far 's/^figures = rate@GB=0.3..0.6=/figures = rate@GB=0.3..2=/'
bad srcs 's/^sources = A1/sources = A1; A2/'
bad both 's/^drive = a.ini/drive = a.ini\njob = x.fio/'
bad shared 's/^drive = b.ini/drive = c.ini/'
bad family 's/^family = fam.ini/family = nofam.ini/'
bad nofit 's/^role = fit/role = check/; /^sources = A1/a role = check'
p=$tmp
expect_error "--drive with --plan: the plan's runs give their drives" calibrate --plan "$p/fam.plan" -d "$p/a.ini"
expect_error "--plan $p/role.plan: [run b-other] role: found \"maybe\", expected fit or check" calibrate --plan "$p/role.plan"
expect_error "--plan $p/key.plan: [run a] source: unknown key" calibrate --plan "$p/key.plan"
expect_error "--plan $p/group.plan: [runs a]: unknown group; expected [plan], [fit] or [run NAME]" calibrate --plan "$p/group.plan"
expect_error "--plan $p/nofig.plan: [run a] figures: missing" calibrate --plan "$p/nofig.plan"
expect_error "run a: --figure rate@GB=0.3..2: found 2 GB, beyond the" calibrate --plan "$p/far.plan"
expect_error "--plan $p/srcs.plan: [run a] sources: 2 sources for 1 figures" calibrate --plan "$p/srcs.plan"
expect_error "--plan $p/both.plan: [run a] job: given with workload" calibrate --plan "$p/both.plan"
expect_error "run b's drive $p/c.ini has 2ms, the first run's 2.4ms; expected a key the plan's drives share" calibrate --plan "$p/shared.plan"
expect_error "--plan $p/family.plan: [plan] family: $p/nofam.ini: no such file" calibrate --plan "$p/family.plan"
expect_error "no fit run; expected at least one run with role = fit" calibrate --plan "$p/nofit.plan"
expect_error "--plan $p/none.plan:" calibrate --plan "$p/none.plan"

# the fit on both drives, the check beside it
out=$tmp/cal
if ! "$bin" calibrate --plan "$tmp/fam.plan" --jobs 2 --max-evals 40 -o "$out" \
    >"$tmp/stdout" 2>"$tmp/stderr"; then
    fail "the calibration failed: $(tail -n 2 "$tmp/stderr")"
    exit 1
fi
python3 - "$out/fit.json" "$vb" "$vc" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
vb, vc = float(sys.argv[2]), float(sys.argv[3])
ok = True
def no(msg):
    global ok
    print("FAIL: " + msg, file=sys.stderr)
    ok = False
got = j["fitted"]["timing.tlc.t_prog"]
if got is None or abs(got - 3e-3) / 3e-3 > 0.03:
    no(f"t_prog fitted {got}, expected 3 ms within 3%")
if [f["run"] for f in j["figures"]] != ["a", "b"] or [f["source"] for f in j["figures"]] != ["A1", "B1"]:
    no(f"the fit figures are not runs a and b: {j['figures']}")
chk = j["checks"]
if len(chk) != 1 or chk[0]["run"] != "b-other" or chk[0]["measured"] != vc:
    no(f"the check is not run b-other's {vc}: {chk}")
else:
    c = chk[0]["calibrated"]
    # the calibrated drive gives the 3 ms rate there, not the check's own
    if abs(c - vb) / vb > 0.03 or abs(c - vc) / vc < 0.1:
        no(f"check calibrated {c}: expected {vb} (3 ms), far from its measured {vc}")
if not j["loss"] < 1e-3:
    no(f"loss {j['loss']}: the check's miss reached it?")
if [r["role"] for r in j["runs"]] != ["fit", "fit", "check"]:
    no(f"runs: {j['runs']}")
sys.exit(0 if ok else 1)
PY
grep -q "^check     b-other B2 rate@GB=0.35..0.6: measured $vc, stock [0-9.]*, calibrated [0-9.]* (not in the loss)$" "$tmp/stdout" ||
    fail "no check line: $(grep '^check' "$tmp/stdout")"
grep -q "^figure    a A1 rate@GB=0.3..0.6: measured $va" "$tmp/stdout" || fail "no figure line of run a"
grep -q '^"rate@GB=0.35..0.6",[0-9.]*,[0-9.]*,[0-9.]*,0,"b-other",check,"B2"$' "$out/figures.csv" ||
    fail "figures.csv lacks the check row (weight 0)"
# calibrated.ini is the family file with the key fitted and marked, and a
# member loads with it
grep -q "^# C: calibrated to A1 (a: rate@GB=0.3..0.6=$va) and B1 (b: rate@GB=0.35..0.6=$vb): loss" "$out/calibrated.ini" ||
    fail "calibrated.ini lacks the mark naming the fit figures"
grep -q "B2" "$out/calibrated.ini" && fail "calibrated.ini names the check figure as fitted"
cp "$out/calibrated.ini" "$tmp/fam.ini"
"$bin" check "$tmp/b.ini" >/dev/null || fail "a member does not load with the calibrated family"

# the same run as a fit run pulls the key away from 3 ms: the check above
# would have, had it reached the loss
cp tests/data/drives/small_tlc_pslc.ini "$tmp/fam.ini"
if "$bin" calibrate --plan "$tmp/all.plan" --jobs 2 --max-evals 40 -q -o "$tmp/all" 2>"$tmp/stderr"; then
    python3 - "$tmp/all/fit.json" <<'PY' || fail "the third run as a fit run did not move the fit"
import json, sys
got = json.load(open(sys.argv[1]))["fitted"]["timing.tlc.t_prog"]
sys.exit(0 if got is not None and abs(got - 3e-3) / 3e-3 > 0.05 else 1)
PY
else
    fail "the calibration on three fit runs failed: $(tail -n 2 "$tmp/stderr")"
fi

finish "$n bad plans refused, a shared key fitted on two drives, a check outside the loss"
