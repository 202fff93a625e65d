// int division and remainder with negative operands (C99 truncation), and
// uint division, avoiding the undefined INT_MIN / -1 and division by zero.
// @kernel divmod
// @global 512
// @arg a global int[512] bits(94)
// @arg b global int[512] random(95, -1000, 1000)
// @arg out global int4[512] zero
// @check out exact
// @bench-global 8388608
// @bench-arg a global int[8388608] bits(94)
// @bench-arg b global int[8388608] random(95, -1000, 1000)
// @bench-arg out global int4[8388608] zero
__kernel void divmod(__global const int* a, __global const int* b, __global int4* out) {
  const int i = get_global_id(0);
  int x = a[i], y = b[i];
  if (y == 0 || (y == -1 && x == INT_MIN)) y = 7;
  uint ux = (uint)x, uy = (uint)(y < 0 ? -y : y);
  out[i] = (int4)(x / y, x % y, (int)(ux / uy), (int)(ux % uy));
}
