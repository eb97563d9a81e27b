# placement_waf.gp - write amplification of the flash-cache mix against
# device utilisation, with and without FDP and on ZNS (scripts/placement-waf).
#
#   gnuplot -e "dat='placement-waf.dat'; out='placement-waf.png'" scripts/plot/placement_waf.gp
#
# dat: rows "utilisation_pct waf_without_fdp waf_with_fdp waf_zns host_wa_zns";
# the ZNS curve is the device WAF (the host's own is in the data and docs).
if (!exists("out")) out = 'placement_waf.png'
set terminal pngcairo size 900,560 enhanced font 'sans,11'
set output out
set title 'Flash-cache mix (4 KiB random small objects, 16 MiB FIFO regions): WAF against utilisation'
set grid back lc rgb '#dddddd'
set xlabel 'Device utilisation: share of the user capacity (ZNS: of the zones) the cache uses (%)'
set ylabel 'Device write amplification (steady state)'
set xrange [45:102]
set yrange [0.9:*]
set key top left
plot dat using 1:2 with linespoints lw 2 pt 7 ps 1.3 lc rgb '#d62728' title 'without FDP (one stream)', \
     dat using 1:3 with linespoints lw 2 pt 5 ps 1.3 lc rgb '#1f77b4' title 'FDP, two handles (initially isolated)', \
     dat using 1:4 with linespoints lw 2 pt 9 ps 1.4 lc rgb '#2ca02c' dt 2 title 'ZNS, 72 MiB zones, host resets regions (device WAF)'
