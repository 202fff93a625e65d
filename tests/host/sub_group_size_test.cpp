// intel_reqd_sub_group_size(N) on the device: where the device can require N
// in compute shaders (Vulkan 1.3 or VK_EXT_subgroup_size_control, the
// subgroupSizeControl feature, compute in requiredSubgroupSizeStages,
// minSubgroupSize <= N <= maxSubgroupSize), get_max_sub_group_size() is N,
// get_sub_group_size() is N but for the last sub-group of a work-group, and
// the collectives work over sub-groups of N; elsewhere Program::kernel
// refuses the kernel with an Error naming the size and what the device
// offers, and the module's other kernels still run. On lavapipe (Mesa 22.3)
// the only size is 8.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

constexpr const char* kSource = R"CL(
// Each work-item records what it sees of its sub-group, and the sum of the
// inputs over it.
__kernel __attribute__((intel_reqd_sub_group_size(SIZE)))
void sizes(__global const uint* in, __global uint* out) {
  const size_t g = get_global_id(0);
  __global uint* o = out + g * 5;
  o[0] = get_max_sub_group_size();
  o[1] = get_sub_group_size();
  o[2] = get_sub_group_id();
  o[3] = get_sub_group_local_id();
  o[4] = sub_group_reduce_add(in[g]);
}

__kernel void unconstrained(__global uint* out) { out[get_global_id(0)] = get_global_id(0) + 1; }
)CL";

// Every size the tests here build kSource for, on any device: the powers of
// two up to 128 (Vulkan's sub-group sizes are powers of two, at most 128)
// and, from 4 on, the number below each (max_size - 1, no power of two).
// Which of them a test runs depends on the device's sub-group sizes, but a
// GPU run of a build without the compiler only replays the modules a run on
// lavapipe recorded in VKCL_MODULE_CACHE (tools/gpu-bundle.sh): so build()
// first compiles the module of every size here, and the recording run keeps
// them all, whichever this device needs.
const std::vector<uint32_t> kSizes = {1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128};

CompileOptions options_for(uint32_t size) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  options.defines = {"SIZE=" + std::to_string(size)};
  return options;
}

Program build(uint32_t size) {
  static const bool every_size_compiled = [] {
    for (uint32_t n : kSizes) compile_module_for(test::device().features(), kSource, "sub_group_size.cl", options_for(n));
    return true;
  }();
  (void)every_size_compiled;
  if (std::ranges::find(kSizes, size) == kSizes.end())
    ADD_FAILURE() << "sub-group size " << size << " is not in kSizes: a run elsewhere would not have recorded it";
  return build_program(test::device(), kSource, "sub_group_size.cl", options_for(size));
}

bool is_lavapipe() { return test::device().name().find("llvmpipe") != std::string::npos; }

const SubgroupSizeControl& control() {
  static const SubgroupSizeControl c = test::device().info().subgroup_size_control;
  return c;
}

// The sizes this device can require in compute shaders.
std::vector<uint32_t> honoured_sizes() {
  std::vector<uint32_t> sizes;
  for (uint32_t n = 1; n <= 128; n *= 2)
    if (control().refusal(n).empty()) sizes.push_back(n);
  return sizes;
}

// Runs `sizes` over `global` work-items in groups of `local` and checks every
// work-item's record against sub-groups of `n` numbered from local id 0.
void check_sizes(Kernel& kernel, uint32_t n, uint32_t global, uint32_t local) {
  SCOPED_TRACE("sub-group size " + std::to_string(n) + ", global " + std::to_string(global) + ", local " +
               std::to_string(local));
  std::vector<uint32_t> in(global);
  for (uint32_t i = 0; i < global; ++i) in[i] = i * 7 % 31 + 1;
  Buffer input(test::device(), global * 4), output(test::device(), global * 5 * 4);
  input.write(in);
  output.fill(uint8_t(0xff));
  kernel.set_arg("in", input);
  kernel.set_arg("out", output);
  test::device().run(kernel, NDRange::make({global}, {local}));
  const std::vector<uint32_t> o = output.read<uint32_t>(global * 5);
  for (uint32_t g = 0; g < global; ++g) {
    const uint32_t group_begin = g / local * local, items = std::min(local, global - group_begin);
    const uint32_t l = g - group_begin, id = l / n, first = group_begin + id * n;
    const uint32_t size = std::min(n, items - id * n);
    uint32_t sum = 0;
    for (uint32_t i = first; i < first + size; ++i) sum += in[i];
    const uint32_t* r = &o[g * 5];
    ASSERT_EQ(r[0], n) << "get_max_sub_group_size() of work-item " << g;
    ASSERT_EQ(r[1], size) << "get_sub_group_size() of work-item " << g;
    ASSERT_EQ(r[2], id) << "get_sub_group_id() of work-item " << g;
    ASSERT_EQ(r[3], l % n) << "get_sub_group_local_id() of work-item " << g;
    ASSERT_EQ(r[4], sum) << "sub_group_reduce_add() of work-item " << g;
  }
}

