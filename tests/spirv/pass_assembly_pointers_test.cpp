// Passes one at a time on SPIR-V assembly (pass_assembly.h), for the passes
// about pointers and the memory types they point to: legalize_pointers,
// narrow_local_indices, make_global_accesses_coherent and
// lower_long_vectors. The inputs are Kernel SPIR-V as the SPIRV-LLVM
// translator writes it (global pointers CrossWorkgroup, size_t indices
// 64-bit), or, for the passes after legalize_pointers, as the passes before
// them leave it (global pointers already PhysicalStorageBuffer, memory
// semantics already mapped to Vulkan's).
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "pass_assembly.h"

namespace vkcl {
namespace {

using test::captured;
using test::contains;
using test::count;
using test::error_of;
using test::kernel_module;
using test::run_alone;
using test::run_passes;
using test::run_with;

// ---------------------------------------------------------------------------
// legalize_pointers

// A kernel reading `in[i]` and writing `out[i]` through __global pointers:
// CrossWorkgroup pointer types, one OpInBoundsPtrAccessChain per access, a
// load without a memory operand and a store the translator marked Aligned 16.
// The pointer type must become PhysicalStorageBuffer in place (same id, so
// the parameters and chains follow), the chains plain OpPtrAccessChain (the
// InBounds form is Kernel-only on physical pointers), the chained type gets
// ArrayStride 4 (its pointee's size, which OpPtrAccessChain needs), the bare
// load Aligned 4 (the pointee's alignment) and the store keeps its own 16.
TEST(LegalizePointers, GlobalPointersBecomePhysicalStorageBufferWithStrideAndAlignment) {
  const std::string text = run_alone("legalize_pointers", kernel_module(R"(
               OpCapability Int64
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
 %global_ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %global_ptr %global_ptr %ulong
     %kernel = OpFunction %void None %fn
         %in = OpFunctionParameter %global_ptr
        %out = OpFunctionParameter %global_ptr
          %i = OpFunctionParameter %ulong
      %entry = OpLabel
     %source = OpInBoundsPtrAccessChain %global_ptr %in %i
      %value = OpLoad %uint %source
%destination = OpInBoundsPtrAccessChain %global_ptr %out %i
               OpStore %destination %value Aligned 16
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%global_ptr = OpTypePointer PhysicalStorageBuffer %uint\n")) << text;
  EXPECT_EQ(count(text, "CrossWorkgroup"), 0) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %global_ptr ArrayStride 4\n")) << text;
  EXPECT_TRUE(contains(text, "%source = OpPtrAccessChain %global_ptr %in %i\n")) << text;
  EXPECT_TRUE(contains(text, "%destination = OpPtrAccessChain %global_ptr %out %i\n")) << text;
  EXPECT_EQ(count(text, "OpInBoundsPtrAccessChain"), 0) << text;
  EXPECT_TRUE(contains(text, "%value = OpLoad %uint %source Aligned 4\n")) << text;
  EXPECT_TRUE(contains(text, "OpStore %destination %value Aligned 16\n")) << text;
}

// `p == NULL` on a __global pointer: the translator compares with an
// OpConstantNull of the CrossWorkgroup pointer type. Physical storage
// buffer pointers have no null constant (spirv-val rejects it), so the
// function converts 0 to the pointer type at the top of its entry block,
// after its variables, and the constant goes.
TEST(LegalizePointers, ANullGlobalPointerIsZeroConvertedInTheFunction) {
  const std::string text = run_alone("legalize_pointers", kernel_module(R"(
               OpCapability Int64
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
 %global_ptr = OpTypePointer CrossWorkgroup %uint
%private_ptr = OpTypePointer Function %uint
       %null = OpConstantNull %global_ptr
         %fn = OpTypeFunction %void %global_ptr
     %kernel = OpFunction %void None %fn
          %p = OpFunctionParameter %global_ptr
      %entry = OpLabel
        %var = OpVariable %private_ptr Function
      %equal = OpPtrEqual %bool %p %null
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "OpConstantNull"), 0) << text;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      text, match, std::regex("%var = OpVariable %private_ptr Function\n(%[0-9]+) = OpConvertUToPtr %global_ptr %ulong_0\n")))
      << text;
  EXPECT_TRUE(contains(text, "%equal = OpPtrEqual %bool %p " + match[1].str() + "\n")) << text;
}

// `&buf[i] + j` on a __local array: an OpPtrAccessChain whose base is an
// OpAccessChain of the Workgroup variable, illegal under logical
// addressing. It must fold into one OpAccessChain from the variable, its
// last index i + j computed in i's type (ulong), the uint j sign-extended
// to it first; the chain from the variable itself stays as it was.
TEST(LegalizePointers, ALocalPointerOffsetFoldsIntoOneAccessChainFromTheVariable) {
  const std::string text = run_alone("legalize_pointers", kernel_module(R"(
               OpCapability Int64
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %uint_64 = OpConstant %uint 64
      %array = OpTypeArray %uint %uint_64
  %array_ptr = OpTypePointer Workgroup %array
  %local_ptr = OpTypePointer Workgroup %uint
        %buf = OpVariable %array_ptr Workgroup
         %fn = OpTypeFunction %void %ulong %uint
     %kernel = OpFunction %void None %fn
          %i = OpFunctionParameter %ulong
          %j = OpFunctionParameter %uint
      %entry = OpLabel
    %element = OpAccessChain %local_ptr %buf %i
     %offset = OpPtrAccessChain %local_ptr %element %j
               OpStore %offset %uint_64
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%element = OpAccessChain %local_ptr %buf %i\n")) << text;
  const std::string wide_j = captured(text, R"((%\w+) = OpSConvert %ulong %j\n)");
  const std::string sum = captured(text, "(%\\w+) = OpIAdd %ulong %i " + wide_j + "\n");
  EXPECT_TRUE(contains(text, "%offset = OpAccessChain %local_ptr %buf " + sum + "\n")) << text;
  EXPECT_EQ(count(text, "OpPtrAccessChain"), 0) << text;
  // Workgroup pointers get no stride: they are not physical.
  EXPECT_EQ(count(text, "ArrayStride"), 0) << text;
}

// What Vulkan cannot express and the pass does not handle yet must be a
// CompileError naming the construct, not invalid SPIR-V: here a pointer to
// the generic address space, which clang could not resolve.
TEST(LegalizePointers, AGenericPointerIsAnErrorThatSaysSo) {
  const std::string error = error_of({"legalize_pointers"}, kernel_module(R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
%generic_ptr = OpTypePointer Generic %uint
         %fn = OpTypeFunction %void %generic_ptr
     %kernel = OpFunction %void None %fn
          %p = OpFunctionParameter %generic_ptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "generic address space")) << error;
}

// ---------------------------------------------------------------------------
// narrow_local_indices

// The 64-bit indices clang makes of `buf[(uint)i]` (OpUConvert), `buf[n]`
// with an int n (OpSConvert) and `buf[x & 0xffff]` on a ulong x, each into a
// __local array of 64 uints. Each must become the 32-bit value it extends
// (for the mask, x's low word masked in 32 bits), since in an array of fewer
// than 2^31 elements the 32-bit index selects the same element, and the
// 64-bit conversions left unused must go, names and all. Chains as
// legalize_pointers leaves them (one OpAccessChain from the variable), so no
// earlier pass is needed.
// `((global float*)p)[i]` on a `global float4* p`: LLVM folds the cast
// into a GEP into the vector, which the translator writes as a chain whose
// last index, a runtime value, picks the component. Past 3 that index is
// undefined in SPIR-V; the pass takes the address in floats instead. A
// constant index in range stays a component of the vector; an element
// index other than 0 stays in front, in vectors.
TEST(AddressDynamicVectorComponents, ARuntimeComponentIndexBecomesAnAddressInComponents) {
  const std::string text = run_passes({"legalize_pointers", "address_dynamic_vector_components"}, kernel_module(R"(
               OpCapability Int64
               OpCapability Vector16
       %void = OpTypeVoid
      %float = OpTypeFloat 32
     %float4 = OpTypeVector %float 4
      %ulong = OpTypeInt 64 0
    %ulong_0 = OpConstant %ulong 0
    %ulong_2 = OpConstant %ulong 2
   %ulong_3 = OpConstant %ulong 3
 %vector_ptr = OpTypePointer CrossWorkgroup %float4
  %float_ptr = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %vector_ptr %float_ptr %ulong
     %kernel = OpFunction %void None %fn
          %p = OpFunctionParameter %vector_ptr
        %out = OpFunctionParameter %float_ptr
          %i = OpFunctionParameter %ulong
      %entry = OpLabel
    %dynamic = OpInBoundsPtrAccessChain %float_ptr %p %ulong_0 %i
          %a = OpLoad %float %dynamic Aligned 4
    %further = OpInBoundsPtrAccessChain %float_ptr %p %ulong_2 %i
          %b = OpLoad %float %further Aligned 4
      %fixed = OpInBoundsPtrAccessChain %float_ptr %p %i %ulong_3
          %c = OpLoad %float %fixed Aligned 4
       %sum1 = OpFAdd %float %a %b
       %sum2 = OpFAdd %float %sum1 %c
               OpStore %out %sum2 Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  // p[0][i]: the base cast to float*, then i floats on.
  const std::string cast = captured(text, R"((%\w+) = OpBitcast %float_ptr %p\n)");
  EXPECT_TRUE(contains(text, "%dynamic = OpPtrAccessChain %float_ptr " + cast + " %i\n")) << text;
  // p[2][i]: to the third vector first, then cast.
  const std::string third = captured(text, R"((%\w+) = OpPtrAccessChain %vector_ptr %p %ulong_2\n)");
  const std::string third_cast = captured(text, "(%\\w+) = OpBitcast %float_ptr " + third + "\n");
  EXPECT_TRUE(contains(text, "%further = OpPtrAccessChain %float_ptr " + third_cast + " %i\n")) << text;
  // p[i][3]: in range, a component.
  EXPECT_TRUE(contains(text, "%fixed = OpPtrAccessChain %float_ptr %p %i %ulong_3\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %float_ptr ArrayStride 4\n")) << text;
}

TEST(NarrowLocalIndices, ExtendedIndicesIntoALocalArrayBecomeTheirThirtyTwoBitValues) {
  const std::string text = run_alone("narrow_local_indices", kernel_module(R"(
               OpCapability Int64
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %uint_64 = OpConstant %uint 64
%ulong_65535 = OpConstant %ulong 65535
      %array = OpTypeArray %uint %uint_64
  %array_ptr = OpTypePointer Workgroup %array
  %local_ptr = OpTypePointer Workgroup %uint
        %buf = OpVariable %array_ptr Workgroup
         %fn = OpTypeFunction %void %uint %uint %ulong
     %kernel = OpFunction %void None %fn
          %i = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
          %x = OpFunctionParameter %ulong
      %entry = OpLabel
     %wide_i = OpUConvert %ulong %i
      %by_i = OpAccessChain %local_ptr %buf %wide_i
     %wide_n = OpSConvert %ulong %n
       %by_n = OpAccessChain %local_ptr %buf %wide_n
     %masked = OpBitwiseAnd %ulong %x %ulong_65535
  %by_masked = OpAccessChain %local_ptr %buf %masked
               OpStore %by_i %uint_64
               OpStore %by_n %uint_64
               OpStore %by_masked %uint_64
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%by_i = OpAccessChain %local_ptr %buf %i\n")) << text;
  EXPECT_TRUE(contains(text, "%by_n = OpAccessChain %local_ptr %buf %n\n")) << text;
  const std::string low = captured(text, R"((%\w+) = OpUConvert %uint %x\n)");
  const std::string narrow_mask = captured(text, "(%\\w+) = OpBitwiseAnd %uint " + low + " %uint_65535\n");
  EXPECT_TRUE(contains(text, "%by_masked = OpAccessChain %local_ptr %buf " + narrow_mask + "\n")) << text;
  EXPECT_EQ(count(text, "%wide_i|%wide_n|%masked"), 0) << text;
  EXPECT_EQ(count(text, "OpUConvert %ulong|OpSConvert %ulong|OpBitwiseAnd %ulong"), 0) << text;
}

// Indices the pass must leave in 64 bits: into global memory (an
// OpPtrAccessChain on a PhysicalStorageBuffer pointer, whose element index
// is signed: a 32-bit one would address below the base), and into a
// __private array of 2^32 elements (longer than a 32-bit index can reach).
// Both zero-extensions stay, and so do the chains.
TEST(NarrowLocalIndices, GlobalIndicesAndIndicesIntoHugeArraysStaySixtyFourBit) {
  const std::string text = run_alone("narrow_local_indices", kernel_module(R"(
               OpCapability Int64
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
%ulong_4294967296 = OpConstant %ulong 4294967296
 %huge_array = OpTypeArray %uint %ulong_4294967296
   %huge_ptr = OpTypePointer Function %huge_array
%private_ptr = OpTypePointer Function %uint
 %global_ptr = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %global_ptr %uint
     %kernel = OpFunction %void None %fn
          %p = OpFunctionParameter %global_ptr
          %i = OpFunctionParameter %uint
      %entry = OpLabel
       %huge = OpVariable %huge_ptr Function
     %wide_i = OpUConvert %ulong %i
  %in_global = OpPtrAccessChain %global_ptr %p %wide_i
    %in_huge = OpAccessChain %private_ptr %huge %wide_i
               OpStore %in_global %i Aligned 4
               OpStore %in_huge %i
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%wide_i = OpUConvert %ulong %i\n")) << text;
  EXPECT_TRUE(contains(text, "%in_global = OpPtrAccessChain %global_ptr %p %wide_i\n")) << text;
  EXPECT_TRUE(contains(text, "%in_huge = OpAccessChain %private_ptr %huge %wide_i\n")) << text;
}

// ---------------------------------------------------------------------------
// make_global_accesses_coherent

// Types and constants for the kernels below, as the passes before this one
// leave them: global pointers PhysicalStorageBuffer, memory semantics
// Vulkan's (AcquireRelease 0x8, UniformMemory 0x40, WorkgroupMemory 0x100),
// scope Workgroup 2.
const std::string kCoherenceTypes = R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
    %uint_72 = OpConstant %uint 72
   %uint_264 = OpConstant %uint 264
 %global_ptr = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %global_ptr %global_ptr
)";

// A kernel that loads in[0], stores it to out[0] and reaches a barrier
// ordering `barrier_semantics`, with OpName %kernel.
std::string barrier_kernel(const std::string& barrier_semantics) {
  return kernel_module(kCoherenceTypes + R"(
     %kernel = OpFunction %void None %fn
         %in = OpFunctionParameter %global_ptr
        %out = OpFunctionParameter %global_ptr
      %entry = OpLabel
      %value = OpLoad %uint %in Aligned 4
               OpStore %out %value Aligned 4
               OpControlBarrier %uint_2 %uint_2 )" + barrier_semantics + R"(
               OpReturn
               OpFunctionEnd
)");
}

LoweringOptions glsl450() {
  LoweringOptions options;
  options.memory_model = MemoryModel::GLSL450;
  return options;
}

// Under GLSL450 a barrier on global memory (UniformMemory) orders only
// Coherent accesses, and Coherent must sit on a struct member, not a
// pointer: each load and store through a PhysicalStorageBuffer pointer to
// uint must go through a bitcast to a pointer to one fresh struct { uint }
// whose member 0 is Coherent (Offset 0), then an OpAccessChain to that
// member. Both accesses share the one wrapper.
TEST(MakeGlobalAccessesCoherent, AccessesInAKernelFencingGlobalMemoryGoThroughACoherentMember) {
  const std::string text = run_with(glsl450(), {"make_global_accesses_coherent"}, barrier_kernel("%uint_72")).text;
  const std::string wrapper = captured(text, R"((%\w+) = OpTypeStruct %uint\n)");
  EXPECT_EQ(count(text, "OpTypeStruct"), 1) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate " + wrapper + " 0 Coherent\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate " + wrapper + " 0 Offset 0\n")) << text;
  const std::string wrapper_ptr = captured(text, "(%\\w+) = OpTypePointer PhysicalStorageBuffer " + wrapper + "\n");

  const std::string wrapped_in = captured(text, "(%\\w+) = OpBitcast " + wrapper_ptr + " %in\n");
  const std::string member_in = captured(text, "(%\\w+) = OpAccessChain %global_ptr " + wrapped_in + " %uint_0\n");
  EXPECT_TRUE(contains(text, "%value = OpLoad %uint " + member_in + " Aligned 4\n")) << text;
  const std::string wrapped_out = captured(text, "(%\\w+) = OpBitcast " + wrapper_ptr + " %out\n");
  const std::string member_out = captured(text, "(%\\w+) = OpAccessChain %global_ptr " + wrapped_out + " %uint_0\n");
  EXPECT_TRUE(contains(text, "OpStore " + member_out + " %value Aligned 4\n")) << text;
}

// Storage buffers (bind_storage_buffers' variables) are memory object
// declarations: under GLSL450, in a kernel fencing global memory, the
// variable itself must be decorated Coherent, and its accesses (StorageBuffer,
// not PhysicalStorageBuffer) need no wrapper.
TEST(MakeGlobalAccessesCoherent, AStorageBufferTheKernelUsesIsDecoratedCoherent) {
  const std::string text = run_with(glsl450(), {"make_global_accesses_coherent"}, kernel_module(R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
    %uint_72 = OpConstant %uint 72
   %runtime = OpTypeRuntimeArray %uint
     %block = OpTypeStruct %runtime
 %block_ptr = OpTypePointer StorageBuffer %block
  %uint_ptr = OpTypePointer StorageBuffer %uint
    %buffer = OpVariable %block_ptr StorageBuffer
        %fn = OpTypeFunction %void
    %kernel = OpFunction %void None %fn
     %entry = OpLabel
   %element = OpAccessChain %uint_ptr %buffer %uint_0 %uint_0
     %value = OpLoad %uint %element
              OpControlBarrier %uint_2 %uint_2 %uint_72
              OpStore %element %value
              OpReturn
              OpFunctionEnd
)")).text;
  EXPECT_TRUE(contains(text, "OpDecorate %buffer Coherent\n")) << text;
  EXPECT_TRUE(contains(text, "%value = OpLoad %uint %element\n")) << text;
  EXPECT_EQ(count(text, "OpBitcast"), 0) << text;
}

// Left alone: a kernel whose barrier orders only __local memory
// (WorkgroupMemory, no UniformMemory) under GLSL450, since nothing can
// observe global accesses being Coherent there; and the same kernel with a
// global fence under the Vulkan memory model, where map_memory_semantics
// makes the accesses NonPrivatePointer instead.
TEST(MakeGlobalAccessesCoherent, KernelsWithoutAGlobalFenceOrUnderTheVulkanModelAreLeftAlone) {
  for (const auto& [options, semantics] :
       {std::pair{glsl450(), std::string("%uint_264")}, std::pair{LoweringOptions{}, std::string("%uint_72")}}) {
    const std::string text = run_with(options, {"make_global_accesses_coherent"}, barrier_kernel(semantics)).text;
    EXPECT_TRUE(contains(text, "%value = OpLoad %uint %in Aligned 4\n")) << text;
    EXPECT_TRUE(contains(text, "OpStore %out %value Aligned 4\n")) << text;
    EXPECT_EQ(count(text, "OpBitcast|OpTypeStruct|Coherent"), 0) << text;
  }
}

// A float atomic (SPV_EXT_shader_atomic_float_add) that orders global memory
// fences it as an integer atomic does: under GLSL450 the kernel's other
// accesses go through the Coherent wrapper.
TEST(MakeGlobalAccessesCoherent, AFloatAtomicOrderingGlobalMemoryCountsAsAFence) {
  const std::string text = run_with(glsl450(), {"make_global_accesses_coherent"}, kernel_module(R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %uint_1 = OpConstant %uint 1
    %uint_72 = OpConstant %uint 72
    %float_1 = OpConstant %float 1
 %global_ptr = OpTypePointer PhysicalStorageBuffer %uint
  %float_ptr = OpTypePointer PhysicalStorageBuffer %float
         %fn = OpTypeFunction %void %global_ptr %float_ptr
     %kernel = OpFunction %void None %fn
         %in = OpFunctionParameter %global_ptr
      %total = OpFunctionParameter %float_ptr
      %entry = OpLabel
      %value = OpLoad %uint %in Aligned 4
        %old = OpAtomicFAddEXT %float %total %uint_1 %uint_72 %float_1
               OpReturn
               OpFunctionEnd
)")).text;
  EXPECT_TRUE(contains(text, "Coherent")) << text;
  EXPECT_EQ(count(text, "%value = OpLoad %uint %in Aligned 4\n"), 0) << "the load should go through the wrapper:\n" << text;
}

// ---------------------------------------------------------------------------
// lower_long_vectors

// A __local float16 (a Workgroup variable of v16float) read whole and taken
// apart with OpCompositeExtract, as clc's vector splitting leaves it in a
// module that declares no 32-bit integer type. The vector type must become,
// under the same id, an array of 16 floats with ArrayStride 4, its length a
// new uint constant whose type comes before it; the variable, load and
// extract keep their text, since they name the type by id.
TEST(LowerLongVectors, ASixteenComponentVectorTypeBecomesAnArrayUnderTheSameId) {
  const std::string text = run_alone("lower_long_vectors", kernel_module(R"(
       %void = OpTypeVoid
      %float = OpTypeFloat 32
  %v16float = OpTypeVector %float 16
  %local_ptr = OpTypePointer Workgroup %v16float
      %local = OpVariable %local_ptr Workgroup
         %fn = OpTypeFunction %float
     %kernel = OpFunction %float None %fn
      %entry = OpLabel
     %vector = OpLoad %v16float %local
  %component = OpCompositeExtract %float %vector 15
               OpReturnValue %component
               OpFunctionEnd
)"));
  const std::string uint_type = captured(text, R"((%\w+) = OpTypeInt 32 0\n)");
  const std::string length = captured(text, "(%\\w+) = OpConstant " + uint_type + " 16\n");
  EXPECT_TRUE(contains(text, "%v16float = OpTypeArray %float " + length + "\n")) << text;
  EXPECT_LT(text.find(" = OpTypeInt 32 0\n"), text.find("%v16float = OpTypeArray")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %v16float ArrayStride 4\n")) << text;
  EXPECT_EQ(count(text, "OpTypeVector"), 0) << text;
  EXPECT_TRUE(contains(text, "%vector = OpLoad %v16float %local\n")) << text;
  EXPECT_TRUE(contains(text, "%component = OpCompositeExtract %float %vector 15\n")) << text;
}

// Left alone: vectors of 2, 3 and 4 components, which Vulkan allows.
TEST(LowerLongVectors, VectorsOfUpToFourComponentsAreLeftAlone) {
  const std::string text = run_alone("lower_long_vectors", kernel_module(R"(
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
  %local_ptr = OpTypePointer Workgroup %v4float
      %local = OpVariable %local_ptr Workgroup
         %fn = OpTypeFunction %v4float
     %kernel = OpFunction %v4float None %fn
      %entry = OpLabel
     %vector = OpLoad %v4float %local
      %twice = OpFAdd %v4float %vector %vector
               OpReturnValue %twice
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%v4float = OpTypeVector %float 4\n")) << text;
  EXPECT_EQ(count(text, "OpTypeArray|ArrayStride|OpTypeInt"), 0) << text;
}

// Arithmetic on an 8-component vector (a __local float8 loaded, added to
// itself and stored back) means clc's splitting missed it; the array the
// pass would make cannot be added, so the pass must stop with an internal
// error naming the opcode (OpFAdd is 129), not emit invalid SPIR-V. The load
// and store before and after it are allowed.
TEST(LowerLongVectors, ArithmeticOnAnEightComponentVectorIsAnInternalError) {
  const std::string error = error_of({"lower_long_vectors"}, kernel_module(R"(
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v8float = OpTypeVector %float 8
  %local_ptr = OpTypePointer Workgroup %v8float
      %local = OpVariable %local_ptr Workgroup
         %fn = OpTypeFunction %void
     %kernel = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpLoad %v8float %local
      %twice = OpFAdd %v8float %x %x
               OpStore %local %twice
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "internal error: an operation on a vector of 8 or 16 components")) << error;
  EXPECT_TRUE(contains(error, "opcode 129")) << error;
}

}  // namespace
}  // namespace vkcl
