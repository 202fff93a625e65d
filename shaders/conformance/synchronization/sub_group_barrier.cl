// Sub-group barriers that must order local memory: each work-item writes a
// value, waits at the barrier, then reads the value written by lane
// (lane + 1) % get_sub_group_size() of its own sub-group; the last sub-group
// is partial when the work-group size is not a multiple of the sub-group
// size. A second barrier keeps the next round's write from overwriting a
// value before it has been read.
//
// out[gid * ROUNDS + round] is the value read in that round; a value is
// value_of(group, writer's local id, round). SUB_GROUP_BARRIER(flags) is the
// barrier under test (the test defines it; sub_group_barrier(flags) by
// default). sub_group_ids writes the sub-group work-item functions, which
// the exchange relies on.
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#ifndef SUB_GROUP_BARRIER
#define SUB_GROUP_BARRIER(flags) sub_group_barrier(flags)
#endif

#define ROUNDS 4
#define MAX_LOCAL_SIZE 256

static uint value_of(uint group, uint lid, uint round) { return group * 0x10000u + lid * 0x10u + round + 1u; }

kernel void sub_group_exchange(global uint* out) {
  local uint tile[MAX_LOCAL_SIZE];
  const uint group = get_group_id(0), lid = get_local_id(0);
  const uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  local uint* mine = tile + get_sub_group_id() * get_max_sub_group_size();
  for (uint round = 0; round < ROUNDS; ++round) {
    mine[lane] = value_of(group, lid, round);
    SUB_GROUP_BARRIER(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * ROUNDS + round] = mine[(lane + 1) % size];
    SUB_GROUP_BARRIER(CLK_LOCAL_MEM_FENCE);
  }
}

// out[gid * 6 + ...]: sub-group size, max size, count, enqueued count, id, local id.
kernel void sub_group_ids(global uint* out) {
  global uint* row = out + get_global_id(0) * 6;
  row[0] = get_sub_group_size();
  row[1] = get_max_sub_group_size();
  row[2] = get_num_sub_groups();
  row[3] = get_enqueued_num_sub_groups();
  row[4] = get_sub_group_id();
  row[5] = get_sub_group_local_id();
}
