// Barrier latency: `steps` dependent hops through __local memory, two
// barriers per step. Each step every work-item publishes its value, and
// takes its right neighbour's plus one, so after the loop work-item lid
// holds input[group * WG + (lid + steps) % WG] + steps.
#define WG 256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void barrier_chain(global const uint* restrict input, global uint* restrict output, uint steps) {
  local uint hop[WG];
  const uint lid = get_local_id(0), gid = get_global_id(0);
  const uint right = lid + 1u == WG ? 0u : lid + 1u;
  uint value = input[gid];
  for (uint s = 0; s < steps; ++s) {
    hop[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    value = hop[right] + 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  output[gid] = value;
}
