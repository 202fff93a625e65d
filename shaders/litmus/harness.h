// The harness every litmus test runs in, after the stress methods that
// published GPU litmus testing found necessary (Alglave et al., "GPU
// concurrency: weak behaviours and programming assumptions", ASPLOS 2015;
// Kirkham, Sorensen et al., "Foundations of empirical memory consistency
// testing", OOPSLA 2020, and the WebGPU memory-model tests built on it):
//
// - Parallel testing: every work-item of a testing work-group runs one test
//   instance as thread 0 and another as thread 1, so one dispatch runs
//   (testing work-groups) x (local size) instances. Thread 1 of an instance
//   is a work-item of another work-group (across work-groups) or another
//   work-item of the same work-group (within one), paired by permutations.
// - Randomized thread placement: params holds a shuffle of the work-group
//   ids (which work-groups test and in what roles), a rotation of the
//   work-group striping, and the permutation factors; the host draws them
//   anew for every dispatch.
// - Memory stress: work-groups that do not test hammer a scratch buffer
//   (store/store, store/load, load/store or load/load at a location of a few
//   hot cache lines), and testing work-items may do the same before the test.
// - A pre-test barrier: testing work-items meet at a bounded spin on an
//   atomic counter (across work-groups; at most P_SPIN_POLLS polls, so a
//   device that does not run all work-groups at once only loses concurrency)
//   or at a work-group barrier (within a work-group), so that both threads
//   of an instance start their test code at about the same time. The spin
//   waits for every testing work-item (P_PRE_BARRIER 1), or, staggered (2),
//   for each work-item until every testing work-group has brought as many
//   work-items as its local id + 1: on a CPU device (lavapipe), which runs a
//   work-group's SIMD chunks one after another on one thread, that releases
//   chunk k of every work-group together, so work-items with the same local
//   id in different work-groups (--litmus-permute-first=1) really overlap.
//
// The test file defines litmus_body(), the code both threads of an instance
// run (thread 0's part at x0/y0, writing its reads to result0; thread 1's at
// x1/y1, to result1), and outcome(), which names what an instance saw
// (0..OUTCOMES-1, OUTCOME_INVALID for values no interleaving can produce);
// then it includes this file. The classify kernel counts the outcomes of a
// dispatch into counts[] on the device and zeroes the instance's locations
// and results for the next dispatch of the same command list.
//
// Placement, one of (default LITMUS_GLOBAL):
//   LITMUS_GLOBAL     global memory, the two threads in different work-groups;
//                     SCOPE memory_scope_device, FLAGS CLK_GLOBAL_MEM_FENCE
//   LITMUS_GLOBAL_WG  global memory, both threads in one work-group;
//                     SCOPE memory_scope_work_group, FLAGS CLK_GLOBAL_MEM_FENCE
//   LITMUS_LOCAL      __local memory (a __local pointer argument), one work-group;
//                     SCOPE memory_scope_work_group, FLAGS CLK_LOCAL_MEM_FENCE
// Accesses: relaxed atomics on atomic_uint locations (store/load at SCOPE),
// or plain accesses with LITMUS_PLAIN (volatile with LITMUS_VOLATILE).
//
// Every parameter is a kernel argument or a word of params (P_* below, kept
// in step with tests/conformance/litmus.h), never a define, so one compiled
// module serves every configuration (and VKCL_MODULE_CACHE replays it).
#pragma once

#if !defined(LITMUS_GLOBAL) && !defined(LITMUS_GLOBAL_WG) && !defined(LITMUS_LOCAL)
#define LITMUS_GLOBAL
#endif

#if defined(LITMUS_LOCAL)
#define SCOPE memory_scope_work_group
#define FLAGS CLK_LOCAL_MEM_FENCE
#define LOCATIONS_SPACE local
#elif defined(LITMUS_GLOBAL_WG)
#define SCOPE memory_scope_work_group
#define FLAGS CLK_GLOBAL_MEM_FENCE
#define LOCATIONS_SPACE global
#else
#define SCOPE memory_scope_device
#define FLAGS CLK_GLOBAL_MEM_FENCE
#define LOCATIONS_SPACE global
#endif

#if defined(LITMUS_VOLATILE)
#define LITMUS_PLAIN
#define LOCATION_TYPE volatile uint
#elif defined(LITMUS_PLAIN)
#define LOCATION_TYPE uint
#else
#define LOCATION_TYPE atomic_uint
#endif
#define LOCS LOCATIONS_SPACE LOCATION_TYPE*

