# write_curve.gp - the write curve: host write MB/s against GB written, with
# the phases of phases.csv (pSLC, folding, native, GC) shaded and labelled.
#
#   gnuplot -e "dir='results/x'; out='x.png'" scripts/plot/write_curve.gp
#
# Variables (all optional): drive (its name, for the title), dir (results folder, default .), out (output file,
# default dir/write_curve.png; a name ending in .svg gives SVG), fmt ('png' or
# 'svg'), series (default dir/series.csv), have_phases (0 without phases.csv),
# interactive (1: draw on the current terminal, used by --live).
if (!exists("dir")) dir = '.'
if (!exists("drive")) drive = ''
if (!exists("out")) out = dir.'/write_curve.png'
if (!exists("fmt")) fmt = (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png'
if (!exists("series")) series = dir.'/series.csv'
if (!exists("phases")) phases = dir.'/phases.csv'
if (!exists("have_phases")) have_phases = 1
if (!exists("interactive")) interactive = 0
if (!interactive) {
    if (fmt eq 'svg') {
        set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'
    } else {
        set terminal pngcairo size 1200,700 enhanced font 'sans,11'
    }
    set output out
}

set datafile separator ','
set datafile columnheaders
# With have_phases = 0 the phase loops below run zero times, but gnuplot still
# opens their file: give it a table of one empty phase to keep stderr quiet.
$no_phases << EOD
kind,start_host_bytes,end_host_bytes,mean_write_MBps,dies_busy,channels_busy
idle,0,0,0,0,0
EOD
if (!have_phases) phases = '$no_phases'
kind_rgb(k) = k eq 'pslc' ? 0x2ca02c : k eq 'folding' ? 0xff7f0e : k eq 'native' ? 0x1f77b4 : k eq 'gc' ? 0xd62728 : k eq 'read' ? 0x9467bd : 0x7f7f7f
phase_mid(dummy) = (column("start_host_bytes") + column("end_host_bytes")) / 2e9
phase_len(dummy) = (column("end_host_bytes") - column("start_host_bytes")) / 1e9
kind_label(k) = k eq 'pslc' ? 'pSLC' : k eq 'folding' ? 'folding' : k eq 'native' ? 'native' : k eq 'gc' ? 'GC' : k eq 'read' ? 'read' : ''
# A label only on a phase wide enough to hold it (a thirtieth of the axis):
# narrower ones keep their shading, and their labels would overprint.
wide(dummy) = phase_len(0) >= xmax / 30

stats series using (column("write_MBps")) nooutput
ymax = STATS_max > 0 ? STATS_max * 1.15 : 1
stats series using (column("host_written_GB")) nooutput
xmax = STATS_max > 0 ? STATS_max : 1

# The curve is also drawn as its mean over bins of a 300th of the axis: a
# drive that alternates writing and folding every few seconds makes the
# per-interval line a solid band; the mean shows the level it keeps.
bin = xmax / 300
bin_of(x) = (floor(x / bin) + 0.5) * bin

set title (drive eq '' ? 'Sustained write' : drive.': sustained write') noenhanced
set xlabel 'Host data written (GB)'
set ylabel 'Write throughput (MB/s)'
set xrange [0:xmax]
set yrange [0:ymax]
set grid back lc rgb '#dddddd'
set key below
set style fill transparent solid 0.15 noborder

plot for [i=1:have_phases] phases \
         using (phase_mid(0)):(ymax/2):(column("start_host_bytes")/1e9):(column("end_host_bytes")/1e9):(0):(ymax):(kind_rgb(strcol("kind"))) \
         with boxxyerror lc rgb variable notitle, \
     for [i=1:have_phases] phases \
         using (column("start_host_bytes")/1e9):(column("mean_write_MBps")):(phase_len(0)):(0):(kind_rgb(strcol("kind"))) \
         with vectors nohead dt 2 lw 1.5 lc rgb variable notitle, \
     for [i=1:have_phases] phases \
         using (phase_mid(0)):(ymax*0.95):(wide(0) ? kind_label(strcol("kind")) : '') with labels notitle, \
     series using (column("host_written_GB")):(column("write_MBps")) \
         with lines lw 1 lc rgb '#9fb4d8' title 'host write MB/s, per interval', \
     series using (bin_of(column("host_written_GB"))):(column("write_MBps")) smooth unique \
         with lines lw 2 lc rgb '#1f3f7f' title sprintf('mean per %.3g GB', bin)
