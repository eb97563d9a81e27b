# trim_stall.gp - read throughput against time for two runs of the
# trim-stall workload (R1.6) that differ in their TRIM policy: reads of
# other data go on while files are deleted, and the figure shows whether
# they stop while the firmware processes the TRIMs.
#
#   gnuplot -e "a='results/immediate'; b='results/deferred'; out='x.png'" scripts/plot/trim_stall.gp
#
# Variables: a, b (results folders; required), la, lb (their legend titles,
# default 'immediate' and 'deferred'), t0a, t0b (simulated seconds at which
# each run's reads start, drawn as time 0; default 0), out (default
# trim_stall.png; .svg gives SVG), title.
if (!exists("la")) la = 'immediate'
if (!exists("lb")) lb = 'deferred'
if (!exists("out")) out = 'trim_stall.png'
if (!exists("title")) title = 'Reads while files are deleted'
if (!exists("t0a")) t0a = 0
if (!exists("t0b")) t0b = 0
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 1200,500 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,500 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
set grid back lc rgb '#dddddd'
set title title
set xlabel 'Simulated time since the reads started (s)'
set xrange [0:*]
set ylabel 'Read MB/s (per series interval)'
set yrange [0:*]
set key top left
plot a.'/series.csv' using (column('t_s') - t0a):'read_MBps' with steps lw 2 lc rgb '#c0392b' title la, \
     b.'/series.csv' using (column('t_s') - t0b):'read_MBps' with steps lw 2 lc rgb '#2471a3' title lb