#if defined(LITMUS_PLAIN)
#define store(p, v) (*(p) = (v))
#define load(p) (*(p))
#else
#define store(p, v) atomic_store_explicit((p), (v), memory_order_relaxed, SCOPE)
#define load(p) atomic_load_explicit((p), memory_order_relaxed, SCOPE)
#endif

// Words of params. The header, then the shuffled work-group ids
// (params[P_HEADER + get_group_id(0)]: below P_TESTING_GROUPS means a testing
// work-group, and which one), then one scratch location per work-group.
#define P_TESTING_GROUPS 0   // work-groups that test; the others stress
#define P_GROUPS 1           // work-groups in the dispatch
#define P_LOCAL_SIZE 2       // work-items per work-group
#define P_STRIDE 3           // words from one instance's x to the next's is 2 * stride; y = x of another + stride
#define P_PERMUTE_FIRST 4    // pairs thread 1 with a local id: (lid * f) % local size
#define P_PERMUTE_SECOND 5   // places y: (instance * f) % instances
#define P_STRIPE_ROTATION 6  // rotates which other work-group thread 1 comes from
#define P_PRE_BARRIER 7      // the spin before the test (across work-groups): 0 none, 1 all, 2 staggered
#define P_PRE_STRESS 8       // iterations of stress before the test; 0: none
#define P_PRE_STRESS_PATTERN 9
#define P_MEM_STRESS 10      // iterations of stress in non-testing work-groups; 0: none
#define P_MEM_STRESS_PATTERN 11
#define P_GAP 12             // spins between the two reads of READ_DATA_FIRST variants
#define P_SPIN_POLLS 13      // at most this many polls in the pre-test spin
#define P_HEADER 16

#define RESULT_WORDS 4  // per instance: r0, r1, final x, final y
#define OUTCOMES 4
#define OUTCOME_INVALID 4

static void litmus_body(LOCS locations, uint x0, uint y0, global uint* result0, uint x1, uint y1,
                        global uint* result1, uint gap);
static uint outcome(uint r0, uint r1, uint x, uint y);

static inline uint permute(uint i, uint factor, uint n) { return (i * factor) % n; }

// Time between two accesses that compilers cannot remove.
static inline void delay(uint n) {
  volatile uint count = 0;
  for (uint i = 0; i < n; ++i) count = count + 1u;
}

// Stress on one scratch word: the access pattern of the Kirkham et al. tests.
static void stress(global volatile uint* scratchpad, uint address, uint iterations, uint pattern) {
  uint sink = 0;
  for (uint i = 0; i < iterations; ++i) {
    switch (pattern) {
      case 0: scratchpad[address] = i; scratchpad[address] = i + 1u; break;
      case 1: scratchpad[address] = i; sink += scratchpad[address]; break;
      case 2: sink += scratchpad[address]; scratchpad[address] = i; break;
      default: sink += scratchpad[address]; sink += scratchpad[address]; break;
    }
  }
  if (sink == 0xFFFFFFFFu) scratchpad[address + 1u] = sink;  // keeps the loads
}

// The pre-test barrier across work-groups: bounded, so work-groups that the
// device runs one after another only wait `polls` each.
static void spin(global atomic_uint* counter, uint arrivals, uint polls) {
  uint seen = atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed, memory_scope_device) + 1u;
  for (uint poll = 0; poll < polls && seen < arrivals; ++poll)
    seen = atomic_load_explicit(counter, memory_order_relaxed, memory_scope_device);
}

// Where instance i's locations are. Across work-groups the instances of the
// dispatch share one array; within a work-group each testing work-group has
// its own (the __local one, or its slice of the global one).
static inline uint x_of(uint i, uint stride) { return i * 2u * stride; }
static inline uint y_of(uint i, uint stride, uint factor, uint n) { return permute(i, factor, n) * 2u * stride + stride; }

#if defined(LITMUS_LOCAL)
kernel void litmus(local LOCATION_TYPE* locations, global uint* results, global const uint* params,
                   global atomic_uint* sync, global volatile uint* scratchpad)
#else
kernel void litmus(global LOCATION_TYPE* locations, global uint* results, global const uint* params,
                   global atomic_uint* sync, global volatile uint* scratchpad)
