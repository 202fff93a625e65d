// sin, cos (4 ulp), tan (5 ulp) and sincos over a few periods, compared
// at twice the spec's bound.
// @kernel trig
// @global 256
// @arg x global float[256] random(195, -10, 10)
// @arg out global float4[256] zero
// @arg tangent global float[256] zero
// @check out ulp 8
// @check tangent ulp 10
// @bench-global 8388608
// @bench-arg x global float[8388608] random(195, -10, 10)
// @bench-arg out global float4[8388608] zero
// @bench-arg tangent global float[8388608] zero
__kernel void trig(__global const float* x, __global float4* out, __global float* tangent) {
  const int i = get_global_id(0);
  float a = x[i];
  float c;
  float s = sincos(a, &c);
  out[i] = (float4)(sin(a), cos(a), s, c);
  tangent[i] = tan(a);
}
