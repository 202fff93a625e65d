// A loop whose trip count is uniform in the work-group but data-dependent
// across work-groups, with barriers inside, after divergent code.
// @kernel uniform_loop
// @global 256
// @local 64
// @arg in global int[256] random(271, 0, 1000)
// @arg rounds global int[4] random(272, 1, 6)
// @arg out global int[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(271, 0, 1000)
// @bench-arg rounds global int[262144] random(272, 1, 6)
// @bench-arg out global int[16777216] zero
__kernel void uniform_loop(__global const int* in, __global const int* rounds, __global int* out) {
  __local int buf[64];
  const int lid = get_local_id(0);
  int v = in[get_global_id(0)];
  if (v & 1) v = v * 3 + 1;  // divergent
  else v >>= 1;
  buf[lid] = v;
  const int n = rounds[get_group_id(0)];
  for (int r = 0; r < n; ++r) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int left = buf[(lid + 63) & 63];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[lid] = (buf[lid] + left) % 100003;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[lid];
}
