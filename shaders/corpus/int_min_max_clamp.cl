// Integer min, max and clamp, with scalar bounds on vectors.
// @kernel int_minmax
// @global 256
// @arg a global int4[256] random(169, -1000, 1000)
// @arg b global uint4[256] random(170, 0, 2000)
// @arg out global int4[256] zero
// @arg uout global uint4[256] zero
// @check out exact
// @check uout exact
// @bench-global 4194304
// @bench-arg a global int4[4194304] random(169, -1000, 1000)
// @bench-arg b global uint4[4194304] random(170, 0, 2000)
// @bench-arg out global int4[4194304] zero
// @bench-arg uout global uint4[4194304] zero
__kernel void int_minmax(__global const int4* a, __global const uint4* b, __global int4* out, __global uint4* uout) {
  const int i = get_global_id(0);
  int4 x = a[i];
  uint4 y = b[i];
  out[i] = min(x, x.wzyx) + max(x, -100) + clamp(x, -250, 250);
  uout[i] = clamp(y, 100u, 1500u) + max(y, y.yxwz) - min(y, (uint4)(1000));
}
