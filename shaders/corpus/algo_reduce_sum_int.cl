// Work-group tree reduction of ints through a __local pointer argument: one
// partial sum per work-group.
// @kernel reduce_sum
// @global 1024
// @local 64
// @arg input global int[1024] random(1, -1000, 1000)
// @arg partial global int[16] zero
// @arg scratch local int[64]
// @arg n uint 1024
// @check partial exact
// @bench-global 16777216
// @bench-arg input global int[16777216] random(1, -1000, 1000)
// @bench-arg partial global int[262144] zero
// @bench-arg n uint 16777216
__kernel void reduce_sum(__global const int* input, __global int* partial, __local int* scratch, uint n) {
  const uint lid = get_local_id(0);
  const uint gid = get_global_id(0);
  scratch[lid] = gid < n ? input[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
