#!/usr/bin/env bash
# cli_manpage.sh - docs/ftlsim.1 keeps up with the commands: every long
# option each command's --help lists, and every command, appear in it.
# Usage: bash tests/cli_manpage.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
man=docs/ftlsim.1
# the man page escapes hyphens: \-\-trace\-format
plain=$(sed 's/\\-/-/g' "$man")
for cmd in run calibrate pts check drives plot sweep config-reference emulate; do
    n=$((n + 1))
    grep -qE "^\.B(R)? ftlsim $cmd|^\.B $cmd( collect)?\$" <<<"$plain" ||
        fail "$man does not describe the command $cmd"
    for opt in $("$bin" $cmd --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
        [ "$opt" = "--help" ] && continue
        n=$((n + 1))
        grep -qE -- "${opt}([^a-z-]|$)" <<<"$plain" || fail "$man lacks $cmd's option $opt"
    done
done

finish "$n checks passed" "$fails of $n checks failed"
