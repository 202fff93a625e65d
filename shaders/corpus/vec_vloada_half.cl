// vloada_half4 / vstorea_half4 (aligned half vectors) and vload_half at
// single elements.
// @kernel half_aligned
// @global 64
// @arg in global half[256] random(132, -10, 10)
// @arg out global half[256] zero
// @arg firsts global float[64] zero
// @check out exact
// @check firsts exact
// @bench-global 8388608
// @bench-arg in global half[33554432] random(132, -10, 10)
// @bench-arg out global half[33554432] zero
// @bench-arg firsts global float[8388608] zero
__kernel void half_aligned(__global const half* in, __global half* out, __global float* firsts) {
  const int i = get_global_id(0);
  float4 v = vloada_half4(i, in);
  vstorea_half4(v.wzyx * 2.0f, i, out);
  firsts[i] = vload_half(4 * i, in);
}
