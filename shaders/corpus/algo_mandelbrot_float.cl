// Mandelbrot escape-time iteration in single precision over a 2-D grid of
// pixels. FP_CONTRACT OFF makes every step one correctly rounded multiply
// or add, so two conforming compilers count the same iterations even where
// the orbit is chaotic (a fused multiply-add would round differently).
// @kernel mandelbrot_f32
// @global 64,48
// @local 16,8
// @arg iters global uint[3072] zero
// @arg width int 64
// @arg height int 48
// @arg x0 float -2.0
// @arg y0 float -1.125
// @arg step float 0.046875
// @arg max_iter int 256
// @check iters exact
// @bench-global 1024,768
// @bench-arg iters global uint[786432] zero
// @bench-arg width int 1024
// @bench-arg height int 768
// @bench-arg step float 0.0029296875
// @bench-arg max_iter int 512
#pragma OPENCL FP_CONTRACT OFF

__kernel void mandelbrot_f32(__global uint* iters, const int width, const int height, const float x0, const float y0,
                             const float step, const int max_iter) {
  const int px = get_global_id(0), py = get_global_id(1);
  if (px >= width || py >= height) return;
  const float cr = x0 + (float)px * step;
  const float ci = y0 + (float)py * step;
  float zr = 0.0f, zi = 0.0f;
  int n = 0;
  while (n < max_iter) {
    const float zr2 = zr * zr, zi2 = zi * zi;
    if (zr2 + zi2 > 4.0f) break;
    zi = 2.0f * zr * zi + ci;
    zr = zr2 - zi2 + cr;
    ++n;
  }
  iters[py * width + px] = (uint)n;
}
