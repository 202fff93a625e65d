// exp2, exp10, log2, log10, expm1 and log1p (3 ulp each in the full
// profile, 6 between two implementations).
// @kernel exps_logs
// @global 256
// @arg x global float[256] random(191, -20, 20)
// @arg y global float[256] random(192, 0.01, 100)
// @arg e global float4[256] zero
// @arg l global float4[256] zero
// @check e ulp 6
// @check l ulp 6
// @bench-global 4194304
// @bench-arg x global float[4194304] random(191, -20, 20)
// @bench-arg y global float[4194304] random(192, 0.01, 100)
// @bench-arg e global float4[4194304] zero
// @bench-arg l global float4[4194304] zero
__kernel void exps_logs(__global const float* x, __global const float* y, __global float4* e, __global float4* l) {
  const int i = get_global_id(0);
  float a = x[i], b = y[i];
  e[i] = (float4)(exp2(a), exp10(a * 0.5f), expm1(a * 0.1f), exp(a));
  l[i] = (float4)(log2(b), log10(b), log1p(b), log(b));
}