#endif
{
  const uint size = params[P_LOCAL_SIZE], lid = get_local_id(0), stride = params[P_STRIDE];
  const uint testing = params[P_TESTING_GROUPS];
  const uint group = params[P_HEADER + get_group_id(0)];  // shuffled
  const uint scratch = params[P_HEADER + params[P_GROUPS] + group];
  if (group < testing) {
#if defined(LITMUS_GLOBAL)
    const uint instances = testing * size;
    const uint id0 = group * size + lid;
    const uint group1 = (group + 1u + (lid + params[P_STRIPE_ROTATION]) % (testing - 1u)) % testing;
    const uint id1 = group1 * size + permute(lid, params[P_PERMUTE_FIRST], size);
    LOCS base = locations;
    global uint* result0 = results + id0 * RESULT_WORDS;
    global uint* result1 = results + id1 * RESULT_WORDS;
#else
    const uint instances = size;
    const uint id0 = lid;
    const uint id1 = permute(lid, params[P_PERMUTE_FIRST], size);
    global uint* result0 = results + (group * size + id0) * RESULT_WORDS;
    global uint* result1 = results + (group * size + id1) * RESULT_WORDS;
#endif
    const uint x0 = x_of(id0, stride), y0 = y_of(id0, stride, params[P_PERMUTE_SECOND], instances);
    const uint x1 = x_of(id1, stride), y1 = y_of(id1, stride, params[P_PERMUTE_SECOND], instances);
    if (params[P_PRE_STRESS]) stress(scratchpad, scratch, params[P_PRE_STRESS], params[P_PRE_STRESS_PATTERN]);
#if defined(LITMUS_LOCAL)
    LOCS base = locations;
    for (uint w = 0; w < 2u * stride; ++w) store(base + lid * 2u * stride + w, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);  // zeroed; and the pre-test barrier
#elif defined(LITMUS_GLOBAL_WG)
    LOCS base = locations + group * size * 2u * stride;
    barrier(CLK_GLOBAL_MEM_FENCE);  // the pre-test barrier
#else
    if (params[P_PRE_BARRIER])
      spin(sync, params[P_PRE_BARRIER] == 2u ? testing * (lid + 1u) : instances, params[P_SPIN_POLLS]);
#endif
    litmus_body(base, x0, y0, result0, x1, y1, result1, params[P_GAP]);
#if defined(LITMUS_LOCAL)
    barrier(CLK_LOCAL_MEM_FENCE);  // then instance id0's final memory goes out with its results
    result0[2] = load(base + x0);
    result0[3] = load(base + y0);
#endif
  } else if (params[P_MEM_STRESS]) {
    stress(scratchpad, scratch, params[P_MEM_STRESS], params[P_MEM_STRESS_PATTERN]);
  }
}

// One work-item per instance, in work-groups of the test's local size (the
// work-items past the dispatch's instances only help count): counts[outcome] += 1, counts[OUTCOME_INVALID]
// for impossible values; then the instance's locations and results are
// zeroed, and work-item 0 zeroes the spin counter, for the next dispatch.
#if defined(LITMUS_LOCAL)
kernel void classify(global uint* results, global const uint* params, global atomic_uint* sync,
                     global uint* counts)
#else
kernel void classify(global LOCATION_TYPE* locations, global uint* results, global const uint* params,
                     global atomic_uint* sync, global uint* counts)
#endif
{
  local uint tally[OUTCOMES + 1];
  if (get_local_id(0) <= OUTCOMES) tally[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint size = params[P_LOCAL_SIZE], stride = params[P_STRIDE];
  const uint i = get_global_id(0);
  if (i < params[P_TESTING_GROUPS] * size) {
    global uint* result = results + i * RESULT_WORDS;
#if defined(LITMUS_LOCAL)
    const uint x = result[2], y = result[3];
#else
#if defined(LITMUS_GLOBAL)
    global LOCATION_TYPE* base = locations;
    const uint id = i, instances = params[P_TESTING_GROUPS] * size;
#else
    // (The classify work-groups are as large as the test's, so that the
    // instance's work-group and id need no i / size and i % size, which
    // LLVM pairs through a freeze that SPIRV-LLVM-Translator 15 rejects.)
    const uint id = get_local_id(0), instances = size;
    global LOCATION_TYPE* base = locations + get_group_id(0) * size * 2u * stride;
#endif
    global LOCATION_TYPE* px = base + x_of(id, stride);
    global LOCATION_TYPE* py = base + y_of(id, stride, params[P_PERMUTE_SECOND], instances);
    const uint x = load(px), y = load(py);
    store(px, 0u);
    store(py, 0u);
#endif
    const uint seen = outcome(result[0], result[1], x, y);
    atomic_inc(&tally[seen < OUTCOME_INVALID ? seen : OUTCOME_INVALID]);
    for (uint w = 0; w < RESULT_WORDS; ++w) result[w] = 0;
  }
  if (i == 0) atomic_store_explicit(sync, 0u, memory_order_relaxed, memory_scope_device);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) <= OUTCOMES && tally[get_local_id(0)] != 0) atomic_add(&counts[get_local_id(0)], tally[get_local_id(0)]);
}
