// End to end on the device, without the compiler: ndrange_probe.comp records,
// for every work-item, what the OpenCL work-item functions return, and each
// range below is checked against a reference computed here.
#include <gtest/gtest.h>

#include <sstream>

#include "test_device.h"

namespace vkcl {
namespace {

constexpr uint32_t kRecordWords = 32;
constexpr uint32_t kTag = 0x5EED;

struct Case {
  NDRange range;
  std::string name;
};

std::string describe(const NDRange& r) {
  std::ostringstream s;
  auto triple = [&](const std::array<uint64_t, 3>& v) {
    for (uint32_t d = 0; d < r.dims; ++d) s << (d ? "x" : "") << v[d];
  };
  s << r.dims << "D global ";
  triple(r.global);
  s << " local ";
  triple(r.local);
  s << " offset ";
  triple(r.offset);
  return s.str();
}

// What every field of a record must be, from OpenCL's definitions.
std::vector<uint32_t> expected_record(const DispatchPlan& p, std::array<uint32_t, 3> rel, uint32_t scratch_length) {
  std::vector<uint32_t> r(kRecordWords, 0);
  std::array<uint32_t, 3> local_id, group_id, local_size;
  for (int d = 0; d < 3; ++d) {
    group_id[d] = rel[d] / p.enqueued_local[d];
    local_id[d] = rel[d] % p.enqueued_local[d];
    local_size[d] = std::min(p.enqueued_local[d], p.global[d] - group_id[d] * p.enqueued_local[d]);
    r[0 + d] = p.offset[d] + rel[d];
    r[3 + d] = local_id[d];
    r[6 + d] = group_id[d];
    r[9 + d] = local_size[d];
    r[12 + d] = p.enqueued_local[d];
    r[15 + d] = p.num_groups[d];
    r[18 + d] = p.global[d];
    r[21 + d] = p.offset[d];
  }
  uint32_t linear = local_id[0] + local_size[0] * (local_id[1] + local_size[1] * local_id[2]);
  uint32_t items = local_size[0] * local_size[1] * local_size[2];
  r[24] = p.dims;
  r[25] = kTag;
  r[26] = ((linear + 1) % items) * 3 + 1;
  r[27] = scratch_length;
  r[28] = 0xC0FFEE;
  return r;
}

const char* kFieldNames[] = {"global_id.x", "global_id.y", "global_id.z", "local_id.x", "local_id.y", "local_id.z",
                             "group_id.x", "group_id.y", "group_id.z", "local_size.x", "local_size.y", "local_size.z",
                             "enqueued_local_size.x", "enqueued_local_size.y", "enqueued_local_size.z",
                             "num_groups.x", "num_groups.y", "num_groups.z", "global_size.x", "global_size.y",
                             "global_size.z", "global_offset.x", "global_offset.y", "global_offset.z", "work_dim",
                             "tag", "neighbour in __local scratch", "scratch length", "written marker"};

// So that gtest names a failing case in words, not bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << describe(c.range); }

class NDRangeProbe : public ::testing::TestWithParam<Case> {};

TEST_P(NDRangeProbe, WorkItemFunctionsMatchOpenCL) {
  Device& dev = test::device();
  const NDRange& range = GetParam().range;
  DispatchPlan plan = plan_dispatch(range, dev.dispatch_limits());
  const uint64_t items = uint64_t(plan.global[0]) * plan.global[1] * plan.global[2];
  const uint32_t group_items = plan.enqueued_local[0] * plan.enqueued_local[1] * plan.enqueued_local[2];

  Program program(dev, test::shader("ndrange_probe"));
  Kernel kernel = program.kernel("ndrange_probe");
  Buffer records(dev, items * kRecordWords * 4);
  records.fill(std::byte{0});
  // The counter sits 64 bytes into its buffer: buffer offsets reach the kernel.
  Buffer counter(dev, 128);
  counter.fill(std::byte{0});
  kernel.set_arg(0, records);
  kernel.set_arg("counter", counter, 64);
  kernel.set_arg(2, kTag);
  kernel.set_local_arg("scratch", group_items * sizeof(uint32_t));
  dev.run(kernel, range);

  EXPECT_EQ(counter.read<uint32_t>(1, 64)[0], items) << "work-items that ran";
  EXPECT_EQ(counter.read<uint32_t>(1, 0)[0], 0u) << "the counter's buffer offset was ignored";
  auto got = records.read<uint32_t>(items * kRecordWords);
  int failures = 0;
  for (uint32_t z = 0; z < plan.global[2]; ++z)
    for (uint32_t y = 0; y < plan.global[1]; ++y)
      for (uint32_t x = 0; x < plan.global[0]; ++x) {
        size_t index = x + plan.global[0] * (y + size_t(plan.global[1]) * z);
        auto want = expected_record(plan, {x, y, z}, group_items);
        for (uint32_t f = 0; f < std::size(kFieldNames); ++f) {
          uint32_t value = got[index * kRecordWords + f];
          if (value != want[f] && ++failures <= 10)
            ADD_FAILURE() << describe(range) << ": work-item (" << x << "," << y << "," << z << ") from the offset: "
                          << kFieldNames[f] << " expected " << want[f] << ", got " << value;
        }
      }
  EXPECT_EQ(failures, 0) << describe(range);
}

std::vector<Case> cases() {
  std::vector<NDRange> ranges = {
      NDRange::make({256}, {64}),
      NDRange::make({257}, {64}),                      // non-uniform: 4 groups of 64 and one of 1
      NDRange::make({5}, {64}),                        // smaller than one group
      NDRange::make({100}, {}, {5}),                   // local chosen by the runtime, with an offset
      NDRange::make({1000}, {7}, {123456}),            // odd local size
      NDRange::make({33, 17}, {8, 8}),                 // 2-D non-uniform in both dimensions
      NDRange::make({64, 64}, {16, 16}, {3, 7}),
      NDRange::make({40, 3}, {1, 3}),
      NDRange::make({9, 10, 11}, {4, 4, 4}, {1, 2, 3}),  // 3-D: eight boxes
      NDRange::make({8, 8, 8}, {2, 2, 2}),
      NDRange::make({5, 6, 7}),                        // 3-D, local chosen
      NDRange::make({70000}, {1}),                     // more groups than lavapipe's 65535 per dispatch
  };
  std::vector<Case> out;
  for (size_t i = 0; i < ranges.size(); ++i) out.push_back({ranges[i], "case" + std::to_string(i)});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Ranges, NDRangeProbe, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(NDRangeProbe, KernelRunsAgainWithNewArguments) {
  Device& dev = test::device();
  Program program(dev, test::shader("ndrange_probe"));
  Kernel kernel = program.kernel("ndrange_probe");
  Buffer counter(dev, 4);
  Buffer records(dev, 64 * kRecordWords * 4);
  counter.fill(std::byte{0});
  kernel.set_arg(0, records);
  kernel.set_arg(1, counter);
  kernel.set_arg(2, kTag);
  kernel.set_local_arg(3, 64 * 4);
  for (int i = 0; i < 3; ++i) dev.run(kernel, NDRange::make({64}, {64}));
  Kernel copy = kernel;  // its own arguments, the same pipelines
  copy.set_arg(2, 7u);
  dev.run(copy, NDRange::make({63}, {64}));  // edge-only pipeline, new size
  EXPECT_EQ(counter.read<uint32_t>(1)[0], 3u * 64 + 63);
  EXPECT_EQ(records.read<uint32_t>(1, 25 * 4)[0], 7u);
}

TEST(NDRangeProbe, ZeroGlobalSizeIsANoOp) {
  Device& dev = test::device();
  Program program(dev, test::shader("ndrange_probe"));
  Kernel kernel = program.kernel("ndrange_probe");
  Buffer buffer(dev, 4);
  buffer.fill(std::byte{0});
  kernel.set_arg(0, buffer);
  kernel.set_arg(1, buffer);
  kernel.set_arg(2, kTag);
  kernel.set_local_arg(3, 4);
  dev.run(kernel, NDRange::make({0}, {1}));
  EXPECT_EQ(buffer.read<uint32_t>(1)[0], 0u);
}

}  // namespace
}  // namespace vkcl
