# latency_cdf.gp - read and write latency distributions from the histogram
# CSVs: the fraction of I/Os slower than each latency (1 - CDF), both axes
# logarithmic, latency in microseconds, so that p99 and p99.9 show.
#
#   gnuplot -e "dir='results/x'; out='x.png'" scripts/plot/latency_cdf.gp
#
# Variables (all optional): drive (its name, for the title), dir (default .), out (default dir/latency_cdf.png;
# .svg gives SVG), fmt ('png' or 'svg'), have_read / have_write (0 when that
# CSV is missing or has no rows).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/latency_cdf.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("have_read")) have_read = 1
if (!exists("have_write")) have_write = 1
if (fmt eq 'svg') {
    set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,700 enhanced font 'sans,11'
}
set output out

set datafile separator ','
set datafile columnheaders
# A loop that runs zero times still opens its file: name one that exists.
rfile = dir.'/latency_read.csv'
wfile = dir.'/latency_write.csv'
if (!have_read) rfile = wfile
if (!have_write) wfile = rfile
set title (drive eq '' ? 'Latency distribution' : drive.': latency distribution') noenhanced
set xlabel 'Latency (µs)'
set ylabel 'Fraction of I/Os slower (log scale: the tail)'
set logscale x
set format x '10^{%L}'
# 1 - CDF on a log axis: the median is at 0.5, p99 at 0.01, p99.9 at 0.001,
# so the tail is as tall as the body (a linear CDF squeezes it into the top
# pixels). The last bucket's fraction is 0: it is drawn at the floor.
set logscale y
set format y '10^{%L}'
set yrange [1e-6:1.5]
set ytics ('1' 1, '0.1' 0.1, '0.01 (p99)' 0.01, '10^{-3} (p99.9)' 1e-3, '10^{-4}' 1e-4, \
           '10^{-5}' 1e-5, '10^{-6}' 1e-6)
set grid back lc rgb '#dddddd'
set grid mxtics
set key top right opaque
slower(c) = (1 - c) > 1e-6 ? 1 - c : 1e-6

plot for [i=1:have_read] rfile \
         using (column("bucket_high_ns")/1e3):(slower(column("cumulative_fraction"))) \
         with steps lw 2 lc rgb '#2ca02c' title 'read', \
     for [i=1:have_write] wfile \
         using (column("bucket_high_ns")/1e3):(slower(column("cumulative_fraction"))) \
         with steps lw 2 lc rgb '#1f3f7f' title 'write'
