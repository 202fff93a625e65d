// clz and popcount on every integer width, and ctz (OpenCL C 2.0+).
// @kernel bit_counts
// @std CL3.0
// @global 256
// @arg a global uint[256] bits(150)
// @arg b global ulong[256] bits(151)
// @arg c global uchar[256] bits(152)
// @arg out global int4[512] zero
// @check out exact
// @bench-global 4194304
// @bench-arg a global uint[4194304] bits(150)
// @bench-arg b global ulong[4194304] bits(151)
// @bench-arg c global uchar[4194304] bits(152)
// @bench-arg out global int4[8388608] zero
__kernel void bit_counts(__global const uint* a, __global const ulong* b, __global const uchar* c, __global int4* out) {
  const int i = get_global_id(0);
  uint x = a[i] >> (i & 31);
  ulong y = b[i] >> (i & 63);
  uchar z = c[i];
  short s = (short)x;
  out[2 * i] = (int4)(clz(x), popcount(x), (int)clz(y), (int)popcount(y));
  out[2 * i + 1] = (int4)(clz(z), popcount(z), clz(s), ctz(x));
}
