# gnuplot corpus-h100-2026-11-26b.gp (from docs/results) draws the PNG from the .dat
set terminal pngcairo size 1200,640 font 'sans,11'
set output 'corpus-h100-2026-11-26b.png'
set title "vkcl on each corpus kernel against NVIDIA's OpenCL, H100 (NVIDIA time / vkcl time, best of three runs each, sorted; above 1: vkcl faster)\n159 kernels, driver 580.159.04, buffer device addresses, modules of 2d8d1fc, harness of 0348285, 2026-11-26" noenhanced
set logscale y 2
set grid ytics
set key top left noenhanced
set xlabel 'kernels, sorted by ratio'
set ylabel 'speed ratio (log scale)'
set arrow from graph 0, first 1.0 to graph 1, first 1.0 nohead lc rgb 'black' dt 2
set arrow from graph 0, first 0.8 to graph 1, first 0.8 nohead lc rgb 'red' dt 2
plot 'corpus-h100-2026-11-26b.dat' using 1:2 with linespoints pt 7 ps 0.6 title 'vs NVIDIA OpenCL'
