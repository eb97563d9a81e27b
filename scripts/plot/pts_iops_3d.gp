# pts_iops_3d.gp - the PTS report's 3D IOPS bar plot: one bar per block size
# and read/write mix, its height the steady-state IOPS (log scale).
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_iops_3d.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/iops_3d.png'
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
# the PTS's mixes (read %) and block sizes as grid positions
mixx(r) = r == 100 ? 0 : r == 95 ? 1 : r == 65 ? 2 : r == 50 ? 3 : r == 35 ? 4 : r == 5 ? 5 : 6
# small blocks (tall bars) at the back, so that no bar hides another
bsy(b) = b == 512 ? 7 : b == 4096 ? 6 : b == 8192 ? 5 : b == 16384 ? 4 : b == 32768 ? 3 : b == 65536 ? 2 : b == 131072 ? 1 : 0
set title (drive eq '' ? '' : drive."\n").'PTS IOPS at steady state, block size x R/W mix' noenhanced
set xtics ('100/0' 0, '95/5' 1, '65/35' 2, '50/50' 3, '35/65' 4, '5/95' 5, '0/100' 6) offset 0,-0.5
set ytics ('0.5K' 7, '4K' 6, '8K' 5, '16K' 4, '32K' 3, '64K' 2, '128K' 1, '1M' 0)
set xrange [-0.5:6.5]
set yrange [-0.5:7.5]
set xlabel 'R/W mix' offset 0,-1
set ylabel 'Block size' offset 2,0
set zlabel 'IOPS' rotate parallel
set logscale z
set logscale cb
set ztics format '%.0s%c'
set xyplane 0
set view 60, 30, 1, 1
set boxwidth 0.45 absolute
set boxdepth 0.45
set style fill solid 0.9 border lc rgb '#333333'
set palette defined (0 '#9ecae1', 1 '#3182bd', 2 '#08306b')
set cblabel 'IOPS'
set grid z back lc rgb '#dddddd'
unset key
splot data using (mixx(column("read_pct"))):(bsy(column("bs_bytes"))):(column("iops")) with boxes fc palette z
