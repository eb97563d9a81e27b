# pts_steady.gp - PTS steady-state convergence: the tracking variable per
# round, and over the measurement window its average, the 110%/90% band and
# the least-squares line (the PTS report's steady-state plot).
#
#   gnuplot -e "dir='results/pts'; bs=4096; wfirst=3; wlast=7; avg=..; slope=..; intercept=..; steady=1" scripts/plot/pts_steady.gp
#
# Variables: dir, out, fmt, drive, bs (tracked block size, filters
# steady_state.csv), wfirst/wlast (window rounds), avg, slope, intercept,
# steady (0/1), steady_round, what (the tracked cell), unit.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/steady_state.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("what")) what = 'tracking variable'
if (!exists("unit")) unit = ''
if (!exists("steady_round")) steady_round = 0
if (fmt eq 'svg') {
    set terminal svg size 1100,650 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1100,650 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/steady_state.csv'
verdict = steady ? sprintf('steady state at round %d', steady_round) : 'steady state not reached'
set title (drive eq '' ? '' : drive.': ').'PTS steady-state convergence, '.what."\n".verdict.sprintf(' (window rounds %d-%d)', wfirst, wlast)
set xlabel 'Round'
set ylabel what.' ('.unit.')'
stats data using (column("bs_bytes") == bs ? column("round") : NaN) nooutput
set xrange [0.5:STATS_max + 0.5]
xstep = STATS_max > 30 ? 5 : 1
set xtics xstep
set yrange [0:*]
set mxtics 1
set grid back lc rgb '#dddddd'
set key below
inwin(x) = (x >= wfirst && x <= wlast) ? 1 : NaN
plot data using (column("bs_bytes") == bs ? column("round") : NaN):(column("value")) with linespoints lw 2 pt 7 lc rgb '#1f3f7f' title what, \
     data using (column("bs_bytes") == bs ? column("round") : NaN):(avg * inwin(column("round"))) with lines lw 2 lc rgb '#2ca02c' title 'window average', \
     data using (column("bs_bytes") == bs ? column("round") : NaN):(1.1 * avg * inwin(column("round"))) with lines dt 2 lw 1.5 lc rgb '#d62728' title '110% of average', \
     data using (column("bs_bytes") == bs ? column("round") : NaN):(0.9 * avg * inwin(column("round"))) with lines dt 2 lw 1.5 lc rgb '#d62728' title '90% of average', \
     data using (column("bs_bytes") == bs ? column("round") : NaN):((intercept + slope * column("round")) * inwin(column("round"))) with lines dt 4 lw 2 lc rgb '#ff7f0e' title 'least-squares line'
