# throughput.gp - host read and write MB/s against simulated time, over the
# drive's phases shaded; a direction without I/O is not drawn.
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
set grid back lc rgb '#dddddd'
set key below

# As in write_curve.gp, each direction is also drawn as its mean over bins
# of a 300th of the axis: a drive that alternates writing and folding every
# few seconds makes the per-interval line a solid band.
# (stats filters by the ranges set: ask before setting them)
stats series using (column("t_s")) nooutput
bin = STATS_max > 0 ? STATS_max / 300 : 1
dt = STATS_records > 1 ? (STATS_max - STATS_min) / (STATS_records - 1) : 1
bin_of(x) = (floor(x / bin) + 0.5) * bin
# a direction with no I/O in the whole run is left out (no flat line at 0)
stats series using (column("write_MBps")) nooutput
have_write = STATS_max > 0 ? 1 : 0
top = STATS_max
stats series using (column("read_MBps")) nooutput
have_read = STATS_max > 0 ? 1 : 0
top = (STATS_max > top ? STATS_max : top) * 1.08
top = top > 0 ? top : 1
set yrange [0:top]
set xrange [0:*]

# The drive's phase in each interval (series.csv's phase column) shades the
# background: pSLC, folding, native, GC-bound and read-only stretches, each
# in its own colour, listed in the key only when the run has it.
array phase_name[5] = ['pslc', 'folding', 'native', 'gc', 'read']
array phase_title[5] = ['pSLC writes', 'writes while folding', 'native writes', \
                        'writes waiting on GC', 'reads only']
array phase_colour[5] = ['#dbe7f6', '#fde3c8', '#e6e6e6', '#f6d4d4', '#dcefd8']
# (one scalar each, for the iteration bounds of the plot below)
do for [k=1:5] {
    stats series using (strcol("phase") eq phase_name[k] ? 1 : 0) nooutput
    eval sprintf('phase_seen%d = %d', k, STATS_sum > 0 ? 1 : 0)
}
set style fill solid 1.0 noborder
shade(k) = strcol("phase") eq phase_name[k] ? column("t_s") - dt / 2 : NaN

plot for [i=1:phase_seen1] series using (shade(1)):(top):(dt * 1.05) \
         with boxes lc rgb phase_colour[1] title 'phase: '.phase_title[1], \
     for [i=1:phase_seen2] series using (shade(2)):(top):(dt * 1.05) \
         with boxes lc rgb phase_colour[2] title 'phase: '.phase_title[2], \
     for [i=1:phase_seen3] series using (shade(3)):(top):(dt * 1.05) \
         with boxes lc rgb phase_colour[3] title 'phase: '.phase_title[3], \
     for [i=1:phase_seen4] series using (shade(4)):(top):(dt * 1.05) \
         with boxes lc rgb phase_colour[4] title 'phase: '.phase_title[4], \
     for [i=1:phase_seen5] series using (shade(5)):(top):(dt * 1.05) \
         with boxes lc rgb phase_colour[5] title 'phase: '.phase_title[5], \
     for [i=1:have_write] series using (column("t_s")):(column("write_MBps")) \
         with lines lw 1 lc rgb '#9fb4d8' title 'write MB/s, per interval', \
     for [i=1:have_read] series using (column("t_s")):(column("read_MBps")) \
         with lines lw 1 lc rgb '#a8d8a0' title 'read MB/s, per interval', \
     for [i=1:have_write] series using (bin_of(column("t_s"))):(column("write_MBps")) \
         smooth unique with lines lw 2 lc rgb '#1f3f7f' title sprintf('write, mean per %.3g s', bin), \
     for [i=1:have_read] series using (bin_of(column("t_s"))):(column("read_MBps")) \
         smooth unique with lines lw 2 lc rgb '#2ca02c' title sprintf('read, mean per %.3g s', bin)
