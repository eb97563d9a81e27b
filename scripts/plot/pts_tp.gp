# pts_tp.gp - PTS throughput: sequential read and write MB/s of each block
# size at steady state.
#
#   gnuplot -e "dir='results/pts'" scripts/plot/pts_tp.gp
#
# Variables: dir, out, fmt, drive.
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/tp.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (fmt eq 'svg') {
    set terminal svg size 900,600 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 900,600 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/tp.csv'
bslabel(b) = b >= 1048576 ? sprintf('%.0f MiB', b / 1048576.0) : sprintf('%.0f KiB', b / 1024.0)
set title (drive eq '' ? '' : drive."\n").'PTS sequential throughput at steady state' noenhanced
set ylabel 'MB/s'
set yrange [0:*]
set grid ytics back lc rgb '#dddddd'
set style fill solid 0.9 border -1
set boxwidth 0.8
unset key
set xrange [-0.7:*]
plot data using 0:(column("MBps")):(column("read_pct") == 100 ? 0x2ca02c : 0x1f3f7f):xtic(bslabel(column("bs_bytes")).(column("read_pct") == 100 ? ' read' : ' write')) with boxes lc rgb variable, \
     data using 0:(column("MBps")):(sprintf('%.0f', column("MBps"))) with labels offset 0,1 font 'sans,11'
