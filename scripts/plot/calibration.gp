# calibration.gp - a calibration's curves (ftlsim calibrate): the measured
# points against the stock and the calibrated simulations, from
# DIR/curves.csv (columns: GB or t_s, then measured_Y, stock_Y,
# calibrated_Y with Y MBps or IOPS).
#
#   gnuplot -e "dir='results/cal'; out='fit.png'" scripts/plot/calibration.gp
#
# Variables: dir, out (default DIR/fit.png), fmt (png or svg).
if (!exists("dir")) { print "calibration.gp: set dir"; exit gnuplot }
if (!exists("out")) out = dir.'/fit.png'
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,700 enhanced font 'sans,11'
}
set output out
f = dir.'/curves.csv'
set datafile separator ','
# the x column's name says what the curve is
xcol = system(sprintf("head -n 1 '%s' | cut -d, -f1", f))
set xlabel (xcol eq 'GB' ? 'Host data written (GB)' : 'Time (s)')
ycol = system(sprintf("head -n 1 '%s' | cut -d, -f2", f))
set ylabel (ycol eq 'measured_IOPS' ? 'IOPS' : 'Write throughput (MB/s)')
set title 'Calibration: measured curve, stock and calibrated simulation'
set key top right opaque
set grid back lc rgb '#dddddd'
set xrange [0:*]
set yrange [0:*]
plot f using 1:2 skip 1 with points pt 7 ps 0.8 lc rgb '#000000' title 'measured', \
     f using 1:3 skip 1 with lines lw 2 dt 2 lc rgb '#888888' title 'stock config', \
     f using 1:4 skip 1 with lines lw 2 lc rgb '#cc3311' title 'calibrated'
