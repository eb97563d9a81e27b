# throughput.gp - host read and write MB/s against simulated time.
#
#   gnuplot -e "dir='results/x'; out='x.png'" scripts/plot/throughput.gp
#
# Variables (all optional): drive (its name, for the title), dir (default .), out (default dir/throughput.png;
# .svg gives SVG), fmt ('png' or 'svg'), series (default dir/series.csv).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/throughput.png'
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
set title (drive eq '' ? 'Host throughput' : drive.': host throughput') noenhanced
set xlabel 'Simulated time (s)'
set ylabel 'Throughput (MB/s)'
set yrange [0:*]
set grid back lc rgb '#dddddd'
set key below

# As in write_curve.gp, each direction is also drawn as its mean over bins
# of a 300th of the axis: a drive that alternates writing and folding every
# few seconds makes the per-interval line a solid band.
stats series using (column("t_s")) nooutput
bin = STATS_max > 0 ? STATS_max / 300 : 1
bin_of(x) = (floor(x / bin) + 0.5) * bin

plot series using (column("t_s")):(column("write_MBps")) with lines lw 1 lc rgb '#9fb4d8' title 'write MB/s, per interval', \
     series using (column("t_s")):(column("read_MBps")) with lines lw 1 lc rgb '#a8d8a0' title 'read MB/s, per interval', \
     series using (bin_of(column("t_s"))):(column("write_MBps")) smooth unique \
         with lines lw 2 lc rgb '#1f3f7f' title sprintf('write, mean per %.3g s', bin), \
     series using (bin_of(column("t_s"))):(column("read_MBps")) smooth unique \
         with lines lw 2 lc rgb '#2ca02c' title sprintf('read, mean per %.3g s', bin)
