# cli_manpage.sh - docs/ftlsim.1 keeps up with the commands: every long
# option each command's --help lists, and every command, appear in it.
# Usage: bash tests/cli_manpage.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
bin=${1:?usage: cli_manpage.sh FTLSIM_BINARY}
man=docs/ftlsim.1
fails=0
n=0
# the man page escapes hyphens: \-\-trace\-format
plain=$(sed 's/\\-/-/g' "$man")
for cmd in run calibrate pts check drives plot sweep config-reference; do
    n=$((n + 1))
    grep -qE "^\.B(R)? ftlsim $cmd|^\.B $cmd( collect)?\$" <<<"$plain" || {
        echo "FAIL: $man does not describe the command $cmd" >&2
        fails=$((fails + 1))
    }
    for opt in $("$bin" $cmd --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
        [ "$opt" = "--help" ] && continue
        n=$((n + 1))
        grep -qE -- "${opt}([^a-z-]|$)" <<<"$plain" || {
            echo "FAIL: $man lacks $cmd's option $opt" >&2
            fails=$((fails + 1))
        }
    done
done
if [ $fails -gt 0 ]; then
    echo "cli_manpage: $fails of $n checks failed" >&2
    exit 1
fi
echo "cli_manpage: $n checks passed"
