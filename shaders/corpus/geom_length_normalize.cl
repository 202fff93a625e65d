// length, distance and normalize on float2/3/4 (built from sqrt and
// division: bounded by a few ulp each side), and fast_length.
// @kernel lengths
// @global 128
// @arg a global float4[128] random(186, -10, 10)
// @arg b global float4[128] random(187, -10, 10)
// @arg out global float4[128] zero
// @arg unit global float4[128] zero
// @arg fast global float[128] zero
// @check out ulp 8
// @check unit ulp 10
// @check fast abs 1e-3
// @bench-global 2097152
// @bench-arg a global float4[2097152] random(186, -10, 10)
// @bench-arg b global float4[2097152] random(187, -10, 10)
// @bench-arg out global float4[2097152] zero
// @bench-arg unit global float4[2097152] zero
// @bench-arg fast global float[2097152] zero
__kernel void lengths(__global const float4* a, __global const float4* b, __global float4* out, __global float4* unit,
                      __global float* fast) {
  const int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  out[i] = (float4)(length(x), length(x.xy), distance(x, y), distance(x.xyz, y.xyz));
  unit[i] = normalize(x);
  fast[i] = fast_length(x);
}
