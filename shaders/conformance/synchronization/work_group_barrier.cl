// Work-group barriers that must order memory: each work-item writes a value,
// waits at the barrier, then reads the value written by the work-item
// (lid + size / 2 + 1) % size of its own work-group, far enough away to be
// in another of lavapipe's 8-wide SIMD chunks. A second barrier keeps the
// next round's write from overwriting a value before it has been read.
//
// out[gid * ROUNDS + round] is the value read in that round; a value is
// value_of(group, writer, round). BARRIER(flags) is the barrier under test
// (the test defines it; barrier(flags) by default).
#ifndef BARRIER
#define BARRIER(flags) barrier(flags)
#endif

#define ROUNDS 4
#define MAX_LOCAL_SIZE 256

static uint value_of(uint group, uint lid, uint round) { return group * 0x10000u + lid * 0x10u + round + 1u; }

static uint partner(uint lid, uint size) { return (lid + size / 2 + 1) % size; }

kernel void exchange_local_array(global uint* out) {
  local uint tile[MAX_LOCAL_SIZE];
  const uint lid = get_local_id(0), size = get_local_size(0), group = get_group_id(0);
  for (uint round = 0; round < ROUNDS; ++round) {
    tile[lid] = value_of(group, lid, round);
    BARRIER(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * ROUNDS + round] = tile[partner(lid, size)];
    BARRIER(CLK_LOCAL_MEM_FENCE);
  }
}

kernel void exchange_local_arg(global uint* out, local uint* tile) {
  const uint lid = get_local_id(0), size = get_local_size(0), group = get_group_id(0);
  for (uint round = 0; round < ROUNDS; ++round) {
    tile[lid] = value_of(group, lid, round);
    BARRIER(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * ROUNDS + round] = tile[partner(lid, size)];
    BARRIER(CLK_LOCAL_MEM_FENCE);
  }
}

// The same through global memory: scratch[first gid of the group + lid].
kernel void exchange_global(global uint* out, global uint* scratch) {
  const uint lid = get_local_id(0), size = get_local_size(0), group = get_group_id(0);
  global uint* tile = scratch + (get_global_id(0) - lid);
  for (uint round = 0; round < ROUNDS; ++round) {
    tile[lid] = value_of(group, lid, round);
    BARRIER(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0) * ROUNDS + round] = tile[partner(lid, size)];
    BARRIER(CLK_GLOBAL_MEM_FENCE);
  }
}
