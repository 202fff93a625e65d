// Mandelbrot iteration counts in 16.16 fixed point (integer arithmetic with
// 64-bit products), so that both implementations count identically.
// @kernel mandelbrot
// @global 32,24
// @arg counts global ushort[768] zero
// @arg max_iter int 200
// @check counts exact
// @bench-arg max_iter int 50000
__kernel void mandelbrot(__global ushort* counts, int max_iter) {
  const int px = get_global_id(0), py = get_global_id(1);
  const long cr = -2 * 65536 + px * (3 * 65536 / 32);
  const long ci = -65536 + py * (2 * 65536 / 24);
  long zr = 0, zi = 0;
  int n = 0;
  while (n < max_iter) {
    long zr2 = (zr * zr) >> 16, zi2 = (zi * zi) >> 16;
    if (zr2 + zi2 > 4 * 65536) break;
    long t = zr2 - zi2 + cr;
    zi = ((2 * zr * zi) >> 16) + ci;
    zr = t;
    ++n;
  }
  counts[py * get_global_size(0) + px] = (ushort)n;
}
