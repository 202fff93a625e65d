// rotate on uchar, ushort, uint and ulong, with counts beyond the width
// (taken modulo it) and negative counts on signed types.
// @kernel rotates
// @global 256
// @arg a global uint[256] bits(158)
// @arg n global int[256] random(159, -70, 70)
// @arg out global uint4[256] zero
// @arg wide global ulong[256] zero
// @check out exact
// @check wide exact
// @bench-global 8388608
// @bench-arg a global uint[8388608] bits(158)
// @bench-arg n global int[8388608] random(159, -70, 70)
// @bench-arg out global uint4[8388608] zero
// @bench-arg wide global ulong[8388608] zero
__kernel void rotates(__global const uint* a, __global const int* n, __global uint4* out, __global ulong* wide) {
  const int i = get_global_id(0);
  uint x = a[i];
  int k = n[i];
  out[i] = (uint4)(rotate(x, (uint)k), (uint)rotate((int)x, k), rotate((uchar)x, (uchar)k), rotate((ushort)x, (ushort)k));
  wide[i] = rotate(((ulong)x << 32) | ~x, (ulong)k);
}
