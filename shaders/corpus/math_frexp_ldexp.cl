// frexp, ldexp, ilogb, logb and nextafter: exact bit-level functions.
// @kernel exponents
// @global 256
// @arg x global float[256] random(205, -1000, 1000)
// @arg out global float4[256] zero
// @arg exps global int2[256] zero
// @check out exact
// @check exps exact
// @bench-global 8388608
// @bench-arg x global float[8388608] random(205, -1000, 1000)
// @bench-arg out global float4[8388608] zero
// @bench-arg exps global int2[8388608] zero
__kernel void exponents(__global const float* x, __global float4* out, __global int2* exps) {
  const int i = get_global_id(0);
  float a = x[i];
  int e;
  float mantissa = frexp(a, &e);
  out[i] = (float4)(mantissa, ldexp(mantissa, e + 3), logb(a), nextafter(a, 0.0f));
  exps[i] = (int2)(e, ilogb(a));
}
