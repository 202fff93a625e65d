// host/preserve_denormals: the DenormPreserve execution modes the runtime adds
// to a module clc wrote, on real modules from the compiler. Each case shows
// the instructions it expects added; everything else in the disassembly must
// be as it was, and the result must pass spirv-val for Vulkan 1.1, 1.2 and 1.3
// (the shared oracle of tests/spirv/vulkan_environment.h). lavapipe cannot
// preserve subnormals, so this is where the rewrite itself is tested.
#include <gtest/gtest.h>


#include <algorithm>
#include <string>
#include <vector>

#include "compiler.h"
#include "preserve_denormals.h"
#include "vkcl/error.h"
#include "barrier_inspection.h"
#include "vulkan_environment.h"

namespace vkcl {
namespace {

using detail::DenormWidths;
using detail::preserve_denormals;

constexpr DenormWidths k32{.float32 = true};
constexpr DenormWidths k32And64{.float32 = true, .float64 = true};
constexpr DenormWidths kAll{.float16 = true, .float32 = true, .float64 = true};

// Two float kernels: every GLCompute entry point gets the mode.
constexpr const char* kFloatSource = R"(
kernel void halve(global float* p) { size_t i = get_global_id(0); p[i] = p[i] * 0.5f; }
kernel void step_down(global float* p) { size_t i = get_global_id(0); p[i] = nextafter(p[i], 0.0f); }
)";

// Float, double and half: capabilities Float64 and Float16.
constexpr const char* kWideSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void halve(global float* p) { size_t i = get_global_id(0); p[i] = p[i] * 0.5f; }
kernel void step_down(global double* d, global half* h) {
  size_t i = get_global_id(0);
  d[i] = nextafter(d[i], 0.0);
  h[i] = h[i] * (half)0.5;
}
)";

std::vector<uint32_t> compile(const char* source, MemoryModel model = MemoryModel::Vulkan) {
  CompileOptions options;
  options.memory_model = model;
  return compile_opencl(source, "denormals.cl", options).module.words;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "  " + line + "\n";
  return text;
}

// `after` is `before` with exactly the lines `added` inserted (anywhere the
// validator accepts), and a valid Vulkan module under `model`.
void expect_added(const std::vector<uint32_t>& before, const std::vector<uint32_t>& after,
                  const std::vector<std::string>& added, MemoryModel model = MemoryModel::Vulkan) {
  std::vector<std::string> rest = testing::disassembled_lines(after);
  for (const std::string& line : added) {
    auto found = std::find(rest.begin(), rest.end(), line);
    if (found == rest.end()) {
      ADD_FAILURE() << "expected '" << line << "' in:\n" << joined(testing::disassembled_lines(after));
      continue;
    }
    rest.erase(found);
  }
  EXPECT_EQ(joined(rest), joined(testing::disassembled_lines(before))) << "the rewrite changed more than it added";
  for (const std::string& problem : testing::vulkan_environment_violations(after, model)) ADD_FAILURE() << problem;
}

TEST(PreserveDenormals, Float32OnEveryEntryPointWithCapabilityAndExtension) {
  for (MemoryModel model : {MemoryModel::Vulkan, MemoryModel::GLSL450}) {
    SCOPED_TRACE(model == MemoryModel::Vulkan ? "Vulkan memory model" : "GLSL450 memory model");
    const std::vector<uint32_t> module = compile(kFloatSource, model);
    ASSERT_LT(module[1], 0x10400u) << "clc's modules are SPIR-V 1.3, which needs the extension";
    const std::vector<std::string> added = {
        "OpCapability DenormPreserve",
        "OpExtension \"SPV_KHR_float_controls\"",
        "OpExecutionMode %halve DenormPreserve 32",
        "OpExecutionMode %step_down DenormPreserve 32",
    };
    expect_added(module, preserve_denormals(module, k32), added, model);
    // Without Float16 and Float64 capabilities, 16 and 64 add nothing.
    EXPECT_EQ(preserve_denormals(module, kAll), preserve_denormals(module, k32));
  }
}

