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
#
# The drive's phase in each interval (series.csv's phase column) shades the
# background: pSLC, folding, native, GC-bound and read-only stretches, each
# in its own colour, listed in the key only when the run has it.
array phase_name[5] = ['pslc', 'folding', 'native', 'gc', 'read']
array phase_title[5] = ['pSLC writes', 'writes while folding', 'native writes', \
                        'writes waiting on GC', 'reads only']
array phase_colour[5] = ['#dbe7f6', '#fde3c8', '#e6e6e6', '#f6d4d4', '#dcefd8']
is_phase(k) = strcol("phase") eq phase_name[k] ? 1 : 0
# One pass over the series for all the script asks of it: the time axis
# (stats' own figures), the directions' tops (a direction with no I/O in
# the whole run is left out: no flat line at 0) and the phases seen (one
# scalar each, for the iteration bounds of the plot below).
# (stats filters by the ranges set: ask before setting them)
w_top = 0; r_top = 0
phase_seen1 = 0; phase_seen2 = 0; phase_seen3 = 0; phase_seen4 = 0; phase_seen5 = 0
stats series using (column("t_s")):( \
    w_top = column("write_MBps") > w_top ? column("write_MBps") : w_top, \
    r_top = column("read_MBps") > r_top ? column("read_MBps") : r_top, \
    phase_seen1 = phase_seen1 | is_phase(1), phase_seen2 = phase_seen2 | is_phase(2), \
    phase_seen3 = phase_seen3 | is_phase(3), phase_seen4 = phase_seen4 | is_phase(4), \
    phase_seen5 = phase_seen5 | is_phase(5), 0) nooutput
t_last = STATS_max_x
bin = STATS_max_x > 0 ? STATS_max_x / 300 : 1
dt = STATS_records > 1 ? (STATS_max_x - STATS_min_x) / (STATS_records - 1) : 1
bin_of(x) = (floor(x / bin) + 0.5) * bin
have_write = w_top > 0 ? 1 : 0
have_read = r_top > 0 ? 1 : 0
top = (w_top > r_top ? w_top : r_top) * 1.08
top = top > 0 ? top : 1
set yrange [0:top]
set xrange [0:*]

# A phase's stretch is one box, not one per interval (tens of thousands in
# a long run): a row closes the stretch before it when its phase differs,
# and the last row closes its own; shade() gives the box's middle there
# (NaN elsewhere) and run_w its width.
set style fill solid 1.0 noborder
in_run = 0; run_s = 0; run_w = 0
shade(k) = ($0 == 0 ? in_run = 0 : 0, \
    t = column("t_s"), cur = is_phase(k), done = 0, \
    (!cur && in_run) ? (in_run = 0, run_w = t - dt / 2 - run_s, done = 1) : 0, \
    (cur && !in_run) ? (in_run = 1, run_s = t - dt / 2) : 0, \
    (cur && t >= t_last) ? (run_w = t + dt / 2 - run_s, done = 1) : 0, \
    done ? run_s + run_w / 2 : NaN)

plot for [i=1:phase_seen1] series using (shade(1)):(top):(run_w) \
         with boxes lc rgb phase_colour[1] title 'phase: '.phase_title[1], \
     for [i=1:phase_seen2] series using (shade(2)):(top):(run_w) \
         with boxes lc rgb phase_colour[2] title 'phase: '.phase_title[2], \
     for [i=1:phase_seen3] series using (shade(3)):(top):(run_w) \
         with boxes lc rgb phase_colour[3] title 'phase: '.phase_title[3], \
     for [i=1:phase_seen4] series using (shade(4)):(top):(run_w) \
         with boxes lc rgb phase_colour[4] title 'phase: '.phase_title[4], \
     for [i=1:phase_seen5] series using (shade(5)):(top):(run_w) \
         with boxes lc rgb phase_colour[5] title 'phase: '.phase_title[5], \
     for [i=1:have_write] series using (column("t_s")):(column("write_MBps")) \
         with lines lw 1 lc rgb '#9fb4d8' title 'write MB/s, per interval', \
     for [i=1:have_read] series using (column("t_s")):(column("read_MBps")) \
         with lines lw 1 lc rgb '#a8d8a0' title 'read MB/s, per interval', \
     for [i=1:have_write] series using (bin_of(column("t_s"))):(column("write_MBps")) \
         smooth unique with lines lw 2 lc rgb '#1f3f7f' title sprintf('write, mean per %.3g s', bin), \
     for [i=1:have_read] series using (bin_of(column("t_s"))):(column("read_MBps")) \
         smooth unique with lines lw 2 lc rgb '#2ca02c' title sprintf('read, mean per %.3g s', bin)
