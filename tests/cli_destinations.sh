#!/usr/bin/env bash
# cli_destinations.sh - --output, plot --out and --out DIR naming things
# that are not plain files: a character device or a FIFO is written to
# and stays what it was; a symbolic link is followed and stays a link; a
# folder or a link into a missing folder is refused before the run (exit
# 2, one line, nothing made); a regular file is replaced whole, keeping its
# permissions. As root the device nodes are copies made with mknod in the
# test's folder, so that a regression cannot replace the system's.
# Usage: bash tests/cli_destinations.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini
w='rw=write,size=8m'
cd "$tmp" || exit 1
if [ "$(id -u)" -eq 0 ]; then
    mknod null c 1 3 && mknod full c 1 7 || { skipped=1; finish ""; }
    null=$tmp/null full=$tmp/full
else
    null=/dev/null full=/dev/full
fi
ok() { # ok NAME COMMAND...: exit 0
    n=$((n + 1))
    "$@" >"$tmp/out" 2>"$tmp/err" || fail "$1...: exit $?: $(head -c 300 "$tmp/err")"
}
kind() { stat -c %F "$1"; }

# 1: a character device is written to and stays one
ok "$bin" run -q -d "$OLDPWD/$drive" -w "$w" --output "$null"
[ "$(kind "$null")" = "character special file" ] || fail "--output $null: now a $(kind "$null")"

# 2: a full device: the write error is said, exit 2, the node stays
n=$((n + 1))
"$bin" run -q -d "$OLDPWD/$drive" -w "$w" --output "$full" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "No space left on device" "$tmp/err" ||
    fail "--output $full: exit $rc: $(cat "$tmp/err")"
[ "$(kind "$full")" = "character special file" ] || fail "--output $full: now a $(kind "$full")"

# 3, 4: a FIFO gets the summary, or fio's JSON, and stays a FIFO
mkfifo fifo
for fmt in summary json; do
    cat fifo >"fifo.$fmt" &
    reader=$!
    ok "$bin" run -q -d "$OLDPWD/$drive" -w "$w" --output-format "$fmt" --output fifo
    wait $reader
    [ "$(kind fifo)" = fifo ] || fail "--output fifo: now a $(kind fifo)"
done
grep -q '^waf ' fifo.summary || grep -q '^drive ' fifo.summary || fail "the FIFO did not get the summary"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' fifo.json 2>/dev/null ||
    fail "the FIFO did not get fio's JSON"

# 5: a link to a file: the file is written, the link stays
echo old >target.txt
ln -s target.txt link
ok "$bin" run -q -d "$OLDPWD/$drive" -w "$w" --output link
[ -L link ] && grep -q '^drive ' target.txt || fail "--output link: the link was replaced or not followed"

# 6: a link to a name not there yet, in a folder that is: the file is made
ln -s made.txt new-link
ok "$bin" run -q -d "$OLDPWD/$drive" -w "$w" --output new-link
[ -L new-link ] && [ -s made.txt ] || fail "--output new-link: not followed"

# 7, 8: a link into a missing folder, and a folder, are refused before the run
ln -s /nonexistent-ftlsim/x bad-link
expect_error --no-out "--output \"bad-link\": a symbolic link to a missing folder" \
    run -d "$OLDPWD/$drive" -w "$w" --output bad-link
mkdir folder
expect_error --no-out "--output \"folder\": found a folder" run -d "$OLDPWD/$drive" -w "$w" --output folder
[ -z "$(ls -A folder)" ] || fail "--output folder: something written into it"

# 9: a regular file is replaced whole and keeps its permissions
echo old >kept.txt
chmod 600 kept.txt
ok "$bin" run -q -d "$OLDPWD/$drive" -w "$w" --output kept.txt
[ "$(stat -c %a kept.txt)" = 600 ] && grep -q '^drive ' kept.txt || fail "--output kept.txt: $(stat -c %a kept.txt)"
ls -A | grep -q '\.tmp$' && fail "a temporary was left beside kept.txt"

# 10: --force into a results folder reached through a link: the link stays,
# the results land in its target, no temporary sibling is left
mkdir -p real/r
"$bin" run -q -d "$OLDPWD/$drive" -w "$w" -o real/r || fail "the first run into real/r"
ln -s real/r rlink
ok "$bin" run -q -d "$OLDPWD/$drive" -w "$w" --seed 7 -o rlink --force
[ -L rlink ] && grep -q '"seed": 7' real/r/summary.json || fail "--out rlink --force: link replaced or not followed"
ls -A . real | grep -q '\.new-' && fail "--out rlink --force: a temporary sibling was left"

# 11, 12: plot --out through a link and into a FIFO (with gnuplot)
if command -v gnuplot >/dev/null; then
    "$bin" run -q -d "$OLDPWD/$drive" -w 'rw=write,size=200m' --interval 20ms -o curve || fail "the curve run"
    ln -s fig.png fig-link
    ok "$bin" plot curve curve --out fig-link
    [ -L fig-link ] && [ -s fig.png ] || fail "plot --out fig-link: the link was replaced"
    cat fifo >fig.fifo &
    reader=$!
    ok "$bin" plot curve --out fifo
    wait $reader
    [ "$(kind fifo)" = fifo ] && [ "$(head -c 4 fig.fifo | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "plot --out fifo: no PNG through the FIFO, or it was replaced"
fi
finish "$n destinations written to, followed or refused"
