#!/usr/bin/env bash
# cli_blktrace.sh - a binary blktrace (struct blk_io_trace records) is
# refused, as bad input, with the exact blkparse command that converts it;
# with blkparse installed (Debian's blktrace) the command is run as printed
# and ftlsim replays what it wrote.
# Usage: bash tests/cli_blktrace.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=$PWD/tests/data/drives/small_tlc.ini

# Three queued 4 KiB writes of device 8,0, as blktrace writes them: 48-byte
# records, native byte order (magic 0x65617407: blktrace's version 7).
python3 - "$tmp" <<'PY'
import struct, sys
recs = b""
for i in range(3):
    act = (((1 << 4) | (1 << 1)) << 16) | 1  # BLK_TC_QUEUE | BLK_TC_WRITE, __BLK_TA_QUEUE
    recs += struct.pack("<IIQQIIIIHHHxx", 0x65617407, i + 1, 1000 * (i + 1), 8 * i, 4096,
                        act, 100, 8 << 20, 0, 0, 0)
open(sys.argv[1] + "/sda.blktrace.0", "wb").write(recs)
open(sys.argv[1] + "/capture.bin", "wb").write(recs)
PY

cd "$tmp"
expect_error "sda.blktrace.0: found a binary blktrace (blk_io_trace records), expected text: convert it with \`blkparse -i 'sda' -o 'sda.blkparse'\` and give --trace sda.blkparse" \
    run -d "$drive" --trace sda.blktrace.0
expect_error "capture.bin: found a binary blktrace" run -d "$drive" --trace capture.bin --trace-format blkparse
expect_error "\`blkparse -i - -o '$tmp/capture.bin.blkparse' < '$tmp/capture.bin'\`" \
    run -d "$drive" --trace "$tmp/capture.bin"

if command -v blkparse >/dev/null; then
    for f in sda.blktrace.0 "$tmp/capture.bin"; do
        n=$((n + 1))
        msg=$("$bin" run -d "$drive" --trace "$f" 2>&1 >/dev/null)
        cmd=${msg#*\`}
        cmd=${cmd%%\`*}
        out=${msg##*--trace }
        (eval "$cmd" >/dev/null 2>&1) || { fail "the printed command failed: $cmd"; continue; }
        "$bin" run -d "$drive" --trace "$out" --output-format=json >"$tmp/replay.json" 2>"$tmp/err" ||
            { fail "replaying $out: $(cat "$tmp/err")"; continue; }
        python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; sys.exit(j["write"]["total_ios"] != 3)' \
            "$tmp/replay.json" || fail "$out: expected 3 writes replayed"
    done
else
    echo "cli_blktrace: blkparse not installed (apt-get install blktrace): its command not run"
fi

finish "a binary blktrace refused with the blkparse command that converts it"
