#!/usr/bin/env bash
# cli_callgraph.sh - the file-level call graphs of models/ and sim/ have no
# cycle (scripts/callgraph), sim/'s folders call only down their layers
# (engine <- config, host <- output <- run <- cmd), no file of sim/ includes
# the drive's private header models/parts.h (itself or through another
# header), no function of sim/cmd/ is over 80 lines, and the checker finds
# a cycle, such an include and a function too long where there is one.
# Usage: bash tests/cli_callgraph.sh FTLSIM_BINARY (from the source root; unused).
set -uo pipefail
source tests/lib.sh "$@"

out=$(python3 scripts/callgraph 2>&1) || fail "models/ has a call cycle: $out"
# a few edges that must be there, so an empty graph cannot pass
for e in "hostif.c -> ftl.c" "ftl.c -> sched.c" "gc.c -> map.c" "sched.c -> chan.c"; do
    grep -q "^$e:" <<<"$out" || fail "edge $e missing from: $out"
done
# the completion paths go through registered functions, not by name
grep -qE "^sched.c -> (ftl|l2p_cache|gc|fold|nand).c" <<<"$out" && fail "sched.c calls up by name: $out"

out=$(python3 scripts/callgraph --forbid-include models/parts.h sim 2>&1) ||
    fail "sim/ has a call cycle or includes models/parts.h: $(grep '^callgraph:' <<<"$out")"
for e in "cmd/run.c -> run/runner.c" "run/runner.c -> host/workload_core.c" \
    "run/sampler.c -> output/report_table.c" "host/replay.c -> host/trace.c"; do
    grep -q "^$e:" <<<"$out" || fail "edge $e missing from sim/'s graph"
done
# every edge between folders goes down a layer
bad=$(awk 'BEGIN { L["engine"] = 0; L["config"] = 1; L["host"] = 1; L["output"] = 2; L["run"] = 3;
                 L["cmd"] = 4 }
           /^callgraph:/ { next }
           { split($1, a, "/"); split($3, b, "/") }
           a[1] != b[1] && !(a[1] in L && b[1] in L && L[a[1]] > L[b[1]]) { print }' <<<"$out")
[ -z "$bad" ] || fail "sim/ calls up or across its layers: $bad"
# the workload sources are reached through their ops, not by name
grep -qE "^host/workload_core.c -> host/(replay|workload|workload_query).c" <<<"$out" &&
    fail "workload_core.c calls a source by name: $out"

out=$(python3 scripts/callgraph --max-lines 80 sim/cmd 2>&1 >/dev/null) ||
    fail "a function of sim/cmd/ over 80 lines: $out"
mkdir -p "$tmp/long"
printf 'int four(int x)\n{\n    x++;\n    return x;\n}\n' >"$tmp/long/four.c"
python3 scripts/callgraph --max-lines 5 "$tmp/long" >/dev/null 2>&1 || fail "--max-lines 5 refused a 4-line body"
out=$(python3 scripts/callgraph --max-lines 3 "$tmp/long" 2>&1 >/dev/null)
[ $? -eq 1 ] && grep -q "four.c: four() is 4 lines, expected at most 3" <<<"$out" ||
    fail "--max-lines 3 let a 4-line body pass: $out"

out=$(python3 scripts/callgraph tests/data/callgraph_cycle 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "a cycle up.c <-> down.c: exit $rc, expected 1: $out"
grep -q "cycle: down.c -> up.c -> down.c" <<<"$out" || fail "cycle not named: $out"
# static helpers of the same name in both files are not edges
grep -q "helper" <<<"$out" && fail "a static helper counted as a call: $out"

out=$(python3 scripts/callgraph --forbid-include tests/data/callgraph_include/private.h \
    tests/data/callgraph_include 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "an include of private.h through public.h: exit $rc, expected 1: $out"
grep -q "user.c includes tests/data/callgraph_include/private.h: .*public.h -> .*private.h" \
    <<<"$out" || fail "include chain not named: $out"
finish "no cycle in models/ or sim/, no private header in sim/, no function of sim/cmd/ over 80 lines"
