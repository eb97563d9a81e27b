#!/usr/bin/env bash
# cli_callgraph.sh - the file-level call graph of models/ has no cycle
# (scripts/callgraph), and the checker finds one where there is one.
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

out=$(python3 scripts/callgraph tests/data/callgraph_cycle 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "a cycle up.c <-> down.c: exit $rc, expected 1: $out"
grep -q "cycle: down.c -> up.c -> down.c" <<<"$out" || fail "cycle not named: $out"
# static helpers of the same name in both files are not edges
grep -q "helper" <<<"$out" && fail "a static helper counted as a call: $out"
finish "no cycle in models/"
