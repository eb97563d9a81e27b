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
set title (drive eq '' ? 'Host throughput' : drive.': host throughput')
set xlabel 'Simulated time (s)'
set ylabel 'Throughput (MB/s)'
set yrange [0:*]
set grid back lc rgb '#dddddd'
set key below

plot series using (column("t_s")):(column("write_MBps")) with lines lw 2 lc rgb '#1f3f7f' title 'write MB/s', \
     series using (column("t_s")):(column("read_MBps")) with lines lw 2 lc rgb '#2ca02c' title 'read MB/s'
