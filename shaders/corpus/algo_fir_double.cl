// A 16-tap FIR filter in double precision.
// @kernel fir
// @requires cl_khr_fp64
// @global 256
// @arg x global double[271] random(59, -1, 1)
// @arg taps constant double[16] random(60, -0.5, 0.5)
// @arg y global double[256] zero
// @check y abs 1e-13
// @bench-global 8388608
// @bench-arg x global double[8388623] random(59, -1, 1)
// @bench-arg y global double[8388608] zero
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fir(__global const double* x, __constant double* taps, __global double* y) {
  const int i = get_global_id(0);
  double acc = 0.0;
  for (int k = 0; k < 16; ++k) acc += taps[k] * x[i + 15 - k];
  y[i] = acc;
}
