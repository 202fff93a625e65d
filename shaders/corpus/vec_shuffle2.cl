// shuffle2 across two float4 sources into a float4 and a float2.
// @kernel shuffles2
// @global 128
// @arg a global float4[128] randint(135, -100, 100)
// @arg b global float4[128] randint(136, -100, 100)
// @arg masks global uint4[128] random(137, 0, 7)
// @arg out global float4[128] zero
// @arg pair global float2[128] zero
// @check out exact
// @check pair exact
// @bench-global 2097152
// @bench-arg a global float4[2097152] randint(135, -100, 100)
// @bench-arg b global float4[2097152] randint(136, -100, 100)
// @bench-arg masks global uint4[2097152] random(137, 0, 7)
// @bench-arg out global float4[2097152] zero
// @bench-arg pair global float2[2097152] zero
__kernel void shuffles2(__global const float4* a, __global const float4* b, __global const uint4* masks,
                        __global float4* out, __global float2* pair) {
  const int i = get_global_id(0);
  out[i] = shuffle2(a[i], b[i], masks[i]);
  pair[i] = shuffle2(a[i], b[i], (uint2)(7, 0));
}
