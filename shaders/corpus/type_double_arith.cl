// Double precision: +, -, *, / (correctly rounded for double in OpenCL)
// and conversions to and from float and long.
// @kernel double_arith
// @requires cl_khr_fp64
// @global 256
// @arg a global double[256] random(103, -1e6, 1e6)
// @arg b global double[256] random(104, 0.5, 1000)
// @arg out global double4[256] zero
// @arg narrowed global float[256] zero
// @check out exact
// @check narrowed exact
// @bench-global 4194304
// @bench-arg a global double[4194304] random(103, -1e6, 1e6)
// @bench-arg b global double[4194304] random(104, 0.5, 1000)
// @bench-arg out global double4[4194304] zero
// @bench-arg narrowed global float[4194304] zero
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void double_arith(__global const double* a, __global const double* b, __global double4* out,
                           __global float* narrowed) {
  const int i = get_global_id(0);
  double x = a[i], y = b[i];
  out[i] = (double4)(x + y, x * y, x / y, (double)(long)(x / 7.0));
  narrowed[i] = (float)(x * y);
}
