#!/usr/bin/env bash
# cli_help_examples.sh - every example that `ftlsim COMMAND --help` gives
# runs, and every "e.g. --OPTION VALUE" of an option's help is accepted.
# The examples simulate whole drives for minutes, so the test runs each
# with --dry-run where the command has it (run, pts, calibrate: every input
# checked and the workload bound to the drive, nothing simulated or
# written) and must exit 0. Examples that simulate nothing run as they are
# (check, an --emit sweep); a `parallel < JOBS` line runs the emitted jobs
# one after another, as GNU parallel would, so that the `sweep collect`
# after it finds every run finished and exits 0. Each option example is
# added to its command's first example. They run in a folder with
# configs/ and the qvo.csv curve calibrate's example reads.
# Usage: bash tests/cli_help_examples.sh FTLSIM_BINARY (from the source root)
set -uo pipefail
source tests/lib.sh "$@"
root=$PWD
mkdir "$tmp/cwd" && ln -s "$root/configs" "$tmp/cwd/configs"
printf 'GB,MBps\n10,500\n40,480\n55,160\n' >"$tmp/cwd/qvo.csv"
cd "$tmp/cwd" || exit 1

commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
[ "$(wc -w <<<"$commands")" -ge 8 ] || fail "ftlsim --help lists too few commands: $commands"

# One example line, as the shell would read it (quotes and all).
run_example() { # run_example EXPECTED_STATUS LINE
    local want=$1 line=$2 args
    eval "args=($line)"
    args=("${args[@]:1}") # without "ftlsim"
    case "${args[0]} ${args[*]}" in
        run*--emit* | check* | drives* | plot* | config-reference*) ;;
        run* | pts* | calibrate*) args+=(--dry-run) ;;
    esac
    n=$((n + 1))
    "$bin" "${args[@]}" >"$tmp/out" 2>&1
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "exit $rc, expected $want: ftlsim ${args[*]}: $(head -n 3 "$tmp/out")"
    fi
}

# `parallel < JOBS`: each line of JOBS is a whole shell command.
run_jobs() { # run_jobs JOBS_FILE
    n=$((n + 1))
    if [ ! -s "$1" ]; then
        fail "parallel < $1: no jobs were emitted"
    elif ! bash -e "$1" >"$tmp/out" 2>&1; then
        fail "a job of $1 failed: $(head -n 3 "$tmp/out")"
    fi
}

examples=0
for c in $commands; do
    help=$("$bin" "$c" --help) || fail "ftlsim $c --help: exit $?"
    first=
    while IFS= read -r line; do
        line=${line#"${line%%[![:space:]]*}"}
        case $line in
            "ftlsim "*)
                [ -n "$first" ] || first=$line
                run_example 0 "$line"
                examples=$((examples + 1))
                ;;
            "parallel < "*) run_jobs "${line#parallel < }" ;;
        esac
    done < <(awk '/^Example/ { on = 1; next } on && NF == 0 { on = 0 } on' <<<"$help")
    # the options' own examples, on the command's first example
    [ -n "$first" ] || continue
    while IFS= read -r opt; do
        case " $first " in *" ${opt%%[ =]*}"[\ =]*) continue ;; esac # given there already
        run_example 0 "$first $opt"
        examples=$((examples + 1))
    done < <(grep -oE 'e\.g\. --[a-z-]+[ =][^ ;)]+' <<<"$help" | sed -e 's/^e\.g\. //' -e 's/[,.]$//')
done
# --dry-run wrote nothing
for d in results/qvo results/rw results/pts-iops results/wsat results/cal; do
    [ ! -e "$d" ] || fail "--dry-run made $d"
done
[ "$examples" -ge 10 ] || fail "only $examples examples found in the --help texts"
finish "$examples --help examples run"
