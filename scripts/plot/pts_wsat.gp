# pts_wsat.gp - the PTS report's write-saturation plots: 4 KiB random write
# IOPS per round against time and against the TB the host wrote, and the
# rounds' response times (mean, p99, max) against time and TB written.
# Rounds that began before one capacity was written are shaded: steady
# state is not judged there.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_wsat.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/wsat.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,900 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,900 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/wsat.csv'
# where the host had written one capacity: the time and the TB
stats data using (column("fills") < 1 ? column("t_s") : NaN) nooutput
t1 = STATS_records > 0 ? STATS_max : 0
stats data using (column("fills") < 1 ? column("host_TB_written") : NaN) nooutput
tb1 = STATS_records > 0 ? STATS_max : 0
set multiplot layout 2,2 title (drive eq '' ? '' : drive."\n").'PTS write saturation, 4 KiB random writes (shaded: before one capacity written, not judged)' noenhanced
set grid back lc rgb '#dddddd'
set key top right opaque font ',10'
set style rect fc rgb '#eeeeee' fs solid 1.0 noborder behind
set yrange [0:*]
set xrange [0:*]
set ylabel 'IOPS per round'
set xlabel 'Time (s)'
set object 1 rect from 0, graph 0 to t1, graph 1
plot data using (column("t_s")):(column("iops")) with linespoints pt 7 ps 0.5 lw 1.5 lc rgb '#1f3f7f' title 'IOPS'
set xlabel 'Host data written (TB)'
set object 1 rect from 0, graph 0 to tb1, graph 1
plot data using (column("host_TB_written")):(column("iops")) with linespoints pt 7 ps 0.5 lw 1.5 lc rgb '#1f3f7f' title 'IOPS'
set logscale y
set yrange [*:*]
set key bottom right
set ylabel 'Response time (us, log scale)'
set xlabel 'Time (s)'
set object 1 rect from 0, graph 0 to t1, graph 1
plot data using (column("t_s")):(column("mean_us")) with lines lw 2 lc rgb '#1f3f7f' title 'mean', \
     data using (column("t_s")):(column("p99_us")) with lines lw 1.5 lc rgb '#ff7f0e' title 'p99', \
     data using (column("t_s")):(column("max_us")) with lines lw 1 lc rgb '#d62728' title 'max'
set xlabel 'Host data written (TB)'
set object 1 rect from 0, graph 0 to tb1, graph 1
plot data using (column("host_TB_written")):(column("mean_us")) with lines lw 2 lc rgb '#1f3f7f' title 'mean', \
     data using (column("host_TB_written")):(column("p99_us")) with lines lw 1.5 lc rgb '#ff7f0e' title 'p99', \
     data using (column("host_TB_written")):(column("max_us")) with lines lw 1 lc rgb '#d62728' title 'max'
unset multiplot
