// Generated golden test: every OpenCL C synchronization builtin, in every
// OpenCL C version that has it, with every combination of fence flags, memory
// order and memory scope, under every memory-model configuration, compiled in
// process and compared with an oracle that restates docs/synchronization.md
// (the normative mapping) without calling into the compiler.
// Every module that compiles is also checked against the Vulkan environment
// rules that Debian's spirv-val does not know yet.
//
// Cases are grouped by builtin family (the instantiation prefix) so that
// ctest can run one entry per family with --gtest_filter=<family>/*.
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <bit>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "barrier_inspection.h"
#include "vulkan_environment.h"
#include "compiler.h"
#include "module.h"

namespace vkcl::testing {
namespace {

// ---------------------------------------------------------------------------
// The cases.

enum class Builtin {
  barrier,
  work_group_barrier,
  work_group_barrier_with_scope,
  sub_group_barrier,
  sub_group_barrier_with_scope,
  mem_fence,
  read_mem_fence,
  write_mem_fence,
  atomic_work_item_fence,
};

struct Signature {
  Builtin builtin;
  const char* name;
  const char* family;  // the instantiation (and ctest entry) the builtin's cases belong to
  bool takes_order, takes_scope;
  std::vector<OpenCLStd> versions;  // where OpenCL C declares it
};

constexpr OpenCLStd CL12 = OpenCLStd::CL1_2, CL20 = OpenCLStd::CL2_0, CL30 = OpenCLStd::CL3_0;

const Signature kSignatures[] = {
    {Builtin::barrier, "barrier", "barrier", false, false, {CL12, CL20, CL30}},
    {Builtin::work_group_barrier, "work_group_barrier", "work_group_barrier", false, false, {CL20, CL30}},
    {Builtin::work_group_barrier_with_scope, "work_group_barrier", "work_group_barrier", false, true, {CL20, CL30}},
    {Builtin::sub_group_barrier, "sub_group_barrier", "sub_group_barrier", false, false, {CL20, CL30}},
    {Builtin::sub_group_barrier_with_scope, "sub_group_barrier", "sub_group_barrier", false, true, {CL20, CL30}},
    {Builtin::mem_fence, "mem_fence", "mem_fence", false, false, {CL12, CL20, CL30}},
    {Builtin::read_mem_fence, "read_mem_fence", "mem_fence", false, false, {CL12, CL20, CL30}},
    {Builtin::write_mem_fence, "write_mem_fence", "mem_fence", false, false, {CL12, CL20, CL30}},
    {Builtin::atomic_work_item_fence, "atomic_work_item_fence", "atomic_work_item_fence", true, true, {CL20, CL30}},
};

struct MemoryModelConfig {
  const char* id;     // in test names
  const char* words;  // in failure messages
  MemoryModel model;
  bool vulkan_device_scope;
};

// GLSL450 gets vulkan_device_scope = false, as the host passes for a device
// without the Vulkan memory model: the option must then change nothing.
const MemoryModelConfig kConfigs[] = {
    {"vulkan_device", "vulkan, device scope", MemoryModel::Vulkan, true},
    {"vulkan_queue_family", "vulkan, queue-family scope", MemoryModel::Vulkan, false},
    {"glsl450", "glsl450", MemoryModel::GLSL450, false},
};

// An argument as the kernel spells it, and the value the oracle reasons about.
struct Argument {
  std::string spelling;
  uint32_t value = 0;
  std::string id;  // in test names
};

// OpenCL's values: the CLK_*_MEM_FENCE macros, and the memory_order and
// memory_scope enumerators as clang 15's opencl-c-base.h defines them
// (__ATOMIC_* and __OPENCL_MEMORY_SCOPE_*).
namespace opencl {
enum : uint32_t { kLocalMemFence = 1, kGlobalMemFence = 2, kImageMemFence = 4, kAllMemFences = 7 };
enum : uint32_t { kRelaxed = 0, kAcquire = 2, kRelease = 3, kAcqRel = 4, kSeqCst = 5 };
enum : uint32_t { kWorkItem = 0, kWorkGroup = 1, kDevice = 2, kAllSvmDevices = 3, kSubGroup = 4 };
}  // namespace opencl

const Argument kNoArgument{};
const Argument kDeviceScope{"memory_scope_device", opencl::kDevice, "device"};

const std::vector<Argument> kOrders = {
    {"memory_order_relaxed", opencl::kRelaxed, "relaxed"}, {"memory_order_acquire", opencl::kAcquire, "acquire"},
    {"memory_order_release", opencl::kRelease, "release"}, {"memory_order_acq_rel", opencl::kAcqRel, "acq_rel"},
    {"memory_order_seq_cst", opencl::kSeqCst, "seq_cst"},
};

std::vector<Argument> scopes_in(OpenCLStd version) {
  std::vector<Argument> scopes = {
      {"memory_scope_work_item", opencl::kWorkItem, "work_item"},
      {"memory_scope_sub_group", opencl::kSubGroup, "sub_group"},
      {"memory_scope_work_group", opencl::kWorkGroup, "work_group"},
      kDeviceScope,
      {"memory_scope_all_svm_devices", opencl::kAllSvmDevices, "all_svm_devices"},
  };
  if (version == CL30) scopes.push_back({"memory_scope_all_devices", opencl::kAllSvmDevices, "all_devices"});
  return scopes;
}

// `flags` written as the OR of the CLK_*_MEM_FENCE macros. clang declares
// CLK_IMAGE_MEM_FENCE only from OpenCL C 2.0, so CL1.2 writes its value.
Argument fence_flags(uint32_t flags, OpenCLStd version) {
  if (flags == 0) return {"0", 0, "none"};
  if (flags & ~uint32_t(opencl::kAllMemFences))
    return {"(cl_mem_fence_flags)" + std::to_string(flags), flags, "flags" + std::to_string(flags)};
  const std::pair<uint32_t, std::string> names[] = {
      {opencl::kLocalMemFence, "LOCAL"},
      {opencl::kGlobalMemFence, "GLOBAL"},
      {opencl::kImageMemFence, "IMAGE"},
  };
  Argument a{"", flags, ""};
  for (const auto& [bit, name] : names) {
    if (!(flags & bit)) continue;
    const bool declared = bit != opencl::kImageMemFence || version != CL12;
    a.spelling += (a.spelling.empty() ? "" : " | ") + (declared ? "CLK_" + name + "_MEM_FENCE" : "(cl_mem_fence_flags)4");
    a.id += (a.id.empty() ? "" : "_") + name;
  }
  return a;
}

std::vector<Argument> valid_fence_flags(OpenCLStd version) {
  std::vector<Argument> all;
  for (uint32_t f = 0; f <= opencl::kAllMemFences; ++f) all.push_back(fence_flags(f, version));
  return all;
}

// Values the specification leaves undefined; each must be a compile error.
std::vector<Argument> invalid_fence_flags(OpenCLStd version) { return {fence_flags(8, version), fence_flags(0x10, version)}; }
const std::vector<Argument> kInvalidOrders = {{"(memory_order)1", 1, "order1"}, {"(memory_order)7", 7, "order7"}};
const std::vector<Argument> kInvalidScopes = {{"(memory_scope)5", 5, "scope5"}, {"(memory_scope)99", 99, "scope99"}};

std::string version_name(OpenCLStd version) {
  static const char* const kNames[] = {"CL1.2", "CL2.0", "CL3.0"};
  return kNames[int(version)];
}

struct Case {
  const Signature* signature;
  OpenCLStd version;
  const MemoryModelConfig* config;
  Argument flags, order, scope;  // order and scope: kNoArgument where the builtin takes none

