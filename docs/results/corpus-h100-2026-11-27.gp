# gnuplot corpus-h100-2026-11-27.gp (from its directory) draws corpus-h100-2026-11-27.png from corpus-h100-2026-11-27.dat
set terminal pngcairo size 1200,640 font 'sans,11'
set output 'corpus-h100-2026-11-27.png'
set title "vkcl's speed on each corpus kernel (OpenCL time / vkcl time, sorted; above 1: vkcl faster)\nvkcl: NVIDIA H100 80GB HBM3 (discrete GPU, driver NVIDIA 580.159.04, Vulkan 1.4.312), Vulkan timestamps around the kernel" noenhanced
set logscale y 2
set grid ytics
set key top left noenhanced
set xlabel 'kernels, sorted by ratio'
set ylabel 'speed ratio (log scale)'
set arrow from graph 0, first 1.0 to graph 1, first 1.0 nohead lc rgb 'black' dt 2
set arrow from graph 0, first 0.8 to graph 1, first 0.8 nohead lc rgb 'red' dt 2
plot 'corpus-h100-2026-11-27.dat' index 0 using 1:2 with linespoints pt 7 ps 0.6 title 'vs nvidia'
