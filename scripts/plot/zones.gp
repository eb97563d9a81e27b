# zones.gp - one zone of a ZNS drive (docs/zns.md): write MiB/s at QD 1
# against block size and 4 KiB append MiB/s against queue depth, the model
# beside published points and under the drive's bounds, and the latency of
# the zone management actions (mean, p99, max) on a log axis.
#
#   gnuplot -e "writes='w.dat'; appends='a.dat'; actions='z.dat'; pub_writes='pw.dat'; \
#               pub_appends='pa.dat'; nand=1200; cmd_us=10.6; out='zones.png'" scripts/plot/zones.gp
#
# writes: block size (KiB) and MiB/s a row; appends: queue depth and MiB/s;
# actions: name, count, mean, p99, max (us); pub_writes, pub_appends,
# pub_actions: the published points as writes and appends, and as the
# action's row (0 for the first) and latency (optional); nand: the NAND's bound on writes
# (MiB/s); cmd_us: the firmware time of a command (the controller's bound,
# one command at a time); title, pub (the published points' legend), out.
if (!exists("title")) title = 'One zone: write rate and zone actions'
if (!exists("pub")) pub = 'published'
stats actions using 5 nooutput # (before any range is set: stats keeps to them)
set terminal pngcairo size 1200,1000 enhanced font 'sans,12'
set output out
set multiplot title title noenhanced font 'sans,13'
set grid back lc rgb '#dddddd'
set key bottom right opaque box
ctrl(kib) = kib * 1024 / (cmd_us * 1e-6) / 1048576

set origin 0, 0.5
set size 0.5, 0.47
set title 'QD 1 writes to one zone'
set logscale x 2
set xrange [3:180]
set xtics ('4' 4, '8' 8, '16' 16, '32' 32, '64' 64, '128' 128)
set xlabel 'Block size (KiB)'
set ylabel 'MiB/s'
set yrange [0:1500]
set samples 200
plot nand with lines dt 2 lw 2 lc rgb '#7f7f7f' title sprintf('all dies programming: %.0f MiB/s', nand), \
     ctrl(x) with lines dt 3 lw 2 lc rgb '#9467bd' title sprintf('one command each %.1f us', cmd_us), \
     writes using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'model', \
     pub_writes using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#000000' title pub

set origin 0.5, 0.5
set title '4 KiB Zone Appends to one zone'
set xrange [0.8:40]
set xtics ('1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32)
set xlabel 'Queue depth'
set yrange [0:700]
plot ctrl(4) with lines dt 3 lw 2 lc rgb '#9467bd' title sprintf('one command each %.1f us', cmd_us), \
     appends using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'model', \
     pub_appends using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#000000' title pub

set origin 0, 0
set size 1, 0.5
set title 'Zone management actions: latency from submission to completion'
unset logscale x
set xrange [-0.6:3.6]
set xtics format ''
set xlabel 'Zone action (commands issued)'
set logscale y
set yrange [1:STATS_max * 10]
set ylabel 'Latency (µs)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set xtics nomirror
# each bar's value above it (three bars a group, a quarter of a unit apart)
val(col, dx) = sprintf("'' using ($0 + %g):(column(%d) * 1.4):(sprintf('%%.1f', column(%d))) with labels font 'sans,11' notitle", dx, col, col)
eval("plot actions using 3:xtic(sprintf('%s (%d)', strcol(1), column(2))) title 'mean' lc rgb '#6baed6', " . \
     "'' using 4 title 'p99' lc rgb '#3182bd', '' using 5 title 'max' lc rgb '#08519c', " . \
     val(3, -0.25) . ', ' . val(4, 0) . ', ' . val(5, 0.25) . \
     (exists("pub_actions") ? sprintf(", '%s' using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#000000' title '%s'", pub_actions, pub) : ''))
unset multiplot
