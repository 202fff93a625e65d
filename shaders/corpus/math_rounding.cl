// Rounding to integral values: floor, ceil, round (half away from zero),
// rint (half to even), trunc — all exact — on values with halves.
// @kernel rounding
// @global 256
// @arg x global float[256] random(202, -100, 100)
// @arg out global float4[512] zero
// @check out exact
// @bench-global 4194304
// @bench-arg x global float[4194304] random(202, -100, 100)
// @bench-arg out global float4[8388608] zero
__kernel void rounding(__global const float* x, __global float4* out) {
  const int i = get_global_id(0);
  float a = x[i], h = (float)(i - 128) * 0.5f;
  out[2 * i] = (float4)(floor(a), ceil(a), round(a), rint(a));
  out[2 * i + 1] = (float4)(trunc(a), round(h), rint(h), trunc(-h));
}
