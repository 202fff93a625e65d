// uint8 vectors: arithmetic, swizzles of the high and low halves, component access.
// @kernel vec8
// @global 64
// @arg a global uint8[64] bits(5)
// @arg b global uint8[64] bits(6)
// @arg out global uint8[64] zero
// @check out exact
// @bench-global 2097152
// @bench-arg a global uint8[2097152] bits(5)
// @bench-arg b global uint8[2097152] bits(6)
// @bench-arg out global uint8[2097152] zero
__kernel void vec8(__global const uint8* a, __global const uint8* b, __global uint8* out) {
  const size_t i = get_global_id(0);
  uint8 x = a[i], y = b[i];
  uint8 r = (x ^ y) + (x >> 3);
  r.lo = r.hi * 3u;
  r.s7 = x.s0 + y.s7;
  out[i] = r;
}
