# placement_waf.gp - write amplification of the flash-cache mix against
# device utilisation, with and without FDP (scripts/placement-waf).
#
#   gnuplot -e "dat='placement-waf.dat'; out='placement-waf.png'" scripts/plot/placement_waf.gp
#
# dat: rows "utilisation_pct waf_without_fdp waf_with_fdp [waf_zns]".
if (!exists("out")) out = 'placement_waf.png'
set terminal pngcairo size 900,560 enhanced font 'sans,11'
set output out
set title 'Flash-cache mix (4 KiB random small objects, 16 MiB FIFO regions): WAF against utilisation'
set grid back lc rgb '#dddddd'
set xlabel 'Device utilisation: share of the user capacity the cache uses (%)'
set ylabel 'Device write amplification (steady state)'
set xrange [45:102]
set yrange [0.9:*]
set key top left
plot dat using 1:2 with linespoints lw 2 pt 7 ps 1.3 lc rgb '#d62728' title 'without FDP (one stream)', \
     dat using 1:3 with linespoints lw 2 pt 5 ps 1.3 lc rgb '#1f77b4' title 'FDP, two handles (initially isolated)'
