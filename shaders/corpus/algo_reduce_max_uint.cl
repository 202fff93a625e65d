// Maximum and its index per work-group, a two-array __local reduction.
// @kernel reduce_argmax
// @global 512
// @local 128
// @arg input global uint[512] bits(8)
// @arg max_out global uint[4] zero
// @arg index_out global uint[4] zero
// @check max_out exact
// @check index_out exact
// @bench-global 16777216
// @bench-arg input global uint[16777216] bits(8)
// @bench-arg max_out global uint[131072] zero
// @bench-arg index_out global uint[131072] zero
__kernel void reduce_argmax(__global const uint* input, __global uint* max_out, __global uint* index_out) {
  __local uint values[128];
  __local uint indices[128];
  const uint lid = get_local_id(0);
  values[lid] = input[get_global_id(0)];
  indices[lid] = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 64; stride > 0; stride >>= 1) {
    if (lid < stride) {
      uint a = values[lid], b = values[lid + stride];
      if (b > a || (b == a && indices[lid + stride] < indices[lid])) {
        values[lid] = b;
        indices[lid] = indices[lid + stride];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    max_out[get_group_id(0)] = values[0];
    index_out[get_group_id(0)] = indices[0];
  }
}
