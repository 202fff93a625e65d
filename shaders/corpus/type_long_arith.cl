// 64-bit integers: products, division, shifts across the 32-bit boundary,
// and the low/high halves.
// @kernel long_ops
// @global 256
// @arg a global long[256] bits(98)
// @arg b global long[256] random(99, -1000000, 1000000)
// @arg out global long4[256] zero
// @check out exact
// @bench-global 4194304
// @bench-arg a global long[4194304] bits(98)
// @bench-arg b global long[4194304] random(99, -1000000, 1000000)
// @bench-arg out global long4[4194304] zero
__kernel void long_ops(__global const long* a, __global const long* b, __global long4* out) {
  const int i = get_global_id(0);
  long x = a[i], y = b[i] == 0 ? 3 : b[i];
  ulong ux = (ulong)x;
  out[i] = (long4)((long)(ux * (ulong)y), x / y, x % y, (long)((ux >> 29) ^ (ux << 35)));
}
