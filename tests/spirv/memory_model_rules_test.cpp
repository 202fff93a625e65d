// What each memory model demands of a module beyond its barriers:
//  - spirv/check_memory_semantics rejects every semantics value the Vulkan
//    rules newer than Debian's spirv-val forbid (each rule has a module here
//    that breaks only it, and one module that breaks none);
//  - under GLSL450, global accesses that a global fence orders are Coherent;
//    under the Vulkan memory model they are NonPrivatePointer instead.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <spirv-tools/libspirv.hpp>

#include "check_memory_semantics.h"
#include "compiler.h"
#include "module.h"

namespace vkcl::testing {
namespace {

// A compute module whose one instruction is `OpMemoryBarrier %scope %semantics`.
std::vector<uint32_t> module_with_fence(uint32_t scope, uint32_t semantics, bool vulkan_memory_model,
                                        bool group_non_uniform = false) {
  std::string text = "OpCapability Shader\n";
  if (vulkan_memory_model) text += "OpCapability VulkanMemoryModel\n";
  if (group_non_uniform) text += "OpCapability GroupNonUniform\n";
  if (vulkan_memory_model) text += "OpExtension \"SPV_KHR_vulkan_memory_model\"\n";
  text += std::string("OpMemoryModel Logical ") + (vulkan_memory_model ? "Vulkan" : "GLSL450") + "\n";
  text += "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
          "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
          "%scope = OpConstant %uint " + std::to_string(scope) + "\n"
          "%semantics = OpConstant %uint " + std::to_string(semantics) + "\n"
          "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpMemoryBarrier %scope %semantics\nOpReturn\nOpFunctionEnd\n";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << text;
  return words;
}

std::string violations_of(const std::vector<uint32_t>& words) {
  std::string text;
  for (const std::string& v : spirv::memory_semantics_violations(words)) text += v + "\n";
  return text;
}

constexpr uint32_t kWorkgroupScope = 2, kSubgroupScope = 3, kInvocationScope = 4;
constexpr uint32_t kAcquire = 0x2, kRelease = 0x4, kAcqRel = 0x8, kSeqCst = 0x10, kUniform = 0x40, kWorkgroup = 0x100,
                   kCrossWorkgroup = 0x200, kImage = 0x800, kAvailable = 0x2000, kVisible = 0x4000;

struct BrokenRule {
  const char* rule;
  uint32_t scope;
  uint32_t semantics;
  bool vulkan_memory_model;
};

class MemorySemanticsRules : public ::testing::TestWithParam<BrokenRule> {};

TEST_P(MemorySemanticsRules, RejectsTheModuleThatBreaksIt) {
  const BrokenRule& c = GetParam();
  std::string got = violations_of(module_with_fence(c.scope, c.semantics, c.vulkan_memory_model));
  EXPECT_NE(got.find(c.rule), std::string::npos) << "expected \"" << c.rule << "\", got:\n" << got;
}

INSTANTIATE_TEST_SUITE_P(
    Vulkan14, MemorySemanticsRules,
    ::testing::Values(
        BrokenRule{"SequentiallyConsistent is forbidden", kWorkgroupScope, kSeqCst | kWorkgroup, false},
        BrokenRule{"SequentiallyConsistent is forbidden", kWorkgroupScope, kSeqCst | kWorkgroup, true},
        BrokenRule{"CrossWorkgroupMemory is ignored", kWorkgroupScope, kAcqRel | kCrossWorkgroup | kUniform, false},
        BrokenRule{"more than one of Acquire, Release and AcquireRelease", kWorkgroupScope,
                   kAcquire | kRelease | kWorkgroup, false},
        BrokenRule{"an ordering bit without a storage-class bit", kWorkgroupScope, kAcqRel, false},
        BrokenRule{"a storage-class bit without an ordering bit", kWorkgroupScope, kUniform, false},
        BrokenRule{"MakeAvailable without Release or AcquireRelease", kWorkgroupScope,
                   kAcquire | kWorkgroup | kAvailable, true},
        BrokenRule{"MakeVisible without Acquire or AcquireRelease", kWorkgroupScope, kRelease | kWorkgroup | kVisible,
                   true},
        BrokenRule{"Invocation memory scope with memory semantics other than None", kInvocationScope, kAcqRel | kImage,
                   true}),
    [](const ::testing::TestParamInfo<BrokenRule>& info) { return "rule" + std::to_string(info.index); });

TEST(MemorySemanticsRules, AvailabilityOutsideTheVulkanMemoryModelIsRejected) {
  // spirv-val itself refuses MakeAvailable without the VulkanMemoryModel capability, so build the words by hand.
  std::vector<uint32_t> words = module_with_fence(kWorkgroupScope, kAcqRel | kWorkgroup | kAvailable, true);
  spirv::Module m = spirv::Module::parse(words);
  m.memory_model.front().words[1] = uint32_t(spv::MemoryModel::GLSL450);
  EXPECT_NE(violations_of(m.serialize()).find("MakeAvailable/MakeVisible outside the Vulkan memory model"),
            std::string::npos);
}

TEST(MemorySemanticsRules, SubgroupScopeNeedsGroupNonUniform) {
  EXPECT_NE(violations_of(module_with_fence(kSubgroupScope, kAcqRel | kWorkgroup | kAvailable | kVisible, true))
                .find("Subgroup scope without the GroupNonUniform capability"),
            std::string::npos);
  EXPECT_EQ(violations_of(module_with_fence(kSubgroupScope, kAcqRel | kWorkgroup | kAvailable | kVisible, true, true)),
            "");
}

TEST(MemorySemanticsRules, AcceptsWhatVkclEmits) {
  EXPECT_EQ(violations_of(module_with_fence(kWorkgroupScope, kAcqRel | kWorkgroup | kAvailable | kVisible, true)), "");
  EXPECT_EQ(violations_of(module_with_fence(kWorkgroupScope, kRelease | kUniform | kAvailable, true)), "");
  EXPECT_EQ(violations_of(module_with_fence(kWorkgroupScope, kAcquire | kUniform | kImage, false)), "");
}

// ---------------------------------------------------------------------------
// Coherent (GLSL450) and NonPrivatePointer (Vulkan) on global accesses

struct GlobalAccesses {
  int total = 0;           // loads and stores through PhysicalStorageBuffer pointers
  int coherent = 0;        // ... through a member decorated Coherent
  int non_private = 0;     // ... with the NonPrivatePointer memory operand
  bool any_coherent_decoration = false;
};

GlobalAccesses global_accesses(const std::string& call, MemoryModel model) {
  CompileOptions options;
  options.max_storage_buffers = 0;  // through addresses (storage buffers: storage_buffer_golden_test)
  options.cl_std = OpenCLStd::CL2_0;
  options.memory_model = model;
  const std::string source = "kernel void k(global int* p, global const int* q) {\n  size_t i = get_global_id(0);\n"
                             "  p[i] = q[i];\n  " + call + ";\n  p[i + 1] = q[i + 2];\n}\n";
  spirv::Module m = spirv::Module::parse(compile_opencl(source, "coherent.cl", options).module.words);
  std::set<uint32_t> coherent_structs;
  for (const spirv::Instruction& a : m.annotations)
    if (a.opcode == spv::Op::OpMemberDecorate && spv::Decoration(a.word(2)) == spv::Decoration::Coherent)
      coherent_structs.insert(a.word(0));
    else if (a.opcode == spv::Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::Coherent)
      coherent_structs.insert(a.word(0));
  GlobalAccesses result;
  result.any_coherent_decoration = !coherent_structs.empty();
  for (const spirv::Function& f : m.functions) {
    std::map<uint32_t, uint32_t> type_of;
    for (const spirv::Instruction& i : f.code) {
      if (i.result_id) type_of[i.result_id] = i.type_id;
      if (i.opcode != spv::Op::OpLoad && i.opcode != spv::Op::OpStore) continue;
      auto storage = m.storage_class_of(type_of[i.word(0)]);
      if (storage != spv::StorageClass::PhysicalStorageBuffer) continue;
      ++result.total;
      size_t mask_index = i.opcode == spv::Op::OpLoad ? 1 : 2;
      if (i.words.size() > mask_index && (i.word(mask_index) & uint32_t(spv::MemoryAccessMask::NonPrivatePointer)))
        ++result.non_private;
      // Coherent: the pointer is an access chain into a Coherent-member struct.
      for (const spirv::Instruction& d : f.code)
        if (d.result_id == i.word(0) && d.opcode == spv::Op::OpAccessChain) {
          for (const spirv::Instruction& base : f.code)
            if (base.result_id == d.word(0) && coherent_structs.count(m.pointee_of(base.type_id))) ++result.coherent;
        }
    }
  }
  return result;
}

TEST(GlobalAccesses, Glsl450GlobalFenceMakesEveryGlobalAccessCoherent) {
  for (const char* call : {"barrier(CLK_GLOBAL_MEM_FENCE)", "write_mem_fence(CLK_GLOBAL_MEM_FENCE)",
                           "atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device)"}) {
    GlobalAccesses got = global_accesses(call, MemoryModel::GLSL450);
    EXPECT_EQ(got.total, 4) << call;
    EXPECT_EQ(got.coherent, got.total) << call;
    EXPECT_EQ(got.non_private, 0) << call;
  }
}

TEST(GlobalAccesses, Glsl450WithoutAGlobalFenceAddsNothing) {
  for (const char* call : {"barrier(CLK_LOCAL_MEM_FENCE)", "mem_fence(0)"}) {
    GlobalAccesses got = global_accesses(call, MemoryModel::GLSL450);
    EXPECT_EQ(got.total, 4) << call;
    EXPECT_FALSE(got.any_coherent_decoration) << call;
  }
}

TEST(GlobalAccesses, VulkanMemoryModelUsesNonPrivatePointerNotCoherent) {
  GlobalAccesses got = global_accesses("barrier(CLK_GLOBAL_MEM_FENCE)", MemoryModel::Vulkan);
  EXPECT_EQ(got.total, 4);
  EXPECT_EQ(got.non_private, got.total);
  EXPECT_FALSE(got.any_coherent_decoration);
}

}  // namespace
}  // namespace vkcl::testing
