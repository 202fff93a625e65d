// native_ functions (accuracy implementation-defined) and half_ functions
// (8192 ulp) on moderate inputs: compared with an absolute bound only.
// @kernel approximations
// @global 256
// @arg x global float[256] random(208, 0.1, 4)
// @arg native_out global float4[512] zero
// @arg half_out global float4[256] zero
// @check native_out abs 2e-2
// @check half_out abs 2e-2
// @bench-global 4194304
// @bench-arg x global float[4194304] random(208, 0.1, 4)
// @bench-arg native_out global float4[8388608] zero
// @bench-arg half_out global float4[4194304] zero
__kernel void approximations(__global const float* x, __global float4* native_out, __global float4* half_out) {
  const int i = get_global_id(0);
  float a = x[i];
  native_out[2 * i] = (float4)(native_sin(a), native_cos(a), native_exp(a * 0.5f), native_log(a));
  native_out[2 * i + 1] = (float4)(native_sqrt(a), native_rsqrt(a), native_recip(a), native_divide(1.5f, a));
  half_out[i] = (float4)(half_sin(a), half_exp(a * 0.5f), half_sqrt(a), half_recip(a));
}
