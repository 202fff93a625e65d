// Dot product partials: float4 loads, dot() per work-item, a __local
// reduction per work-group. Integer-valued data keeps it exact.
// @kernel dot_product
// @global 256
// @local 64
// @arg a global float4[256] randint(45, -10, 10)
// @arg b global float4[256] randint(46, -10, 10)
// @arg partial global float[4] zero
// @arg scratch local float[64]
// @check partial exact
// @bench-global 4194304
// @bench-arg a global float4[4194304] randint(45, -10, 10)
// @bench-arg b global float4[4194304] randint(46, -10, 10)
// @bench-arg partial global float[65536] zero
__kernel void dot_product(__global const float4* a, __global const float4* b, __global float* partial,
                          __local float* scratch) {
  const int lid = get_local_id(0);
  scratch[lid] = dot(a[get_global_id(0)], b[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
