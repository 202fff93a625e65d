// add_sat and sub_sat at every width, signed and unsigned, on vectors.
// @kernel saturating
// @global 256
// @arg a global char4[256] bits(160)
// @arg b global char4[256] bits(161)
// @arg c global int2[256] bits(162)
// @arg d global int2[256] bits(163)
// @arg out8 global char4[512] zero
// @arg out32 global uint4[256] zero
// @check out8 exact
// @check out32 exact
// @bench-global 4194304
// @bench-arg a global char4[4194304] bits(160)
// @bench-arg b global char4[4194304] bits(161)
// @bench-arg c global int2[4194304] bits(162)
// @bench-arg d global int2[4194304] bits(163)
// @bench-arg out8 global char4[8388608] zero
// @bench-arg out32 global uint4[4194304] zero
__kernel void saturating(__global const char4* a, __global const char4* b, __global const int2* c,
                         __global const int2* d, __global char4* out8, __global uint4* out32) {
  const int i = get_global_id(0);
  char4 x = a[i], y = b[i];
  uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
  out8[2 * i] = add_sat(x, y);
  out8[2 * i + 1] = as_char4(sub_sat(ux, uy));
  int2 p = c[i], q = d[i];
  out32[i] = (uint4)(as_uint2(sub_sat(p, q)), add_sat(as_uint2(p), as_uint2(q)));
}
