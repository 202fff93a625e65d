// convert_float from int and uint with each rounding mode (_rte, _rtz,
// _rtp, _rtn) on values above 2^24, where rounding matters.
// @kernel to_float
// @global 256
// @arg a global int[256] bits(220)
// @arg out global float4[256] zero
// @arg uout global float4[256] zero
// @check out exact
// @check uout exact
// @bench-global 4194304
// @bench-arg a global int[4194304] bits(220)
// @bench-arg out global float4[4194304] zero
// @bench-arg uout global float4[4194304] zero
__kernel void to_float(__global const int* a, __global float4* out, __global float4* uout) {
  const int i = get_global_id(0);
  int x = a[i];
  uint u = (uint)x;
  out[i] = (float4)(convert_float_rte(x), convert_float_rtz(x), convert_float_rtp(x), convert_float_rtn(x));
  uout[i] = (float4)(convert_float(u), convert_float_rtz(u), convert_float_rtp(u), convert_float_rtn(u));
}
