// Coherence of read-read (CoRR). x starts at 0.
//
//   thread 0                     thread 1
//   x = 1                        r0 = x
//                                FENCE
//                                r1 = x
//
// Outcome r0 * 2 + r1: 0 and 3 are the two orders, 1 an interleaving, 2
// (r0=1 r1=0) the weak outcome: the second read went back in x's
// modification order. Every memory model with coherence forbids it for
// atomics, relaxed ones included, with or without the fence. With
// LITMUS_VOLATILE the accesses are plain volatile ones, which the OpenCL
// memory model leaves racy (undefined): a report of what the device does.
//
// The test defines FENCE; by default none.
#ifndef FENCE
#define FENCE
#endif

#include "harness.h"

static void litmus_body(LOCS locations, uint x0, uint y0, global uint* result0, uint x1, uint y1,
                        global uint* result1, uint gap) {
  store(locations + x0, 1u);
  const uint r0 = load(locations + x1);
  FENCE;
  const uint r1 = load(locations + x1);
  result1[0] = r0;
  result1[1] = r1;
}

static uint outcome(uint r0, uint r1, uint x, uint y) {
  return r0 > 1u || r1 > 1u || x != 1u || y != 0u ? OUTCOME_INVALID : r0 * 2u + r1;
}
