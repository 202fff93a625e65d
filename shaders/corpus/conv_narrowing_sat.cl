// Integer narrowing with saturation: int to char, uchar, short, ushort;
// long to int and uint; signed to unsigned of the same width.
// @kernel narrowing
// @global 256
// @arg a global int4[256] bits(222)
// @arg b global long[256] bits(223)
// @arg out global char4[512] zero
// @arg out16 global short4[256] zero
// @arg out32 global int4[256] zero
// @check out exact
// @check out16 exact
// @check out32 exact
// @bench-global 4194304
// @bench-arg a global int4[4194304] bits(222)
// @bench-arg b global long[4194304] bits(223)
// @bench-arg out global char4[8388608] zero
// @bench-arg out16 global short4[4194304] zero
// @bench-arg out32 global int4[4194304] zero
__kernel void narrowing(__global const int4* a, __global const long* b, __global char4* out, __global short4* out16,
                        __global int4* out32) {
  const int i = get_global_id(0);
  int4 v = a[i] >> (int4)(i % 24);
  out[2 * i] = convert_char4_sat(v);
  out[2 * i + 1] = as_char4(convert_uchar4_sat(v));
  out16[i] = (short4)(convert_short2_sat(v.xy), as_short2(convert_ushort2_sat(v.zw)));
  long w = b[i] >> (i % 40);
  out32[i] = (int4)(convert_int_sat(w), (int)convert_uint_sat(w), (int)convert_uint_sat(v.x), convert_int_sat(as_uint(v.y)));
}
