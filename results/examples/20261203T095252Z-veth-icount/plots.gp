# gnuplot script written by xdptc for the veth run of 2026-12-03T09:52:52Z
set datafile missing '?'
set grid ytics lc rgb '#dddddd'
set key off
set border 3
set tics nomirror

set terminal svg size 800,480 dynamic noenhanced font 'Verdana,11'
set output 'guest_instructions_per_pkt.svg'
set title 'guest instructions per packet (icount guest: 1 ns = 1 instruction), each timing repetition (dots) and the median (bar)'
set ylabel 'instructions per packet'
set xrange [-0.6:3.6]
set yrange [0:*]
set boxwidth 0.5
set style fill transparent solid 0.3 noborder
plot 'plot-cpu-median.dat' using 1:3:xtic(2) with boxes lc rgb '#4477aa', 'plot-cpu.dat' using 1:2 with points pt 7 ps 0.8 lc rgb '#cc3311'
set output 'delta.svg'
set bmargin 4
set title 'Within-run delta (median of paired ratios) and its interval (order statistics, coverage >= 95%)'
set ylabel 'percent'
set yrange [*<0:0<*]
set xrange [-0.6:5.6]
set xzeroaxis lt 1 lc rgb '#000000'
plot 'plot-delta.dat' using 1:3:4:5:($6 > 0.5 ? 0x999999 : 0x228833):xtic(2) with yerrorbars pt 7 ps 1.2 lw 2 lc rgb variable
set output 'counters.svg'
set bmargin
set title 'Mechanism (count pass medians): per packet at the DUT'
set ylabel 'events per packet'
set key top right
set xrange [*:*]
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
plot 'plot-counters.dat' using 2:xtic(1) title 'stack entries' lc rgb '#4477aa', 'plot-counters.dat' using 3 title 'skbs freed' lc rgb '#ee6677', 'plot-counters.dat' using 4 title 'skbs built' lc rgb '#228833'
unset label 10
unset label 11
unset label 12
set key off
set style data points

set terminal pngcairo size 800,480 noenhanced font 'Verdana,10'
set output 'guest_instructions_per_pkt.png'
set title 'guest instructions per packet (icount guest: 1 ns = 1 instruction), each timing repetition (dots) and the median (bar)'
set ylabel 'instructions per packet'
set xrange [-0.6:3.6]
set yrange [0:*]
set boxwidth 0.5
set style fill transparent solid 0.3 noborder
plot 'plot-cpu-median.dat' using 1:3:xtic(2) with boxes lc rgb '#4477aa', 'plot-cpu.dat' using 1:2 with points pt 7 ps 0.8 lc rgb '#cc3311'
set output 'delta.png'
set bmargin 4
set title 'Within-run delta (median of paired ratios) and its interval (order statistics, coverage >= 95%)'
set ylabel 'percent'
set yrange [*<0:0<*]
set xrange [-0.6:5.6]
set xzeroaxis lt 1 lc rgb '#000000'
plot 'plot-delta.dat' using 1:3:4:5:($6 > 0.5 ? 0x999999 : 0x228833):xtic(2) with yerrorbars pt 7 ps 1.2 lw 2 lc rgb variable
set output 'counters.png'
set bmargin
set title 'Mechanism (count pass medians): per packet at the DUT'
set ylabel 'events per packet'
set key top right
set xrange [*:*]
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
plot 'plot-counters.dat' using 2:xtic(1) title 'stack entries' lc rgb '#4477aa', 'plot-counters.dat' using 3 title 'skbs freed' lc rgb '#ee6677', 'plot-counters.dat' using 4 title 'skbs built' lc rgb '#228833'
unset label 10
unset label 11
unset label 12
set key off
set style data points
