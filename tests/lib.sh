# shellcheck shell=bash
# tests/lib.sh - what the shell tests share. Each tests/cli_*.sh starts
#     set -uo pipefail            (or set -u: the script's own choice)
#     source tests/lib.sh "$@"
# and ends with finish. It defines:
#   bin           the ftlsim binary, the script's first argument, made
#                 absolute so that a script may cd
#   tmp           a temporary folder, removed on exit
#   fails, fail   the failures so far; fail MESSAGE prints "FAIL: MESSAGE"
#                 on stderr and counts one
#   n             the checks so far, for the tally; expect_error counts one
#   skipped       set it to 1 when checks could not run: finish then exits
#                 77, which CTest reports as skipped (SKIP_RETURN_CODE)
#   expect_error  bad input is refused cleanly (below)
#   finish        the tally and the exit status (below)
# Tests run from the source root (CMakeLists.txt), hence tests/lib.sh.

bin=${1:?usage: bash tests/${0##*/} FTLSIM_BINARY (from the source root)}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
n=0
skipped=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# expect_error [--no-out] PATTERN COMMAND ARGS...: `ftlsim COMMAND ARGS...
# -o DIR` must be refused as bad input, as every command must: exit 2,
# nothing on stdout, exactly one line on stderr that starts "ftlsim: " and
# holds PATTERN (a fixed string), and no DIR made. --no-out leaves out the
# -o DIR, for commands that take none or give their own.
expect_error() {
    n=$((n + 1))
    local out=$tmp/refused$n
    if [ "$1" = --no-out ]; then
        out=
        shift
    fi
    local pattern=$1
    shift
    "$bin" "$@" ${out:+-o "$out"} >"$tmp/stdout" 2>"$tmp/stderr"
    local rc=$? lines why=""
    lines=$(wc -l <"$tmp/stderr")
    [ "$rc" -eq 2 ] || why="exit code $rc, expected 2"
    [ -z "$why" ] && [ "$lines" -ne 1 ] && why="$lines lines on stderr, expected 1"
    [ -z "$why" ] && [ -s "$tmp/stdout" ] && why="output on stdout"
    [ -z "$why" ] && [ -n "$out" ] && [ -e "$out" ] && why="results folder $out was created"
    [ -z "$why" ] && ! grep -q '^ftlsim: ' "$tmp/stderr" && why="stderr not prefixed \"ftlsim: \""
    [ -z "$why" ] && ! grep -qF -- "$pattern" "$tmp/stderr" && why="stderr lacks \"$pattern\""
    if [ -n "$why" ]; then
        fail "ftlsim $*: $why"
        sed 's/^/  stderr: /' "$tmp/stderr" | head -n 5 >&2
    fi
}

# finish MESSAGE [FAILED]: end the test. After a failure, print "NAME:
# FAILED" (by default "N failures") on stderr and exit 1; after skipped
# checks exit 77; otherwise print "NAME: MESSAGE" and exit 0.
finish() {
    local name=${0##*/}
    name=${name%.sh}
    if [ "$fails" -gt 0 ]; then
        echo "$name: ${2:-$fails failures}" >&2
        exit 1
    fi
    [ "$skipped" -eq 0 ] || exit 77
    echo "$name: $1"
    exit 0
}
