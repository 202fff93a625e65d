// Sub-group barrier latency: the hops of barrier_chain.cl inside each
// sub-group, through the sub-group's slots of a __local array, two
// sub_group_barrier()s per step. Slot i of work-group g starts with
// g * WG + i; after the loop lane l of the sub-group whose slots start at s
// writes, at slot s + l, the start value of lane (l + steps) % size plus
// steps. sub_group_size[0] is the sub-group size, for the host's check.
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#define WG 256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sub_group_chain(global uint* restrict output, global uint* restrict sub_group_size, uint steps) {
  local uint hop[WG];
  const uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  const uint first = get_sub_group_id() * get_max_sub_group_size();
  const uint right = lane + 1u == size ? 0u : lane + 1u;
  uint value = get_group_id(0) * WG + first + lane;
  for (uint s = 0; s < steps; ++s) {
    hop[first + lane] = value;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    value = hop[first + right] + 1u;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  }
  output[get_group_id(0) * WG + first + lane] = value;
  // The twin's test, word for word: NVIDIA's compiler (580.159) runs the
  // whole kernel 3.3% slower with `get_global_id(0) == 0` here, in either
  // language (docs/benchmarks.md, "NVIDIA H100").
  if (get_group_id(0) == 0 && get_local_id(0) == 0) sub_group_size[0] = size;
}
