// fmod, remainder and remquo (all exact), fract and modf (with pointer outputs).
// @kernel remainders
// @global 256
// @arg x global float[256] random(203, -100, 100)
// @arg y global float[256] random(204, 0.5, 10)
// @arg out global float4[256] zero
// @arg parts global float2[256] zero
// @arg quo global int[256] zero
// @check out exact
// @check parts exact
// @check quo exact
// @bench-global 4194304
// @bench-arg x global float[4194304] random(203, -100, 100)
// @bench-arg y global float[4194304] random(204, 0.5, 10)
// @bench-arg out global float4[4194304] zero
// @bench-arg parts global float2[4194304] zero
// @bench-arg quo global int[4194304] zero
__kernel void remainders(__global const float* x, __global const float* y, __global float4* out,
                         __global float2* parts, __global int* quo) {
  const int i = get_global_id(0);
  float a = x[i], b = y[i];
  int q;
  float r = remquo(a, b, &q);
  float whole, integral;
  float f = fract(a, &whole);
  float m = modf(a, &integral);
  out[i] = (float4)(fmod(a, b), remainder(a, b), r, f);
  parts[i] = (float2)(whole, m + integral);
  quo[i] = q & 7;
}
