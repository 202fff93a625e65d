// asin, acos (4 ulp), atan (5 ulp) and atan2 (6 ulp), at twice those bounds.
// @kernel inverse_trig
// @global 256
// @arg x global float[256] random(196, -1, 1)
// @arg y global float[256] random(197, -10, 10)
// @arg out global float4[256] zero
// @check out ulp 12
// @bench-global 8388608
// @bench-arg x global float[8388608] random(196, -1, 1)
// @bench-arg y global float[8388608] random(197, -10, 10)
// @bench-arg out global float4[8388608] zero
__kernel void inverse_trig(__global const float* x, __global const float* y, __global float4* out) {
  const int i = get_global_id(0);
  float a = x[i], b = y[i];
  out[i] = (float4)(asin(a), acos(a), atan(b), atan2(a, b));
}
