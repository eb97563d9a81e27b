#!/usr/bin/env bash
# cli_report.sh - report.html of every kind of results folder (run, pts
# lat, hir, dirth, ecw and xsr, calibrate, a sweep's collect folder) in a real browser. Each page must be
# self-contained (no script, no image or style fetched from anywhere, every
# figure an inline SVG) and link only to files that are in its folder;
# headless Chromium then renders it: the DOM it built must hold every
# figure with its drawing in it and no <img>, and its screenshot must not
# be blank (non-white pixels counted). Without chromium the browser checks
# are skipped with a message; without gnuplot there is nothing to check.
# Usage: bash tests/cli_report.sh PATH/TO/ftlsim (from the source root)
set -u
source tests/lib.sh "$@"
drive=tests/data/drives/small_tlc.ini

if ! command -v gnuplot >/dev/null; then
    echo "cli_report: skipped: the pages' figures need gnuplot (apt-get install gnuplot-nox)" >&2
    skipped=1
    finish "skipped"
fi
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || echo "cli_report: chromium not installed (apt-get install chromium):" \
    "the pages are checked as files, not rendered" >&2

# One folder of each kind, with figures.
"$bin" run -q -d "$drive" -w 'rw=write,bs=1m,size=300m' --plot -o "$tmp/run" ||
    fail "run failed"
"$bin" pts -q -d "$drive" -t lat --round-time 300ms --max-rounds 5 --precondition fast --plot \
    -o "$tmp/pts" || fail "pts failed"
"$bin" pts -q -d "$drive" -t hir --round-time 120ms --precondition random --plot -o "$tmp/hir" ||
    fail "pts hir failed"
"$bin" pts -q -d "$drive" -t dirth --round-time 50ms --precondition random --plot \
    -o "$tmp/dirth" || fail "pts dirth failed"
"$bin" pts -q -d "$drive" -t ecw --threads 4 --iodepth 4 --round-time 50ms --precondition random \
    --plot -o "$tmp/ecw" || fail "pts ecw failed"
"$bin" pts -q -d "$drive" --set nand.blocks_per_plane=64 --set drive.user_capacity=340MB -t xsr \
    --round-time 5ms --plot -o "$tmp/xsr" || fail "pts xsr failed"
"$bin" calibrate -q -d "$drive" -w 'rw=write,bs=1m,size=300m' --figure 'rate@GB=0.1..0.3=140' \
    --fit timing.tlc.t_prog=1.5ms..5ms --max-evals 16 --jobs 2 -o "$tmp/cal" || fail "calibrate failed"
"$bin" run -q -d "$drive" -w 'rw=write,bs=1m,size=200m' --vary timing.tlc.t_prog=2ms,3ms \
    --emit parallel -o "$tmp/sweep" || fail "run --emit failed"
bash "$tmp/sweep/jobs.txt" >/dev/null 2>&1 || fail "the sweep's jobs failed"
"$bin" sweep collect "$tmp/sweep" --plot >"$tmp/collect.log" 2>&1 ||
    fail "sweep collect failed: $(head -n 3 "$tmp/collect.log")"

