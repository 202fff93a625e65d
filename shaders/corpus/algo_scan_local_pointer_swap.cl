// Exclusive prefix sum of each work-group's block (the naive double-buffered
// Hillis-Steele scan of GPU Gems 3, 39.2.1): one __local argument split into
// two halves, and the two __local pointers swapped after every step; the
// last work-item also writes the block's total for a second pass.
// @kernel scan_block_exclusive
// @global 1024
// @local 256
// @arg in global uint[1024] random(302, 0, 255)
// @arg out global uint[1024] zero
// @arg block_totals global uint[4] zero
// @arg buf local uint[512]
// @check out exact
// @check block_totals exact
// @bench-global 16777216
// @bench-arg in global uint[16777216] random(302, 0, 255)
// @bench-arg out global uint[16777216] zero
// @bench-arg block_totals global uint[65536] zero
__kernel void scan_block_exclusive(__global const uint* in, __global uint* out, __global uint* block_totals,
                                   __local uint* buf) {
  const uint lid = get_local_id(0);
  const uint n = get_local_size(0);
  const uint gid = get_global_id(0);
  __local uint* cur = buf;
  __local uint* nxt = buf + n;

  // Shift right by one on the way in: the inclusive scan of the shifted
  // block is the exclusive scan of the block.
  cur[lid] = lid > 0 ? in[gid - 1] : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint offset = 1; offset < n; offset <<= 1) {
    uint v = cur[lid];
    if (lid >= offset) v += cur[lid - offset];
    nxt[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint* t = cur;
    cur = nxt;
    nxt = t;
  }

  out[gid] = cur[lid];
  if (lid == n - 1) block_totals[get_group_id(0)] = cur[lid] + in[gid];
}
