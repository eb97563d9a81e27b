# pts_iops.gp - the PTS IOPS matrix as a heat map: block size down, read/
# write mix across, colour by log IOPS, each cell labelled with its IOPS.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_iops.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/iops.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1100,750 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1100,750 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/iops.csv'
# the PTS's mixes (read %) and block sizes in bytes, as grid positions
mixx(r) = r == 100 ? 0 : r == 95 ? 1 : r == 65 ? 2 : r == 50 ? 3 : r == 35 ? 4 : r == 5 ? 5 : 6
bsy(b) = b == 512 ? 0 : b == 4096 ? 1 : b == 8192 ? 2 : b == 16384 ? 3 : b == 32768 ? 4 : b == 65536 ? 5 : b == 131072 ? 6 : 7
# labels dark on the light half of the scale, white on the dark half
stats data using (column("iops")) nooutput
mid = sqrt(STATS_min * STATS_max)
label(v) = v >= 10000 ? sprintf('%.0fk', v / 1000) : sprintf('%.0f', v)
set title (drive eq '' ? '' : drive.': ').'PTS IOPS at steady state (window average)' noenhanced
set xlabel 'Read / write mix (%)'
set ylabel 'Block size'
set xtics ('100/0' 0, '95/5' 1, '65/35' 2, '50/50' 3, '35/65' 4, '5/95' 5, '0/100' 6)
set ytics ('0.5 KiB' 0, '4 KiB' 1, '8 KiB' 2, '16 KiB' 3, '32 KiB' 4, '64 KiB' 5, '128 KiB' 6, '1 MiB' 7)
set xrange [-0.5:6.5]
set yrange [-0.5:7.5]
set cblabel 'IOPS (log scale)'
set logscale cb
set palette defined (0 '#f7fbff', 1 '#9ecae1', 2 '#3182bd', 3 '#08306b')
set style fill solid 1.0 noborder
unset key
plot data using (mixx(column("read_pct"))):(bsy(column("bs_bytes"))):(0.5):(0.5):(column("iops")) with boxxyerror fc palette, \
     data using (mixx(column("read_pct"))):(bsy(column("bs_bytes"))):(column("iops") < mid ? label(column("iops")) : '') with labels font 'sans,12' tc rgb 'black', \
     data using (mixx(column("read_pct"))):(bsy(column("bs_bytes"))):(column("iops") >= mid ? label(column("iops")) : '') with labels font 'sans,12' tc rgb 'white'
