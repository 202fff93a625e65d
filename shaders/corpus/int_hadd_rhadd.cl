// hadd and rhadd (halving adds without overflow), on int and ushort vectors.
// @kernel halving
// @global 256
// @arg a global int4[256] bits(164)
// @arg b global int4[256] bits(165)
// @arg out global int4[256] zero
// @arg small global ushort4[256] zero
// @check out exact
// @check small exact
// @bench-global 4194304
// @bench-arg a global int4[4194304] bits(164)
// @bench-arg b global int4[4194304] bits(165)
// @bench-arg out global int4[4194304] zero
// @bench-arg small global ushort4[4194304] zero
__kernel void halving(__global const int4* a, __global const int4* b, __global int4* out, __global ushort4* small) {
  const int i = get_global_id(0);
  int4 x = a[i], y = b[i];
  out[i] = hadd(x, y) ^ rhadd(x.wzyx, y);
  small[i] = rhadd(convert_ushort4(x), convert_ushort4(y)) + hadd(convert_ushort4(y), (ushort4)(65535));
}
