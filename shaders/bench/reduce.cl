// Work-group tree reduction in __local memory: partial_sums[g] is the sum of
// the WG inputs of work-group g (zeros past n). Sequential addressing, one
// barrier per level: eight barriers for 256 work-items.
#define WG 256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce(global const float* restrict input, global float* restrict partial_sums, uint n) {
  local float scratch[WG];
  const uint lid = get_local_id(0), gid = get_global_id(0);
  scratch[lid] = gid < n ? input[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial_sums[get_group_id(0)] = scratch[0];
}
