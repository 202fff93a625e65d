// host/one_kernel_module: the module each kernel's pipeline is built from,
// on real modules from the compiler. Each kernel's module must keep its own
// entry point, function and __local variables, lose every other kernel's,
// and pass spirv-val for Vulkan (the shared oracle of
// tests/spirv/vulkan_environment.h). A driver that reserves every Workgroup
// variable of a module for each entry point (NVIDIA's) is the reason; the
// end-to-end case is the OpenCL API test ClTest.KernelsThatTogetherPassTheLocalMemoryRunAlone.
#include <gtest/gtest.h>


#include <algorithm>
#include <string>
#include <vector>

#include "compiler.h"
#include "one_kernel_module.h"
#include "vkcl/error.h"
#include "barrier_inspection.h"
#include "vulkan_environment.h"

namespace vkcl {
namespace {

using detail::one_kernel_module;

// Three kernels with __local variables of their own and one without. (clc
// inlines every function into its kernel, so each kernel is one function.)
constexpr const char* kSource = R"(
kernel void first(global float* out) {
  local float first_tile[64];
  first_tile[get_local_id(0)] = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = first_tile[63 - get_local_id(0)];
}
kernel void second(global float* out) {
  local float second_tile[128];
  second_tile[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = second_tile[127 - get_local_id(0)] * 2.0f;
}
kernel void third(global int* out) {
  local int third_tile[32];
  local int third_count;
  third_tile[get_local_id(0) % 32] = 1;
  if (get_local_id(0) == 0) third_count = get_local_size(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = third_tile[0] + third_count;
}
kernel void plain(global int* out) { out[get_global_id(0)] = 7; }
)";

std::vector<std::string> lines_with(const std::vector<std::string>& lines, std::string_view what) {
  std::vector<std::string> found;
  for (const std::string& line : lines)
    if (line.find(what) != std::string::npos) found.push_back(line);
  return found;
}

// The names of the Workgroup variables in `lines`: "%first_tile = OpVariable ... Workgroup" -> "first_tile".
std::vector<std::string> workgroup_variables(const std::vector<std::string>& lines) {
  std::vector<std::string> names;
  for (const std::string& line : lines_with(lines, "OpVariable")) {
    if (line.find(" Workgroup") == std::string::npos) continue;
    const size_t at = line.find('%');
    names.push_back(line.substr(at + 1, line.find(' ', at) - at - 1));
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OneKernelModule, EachKernelKeepsItsOwnLocalMemoryAndNoOtherKernel) {
  const std::vector<uint32_t> module = compile_opencl(kSource, "kernels.cl", CompileOptions{}).module.words;
  const std::vector<std::string> whole = testing::disassembled_lines(module);
  ASSERT_EQ(lines_with(whole, "OpEntryPoint").size(), 4u);
  ASSERT_EQ(workgroup_variables(whole).size(), 4u) << "the test needs each kernel's __local variables in the module";

  struct Case {
    const char* kernel;
    std::vector<std::string> locals;
  };
  for (const Case& c : {Case{"first", {"first_first_tile"}}, Case{"second", {"second_second_tile"}},
                        Case{"third", {"third_third_count", "third_third_tile"}}, Case{"plain", {}}}) {
    SCOPED_TRACE(c.kernel);
    const std::vector<uint32_t> alone = one_kernel_module(module, c.kernel);
    const std::vector<std::string> lines = testing::disassembled_lines(alone);
    const std::vector<std::string> entry_points = lines_with(lines, "OpEntryPoint");
    ASSERT_EQ(entry_points.size(), 1u);
    EXPECT_NE(entry_points[0].find(std::string("\"") + c.kernel + "\""), std::string::npos) << entry_points[0];
    for (const std::string& mode : lines_with(lines, "OpExecutionMode"))
      EXPECT_NE(mode.find(std::string("%") + c.kernel + " "), std::string::npos) << mode;
    EXPECT_EQ(workgroup_variables(lines), c.locals);
    // Other kernels' push-constant blocks go too (the validation layer checks
    // every one in the module against the pipeline's layout).
    const std::vector<std::string> blocks = lines_with(lines, "OpVariable %_ptr_PushConstant");
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_NE(blocks[0].find(std::string("%_ptr_PushConstant_") + c.kernel + "_push_constants "), std::string::npos)
        << blocks[0];
    for (const char* other : {"first", "second", "third", "plain"})
      if (std::string(other) != c.kernel)
        EXPECT_TRUE(lines_with(lines, std::string("%") + other + " = OpFunction").empty()) << other;
    for (const std::string& problem : testing::vulkan_environment_violations(alone, MemoryModel::Vulkan))
      ADD_FAILURE() << problem;
  }
}

TEST(OneKernelModule, AModuleOfOneKernelIsReturnedWordForWord) {
  const std::vector<uint32_t> module =
      compile_opencl("kernel void only(global int* p) { local int t[4]; t[0] = 1; p[0] = t[0]; }", "only.cl",
                     CompileOptions{})
          .module.words;
  EXPECT_EQ(one_kernel_module(module, "only"), module);
}

TEST(OneKernelModule, AnUnknownKernelIsAnError) {
  const std::vector<uint32_t> module = compile_opencl(kSource, "kernels.cl", CompileOptions{}).module.words;
  EXPECT_THROW(one_kernel_module(module, "fourth"), Error);
  EXPECT_THROW(one_kernel_module(std::vector<uint32_t>(module.begin(), module.begin() + 7), "first"), Error);
}

}  // namespace
}  // namespace vkcl
