// Double-precision math: sqrt (correctly rounded for double), exp, log
// (3 ulp), sin, cos (4 ulp), pow (16 ulp), at twice those bounds.
// @kernel double_math
// @requires cl_khr_fp64
// @global 128
// @arg x global double[128] random(209, 0.01, 10)
// @arg out global double4[256] zero
// @check out ulp 32
// @bench-global 2097152
// @bench-arg x global double[2097152] random(209, 0.01, 10)
// @bench-arg out global double4[4194304] zero
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void double_math(__global const double* x, __global double4* out) {
  const int i = get_global_id(0);
  double a = x[i];
  out[2 * i] = (double4)(sqrt(a), exp(a), log(a), sin(a));
  out[2 * i + 1] = (double4)(cos(a), pow(a, 1.5), cbrt(a), atan(a));
}
