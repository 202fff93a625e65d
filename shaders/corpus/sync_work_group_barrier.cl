// OpenCL C 2.0+ work_group_barrier with both fences and an explicit
// work-group scope, several times in a loop (repeated shifts of a ring).
// @kernel ring_shift
// @std CL3.0
// @global 128
// @local 32
// @arg in global int[128] random(261, 0, 1000)
// @arg out global int[128] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(261, 0, 1000)
// @bench-arg out global int[16777216] zero
__kernel void ring_shift(__global const int* in, __global int* out) {
  __local int ring[32];
  const int lid = get_local_id(0);
  ring[lid] = in[get_global_id(0)];
  for (int step = 0; step < 5; ++step) {
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    int v = ring[(lid + 3) & 31] + step;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    ring[lid] = v;
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = ring[lid];
}
