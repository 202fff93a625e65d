// Sub-group barriers that must order memory, beyond the __local exchange of
// synchronization/sub_group_barrier.cl: the exchange through global memory,
// and exchanges that only one sub-group of the work-group runs (the others
// never reach its barriers, which a sub-group barrier allows and a
// work-group barrier would not), the last and partial one included.
//
// Each work-item of an exchanging sub-group writes a value, waits at the
// barrier, then reads the value written by lane (lane + 1) % size of its own
// sub-group; a second barrier keeps the next round from overwriting it
// early. out[gid * ROUNDS + round] is the value read, value_of(group,
// writer's local id, round), or SKIPPED in sub-groups that do not exchange.
// SUB_GROUP_BARRIER(flags) is the barrier under test (the test defines it;
// sub_group_barrier(flags) by default).
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#ifndef SUB_GROUP_BARRIER
#define SUB_GROUP_BARRIER(flags) sub_group_barrier(flags)
#endif

#define ROUNDS 4
#define SKIPPED 0xFFFFFFFFu

static uint value_of(uint group, uint lid, uint round) { return group * 0x10000u + lid * 0x10u + round + 1u; }

// The sub-group's slots: a tile has one slot per work-item of the work-group,
// and sub-group s owns the ones from s * get_max_sub_group_size().
static void exchange_local(local uint* tile, global uint* out) {
  const uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  local uint* mine = tile + get_sub_group_id() * get_max_sub_group_size();
  for (uint round = 0; round < ROUNDS; ++round) {
    mine[lane] = value_of(get_group_id(0), get_local_id(0), round);
    SUB_GROUP_BARRIER(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * ROUNDS + round] = mine[(lane + 1u) % size];
    SUB_GROUP_BARRIER(CLK_LOCAL_MEM_FENCE);
  }
}

static void exchange_global(global uint* tile, global uint* out) {
  const uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  global uint* mine = tile + get_sub_group_id() * get_max_sub_group_size();
  for (uint round = 0; round < ROUNDS; ++round) {
    mine[lane] = value_of(get_group_id(0), get_local_id(0), round);
    SUB_GROUP_BARRIER(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0) * ROUNDS + round] = mine[(lane + 1u) % size];
    SUB_GROUP_BARRIER(CLK_GLOBAL_MEM_FENCE);
  }
}

static void skip(global uint* out) {
  for (uint round = 0; round < ROUNDS; ++round) out[get_global_id(0) * ROUNDS + round] = SKIPPED;
}

// Every sub-group exchanges through the work-group's slice of `scratch`.
kernel void exchange_global_all(global uint* out, global uint* scratch) {
  exchange_global(scratch + (get_global_id(0) - get_local_id(0)), out);
}

// Only sub-group `chosen` exchanges; the others skip its barriers.
kernel void exchange_local_one(global uint* out, uint chosen, local uint* tile) {
  if (get_sub_group_id() == chosen) exchange_local(tile, out);
  else skip(out);
}

kernel void exchange_global_one(global uint* out, uint chosen, global uint* scratch) {
  if (get_sub_group_id() == chosen) exchange_global(scratch + (get_global_id(0) - get_local_id(0)), out);
  else skip(out);
}
