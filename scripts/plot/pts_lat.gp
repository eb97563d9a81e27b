# pts_lat.gp - the PTS report's latency plots at 1 thread QD 1 over the
# steady-state window: average and maximum response time of each block
# size and mix, and the three-, four- and five-nines percentiles (99.9%,
# 99.99%, 99.999%), as grouped bars on log scales.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_lat.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/lat.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,1000 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,1000 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/lat.csv'
bslabel(b) = b < 1024 ? sprintf('%.1fK', b / 1024.0) : sprintf('%.0fK', b / 1024.0)
cell(b, r) = bslabel(b).' '.sprintf('%d/%d', r, 100 - r)
set multiplot layout 2,1 title (drive eq '' ? '' : drive."\n").'PTS latency at 1 thread QD 1 (steady-state window)' noenhanced
set logscale y
set grid ytics back lc rgb '#dddddd'
# times within two decades (QD 1 often) get 2, 3 and 5 x labels too: with
# the powers of ten alone the bars could not be read
ymm = system(sprintf("awk -F, 'NR > 1 { for (i = 4; i <= 9; i++) { v = $i + 0; if (n++ == 0 || v < lo) lo = v; if (v > hi) hi = v } } END { print lo + 0, hi + 0 }' '%s'", data))
ylo = word(ymm, 1) + 0.0
yhi = word(ymm, 2) + 0.0
if (ylo > 0 && yhi / ylo < 100) {
    d0 = 10**floor(log10(ylo))
    do for [k = 0:2] {
        do for [m in "2 3 5"] {
            v = d0 * 10**k * (m + 0)
            set ytics add (gprintf('%g', v) v)
        }
    }
}
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.9 border -1
set boxwidth 0.9
set key outside right top
set ylabel 'Response time (us, log scale)'
set title 'Average and maximum response time'
plot data using (column("mean_us")):xtic(cell(column("bs_bytes"), column("read_pct"))) lc rgb '#4292c6' title 'average', \
     data using (column("max_us")) lc rgb '#d95f02' title 'maximum'
set title 'Response-time percentiles: three, four and five nines'
plot data using (column("p99_9_us")):xtic(cell(column("bs_bytes"), column("read_pct"))) lc rgb '#9ecae1' title '99.9%', \
     data using (column("p99_99_us")) lc rgb '#4292c6' title '99.99%', \
     data using (column("p99_999_us")) lc rgb '#08519c' title '99.999%'
unset multiplot
