// cbrt (2 ulp), hypot (4 ulp), erf and erfc (16 ulp), at twice the spec's bounds.
// @kernel misc_math
// @global 256
// @arg x global float[256] random(206, -3, 3)
// @arg y global float[256] random(207, -3, 3)
// @arg a global float2[256] zero
// @arg b global float2[256] zero
// @check a ulp 8
// @check b ulp 32
// @bench-global 8388608
// @bench-arg x global float[8388608] random(206, -3, 3)
// @bench-arg y global float[8388608] random(207, -3, 3)
// @bench-arg a global float2[8388608] zero
// @bench-arg b global float2[8388608] zero
__kernel void misc_math(__global const float* x, __global const float* y, __global float2* a, __global float2* b) {
  const int i = get_global_id(0);
  a[i] = (float2)(cbrt(x[i] * 100.0f), hypot(x[i], y[i]));
  b[i] = (float2)(erf(x[i]), erfc(x[i]));
}