TEST(PreserveDenormals, Float64FollowsTheFloat64Capability) {
  const std::vector<uint32_t> module = compile(kWideSource);
  expect_added(module, preserve_denormals(module, k32And64),
               {
                   "OpCapability DenormPreserve",
                   "OpExtension \"SPV_KHR_float_controls\"",
                   "OpExecutionMode %halve DenormPreserve 32",
                   "OpExecutionMode %halve DenormPreserve 64",
                   "OpExecutionMode %step_down DenormPreserve 32",
                   "OpExecutionMode %step_down DenormPreserve 64",
               });
  expect_added(module, preserve_denormals(module, DenormWidths{.float64 = true}),
               {
                   "OpCapability DenormPreserve",
                   "OpExtension \"SPV_KHR_float_controls\"",
                   "OpExecutionMode %halve DenormPreserve 64",
                   "OpExecutionMode %step_down DenormPreserve 64",
               });
}

TEST(PreserveDenormals, Float16FollowsTheFloat16Capability) {
  const std::vector<uint32_t> module = compile(kWideSource);
  expect_added(module, preserve_denormals(module, kAll),
               {
                   "OpCapability DenormPreserve",
                   "OpExtension \"SPV_KHR_float_controls\"",
                   "OpExecutionMode %halve DenormPreserve 16",
                   "OpExecutionMode %halve DenormPreserve 32",
                   "OpExecutionMode %halve DenormPreserve 64",
                   "OpExecutionMode %step_down DenormPreserve 16",
                   "OpExecutionMode %step_down DenormPreserve 32",
                   "OpExecutionMode %step_down DenormPreserve 64",
               });
}

TEST(PreserveDenormals, NothingAskedLeavesTheModuleAsItIs) {
  const std::vector<uint32_t> module = compile(kFloatSource);
  EXPECT_EQ(preserve_denormals(module, DenormWidths{}), module);
  // 16 and 64 only: this module has neither width.
  EXPECT_EQ(preserve_denormals(module, DenormWidths{.float16 = true, .float64 = true}), module);
}

TEST(PreserveDenormals, AModuleThatAlreadyHasTheModesIsLeftUnchanged) {
  const std::vector<uint32_t> module = compile(kWideSource);
  const std::vector<uint32_t> once = preserve_denormals(module, k32And64);
  ASSERT_NE(once, module);
  EXPECT_EQ(preserve_denormals(once, k32And64), once);
  EXPECT_EQ(preserve_denormals(once, k32), once);

  // Where 32 is already there, only 64 comes in, without a second capability or extension.
  const std::vector<uint32_t> only32 = preserve_denormals(module, k32);
  expect_added(only32, preserve_denormals(only32, k32And64),
               {"OpExecutionMode %halve DenormPreserve 64", "OpExecutionMode %step_down DenormPreserve 64"});
}

TEST(PreserveDenormals, AFlushToZeroModeOfThatWidthIsKept) {
  // DenormFlushToZero 32 on both entry points (and its capability), as a
  // module built for flushing would have them: asked for 32, nothing changes.
  std::vector<uint32_t> flushing = preserve_denormals(compile(kFloatSource), k32);
  int modes = 0;
  for (size_t i = 5; i < flushing.size(); i += flushing[i] >> 16) {
    const uint32_t opcode = flushing[i] & 0xffff;
    if (opcode == 16 && flushing[i + 2] == 4459) {  // OpExecutionMode DenormPreserve -> DenormFlushToZero
      flushing[i + 2] = 4460;
      ++modes;
    }
    if (opcode == 17 && flushing[i + 1] == 4464) flushing[i + 1] = 4465;  // the capability likewise
  }
  ASSERT_EQ(modes, 2);
  const std::vector<std::string> text = testing::disassembled_lines(flushing);
  ASSERT_NE(std::find(text.begin(), text.end(), "OpExecutionMode %halve DenormFlushToZero 32"), text.end())
      << joined(text);
  EXPECT_EQ(preserve_denormals(flushing, k32), flushing);
}

