// mul_hi (the high half of the full product) for int, uint, long and
// ulong, and mad_hi, mad_sat.
// @kernel high_products
// @global 256
// @arg a global int2[256] bits(156)
// @arg b global ulong2[256] bits(157)
// @arg out global int4[256] zero
// @arg wide global ulong4[256] zero
// @check out exact
// @check wide exact
// @bench-global 2097152
// @bench-arg a global int2[2097152] bits(156)
// @bench-arg b global ulong2[2097152] bits(157)
// @bench-arg out global int4[2097152] zero
// @bench-arg wide global ulong4[2097152] zero
__kernel void high_products(__global const int2* a, __global const ulong2* b, __global int4* out,
                            __global ulong4* wide) {
  const int i = get_global_id(0);
  int2 x = a[i];
  ulong2 y = b[i];
  out[i] = (int4)(mul_hi(x.x, x.y), (int)mul_hi((uint)x.x, (uint)x.y), mad_hi(x.x, x.y, 5), mad_sat(x.x, x.y, x.x));
  wide[i] = (ulong4)(mul_hi(y.x, y.y), (ulong)mul_hi((long)y.x, (long)y.y), mad_hi(y.x, y.y, y.x), mad_sat(y.x, y.y, 1UL));
}
