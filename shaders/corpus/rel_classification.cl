// isnan, isinf, isfinite, isnormal, signbit: 1/0 on scalars, -1/0 on
// vectors, on values that include NaN, infinities, zeros and denormals.
// @kernel classify
// @global 64
// @arg x global float[64] random(210, -10, 10)
// @arg out global int4[128] zero
// @arg vout global int4[64] zero
// @check out exact
// @check vout exact
// @bench-global 4194304
// @bench-arg x global float[4194304] random(210, -10, 10)
// @bench-arg out global int4[8388608] zero
// @bench-arg vout global int4[4194304] zero
__kernel void classify(__global const float* x, __global int4* out, __global int4* vout) {
  const int i = get_global_id(0);
  float a = x[i];
  switch (i % 8) {
    case 0: a = NAN; break;
    case 1: a = -INFINITY; break;
    case 2: a = -0.0f; break;
    case 3: a = FLT_MIN * 0.25f; break;
    default: break;
  }
  out[2 * i] = (int4)(isnan(a), isinf(a), isfinite(a), isnormal(a));
  out[2 * i + 1] = (int4)(signbit(a), isnan(a + 1.0f), isinf(a * 0.0f), i % 8);
  float4 v = (float4)(a, -a, 1.0f / a, a - a);
  vout[i] = isnan(v) + 2 * isinf(v) + 4 * signbit(v);
}
