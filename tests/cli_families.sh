#!/usr/bin/env bash
# cli_families.sh - drive files that include a family file (docs/config.md,
# "Family files"): every drive of configs/ loads; each capacity added from
# published.md checks, runs a short write and reads back, names its family
# files in summary.json, and resolves to its reviewed sibling's controller,
# firmware and NAND except the keys it sets itself; an including file's keys
# override the family's and --set overrides both; calibrate's calibrated.ini
# still finds the family; a missing family, an include loop, an include
# after a group or twice, and a bad key in a family file are refused with
# one line naming the file (and line).
# Usage: bash tests/cli_families.sh FTLSIM_BINARY (from the source root)
set -uo pipefail
source tests/lib.sh "$@"

# ---- the library ------------------------------------------------------------
n=$((n + 1))
"$bin" drives configs >"$tmp/drives" 2>&1 || fail "drives configs failed: $(head -n 3 "$tmp/drives")"
bad=$(grep -v '  ok$' "$tmp/drives")
[ -z "$bad" ] || fail "drives that do not load: $bad"
grep -q '^families' "$tmp/drives" && fail "drives lists the families folder"

# new drive|its reviewed sibling|the keys it may set that the sibling sets otherwise
siblings=(
    "850evo-250gb|850evo|controller.ces_per_channel pslc.static"
    "860evo-250gb|860evo|nand.blocks_per_plane pslc.static pslc.dynamic_cap"
    "870evo-250gb|870evo|nand.blocks_per_plane pslc.static pslc.dynamic_cap"
    "870evo-1tb|870evo|controller.ces_per_channel controller.dram pslc.static pslc.dynamic_cap"
    "870evo-4tb|870evo|controller.ces_per_channel controller.dram pslc.static pslc.dynamic_cap"
    "870qvo-8tb|870qvo|controller.ces_per_channel controller.dram pslc.dynamic_cap"
    "970evoplus-250gb|970evoplus|controller.ces_per_channel pslc.dynamic_cap"
    "970evoplus-1tb|970evoplus|controller.ces_per_channel controller.dram pslc.static pslc.dynamic_cap"
    "970evoplus-2tb|970evoplus|controller.ces_per_channel controller.dram pslc.static pslc.dynamic_cap"
    "p5336-7tb|p5336-61tb|controller.ces_per_channel controller.dram nand.dies_per_ce"
    "p5336-15tb|p5336-61tb|controller.ces_per_channel controller.dram nand.dies_per_ce"
    "p5336-30tb|p5336-61tb|controller.ces_per_channel controller.dram"
)
# The drive_config of a results folder's summary.json, one "group.key=value"
# a line, the [drive] group left out.
resolved() {
    python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["drive_config"]
for g in sorted(c):
    if g != "drive":
        for k in sorted(c[g]):
            print(f"{g}.{k}={c[g][k]}")' "$1/summary.json"
}
job='rw=write,bs=128k,iodepth=32,size=512m;rw=read,bs=128k,iodepth=32,size=512m'
for s in "${siblings[@]}"; do
    IFS='|' read -r drive ref keys <<<"$s"
    n=$((n + 1))
    "$bin" check configs/$drive.ini >"$tmp/$drive.check" 2>&1 || {
        fail "check $drive: $(head -n 2 "$tmp/$drive.check")"
        continue
    }
    grep -q '^family  *configs/families/' "$tmp/$drive.check" || fail "check $drive names no family"
    for d in "$drive" "$ref"; do
        [ -d "$tmp/$d" ] && continue
        "$bin" run -q -d configs/$d.ini -w "$job" -o "$tmp/$d" 2>"$tmp/$d.err" ||
            fail "run $d: $(head -n 2 "$tmp/$d.err")"
    done
    [ -f "$tmp/$drive/summary.json" ] || continue
    grep -q '"family_files": \[' "$tmp/$drive/summary.json" || fail "$drive: no family_files in summary.json"
    python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
ok = s["host"]["write_bytes"] == s["host"]["read_bytes"] == 512 << 20
sys.exit(0 if ok else 1)' "$tmp/$drive/summary.json" || fail "$drive: did not write and read 512 MiB"
    # what differs from the sibling is what the drive file sets, and no more
    differ=$(diff <(resolved "$tmp/$ref") <(resolved "$tmp/$drive") | sed -n 's/^> \([^=]*\)=.*/\1/p' | sort)
    want=$(tr ' ' '\n' <<<"$keys" | sort)
    [ "$differ" = "$want" ] || fail "$drive against $ref: differs in $(echo $differ), expected $(echo $want)"
done

# ---- override rules ---------------------------------------------------------
mkdir -p "$tmp/lib/families"
# a whole drive (every key) without the keys the families below set
sed -e '/^cmd_cost =/d' -e '/^fold_idle_delay =/d' -e 's/^fold_policy = .*/fold_policy = native_first/' \
    configs/reference.ini >"$tmp/body.ini"
