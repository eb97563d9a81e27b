# pts_lat.gp - PTS latency: response time mean and percentiles of each block
# size and mix at 1 thread QD 1, as grouped bars on a log scale.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_lat.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/lat.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,700 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/lat.csv'
bslabel(b) = b < 1024 ? sprintf('%.1fK', b / 1024.0) : sprintf('%.0fK', b / 1024.0)
set title (drive eq '' ? '' : drive.': ').'PTS latency at 1 thread QD 1 (steady-state window)' noenhanced
set ylabel 'Response time (us, log scale)'
set logscale y
set grid ytics back lc rgb '#dddddd'
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.9 border -1
set boxwidth 0.9
set xtics rotate by -30
set key below horizontal
plot data using (column("mean_us")):xtic(bslabel(column("bs_bytes")).' '.sprintf('%d/%d', column("read_pct"), 100 - column("read_pct"))) lc rgb '#9ecae1' title 'mean', \
     data using (column("p99_us")) lc rgb '#4292c6' title 'p99', \
     data using (column("p99_9_us")) lc rgb '#2171b5' title 'p99.9', \
     data using (column("p99_99_us")) lc rgb '#08519c' title 'p99.99', \
     data using (column("max_us")) lc rgb '#d95f02' title 'max'
