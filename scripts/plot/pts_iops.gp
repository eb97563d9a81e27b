# pts_iops.gp - the PTS report's IOPS plot: IOPS at steady state (window
# average) against block size, one line per read/write mix, both axes
# logarithmic (pts_iops_3d.gp draws the same table as 3D bars).
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_iops.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/iops.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 1100,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1100,700 enhanced font 'sans,11'
}
set output out
set datafile separator ','
data = dir.'/iops.csv'
# the mixes (read %) present, in the PTS's order (100/0 first)
mixes = system(sprintf("awk -F, 'NR > 1 { print $2 }' '%s' | sort -un -r | tr '\\n' ' '", data))
rows(m) = sprintf("< awk -F, 'NR > 1 && $2 == %s { print $1 \",\" $3 }' '%s' | sort -t, -n -k1,1", m, data)
set title (drive eq '' ? '' : drive."\n").'PTS IOPS at steady state (window average), by block size and R/W mix' noenhanced
set xlabel 'Block size'
set ylabel 'IOPS'
set logscale x 2
set logscale y
set format y '%.0s%c'
set xtics ('0.5 KiB' 512, '4 KiB' 4096, '8 KiB' 8192, '16 KiB' 16384, '32 KiB' 32768, '64 KiB' 65536, '128 KiB' 131072, '1 MiB' 1048576)
set xrange [360:1500000]
set grid back lc rgb '#dddddd'
set key outside right top title 'R/W mix'
# room above and below a single point or a flat line
set offsets 0, 0, graph 0.08, graph 0.08
plot for [m in mixes] rows(m) using 1:2 with linespoints lw 2 pt 7 ps 1 title sprintf('%d/%d', m + 0, 100 - m)
