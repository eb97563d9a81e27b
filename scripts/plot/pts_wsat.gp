# pts_wsat.gp - the PTS report's write-saturation plots: 4 KiB random write
# IOPS per round against time and against the TB the host wrote, and the
# rounds' response times (mean, p99, max) against time and TB written.
# WSAT judges no steady state: the rounds of the last capacity written
# (from tb0 TB) carry the least-squares trend of IOPS against TB written,
# drawn as a line with its verdict; the rounds before them are shaded.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_wsat.gp
#
# Variables: dir, out, fmt, drive, pre; tb0 (-1: less than one capacity
# written, no trend), tb1, tslope, tint, tword (from ftlsim pts).
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
if (!exists("tb0")) tb0 = -1
if (!exists("tword")) tword = ''
# pre: how the drive was preconditioned, when it was (' after ...')
if (!exists("pre")) pre = ''
if (!exists("tb1")) tb1 = 0
if (!exists("tslope")) tslope = 0
if (!exists("tint")) tint = 0
# the trend's window: the rounds of the last capacity written, from the
# first round ending at tb0 TB; before it (or everywhere, without a trend)
# shaded, in time and in TB
stats data using (tb0 < 0 || column("host_TB_written") < tb0 ? column("t_s") : NaN) nooutput
t1 = STATS_records > 0 ? STATS_max : 0
stats data using (tb0 < 0 || column("host_TB_written") < tb0 ? column("host_TB_written") : NaN) nooutput
tbs = STATS_records > 0 ? STATS_max : 0
what = tb0 < 0 ? 'less than one capacity written: no trend' : 'shaded: before the last capacity written; line: the trend over it, '.tword
set multiplot layout 2,2 title (drive eq '' ? '' : drive."\n").'PTS write saturation, 4 KiB random writes'.pre.' ('.what.')' noenhanced
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
set object 1 rect from 0, graph 0 to tbs, graph 1
set key bottom left Left reverse
trend(x) = (tb0 >= 0 && x >= tb0 && x <= tb1) ? tint + tslope * x : NaN
set samples 400
plot data using (column("host_TB_written")):(column("iops")) with linespoints pt 7 ps 0.5 lw 1.5 lc rgb '#1f3f7f' title 'IOPS', \
     trend(x) with lines lw 3 lc rgb '#d62728' title (tb0 >= 0 ? 'trend: '.tword : '')
set key top right
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
set object 1 rect from 0, graph 0 to tbs, graph 1
plot data using (column("host_TB_written")):(column("mean_us")) with lines lw 2 lc rgb '#1f3f7f' title 'mean', \
     data using (column("host_TB_written")):(column("p99_us")) with lines lw 1.5 lc rgb '#ff7f0e' title 'p99', \
     data using (column("host_TB_written")):(column("max_us")) with lines lw 1 lc rgb '#d62728' title 'max'
unset multiplot
