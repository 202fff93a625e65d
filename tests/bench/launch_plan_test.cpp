// The launch-cost arguments (tools/bench/launch_cost.h) keep their promise:
// every argument changes at every dispatch, no two dispatches write one
// word, and the check finds a dispatch that wrote the wrong word.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <utility>

#include "launch_cost.h"

namespace vkcl::bench {
namespace {

constexpr int kDispatches = 1000;

// What a right run leaves in the output buffers.
std::vector<std::vector<std::byte>> right_outputs(int dispatches) {
  std::vector<std::vector<std::byte>> outputs(kLaunchPool, std::vector<std::byte>(launch_words(dispatches) * 4));
  for (uint32_t i = 0; i < uint32_t(dispatches); ++i) {
    const LaunchArguments a = launch_arguments(i);
    const uint32_t value = (1u << a.a) + (1u << a.b) + (1u << a.c) + a.slot;
    std::memcpy(outputs[a.d].data() + a.slot * 4, &value, 4);
  }
  return outputs;
}

TEST(LaunchArguments, EveryArgumentChangesAtEveryDispatch) {
  for (uint32_t i = 1; i < kDispatches; ++i) {
    const LaunchArguments before = launch_arguments(i - 1), now = launch_arguments(i);
    EXPECT_NE(before.a, now.a);
    EXPECT_NE(before.b, now.b);
    EXPECT_NE(before.c, now.c);
    EXPECT_NE(before.d, now.d);
    EXPECT_TRUE(now.a != now.b && now.b != now.c && now.a != now.c) << "dispatch " << i;
  }
}

TEST(LaunchArguments, NoTwoDispatchesWriteOneWord) {
  std::set<std::pair<uint32_t, uint32_t>> written;
  for (uint32_t i = 0; i < kDispatches; ++i) {
    const LaunchArguments a = launch_arguments(i);
    EXPECT_LT(a.slot, launch_words(kDispatches));
    EXPECT_TRUE(written.insert({a.d, a.slot}).second) << "dispatch " << i;
  }
}

TEST(CheckLaunchOutputs, AcceptsARightRunAndNamesAWrongDispatch) {
  std::vector<std::vector<std::byte>> outputs = right_outputs(kDispatches);
  EXPECT_EQ(check_launch_outputs(outputs, kDispatches), "");
  const LaunchArguments a = launch_arguments(517);
  outputs[a.d][a.slot * 4] ^= std::byte{1};
  EXPECT_NE(check_launch_outputs(outputs, kDispatches).find("dispatch 517 wrote"), std::string::npos);
}

TEST(CheckLaunchOutputs, SaysSoWhenAnOutputIsTooShort) {
  std::vector<std::vector<std::byte>> outputs = right_outputs(kDispatches);
  outputs[3].resize(4);
  EXPECT_NE(check_launch_outputs(outputs, kDispatches).find("too few"), std::string::npos);
}

}  // namespace
}  // namespace vkcl::bench
