# gnuplot corpus-lavapipe-2026-11-26.gp (from docs/results) draws corpus-lavapipe-2026-11-26.png from corpus-lavapipe-2026-11-26.dat
set terminal pngcairo size 1200,640 font 'sans,11'
set output 'corpus-lavapipe-2026-11-26.png'
set title "vkcl's speed on each corpus kernel (OpenCL time / vkcl time, sorted; above 1: vkcl faster)\nvkcl: llvmpipe (LLVM 15.0.6, 256 bits) (CPU, driver llvmpipe Mesa 22.3.6 (LLVM 15.0.6), Vulkan 1.3.230), Vulkan timestamps around the kernel" noenhanced
set logscale y 2
set grid ytics
set key top left noenhanced
set xlabel 'kernels, sorted by ratio'
set ylabel 'speed ratio (log scale)'
set arrow from graph 0, first 1.0 to graph 1, first 1.0 nohead lc rgb 'black' dt 2
set arrow from graph 0, first 0.8 to graph 1, first 0.8 nohead lc rgb 'red' dt 2
plot 'corpus-lavapipe-2026-11-26.dat' index 0 using 1:2 with linespoints pt 7 ps 0.6 title 'vs pocl', 'corpus-lavapipe-2026-11-26.dat' index 1 using 1:2 with linespoints pt 7 ps 0.6 title 'vs rusticl'
