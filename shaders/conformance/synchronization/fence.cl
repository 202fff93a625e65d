// Message passing between the two work-items of a work-group, ordered only
// by fences: work-item 0 writes WORDS data words, then RELEASE_FENCE(flags),
// then the flag; work-item 1 spins on the flag (a plain load) with
// ACQUIRE_FENCE(flags) inside the loop, which keeps the compiler from
// hoisting the load, then reads the data.
//
// Work-item 0 writes at the top of the first pass of the same loop, then
// reads its own flag: on lavapipe both work-items run in one SIMD chunk, in
// lockstep, and a spin in one branch of an if/else that ran before the
// writer's branch would never see the flag. lavapipe ends loops after 65535
// iterations, so the spin gives up after SPIN_LIMIT.
//
// Each work-item writes one row, out[gid * (WORDS + 2) + ...]: the flag
// value it saw, the data words it saw, and how many times it spun. The flag
// is group + 1 and data word w is data_of(group, w). The test defines the
// two fences; mem_fence by default.
#ifndef RELEASE_FENCE
#define RELEASE_FENCE(flags) mem_fence(flags)
#endif
#ifndef ACQUIRE_FENCE
#define ACQUIRE_FENCE(flags) mem_fence(flags)
#endif

#define WORDS 4
#define SPIN_LIMIT 60000u

static uint data_of(uint group, uint w) { return (group + 1u) * 0x100u + w; }

kernel void message_passing_local(global uint* out) {
  local uint data[WORDS];
  local uint flag;
  const uint group = get_group_id(0);
  global uint* row = out + get_global_id(0) * (WORDS + 2);
  if (get_local_id(0) == 1) {
    for (uint w = 0; w < WORDS; ++w) data[w] = 0;
    flag = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  uint seen = 0, spins = 0;
  for (; spins < SPIN_LIMIT; ++spins) {
    if (get_local_id(0) == 0 && spins == 0) {
      for (uint w = 0; w < WORDS; ++w) data[w] = data_of(group, w);
      RELEASE_FENCE(CLK_LOCAL_MEM_FENCE);
      flag = group + 1u;
    }
    seen = flag;
    ACQUIRE_FENCE(CLK_LOCAL_MEM_FENCE);
    if (seen != 0) break;
  }
  row[0] = seen;
  for (uint w = 0; w < WORDS; ++w) row[1 + w] = data[w];
  row[1 + WORDS] = spins;
}

// The same through global memory: the group's data words and then its flag
// at scratch[group * (WORDS + 1)], zeroed by the host.
kernel void message_passing_global(global uint* out, global uint* scratch) {
  const uint group = get_group_id(0);
  global uint* row = out + get_global_id(0) * (WORDS + 2);
  global uint* data = scratch + group * (WORDS + 1);
  global uint* flag = data + WORDS;

  uint seen = 0, spins = 0;
  for (; spins < SPIN_LIMIT; ++spins) {
    if (get_local_id(0) == 0 && spins == 0) {
      for (uint w = 0; w < WORDS; ++w) data[w] = data_of(group, w);
      RELEASE_FENCE(CLK_GLOBAL_MEM_FENCE);
      *flag = group + 1u;
    }
    seen = *flag;
    ACQUIRE_FENCE(CLK_GLOBAL_MEM_FENCE);
    if (seen != 0) break;
  }
  row[0] = seen;
  for (uint w = 0; w < WORDS; ++w) row[1 + w] = data[w];
  row[1 + WORDS] = spins;
}
