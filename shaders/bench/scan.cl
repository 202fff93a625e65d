// Work-group inclusive scan (Hillis-Steele) through two ping-pong __local
// buffers: output[i] is the sum of the inputs of i's work-group up to i.
// Each step reads one buffer and writes the other, so one barrier per step.
#define WG 256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan(global const uint* restrict input, global uint* restrict output, uint n) {
  local uint buffers[2][WG];
  const uint lid = get_local_id(0), gid = get_global_id(0);
  uint from = 0;
  buffers[0][lid] = gid < n ? input[gid] : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < WG; offset <<= 1) {
    uint sum = buffers[from][lid];
    if (lid >= offset) sum += buffers[from][lid - offset];
    buffers[from ^ 1u][lid] = sum;
    from ^= 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid < n) output[gid] = buffers[from][lid];
}
