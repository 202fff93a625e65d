// float4 swizzles as rvalues and lvalues (.xyzw, .s0123, .lo/.hi,
// .even/.odd), integer-valued so every result is exact.
// @kernel swizzles
// @global 128
// @arg in global float4[128] randint(113, -50, 50)
// @arg out global float4[128] zero
// @check out exact
// @bench-global 8388608
// @bench-arg in global float4[8388608] randint(113, -50, 50)
// @bench-arg out global float4[8388608] zero
__kernel void swizzles(__global const float4* in, __global float4* out) {
  float4 v = in[get_global_id(0)];
  float4 r;
  r.xy = v.zw;
  r.zw = v.xy * 2.0f;
  r.s1 += v.s3;
  float2 e = v.even, o = v.odd;
  r.lo += e - o;
  r.hi = r.hi + v.hi.yx;
  out[get_global_id(0)] = r;
}