  std::string call() const {
    std::string text = std::string(signature->name) + "(" + flags.spelling;
    if (signature->takes_order) text += ", " + order.spelling;
    if (signature->takes_scope) text += ", " + scope.spelling;
    return text + ")";
  }
  // "work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device) [CL2.0, vulkan, device scope]"
  std::string in_words() const { return call() + " [" + version_name(version) + ", " + config->words + "]"; }
  // "work_group_barrier_GLOBAL_device_CL20_vulkan_device"
  std::string test_name() const {
    std::string name = std::string(signature->name) + "_" + flags.id;
    if (signature->takes_order) name += "_" + order.id;
    if (signature->takes_scope) name += "_" + scope.id;
    name += "_" + version_name(version) + "_" + config->id;
    std::erase(name, '.');
    return name;
  }
};

// gtest prints a failing parameter with this instead of its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.in_words(); }

// Every combination of the given arguments that `signature` takes, in every configuration.
void add_combinations(std::vector<Case>& cases, const Signature& signature, OpenCLStd version,
                      const std::vector<Argument>& flags, const std::vector<Argument>& orders,
                      const std::vector<Argument>& scopes) {
  const std::vector<Argument> none = {kNoArgument};
  for (const MemoryModelConfig& config : kConfigs)
    for (const Argument& f : flags)
      for (const Argument& o : signature.takes_order ? orders : none)
        for (const Argument& s : signature.takes_scope ? scopes : none)
          cases.push_back({&signature, version, &config, f, o, s});
}

std::vector<Case> cases_of(std::string_view family) {
  // Invalid values go one argument at a time, the others valid. Relaxed is
  // among the orders because a relaxed fence emits nothing yet must still
  // reject bad flags and scopes; seq_cst stands for the orders that emit.
  const Argument global = fence_flags(opencl::kGlobalMemFence, CL20);
  const std::vector<Argument> some_orders = {kOrders.front(), kOrders.back()};
  const std::vector<Argument> device = {kDeviceScope};
  std::vector<Case> cases;
  for (const Signature& s : kSignatures) {
    if (s.family != family) continue;
    for (OpenCLStd v : s.versions) {
      add_combinations(cases, s, v, valid_fence_flags(v), kOrders, scopes_in(v));
      add_combinations(cases, s, v, invalid_fence_flags(v), some_orders, device);
      if (s.takes_order) add_combinations(cases, s, v, {global}, kInvalidOrders, device);
      if (s.takes_scope) add_combinations(cases, s, v, {global}, some_orders, kInvalidScopes);
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------
// The oracle.

// SPIR-V Scope (3.27) and Memory Semantics (3.25).
enum SpvScope : uint32_t { kDevice = 1, kWorkgroup = 2, kSubgroup = 3, kQueueFamily = 5 };
enum Semantics : uint32_t {
  kAcquire = 0x2, kRelease = 0x4, kAcquireRelease = 0x8, kSequentiallyConsistent = 0x10,
  kUniformMemory = 0x40, kWorkgroupMemory = 0x100, kImageMemory = 0x800, kOutputMemory = 0x1000,
  kMakeAvailable = 0x2000, kMakeVisible = 0x4000,
};

// What a call must become: a compile error at the call whose message
// mentions `error_topic`, or exactly `barriers` (possibly none).
struct Expectation {
  std::string error_topic;
  std::vector<Barrier> barriers;
};

// docs/synchronization.md's mapping, restated rule by rule, with the
// OpenCL C 3.0 text's refinements (local memory at
// work-group scope, image barriers at work_group scope). Adjust the rules
// here, and only here.
Expectation expected_for(const Case& c) {
  const Builtin builtin = c.signature->builtin;
  const uint32_t f = c.flags.value, o = c.order.value, s = c.scope.value;
  const bool vulkan_model = c.config->model == MemoryModel::Vulkan;

  // Errors: undefined values, then scopes the builtin cannot honour.
  if (f & ~uint32_t(opencl::kAllMemFences)) return {"cl_mem_fence_flags", {}};
  if (c.signature->takes_order && (o == 1 || o > opencl::kSeqCst)) return {"memory_order", {}};  // 1: consume
  if (c.signature->takes_scope && s > opencl::kSubGroup) return {"scope", {}};
  // work_item is only meaningful for a work-item's own image accesses.
  if (c.signature->takes_scope && s == opencl::kWorkItem &&
      (builtin != Builtin::atomic_work_item_fence || f != opencl::kImageMemFence))
    return {"scope", {}};
  // OpenCL C 3.0, work_group_barrier: with CLK_IMAGE_MEM_FENCE "the value of
  // scope must be memory_scope_work_group".
  if (builtin == Builtin::work_group_barrier_with_scope && (f & opencl::kImageMemFence) && s != opencl::kWorkGroup)
    return {"scope", {}};

  // Storage classes: never CrossWorkgroupMemory, which Vulkan drivers ignore.
  uint32_t storage = 0;
  if (f & opencl::kLocalMemFence) storage |= kWorkgroupMemory;
  if (f & opencl::kGlobalMemFence) storage |= kUniformMemory;
  if (f & opencl::kImageMemFence) storage |= kImageMemory;
  // No ordering without storage; under the Vulkan model, Release carries
  // MakeAvailable and Acquire carries MakeVisible. Never SequentiallyConsistent.
  auto semantics = [&](uint32_t ordering) -> uint32_t {
    if (storage == 0) return 0;
    uint32_t bits = storage | ordering;
    if (vulkan_model && (ordering & (kRelease | kAcquireRelease))) bits |= kMakeAvailable;
    if (vulkan_model && (ordering & (kAcquire | kAcquireRelease))) bits |= kMakeVisible;
    return bits;
  };
  // memory_scope → Scope. Vulkan forbids CrossDevice, so all_svm_devices is
  // Device; a Vulkan-model device without vulkanMemoryModelDeviceScope gets
  // QueueFamily. work_item (image fences only) is Workgroup: Vulkan needs
  // Invocation scope to be Relaxed.
  // Local memory is only visible within the work-group, where "scopes wider
  // than memory_scope_work_group carry no additional meaning" (OpenCL memory
  // model): a fence on local memory alone, or on nothing, is at Workgroup
  // scope however wide the scope asked for.
  auto scope = [&]() -> uint32_t {
    const bool local_only = (f & (opencl::kGlobalMemFence | opencl::kImageMemFence)) == 0;
    switch (s) {
      case opencl::kSubGroup: return kSubgroup;
      case opencl::kWorkItem:
      case opencl::kWorkGroup: return kWorkgroup;
      default:
        if (local_only) return kWorkgroup;
        return vulkan_model && !c.config->vulkan_device_scope ? kQueueFamily : kDevice;
    }
  };
  // work_group_barrier: "CLK_LOCAL_MEM_FENCE ... the value of scope is
  // ignored as the memory scope is always memory_scope_work_group", so local
  // memory widens a sub-group scope to the work-group.
  auto work_group_barrier_scope = [&]() -> uint32_t {
    return (f & opencl::kLocalMemFence) && scope() == kSubgroup ? kWorkgroup : scope();
  };
  // memory_order → ordering; Vulkan has no sequentially consistent fences.
  auto ordering = [&]() -> uint32_t {
    switch (o) {
      case opencl::kAcquire: return kAcquire;
      case opencl::kRelease: return kRelease;
      default: return kAcquireRelease;  // acq_rel, seq_cst
    }
  };
  auto control = [](uint32_t execution, uint32_t memory, uint32_t sem) { return Barrier{true, execution, memory, sem}; };
  // A fence that orders no memory, or nothing, is no instruction at all.
  auto fence = [&](uint32_t memory, uint32_t order_bits) -> Expectation {
    if (storage == 0) return {};
    return {"", {Barrier{false, 0, memory, semantics(order_bits)}}};
  };

  switch (builtin) {
    case Builtin::barrier:
    case Builtin::work_group_barrier: return {"", {control(kWorkgroup, kWorkgroup, semantics(kAcquireRelease))}};
    case Builtin::work_group_barrier_with_scope:
      return {"", {control(kWorkgroup, work_group_barrier_scope(), semantics(kAcquireRelease))}};
    case Builtin::sub_group_barrier: return {"", {control(kSubgroup, kSubgroup, semantics(kAcquireRelease))}};
    case Builtin::sub_group_barrier_with_scope: return {"", {control(kSubgroup, scope(), semantics(kAcquireRelease))}};
    case Builtin::mem_fence: return fence(kWorkgroup, kAcquireRelease);
    case Builtin::read_mem_fence: return fence(kWorkgroup, kAcquire);
    case Builtin::write_mem_fence: return fence(kWorkgroup, kRelease);
    case Builtin::atomic_work_item_fence: return o == opencl::kRelaxed ? Expectation{} : fence(scope(), ordering());
  }
  return {};
}

// ---------------------------------------------------------------------------
// The test.

constexpr const char* kFileName = "golden.cl";
const std::string kCallLocation = std::string(kFileName) + ":3:3";  // where kernel_calling puts the call

std::string kernel_calling(const std::string& call) {
  return "__kernel void k(__global int* p) {\n"
         "  p[get_global_id(0)] = 1;\n"
         "  " + call + ";\n"
         "  p[get_global_id(0) + 1] = 2;\n"
         "}\n";
}

std::string describe_all(const std::vector<Barrier>& barriers) {
  if (barriers.empty()) return "no barrier";
  std::string text;
  for (const Barrier& b : barriers) text += (text.empty() ? "" : "; ") + describe(b);
  return text;
}

// Whether some line of `diagnostics` is an error at the call that mentions `topic`.
bool reports_error_at_call(const std::string& diagnostics, const std::string& topic) {
  const std::string location = kCallLocation + ": error:";
  std::istringstream lines(diagnostics);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(location) && line.find(topic, location.size()) != std::string::npos) return true;
  return false;
}

class SynchronizationCrossProduct : public ::testing::TestWithParam<Case> {};

TEST_P(SynchronizationCrossProduct, EmitsTheMappedInstruction) {
  const Case& c = GetParam();
  const Expectation expected = expected_for(c);
  CompileOptions options;
  options.cl_std = c.version;
  options.memory_model = c.config->model;
  options.vulkan_device_scope = c.config->vulkan_device_scope;

  std::optional<std::vector<uint32_t>> module;
  std::string error;
  try {
    module = compile_opencl(kernel_calling(c.call()), kFileName, options).module.words;
  } catch (const CompileError& e) {
    error = e.what();
  }

  const std::string wanted = expected.error_topic.empty()
                                 ? describe_all(expected.barriers)
                                 : "an error at " + kCallLocation + " about " + expected.error_topic;
  if (!module) {
    if (expected.error_topic.empty() || !reports_error_at_call(error, expected.error_topic))
      ADD_FAILURE() << c.in_words() << ": expected " << wanted << ", got:\n" << error;
    return;
  }
  if (std::string got = describe_all(barriers_in(*module)); !expected.error_topic.empty() || got != wanted)
    ADD_FAILURE() << c.in_words() << ": expected " << wanted << ", got " << got;
  for (const std::string& problem : vulkan_environment_violations(*module, c.config->model))
    ADD_FAILURE() << c.in_words() << ": " << problem;
}

std::string test_name(const ::testing::TestParamInfo<Case>& info) { return info.param.test_name(); }

INSTANTIATE_TEST_SUITE_P(barrier, SynchronizationCrossProduct, ::testing::ValuesIn(cases_of("barrier")), test_name);
INSTANTIATE_TEST_SUITE_P(work_group_barrier, SynchronizationCrossProduct,
                         ::testing::ValuesIn(cases_of("work_group_barrier")), test_name);
INSTANTIATE_TEST_SUITE_P(sub_group_barrier, SynchronizationCrossProduct,
                         ::testing::ValuesIn(cases_of("sub_group_barrier")), test_name);
INSTANTIATE_TEST_SUITE_P(mem_fence, SynchronizationCrossProduct, ::testing::ValuesIn(cases_of("mem_fence")), test_name);
INSTANTIATE_TEST_SUITE_P(atomic_work_item_fence, SynchronizationCrossProduct,
                         ::testing::ValuesIn(cases_of("atomic_work_item_fence")), test_name);

// The environment checks above can fail: each rule rejects what it should.
TEST(VulkanSemanticsRules, RejectWhatVulkanForbids) {
  constexpr MemoryModel kVulkan = MemoryModel::Vulkan, kGlsl = MemoryModel::GLSL450;
  EXPECT_EQ(semantics_problem(0, kVulkan), "");
  EXPECT_EQ(semantics_problem(kUniformMemory | kAcquireRelease | kMakeAvailable | kMakeVisible, kVulkan), "");
  EXPECT_EQ(semantics_problem(kWorkgroupMemory | kAcquire, kGlsl), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kSequentiallyConsistent, kVulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kAcquire | kRelease, kVulkan), "");
  EXPECT_NE(semantics_problem(kAcquireRelease, kVulkan), "");
  EXPECT_NE(semantics_problem(kImageMemory, kVulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kAcquire | kMakeAvailable, kVulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kRelease | kMakeVisible, kVulkan), "");
  EXPECT_NE(semantics_problem(kUniformMemory | kAcquireRelease | kMakeVisible, kGlsl), "");
}

}  // namespace
}  // namespace vkcl::testing
