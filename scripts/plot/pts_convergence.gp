# pts_convergence.gp - the PTS report's steady-state convergence plot: the
# tracking variable's mix (track_pct % reads) per round, one line per block
# size, from rounds.csv (for tp, a line per block size: each has its own
# purge and rounds).
#
#   gnuplot -e "dir='results/pts'; track_pct=0; ycol='iops'; unit='IOPS'" scripts/plot/pts_convergence.gp
#
# Variables: dir, out, fmt, drive, track_pct, ycol (iops, MBps or mean_us),
# unit, what (the test's name), judged (0: the rounds are not judged for
# steady state, as WSAT's; default 1), tq_threads and tq_iodepth (ECW's
# matrix: the rounds of that threads x QD point only; 0: every row).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/convergence.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("track_pct")) track_pct = 0
if (!exists("ycol")) ycol = 'iops'
if (!exists("unit")) unit = 'IOPS'
if (!exists("what")) what = 'PTS'
if (!exists("tq_threads")) tq_threads = 0
if (!exists("tq_iodepth")) tq_iodepth = 0
# the rows of the tracked mix (and threads x QD point), for awk
keep = sprintf("NR > 1 && $3 == %d && (%d == 0 || ($14 == %d && $15 == %d))", track_pct, tq_threads, tq_threads, tq_iodepth)
if (fmt eq 'svg') {
    set terminal svg size 1100,650 dynamic enhanced font 'sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1100,650 enhanced font 'sans,11'
}
set output out
set datafile separator ','
set datafile columnheaders
data = dir.'/rounds.csv'
# the block sizes of the tracked mix, largest first
bss = system(sprintf("awk -F, '%s { print $2 }' '%s' | sort -un -r | tr '\\n' ' '", keep, data))
bslabel(b) = b == 0 ? 'mixed sizes' : b >= 1048576 ? sprintf('%.0f MiB', b / 1048576.0) : b >= 1024 ? sprintf('%.0f KiB', b / 1024.0) : sprintf('%.1f KiB', b / 1024.0)
# judged=0 (WSAT): the rounds are not judged for steady state
if (!exists("judged")) judged = 1
bstext = (words(bss) == 1 ? bslabel(word(bss, 1) + 0) : 'all block sizes').(tq_threads ? sprintf(' at %d x QD %d', tq_threads, tq_iodepth) : '')
set title (drive eq '' ? '' : drive."\n").'PTS '.what.': '.(judged ? 'steady-state convergence' : unit.' per round').', '.sprintf('%d/%d', track_pct, 100 - track_pct).' R/W, '.bstext noenhanced
set xlabel 'Round'
set ylabel unit
stats data using (column("round")) nooutput
set xrange [0.5:STATS_max + 0.5]
xstep = STATS_max > 150 ? 20 : STATS_max > 60 ? 10 : STATS_max > 30 ? 5 : 1
set xtics xstep
set logscale y
set format y '%.0s%c'
set grid back lc rgb '#dddddd'
set key outside right top title 'block size'
# each block size's rows on their own, so that its line joins its rounds
ycolno = ycol eq 'iops' ? 7 : ycol eq 'MBps' ? 8 : 9
# values within a decade or two (tp's MB/s) get 2, 3 and 5 x labels too:
# with the powers of ten alone their level could not be read
ymm = system(sprintf("awk -F, '%s { v = $%d + 0; if (n++ == 0 || v < lo) lo = v; if (v > hi) hi = v } END { print lo + 0, hi + 0 }' '%s'", keep, ycolno, data))
ylo = word(ymm, 1) + 0.0
yhi = word(ymm, 2) + 0.0
if (ylo > 0 && yhi / ylo < 100) {
    d0 = 10**floor(log10(ylo))
    do for [k = 0:2] {
        do for [m in "2 3 5"] {
            v = d0 * 10**k * (m + 0)
            set ytics add (gprintf('%.0s%c', v) v)
        }
    }
}
rows(b) = sprintf("< awk -F, '%s && $2 == %s { print $1 \",\" $%d }' '%s'", keep, b, ycolno, data)
set datafile nocolumnheaders
plot for [b in bss] rows(b) using 1:2 with linespoints lw 2 pt 7 ps 0.8 title bslabel(b + 0)
