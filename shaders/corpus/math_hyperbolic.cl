// sinh, cosh (4 ulp), tanh (5 ulp) and asinh, acosh, atanh (4 ulp), at twice those.
// @kernel hyperbolic
// @global 256
// @arg x global float[256] random(198, -5, 5)
// @arg out global float4[256] zero
// @arg inv global float4[256] zero
// @check out ulp 10
// @check inv ulp 8
// @bench-global 4194304
// @bench-arg x global float[4194304] random(198, -5, 5)
// @bench-arg out global float4[4194304] zero
// @bench-arg inv global float4[4194304] zero
__kernel void hyperbolic(__global const float* x, __global float4* out, __global float4* inv) {
  const int i = get_global_id(0);
  float a = x[i];
  out[i] = (float4)(sinh(a), cosh(a), tanh(a), tanh(a * 0.1f));
  inv[i] = (float4)(asinh(a), acosh(fabs(a) + 1.0f), atanh(a * 0.19f), asinh(-a));
}
