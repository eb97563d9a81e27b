# pts_dirth_hist.gp - the PTS response time histograms at three operating
# points of the demand intensity sweep (the highest IOPS, the lowest, the
# one nearest their middle): IOs per histogram bucket against the
# bucket's response time, both on log scales, from dirth_histogram.csv
# (or ECW's ecw_histogram.csv, of the same columns).
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_dirth_hist.gp
#
# Variables: dir, out, fmt, drive; table (the CSV in dir, ecw_histogram.csv
# for ECW's histograms) and what (the stimulus, for the title).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("table")) table = 'dirth_histogram.csv'
if (!exists("what")) what = '8 KiB random 65/35'
if (!exists("out")) out = dir.'/'.table[1:strlen(table)-4].'.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,500 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,500 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/'.table
points = 'max mid min'
colour(i) = word('#d62728 #ff7f0e #1f77b4', i)
set multiplot layout 1,3 title (drive eq '' ? '' : drive."\n").'PTS response time histograms, '.what noenhanced
set grid back lc rgb '#dddddd'
set logscale x
set logscale y
set xlabel 'Response time (us, log scale)'
set ylabel 'IOs in the bucket (log scale)'
unset key
do for [i=1:3] {
    p = word(points, i).' IOPS'
    stats data using (strcol("point") eq p ? column("threads") : NaN) nooutput
    t = STATS_records > 0 ? STATS_max : 0
    stats data using (strcol("point") eq p ? column("iodepth") : NaN) nooutput
    q = STATS_records > 0 ? STATS_max : 0
    set title sprintf('%s: %d thread%s x QD %d', p, t, t == 1 ? '' : 's', q)
    plot data using (strcol("point") eq p ? column("bucket_low_us") : NaN):(column("count")) with impulses lw 3 lc rgb colour(i)
}
unset multiplot
