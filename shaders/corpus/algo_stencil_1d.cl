// 1-D three-point stencil with a halo in __local memory; weights 1/4, 1/2,
// 1/4 and integer-valued inputs make the result exact.
// @kernel stencil1d
// @global 512
// @local 64
// @arg input global float[514] randint(14, -64, 64)
// @arg output global float[512] zero
// @check output exact
// @bench-global 16777216
// @bench-arg input global float[16777218] randint(14, -64, 64)
// @bench-arg output global float[16777216] zero
__kernel void stencil1d(__global const float* input, __global float* output) {
  __local float tile[64 + 2];
  const int lid = get_local_id(0);
  const int gid = get_global_id(0);
  tile[lid + 1] = input[gid + 1];
  if (lid == 0) tile[0] = input[gid];
  if (lid == get_local_size(0) - 1) tile[lid + 2] = input[gid + 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  output[gid] = 0.25f * tile[lid] + 0.5f * tile[lid + 1] + 0.25f * tile[lid + 2];
}
