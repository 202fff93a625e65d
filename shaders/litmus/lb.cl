// Load buffering (LB). x and y start at 0.
//
//   thread 0                     thread 1
//   r0 = LOAD(x)                 r1 = LOAD(y)
//   FENCE                        FENCE
//   STORE(y, 1)                  STORE(x, 1)
//
// Outcome r0 * 2 + r1: 1 and 2 are the two orders, 0 an interleaving, 3
// (r0=1 r1=1) the weak outcome: each load read the store that comes after
// the other load. The OpenCL memory model forbids it with acquire-release
// fences at a scope that includes both threads (a release fence before one
// thread's store, read by the other's load before its acquire fence, makes
// the first load happen before the store it would have read), and with
// acquire loads and release stores; relaxed accesses without fences allow it.
//
// The test defines FENCE, STORE and LOAD; by default relaxed atomics and no fence.
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
  result0[0] = LOAD(locations + x0);
  FENCE;
  STORE(locations + y0, 1u);
  result1[1] = LOAD(locations + y1);
  FENCE;
  STORE(locations + x1, 1u);
}

static uint outcome(uint r0, uint r1, uint x, uint y) {
  return r0 > 1u || r1 > 1u || x != 1u || y != 1u ? OUTCOME_INVALID : r0 * 2u + r1;
}
