// Store buffering (SB). x and y start at 0.
//
//   thread 0                     thread 1
//   STORE(x, 1)                  STORE(y, 1)
//   FENCE                        FENCE
//   r0 = LOAD(y)                 r1 = LOAD(x)
//
// Outcome r0 * 2 + r1: 1 and 2 are the two orders, 3 an interleaving, 0
// (r0=0 r1=0) the weak outcome, the one store buffers give (x86 included).
// The OpenCL memory model forbids it with memory_order_seq_cst fences
// (atomic_work_item_fence(FLAGS, memory_order_seq_cst, SCOPE): the fences
// are totally ordered, so one thread's load comes after the other's store),
// and when the stores and loads are read-modify-writes with
// memory_order_acq_rel (atomic_exchange, atomic_fetch_add of 0: each RMW
// reads the last value of its location, and a release RMW read by an acquire
// one synchronizes). Acquire/release fences alone allow it.
//
// The test defines FENCE, STORE and LOAD; by default relaxed atomics
// (harness.h) and no fence.
#ifndef FENCE
#define FENCE
#endif
#ifndef STORE
#define STORE(p, v) store(p, v)
#endif
#ifndef LOAD
#define LOAD(p) load(p)
#endif

#include "harness.h"

static void litmus_body(LOCS locations, uint x0, uint y0, global uint* result0, uint x1, uint y1,
                        global uint* result1, uint gap) {
  STORE(locations + x0, 1u);
  FENCE;
  result0[0] = LOAD(locations + y0);
  STORE(locations + y1, 1u);
  FENCE;
  result1[1] = LOAD(locations + x1);
}

static uint outcome(uint r0, uint r1, uint x, uint y) {
  return r0 > 1u || r1 > 1u || x != 1u || y != 1u ? OUTCOME_INVALID : r0 * 2u + r1;
}
