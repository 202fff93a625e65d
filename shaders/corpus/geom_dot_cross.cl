// Geometric functions: dot on float2/3/4 and cross on float3 and float4
// (w = 0), with integer-valued inputs so every result is exact.
// @kernel dot_cross
// @global 128
// @arg a global float4[128] randint(184, -20, 20)
// @arg b global float4[128] randint(185, -20, 20)
// @arg out global float4[128] zero
// @arg dots global float4[128] zero
// @check out exact
// @check dots exact
// @bench-global 4194304
// @bench-arg a global float4[4194304] randint(184, -20, 20)
// @bench-arg b global float4[4194304] randint(185, -20, 20)
// @bench-arg out global float4[4194304] zero
// @bench-arg dots global float4[4194304] zero
__kernel void dot_cross(__global const float4* a, __global const float4* b, __global float4* out,
                        __global float4* dots) {
  const int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  out[i] = cross(x, y) + (float4)(cross(x.xyz, y.zyx), 0.0f);
  dots[i] = (float4)(dot(x.xy, y.xy), dot(x.xyz, y.xyz), dot(x, y), dot(x.w, y.w));
}
