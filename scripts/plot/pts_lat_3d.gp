# pts_lat_3d.gp - the PTS-E LAT report's 3D bar plots: one bar per block
# size and read/write mix, its height the average (stat='mean') or the
# maximum (stat='max') response time over the steady-state window (log
# scale), as iops_3d.png draws the IOPS matrix.
#
#   gnuplot -e "dir='results/pts'; stat='max'" scripts/plot/pts_lat_3d.gp
#
# Variables: dir, stat (mean or max), out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("stat")) stat = 'mean'
if (!exists("out")) out = dir.'/lat_3d_'.stat.'.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1000,700 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/lat.csv'
col = stat eq 'max' ? 'max_us' : 'mean_us'
what = stat eq 'max' ? 'Maximum' : 'Average'
# before any range is set, which stats would apply
stats data using (column(col)) nooutput
# the LAT test's mixes (read %) and block sizes as grid positions; with
# three by three cells and this view every bar's top stays in sight
mixx(r) = r == 100 ? 0 : r == 65 ? 1 : 2
bsy(b) = b == 512 ? 0 : b == 4096 ? 1 : 2
set title (drive eq '' ? '' : drive."\n").'PTS LAT: '.what.' response time at 1 thread QD 1, block size x R/W mix' noenhanced
set xtics ('100/0' 0, '65/35' 1, '0/100' 2) offset 0,-0.5
set ytics ('0.5K' 0, '4K' 1, '8K' 2)
set xrange [-0.5:2.5]
set yrange [-0.5:2.5]
set xlabel 'R/W mix' offset 0,-1
set ylabel 'Block size' offset 2,0
set zlabel what.' response time (us)' rotate parallel offset -3,0
set logscale z
set logscale cb
# at QD 1 the times often span one decade or two: label 2, 3 and 5 x each
# power of ten as well, or the bars' heights could not be read
if (STATS_min > 0 && STATS_max / STATS_min < 100) {
    d0 = 10**floor(log10(STATS_min))
    do for [k = 0:2] {
        do for [m in "2 3 5"] {
            v = d0 * 10**k * (m + 0)
            set ztics add (gprintf('%g', v) v)
            set cbtics add (gprintf('%g', v) v)
        }
    }
}
set xyplane 0
set view 60, 30, 1, 1
set boxwidth 0.4 absolute
set boxdepth 0.4
set style fill solid 0.9 border lc rgb '#333333'
set palette defined (0 '#fdd0a2', 1 '#f16913', 2 '#7f2704')
set cblabel what.' response time (us)' offset 1.5,0
set grid z back lc rgb '#dddddd'
unset key
splot data using (mixx(column("read_pct"))):(bsy(column("bs_bytes"))):(column(col)) with boxes fc palette z