TEST(PreserveDenormals, Spirv14NeedsNoExtension) {
  // The same module marked SPIR-V 1.4, where float controls are core: the
  // capability and modes only. (Not validated: 1.4 has other rules this 1.3
  // module does not follow.)
  std::vector<uint32_t> module = compile(kFloatSource);
  module[1] = 0x10400;
  const std::vector<std::string> after = testing::disassembled_lines(preserve_denormals(module, k32));
  EXPECT_NE(std::find(after.begin(), after.end(), "OpCapability DenormPreserve"), after.end()) << joined(after);
  EXPECT_NE(std::find(after.begin(), after.end(), "OpExecutionMode %halve DenormPreserve 32"), after.end());
  EXPECT_EQ(std::count_if(after.begin(), after.end(), [](const std::string& l) { return l.find("float_controls") != std::string::npos; }), 0)
      << joined(after);
}

TEST(PreserveDenormals, MalformedModuleIsAnError) {
  std::vector<uint32_t> module = compile(kFloatSource);
  module[5] &= 0xffff;  // a word count of 0
  EXPECT_THROW(preserve_denormals(module, k32), Error);
}

// SignedZeroInfNanPreserve, alone and after DenormPreserve (as Program adds
// them): one extension for both, each capability once, each width's mode.
TEST(PreserveSignedZeros, BesideDenormPreserveOnEveryEntryPoint) {
  const std::vector<uint32_t> module = compile(kWideSource);
  expect_added(module, detail::preserve_signed_zeros(module, k32And64),
               {
                   "OpCapability SignedZeroInfNanPreserve",
                   "OpExtension \"SPV_KHR_float_controls\"",
                   "OpExecutionMode %halve SignedZeroInfNanPreserve 32",
                   "OpExecutionMode %halve SignedZeroInfNanPreserve 64",
                   "OpExecutionMode %step_down SignedZeroInfNanPreserve 32",
                   "OpExecutionMode %step_down SignedZeroInfNanPreserve 64",
               });
  const std::vector<uint32_t> both = detail::preserve_signed_zeros(preserve_denormals(module, k32), k32);
  expect_added(module, both,
               {
                   "OpCapability DenormPreserve",
                   "OpCapability SignedZeroInfNanPreserve",
                   "OpExtension \"SPV_KHR_float_controls\"",
                   "OpExecutionMode %halve DenormPreserve 32",
                   "OpExecutionMode %step_down DenormPreserve 32",
                   "OpExecutionMode %halve SignedZeroInfNanPreserve 32",
                   "OpExecutionMode %step_down SignedZeroInfNanPreserve 32",
               });
  EXPECT_EQ(detail::preserve_signed_zeros(both, k32), both) << "a mode already declared is not declared again";
  ModuleFeatures device;
  EXPECT_FALSE(detail::signed_zero_preserve_widths(device).any());
  device.signed_zero_inf_nan_preserve_float32 = true;
  EXPECT_TRUE(detail::signed_zero_preserve_widths(device).float32);
}

// What a Program asks for: the device's widths, none when the device has
// none (lavapipe) or the module was built with -cl-denorms-are-zero.
TEST(DenormPreserveWidths, FollowTheDeviceAndTheBuildOption) {
  ModuleReflection reflection;
  ModuleFeatures device;
  EXPECT_FALSE(detail::denorm_preserve_widths(device, reflection).any());
  const std::vector<uint32_t> module = compile(kWideSource);
  EXPECT_EQ(preserve_denormals(module, detail::denorm_preserve_widths(device, reflection)), module)
      << "a device without the feature must get the module as written";

  device.denorm_preserve_float32 = true;
  DenormWidths widths = detail::denorm_preserve_widths(device, reflection);
  EXPECT_TRUE(widths.float32);
  EXPECT_FALSE(widths.float16 || widths.float64);
  device.denorm_preserve_float16 = device.denorm_preserve_float64 = true;
  widths = detail::denorm_preserve_widths(device, reflection);
  EXPECT_TRUE(widths.float16 && widths.float32 && widths.float64);

  reflection.denorms_are_zero = true;
  EXPECT_FALSE(detail::denorm_preserve_widths(device, reflection).any());
}

}  // namespace
}  // namespace vkcl
