# calibration.gp - a calibration's fit (ftlsim calibrate): the measured
# curve against the stock and the calibrated simulations, from
# DIR/curves.csv (columns: GB or t_s, then measured_Y, stock_Y,
# calibrated_Y with Y MBps or IOPS); without a curve, each figure of
# DIR/figures.csv (id,measured,stock,calibrated,weight) as points, in % of
# its measured value, with the values printed beside them.
#
#   gnuplot -e "dir='results/cal'; out='fit.png'" scripts/plot/calibration.gp
#
# Variables: dir, out (default DIR/fit.png), fmt (png or svg), curve (1:
# curves.csv, 0: figures.csv; default 1), title (the drive, keys, values
# and loss; shown as given, without enhanced-text markup).
if (!exists("dir")) { print "calibration.gp: set dir"; exit gnuplot }
if (!exists("out")) out = dir.'/fit.png'
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,700 enhanced font 'sans,11'
}
set output out
if (!exists("curve")) curve = 1
if (!exists("title")) title = 'Calibration: measured, stock and calibrated'
set datafile separator ','
set title title noenhanced
set grid back lc rgb '#dddddd'
if (!curve) {
    f = dir.'/figures.csv'
    n = int(system(sprintf("tail -n +2 '%s' | grep -c .", f)))
    set xrange [-0.6:n - 0.4]
    set ylabel 'Value, % of the measured figure'
    set xlabel 'Figure'
    set key top right opaque
    set xtics noenhanced
    set offsets 0, 0, graph 0.1, graph 0.1
    plot f using 0:(100.0):xtic(1) skip 1 with points pt 7 ps 2 lc rgb '#000000' title 'measured', \
         f using 0:(100.0 * $3 / $2) skip 1 with points pt 5 ps 1.6 lc rgb '#888888' title 'stock config', \
         f using 0:(100.0 * $4 / $2) skip 1 with points pt 9 ps 2 lc rgb '#cc3311' title 'calibrated', \
         f using 0:(100.0):(sprintf('%.4g', $2)) skip 1 with labels offset char 4,0 left tc rgb '#000000' notitle, \
         f using 0:(100.0 * $3 / $2):(sprintf('%.4g', $3)) skip 1 with labels offset char -4,0 right tc rgb '#666666' notitle, \
         f using 0:(100.0 * $4 / $2):(sprintf('%.4g', $4)) skip 1 with labels offset char 4,-1 left tc rgb '#cc3311' notitle
    exit
}
f = dir.'/curves.csv'
# the x column's name says what the curve is
xcol = system(sprintf("head -n 1 '%s' | cut -d, -f1", f))
set xlabel (xcol eq 'GB' ? 'Host data written (GB)' : 'Time (s)')
ycol = system(sprintf("head -n 1 '%s' | cut -d, -f2", f))
set ylabel (ycol eq 'measured_IOPS' ? 'IOPS' : 'Write throughput (MB/s)')
set key top right opaque
set xrange [0:*]
set yrange [0:*]
plot f using 1:2 skip 1 with points pt 7 ps 0.8 lc rgb '#000000' title 'measured', \
     f using 1:3 skip 1 with lines lw 2 dt 2 lc rgb '#888888' title 'stock config', \
     f using 1:4 skip 1 with lines lw 2 lc rgb '#cc3311' title 'calibrated'