# check_page DIR FIGURES WORDS...: DIR/report.html holds FIGURES inline SVGs
# and each of WORDS (fixed strings), fetches nothing, links to files that exist.
check_page() {
    local dir=$1 figures=$2 page=$1/report.html
    shift 2
    n=$((n + 1))
    if [ ! -s "$page" ]; then
        fail "$page missing"
        return
    fi
    python3 - "$page" "$figures" "$@" <<'PY' || fail "$page: see above"
import html.parser, os, re, sys
page, want = sys.argv[1], int(sys.argv[2])
text = open(page, encoding="utf-8").read()
bad = []

class Scan(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.svgs, self.depth, self.links = [], 0, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "img", "iframe", "link", "object", "embed"):
            bad.append(f"<{tag}> in the page")
        if "src" in a:
            bad.append(f"src={a['src']!r}")
        if tag == "svg":
            self.svgs.append(0)
            self.depth += 1
        elif self.depth:
            self.svgs[-1] += 1
        if tag == "a" and not self.depth:
            self.links.append(a.get("href", ""))
    def handle_endtag(self, tag):
        if tag == "svg":
            self.depth -= 1

s = Scan()
s.feed(text)
if not text.startswith("<!DOCTYPE html>"):
    bad.append("no <!DOCTYPE html>")
if re.search(r"url\((?!#)", text) or "@import" in text:
    bad.append("a style fetches something")
if len(s.svgs) != want:
    bad.append(f"{len(s.svgs)} inline figures, expected {want}")
for i, n in enumerate(s.svgs):
    if n < 20:
        bad.append(f"figure {i + 1} has {n} elements: empty")
for href in s.links:
    if re.match(r"[a-z]+:", href) or href.startswith("/"):
        bad.append(f"link {href!r} leaves the folder")
    elif not os.path.exists(os.path.join(os.path.dirname(page), href)):
        bad.append(f"link {href!r}: no such file")
if not any(h.endswith(".csv") for h in s.links):
    bad.append("no link to a CSV file")
for w in sys.argv[3:]:
    if w not in text:
        bad.append(f"lacks {w!r}")
for b in bad:
    print(f"FAIL: {page}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

check_page "$tmp/run" 5 "Phases" "bounded by" "The drive, derived" "sequential writes" "summary.txt"
check_page "$tmp/pts" 5 "PTS-E 1.1" "purge method" "write cache" "active range" "data pattern" \
    "99.99% response time" "Steady state"
check_page "$tmp/hir" 3 "PTS-E 1.1" "host idle recovery (HIR)" "IOPS of the access periods" \
    "hir.csv" "Steady state"
check_page "$tmp/dirth" 4 "PTS-E 1.1" "Demand intensity: IOPS" "Response time histograms" \
    "dirth_histogram.csv" "Steady state"
check_page "$tmp/ecw" 4 "PTS-E 1.1" "enterprise composite workload (ECW)" \
    "Demand intensity: maximum response time" "ecw_histogram.csv" "Steady state"
check_page "$tmp/xsr" 1 "PTS-E 1.1" "cross stimulus recovery (XSR)" "MRT, peak (us)" "xsr.csv"
check_page "$tmp/cal" 1 "measured" "stock" "calibrated" "uncertainty" "figures.csv" \
    "timing.tlc.t_prog"
check_page "$tmp/sweep" 1 "sweep.csv" "s report" "timing.tlc.t_prog=2ms/report.html" \
    "<h1>ftlsim sweep of small TLC test drive: timing.tlc.t_prog varied" "The same in every run"
# the sweep's table: rounded figures, not sweep.csv's six decimals
n=$((n + 1))
grep -oE '<td>[^<]*</td>' "$tmp/sweep/report.html" | grep -E '[0-9]\.[0-9]{4,}' &&
    fail "the sweep's table shows raw figures"

# render DIR: headless Chromium's DOM of DIR/report.html holds its figures
# drawn, and its screenshot is not blank.
render() {
    local dir=$1 figures=$2
    n=$((n + 1))
    "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
        --window-size=1200,5000 --force-device-scale-factor=0.5 --screenshot="$dir.png" --dump-dom "file://$dir/report.html" \
        >"$dir.dom" 2>"$dir.browser.log"
    [ -s "$dir.png" ] || {
        fail "$dir: chromium wrote no screenshot: $(grep -v dbus "$dir.browser.log" | head -n 2)"
        return
    }
    python3 - "$dir.dom" "$dir.png" "$figures" <<'PY' || fail "$dir/report.html in chromium: see above"
import html.parser, struct, sys, zlib
dom, png, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
bad = []

class Scan(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.svgs, self.depth, self.imgs = [], 0, 0
    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs += 1
        if tag == "svg":
            self.svgs.append(0)
            self.depth += 1
        elif self.depth and tag in ("path", "text", "rect", "circle", "use", "polygon", "line"):
            self.svgs[-1] += 1
    def handle_endtag(self, tag):
        if tag == "svg":
            self.depth -= 1

s = Scan()
s.feed(open(dom, encoding="utf-8").read())
if len(s.svgs) != want:
    bad.append(f"the browser's DOM has {len(s.svgs)} svg elements, expected {want}")
if any(n < 10 for n in s.svgs):
    bad.append(f"a figure in the DOM draws almost nothing: {s.svgs}")
if s.imgs:
    bad.append(f"{s.imgs} <img> (a broken image is possible)")

sys.path.insert(0, "tests")
from png_rows import pixels

w, h, bpp, rows = pixels(png)
ink = colour = 0
for line in rows:
    for x in range(0, len(line), bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if r < 235 or g < 235 or b < 235:
            ink += 1
        # coloured, and not the blue of a link: drawn by a figure
        if max(r, g, b) - min(r, g, b) > 60 and not (b > r + 60 and b > g + 60):
            colour += 1
share = ink / (w * h)
if share < 0.003:
    bad.append(f"the screenshot is blank: {100 * share:.2f}% non-white pixels")
if colour < 100:
    bad.append(f"no figure drawn in colour on the screenshot ({colour} coloured pixels)")
print(f"  {png}: {w}x{h}, {100 * share:.1f}% non-white, {colour} coloured pixels")
for b in bad:
    print(f"FAIL: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# fits DIR: at 1400 px wide the page leaves its right margin white (a
# table or figure wider than the window would run into it).
fits() {
    local dir=$1
    n=$((n + 1))
    "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
        --window-size=1400,1200 --screenshot="$dir.1400.png" "file://$dir/report.html" \
        >/dev/null 2>&1
    python3 - "$dir.1400.png" <<'PY' || fail "$dir/report.html overflows a 1400 px window"
import sys
sys.path.insert(0, "tests")
from png_rows import pixels
w, h, bpp, rows = pixels(sys.argv[1])
ink = sum(1 for line in rows for x in range((w - 100) * bpp, w * bpp, bpp) if min(line[x:x + 3]) < 235)
print(f"  {sys.argv[1]}: {w}x{h}, {ink} inked pixels in the right 100 px")
sys.exit(1 if w != 1400 or ink else 0)
PY
}

if [ -n "$browser" ]; then
    fits "$tmp/sweep"
    render "$tmp/run" 5
    render "$tmp/pts" 5
    render "$tmp/hir" 3
    render "$tmp/dirth" 4
    render "$tmp/ecw" 4
    render "$tmp/xsr" 1
    render "$tmp/cal" 1
    render "$tmp/sweep" 1
fi

finish "the pages of a run, a pts test, a calibration and a sweep are whole${browser:+ and render in Chromium}"
