// Shifts: OpenCL C masks the shift count to the operand's width (x << 33
// on a uint shifts by 1), unlike C.
// @kernel shifts
// @global 256
// @arg a global uint[256] bits(96)
// @arg s global uint[256] random(97, 0, 100)
// @arg out global uint4[256] zero
// @check out exact
// @bench-global 8388608
// @bench-arg a global uint[8388608] bits(96)
// @bench-arg s global uint[8388608] random(97, 0, 100)
// @bench-arg out global uint4[8388608] zero
__kernel void shifts(__global const uint* a, __global const uint* s, __global uint4* out) {
  const int i = get_global_id(0);
  uint x = a[i], n = s[i];
  int sx = (int)x;
  out[i] = (uint4)(x << n, x >> n, (uint)(sx >> n), (x << (n & 31)) | (x >> ((32 - n) & 31)));
}
