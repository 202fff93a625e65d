// convert_int_sat and friends from float: out-of-range values saturate,
// NaN becomes 0; the rounding modes _rte, _rtp, _rtn on halves.
// @kernel to_int
// @global 256
// @arg x global float[256] random(221, -5e9, 5e9)
// @arg out global int4[512] zero
// @check out exact
// @bench-global 4194304
// @bench-arg x global float[4194304] random(221, -5e9, 5e9)
// @bench-arg out global int4[8388608] zero
__kernel void to_int(__global const float* x, __global int4* out) {
  const int i = get_global_id(0);
  float a = i % 16 == 0 ? NAN : x[i];
  float h = (float)(i - 128) * 0.5f;
  out[2 * i] = (int4)(convert_int_sat(a), (int)convert_uint_sat(a), convert_int_sat_rte(a * 1e-6f), convert_int_rte(h));
  out[2 * i + 1] = (int4)(convert_int_rtp(h), convert_int_rtn(h), convert_int(h), (int)convert_short_sat(a * 1e-5f));
}
