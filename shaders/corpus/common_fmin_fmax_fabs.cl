// fmin, fmax (a NaN operand yields the other), fabs, copysign, fdim on
// floats, some of them NaN.
// @kernel fminmax
// @global 128
// @arg a global float[128] random(182, -10, 10)
// @arg b global float[128] random(183, -10, 10)
// @arg out global float4[128] zero
// @arg extra global float[128] zero
// @check out exact
// @check extra exact
// @bench-global 8388608
// @bench-arg a global float[8388608] random(182, -10, 10)
// @bench-arg b global float[8388608] random(183, -10, 10)
// @bench-arg out global float4[8388608] zero
// @bench-arg extra global float[8388608] zero
__kernel void fminmax(__global const float* a, __global const float* b, __global float4* out, __global float* extra) {
  const int i = get_global_id(0);
  float x = a[i], y = (i % 7 == 0) ? NAN : b[i];
  out[i] = (float4)(fmin(x, y), fmax(x, y), fabs(x), copysign(x, y));
  extra[i] = fdim(x, b[i]);
}
