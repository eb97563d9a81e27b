# pts_ecw.gp - the PTS enterprise composite workload's demand intensity
# curves: the average and the maximum response time against IOPS at every
# threads x queue depth of the window's rounds, a line per thread count
# (its points from QD 1 up), from ecw.csv.
#
#   gnuplot -e "dir='results/pts'; threads='32 16 8 6 4 2 1'" scripts/plot/pts_ecw.gp
#
# Variables: dir, out, fmt, drive; threads (the thread counts of ecw.csv).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("threads")) threads = '32 16 8 6 4 2 1'
if (!exists("out")) out = dir.'/ecw.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,600 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,600 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/ecw.csv'
colour(i) = word('#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #7f7f7f', i)
set multiplot layout 1,2 title (drive eq '' ? '' : drive."\n").'PTS enterprise composite workload (random 40/60, 0.5-64 KiB, 50% of accesses on 5% of the LBAs): demand intensity' noenhanced
set grid back lc rgb '#dddddd'
set key top left font ',10'
at(t, v) = column("threads") == t ? v : NaN
set xlabel 'IOPS'
set xrange [0:*]
set logscale y
set ylabel 'Average response time (us, log scale)'
plot for [i=1:words(threads)] data using (at(word(threads, i) + 0, column("iops"))):(at(word(threads, i) + 0, column("mean_us"))) \
     with linespoints pt 7 ps 0.8 lw 1.5 lc rgb colour(i) title sprintf('%s thread%s', word(threads, i), word(threads, i) eq '1' ? '' : 's')
set ylabel 'Maximum response time (us, log scale)'
plot for [i=1:words(threads)] data using (at(word(threads, i) + 0, column("iops"))):(at(word(threads, i) + 0, column("max_us"))) \
     with linespoints pt 7 ps 0.8 lw 1.5 lc rgb colour(i) title sprintf('%s thread%s', word(threads, i), word(threads, i) eq '1' ? '' : 's')
unset multiplot
