// The ternary operator on vectors (componentwise by the condition's most
// significant bit) and on scalars mixed with vectors.
// @kernel vector_ternary
// @global 128
// @arg a global int4[128] random(276, -10, 10)
// @arg b global int4[128] random(277, -10, 10)
// @arg out global int4[128] zero
// @check out exact
// @bench-global 4194304
// @bench-arg a global int4[4194304] random(276, -10, 10)
// @bench-arg b global int4[4194304] random(277, -10, 10)
// @bench-arg out global int4[4194304] zero
__kernel void vector_ternary(__global const int4* a, __global const int4* b, __global int4* out) {
  const int i = get_global_id(0);
  int4 x = a[i], y = b[i];
  int4 r = x > y ? x : y;
  r = (x == 0) ? (int4)(-7) : r;
  out[i] = (i & 1) ? r : r.wzyx;
}
