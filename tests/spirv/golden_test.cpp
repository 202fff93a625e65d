// Golden tests: the exact barrier and fence instructions each OpenCL C
// synchronization call becomes (docs/synchronization.md).
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "barrier_inspection.h"
#include "compiler.h"
#include "module.h"

namespace vkcl::testing {
namespace {

// Memory semantics bits (SPIR-V 3.25).
constexpr uint32_t kAcquire = 0x2, kRelease = 0x4, kAcqRel = 0x8, kSeqCst = 0x10, kUniform = 0x40,
                   kWorkgroup = 0x100, kCrossWorkgroup = 0x200, kAvailable = 0x2000, kVisible = 0x4000;
// Scopes (SPIR-V 3.27).
constexpr uint32_t kDevice = 1, kWorkgroupScope = 2, kSubgroup = 3;

// Under the Vulkan memory model, each ordering carries its availability/visibility operations.
constexpr uint32_t kVulkanAcqRel = kAcqRel | kAvailable | kVisible;
constexpr uint32_t kVulkanAcquire = kAcquire | kVisible;
constexpr uint32_t kVulkanRelease = kRelease | kAvailable;

std::vector<uint32_t> compile(const std::string& source, OpenCLStd std = OpenCLStd::CL2_0,
                              MemoryModel model = MemoryModel::Vulkan) {
  CompileOptions options;
  options.cl_std = std;
  options.memory_model = model;
  return compile_opencl(source, "golden.cl", options).module.words;
}

// A kernel that does `call` between two global stores, so the call is not the only memory operation.
std::string kernel_calling(const std::string& call) {
  return "__kernel void k(__global int* p) {\n  p[get_global_id(0)] = 1;\n  " + call +
         ";\n  p[get_global_id(0) + 1] = 2;\n}\n";
}

struct Case {
  std::string call;
  OpenCLStd std;
  std::vector<Barrier> expected;
};

std::string describe_all(const std::vector<Barrier>& barriers) {
  if (barriers.empty()) return "(no barrier)";
  std::string text;
  for (const Barrier& b : barriers) text += (text.empty() ? "" : "; ") + describe(b);
  return text;
}

Barrier control(uint32_t execution, uint32_t memory, uint32_t semantics) { return {true, execution, memory, semantics}; }
Barrier fence(uint32_t memory, uint32_t semantics) { return {false, 0, memory, semantics}; }

class SynchronizationMapping : public ::testing::TestWithParam<Case> {};

TEST_P(SynchronizationMapping, EmitsExactlyTheMappedInstruction) {
  const Case& c = GetParam();
  std::vector<Barrier> got = barriers_in(compile(kernel_calling(c.call), c.std));
  EXPECT_EQ(describe_all(got), describe_all(c.expected)) << c.call;
}

const OpenCLStd CL12 = OpenCLStd::CL1_2, CL20 = OpenCLStd::CL2_0, CL30 = OpenCLStd::CL3_0;

INSTANTIATE_TEST_SUITE_P(
    Builtins, SynchronizationMapping,
    ::testing::Values(
        Case{"barrier(CLK_LOCAL_MEM_FENCE)", CL12, {control(kWorkgroupScope, kWorkgroupScope, kWorkgroup | kVulkanAcqRel)}},
        Case{"barrier(CLK_GLOBAL_MEM_FENCE)", CL12, {control(kWorkgroupScope, kWorkgroupScope, kUniform | kVulkanAcqRel)}},
        Case{"barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)", CL12,
             {control(kWorkgroupScope, kWorkgroupScope, kWorkgroup | kUniform | kVulkanAcqRel)}},
        Case{"barrier(0)", CL12, {control(kWorkgroupScope, kWorkgroupScope, 0)}},
        Case{"work_group_barrier(CLK_GLOBAL_MEM_FENCE)", CL20,
             {control(kWorkgroupScope, kWorkgroupScope, kUniform | kVulkanAcqRel)}},
        Case{"work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device)", CL20,
             {control(kWorkgroupScope, kDevice, kUniform | kVulkanAcqRel)}},
        Case{"work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group)", CL20,
             {control(kWorkgroupScope, kWorkgroupScope, kWorkgroup | kVulkanAcqRel)}},
        Case{"mem_fence(CLK_GLOBAL_MEM_FENCE)", CL12, {fence(kWorkgroupScope, kUniform | kVulkanAcqRel)}},
        Case{"read_mem_fence(CLK_LOCAL_MEM_FENCE)", CL12, {fence(kWorkgroupScope, kWorkgroup | kVulkanAcquire)}},
        Case{"write_mem_fence(CLK_GLOBAL_MEM_FENCE)", CL12, {fence(kWorkgroupScope, kUniform | kVulkanRelease)}},
        Case{"mem_fence(0)", CL12, {}},
        Case{"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device)", CL20,
             {fence(kDevice, kUniform | kVulkanRelease)}},
        Case{"atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group)", CL20,
             {fence(kWorkgroupScope, kWorkgroup | kVulkanAcquire)}},
        Case{"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device)", CL20,
             {fence(kDevice, kUniform | kVulkanAcqRel)}},
        Case{"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_all_svm_devices)", CL20,
             {fence(kDevice, kUniform | kVulkanAcqRel)}},
        Case{"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device)", CL20, {}},
        Case{"sub_group_barrier(CLK_LOCAL_MEM_FENCE)", CL30, {control(kSubgroup, kSubgroup, kWorkgroup | kVulkanAcqRel)}},
        Case{"sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group)", CL30,
             {control(kSubgroup, kWorkgroupScope, kUniform | kVulkanAcqRel)}}),
    [](const ::testing::TestParamInfo<Case>& info) {  // the call, as an identifier
      std::string name;
      for (char c : info.param.call) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name + "_" + std::to_string(info.index);
    });

TEST(SynchronizationMapping, Glsl450MemoryModelHasNoAvailabilityOperations) {
  auto got = barriers_in(compile(kernel_calling("barrier(CLK_LOCAL_MEM_FENCE)"), CL12, MemoryModel::GLSL450));
  EXPECT_EQ(describe_all(got), describe_all({control(kWorkgroupScope, kWorkgroupScope, kWorkgroup | kAcqRel)}));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ReduceExample, BarriersAreWorkgroupScopedLocalFences) {
  std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/examples/reduce.cl"), CL12);
  std::vector<Barrier> barriers = barriers_in(words);
  ASSERT_GE(barriers.size(), 2u) << "the reduction has a barrier before and inside its loop";
  for (const Barrier& b : barriers)
    EXPECT_EQ(describe(b), describe(control(kWorkgroupScope, kWorkgroupScope, kWorkgroup | kVulkanAcqRel)));
}

TEST(ReduceExample, NothingIsCrossWorkgroupOrSequentiallyConsistent) {
  std::vector<uint32_t> words = compile(read_file(VKCL_SHADERS_DIR "/examples/reduce.cl"), CL12);
  for (uint32_t semantics : all_semantics_in(words)) {
    EXPECT_EQ(semantics & kCrossWorkgroup, 0u) << describe_semantics(semantics);
    EXPECT_EQ(semantics & kSeqCst, 0u) << describe_semantics(semantics);
  }
  spirv::Module module = spirv::Module::parse(words);
  for (const spirv::Instruction& g : module.globals) {
    if (g.opcode == spv::Op::OpTypePointer) {
      EXPECT_NE(spv::StorageClass(g.word(0)), spv::StorageClass::CrossWorkgroup) << disassemble(words);
    }
  }
}

}  // namespace
}  // namespace vkcl::testing
