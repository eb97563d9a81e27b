# pts_steady.gp - the PTS report's steady-state measurement window: the
# tracking variable per round, and over the window its average, the ±10%
# data-excursion band (90%..110% of the average: a range within 20%), the
# ±5% slope band (95%..105%: a least-squares line whose change over the
# window is within 10%) and the least-squares line, with the numbers of the
# determination printed on the plot.
#
#   gnuplot -e "dir='results/pts'; bs=4096; wfirst=3; wlast=7; avg=..; slope=..; intercept=..; steady=1" scripts/plot/pts_steady.gp
#
# Variables: dir, out, fmt, drive, bs (tracked block size, filters
# steady_state.csv), wfirst/wlast (window rounds), avg, slope, intercept,
# excursion and slope_excursion (% of the average), steady (0/1),
# steady_round, what (the tracked cell), unit.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/steady_state.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("what")) what = 'tracking variable'
if (!exists("unit")) unit = ''
if (!exists("steady_round")) steady_round = 0
if (!exists("excursion")) excursion = NaN
if (!exists("slope_excursion")) slope_excursion = NaN
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
set title (drive eq '' ? '' : drive."\n").'PTS steady-state measurement window, '.what.': '.verdict.sprintf(' (window rounds %d-%d)', wfirst, wlast) noenhanced
set xlabel 'Round'
set ylabel what.' ('.unit.')' noenhanced
stats data using (column("bs_bytes") == bs ? column("round") : NaN) nooutput
# the window and up to 10 rounds either side (the convergence plot has them all)
x0 = wfirst - 10 < 1 ? 1 : wfirst - 10
x1 = wlast + 10 > STATS_max ? STATS_max : wlast + 10
set xrange [x0 - 0.5:x1 + 0.5]
xstep = x1 - x0 > 30 ? 5 : 1
set xtics xstep
set yrange [0:*]
set mxtics 1
set grid back lc rgb '#dddddd'
# the key and the numbers in the right margin, clear of the data
set rmargin at screen 0.70
set key at screen 0.72, graph 1 left top Left reverse noenhanced
# the determination, as the PTS report prints it
set label 1 sprintf("average %.6g %s\ndata excursion %.1f%% (allowed 20%%)\nslope excursion %.1f%% (allowed 10%%)\nleast-squares slope %.4g %s/round\nleast-squares intercept %.6g", \
    avg, unit, excursion, slope_excursion, slope, unit, intercept) at screen 0.72, graph 0.35 left front noenhanced \
    font ',10' boxed
set style textbox opaque border lc rgb '#999999'
inwin(x) = (x >= wfirst && x <= wlast) ? 1 : NaN
r(x) = column("bs_bytes") == bs ? x : NaN
plot data using (r(column("round"))):(column("value")) with linespoints lw 2 pt 7 lc rgb '#1f3f7f' title what, \
     data using (r(column("round"))):(avg * inwin(column("round"))) with lines lw 2 lc rgb '#2ca02c' title 'window average', \
     data using (r(column("round"))):(1.1 * avg * inwin(column("round"))) with lines dt 2 lw 1.5 lc rgb '#d62728' title '90-110% of average (data ±10%)', \
     data using (r(column("round"))):(0.9 * avg * inwin(column("round"))) with lines dt 2 lw 1.5 lc rgb '#d62728' notitle, \
     data using (r(column("round"))):(1.05 * avg * inwin(column("round"))) with lines dt 3 lw 1.5 lc rgb '#9467bd' title '95-105% of average (slope ±5%)', \
     data using (r(column("round"))):(0.95 * avg * inwin(column("round"))) with lines dt 3 lw 1.5 lc rgb '#9467bd' notitle, \
     data using (r(column("round"))):((intercept + slope * column("round")) * inwin(column("round"))) with lines dt 4 lw 2 lc rgb '#ff7f0e' title 'least-squares line'
