#!/usr/bin/env bash
# cli_exports.sh - no function of sim/ or models/ is exported that no other
# file uses (scripts/unused-exports), and the checker finds one where there
# is one.
# Usage: bash tests/cli_exports.sh FTLSIM_BINARY (from the source root; unused).
set -uo pipefail
source tests/lib.sh "$@"

out=$(python3 scripts/unused-exports 2>&1) || fail "unused exports: $out"

out=$(python3 scripts/unused-exports tests/data/exports_unused 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "a fixture with unused exports: exit $rc, expected 1: $out"
grep -q "sim/a.c: used_nowhere is exported" <<<"$out" || fail "used_nowhere not named: $out"
grep -q "sim/a.c: used_here_only is exported" <<<"$out" || fail "used_here_only not named: $out"
grep -qE "used_elsewhere|calls_it|helper" <<<"$out" && fail "a used function named: $out"
[ "$(wc -l <<<"$out")" -eq 2 ] || fail "expected two lines: $out"
finish "no unused exports"
