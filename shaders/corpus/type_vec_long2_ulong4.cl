// 64-bit integer vectors: long2 and ulong4 arithmetic and comparisons.
// @kernel vec_long
// @global 64
// @arg a global long2[64] bits(116)
// @arg b global ulong4[64] bits(117)
// @arg out global ulong4[64] zero
// @check out exact
// @bench-global 2097152
// @bench-arg a global long2[2097152] bits(116)
// @bench-arg b global ulong4[2097152] bits(117)
// @bench-arg out global ulong4[2097152] zero
__kernel void vec_long(__global const long2* a, __global const ulong4* b, __global ulong4* out) {
  const int i = get_global_id(0);
  long2 x = a[i];
  ulong4 y = b[i];
  long2 c = x < (long2)(0);
  out[i] = y * 5 + (ulong4)(as_ulong2(x), as_ulong2(c)) - (y >> 7);
}
