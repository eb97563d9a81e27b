# pts_dirth.gp - the PTS demand intensity plots: 8 KiB random 65/35
# average response time against IOPS at every threads x queue depth, a
# line per thread count (the demand intensity curve), and IOPS against
# queue depth (the demand variation), from dirth.csv's demand rows.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_dirth.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/dirth.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,600 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,600 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/dirth.csv'
threads = '32 16 8 6 4 2 1'
colour(i) = word('#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #7f7f7f', i)
set multiplot layout 1,2 title (drive eq '' ? '' : drive."\n").'PTS demand intensity, 8 KiB random 65/35 reads/writes at every threads x queue depth' noenhanced
set grid back lc rgb '#dddddd'
set key top left font ',10'
demand(t, v) = strcol("stage") eq 'demand' && column("threads") == t ? v : NaN
set xlabel 'IOPS'
set ylabel 'Average response time (us, log scale)'
set logscale y
set xrange [0:*]
plot for [i=1:words(threads)] data using (demand(word(threads, i) + 0, column("iops"))):(demand(word(threads, i) + 0, column("mean_us"))) \
     with linespoints pt 7 ps 0.8 lw 1.5 lc rgb colour(i) title sprintf('%s thread%s', word(threads, i), word(threads, i) eq '1' ? '' : 's')
unset logscale y
set logscale x 2
set xrange [0.8:40]
set yrange [0:*]
set xlabel 'Queue depth per thread (log scale)'
set ylabel 'IOPS'
set key top left
plot for [i=1:words(threads)] data using (demand(word(threads, i) + 0, column("iodepth"))):(demand(word(threads, i) + 0, column("iops"))) \
     with linespoints pt 7 ps 0.8 lw 1.5 lc rgb colour(i) title sprintf('%s thread%s', word(threads, i), word(threads, i) eq '1' ? '' : 's')
unset multiplot
