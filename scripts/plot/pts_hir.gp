# pts_hir.gp - the PTS host idle recovery plots: 4 KiB random write IOPS
# of every access period against time, the periods followed by host idle
# time (each wait state in its colour) and the returns to baseline without
# idle (grey), with the steady state before them as a line; and each wait
# state's average against its idle time.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_hir.gp
#
# Variables: dir, out, fmt, drive, ss (steady-state IOPS), period (s).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/hir.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("ss")) ss = NaN
if (!exists("period")) period = 0
if (fmt eq 'svg') {
    set terminal svg size 1200,900 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,900 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/hir.csv'
set multiplot layout 2,1 title (drive eq '' ? '' : drive."\n").sprintf('PTS host idle recovery, 4 KiB random writes: access periods of %.3g s, each followed by the wait state''s idle time, then as many without idle', period) noenhanced
set grid back lc rgb '#dddddd'
set key outside right top font ',10'
set yrange [0:*]
set ylabel 'IOPS per access period'
set xlabel 'Time since the rounds began (s, host idle time included)'
colour(k) = k == 1 ? 0x1f77b4 : k == 2 ? 0x2ca02c : k == 3 ? 0xff7f0e : k == 4 ? 0x9467bd : 0xd62728
wait(k) = column("wait_state") == k && strcol("phase") eq 'wait' ? column("iops") : NaN
plot for [k=1:5] data using (column("t_s")):(wait(k)) with points pt 7 ps 0.35 lc rgb colour(k) title sprintf('wait state %d', k), \
     data using (column("t_s")):(strcol("phase") eq 'baseline' ? column("iops") : NaN) with points pt 7 ps 0.35 lc rgb '#999999' title 'return to baseline', \
     ss with lines lw 2 dt 2 lc rgb '#000000' title 'steady state before'
set key inside top left
set xlabel 'Host idle time after each access period (s)'
set ylabel 'IOPS, average of the access periods'
stats data using (column("wait_s")) nooutput
set xrange [0:STATS_max * 1.08]
plot data using (column("wait_s")):(strcol("phase") eq 'wait' ? column("iops") : NaN) smooth unique with linespoints pt 7 ps 1.2 lw 2 lc rgb '#1f3f7f' title 'with idle', \
     data using (column("wait_s")):(strcol("phase") eq 'baseline' ? column("iops") : NaN) smooth unique with linespoints pt 5 ps 1.2 lw 2 lc rgb '#999999' title 'return to baseline (no idle)', \
     ss with lines lw 2 dt 2 lc rgb '#000000' title 'steady state before'
unset multiplot
