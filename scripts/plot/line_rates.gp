# line_rates.gp - a drive line's sequential write rate after its pSLC cache
# against its dies (docs/controller.md, dies programming at once): the
# model as configured and with the limit lifted, beside the reviews'
# figures.
#
#   gnuplot -e "dat='rates.dat'; pub='reviews.dat'; out='x.png'" scripts/plot/line_rates.gp
#
# dat: a row per drive: dies, capacity label, MB/s as configured, MB/s
# without the limit; pub: dies and MB/s published; title, tconf, tfree,
# tpub (the legends), out.
if (!exists("title")) title = 'Write rate after the cache against the dies'
if (!exists("tconf")) tconf = 'model as configured'
if (!exists("tfree")) tfree = 'model without the limit'
if (!exists("tpub")) tpub = 'published'
set terminal pngcairo size 1000,650 enhanced font 'sans,12'
set output out
set title title noenhanced
set logscale x 2
set xrange [6:80]
set yrange [0:*]
set offsets 0, 0, 40, 0
set xlabel 'NAND dies (capacity)'
set ylabel 'Sequential write after the cache (MB/s)'
set grid back lc rgb '#dddddd'
set key bottom right opaque box
plot dat using 1:4:xtic(sprintf('%d (%s)', column(1), strcol(2))) with linespoints lw 2 pt 5 dt 2 lc rgb '#7f7f7f' title tfree noenhanced, \
     dat using 1:3 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title tconf noenhanced, \
     dat using 1:3:(sprintf('%.0f', column(3))) with labels offset 0,-1.2 notitle, \
     dat using 1:4:(sprintf('%.0f', column(4))) with labels offset 0,1.2 notitle, \
     pub using 1:2 with points pt 6 ps 2.2 lw 2 lc rgb '#000000' title tpub noenhanced