cat >"$tmp/lib/families/base.ini" <<'EOF'
[host]
interface = sata
cmd_cost = 3us
[pslc]
fold_idle_delay = 7s
EOF
cat >"$tmp/lib/families/line.ini" <<'EOF'
include = base.ini
[host]
cmd_cost = 4us
EOF
{ echo "include = families/line.ini"; cat "$tmp/body.ini"; } >"$tmp/lib/d.ini"
n=$((n + 1))
"$bin" run -q -d "$tmp/lib/d.ini" -w 'rw=write,bs=4k,size=64k' -o "$tmp/over" 2>"$tmp/over.err" ||
    fail "a drive with a nested family: $(cat "$tmp/over.err")"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
c = s["drive_config"]
want = (4000, "native_first", 7e9, [sys.argv[2] + "/families/line.ini", sys.argv[2] + "/families/base.ini"])
got = (c["host"]["cmd_cost"], c["pslc"]["fold_policy"], c["pslc"]["fold_idle_delay"], s["family_files"])
sys.exit(0 if got == want else print(got, "expected", want) or 1)' "$tmp/over/summary.json" "$tmp/lib" ||
    fail "the nearest file's keys do not win, or groups do not merge"
"$bin" run -q -d "$tmp/lib/d.ini" --set host.cmd_cost=5us -w 'rw=write,bs=4k,size=64k' -o "$tmp/set" 2>/dev/null
grep -q '"cmd_cost": 5000' "$tmp/set/summary.json" || fail "--set does not override a family's key"
"$bin" check "$tmp/lib/d.ini" | grep -q "which includes $tmp/lib/families/base.ini" ||
    fail "check does not name the nested family"

# ---- calibrate's copy of a drive file finds its family ----------------------
mkdir -p "$tmp/cal/families"
cp tests/data/drives/small_tlc.ini "$tmp/cal/families/small.ini"
printf 'include = families/small.ini\n[drive]\nname = Small drive of a family\n' >"$tmp/cal/d.ini"
n=$((n + 1))
if "$bin" calibrate -d "$tmp/cal/d.ini" -w 'rw=randread,bs=4k,iodepth=1,io_size=1m' --prefill 50% \
    --figure 'summary:read_mean_us=60' --fit host.cmd_cost=1us..40us --jobs 2 --max-evals 8 \
    -o "$tmp/cal/out" >"$tmp/cal.out" 2>&1; then
    grep -qx "include = $tmp/cal/families/small.ini" "$tmp/cal/out/calibrated.ini" ||
        fail "calibrated.ini does not name the family by its full path: $(grep include "$tmp/cal/out/calibrated.ini")"
    "$bin" check "$tmp/cal/out/calibrated.ini" >"$tmp/cal.check" 2>&1 ||
        fail "calibrated.ini does not load: $(head -n 1 "$tmp/cal.check")"
else
    fail "calibrating a drive of a family failed: $(tail -n 2 "$tmp/cal.out")"
fi

# ---- refusals ---------------------------------------------------------------
printf 'include = families/none.ini\n[drive]\nname = x\n' >"$tmp/lib/missing.ini"
expect_error --no-out "$tmp/lib/missing.ini:1: include = \"families/none.ini\": " check "$tmp/lib/missing.ini"
printf 'include = loop.ini\n' >"$tmp/lib/families/loop2.ini"
printf '# a loop\ninclude = loop2.ini\n[drive]\nname = x\n' >"$tmp/lib/families/loop.ini"
expect_error --no-out "$tmp/lib/families/loop2.ini:1: include = \"loop.ini\": found an include loop" \
    check "$tmp/lib/families/loop.ini"
printf 'include = self.ini\n' >"$tmp/lib/self.ini"
expect_error --no-out "$tmp/lib/self.ini:1: include = \"self.ini\": found an include loop" check "$tmp/lib/self.ini"
printf '[drive]\ninclude = families/base.ini\n' >"$tmp/lib/late.ini"
expect_error --no-out "$tmp/lib/late.ini:2: include: expected before the first [group]" check "$tmp/lib/late.ini"
printf 'include = families/base.ini\ninclude = families/line.ini\n' >"$tmp/lib/twice.ini"
expect_error --no-out "$tmp/lib/twice.ini:2: include: repeated (first on line 1)" check "$tmp/lib/twice.ini"
printf '[host]\ncmd_cost = 3\n' >"$tmp/lib/families/badval.ini"
{ echo "include = families/badval.ini"; cat "$tmp/body.ini"; } >"$tmp/lib/badval.ini"
expect_error --no-out "$tmp/lib/families/badval.ini: [host] cmd_cost = \"3\": expected" check "$tmp/lib/badval.ini"
printf '[host]\ncmd_cots = 3us\n' >"$tmp/lib/families/badkey.ini"
{ echo "include = families/badkey.ini"; cat "$tmp/body.ini"; } >"$tmp/lib/badkey.ini"
expect_error --no-out "$tmp/lib/families/badkey.ini: [host] cmd_cots: unknown key (did you mean cmd_cost?)" \
    check "$tmp/lib/badkey.ini"
expect_error "$tmp/lib/missing.ini:1: include" run -d "$tmp/lib/missing.ini" -w 'rw=write,bs=4k,size=64k'

finish "$n checks passed"
