// Message passing ordered by fences around a relaxed atomic flag, the
// pattern the OpenCL memory model gives fences their meaning by: a writer
// stores WORDS data words (plain stores), RELEASE_FENCE(flags), then stores
// the flag with a relaxed atomic; a reader polls the flag with relaxed
// atomic loads, then ACQUIRE_FENCE(flags), then reads the data (plain
// loads). A reader that saw the flag must see all the data; one that gave up
// (SPIN_LIMIT polls; lavapipe ends longer loops) reads nothing.
//
// Pairs, by kernel:
//   across_groups      writer: work-item lid of group g < G/2; reader: work-item
//                      lid of group g + G/2; global memory (the scope must be
//                      memory_scope_device or wider)
//   within_group_*     writer: work-item lid < n/2; reader: lid + n/2; __local
//                      or global memory (work_group scope suffices)
//   within_sub_group_* writer: an even lane; reader: the next lane of the same
//                      sub-group; __local or global memory (sub_group scope)
// Within a work-group the writer and the reader run one loop whose first
// pass writes (on lavapipe a sub-group runs in lockstep, and a reader
// polling in a branch taken before the writer's would never see the flag).
//
// out[pair * (WORDS + 2) + ...]: the flag the reader saw (0 or 1), the data
// words it read (0 when it saw no flag), how many polls it took.
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#ifndef RELEASE_FENCE
#define RELEASE_FENCE(flags) atomic_work_item_fence(flags, memory_order_release, memory_scope_device)
#endif
#ifndef ACQUIRE_FENCE
#define ACQUIRE_FENCE(flags) atomic_work_item_fence(flags, memory_order_acquire, memory_scope_device)
#endif

#define WORDS 4
#define SPIN_LIMIT 60000u

static uint data_of(uint pair, uint w) { return pair * 0x10u + w + 1u; }

kernel void across_groups(global uint* out, global uint* data, global atomic_uint* flags) {
  const uint writers = get_num_groups(0) / 2u, group = get_group_id(0), n = get_local_size(0);
  if (group >= 2u * writers) return;
  const uint pair = (group % writers) * n + get_local_id(0);
  global uint* words = data + pair * WORDS;
  if (group < writers) {
    for (uint w = 0; w < WORDS; ++w) words[w] = data_of(pair, w);
    RELEASE_FENCE(CLK_GLOBAL_MEM_FENCE);
    atomic_store_explicit(&flags[pair], 1u, memory_order_relaxed, memory_scope_device);
    return;
  }
  uint seen = 0, polls = 0;
  while (polls < SPIN_LIMIT && seen == 0) {
    seen = atomic_load_explicit(&flags[pair], memory_order_relaxed, memory_scope_device);
    ++polls;
  }
  ACQUIRE_FENCE(CLK_GLOBAL_MEM_FENCE);
  global uint* row = out + pair * (WORDS + 2);
  row[0] = seen;
  for (uint w = 0; w < WORDS; ++w) row[1 + w] = seen ? words[w] : 0u;
  row[1 + WORDS] = polls;
}

// One message between `writer` and `reader` (either may be false for an
// unpaired work-item), data and flag in __local or global memory.
#define MESSAGE(SPACE, FLAGS)                                                                       \
  static void message_##SPACE(bool writer, bool reader, uint pair, SPACE uint* words,               \
                              SPACE atomic_uint* flag, global uint* out) {                          \
    uint seen = 0, polls = 0;                                                                       \
    for (; polls < SPIN_LIMIT; ++polls) {                                                           \
      if (writer && polls == 0u) {                                                                  \
        for (uint w = 0; w < WORDS; ++w) words[w] = data_of(pair, w);                               \
        RELEASE_FENCE(FLAGS);                                                                       \
        atomic_store_explicit(flag, 1u, memory_order_relaxed, memory_scope_work_group);             \
      }                                                                                             \
      if (!reader) break;                                                                           \
      seen = atomic_load_explicit(flag, memory_order_relaxed, memory_scope_work_group);             \
      if (seen != 0u) break;                                                                        \
    }                                                                                               \
    if (!reader) return;                                                                            \
    ACQUIRE_FENCE(FLAGS);                                                                           \
    global uint* row = out + pair * (WORDS + 2);                                                    \
    row[0] = seen;                                                                                  \
    for (uint w = 0; w < WORDS; ++w) row[1 + w] = seen ? words[w] : 0u;                             \
    row[1 + WORDS] = polls + 1u;                                                                    \
  }
MESSAGE(local, CLK_LOCAL_MEM_FENCE)
MESSAGE(global, CLK_GLOBAL_MEM_FENCE)

// Pair numbers are global: the work-group's first global id plus the writer's local id.
kernel void within_group_local(global uint* out, local uint* data, local atomic_uint* flags) {
  const uint lid = get_local_id(0), pairs = get_local_size(0) / 2u;
  const bool writer = lid < pairs, reader = lid >= pairs && lid < 2u * pairs;
  const uint slot = writer ? lid : lid - pairs;
  if (writer) atomic_init(&flags[slot], 0u);
  barrier(CLK_LOCAL_MEM_FENCE);
  message_local(writer, reader, get_global_id(0) - lid + slot, data + slot * WORDS, &flags[slot], out);
}

// data and flags: zeroed by the host, one message per pair of the whole range.
kernel void within_group_global(global uint* out, global uint* data, global atomic_uint* flags) {
  const uint lid = get_local_id(0), pairs = get_local_size(0) / 2u;
  const bool writer = lid < pairs, reader = lid >= pairs && lid < 2u * pairs;
  const uint pair = get_global_id(0) - lid + (writer ? lid : lid - pairs);
  message_global(writer, reader, pair, data + pair * WORDS, &flags[pair], out);
}

static bool sub_group_writer(void) {
  return get_sub_group_local_id() % 2u == 0u && get_sub_group_local_id() + 1u < get_sub_group_size();
}

kernel void within_sub_group_local(global uint* out, local uint* data, local atomic_uint* flags) {
  const uint lid = get_local_id(0), lane = get_sub_group_local_id();
  const bool writer = sub_group_writer(), reader = lane % 2u == 1u;
  const uint slot = writer ? lid : lid - 1u;
  if (writer) atomic_init(&flags[slot], 0u);
  barrier(CLK_LOCAL_MEM_FENCE);
  message_local(writer, reader, get_global_id(0) - lid + slot, data + slot * WORDS, &flags[slot], out);
}

kernel void within_sub_group_global(global uint* out, global uint* data, global atomic_uint* flags) {
  const uint lid = get_local_id(0), lane = get_sub_group_local_id();
  const bool writer = sub_group_writer(), reader = lane % 2u == 1u;
  const uint pair = get_global_id(0) - (writer ? 0u : 1u);
  message_global(writer, reader, pair, data + pair * WORDS, &flags[pair], out);
}
