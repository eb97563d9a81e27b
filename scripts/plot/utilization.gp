# utilization.gp - what the dies spend their time on, against simulated time:
# the share of the dies' time programming host data, folding, collecting
# garbage, reading, erasing and writing translation pages, stacked (the gap
# above is idle time), with the share of the channels' time carrying data
# as a line and the share of the controller's firmware cores' time busy as a
# hatched band (series from before the controller had cores lack it). Where the stack reaches 100% the dies bound the drive; where it
# does not, something else does (the host link, the controller, the host).
#
#   gnuplot -e "dir='results/x'; out='x.png'" scripts/plot/utilization.gp
#
# Variables (all optional): drive (its name, for the title), dir (default .),
# out (default dir/utilization.png; .svg gives SVG), fmt ('png' or 'svg'),
# series (default dir/series.csv).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/utilization.png'
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
set grid front lc rgb '#bbbbbb'
set title (drive eq '' ? 'Die time by activity' : drive.': die time by activity') noenhanced
set xlabel 'Time (s)'
set ylabel 'Share of the dies'' time (%)'
set key outside right top
set style fill solid 0.85 noborder

# Each share is drawn as its mean over bins of a 300th of the axis (as in
# throughput.gp): a drive that alternates host programs and folding from one
# interval to the next would otherwise draw a band of stripes. The stack is
# drawn top down, each level filled to the axis over the ones above it.
t(c) = (floor(column("t_s") / bin) + 0.5) * bin
c1(x) = column("die_host")*100
c2(x) = c1(x) + column("die_fold")*100
c3(x) = c2(x) + column("die_gc")*100
c4(x) = c3(x) + column("die_read")*100
c5(x) = c4(x) + column("die_erase")*100
c6(x) = c5(x) + column("die_map")*100
# series.csv's header names the column (older series lack some)
has_column(name) = int(system("head -n 1 '".series."' | grep -c ".name))
# a series from before the controller had cores has no ctrl_busy column
has_ctrl = has_column('ctrl_busy')
ctrl(x) = has_ctrl ? column("ctrl_busy")*100 : NaN

# An activity the dies never spent time on in the whole run is left out of
# the stack and the key (a write-only run lists no reads, a drive without
# pSLC no folding); so are the controller's cores when never busy. One
# pass over the series gives them all (one scalar each, for the iteration
# bounds of the plot below); a series from before the dies' shares were
# written has none.
# (stats filters by the ranges set: ask before setting them)
stats series using (column("t_s")) nooutput
bin = STATS_max > 0 ? STATS_max / 300 : 1
seen1 = 0; seen2 = 0; seen3 = 0; seen4 = 0; seen5 = 0; seen6 = 0; ctrl_seen = 0
if (has_column('die_host')) {
    stats series using ( \
        seen1 = seen1 | (column("die_host") > 0), seen2 = seen2 | (column("die_fold") > 0), \
        seen3 = seen3 | (column("die_gc") > 0), seen4 = seen4 | (column("die_read") > 0), \
        seen5 = seen5 | (column("die_erase") > 0), seen6 = seen6 | (column("die_map") > 0), \
        ctrl_seen = ctrl_seen | (has_ctrl ? ctrl(0) > 0 : 0), 0) nooutput
}
has_ctrl = ctrl_seen
set xlabel sprintf('Time (s); each share a mean per %.3g s', bin)
set yrange [0:105]
set xrange [0:*]

plot for [i=1:seen6] series using (t(0)):(c6(0)) smooth unique with filledcurves x1 lc rgb '#9467bd' title 'map writes', \
     for [i=1:seen5] series using (t(0)):(c5(0)) smooth unique with filledcurves x1 lc rgb '#7f7f7f' title 'erase', \
     for [i=1:seen4] series using (t(0)):(c4(0)) smooth unique with filledcurves x1 lc rgb '#2ca02c' title 'read', \
     for [i=1:seen3] series using (t(0)):(c3(0)) smooth unique with filledcurves x1 lc rgb '#d62728' title 'GC', \
     for [i=1:seen2] series using (t(0)):(c2(0)) smooth unique with filledcurves x1 lc rgb '#ff7f0e' title 'fold', \
     for [i=1:seen1] series using (t(0)):(c1(0)) smooth unique with filledcurves x1 lc rgb '#1f77b4' title 'host programs', \
     series using (t(0)):(column("chan_busy")*100) smooth unique with lines lw 2 lc rgb '#000000' title 'channels busy', \
     for [i=1:has_ctrl] series using (t(0)):(ctrl(0)) smooth unique with filledcurves x1 fs transparent pattern 4 border lc rgb '#8c564b' title 'controller busy'
