# waf_op.gp - steady-state write amplification of 4 KiB random writes on a
# full drive against the spare factor, one set of points per GC policy:
# uniform writes on the left, with the closed form for FIFO cleaning drawn
# as a line, skewed (zipf) writes on the right.
#
#   gnuplot -e "dat='waf.dat'; curve='fifo.dat'; out='waf-op.png'" scripts/plot/waf_op.gp
#
# dat: rows "distribution policy nominal_op effective_spare waf", the
# distribution `random` or `zipf` (scripts/figures writes it); curve: rows
# "spare waf" of the closed form; out (default waf_op.png; .svg gives SVG).
if (!exists("out")) out = 'waf_op.png'
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 1200,520 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1200,520 enhanced font 'sans,11'
}
set output out
set multiplot layout 1,2 title 'Write amplification of 4 KiB random writes on a full drive, by GC policy'
set grid back lc rgb '#dddddd'
set xlabel 'Spare factor: physical space holding data / user space - 1 (%)'
set ylabel 'Write amplification (NAND writes / host writes)'
set logscale y
set yrange [1:20]
# the values lie between 1.3 and 10: label 2, 3 and 5 as well as the decades
set ytics ('1' 1, '2' 2, '3' 3, '5' 5, '10' 10, '20' 20)
set xrange [0:45]
set key top right
pick(d, p) = (strcol(1) eq d && strcol(2) eq p)
set title 'Uniform writes'
plot curve using ($1*100):2 with lines lw 2 lc rgb '#777777' title 'FIFO, closed form', \
     dat using ($4*100):(pick('random', 'fifo') ? $5 : 1/0) with points pt 7 ps 1.4 lc rgb '#d62728' title 'FIFO', \
     dat using ($4*100):(pick('random', 'greedy') ? $5 : 1/0) with points pt 5 ps 1.1 lc rgb '#1f77b4' title 'greedy', \
     dat using ($4*100):(pick('random', 'cost_benefit') ? $5 : 1/0) with points pt 9 ps 1.1 lc rgb '#2ca02c' title 'cost-benefit'
set title 'Skewed writes (zipf 1.2)'
plot dat using ($4*100):(pick('zipf', 'fifo') ? $5 : 1/0) with linespoints pt 7 ps 1.4 lc rgb '#d62728' title 'FIFO', \
     dat using ($4*100):(pick('zipf', 'greedy') ? $5 : 1/0) with linespoints pt 5 ps 1.1 lc rgb '#1f77b4' title 'greedy', \
     dat using ($4*100):(pick('zipf', 'cost_benefit') ? $5 : 1/0) with linespoints pt 9 ps 1.1 lc rgb '#2ca02c' title 'cost-benefit'
unset multiplot
