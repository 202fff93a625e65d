// barrier(CLK_GLOBAL_MEM_FENCE) ordering writes to a global buffer that
// other work-items of the work-group read back (a global-memory exchange).
// @kernel global_exchange
// @global 256
// @local 64
// @arg in global int[256] random(260, -1000, 1000)
// @arg scratch global int[256] zero
// @arg out global int[256] zero
// @check out exact
// @bench-global 16777216
// @bench-arg in global int[16777216] random(260, -1000, 1000)
// @bench-arg scratch global int[16777216] zero
// @bench-arg out global int[16777216] zero
__kernel void global_exchange(__global const int* in, __global int* scratch, __global int* out) {
  const int gid = get_global_id(0), lid = get_local_id(0), base = gid - lid;
  scratch[gid] = in[gid] * 5;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[gid] = scratch[base + 63 - lid] - scratch[base + ((lid + 1) & 63)];
}
