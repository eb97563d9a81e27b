# pts_xsr.gp - the PTS cross stimulus recovery plots: throughput (MB/s) and
# IOPS of every interval, in order across the three access groups
# (1024 KiB sequential, 8 KiB random, 1024 KiB sequential writes), with
# group 1's average MB/s and the interval of group 3 that reached it; and
# each interval's average (ART) and maximum (MRT) response time.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_xsr.gp
#
# Variables: dir, out, fmt, drive, interval (s), g1avg (MB/s), recovery
# (group 3's recovering interval; 0: none).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/xsr.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("interval")) interval = 0
if (!exists("g1avg")) g1avg = NaN
if (!exists("recovery")) recovery = 0
if (fmt eq 'svg') {
    set terminal svg size 1200,1100 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,1100 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/xsr.csv'
colour(g) = g == 1 ? 0x1f77b4 : g == 2 ? 0xd62728 : 0x2ca02c
name(g) = g == 2 ? 'group 2: RND 8KiB writes' : sprintf('group %d: SEQ 1024KiB writes', g)
grp(g, v) = column("group") == g ? v : NaN
set multiplot layout 3,1 title (drive eq '' ? '' : drive."\n").sprintf('PTS cross stimulus recovery: SEQ 1024KiB, RND 8KiB, SEQ 1024KiB writes back to back, intervals of %g s', interval) noenhanced
set grid back lc rgb '#dddddd'
set key outside right top font ',10'
set xlabel sprintf('Interval, across the groups (each %g s: the PTS''s 1 minute)', interval)
set yrange [0:*]
set ylabel 'MB/s per interval'
# where group 3 reached group 1's average again
rec_t = NaN
if (recovery > 0) {
    stats data using (column("group") == 3 && column("interval") == recovery ? column("n") : NaN) nooutput
    rec_t = STATS_max
    set arrow 1 from rec_t, graph 0 to rec_t, graph 1 nohead dt 3 lw 2 lc rgb '#000000'
    set label 1 sprintf('recovered: interval %d of group 3', recovery) at rec_t, graph 0.92 offset 0.5,0 font ',10'
}
plot for [g=1:3] data using (column("n")):(grp(g, column("MBps"))) with linespoints pt 7 ps 0.3 lw 1 lc rgb colour(g) title name(g), \
     g1avg with lines lw 2 dt 2 lc rgb '#000000' title 'group 1 average MB/s'
unset label 1
set ylabel 'IOPS per interval (log scale)'
set logscale y
set yrange [*:*]
plot for [g=1:3] data using (column("n")):(grp(g, column("iops"))) with linespoints pt 7 ps 0.3 lw 1 lc rgb colour(g) title name(g)
set ylabel 'Response time (us, log scale)'
plot for [g=1:3] data using (column("n")):(grp(g, column("mean_us"))) with lines lw 2 lc rgb colour(g) title sprintf('ART, group %d', g), \
     for [g=1:3] data using (column("n")):(grp(g, column("max_us"))) with lines lw 1 dt 2 lc rgb colour(g) title sprintf('MRT, group %d', g)
unset multiplot
