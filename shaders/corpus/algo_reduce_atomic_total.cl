// Two-level sum: a work-group reduction in __local memory, then one
// atomic_add per work-group into a single global total.
// @kernel reduce_total
// @global 2048
// @local 256
// @arg input global int[2048] random(9, -50, 50)
// @arg total global int[1] zero
// @arg scratch local int[256]
// @check total exact
// @bench-global 16777216
// @bench-arg input global int[16777216] random(9, -50, 50)
__kernel void reduce_total(__global const int* input, __global int* total, __local int* scratch) {
  const uint lid = get_local_id(0);
  scratch[lid] = input[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) >> 1; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) atomic_add(total, scratch[0]);
}
