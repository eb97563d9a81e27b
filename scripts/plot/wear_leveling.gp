# wear_leveling.gp - erase counts per block against the static wear leveling
# threshold, from the sweep.csv of `ftlsim run --vary wear.static_threshold=...`:
# for each run the fewest, mean and most erases of a block (a bar from the
# least- to the most-worn block, the mean as a point) on the left axis, the
# write amplification on the right. Rows in the order of the sweep.
#
#   gnuplot -e "dat='sweep.csv'; out='wear.png'" scripts/plot/wear_leveling.gp
#
# dat: a sweep.csv whose first column is wear.static_threshold; out (default
# wear_leveling.png; .svg gives SVG); title (optional) above the plot.
if (!exists("out")) out = 'wear_leveling.png'
if (!exists("title")) title = 'Static wear leveling: erases per block and their cost'
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 1200,600 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,600 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
set title title
set grid ytics back lc rgb '#dddddd'
set xlabel 'static\_threshold (erases a die may spread before cold data moves; 0: off)'
set ylabel 'Erases per block (fewest, mean, most)'
set y2label 'Write amplification'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [1:*]
set xrange [-0.5:*]
set offsets 0, 0.5, 0, 0
set key below horizontal
label(t) = t == 0 ? 'off' : sprintf('%d', t)
plot dat using 0:(column('wear_mean')):(column('wear_min')):(column('wear_max')):xtic(label(column(1))) \
         with yerrorbars pt 7 ps 1.3 lw 3 lc rgb '#1f77b4' title 'erases per block', \
     dat using 0:(column('waf')) axes x1y2 with linespoints pt 5 ps 1.2 lw 2 lc rgb '#d62728' \
         title 'write amplification'
