// short and ushort: widening multiplies, wrap on store, comparisons mixing
// signedness after promotion.
// @kernel short_ops
// @global 256
// @arg a global short[256] bits(92)
// @arg b global ushort[256] bits(93)
// @arg out global int[256] zero
// @arg narrow global short2[256] zero
// @check out exact
// @check narrow exact
// @bench-global 16777216
// @bench-arg a global short[16777216] bits(92)
// @bench-arg b global ushort[16777216] bits(93)
// @bench-arg out global int[16777216] zero
// @bench-arg narrow global short2[16777216] zero
__kernel void short_ops(__global const short* a, __global const ushort* b, __global int* out, __global short2* narrow) {
  const int i = get_global_id(0);
  short x = a[i];
  ushort y = b[i];
  out[i] = x * (int)y + (x < y ? 1 : -1);
  narrow[i] = (short2)((short)(x * 3), (short)((y >> 3) - x));
}
