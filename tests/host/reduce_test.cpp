// shaders/examples/reduce.cl on the device: one partial sum per work-group,
// checked group by group against sums computed here. Inputs are small
// integers stored as floats, so every float sum is exact whatever the order.
//
// VKCL_REDUCE_SPV names the module: the clc build of reduce.cl, or the GLSL
// twin (tests/host/reduce_twin.comp) so the host is tested before clc exists.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "test_device.h"

namespace vkcl {
namespace {

enum class Shape { RoundedUp, NonUniform };

using Params = std::tuple<uint32_t /*n*/, uint32_t /*local*/, Shape>;

class Reduce : public ::testing::TestWithParam<Params> {};

TEST_P(Reduce, PartialSumsMatchTheHost) {
  const auto [n, local, shape] = GetParam();
  Device& dev = test::device();
  static Program program(dev, std::filesystem::path(VKCL_REDUCE_SPV));
  Kernel kernel = program.kernel("reduce");

  const uint32_t groups = (n + local - 1) / local;
  // Rounded up: every group is full and the kernel's `gid < n` guard pads the
  // tail with zeros. Non-uniform: the last group is smaller, and the tree must
  // use get_local_size, not the enqueued size.
  const uint64_t global = shape == Shape::RoundedUp ? uint64_t(groups) * local : n;

  std::vector<float> input(n);
  for (uint32_t i = 0; i < n; ++i) input[i] = static_cast<float>((i * 7u + 3u) % 8u);
  Buffer in(dev, n * sizeof(float));
  Buffer partial(dev, groups * sizeof(float));
  in.write(input);
  partial.fill(std::byte{0xFF});  // NaN: a group that never wrote shows up

  kernel.set_arg("input", in);
  kernel.set_arg("partial_sums", partial);
  kernel.set_local_arg("scratch", local * sizeof(float));
  kernel.set_arg("n", n);
  dev.run(kernel, NDRange::make({global}, {local}));

  auto got = partial.read<float>(groups);
  double gpu_total = 0, host_total = 0;
  int failures = 0;
  for (uint32_t g = 0; g < groups; ++g) {
    double want = 0;
    for (uint32_t i = g * local; i < std::min(n, (g + 1) * local); ++i) want += input[i];
    host_total += want;
    gpu_total += got[g];
    if (!(got[g] == want) && ++failures <= 5)
      ADD_FAILURE() << "n=" << n << " local=" << local << " global=" << global << ": group " << g << " of " << groups
                    << " expected " << want << ", got " << got[g];
  }
  EXPECT_EQ(gpu_total, host_total) << "n=" << n << " local=" << local << " global=" << global;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, Reduce,
    ::testing::Combine(::testing::Values(1u, 255u, 256u, 257u, 4096u, 1u << 20), ::testing::Values(1u, 64u, 256u),
                       ::testing::Values(Shape::RoundedUp, Shape::NonUniform)),
    [](const ::testing::TestParamInfo<Params>& info) {
      return "n" + std::to_string(std::get<0>(info.param)) + "_local" + std::to_string(std::get<1>(info.param)) +
             (std::get<2>(info.param) == Shape::RoundedUp ? "_rounded" : "_nonuniform");
    });

}  // namespace
}  // namespace vkcl
