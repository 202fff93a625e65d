// The host side of the litmus harness (shaders/litmus/harness.h): the
// per-dispatch random placement and stress parameters, the buffers, and the
// loop that runs a litmus kernel and its classify kernel until the requested
// number of instances, counting every outcome.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "conformance.h"

namespace vkcl::conformance::litmus {

enum class Placement { Global, GlobalWorkGroup, Local };
const char* placement_define(Placement placement);  // LITMUS_GLOBAL, ...

// The words of params, as harness.h numbers them.
enum Param : uint32_t {
  kTestingGroups = 0, kGroups, kLocalSize, kStride, kPermuteFirst, kPermuteSecond, kStripeRotation, kPreBarrier,
  kPreStress, kPreStressPattern, kMemStress, kMemStressPattern, kGap, kSpinPolls, kHeader = 16,
};
constexpr uint32_t kOutcomes = 4;  // OUTCOMES; counts[kOutcomes] counts invalid results

struct Counts {
  std::array<uint64_t, kOutcomes + 1> outcomes{};
  uint64_t instances = 0;   // the instances the dispatches ran
  uint64_t dispatches = 0;
  double gpu_seconds = 0;   // from timestamps, when the device has them
  double seconds = 0;       // wall clock
  bool cut_short = false;   // stopped by --litmus-seconds before the target
  uint64_t counted() const {
    uint64_t total = 0;
    for (uint64_t c : outcomes) total += c;
    return total;
  }
};

// Runs `program`'s litmus and classify kernels with `options`; `seed`
// varies the random draws per test. No submission starts after
// `seconds` (the first always does).
Counts run(Program& program, Placement placement, const LitmusOptions& options, uint64_t seed, double seconds);

}  // namespace vkcl::conformance::litmus
