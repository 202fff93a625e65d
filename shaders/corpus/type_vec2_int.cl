// int2 and uint2 vectors: componentwise arithmetic, comparisons (-1 for
// true), .xy/.yx swizzles and scalar widening.
// @kernel vec2
// @global 256
// @arg a global int2[256] random(108, -1000, 1000)
// @arg b global int2[256] random(109, -1000, 1000)
// @arg out global int2[256] zero
// @arg cmp global int2[256] zero
// @check out exact
// @check cmp exact
// @bench-global 8388608
// @bench-arg a global int2[8388608] random(108, -1000, 1000)
// @bench-arg b global int2[8388608] random(109, -1000, 1000)
// @bench-arg out global int2[8388608] zero
// @bench-arg cmp global int2[8388608] zero
__kernel void vec2(__global const int2* a, __global const int2* b, __global int2* out, __global int2* cmp) {
  const int i = get_global_id(0);
  int2 x = a[i], y = b[i];
  out[i] = x.yx * 3 + y - (int2)(x.x);
  cmp[i] = x < y;
}
