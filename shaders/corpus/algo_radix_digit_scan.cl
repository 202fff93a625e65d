// The counting phase of an LSD radix sort: per work-group counts of one
// 4-bit digit (local atomics), then an exclusive scan of the 16 counts to
// per-digit offsets, written per group.
// @kernel radix_count
// @global 256
// @local 64
// @arg keys global uint[256] bits(47)
// @arg shift uint 8
// @arg offsets global uint[64] zero
// @check offsets exact
// @bench-global 16777216
// @bench-arg keys global uint[16777216] bits(47)
// @bench-arg offsets global uint[4194304] zero
__kernel void radix_count(__global const uint* keys, uint shift, __global uint* offsets) {
  __local uint counts[16];
  const uint lid = get_local_id(0);
  if (lid < 16) counts[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counts[(keys[get_global_id(0)] >> shift) & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint running = 0;
    for (int d = 0; d < 16; ++d) {
      uint c = counts[d];
      offsets[get_group_id(0) * 16 + d] = running;
      running += c;
    }
  }
}
