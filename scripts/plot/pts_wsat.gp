# pts_wsat.gp - PTS write saturation: 4 KiB random write IOPS per round
# against the data the host has written (TB), with the drive fills marked.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_wsat.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/wsat.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1100,650 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1100,650 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/wsat.csv'
set title (drive eq '' ? '' : drive.': ').'PTS write saturation, 4 KiB random writes' noenhanced
set xlabel 'Host data written (TB)'
set ylabel 'IOPS per round'
set y2label 'Drive fills (host data / user capacity)'
set yrange [0:*]
set xrange [0:*]
set grid back lc rgb '#dddddd'
set key below
set ytics nomirror
set y2tics
set y2range [0:*]
plot data using (column("host_TB_written")):(column("iops")) with linespoints pt 7 ps 0.6 lw 1.5 lc rgb '#1f3f7f' title 'IOPS', \
     data using (column("host_TB_written")):(column("fills")) axes x1y2 with lines dt 2 lw 1.5 lc rgb '#7f7f7f' title 'drive fills (right axis)'
