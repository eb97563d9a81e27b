#!/usr/bin/env bash
# cli_traces.sh - every sample trace in traces/ replays in open and closed
# mode, and the host read, write and trim commands and bytes in summary.json
# match counts taken with awk from the trace file itself.
# Usage: bash tests/cli_traces.sh FTLSIM_BINARY (from the source root).
set -uo pipefail
source tests/lib.sh "$@"

# Independent counts: "read_ios read_bytes write_ios write_bytes trim_ios trim_bytes".
# Sectors are 512 bytes; blank and # lines carry no I/O.
count_blank5() { # mqsim / ssdsim: time dev lba size type; $2 = the code of READ
    awk -v rd="$1" '
        /^[ \t]*(#|$)/ { next }
        { b = $4 * 512; if ($5 == rd || (rd == "mqsim" && $5 != 0)) { r++; rb += b } else { w++; wb += b } }
        END { printf "%.0f %.0f %.0f %.0f 0 0\n", r, rb, w, wb }'
}
count_fio3() {
    awk '
        /^[ \t]*(#|$)/ || /^fio version/ { next }
        $3 == "read" { r++; rb += $5 } $3 == "write" { w++; wb += $5 } $3 == "trim" { t++; tb += $5 }
        END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", r, rb, w, wb, t, tb }'
}
count_fiu() { # ts pid process... lba size R/W major minor md5, from the end
    awk '
        /^[ \t]*(#|$)/ { next }
        { b = $(NF - 4) * 512; if ($(NF - 3) == "R") { r++; rb += b } else { w++; wb += b } }
        END { printf "%.0f %.0f %.0f %.0f 0 0\n", r, rb, w, wb }'
}
count_blkparse_d() { # D events up to the summary block; RWBS: [F](R|W|D|N)...
    awk '
        /^(CPU[0-9]+|Total) \(/ { exit }
        $6 != "D" { next }
        {
            x = $7; if (length(x) > 1 && substr(x, 1, 1) == "F") x = substr(x, 2)
            c = substr(x, 1, 1); b = ($9 == "+") ? $10 * 512 : 0
            if (c == "R") { r++; rb += b } else if (c == "W" && b > 0) { w++; wb += b }
            else if (c == "D") { t++; tb += b }
        }
        END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", r, rb, w, wb, t, tb }'
}

# What summary.json says: the same six numbers from its "host" object.
host_counts() {
    sed -n '/^  "host": {/,/^  }/p' "$1" | awk -F'[:,]' '
        { gsub(/[ "]/, "", $1); v[$1] = $2 + 0 }
        END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", v["read_ios"], v["read_bytes"], v["write_ios"],
              v["write_bytes"], v["trim_ios"], v["trim_bytes"] }'
}

# check FILE FORMAT DRIVE EXPECTED
check() {
    local file=$1 fmt=$2 drive=$3 want=$4 mode
    for mode in open closed; do
        n=$((n + 1))
        local out="$tmp/run$n"
        if ! "$bin" run -q -d "$drive" -t "$file" --trace-format "$fmt" --replay "$mode" \
            --lba-map wrap --max-idle 10ms -o "$out" 2>"$tmp/stderr"; then
            fail "$file ($fmt, $mode): ftlsim failed: $(cat "$tmp/stderr")"
            continue
        fi
        local got
        got=$(host_counts "$out/summary.json")
        if [ "$got" != "$want" ]; then
            fail "$file ($fmt, $mode): read/write/trim ios and bytes $got, the file has $want"
        fi
    done
}

small=tests/data/drives/small_tlc.ini
check traces/mqsim_tpcc-small.trace mqsim $small "$(count_blank5 mqsim <traces/mqsim_tpcc-small.trace)"
check traces/mqsim_tpcc-small.trace.gz mqsim $small \
    "$(gzip -dc traces/mqsim_tpcc-small.trace.gz | count_blank5 mqsim)"
check traces/mqsim_wsrch-small.trace mqsim $small "$(count_blank5 mqsim <traces/mqsim_wsrch-small.trace)"
check traces/ssdsim_example_fin1.ascii ssdsim $small "$(count_blank5 1 <traces/ssdsim_example_fin1.ascii)"
check traces/blkparse_wiscsee_issue_only.txt blkparse $small \
    "$(count_blkparse_d <traces/blkparse_wiscsee_issue_only.txt)"
check traces/fiu_mail_cheetah_first10000.blkparse fiu $small \
    "$(count_fiu <traces/fiu_mail_cheetah_first10000.blkparse)"
# its trims are 2 GiB: larger than the small drive
check traces/fio_v3_t0038_with_trim.iolog fio3 configs/860pro.ini \
    "$(count_fio3 <traces/fio_v3_t0038_with_trim.iolog)"

# The counts above must not be empty: the README's figures.
[ "$(count_blank5 mqsim <traces/mqsim_tpcc-small.trace | cut -d' ' -f1,3)" = "4381 2618" ] ||
    fail "awk counts of mqsim_tpcc-small.trace differ from traces/README.md"
[ "$(count_blkparse_d <traces/blkparse_wiscsee_issue_only.txt | cut -d' ' -f1,3)" = "161 512" ] ||
    fail "awk counts of blkparse_wiscsee_issue_only.txt differ from traces/README.md"

finish "$n replays match the trace files" "$fails of $n replays failed"
