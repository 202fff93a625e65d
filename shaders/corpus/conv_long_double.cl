// Conversions between long/ulong and double/float with rounding modes.
// @kernel long_double
// @requires cl_khr_fp64
// @global 128
// @arg a global long[128] bits(226)
// @arg out global double4[128] zero
// @arg back global long2[128] zero
// @check out exact
// @check back exact
// @bench-global 4194304
// @bench-arg a global long[4194304] bits(226)
// @bench-arg out global double4[4194304] zero
// @bench-arg back global long2[4194304] zero
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void long_double(__global const long* a, __global double4* out, __global long2* back) {
  const int i = get_global_id(0);
  long x = a[i] >> (i % 48);
  out[i] = (double4)(convert_double(x), convert_double_rtz(x), convert_double((ulong)x), (double)convert_float_rtn(x));
  back[i] = (long2)(convert_long_sat(out[i].x * 3.0), convert_long_rte((double)(i - 64) * 0.5));
}
