# overlay.gp - several runs' write curves (MB/s against GB written) on one
# figure, one line per results folder, the legend from the drive names;
# each curve is the run's mean per bin of a 300th of the longest run.
#
#   gnuplot -e "n=2; dir1='results/a'; name1='Drive A'; dir2='results/b'; \
#               name2='Drive B'; out='overlay.png'" scripts/plot/overlay.gp
#
# Variables: n (number of runs), dirI and nameI for I = 1..n (nameI optional:
# the folder name is used), out (default overlay.png; .svg gives SVG), fmt,
# title (default Sustained write), xlim (GB: the axis's right end, for a
# closer look at the start; default the longest run).
if (!exists("n")) n = 0
if (!exists("out")) out = 'overlay.png'
if (!exists("title")) title = 'Sustained write'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (n < 1) { print "overlay.gp: set n and dir1..dirN"; exit gnuplot }
do for [i=1:n] {
    if (!exists('name'.i)) { eval sprintf("name%d = dir%d", i, i) }
}
if (fmt eq 'svg') {
    set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,700 enhanced font 'sans,11'
}
set output out

set datafile separator ','
set datafile columnheaders

# Each run is drawn as its mean over bins of a 300th of the longest run (as
# write_curve.gp's mean line): a drive that alternates writing and folding
# every few seconds would otherwise draw a solid band where it folds.
# (stats filters by the ranges set: ask before setting them)
xmax = 0
do for [i=1:n] {
    stats value('dir'.i).'/series.csv' using (column("host_written_GB")) nooutput
    if (STATS_max > xmax) { xmax = STATS_max }
}
if (exists("xlim")) { xmax = xlim * 1.0 }
bin = xmax > 0 ? xmax / 300 : 1
bin_of(x) = (floor(x / bin) + 0.5) * bin

set title title noenhanced
set xlabel sprintf('Host data written (GB); each curve a mean per %.3g GB', bin)
set ylabel 'Write throughput (MB/s)'
set xrange [0:xmax > 0 ? xmax : 1]
set yrange [0:*]
set grid back lc rgb '#dddddd'
set key top right opaque

plot for [i=1:n] value('dir'.i).'/series.csv' \
         using (bin_of(column("host_written_GB"))):(column("write_MBps")) smooth unique \
         with lines lw 2 lc i title value('name'.i) noenhanced
