// Passes one at a time on SPIR-V assembly (pass_assembly.h), for the passes
// about memory and the work-item model: map_memory_semantics,
// lower_builtin_variables, lower_program_scope_constants and
// legalize_subgroup_operations. The inputs are Kernel SPIR-V as the
// SPIRV-LLVM translator writes it (size_t builtins as v3ulong Input
// variables, program-scope __constant data as UniformConstant variables),
// or, for map_memory_semantics, as the passes before it leave it (global
// pointers already PhysicalStorageBuffer).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pass_assembly.h"

namespace vkcl {
namespace {

using test::captured;
using test::contains;
using test::count;
using test::error_of;
using test::kernel_module;
using test::Lowered;
using test::run_alone;
using test::run_passes;
using test::run_with;

// ---------------------------------------------------------------------------
// map_memory_semantics

// Memory semantics bits (SPIR-V 3.25), as the constants below spell them:
// Acquire 0x2, Release 0x4, AcquireRelease 0x8, SequentiallyConsistent 0x10,
// UniformMemory 0x40, WorkgroupMemory 0x100, CrossWorkgroupMemory 0x200,
// MakeAvailable 0x2000, MakeVisible 0x4000. Scopes: CrossDevice 0, Device 1,
// Workgroup 2, Subgroup 3, QueueFamily 5.
const std::string kSynchronization = R"(
               OpCapability Int64
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
   %uint_258 = OpConstant %uint 258
   %uint_260 = OpConstant %uint 260
   %uint_264 = OpConstant %uint 264
   %uint_528 = OpConstant %uint 528
    %ulong_1 = OpConstant %ulong 1
  %local_ptr = OpTypePointer Workgroup %uint
%local_ulong_ptr = OpTypePointer Workgroup %ulong
 %buffer_ptr = OpTypePointer PhysicalStorageBuffer %uint
   %func_ptr = OpTypePointer Function %uint
    %counter = OpVariable %local_ptr Workgroup
      %total = OpVariable %local_ulong_ptr Workgroup
)";

// barrier(CLK_LOCAL_MEM_FENCE) (AcquireRelease | WorkgroupMemory), a
// release fence and an acquire load, as builtins/ maps them: under the
// Vulkan memory model the release side gains MakeAvailable and the acquire
// side MakeVisible (0x108 → 0x6108, 0x104 → 0x2104, 0x102 → 0x4102). A
// relaxed atomic (semantics 0) orders nothing and stays as it was, as do the
// Workgroup scopes.
TEST(MapMemorySemantics, ReleaseGainsMakeAvailableAndAcquireMakeVisibleUnderTheVulkanModel) {
  const std::string text = run_alone("map_memory_semantics", kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %uint
          %f = OpFunction %uint None %fn
      %entry = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpMemoryBarrier %uint_2 %uint_260
   %acquired = OpAtomicLoad %uint %counter %uint_2 %uint_258
    %relaxed = OpAtomicIAdd %uint %counter %uint_2 %uint_0 %uint_1
        %sum = OpIAdd %uint %acquired %relaxed
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "OpControlBarrier %uint_2 %uint_2 %uint_24840\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemoryBarrier %uint_2 %uint_8452\n")) << text;
  EXPECT_TRUE(contains(text, "%acquired = OpAtomicLoad %uint %counter %uint_2 %uint_16642\n")) << text;
  EXPECT_TRUE(contains(text, "%relaxed = OpAtomicIAdd %uint %counter %uint_2 %uint_0 %uint_1\n")) << text;
  // Workgroup scope needs no capability.
  EXPECT_EQ(count(text, "OpCapability (GroupNonUniform|VulkanMemoryModelDeviceScope)"), 0) << text;
}

// What the Vulkan environment forbids never reaches a driver:
// SequentiallyConsistent | CrossWorkgroupMemory (0x210, an OpenCL
// memory_order_seq_cst fence on global memory) becomes AcquireRelease |
// UniformMemory (0x48, then 0x6048 with MakeAvailable | MakeVisible), and
// CrossDevice scope becomes Device, which under the Vulkan memory model
// declares VulkanMemoryModelDeviceScope.
TEST(MapMemorySemantics, SequentiallyConsistentCrossWorkgroupAndCrossDeviceAreNormalized) {
  const std::string text = run_alone("map_memory_semantics", kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %void
          %f = OpFunction %void None %fn
      %entry = OpLabel
               OpMemoryBarrier %uint_0 %uint_528
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "OpMemoryBarrier %uint_1 %uint_24648\n")) << text;
  EXPECT_EQ(count(text, "OpMemoryBarrier"), 1) << text;
  EXPECT_EQ(count(text, "OpCapability VulkanMemoryModelDeviceScope\n"), 1) << text;
}

