// mul24 and mad24: operands in the 24-bit range, where they are exact.
// @kernel mad24_ops
// @global 256
// @arg a global int[256] random(153, -8388608, 8388607)
// @arg b global int[256] random(154, -255, 255)
// @arg ua global uint[256] random(155, 0, 16777215)
// @arg out global int4[256] zero
// @check out exact
// @bench-global 8388608
// @bench-arg a global int[8388608] random(153, -8388608, 8388607)
// @bench-arg b global int[8388608] random(154, -255, 255)
// @bench-arg ua global uint[8388608] random(155, 0, 16777215)
// @bench-arg out global int4[8388608] zero
__kernel void mad24_ops(__global const int* a, __global const int* b, __global const uint* ua, __global int4* out) {
  const int i = get_global_id(0);
  uint ub = (uint)(b[i] & 0xff);
  out[i] = (int4)(mul24(a[i], b[i]), mad24(a[i], b[i], 12345), (int)mul24(ua[i], ub), (int)mad24(ua[i], ub, 7u));
}
