# cache.gp - the pSLC cache and background work against simulated time:
# top, pSLC used and its current limit (GB) with free blocks on the second
# axis; bottom, folding and GC traffic (MB/s), per interval and as means
# per bin of a 300th of the run.
#
#   gnuplot -e "dir='results/x'; out='x.png'" scripts/plot/cache.gp
#
# Variables (all optional): drive (its name, for the title), dir (default .), out (default dir/cache.png;
# .svg gives SVG), fmt ('png' or 'svg'), series (default dir/series.csv).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/cache.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("series")) series = dir.'/series.csv'
if (fmt eq 'svg') {
    set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,700 enhanced font 'sans,11'
}
set output out

set datafile separator ','
set datafile columnheaders
set grid back lc rgb '#dddddd'
# The background rates are also drawn as their means over bins of a 300th
# of the run (as in throughput.gp): folding that alternates with host
# writes from one interval to the next draws a solid band per interval.
stats series using (column("t_s")) nooutput
bin = STATS_max > 0 ? STATS_max / 300 : 1
bin_of(x) = (floor(x / bin) + 0.5) * bin
# Same margins in both panels, so that their time axes line up.
set lmargin 10
set rmargin 10
set multiplot layout 2,1 title (drive eq '' ? 'pSLC cache, free blocks and background work' : drive.': pSLC cache, free blocks and background work') noenhanced

set ylabel 'pSLC (GB)'
set y2label 'Free blocks'
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set format x ''
set key top right opaque
# headroom above the traces for the key, which would otherwise hide their tops
set offsets 0, 0, graph 0.3, 0
plot series using (column("t_s")):(column("pslc_used_bytes")/1e9) with lines lw 2 lc rgb '#2ca02c' title 'pSLC used', \
     series using (column("t_s")):(column("pslc_limit_bytes")/1e9) with lines lw 2 dt 2 lc rgb '#2ca02c' title 'pSLC limit', \
     series using (column("t_s")):(column("free_blocks")) axes x1y2 with lines lw 1.5 lc rgb '#7f7f7f' title 'free blocks'

unset y2label
unset y2tics
set ytics mirror
set format x '%g'
set xlabel 'Simulated time (s)'
set ylabel 'Background (MB/s)'
plot series using (column("t_s")):(column("fold_MBps")) with lines lw 1 lc rgb '#ffcc99' title 'fold MB/s, per interval', \
     series using (column("t_s")):(column("gc_MBps")) with lines lw 1 lc rgb '#f2a6a6' title 'GC MB/s, per interval', \
     series using (bin_of(column("t_s"))):(column("fold_MBps")) smooth unique \
         with lines lw 2 lc rgb '#ff7f0e' title sprintf('fold, mean per %.3g s', bin), \
     series using (bin_of(column("t_s"))):(column("gc_MBps")) smooth unique \
         with lines lw 2 lc rgb '#d62728' title sprintf('GC, mean per %.3g s', bin)
unset multiplot