// Under the GLSL450 memory model the semantics keep their bits (no
// MakeAvailable or MakeVisible: 0x108 stays 0x108), but SequentiallyConsistent
// and CrossWorkgroupMemory are still normalized (0x210 → 0x48); Device scope
// needs no VulkanMemoryModelDeviceScope there, and loads stay private.
TEST(MapMemorySemantics, UnderGlsl450TheSemanticsStayButAreStillNormalized) {
  LoweringOptions glsl450;
  glsl450.memory_model = MemoryModel::GLSL450;
  const Lowered lowered = run_with(glsl450, {"map_memory_semantics"}, kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %uint
          %f = OpFunction %uint None %fn
      %entry = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpMemoryBarrier %uint_1 %uint_528
      %value = OpLoad %uint %counter
               OpReturnValue %value
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  EXPECT_TRUE(contains(text, "OpControlBarrier %uint_2 %uint_2 %uint_264\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemoryBarrier %uint_1 %uint_72\n")) << text;
  EXPECT_TRUE(contains(text, "%value = OpLoad %uint %counter\n")) << text;
  EXPECT_EQ(count(text, "VulkanMemoryModelDeviceScope"), 0) << text;
  EXPECT_FALSE(lowered.reflection.features.vulkan_memory_model_device_scope);
}

// On a device without vulkanMemoryModelDeviceScope, Device scope becomes
// QueueFamily (5), which needs no capability.
TEST(MapMemorySemantics, DeviceScopeBecomesQueueFamilyWithoutDeviceScopeSupport) {
  LoweringOptions no_device_scope;
  no_device_scope.device_scope_available = false;
  const Lowered lowered = run_with(no_device_scope, {"map_memory_semantics"}, kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %void
          %f = OpFunction %void None %fn
      %entry = OpLabel
               OpMemoryBarrier %uint_1 %uint_264
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(lowered.text, "OpMemoryBarrier %uint_5 %uint_24840\n")) << lowered.text;
  EXPECT_EQ(count(lowered.text, "VulkanMemoryModelDeviceScope"), 0) << lowered.text;
  EXPECT_FALSE(lowered.reflection.features.vulkan_memory_model_device_scope);
}

// Under the Vulkan memory model, loads and stores through Workgroup and
// PhysicalStorageBuffer pointers become NonPrivatePointer (added to the
// memory operands they have), so that fences order them; a Function
// variable's stay as they were.
TEST(MapMemorySemantics, SharedAccessesBecomeNonPrivateAndFunctionVariablesStay) {
  const std::string text = run_alone("map_memory_semantics", kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %void %buffer_ptr
          %f = OpFunction %void None %fn
        %out = OpFunctionParameter %buffer_ptr
      %entry = OpLabel
    %private = OpVariable %func_ptr Function
     %shared = OpLoad %uint %counter
               OpStore %private %shared
     %copied = OpLoad %uint %private Aligned 4
               OpStore %out %copied Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%shared = OpLoad %uint %counter NonPrivatePointer\n")) << text;
  EXPECT_TRUE(contains(text, "OpStore %out %copied Aligned|NonPrivatePointer 4\n")) << text;
  EXPECT_TRUE(contains(text, "OpStore %private %shared\n")) << text;
  EXPECT_TRUE(contains(text, "%copied = OpLoad %uint %private Aligned 4\n")) << text;
  EXPECT_EQ(count(text, "NonPrivatePointer"), 2) << text;
}

// atomic_compare_exchange_weak on a __local ulong (OpenCL's weak form,
// Kernel only) becomes the strong OpAtomicCompareExchange, both of its
// semantics mapped; the 64-bit atomic declares Int64Atomics and the
// shaderSharedInt64Atomics feature; a sub-group barrier (Subgroup scope)
// declares GroupNonUniform.
TEST(MapMemorySemantics, AWeakCompareExchangeOfALocalLongBecomesStrongAndDeclaresInt64Atomics) {
  const Lowered lowered = run_with({}, {"map_memory_semantics"}, kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %ulong %ulong
          %f = OpFunction %ulong None %fn
   %expected = OpFunctionParameter %ulong
      %entry = OpLabel
               OpControlBarrier %uint_3 %uint_3 %uint_264
        %old = OpAtomicCompareExchangeWeak %ulong %total %uint_2 %uint_264 %uint_258 %ulong_1 %expected
               OpReturnValue %old
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  EXPECT_TRUE(contains(text, "%old = OpAtomicCompareExchange %ulong %total %uint_2 %uint_24840 %uint_16642 "
                             "%ulong_1 %expected\n"))
      << text;
  EXPECT_EQ(count(text, "OpAtomicCompareExchangeWeak"), 0) << text;
  EXPECT_TRUE(contains(text, "OpControlBarrier %uint_3 %uint_3 %uint_24840\n")) << text;
  EXPECT_EQ(count(text, "OpCapability Int64Atomics\n"), 1) << text;
  EXPECT_EQ(count(text, "OpCapability GroupNonUniform\n"), 1) << text;
  EXPECT_TRUE(lowered.reflection.features.shader_shared_int64_atomics);
  EXPECT_FALSE(lowered.reflection.features.shader_buffer_int64_atomics);
  EXPECT_TRUE(lowered.reflection.features.subgroup_basic);
}

// A scope the inliner left as a run-time value cannot be mapped: a located
// error, never invalid SPIR-V.
TEST(MapMemorySemantics, AScopeThatIsNoConstantIsAnError) {
  const std::string error = error_of({"map_memory_semantics"}, kernel_module(kSynchronization + R"(
         %fn = OpTypeFunction %void %uint
          %f = OpFunction %void None %fn
      %scope = OpFunctionParameter %uint
      %entry = OpLabel
               OpMemoryBarrier %scope %uint_264
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "scope is not a compile-time constant")) << error;
}

// ---------------------------------------------------------------------------
// lower_builtin_variables
//
// Every test runs rewrite_entry_points first: it records the kernels
// (LoweringContext::kernels) whose loads this pass rewrites, their
// reqd_work_group_size, and the WorkgroupSize spec constant it reads for the
// local size.

// The start of every lower_builtin_variables test: the translator's builtin
// variables (size_t ones as v3ulong, the sub-group ones as uint), up to the
// kernel's entry label. The kernel stores one size_t to `out`.
std::string builtin_kernel(const std::string& execution_modes = "") {
  return R"(
               OpCapability Int64
               OpEntryPoint Kernel %k "k"
)" + execution_modes + R"(
               OpDecorate %__spirv_BuiltInLocalInvocationId BuiltIn LocalInvocationId
               OpDecorate %__spirv_BuiltInGlobalInvocationId BuiltIn GlobalInvocationId
               OpDecorate %__spirv_BuiltInSubgroupSize BuiltIn SubgroupSize
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
 %in_v3ulong = OpTypePointer Input %v3ulong
    %in_uint = OpTypePointer Input %uint
    %out_ptr = OpTypePointer CrossWorkgroup %ulong
%__spirv_BuiltInLocalInvocationId = OpVariable %in_v3ulong Input
%__spirv_BuiltInGlobalInvocationId = OpVariable %in_v3ulong Input
%__spirv_BuiltInSubgroupSize = OpVariable %in_uint Input
         %fn = OpTypeFunction %void %out_ptr
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %out_ptr
      %entry = OpLabel
)";
}

// The variable decorated with Vulkan's `builtin` that the pass declared (the
// translator's variables are gone, but their names and decorations stay
// for remove_unused_globals).
std::string vulkan_builtin(const std::string& text, const std::string& builtin) {
  return captured(text, "OpDecorate (%(?!__spirv_)\\w+) BuiltIn " + builtin + "\n");
}

// get_local_id(0): the load of the v3ulong variable becomes, under the same
// id, the widening of a load of a new v3uint LocalInvocationId (Vulkan
// requires 32 bits); the translator's variable goes. Nothing else is read:
// no push-constant field, no other builtin.
TEST(LowerBuiltinVariables, TheLocalIdIsLocalInvocationIdWidenedAndReadsNoPushConstant) {
  const std::string text = run_passes({"rewrite_entry_points", "lower_builtin_variables"},
                                      kernel_module(builtin_kernel() + R"(
      %local = OpLoad %v3ulong %__spirv_BuiltInLocalInvocationId Aligned 32
         %l0 = OpCompositeExtract %ulong %local 0
               OpStore %out %l0 Aligned 8
               OpReturn
               OpFunctionEnd
)"));
  const std::string variable = vulkan_builtin(text, "LocalInvocationId");
  EXPECT_TRUE(contains(text, variable + " = OpVariable %_ptr_Input_v3uint Input\n")) << text;
  const std::string loaded = captured(text, "(%\\w+) = OpLoad %v3uint " + variable + "\n");
  EXPECT_TRUE(contains(text, "%local = OpUConvert %v3ulong " + loaded + "\n%l0 = OpCompositeExtract %ulong %local 0\n"))
      << text;
  EXPECT_EQ(count(text, "= OpVariable"), 1) << text;
  EXPECT_EQ(count(text, "PushConstant"), 0) << text;
  EXPECT_EQ(count(text, "OpCapability GroupNonUniform"), 0) << text;
}

// get_global_id(0) without reqd_work_group_size: WorkgroupId * the enqueued
// local size (a push-constant field, the xyz of a uint4) + LocalInvocationId
// + the dispatch's first global id (another field), in 32 bits, widened to
// the translator's v3ulong; the reflection records both fields.
TEST(LowerBuiltinVariables, TheGlobalIdIsComputedFromTheGroupAndTwoPushConstantFields) {
  const Lowered lowered = run_with({}, {"rewrite_entry_points", "lower_builtin_variables"},
                                   kernel_module(builtin_kernel() + R"(
     %global = OpLoad %v3ulong %__spirv_BuiltInGlobalInvocationId Aligned 32
         %g0 = OpCompositeExtract %ulong %global 0
               OpStore %out %g0 Aligned 8
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  // A push-constant field, member `member`: its uint4 loaded and its xyz taken.
  auto field = [&](const std::string& member) {
    const std::string pointer =
        captured(text, "(%\\w+) = OpAccessChain %_ptr_PushConstant_v4uint %\\w+ " + member + "\n");
    const std::string value = captured(text, "(%\\w+) = OpLoad %v4uint " + pointer + "\n");
    return captured(text, "(%\\w+) = OpVectorShuffle %v3uint " + value + " " + value + " 0 1 2\n");
  };
  const std::string group = captured(text, "(%\\w+) = OpLoad %v3uint " + vulkan_builtin(text, "WorkgroupId") + "\n");
  const std::string local =
      captured(text, "(%\\w+) = OpLoad %v3uint " + vulkan_builtin(text, "LocalInvocationId") + "\n");
  const std::string scaled = captured(text, "(%\\w+) = OpIMul %v3uint " + group + " " + field("%uint_0") + "\n");
  const std::string sum = captured(text, "(%\\w+) = OpIAdd %v3uint " + scaled + " " + local + "\n");
  // The base is added where the ND-range is offset in the kernel: the field
  // selected by the specialization constant (kOffsetsInKernelSpecId), else 0.
  const std::string flag = captured(text, "(%\\w+) = OpSpecConstantTrue %bool\n");
  EXPECT_TRUE(contains(text, "OpDecorate " + flag + " SpecId " + std::to_string(kOffsetsInKernelSpecId) + "\n")) << text;
  const std::string flags = captured(text, "(%\\w+) = OpSpecConstantComposite %v3bool " + flag + " " + flag + " " + flag + "\n");
  const std::string base = captured(text, "(%\\w+) = OpSelect %v3uint " + flags + " " + field("%uint_1") + " %\\w+\n");
  const std::string id = captured(text, "(%\\w+) = OpIAdd %v3uint " + sum + " " + base + "\n");
  EXPECT_TRUE(contains(text, "%global = OpUConvert %v3ulong " + id + "\n")) << text;
  EXPECT_EQ(count(text, "OpVariable %in_v3ulong"), 0) << text;
  ASSERT_EQ(lowered.reflection.kernels.size(), 1u);
  const KernelReflection& kernel = lowered.reflection.kernels[0];
  EXPECT_EQ(kernel.ndrange_offset(NDRangeField::EnqueuedLocalSize), 0u);
  EXPECT_EQ(kernel.ndrange_offset(NDRangeField::GlobalIdBase), 16u);
  EXPECT_EQ(kernel.ndrange.size(), 2u);
}

// With reqd_work_group_size(8, 4, 1) (the Kernel LocalSize mode) the
// enqueued local size is that constant, not a push-constant field: only the
// first global id is read from the push constants.
TEST(LowerBuiltinVariables, AKernelWithReqdWorkGroupSizeMultipliesByItsConstant) {
  const Lowered lowered = run_with({}, {"rewrite_entry_points", "lower_builtin_variables"},
                                   kernel_module(builtin_kernel("OpExecutionMode %k LocalSize 8 4 1\n") + R"(
     %global = OpLoad %v3ulong %__spirv_BuiltInGlobalInvocationId Aligned 32
         %g0 = OpCompositeExtract %ulong %global 0
               OpStore %out %g0 Aligned 8
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  const std::string size = captured(text, R"((%\w+) = OpConstantComposite %v3uint %uint_8 %uint_4 %uint_1\n)");
  EXPECT_EQ(count(text, "OpIMul %v3uint %\\w+ " + size + "\n"), 1) << text;
  EXPECT_EQ(count(text, "OpAccessChain %_ptr_PushConstant_v4uint"), 1) << text;
  ASSERT_EQ(lowered.reflection.kernels.size(), 1u);
  const KernelReflection& kernel = lowered.reflection.kernels[0];
  EXPECT_FALSE(kernel.ndrange_offset(NDRangeField::EnqueuedLocalSize).has_value());
  EXPECT_EQ(kernel.ndrange_offset(NDRangeField::GlobalIdBase), 0u);
}

// get_sub_group_size(): min(SubgroupSize, local items - SubgroupId *
// SubgroupSize), so that the last sub-group of a work-group whose size is
// not a multiple of SubgroupSize counts only its own work-items; the local
// items are the product of the WorkgroupSize spec constant's components.
// It declares GroupNonUniform.
TEST(LowerBuiltinVariables, TheSubGroupSizeIsSmallerForTheLastPartialSubGroup) {
  const Lowered lowered = run_with({}, {"rewrite_entry_points", "lower_builtin_variables"},
                                   kernel_module(builtin_kernel() + R"(
       %size = OpLoad %uint %__spirv_BuiltInSubgroupSize Aligned 4
     %size64 = OpUConvert %ulong %size
               OpStore %out %size64 Aligned 8
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  const std::string size = captured(text, "(%\\w+) = OpLoad %uint " + vulkan_builtin(text, "SubgroupSize") + "\n");
  const std::string id = captured(text, "(%\\w+) = OpLoad %uint " + vulkan_builtin(text, "SubgroupId") + "\n");
  const std::string before = captured(text, "(%\\w+) = OpIMul %uint " + id + " " + size + "\n");
  const std::string workgroup_size = vulkan_builtin(text, "WorkgroupSize");
  std::string items = captured(text, "(%\\w+) = OpCompositeExtract %uint " + workgroup_size + " 0\n");
  for (const char* d : {"1", "2"}) {
    const std::string component =
        captured(text, "(%\\w+) = OpCompositeExtract %uint " + workgroup_size + " " + d + "\n");
    items = captured(text, "(%\\w+) = OpIMul %uint " + items + " " + component + "\n");
  }
  const std::string left = captured(text, "(%\\w+) = OpISub %uint " + items + " " + before + "\n");
  const std::string partial = captured(text, "(%\\w+) = OpULessThan %bool " + left + " " + size + "\n");
  const std::string least = captured(text, "(%\\w+) = OpSelect %uint " + partial + " " + left + " " + size + "\n");
  EXPECT_TRUE(contains(text, "%size = OpCopyObject %uint " + least + "\n")) << text;
  EXPECT_EQ(count(text, "OpCapability GroupNonUniform\n"), 1) << text;
  EXPECT_TRUE(lowered.reflection.features.subgroup_basic);
}

// ---------------------------------------------------------------------------
// lower_program_scope_constants

// `__constant float weights[4] = {...}` read at a run-time index, and a
// `__constant float *` kernel argument read the same way.
const std::string kConstantTables = R"(
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
     %uint_4 = OpConstant %uint 4
    %float_1 = OpConstant %float 1
    %float_2 = OpConstant %float 2
     %floats = OpTypeArray %float %uint_4
  %table_ptr = OpTypePointer UniformConstant %floats
  %float_ptr = OpTypePointer UniformConstant %float
       %init = OpConstantComposite %floats %float_1 %float_2 %float_2 %float_1
    %weights = OpVariable %table_ptr UniformConstant %init
)";

// The variable becomes Private with the same initialiser, declared after
// its new pointer type; the access chain into it gets the Private pointer
// type of its pointee; the load through it is unchanged.
TEST(LowerProgramScopeConstants, AConstantTableBecomesAPrivateVariableAndItsAccessChainsFollow) {
  const std::string text = run_alone("lower_program_scope_constants", kernel_module(kConstantTables + R"(
         %fn = OpTypeFunction %float %uint
          %f = OpFunction %float None %fn
          %i = OpFunctionParameter %uint
      %entry = OpLabel
    %element = OpInBoundsPtrAccessChain %float_ptr %weights %uint_0 %i
     %weight = OpLoad %float %element Aligned 4
               OpReturnValue %weight
               OpFunctionEnd
)"));
  const std::string table_type = captured(text, R"((%\w+) = OpTypePointer Private %floats\n)");
  const std::string variable = "%weights = OpVariable " + table_type + " Private %init\n";
  EXPECT_TRUE(contains(text, variable)) << text;
  EXPECT_LT(text.find(table_type + " = OpTypePointer"), text.find(variable)) << text;
  const std::string element_type = captured(text, R"((%\w+) = OpTypePointer Private %float\n)");
  EXPECT_TRUE(contains(text, "%element = OpInBoundsPtrAccessChain " + element_type + " %weights %uint_0 %i\n")) << text;
  EXPECT_TRUE(contains(text, "%weight = OpLoad %float %element Aligned 4\n")) << text;
  EXPECT_EQ(count(text, "UniformConstant %init"), 0) << text;
}

// A pointer chosen at run time between two elements of the table (a select,
// and a phi after a branch) is retyped with them; a null pointer among the
// choices (never dereferenced in a correct program) becomes an OpUndef of
// the Private pointer type, since a null pointer of a logical storage class
// is invalid.
TEST(LowerProgramScopeConstants, SelectsAndPhisOfTablePointersAreRetypedAndNullBecomesUndef) {
  const std::string text = run_alone("lower_program_scope_constants", kernel_module(kConstantTables + R"(
       %bool = OpTypeBool
       %null = OpConstantNull %float_ptr
         %fn = OpTypeFunction %float %bool %uint
          %f = OpFunction %float None %fn
       %cond = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
      %entry = OpLabel
      %first = OpInBoundsPtrAccessChain %float_ptr %weights %uint_0 %uint_0
        %nth = OpInBoundsPtrAccessChain %float_ptr %weights %uint_0 %i
     %chosen = OpSelect %float_ptr %cond %first %nth
               OpBranchConditional %cond %then %join
       %then = OpLabel
               OpBranch %join
       %join = OpLabel
      %maybe = OpPhi %float_ptr %chosen %then %null %entry
      %value = OpLoad %float %maybe Aligned 4
               OpReturnValue %value
               OpFunctionEnd
)"));
  const std::string element_type = captured(text, R"((%\w+) = OpTypePointer Private %float\n)");
  EXPECT_TRUE(contains(text, "%chosen = OpSelect " + element_type + " %cond %first %nth\n")) << text;
  const std::string undef = captured(text, "(%\\w+) = OpUndef " + element_type + "\n");
  EXPECT_TRUE(contains(text, "%maybe = OpPhi " + element_type + " %chosen %then " + undef + " %entry\n")) << text;
  EXPECT_EQ(count(text, "OpSelect %float_ptr|OpPhi %float_ptr|OpInBoundsPtrAccessChain %float_ptr"), 0) << text;
}

// A `__constant float *` kernel argument is a buffer address, not a table:
// it and the pointers derived from it keep their UniformConstant types
// (legalize_pointers makes them buffer addresses), beside a table that the
// pass does lower.
TEST(LowerProgramScopeConstants, ConstantArgumentPointersStayUniformConstant) {
  const std::string text = run_alone("lower_program_scope_constants", kernel_module(kConstantTables + R"(
         %fn = OpTypeFunction %float %float_ptr %uint
          %f = OpFunction %float None %fn
        %arg = OpFunctionParameter %float_ptr
          %i = OpFunctionParameter %uint
      %entry = OpLabel
    %element = OpInBoundsPtrAccessChain %float_ptr %arg %i
      %value = OpLoad %float %element Aligned 4
               OpReturnValue %value
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%fn = OpTypeFunction %float %float_ptr %uint\n")) << text;
  EXPECT_TRUE(contains(text, "%arg = OpFunctionParameter %float_ptr\n")) << text;
  EXPECT_TRUE(contains(text, "%element = OpInBoundsPtrAccessChain %float_ptr %arg %i\n")) << text;
  // The table in the same module is lowered all the same.
  EXPECT_EQ(count(text, "%weights = OpVariable %\\w+ Private %init\n"), 1) << text;
}

// A pointer that may point either to the table or to a __constant argument
// would be a Private variable on one side and a buffer address on the
// other: a located error, never invalid SPIR-V. So is a program-scope
// __constant variable without an initialiser.
TEST(LowerProgramScopeConstants, AChoiceBetweenATableAndAnArgumentOrNoInitialiserIsAnError) {
  const std::string mixed = error_of({"lower_program_scope_constants"}, kernel_module(kConstantTables + R"(
       %bool = OpTypeBool
         %fn = OpTypeFunction %float %bool %float_ptr
          %f = OpFunction %float None %fn
       %cond = OpFunctionParameter %bool
        %arg = OpFunctionParameter %float_ptr
      %entry = OpLabel
      %first = OpInBoundsPtrAccessChain %float_ptr %weights %uint_0 %uint_0
     %chosen = OpSelect %float_ptr %cond %first %arg
      %value = OpLoad %float %chosen Aligned 4
               OpReturnValue %value
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(mixed, "either to a program-scope __constant variable or to a __constant kernel argument"))
      << mixed;
  const std::string uninitialised = error_of({"lower_program_scope_constants"}, kernel_module(R"(
      %float = OpTypeFloat 32
  %float_ptr = OpTypePointer UniformConstant %float
      %empty = OpVariable %float_ptr UniformConstant
)"));
  EXPECT_TRUE(contains(uninitialised, "'empty' has no initializer")) << uninitialised;
}

// ---------------------------------------------------------------------------
// legalize_subgroup_operations

// The start of every legalize_subgroup_operations test: uint f(uint x, uint
// id), up to its entry label. Scope 3 is Subgroup, 2 Workgroup.
const std::string kSubgroupFunction = R"(
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
         %fn = OpTypeFunction %uint %uint %uint
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %uint
         %id = OpFunctionParameter %uint
      %entry = OpLabel
)";

// sub_group_broadcast(x, id) with an id known only at run time: SPIR-V 1.3
// requires a constant id, so it becomes a shuffle with the same operands
// (OpenCL makes the id uniform, and a shuffle with a uniform id is a
// broadcast), which needs GroupNonUniformShuffle. A broadcast of a constant
// id stays, and needs GroupNonUniformBallot.
TEST(LegalizeSubgroupOperations, ABroadcastOfARunTimeIdBecomesAShuffleAndOfAConstantIdStays) {
  const Lowered lowered = run_with({}, {"legalize_subgroup_operations"}, kernel_module(kSubgroupFunction + R"(
    %dynamic = OpGroupNonUniformBroadcast %uint %uint_3 %x %id
   %constant = OpGroupNonUniformBroadcast %uint %uint_3 %x %uint_0
        %sum = OpIAdd %uint %dynamic %constant
               OpReturnValue %sum
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  EXPECT_TRUE(contains(text, "%dynamic = OpGroupNonUniformShuffle %uint %uint_3 %x %id\n")) << text;
  EXPECT_TRUE(contains(text, "%constant = OpGroupNonUniformBroadcast %uint %uint_3 %x %uint_0\n")) << text;
  for (const char* capability : {"GroupNonUniform", "GroupNonUniformShuffle", "GroupNonUniformBallot"})
    EXPECT_EQ(count(text, std::string("OpCapability ") + capability + "\n"), 1) << capability << "\n" << text;
  const ModuleFeatures& features = lowered.reflection.features;
  EXPECT_TRUE(features.subgroup_basic && features.subgroup_shuffle && features.subgroup_ballot);
  EXPECT_FALSE(features.subgroup_extended_types);
}

// The GroupNonUniform* capabilities are recomputed from the instructions:
// those declared for operations that are gone (vote, shuffle) are removed
// (a declared capability needs the device feature even unused), and a
// reduction and a clustered reduction of a power-of-two cluster declare
// Arithmetic and Clustered. A 64-bit integer operated on needs the
// shaderSubgroupExtendedTypes feature.
TEST(LegalizeSubgroupOperations, CapabilitiesAreRecomputedFromTheInstructionsThatRemain) {
  const Lowered lowered = run_with({}, {"legalize_subgroup_operations"}, kernel_module(R"(
               OpCapability Int64
               OpCapability GroupNonUniformVote
               OpCapability GroupNonUniformShuffle
      %ulong = OpTypeInt 64 0
)" + kSubgroupFunction + R"(
       %wide = OpUConvert %ulong %x
        %sum = OpGroupNonUniformIAdd %ulong %uint_3 Reduce %wide
    %cluster = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x %uint_4
     %narrow = OpUConvert %uint %sum
     %result = OpIAdd %uint %narrow %cluster
               OpReturnValue %result
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  EXPECT_EQ(count(text, "OpCapability GroupNonUniform(Vote|Shuffle)\n"), 0) << text;
  for (const char* capability : {"GroupNonUniform", "GroupNonUniformArithmetic", "GroupNonUniformClustered"})
    EXPECT_EQ(count(text, std::string("OpCapability ") + capability + "\n"), 1) << capability << "\n" << text;
  EXPECT_TRUE(contains(text, "%sum = OpGroupNonUniformIAdd %ulong %uint_3 Reduce %wide\n")) << text;
  EXPECT_TRUE(contains(text, "%cluster = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x %uint_4\n")) << text;
  const ModuleFeatures& features = lowered.reflection.features;
  EXPECT_TRUE(features.subgroup_arithmetic && features.subgroup_clustered && features.subgroup_extended_types);
  EXPECT_FALSE(features.subgroup_vote || features.subgroup_shuffle);
}

// A module without sub-group operations is left as it was: no capability
// added, no feature asked for.
TEST(LegalizeSubgroupOperations, AModuleWithoutSubGroupOperationsIsLeftAlone) {
  const std::string input = kernel_module(kSubgroupFunction + R"(
        %sum = OpIAdd %uint %x %id
               OpReturnValue %sum
               OpFunctionEnd
)");
  const Lowered lowered = run_with({}, {"legalize_subgroup_operations"}, input);
  EXPECT_EQ(lowered.text, run_passes({}, input));
  EXPECT_EQ(count(lowered.text, "GroupNonUniform"), 0) << lowered.text;
  EXPECT_FALSE(lowered.reflection.features.subgroup_basic);
}

// What builtins/ never emits is an error, not a module a driver may reject:
// a scope other than the sub-group, a cluster size that is not a power of
// two, a quad operation.
TEST(LegalizeSubgroupOperations, AWorkgroupScopeAClusterOfThreeAndQuadOperationsAreErrors) {
  const std::string workgroup = error_of({"legalize_subgroup_operations"}, kernel_module(kSubgroupFunction + R"(
        %sum = OpGroupNonUniformIAdd %uint %uint_2 Reduce %x
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(workgroup, "a sub-group reduction or scan whose scope is not the sub-group")) << workgroup;
  const std::string cluster = error_of({"legalize_subgroup_operations"}, kernel_module(kSubgroupFunction + R"(
        %sum = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x %uint_3
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(cluster, "must be a compile-time constant power of two")) << cluster;
  const std::string quad = error_of({"legalize_subgroup_operations"}, kernel_module(kSubgroupFunction + R"(
    %swapped = OpGroupNonUniformQuadSwap %uint %uint_3 %x %uint_0
               OpReturnValue %swapped
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(quad, "is not supported")) << quad;
}

// Partitioned operations (SPV_NV_shader_subgroup_partitioned) never come from
// builtins/: a partitioned reduction and OpGroupNonUniformPartitionNV are
// errors, not arithmetic that loses its capability.
TEST(LegalizeSubgroupOperations, PartitionedOperationsAreErrors) {
  const std::string reduce = error_of({"legalize_subgroup_operations"}, kernel_module(kSubgroupFunction + R"(
        %sum = OpGroupNonUniformIAdd %uint %uint_3 PartitionedReduceNV %x %id
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(reduce, "a partitioned one) is not supported")) << reduce;
  const std::string partition = error_of({"legalize_subgroup_operations"}, kernel_module(R"(
       %uint = OpTypeInt 32 0
     %v4uint = OpTypeVector %uint 4
         %fn = OpTypeFunction %v4uint %uint
          %f = OpFunction %v4uint None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
     %groups = OpGroupNonUniformPartitionNV %v4uint %x
               OpReturnValue %groups
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(partition, "is not supported")) << partition;
}

}  // namespace
}  // namespace vkcl
