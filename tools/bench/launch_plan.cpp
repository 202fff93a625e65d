// The launch-cost dispatches' arguments and their check (launch_cost.h),
// with no Vulkan in them, so that tests/bench can hold them to their promise.
#include <cstring>

#include "launch_cost.h"

namespace vkcl::bench {

LaunchArguments launch_arguments(uint32_t i) {
  return {i % kLaunchPool, (i + 1) % kLaunchPool, (i + 2) % kLaunchPool, i % kLaunchPool, i / kLaunchPool};
}

uint32_t launch_words(int dispatches) { return (uint32_t(dispatches) + kLaunchPool - 1) / kLaunchPool; }

std::string check_launch_outputs(const std::vector<std::vector<std::byte>>& outputs, int dispatches) {
  for (uint32_t i = 0; i < uint32_t(dispatches); ++i) {
    const LaunchArguments args = launch_arguments(i);
    if (outputs.at(args.d).size() < (args.slot + 1) * 4)
      return "output " + std::to_string(args.d) + " has " + std::to_string(outputs[args.d].size()) + " bytes, too few for dispatch " +
             std::to_string(i);
    uint32_t got;
    std::memcpy(&got, outputs.at(args.d).data() + args.slot * 4, 4);
    const uint32_t expected = (1u << args.a) + (1u << args.b) + (1u << args.c) + args.slot;
    if (got != expected)
      return "dispatch " + std::to_string(i) + " wrote " + std::to_string(got) + ", expected " + std::to_string(expected);
  }
  return "";
}

}  // namespace vkcl::bench
