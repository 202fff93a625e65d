// A chain of barriers: every round, each work-item reads a neighbour's word
// from __local memory at a distance that changes with the round, waits, and
// writes back a mix of the two, so each round's result depends on the
// previous round of the whole work-group.
// @kernel barrier_chain
// @global 1024
// @local 128
// @arg in global uint[1024] bits(308)
// @arg out global uint[1024] zero
// @arg rounds int 64
// @check out exact
// @bench-global 1048576
// @bench-arg in global uint[1048576] bits(308)
// @bench-arg out global uint[1048576] zero
// @bench-arg rounds int 256
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void barrier_chain(__global const uint* in, __global uint* out, const int rounds) {
  __local uint state[WG];
  const uint lid = get_local_id(0);
  state[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int r = 0; r < rounds; ++r) {
    const uint distance = ((uint)r * 37u + 1u) & (WG - 1);
    const uint mine = state[lid];
    const uint other = state[(lid + distance) & (WG - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    state[lid] = (mine * 0x9E3779B1u) ^ (other >> 3) ^ (uint)r;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = state[lid];
}
