#!/usr/bin/env bash
# cli_fio_options.sh - docs/workloads.md's table of fio's options agrees
# with ftlsim: scripts/fio-options runs every option of the table through
# "ftlsim run --dry-run" (accepted when the table says "as fio" or "no
# effect", refused by name when it says "refused"); and, where Debian's
# fio 3.33 is installed, every option fio --cmdhelp=all lists is in the
# table (their aliases were added from fio --cmdhelp=NAME).
# Usage: bash tests/cli_fio_options.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"

n=$((n + 1))
python3 scripts/fio-options "$bin" >"$tmp/out" 2>&1 || fail "scripts/fio-options: $(cat "$tmp/out")"

if [ "$(fio --version 2>/dev/null)" = fio-3.33 ]; then
    sed -n 's/^| `\([^`]*\)` | .*| \(as fio\|no effect\|refused\) |.*/\1/p' docs/workloads.md |
        sort -u >"$tmp/table"
    fio --cmdhelp=all | sed 's/^ *\([^ :]*\).*/\1/' | sort -u >"$tmp/fio"
    n=$((n + 1))
    missing=$(comm -23 "$tmp/fio" "$tmp/table" | tr '\n' ' ')
    [ -z "$missing" ] || fail "fio options missing from docs/workloads.md's table: $missing"
fi
finish "$n checks"
