// Vector conversions: convert_float4 from int4 and uchar4,
// convert_int4 from float4 (truncating), convert_uchar4_sat_rte.
// @kernel vec_convert
// @global 128
// @arg a global int4[128] random(224, -300, 300)
// @arg f global float4[128] random(225, -300, 300)
// @arg out global float4[256] zero
// @arg iout global int4[128] zero
// @arg bout global uchar4[128] zero
// @check out exact
// @check iout exact
// @check bout exact
// @bench-global 2097152
// @bench-arg a global int4[2097152] random(224, -300, 300)
// @bench-arg f global float4[2097152] random(225, -300, 300)
// @bench-arg out global float4[4194304] zero
// @bench-arg iout global int4[2097152] zero
// @bench-arg bout global uchar4[2097152] zero
__kernel void vec_convert(__global const int4* a, __global const float4* f, __global float4* out, __global int4* iout,
                          __global uchar4* bout) {
  const int i = get_global_id(0);
  out[2 * i] = convert_float4(a[i]);
  out[2 * i + 1] = convert_float4(convert_uchar4_sat(a[i]));
  iout[i] = convert_int4(f[i]);
  bout[i] = convert_uchar4_sat_rte(f[i]);
}
