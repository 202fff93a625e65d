// The pass plumbing (spirv/pass_registry.def, spirv/passes.h): every pass is
// registered once under its file's name, a subset runs on its own, a bug in
// a pass is reported with the pass's name, and --print-after sees each pass.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include <spirv-tools/libspirv.hpp>

#include "compile_error.h"
#include "compiler.h"
#include "lower_to_vulkan.h"
#include "passes.h"

namespace vkcl {
namespace {

constexpr const char* kKernel = "kernel void copy(global const int* in, global int* out) {\n"
                                "  out[get_global_id(0)] = in[get_global_id(0)];\n}\n";

std::vector<uint32_t> kernel_spirv() {
  CompileOptions options;
  options.lower = false;
  return compile_opencl(kKernel, "copy.cl", options).kernel_spirv;
}

TEST(PassRegistry, EveryPassIsRegisteredOnceUnderItsFileName) {
  std::set<std::string_view> names;
  for (const spirv::PassInfo& pass : spirv::lowering_passes()) {
    EXPECT_TRUE(names.insert(pass.name).second) << pass.name << " twice";
    EXPECT_EQ(pass.make()->name(), pass.name);
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(VKCL_SPIRV_DIR) / (std::string(pass.name) + ".cpp")))
        << pass.name;
  }
  EXPECT_EQ(lowering_pass_names().size(), names.size());
  EXPECT_EQ(spirv::find_lowering_pass("no_such_pass"), nullptr);
}

class ThrowingPass final : public spirv::Pass {
 public:
  std::string_view name() const override { return "throwing_pass"; }
  void run(spirv::Module&, spirv::LoweringContext&) override { throw std::out_of_range("map::at"); }
};

TEST(PassRegistry, AnExceptionInAPassIsAnInternalErrorNamingThePass) {
  const spirv::PassInfo info{"throwing_pass", [] { return std::unique_ptr<spirv::Pass>(new ThrowingPass); }};
  spirv::Module module;
  spirv::LoweringContext context;
  try {
    spirv::run_pass(info, module, context);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("internal error: lowering pass 'throwing_pass' failed: map::at"),
              std::string::npos)
        << e.what();
  }
}

TEST(PassRegistry, AnUnknownPassNameIsAnError) {
  const std::vector<std::string> passes = {"strip_kernel_decorations", "no_such_pass"};
  try {
    run_lowering_passes(kernel_spirv(), {}, passes);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("no lowering pass is named 'no_such_pass'"), std::string::npos) << e.what();
  }
}

// One pass alone: its output is the module as that pass leaves it, and the
// hook sees exactly the passes that ran, in order.
TEST(PassRegistry, ASubsetRunsAloneInTheOrderGiven) {
  const std::vector<std::string> passes = {"strip_kernel_decorations", "lower_opencl_std"};
  std::vector<std::string> seen;
  VulkanModule module = run_lowering_passes(kernel_spirv(), {}, passes, [&](std::string_view pass, std::span<const uint32_t> words) {
    seen.emplace_back(pass);
    EXPECT_FALSE(words.empty());
  });
  EXPECT_EQ(seen, passes);
  EXPECT_FALSE(module.words.empty());
}

TEST(PassRegistry, TheWholeLoweringCallsTheHookAfterEveryPass) {
  std::vector<std::string_view> seen;
  lower_to_vulkan(kernel_spirv(), {}, [&](std::string_view pass, std::span<const uint32_t>) { seen.push_back(pass); });
  EXPECT_EQ(seen, lowering_pass_names());
}

// remove_unused_globals reads every annotation as OpDecorate/OpMemberDecorate
// on its first operand; a decoration group (which strip_kernel_decorations
// removes) is refused, not misread.
TEST(PassRegistry, RemoveUnusedGlobalsRefusesAnnotationsStripKernelDecorationsRemoves) {
  const char* assembly = R"(
               OpCapability Kernel
               OpCapability Addresses
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpDecorate %group Constant
      %group = OpDecorationGroup
               OpGroupDecorate %group %one
       %uint = OpTypeInt 32 0
        %one = OpConstant %uint 1
)";
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_2);
  std::vector<uint32_t> words;
  ASSERT_TRUE(tools.Assemble(assembly, &words));
  const std::vector<std::string> alone = {"remove_unused_globals"};
  try {
    run_lowering_passes(words, {}, alone);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("strip_kernel_decorations must run first"), std::string::npos) << e.what();
  }
  const std::vector<std::string> in_order = {"strip_kernel_decorations", "remove_unused_globals"};
  EXPECT_NO_THROW(run_lowering_passes(words, {}, in_order));
}

}  // namespace
}  // namespace vkcl
