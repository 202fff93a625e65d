// Barrier litmus tests within a work-group (the WebGPU memory-model tests'
// barrier family): plain accesses, ordered only by BARRIER between the two
// threads' parts. x starts at 0.
//
//   STORE_LOAD    thread 0: x = 1; BARRIER       thread 1: BARRIER; r0 = x
//                 forbidden: r0 == 0 (outcome 0); allowed: 1
//   LOAD_STORE    thread 0: r0 = x; BARRIER      thread 1: BARRIER; x = 1
//                 forbidden: r0 == 1 (outcome 1); allowed: 0
//   STORE_STORE   thread 0: x = 1; BARRIER       thread 1: BARRIER; x = 2
//                 forbidden: x ends 1 (outcome 1); allowed: 2 (outcome 2)
//
// barrier(FLAGS) forbids each (FLAGS: the memory the locations are in);
// barrier(0) orders execution but no memory, and allows them. Default:
// STORE_LOAD with barrier(FLAGS), in __local memory.
#if !defined(LITMUS_GLOBAL_WG) && !defined(LITMUS_LOCAL)
#define LITMUS_LOCAL
#endif
#define LITMUS_PLAIN
#if !defined(STORE_LOAD) && !defined(LOAD_STORE) && !defined(STORE_STORE)
#define STORE_LOAD
#endif
#ifndef BARRIER
#define BARRIER barrier(FLAGS)
#endif

#include "harness.h"

static void litmus_body(LOCS locations, uint x0, uint y0, global uint* result0, uint x1, uint y1,
                        global uint* result1, uint gap) {
#if defined(STORE_LOAD)
  store(locations + x0, 1u);
  BARRIER;
  result1[0] = load(locations + x1);
#elif defined(LOAD_STORE)
  result0[0] = load(locations + x0);
  BARRIER;
  store(locations + x1, 1u);
#else
  store(locations + x0, 1u);
  BARRIER;
  store(locations + x1, 2u);
#endif
}

static uint outcome(uint r0, uint r1, uint x, uint y) {
#if defined(STORE_LOAD)
  return r0 > 1u || x != 1u ? OUTCOME_INVALID : r0;
#elif defined(LOAD_STORE)
  return r0 > 1u || x != 1u ? OUTCOME_INVALID : r0;
#else
  return x == 1u || x == 2u ? x : OUTCOME_INVALID;
#endif
}
