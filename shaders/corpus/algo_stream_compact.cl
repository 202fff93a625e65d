// Stream compaction within each work-group: flag the positive values, scan
// the flags in __local memory, scatter the kept values to the front of the
// group's slice, and write the count.
// @kernel compact
// @global 256
// @local 64
// @arg input global int[256] random(13, -100, 100)
// @arg output global int[256] fill(-1)
// @arg counts global int[4] zero
// @check output exact
// @check counts exact
// @bench-global 16777216
// @bench-arg input global int[16777216] random(13, -100, 100)
// @bench-arg output global int[16777216] fill(-1)
// @bench-arg counts global int[262144] zero
__kernel void compact(__global const int* input, __global int* output, __global int* counts) {
  __local int flags[64];
  __local int scan[64];
  const int lid = get_local_id(0);
  const int v = input[get_global_id(0)];
  flags[lid] = v > 0;
  scan[lid] = flags[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < 64; offset <<= 1) {
    int add = lid >= offset ? scan[lid - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scan[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int base = get_group_id(0) * 64;
  if (flags[lid]) output[base + scan[lid] - 1] = v;
  if (lid == 63) counts[get_group_id(0)] = scan[63];
}
