// Message passing (MP). x and y start at 0.
//
//   thread 0                     thread 1
//   x = 1                        r0 = LOAD_FLAG(y)
//   FENCE_0                      FENCE_1
//   STORE_FLAG(y, 1)             r1 = x
//
// Outcome r0 * 2 + r1: 0 (r0=0 r1=0) and 3 (r0=1 r1=1) are the two orders,
// 1 (r0=0 r1=1) an interleaving, 2 (r0=1 r1=0) the weak outcome: thread 1
// saw the flag but not the data. The OpenCL memory model forbids it when
// FENCE_0 releases and FENCE_1 acquires at a scope that includes both
// threads (atomic_work_item_fence, or mem_fence / write_mem_fence and
// read_mem_fence within a work-group), or when the flag is stored with
// memory_order_release and loaded with memory_order_acquire; with every
// access relaxed and no fences it is allowed.
//
// READ_DATA_FIRST is the broken program that shows the harness can see the
// weak outcome: thread 1 reads x, waits P_GAP spins, then reads y, so
// r0=1 r1=0 is an ordinary interleaving there (thread 0 ran in the gap).
//
// The test defines FENCE_0, FENCE_1, STORE_FLAG and LOAD_FLAG; x and y are
// relaxed atomics (harness.h: store, load, SCOPE, FLAGS) and by default
// there are no fences.
#ifndef FENCE_0
#define FENCE_0
#endif
#ifndef FENCE_1
#define FENCE_1
#endif
#ifndef STORE_FLAG
#define STORE_FLAG(p, v) store(p, v)
#endif
#ifndef LOAD_FLAG
#define LOAD_FLAG(p) load(p)
#endif

#include "harness.h"

static void litmus_body(LOCS locations, uint x0, uint y0, global uint* result0, uint x1, uint y1,
                        global uint* result1, uint gap) {
  store(locations + x0, 1u);
  FENCE_0;
  STORE_FLAG(locations + y0, 1u);
#ifdef READ_DATA_FIRST
  const uint r1 = load(locations + x1);
  delay(gap);
  const uint r0 = LOAD_FLAG(locations + y1);
#else
  const uint r0 = LOAD_FLAG(locations + y1);
  FENCE_1;
  const uint r1 = load(locations + x1);
#endif
  result1[0] = r0;
  result1[1] = r1;
}

static uint outcome(uint r0, uint r1, uint x, uint y) {
  return r0 > 1u || r1 > 1u || x != 1u || y != 1u ? OUTCOME_INVALID : r0 * 2u + r1;
}
