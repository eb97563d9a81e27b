# latency_pages.gp - QD 1 latency CDFs of runs that differ in how NAND
# times vary (docs/nand-latency.md): reads with one tR, tR by page type, and
# page types with read retries; or writes with one tPROG and tPROG by page
# type. Latency in microseconds, the tail on a log axis of 1 - F so that
# p99.9 and p99.99 show.
#
#   gnuplot -e "a='dir1'; b='dir2'; c='dir3'; out='x.png'" scripts/plot/latency_pages.gp
#   gnuplot -e "a='dir1'; b='dir2'; kind='write'; xmin=0; out='x.png'" scripts/plot/latency_pages.gp
#
# Variables: a, b, c, d (results folders with latency_KIND.csv; c and d
# optional), kind (read or write; read), xmin (µs, the axis's left end;
# 40), logx (1: latency on a log axis), out, title, ta, tb, tc, td (the
# curves' legends), ca, cb, cc, cd (their colours), da, db, dc, dd (their
# dash types; 1, solid).
if (!exists("kind")) kind = 'read'
if (!exists("xmin")) xmin = 40
if (!exists("title")) title = 'QD 1 random 4 KiB reads'
if (!exists("ta")) ta = kind eq 'read' ? 'one tR' : 'one tPROG'
if (!exists("tb")) tb = kind eq 'read' ? 'tR by page type' : 'tPROG by page type'
if (!exists("tc")) tc = 'by page type, read retries'
if (!exists("td")) td = ''
if (!exists("ca")) ca = '#7f7f7f'
if (!exists("cb")) cb = '#1f77b4'
if (!exists("cc")) cc = '#d62728'
if (!exists("cd")) cd = '#2ca02c'
if (!exists("da")) da = 1
if (!exists("db")) db = 1
if (!exists("dc")) dc = 1
if (!exists("dd")) dd = 1
set terminal pngcairo size 1200,700 enhanced font 'sans,11'
set output out
set datafile separator ','
set datafile columnheaders
set title title noenhanced
set xlabel (kind eq 'read' ? 'Read' : 'Write').' latency (µs)'
set ylabel 'Fraction of '.kind.'s slower (1 - CDF)'
set logscale y
set format y '10^{%L}'
set yrange [1e-5:1.5]
set xrange [xmin:*]
if (exists("logx") && logx) set logscale x
set grid back lc rgb '#dddddd'
set key top right opaque
# each bucket's 1 - F at its high edge, from a vertical line at the first
# bucket (a run whose reads all fall in one bucket is that line alone); the
# last bucket (F = 1) would be log(0): drawn at the axis floor
tail(f) = (1 - f) > 1e-5 ? 1 - f : 1e-5
lo = 'column("bucket_low_ns")/1e3'
hi = 'column("bucket_high_ns")/1e3'
first(dir, color, dt) = sprintf("'%s/latency_%s.csv' every ::0::0 using (%s):(1):(0):(tail(column(\"cumulative_fraction\")) - 1) with vectors nohead lw 2 dt %d lc rgb '%s' notitle", dir, kind, lo, dt, color)
rest(dir, color, dt, t) = sprintf("'%s/latency_%s.csv' using (%s):(tail(column(\"cumulative_fraction\"))) with steps lw 2 dt %d lc rgb '%s' title '%s'", dir, kind, hi, dt, color, t)
curve(dir, color, dt, t) = first(dir, color, dt).', '.rest(dir, color, dt, t)
curves = curve(a, ca, da, ta).', '.curve(b, cb, db, tb)
if (exists("c")) curves = curves.', '.curve(c, cc, dc, tc)
if (exists("d")) curves = curves.', '.curve(d, cd, dd, td)
eval('plot '.curves)
