# xdptc matrix: each mode's delta against tc per guest kernel
set terminal svg size 900,500 noenhanced
set output 'matrix-delta.svg'
set title 'xdpdrv against tc (retired guest instructions per packet; intervals: at least 95%)'
set ylabel 'delta against tc, percent'
set xlabel 'guest kernel' offset 0,-1
set bmargin 5
set xzeroaxis
set xrange [-0.5:0.5]
set yrange [*<0:0<*]
set key outside
set offsets 0, 0, graph 0.06, graph 0.06
set xtics ("6.1" 0)
plot 'matrix-delta-veth-udp-xdpdrv.dat' using ($1+-0.10):3:4:5 with yerrorlines pt 7 lw 2 title 'veth-udp', 'matrix-delta-veth-xdp-live-xdpdrv.dat' using ($1+-0.05):3:4:5 with yerrorlines pt 7 lw 2 title 'veth-xdp-live', 'matrix-delta-virtio-xdpdrv.dat' using ($1+0.00):3:4:5 with yerrorlines pt 7 lw 2 title 'virtio'
set terminal pngcairo size 900,500 noenhanced
set output 'matrix-delta.png'
replot
set terminal svg size 900,500 noenhanced
set output 'matrix-delta-retired.svg'
set title 'xdpdrv against tc (retired guest instructions per packet; intervals: at least 95%)'
set ylabel 'delta against tc, percent'
set xlabel 'guest kernel' offset 0,-1
set bmargin 5
set xzeroaxis
set xrange [-0.5:0.5]
set yrange [*<0:0<*]
set key outside
set offsets 0, 0, graph 0.06, graph 0.06
set xtics ("6.1" 0)
plot 'matrix-delta-retired-veth-udp-xdpdrv.dat' using ($1+-0.10):3:4:5 with yerrorlines pt 7 lw 2 title 'veth-udp', 'matrix-delta-retired-veth-xdp-live-xdpdrv.dat' using ($1+-0.05):3:4:5 with yerrorlines pt 7 lw 2 title 'veth-xdp-live', 'matrix-delta-retired-virtio-xdpdrv.dat' using ($1+0.00):3:4:5 with yerrorlines pt 7 lw 2 title 'virtio'
set terminal pngcairo size 900,500 noenhanced
set output 'matrix-delta-retired.png'
replot
set terminal svg size 900,500 noenhanced
set output 'matrix-delta-veth-udp.svg'
set title 'veth-udp: each mode against tc (retired guest instructions per packet; intervals: at least 95%)'
set ylabel 'delta against tc, percent'
set xlabel 'guest kernel' offset 0,-1
set bmargin 5
set xzeroaxis
set xrange [-0.5:0.5]
set yrange [*<0:0<*]
set key outside
set offsets 0, 0, graph 0.06, graph 0.06
set xtics ("6.1" 0)
plot 'matrix-delta-veth-udp-xdpdrv.dat' using ($1+-0.10):3:4:5 with yerrorlines pt 7 lw 2 title 'xdpdrv', 'matrix-delta-veth-udp-xdpgeneric.dat' using ($1+-0.05):3:4:5 with yerrorlines pt 7 lw 2 title 'xdpgeneric'
set terminal pngcairo size 900,500 noenhanced
set output 'matrix-delta-veth-udp.png'
replot
set terminal svg size 900,500 noenhanced
set output 'matrix-delta-veth-xdp-live.svg'
set title 'veth-xdp-live: each mode against tc (retired guest instructions per packet; intervals: at least 95%)'
set ylabel 'delta against tc, percent'
set xlabel 'guest kernel' offset 0,-1
set bmargin 5
set xzeroaxis
set xrange [-0.5:0.5]
set yrange [*<0:0<*]
set key outside
set offsets 0, 0, graph 0.06, graph 0.06
set xtics ("6.1" 0)
plot 'matrix-delta-veth-xdp-live-xdpdrv.dat' using ($1+-0.10):3:4:5 with yerrorlines pt 7 lw 2 title 'xdpdrv', 'matrix-delta-veth-xdp-live-xdpgeneric.dat' using ($1+-0.05):3:4:5 with yerrorlines pt 7 lw 2 title 'xdpgeneric'
set terminal pngcairo size 900,500 noenhanced
set output 'matrix-delta-veth-xdp-live.png'
replot
set terminal svg size 900,500 noenhanced
set output 'matrix-delta-virtio.svg'
set title 'virtio: each mode against tc (retired guest instructions per packet; intervals: at least 95%)'
set ylabel 'delta against tc, percent'
set xlabel 'guest kernel' offset 0,-1
set bmargin 5
set xzeroaxis
set xrange [-0.5:0.5]
set yrange [*<0:0<*]
set key outside
set offsets 0, 0, graph 0.06, graph 0.06
set xtics ("6.1" 0)
plot 'matrix-delta-virtio-xdpdrv.dat' using ($1+-0.10):3:4:5 with yerrorlines pt 7 lw 2 title 'xdpdrv', 'matrix-delta-virtio-xdpgeneric.dat' using ($1+-0.05):3:4:5 with yerrorlines pt 7 lw 2 title 'xdpgeneric'
set terminal pngcairo size 900,500 noenhanced
set output 'matrix-delta-virtio.png'
replot
