// How an NDRange becomes dispatches, without a device: the splitting into
// uniform boxes, chunking by the group-count limit, local-size choice and the
// errors for ranges no device can run.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "vkcl/host.h"

namespace vkcl {
namespace {

DispatchLimits lavapipe_like() { return {{1024, 1024, 1024}, 1024, {65535, 65535, 65535}}; }

// Every work-group of the range is covered exactly once, with the right size.
void expect_covers(const DispatchPlan& plan) {
  std::map<std::array<uint32_t, 3>, std::array<uint32_t, 3>> seen;  // group id -> local size
  for (const Dispatch& d : plan.dispatches)
    for (uint32_t z = 0; z < d.group_count[2]; ++z)
      for (uint32_t y = 0; y < d.group_count[1]; ++y)
        for (uint32_t x = 0; x < d.group_count[0]; ++x) {
          // The first group is the dispatch's base or the offset the kernel adds, never both.
          std::array<uint32_t, 3> first = plan.offsets_in_kernel ? d.group_offset : d.base_group;
          std::array<uint32_t, 3> id{first[0] + x, first[1] + y, first[2] + z};
          EXPECT_TRUE(seen.emplace(id, d.local_size).second) << "group " << id[0] << "," << id[1] << "," << id[2] << " twice";
        }
  for (const Dispatch& d : plan.dispatches)
    for (int i = 0; i < 3; ++i) {
      if (plan.offsets_in_kernel) {
        EXPECT_EQ(d.base_group[i], 0u) << "dimension " << i;
        EXPECT_EQ(d.global_id_base[i], d.group_offset[i] * plan.enqueued_local[i] + plan.offset[i]) << "dimension " << i;
      } else {
        EXPECT_EQ(d.group_offset[i], 0u) << "dimension " << i;
        EXPECT_EQ(d.global_id_base[i], 0u) << "dimension " << i;
        EXPECT_EQ(plan.offset[i], 0u) << "a global offset is added in the kernel";
      }
    }
  uint64_t expected_groups = uint64_t(plan.num_groups[0]) * plan.num_groups[1] * plan.num_groups[2];
  EXPECT_EQ(seen.size(), expected_groups);
  for (const auto& [id, local] : seen)
    for (int d = 0; d < 3; ++d) {
      uint32_t begin = id[d] * plan.enqueued_local[d];
      uint32_t want = std::min(plan.enqueued_local[d], plan.global[d] - begin);
      EXPECT_EQ(local[d], want) << "dimension " << d << " of group " << id[0] << "," << id[1] << "," << id[2];
    }
}

TEST(NDRangePlan, UniformIsOneDispatch) {
  auto plan = plan_dispatch(NDRange::make({256}, {64}), lavapipe_like());
  ASSERT_EQ(plan.dispatches.size(), 1u);
  EXPECT_EQ(plan.dispatches[0].group_count, (std::array<uint32_t, 3>{4, 1, 1}));
  EXPECT_EQ(plan.dispatches[0].local_size, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(plan.num_groups, (std::array<uint32_t, 3>{4, 1, 1}));
  expect_covers(plan);
}

TEST(NDRangePlan, NonUniform1DAddsAnEdgeDispatch) {
  auto plan = plan_dispatch(NDRange::make({257}, {64}), lavapipe_like());
  ASSERT_EQ(plan.dispatches.size(), 2u);
  EXPECT_EQ(plan.dispatches[1].local_size[0], 1u);
  EXPECT_FALSE(plan.offsets_in_kernel);
  EXPECT_EQ(plan.dispatches[1].base_group[0], 4u);
  EXPECT_EQ(plan.num_groups[0], 5u);
  EXPECT_EQ(plan.enqueued_local[0], 64u);
  expect_covers(plan);
}

TEST(NDRangePlan, NonUniform2DHasFourBoxes) {
  auto plan = plan_dispatch(NDRange::make({33, 17}, {8, 8}), lavapipe_like());
  EXPECT_EQ(plan.dispatches.size(), 4u);
  EXPECT_EQ(plan.num_groups, (std::array<uint32_t, 3>{5, 3, 1}));
  expect_covers(plan);
}

TEST(NDRangePlan, NonUniform3DHasEightBoxes) {
  auto plan = plan_dispatch(NDRange::make({9, 10, 11}, {4, 4, 4}, {1, 2, 3}), lavapipe_like());
  EXPECT_EQ(plan.dispatches.size(), 8u);
  EXPECT_EQ(plan.offset, (std::array<uint32_t, 3>{1, 2, 3}));
  expect_covers(plan);
}

TEST(NDRangePlan, GlobalSmallerThanLocalIsOnlyAnEdge) {
  auto plan = plan_dispatch(NDRange::make({5}, {64}), lavapipe_like());
  ASSERT_EQ(plan.dispatches.size(), 1u);
  EXPECT_EQ(plan.dispatches[0].local_size[0], 5u);
  EXPECT_EQ(plan.enqueued_local[0], 64u);
  expect_covers(plan);
}

TEST(NDRangePlan, TooManyGroupsAreChunked) {
  DispatchLimits limits = lavapipe_like();
  limits.max_group_count = {1000, 3, 65535};
  auto plan = plan_dispatch(NDRange::make({2500 * 4 + 1, 7}, {4, 1}), limits);
  // x: 1000 + 1000 + 500 full groups and an edge; y: 3 + 3 + 1.
  EXPECT_EQ(plan.dispatches.size(), 4u * 3u);
  for (const Dispatch& d : plan.dispatches) {
    EXPECT_LE(d.group_count[0], 1000u);
    EXPECT_LE(d.group_count[1], 3u);
  }
  // vkCmdDispatchBase cannot place groups past maxComputeWorkGroupCount.
  EXPECT_TRUE(plan.offsets_in_kernel);
  expect_covers(plan);
}

// Without a global offset, and with every dispatch's groups inside
// maxComputeWorkGroupCount, each dispatch's first group is its
// vkCmdDispatchBase base and the kernel adds no offsets (the specialization
// constant kOffsetsInKernelSpecId is false); a global offset makes the
// kernel add them again.
TEST(NDRangePlan, WithoutAGlobalOffsetTheDispatchBasePlacesTheGroups) {
  auto plan = plan_dispatch(NDRange::make({33, 17}, {8, 8}), lavapipe_like());
  EXPECT_FALSE(plan.offsets_in_kernel);
  std::set<std::array<uint32_t, 3>> bases;
  for (const Dispatch& d : plan.dispatches) bases.insert(d.base_group);
  EXPECT_EQ(bases, (std::set<std::array<uint32_t, 3>>{{0, 0, 0}, {4, 0, 0}, {0, 2, 0}, {4, 2, 0}}));
  expect_covers(plan);
  EXPECT_TRUE(plan_dispatch(NDRange::make({33, 17}, {8, 8}, {0, 1}), lavapipe_like()).offsets_in_kernel);
  // The edge group of x starts at group 5 of at most 5: past what a base may reach.
  DispatchLimits limits = lavapipe_like();
  limits.max_group_count = {5, 65535, 65535};
  EXPECT_TRUE(plan_dispatch(NDRange::make({41}, {8}), limits).offsets_in_kernel);
  EXPECT_FALSE(plan_dispatch(NDRange::make({40}, {8}), limits).offsets_in_kernel);
}

TEST(NDRangePlan, UnusedDimensionsAreNormalized) {
  NDRange r{1, {100, 0, 0}, {10, 0, 0}, {0, 9, 9}};
  auto plan = plan_dispatch(r, lavapipe_like());
  EXPECT_EQ(plan.global, (std::array<uint32_t, 3>{100, 1, 1}));
  EXPECT_EQ(plan.enqueued_local, (std::array<uint32_t, 3>{10, 1, 1}));
  EXPECT_EQ(plan.offset, (std::array<uint32_t, 3>{0, 0, 0}));
  expect_covers(plan);
}

TEST(NDRangePlan, ZeroGlobalSizeRunsNothing) {
  auto plan = plan_dispatch(NDRange::make({0, 5}, {1, 1}), lavapipe_like());
  EXPECT_TRUE(plan.dispatches.empty());
}

TEST(NDRangePlan, ChoosesPowersOfTwoWithinBudget) {
  EXPECT_EQ(choose_local_size(NDRange::make({1 << 20}), lavapipe_like()), (std::array<uint32_t, 3>{256, 1, 1}));
  EXPECT_EQ(choose_local_size(NDRange::make({100}), lavapipe_like()), (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(choose_local_size(NDRange::make({33, 17}), lavapipe_like()), (std::array<uint32_t, 3>{32, 8, 1}));
  EXPECT_EQ(choose_local_size(NDRange::make({3, 3, 1000}), lavapipe_like()), (std::array<uint32_t, 3>{2, 2, 64}));
  DispatchLimits small = lavapipe_like();
  small.max_invocations = 128;
  small.max_local_size = {64, 64, 64};
  EXPECT_EQ(choose_local_size(NDRange::make({1000, 1000}), small), (std::array<uint32_t, 3>{64, 2, 1}));
}

// With the multiprocessor count known, a small range gets smaller groups,
// down to one sub-group, until each multiprocessor has one; large ranges
// keep 256-invocation groups.
TEST(NDRangePlan, ChosenLocalSizeSpreadsSmallRangesOverComputeUnits) {
  DispatchLimits h100 = lavapipe_like();
  h100.compute_units = 132;
  h100.subgroup_size = 32;
  // 32x24 (algo_mandelbrot_fixed): 24 groups of one sub-group, not 3 of 32x8.
  EXPECT_EQ(choose_local_size(NDRange::make({32, 24}), h100), (std::array<uint32_t, 3>{32, 1, 1}));
  EXPECT_EQ(choose_local_size(NDRange::make({1000}), h100), (std::array<uint32_t, 3>{32, 1, 1}));
  EXPECT_EQ(choose_local_size(NDRange::make({8192}), h100), (std::array<uint32_t, 3>{32, 1, 1}));  // 64 would leave 4 SMs idle
  EXPECT_EQ(choose_local_size(NDRange::make({1 << 20}), h100), (std::array<uint32_t, 3>{256, 1, 1}));
  EXPECT_EQ(choose_local_size(NDRange::make({4, 4, 100}), h100), (std::array<uint32_t, 3>{4, 4, 2}));
  // Unknown multiprocessors: as before.
  EXPECT_EQ(choose_local_size(NDRange::make({32, 24}), lavapipe_like()), (std::array<uint32_t, 3>{32, 8, 1}));
}

// The split dispatches' first global ids, with an offset: the edge box of
// x starts at group 4 (4 * 8 + 3), of y at group 2 (2 * 8 + 5).
TEST(NDRangePlan, EachDispatchHasItsFirstGlobalId) {
  auto plan = plan_dispatch(NDRange::make({33, 17}, {8, 8}, {3, 5}), lavapipe_like());
  std::set<std::array<uint32_t, 3>> bases;
  for (const Dispatch& d : plan.dispatches) bases.insert(d.global_id_base);
  EXPECT_EQ(bases, (std::set<std::array<uint32_t, 3>>{{3, 5, 0}, {35, 5, 0}, {3, 21, 0}, {35, 21, 0}}));
  expect_covers(plan);
}

// The compiler takes the enqueued local size from reqd_work_group_size, so
// the host must run no other, in any of the three dimensions.
TEST(NDRangePlan, RequiredWorkGroupSizeIsUsedAndEnforced) {
  auto plan = plan_dispatch(NDRange::make({100}), lavapipe_like(), {32, 1, 1});
  EXPECT_EQ(plan.enqueued_local, (std::array<uint32_t, 3>{32, 1, 1}));
  plan = plan_dispatch(NDRange::make({100, 9}), lavapipe_like(), {16, 4, 1});
  EXPECT_EQ(plan.enqueued_local, (std::array<uint32_t, 3>{16, 4, 1}));
  expect_covers(plan);
  const std::tuple<NDRange, std::array<uint32_t, 3>, const char*> refused[] = {
      {NDRange::make({100}, {64}), {32, 1, 1}, "local size 64 differs from the kernel's reqd_work_group_size 32x1x1"},
      {NDRange::make({100}), {16, 4, 1}, "1 dimension(s), but the kernel's reqd_work_group_size 16x4x1 needs 2"},
      {NDRange::make({100}, {16}), {16, 4, 1}, "1 dimension(s), but the kernel's reqd_work_group_size 16x4x1 needs 2"},
      {NDRange::make({100, 9}, {16, 4}), {16, 4, 2}, "2 dimension(s), but the kernel's reqd_work_group_size 16x4x2 needs 3"},
  };
  for (const auto& [range, required, words] : refused) {
    try {
      plan_dispatch(range, lavapipe_like(), required);
      ADD_FAILURE() << "expected an Error: " << words;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
}

// Each bad range with the words its error must contain.
TEST(NDRangePlan, BadRangesAreErrors) {
  const std::pair<NDRange, const char*> cases[] = {
      {NDRange{0, {1, 1, 1}}, "dims must be 1, 2 or 3, not 0"},
      {NDRange{4, {1, 1, 1}}, "dims must be 1, 2 or 3, not 4"},
      {NDRange::make({1ull << 32}), "exceeds 2^32 - 1"},
      {NDRange::make({16}, {}, {0xFFFFFFFFull}), "exceeds 2^32; work-item ids are 32-bit"},
      {NDRange::make({16, 16}, {8, 0}), "has a 0; give every dimension or none"},
      {NDRange::make({4096}, {2048}), "maxComputeWorkGroupSize[0] = 1024"},
      {NDRange::make({64, 64}, {64, 32}), "2048 work-items exceeds the device's maxComputeWorkGroupInvocations = 1024"},
  };
  for (const auto& [range, words] : cases) {
    try {
      plan_dispatch(range, lavapipe_like());
      ADD_FAILURE() << "expected an Error containing '" << words << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << "expected '" << words << "' in: " << e.what();
    }
  }
}

TEST(NDRangePlan, MakeChecksItsLists) {
  EXPECT_THROW(NDRange::make({}), Error);
  EXPECT_THROW(NDRange::make({1, 2}, {1}), Error);
  EXPECT_THROW(NDRange::make({1, 2, 3, 4}), Error);
}

TEST(Features, MissingFeaturesAreNamed) {
  ModuleFeatures needed, available;
  needed.buffer_device_address = needed.shader_float64 = needed.subgroup_basic = true;
  available.buffer_device_address = true;
  auto missing = missing_features(needed, available);
  EXPECT_EQ(missing, (std::vector<std::string_view>{"shader_float64", "subgroup_basic"}));
}

}  // namespace
}  // namespace vkcl