TEST(SubGroupSize, LavapipeCanRequireEight) {
  if (!is_lavapipe()) GTEST_SKIP() << "lavapipe's sizes: " << test::device().name();
  EXPECT_TRUE(control().supported && control().feature);
  EXPECT_EQ(control().min_size, 8u);
  EXPECT_EQ(control().max_size, 8u);
  EXPECT_TRUE(control().required_size_stages & VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(honoured_sizes(), std::vector<uint32_t>{8});
  EXPECT_NE(test::device().info().describe().find("sub-group size control: sizes 8..8 required in stages compute"),
            std::string::npos)
      << test::device().info().describe();
}

TEST(SubGroupSize, RequiredSizeIsTheSubGroupSize) {
  const ModuleFeatures& features = test::device().features();
  if (!features.subgroup_arithmetic) GTEST_SKIP() << "the device lacks sub-group arithmetic";
  const std::vector<uint32_t> sizes = honoured_sizes();
  if (sizes.empty()) GTEST_SKIP() << "the device can require no sub-group size: " << control().refusal(8);
  for (uint32_t n : sizes) {
    Program program = build(n);
    EXPECT_EQ(program.reflection().find_kernel("sizes")->required_sub_group_size, n);
    Kernel kernel = program.kernel("sizes");
    check_sizes(kernel, n, 128, 32);          // whole sub-groups
    check_sizes(kernel, n, 100, 60);          // a partial last sub-group, and an edge work-group of 40
    check_sizes(kernel, n, 3 * n + 1, 2 * n);  // an edge work-group of n + 1
  }
}

TEST(SubGroupSize, SizeTheDeviceCannotHonourIsRefusedNamingTheSizes) {
  // The smallest power of two in kSizes beyond the largest size the device
  // has (lavapipe: 16, where it has 8..8), else any power of two there it
  // cannot require.
  const uint32_t largest = std::max(control().max_size, test::device().info().subgroup_size);
  uint32_t n = 0;
  for (uint32_t m = 1; m <= 128 && n == 0; m *= 2)
    if (m > largest && !control().refusal(m).empty()) n = m;
  for (uint32_t m = 1; m <= 128 && n == 0; m *= 2)
    if (!control().refusal(m).empty()) n = m;
  if (n == 0) GTEST_SKIP() << "the device can require every sub-group size from 1 to 128";
  Program program = build(n);  // the module loads; the kernel is refused
  const std::string why = control().refusal(n);
  ASSERT_FALSE(why.empty());
  const std::string size = "kernel 'sizes' requires sub-group size " + std::to_string(n) + " (intel_reqd_sub_group_size)";
  if (is_lavapipe()) {
    EXPECT_EQ(n, 16u);
    test::expect_error([&] { program.kernel("sizes"); }, {size, ", but the device's sub-group sizes are 8..8", "llvmpipe"});
  } else {
    test::expect_error([&] { program.kernel("sizes"); }, {size, why});
  }
  // A size that is no power of two, where the range would allow it (max_size
  // is a power of two up to 128, so max_size - 1 is in kSizes).
  if (control().supported && control().feature && control().max_size > 2) {
    Program odd = build(control().max_size - 1);
    test::expect_error([&] { odd.kernel("sizes"); }, {"requires sub-group size " + std::to_string(control().max_size - 1),
                                                      "and Vulkan requires a power of two"});
  }

  // The module's other kernel is not affected.
  Kernel other = program.kernel("unconstrained");
  Buffer out(test::device(), 16 * 4);
  other.set_arg("out", out);
  test::device().run(other, NDRange::make({16}, {16}));
  std::vector<uint32_t> got = out.read<uint32_t>(16);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], i + 1);
}

TEST(SubGroupSize, WorkGroupOfTooManySubGroupsIsRefused) {
  const std::vector<uint32_t> sizes = honoured_sizes();
  if (sizes.empty()) GTEST_SKIP() << "the device can require no sub-group size";
  const uint32_t n = sizes.front();
  // One sub-group more than maxComputeWorkgroupSubgroups allows (lavapipe: 32 of 8, so 264 work-items).
  const uint64_t local = uint64_t(control().max_compute_workgroup_subgroups) * n + n;
  const DispatchLimits limits = test::device().dispatch_limits();
  if (local > limits.max_invocations || local > limits.max_local_size[0])
    GTEST_SKIP() << "the device's work-group limits come first";
  Program program = build(n);
  Kernel kernel = program.kernel("sizes");
  Buffer in(test::device(), local * 4), out(test::device(), local * 5 * 4);
  kernel.set_arg("in", in);
  kernel.set_arg("out", out);
  test::expect_error([&] { test::device().run(kernel, NDRange::make({local}, {local})); },
                     {"kernel 'sizes'", "sub-groups of " + std::to_string(n),
                      "maxComputeWorkgroupSubgroups = " + std::to_string(control().max_compute_workgroup_subgroups)});
}

}  // namespace
}  // namespace vkcl
