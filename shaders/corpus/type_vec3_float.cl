// float3 in buffers: a 3-vector occupies 16 bytes (OpenCL's layout), so
// element i starts at byte 16 i; cross products of integer-valued vectors.
// @kernel vec3
// @global 128
// @arg a global float3[128] randint(110, -10, 10)
// @arg b global float3[128] randint(111, -10, 10)
// @arg out global float3[128] zero
// @check out exact
// @bench-global 4194304
// @bench-arg a global float3[4194304] randint(110, -10, 10)
// @bench-arg b global float3[4194304] randint(111, -10, 10)
// @bench-arg out global float3[4194304] zero
__kernel void vec3(__global const float3* a, __global const float3* b, __global float3* out) {
  const int i = get_global_id(0);
  float3 x = a[i], y = b[i];
  out[i] = (float3)(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x) + x.zxy;
}
