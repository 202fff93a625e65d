// Passes one at a time on SPIR-V assembly (pass_assembly.h), for the passes
// that make the module's interface: lay_out_global_memory,
// strip_kernel_decorations, rewrite_entry_points, bind_storage_buffers,
// lower_kernel_arguments, emit_push_constant_blocks, remove_unused_globals
// and declare_vulkan_module. The inputs are Kernel SPIR-V as the SPIRV-LLVM
// translator writes it (an entry-point wrapper that calls the kernel's body,
// global pointers CrossWorkgroup, by-value structs as Function pointers), or,
// for declare_vulkan_module, as the passes before it leave it (a GLCompute
// entry point, global pointers PhysicalStorageBuffer).
//
// The passes that work per kernel (bind_storage_buffers,
// lower_kernel_arguments, emit_push_constant_blocks) find the kernels in
// LoweringContext::kernels, which rewrite_entry_points fills: their tests run
// it first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pass_assembly.h"

namespace vkcl {
namespace {

using test::captured;
using test::captured_ids;
using test::contains;
using test::count;
using test::error_of;
using test::kernel_module;
using test::Lowered;
using test::run_alone;
using test::run_passes;
using test::run_with;

// ---------------------------------------------------------------------------
// lay_out_global_memory

// struct { uchar c; float f; float3 v; float3 a[3]; struct { uchar c; uint u; } in; }
// behind a __global pointer, and a uint[3] behind a __constant one: each
// member at its OpenCL offset (float3 is 16 bytes, aligned to 16, as is an
// array of them), the nested struct laid out too, each array strided by its
// padded element. A struct only in __local memory needs no layout and gets none.
TEST(LayOutGlobalMemory, StructsAndArraysBehindGlobalPointersGetOpenCLOffsetsAndStrides) {
  const std::string text = run_alone("lay_out_global_memory", kernel_module(R"(
               OpCapability Int8
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %v3float = OpTypeVector %float 3
     %uint_3 = OpConstant %uint 3
    %float3s = OpTypeArray %v3float %uint_3
      %inner = OpTypeStruct %uchar %uint
     %record = OpTypeStruct %uchar %float %v3float %float3s %inner
 %global_ptr = OpTypePointer CrossWorkgroup %record
      %table = OpTypeArray %uint %uint_3
%constant_ptr = OpTypePointer UniformConstant %table
     %shared = OpTypeStruct %uchar %uint
  %local_ptr = OpTypePointer Workgroup %shared
)"));
  for (const char* offset : {"0 Offset 0", "1 Offset 4", "2 Offset 16", "3 Offset 32", "4 Offset 80"})
    EXPECT_TRUE(contains(text, std::string("OpMemberDecorate %record ") + offset + "\n")) << offset << "\n" << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate %inner 0 Offset 0\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate %inner 1 Offset 4\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %float3s ArrayStride 16\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %table ArrayStride 4\n")) << text;
  EXPECT_EQ(count(text, "OpMemberDecorate %shared"), 0) << text;
  EXPECT_EQ(count(text, "Offset"), 7) << text;
  EXPECT_EQ(count(text, "ArrayStride"), 2) << text;
}

// The translator marks __attribute__((packed)) structs CPacked (which
// strip_kernel_decorations drops after this pass). In global memory a packed
// struct would need a member at an offset Vulkan does not allow: an error
// naming the struct, not a silently different layout.
TEST(LayOutGlobalMemory, APackedStructInGlobalMemoryIsAnErrorNamingIt) {
  const std::string error = error_of({"lay_out_global_memory"}, kernel_module(R"(
               OpCapability Int8
               OpDecorate %packed CPacked
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %packed = OpTypeStruct %uchar %uint
 %global_ptr = OpTypePointer CrossWorkgroup %packed
)"));
  EXPECT_TRUE(contains(error, "the packed struct 'packed' in global memory is not supported")) << error;
}

// The same struct passed to a kernel by value (the translator's pointer to a
// private copy, a Function pointer parameter of the entry point) is refused
// too: lower_kernel_arguments would read it at the unpacked layout. In
// __local memory it is no one's business but the kernel's: no error, no layout.
TEST(LayOutGlobalMemory, APackedStructPassedByValueIsAnErrorButInLocalMemoryIsLeftAlone) {
  const std::string packed = R"(
               OpCapability Int8
               OpDecorate %packed CPacked
       %void = OpTypeVoid
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %packed = OpTypeStruct %uchar %uint
  %local_ptr = OpTypePointer Workgroup %packed
)";
  const std::string error = error_of({"lay_out_global_memory"}, kernel_module(packed + R"(
               OpEntryPoint Kernel %k "k"
   %by_value = OpTypePointer Function %packed
         %fn = OpTypeFunction %void %by_value
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %by_value
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "the packed struct 'packed' passed to a kernel by value is not supported")) << error;

  const std::string text = run_alone("lay_out_global_memory", kernel_module(packed));
  EXPECT_EQ(count(text, "Offset|ArrayStride"), 0) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %packed CPacked\n")) << text;
}

// ---------------------------------------------------------------------------
// strip_kernel_decorations

// What the translator writes for the Kernel ABI and for debuggers goes:
// LinkageAttributes, FuncParamAttr, Alignment, Constant, NoSignedWrap, a
// decoration group and its OpGroupDecorate, OpString, OpSource, OpLine
// (among the types and in code) and the lifetime markers. What Vulkan
// accepts and later passes read stays: BuiltIn, SpecId, ArrayStride,
// Offset, Volatile, and every OpName. The code is otherwise untouched.
TEST(StripKernelDecorations, KernelAbiDecorationsAndDebugInstructionsGoVulkanDecorationsStay) {
  const std::string text = run_alone("strip_kernel_decorations", kernel_module(R"(
               OpCapability Int64
       %file = OpString "k.cl"
               OpSource OpenCL_C 120000
               OpDecorate %k LinkageAttributes "k" Export
               OpDecorate %in FuncParamAttr NoAlias
               OpDecorate %in Alignment 4
               OpDecorate %id Constant
               OpDecorate %id BuiltIn GlobalInvocationId
               OpDecorate %sum NoSignedWrap
               OpDecorate %spec SpecId 7
               OpDecorate %global_ptr ArrayStride 4
               OpMemberDecorate %pair 1 Offset 4
               OpDecorate %slot Volatile
               OpDecorate %group Alignment 8
      %group = OpDecorationGroup
               OpGroupDecorate %group %in
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
               OpLine %file 1 1
    %v3ulong = OpTypeVector %ulong 3
     %in_ptr = OpTypePointer Input %v3ulong
         %id = OpVariable %in_ptr Input
       %spec = OpSpecConstant %uint 1
       %pair = OpTypeStruct %uint %uint
 %global_ptr = OpTypePointer CrossWorkgroup %uint
   %func_ptr = OpTypePointer Function %uint
         %fn = OpTypeFunction %void %global_ptr
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %global_ptr
      %entry = OpLabel
       %slot = OpVariable %func_ptr Function
               OpLifetimeStart %slot 4
               OpLine %file 3 7
      %value = OpLoad %uint %in Aligned 4
        %sum = OpIAdd %uint %value %spec
               OpStore %slot %sum
               OpLifetimeStop %slot 4
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "LinkageAttributes|FuncParamAttr|Alignment|NoSignedWrap|OpDecorationGroup|OpGroupDecorate"), 0)
      << text;
  EXPECT_EQ(count(text, "OpDecorate %id Constant"), 0) << text;
  EXPECT_EQ(count(text, "OpString|OpSource|OpLine|OpLifetimeStart|OpLifetimeStop"), 0) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %id BuiltIn GlobalInvocationId\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %spec SpecId 7\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %global_ptr ArrayStride 4\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate %pair 1 Offset 4\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %slot Volatile\n")) << text;
  EXPECT_TRUE(contains(text, "OpName %k \"k\"\n")) << text;
  EXPECT_TRUE(contains(text, "%slot = OpVariable %func_ptr Function\n%value = OpLoad %uint %in Aligned 4\n"
                             "%sum = OpIAdd %uint %value %spec\nOpStore %slot %sum\nOpReturn\n"))
      << text;
}

// A __local variable's undefined initializer (OpUndef, or a composite of
// them as the translator writes for a struct with padding) goes; a defined
// one stays for the validator to refuse, and Private variables keep theirs.
TEST(StripKernelDecorations, UndefinedLocalInitializersGo) {
  const std::string text = run_alone("strip_kernel_decorations", kernel_module(R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
    %uint_3 = OpConstant %uint 3
        %arr = OpTypeArray %uint %uint_3
       %pair = OpTypeStruct %arr %uint
  %undef_arr = OpUndef %arr
 %undef_uint = OpUndef %uint
 %undef_pair = OpConstantComposite %pair %undef_arr %undef_uint
   %one_pair = OpConstantComposite %pair %undef_arr %uint_1
    %wg_pair = OpTypePointer Workgroup %pair
    %wg_uint = OpTypePointer Workgroup %uint
  %priv_pair = OpTypePointer Private %pair
     %padded = OpVariable %wg_pair Workgroup %undef_pair
     %scalar = OpVariable %wg_uint Workgroup %undef_uint
    %defined = OpVariable %wg_pair Workgroup %one_pair
    %private = OpVariable %priv_pair Private %undef_pair
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpStore %scalar %uint_1
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, R"(%padded = OpVariable %wg_pair Workgroup\n)"), 1) << text;
  EXPECT_EQ(count(text, R"(%scalar = OpVariable %wg_uint Workgroup\n)"), 1) << text;
  EXPECT_EQ(count(text, R"(%defined = OpVariable %wg_pair Workgroup %one_pair)"), 1) << text;
  EXPECT_EQ(count(text, R"(%private = OpVariable %priv_pair Private %undef_pair)"), 1) << text;
}

// ---------------------------------------------------------------------------
// rewrite_entry_points

// The translator's shape: the entry point is a wrapper that passes its
// parameters to the kernel's body (a function of the kernel's name with
// LinkageAttributes). Here, with reqd_work_group_size(8, 4, 1) and
// intel_reqd_sub_group_size(32) as execution modes on the wrapper.
const std::string kWrappedKernel = R"(
               OpEntryPoint Kernel %wrapper "scale"
               OpExecutionMode %wrapper LocalSize 8 4 1
               OpExecutionMode %wrapper SubgroupSize 32
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
 %global_ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %global_ptr
      %scale = OpFunction %void None %fn
        %out = OpFunctionParameter %global_ptr
      %entry = OpLabel
               OpStore %out %uint_1 Aligned 4
               OpReturn
               OpFunctionEnd
    %wrapper = OpFunction %void None %fn
%wrapper_out = OpFunctionParameter %global_ptr
%wrapper_entry = OpLabel
       %call = OpFunctionCall %void %scale %wrapper_out
               OpReturn
               OpFunctionEnd
)";

// The body becomes the GLCompute entry point and the wrapper goes; the
// modes move to the reflection (the pipeline sets the local size through
// spec constants 0, 1, 2, the WorkgroupSize builtin's components, and the
// sub-group size at creation), leaving LocalSize 1 1 1, which Vulkan needs
// beside the builtin.
TEST(RewriteEntryPoints, TheWrappersBodyBecomesAGLComputeEntryPointAndItsModesGoToTheReflection) {
  const Lowered lowered = run_with({}, {"rewrite_entry_points"}, kernel_module(kWrappedKernel));
  const std::string& text = lowered.text;
  EXPECT_TRUE(contains(text, "OpEntryPoint GLCompute %scale \"scale\"\n")) << text;
  EXPECT_EQ(count(text, "OpEntryPoint"), 1) << text;
  EXPECT_TRUE(contains(text, "OpExecutionMode %scale LocalSize 1 1 1\n")) << text;
  EXPECT_EQ(count(text, "OpExecutionMode"), 1) << text;
  EXPECT_EQ(count(text, "%wrapper = OpFunction|OpFunctionCall"), 0) << text;
  EXPECT_TRUE(contains(text, "%scale = OpFunction %void None %fn\n%out = OpFunctionParameter %global_ptr\n")) << text;

  const std::vector<std::string> size =
      captured_ids(text, R"((%\w+) = OpSpecConstantComposite %v3uint (%\w+) (%\w+) (%\w+)\n)");
  ASSERT_EQ(size.size(), 4u);
  EXPECT_TRUE(contains(text, "OpDecorate " + size[0] + " BuiltIn WorkgroupSize\n")) << text;
  for (int dim = 0; dim < 3; ++dim) {
    EXPECT_TRUE(contains(text, "OpDecorate " + size[dim + 1] + " SpecId " + std::to_string(dim) + "\n")) << text;
    EXPECT_TRUE(contains(text, size[dim + 1] + " = OpSpecConstant %uint 1\n")) << text;
  }

  ASSERT_EQ(lowered.reflection.kernels.size(), 1u);
  const KernelReflection& kernel = lowered.reflection.kernels[0];
  EXPECT_EQ(kernel.name, "scale");
  EXPECT_EQ(kernel.required_work_group_size, (std::array<uint32_t, 3>{8, 4, 1}));
  EXPECT_EQ(kernel.required_sub_group_size, 32u);
}

// An entry point that is not a wrapper (no other producer than the
// translator writes one, but the pass's contract has the case) is its own
// body, also when it calls a helper function: the helper is not the kernel.
TEST(RewriteEntryPoints, AnEntryPointThatIsNotAWrapperIsItsOwnBodyEvenWhenItCalls) {
  const std::string text = run_alone("rewrite_entry_points", kernel_module(R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
 %global_ptr = OpTypePointer CrossWorkgroup %uint
  %helper_fn = OpTypeFunction %uint
         %fn = OpTypeFunction %void %global_ptr
     %helper = OpFunction %uint None %helper_fn
%helper_entry = OpLabel
               OpReturnValue %uint_1
               OpFunctionEnd
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %global_ptr
      %entry = OpLabel
      %value = OpFunctionCall %uint %helper
               OpStore %out %value Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "OpEntryPoint GLCompute %k \"k\"\n")) << text;
  EXPECT_TRUE(contains(text, "%k = OpFunction %void None %fn\n")) << text;
  EXPECT_TRUE(contains(text, "%helper = OpFunction %uint None %helper_fn\n")) << text;
  EXPECT_TRUE(contains(text, "%value = OpFunctionCall %uint %helper\n")) << text;
}

// A kernel calling another kernel (a call of the other's body, as the
// translator writes it) is not supported: an error naming the callee.
TEST(RewriteEntryPoints, AKernelCallingAnotherKernelIsAnErrorNamingTheCallee) {
  const std::string error = error_of({"rewrite_entry_points"}, kernel_module(R"(
               OpEntryPoint Kernel %outer_wrapper "outer"
               OpEntryPoint Kernel %inner_wrapper "inner"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %inner = OpFunction %void None %fn
%inner_entry = OpLabel
               OpReturn
               OpFunctionEnd
      %outer = OpFunction %void None %fn
%outer_entry = OpLabel
 %inner_call = OpFunctionCall %void %inner
               OpReturn
               OpFunctionEnd
%outer_wrapper = OpFunction %void None %fn
%outer_wrapper_entry = OpLabel
%outer_wrapped = OpFunctionCall %void %outer
               OpReturn
               OpFunctionEnd
%inner_wrapper = OpFunction %void None %fn
%inner_wrapper_entry = OpLabel
%inner_wrapped = OpFunctionCall %void %inner
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "calling a kernel from another kernel ('inner') is not supported yet")) << error;
}

// ---------------------------------------------------------------------------
// bind_storage_buffers
//
// Every test runs rewrite_entry_points first (the kernels it binds the
// arguments of) and asks for storage buffers (LoweringOptions::
// max_storage_buffers, 0 by default: addresses only).

LoweringOptions with_storage_buffers(uint32_t most) {
  LoweringOptions options;
  options.max_storage_buffers = most;
  return options;
}

// `kernel void copy(global const uint* in, global uint* out, ulong i) { out[i] = in[i]; }`
const std::string kCopyKernel = R"(
               OpCapability Int64
               OpEntryPoint Kernel %copy "copy"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
 %global_ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %global_ptr %global_ptr %ulong
       %copy = OpFunction %void None %fn
         %in = OpFunctionParameter %global_ptr
        %out = OpFunctionParameter %global_ptr
          %i = OpFunctionParameter %ulong
      %entry = OpLabel
     %source = OpInBoundsPtrAccessChain %global_ptr %in %i
      %value = OpLoad %uint %source Aligned 4
%destination = OpInBoundsPtrAccessChain %global_ptr %out %i
               OpStore %destination %value Aligned 4
               OpReturn
               OpFunctionEnd
)";

// Each argument becomes a StorageBuffer variable of struct { uint[] } at set
// 0 and its binding (in argument order), named after it; each chain an
// offset in uints (the 64-bit index truncated), each access an OpAccessChain
// into the view without the Aligned operand (a view's element is aligned).
// `in` is never written: NonWritable. Both may alias and `out` is written:
// both Aliased.
TEST(BindStorageBuffers, PointersOnlyAccessedBecomeStorageBufferViewsIndexedByOffsets) {
  const std::string text =
      run_with(with_storage_buffers(8), {"rewrite_entry_points", "bind_storage_buffers"}, kernel_module(kCopyKernel))
          .text;
  const std::string in = captured(text, R"(OpDecorate (%\w+) Binding 0\n)");
  const std::string out = captured(text, R"(OpDecorate (%\w+) Binding 1\n)");
  EXPECT_TRUE(contains(text, "OpName " + in + " \"in\"\n")) << text;
  EXPECT_TRUE(contains(text, "OpName " + out + " \"out\"\n")) << text;
  for (const std::string& view : {in, out}) {
    EXPECT_TRUE(contains(text, "OpDecorate " + view + " DescriptorSet 0\n")) << text;
    EXPECT_TRUE(contains(text, "OpDecorate " + view + " Aliased\n")) << text;
    const std::string pointer = captured(text, view + R"( = OpVariable (%\w+) StorageBuffer\n)");
    const std::string block = captured(text, pointer + R"( = OpTypePointer StorageBuffer (%\w+)\n)");
    const std::string array = captured(text, block + R"( = OpTypeStruct (%\w+)\n)");
    EXPECT_TRUE(contains(text, array + " = OpTypeRuntimeArray %uint\n")) << text;
    EXPECT_TRUE(contains(text, "OpDecorate " + array + " ArrayStride 4\n")) << text;
    EXPECT_TRUE(contains(text, "OpDecorate " + block + " Block\n")) << text;
    EXPECT_TRUE(contains(text, "OpMemberDecorate " + block + " 0 Offset 0\n")) << text;
  }
  EXPECT_EQ(count(text, "OpMemberDecorate %\\w+ 0 NonWritable"), 1) << text;
  const std::string in_pointer = captured(text, in + R"( = OpVariable (%\w+))");
  const std::string in_block = captured(text, in_pointer + R"( = OpTypePointer StorageBuffer (%\w+))");
  EXPECT_TRUE(contains(text, "OpMemberDecorate " + in_block + " 0 NonWritable\n")) << text;

  // The index, truncated once per chain; the load and the store through the views.
  EXPECT_EQ(count(text, "= OpUConvert %uint %i\n"), 2) << text;
  const std::vector<std::string> load = captured_ids(
      text,
      "(%\\w+) = OpAccessChain %_ptr_StorageBuffer_uint " + in + R"( %uint_0 %\w+\n(%\w+) = OpLoad %uint (%\w+)\n)");
  EXPECT_EQ(load[0], load[2]) << text;
  EXPECT_TRUE(contains(text, "%value = OpCopyObject %uint " + load[1] + "\n")) << text;
  const std::string element =
      captured(text, "(%\\w+) = OpAccessChain %_ptr_StorageBuffer_uint " + out + R"( %uint_0 %\w+\n)");
  EXPECT_TRUE(contains(text, "OpStore " + element + " %value\n")) << text;
  EXPECT_EQ(count(text, "OpInBoundsPtrAccessChain|Aligned"), 0) << text;
  // The parameters stay for lower_kernel_arguments, which removes them.
  EXPECT_EQ(count(text, "OpFunctionParameter"), 3) << text;
}

// Without storage buffers asked for (the default), every argument keeps its address.
TEST(BindStorageBuffers, WithoutStorageBuffersAskedForNothingIsBound) {
  const std::string text = run_passes({"rewrite_entry_points", "bind_storage_buffers"}, kernel_module(kCopyKernel));
  EXPECT_EQ(count(text, "StorageBuffer|Binding"), 0) << text;
  EXPECT_TRUE(contains(text, "%source = OpInBoundsPtrAccessChain %global_ptr %in %i\n"
                             "%value = OpLoad %uint %source Aligned 4\n"))
      << text;
}

// An argument stored to memory as a value needs its address (`in`), as
// does one whose accesses move pointers (`slot`, a pointer to pointers):
// both stay pointers, and the first argument that qualifies (`out`) takes
// binding 0. With one storage buffer allowed, the next that would qualify
// (`extra`) keeps its address too. `in` and `out` are restrict (FuncParamAttr
// NoAlias, which strip_kernel_decorations records before it drops it): `out`
// is not Aliased, though `slot` and `extra` are not restrict, as neither
// they nor `out` are written.
TEST(BindStorageBuffers, ArgumentsThatNeedTheirAddressOrPassTheLimitStayPointers) {
  const std::string text = run_with(with_storage_buffers(1),
                                    {"strip_kernel_decorations", "rewrite_entry_points", "bind_storage_buffers"},
                                    kernel_module(R"(
               OpEntryPoint Kernel %k "k"
               OpDecorate %in FuncParamAttr NoAlias
               OpDecorate %out FuncParamAttr NoAlias
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
 %global_ptr = OpTypePointer CrossWorkgroup %uint
    %ptr_ptr = OpTypePointer CrossWorkgroup %global_ptr
         %fn = OpTypeFunction %void %global_ptr %ptr_ptr %global_ptr %global_ptr
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %global_ptr
       %slot = OpFunctionParameter %ptr_ptr
        %out = OpFunctionParameter %global_ptr
      %extra = OpFunctionParameter %global_ptr
      %entry = OpLabel
               OpStore %slot %in Aligned 8
      %value = OpLoad %uint %out Aligned 4
       %more = OpLoad %uint %extra Aligned 4
               OpReturn
               OpFunctionEnd
)")).text;
  EXPECT_TRUE(contains(text, "OpStore %slot %in Aligned 8\n")) << text;
  EXPECT_TRUE(contains(text, "%more = OpLoad %uint %extra Aligned 4\n")) << text;
  EXPECT_EQ(count(text, "OpDecorate %\\w+ Binding"), 1) << text;
  const std::string view = captured(text, R"(OpDecorate (%\w+) Binding 0\n)");
  EXPECT_TRUE(contains(text, "OpName " + view + " \"out\"\n")) << text;
  const std::vector<std::string> load = captured_ids(
      text,
      "(%\\w+) = OpAccessChain %_ptr_StorageBuffer_uint " + view + R"( %uint_0 %\w+\n(%\w+) = OpLoad %uint (%\w+)\n)");
  EXPECT_EQ(load[0], load[2]) << text;
  EXPECT_TRUE(contains(text, "%value = OpCopyObject %uint " + load[1] + "\n")) << text;
  EXPECT_EQ(count(text, "Aliased"), 0) << text;
}

// A Volatile load of a uint (a flag another work-group sets) becomes a
// relaxed atomic load at Device scope (scope 1, semantics 0):
// the SPIR-V optimizer would take a loop of Volatile storage-buffer loads
// out, not one of atomics.
TEST(BindStorageBuffers, AVolatileUintLoadBecomesARelaxedDeviceAtomicLoad) {
  const std::string text = run_with(with_storage_buffers(1), {"rewrite_entry_points", "bind_storage_buffers"},
                                    kernel_module(R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
 %global_ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %global_ptr
          %k = OpFunction %void None %fn
       %flag = OpFunctionParameter %global_ptr
      %entry = OpLabel
       %seen = OpLoad %uint %flag Volatile|Aligned 4
               OpReturn
               OpFunctionEnd
)")).text;
  const std::string view = captured(text, R"(OpDecorate (%\w+) Binding 0\n)");
  // The parameter's own offset is the constant 0.
  const std::string element =
      captured(text, "(%\\w+) = OpAccessChain %_ptr_StorageBuffer_uint " + view + " %uint_0 %uint_0\n");
  EXPECT_TRUE(contains(text, "%seen = OpAtomicLoad %uint " + element + " %uint_1 %uint_0\n")) << text;
  EXPECT_EQ(count(text, "Volatile|OpLoad"), 0) << text;
}

// ---------------------------------------------------------------------------
// lower_kernel_arguments
//
// Every test runs rewrite_entry_points first; the loads this pass emits go
// through the push-constant block's ids, which emit_push_constant_blocks
// defines later (their disassembly is a number here).

// `kernel void k(global float* out, float scale, local float* scratch)`:
// the global pointer is member 0 (8 bytes), the float member 1 at offset 8;
// each parameter's id becomes the load of its member. The __local pointer
// becomes &array[0] of a Workgroup float[n] named after it, n a spec
// constant of id 3 (ids 0-2 are the local size). The kernel takes no
// parameters any more.
TEST(LowerKernelArguments, PointersAndScalarsArePushConstantsAndALocalPointerASpecSizedArray) {
  const Lowered lowered = run_with({}, {"rewrite_entry_points", "lower_kernel_arguments"}, kernel_module(R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
 %global_ptr = OpTypePointer CrossWorkgroup %float
  %local_ptr = OpTypePointer Workgroup %float
         %fn = OpTypeFunction %void %global_ptr %float %local_ptr
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %global_ptr
      %scale = OpFunctionParameter %float
    %scratch = OpFunctionParameter %local_ptr
      %entry = OpLabel
     %cached = OpLoad %float %scratch Aligned 4
    %product = OpFMul %float %cached %scale
               OpStore %out %product Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  EXPECT_EQ(count(text, "OpFunctionParameter"), 0) << text;
  const std::string void_fn = captured(text, R"(%k = OpFunction %void None (%\w+)\n)");
  EXPECT_TRUE(contains(text, void_fn + " = OpTypeFunction %void\n")) << text;

  const std::string out_member =
      captured(text, R"((%\w+) = OpAccessChain %_ptr_PushConstant_global_ptr %\w+ %uint_0\n)");
  EXPECT_TRUE(contains(text, "%out = OpLoad %global_ptr " + out_member + "\n")) << text;
  const std::string scale_member = captured(text, R"((%\w+) = OpAccessChain %_ptr_PushConstant_float %\w+ %uint_1\n)");
  EXPECT_TRUE(contains(text, "%scale = OpLoad %float " + scale_member + "\n")) << text;

  const std::string length = captured(text, R"(OpDecorate (%\w+) SpecId 3\n)");
  EXPECT_TRUE(contains(text, length + " = OpSpecConstant %uint 1\n")) << text;
  const std::string array = captured(text, "(%\\w+) = OpTypeArray %float " + length + "\n");
  const std::string variable = captured(text, "(%\\w+) = OpVariable %\\w+ Workgroup\n");
  EXPECT_TRUE(contains(text, "OpName " + variable + " \"scratch\"\n")) << text;
  EXPECT_TRUE(contains(text, captured(text, variable + R"( = OpVariable (%\w+))") + " = OpTypePointer Workgroup " +
                                 array + "\n"))
      << text;
  EXPECT_TRUE(contains(text, "%scratch = OpAccessChain %local_ptr " + variable + " %uint_0\n")) << text;
  EXPECT_TRUE(contains(text, "%cached = OpLoad %float %scratch Aligned 4\n")) << text;

  ASSERT_EQ(lowered.reflection.kernels.size(), 1u);
  const std::vector<KernelArg>& args = lowered.reflection.kernels[0].args;
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].name, "out");
  EXPECT_EQ(args[0].kind, ArgKind::GlobalPointer);
  EXPECT_EQ(args[0].offset, 0u);
  EXPECT_EQ(args[0].size, 8u);
  EXPECT_EQ(args[1].kind, ArgKind::Scalar);
  EXPECT_EQ(args[1].offset, 8u);
  EXPECT_EQ(args[1].size, 4u);
  EXPECT_EQ(args[2].kind, ArgKind::LocalPointer);
  EXPECT_EQ(args[2].spec_id, 3u);
  EXPECT_EQ(args[2].element_size, 4u);
}

// uchar and ushort4 arguments would need storagePushConstant8/16: they are
// passed as a uint (the uchar in its low byte) and a uvec2 (the four
// ushorts' bytes), each at least 4-aligned, and rebuilt after the load.
TEST(LowerKernelArguments, ArgumentsOf8And16BitComponentsArePassedAs32BitWords) {
  const Lowered lowered = run_with({}, {"rewrite_entry_points", "lower_kernel_arguments"}, kernel_module(R"(
               OpCapability Int8
               OpCapability Int16
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
   %v4ushort = OpTypeVector %ushort 4
         %fn = OpTypeFunction %void %uchar %v4ushort
          %k = OpFunction %void None %fn
          %c = OpFunctionParameter %uchar
          %v = OpFunctionParameter %v4ushort
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  const std::string c_word = captured(
      text, R"(%\w+ = OpAccessChain %_ptr_PushConstant_uint %\w+ %uint_0\n(%\w+) = OpLoad %uint %\w+\n)");
  EXPECT_TRUE(contains(text, "%c = OpUConvert %uchar " + c_word + "\n")) << text;
  const std::string v_words = captured(
      text, R"(%\w+ = OpAccessChain %_ptr_PushConstant_v2uint %\w+ %uint_1\n(%\w+) = OpLoad %v2uint %\w+\n)");
  EXPECT_TRUE(contains(text, "%v = OpBitcast %v4ushort " + v_words + "\n")) << text;
  EXPECT_EQ(count(text, "PushConstant_uchar|PushConstant_v4ushort"), 0) << text;

  const std::vector<KernelArg>& args = lowered.reflection.kernels.at(0).args;
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[0].offset, 0u);
  EXPECT_EQ(args[0].size, 1u);
  EXPECT_EQ(args[1].offset, 8u);  // ushort4's alignment
  EXPECT_EQ(args[1].size, 8u);
}

// A struct passed by value (the translator's Function pointer to a copy)
// is its bytes as uint[2] in the block; a load of a member at a constant
// offset is rebuilt from its word, here `p.b`, word 1 as a float.
TEST(LowerKernelArguments, AStructPassedByValueIsReadFromItsWords) {
  const std::string text = run_passes({"rewrite_entry_points", "lower_kernel_arguments"}, kernel_module(R"(
               OpCapability Int64
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %uint_1 = OpConstant %uint 1
    %ulong_0 = OpConstant %ulong 0
       %pair = OpTypeStruct %uint %float
   %by_value = OpTypePointer Function %pair
  %float_ptr = OpTypePointer Function %float
         %fn = OpTypeFunction %void %by_value
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %by_value
      %entry = OpLabel
     %p_b_at = OpInBoundsPtrAccessChain %float_ptr %p %ulong_0 %uint_1
        %p_b = OpLoad %float %p_b_at Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  const std::string words_type = captured(text, R"((%\w+) = OpTypeArray %uint %uint_2\n)");
  EXPECT_TRUE(contains(text, "OpDecorate " + words_type + " ArrayStride 4\n")) << text;
  const std::string words = captured(text, "(%\\w+) = OpLoad " + words_type + " %\\w+\n");
  const std::string word = captured(text, "(%\\w+) = OpCompositeExtract %uint " + words + " 1\n");
  EXPECT_TRUE(contains(text, "%p_b = OpBitcast %float " + word + "\n")) << text;
  EXPECT_EQ(count(text, "%p_b_at = |%p = "), 0) << text;
}

// A bound argument (bind_storage_buffers) takes no push-constant member:
// the reflection gives its binding, and the next argument is at offset 0.
TEST(LowerKernelArguments, AnArgumentBoundAsAStorageBufferTakesNoPushConstantMember) {
  const Lowered lowered =
      run_with(with_storage_buffers(1), {"rewrite_entry_points", "bind_storage_buffers", "lower_kernel_arguments"},
               kernel_module(kCopyKernel));
  const std::vector<KernelArg>& args = lowered.reflection.kernels.at(0).args;
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].kind, ArgKind::GlobalPointer);
  EXPECT_EQ(args[0].binding, std::optional<uint32_t>(0));
  EXPECT_EQ(args[0].size, 0u);
  EXPECT_EQ(args[1].binding, std::nullopt);
  EXPECT_EQ(args[1].offset, 0u);
  EXPECT_EQ(args[1].size, 8u);
  EXPECT_EQ(args[2].offset, 8u);
  EXPECT_TRUE(contains(lowered.text, "%out = OpLoad %global_ptr ")) << lowered.text;
  EXPECT_EQ(count(lowered.text, "%in = "), 0) << lowered.text;
}

// bool has no defined size in OpenCL and is not a valid kernel argument:
// an error naming the kernel and the argument.
TEST(LowerKernelArguments, ABoolArgumentIsAnErrorNamingIt) {
  const std::string error = error_of({"rewrite_entry_points", "lower_kernel_arguments"}, kernel_module(R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
         %fn = OpTypeFunction %void %bool
          %k = OpFunction %void None %fn
       %flag = OpFunctionParameter %bool
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "kernel 'k' argument 0 ('flag'): bool is not a valid kernel argument type")) << error;
}

// ---------------------------------------------------------------------------
// emit_push_constant_blocks
//
// Every test runs rewrite_entry_points and lower_kernel_arguments first: the
// latter adds the block's members and the loads through its reserved ids.

// `kernel void k(global float* out, float scale)`: the block is the Block
// struct { pointer at 0, float at 8 }, named for the kernel, a PushConstant
// variable of it defines the ids the loads use, and the reflection gets its
// size.
TEST(EmitPushConstantBlocks, TheBlockIsDeclaredWithTheMembersOffsetsAndItsSizeReflected) {
  const Lowered lowered =
      run_with({}, {"rewrite_entry_points", "lower_kernel_arguments", "emit_push_constant_blocks"}, kernel_module(R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
 %global_ptr = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %global_ptr %float
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %global_ptr
      %scale = OpFunctionParameter %float
      %entry = OpLabel
               OpStore %out %scale Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  const std::string block = captured(text, R"(OpName (%\w+) "k.push_constants"\n)");
  EXPECT_TRUE(contains(text, block + " = OpTypeStruct %global_ptr %float\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate " + block + " Block\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate " + block + " 0 Offset 0\n")) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate " + block + " 1 Offset 8\n")) << text;
  const std::string pointer = captured(text, R"((%\w+) = OpTypePointer PushConstant )" + block + "\n");
  const std::string variable = captured(text, "(%\\w+) = OpVariable " + pointer + " PushConstant\n");
  EXPECT_TRUE(contains(text, "= OpAccessChain %_ptr_PushConstant_global_ptr " + variable + " %uint_0\n")) << text;
  EXPECT_TRUE(contains(text, "= OpAccessChain %_ptr_PushConstant_float " + variable + " %uint_1\n")) << text;
  EXPECT_EQ(lowered.reflection.kernels.at(0).push_constant_size, 12u) << text;
  EXPECT_FALSE(lowered.reflection.kernels.at(0).argument_buffer);
}

// Seventeen ulong arguments take 136 bytes, more than the 128 every device
// has: they move, at the same offsets, into a Block struct in an argument
// buffer (each member NonWritable and Restrict), the push-constant block
// holds its address, loaded once first thing, and every argument load goes
// through it, Aligned as its member (8).
TEST(EmitPushConstantBlocks, ArgumentsPastTheGuaranteed128BytesMoveToAnArgumentBuffer) {
  std::string parameters, types = "%void";
  for (int a = 0; a < 17; ++a) {
    parameters += "%a" + std::to_string(a) + " = OpFunctionParameter %ulong\n";
    types += " %ulong";
  }
  const Lowered lowered =
      run_with({}, {"rewrite_entry_points", "lower_kernel_arguments", "emit_push_constant_blocks"}, kernel_module(R"(
               OpCapability Int64
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
         %fn = OpTypeFunction )" + types + R"(
          %k = OpFunction %void None %fn
)" + parameters + R"(
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  const std::string arguments = captured(text, R"(OpName (%\w+) "k.arguments"\n)");
  EXPECT_TRUE(contains(text, "OpDecorate " + arguments + " Block\n")) << text;
  EXPECT_EQ(count(text, "OpMemberDecorate " + arguments + " \\d+ Offset"), 17) << text;
  EXPECT_TRUE(contains(text, "OpMemberDecorate " + arguments + " 16 Offset 128\n")) << text;
  EXPECT_EQ(count(text, "OpMemberDecorate " + arguments + " \\d+ NonWritable\n"), 17) << text;
  EXPECT_EQ(count(text, "OpMemberDecorate " + arguments + " \\d+ Restrict\n"), 17) << text;

  const std::string block = captured(text, R"(OpName (%\w+) "k.push_constants"\n)");
  const std::string argument_pointer = captured(text, block + R"( = OpTypeStruct (%\w+)\n)");
  EXPECT_TRUE(contains(text, argument_pointer + " = OpTypePointer PhysicalStorageBuffer " + arguments + "\n")) << text;
  const std::string address =
      captured(text, R"(%entry = OpLabel\n%\w+ = OpAccessChain %\w+ %\w+ %uint_0\n(%\w+) = OpLoad )" +
                         argument_pointer + " %\\w+\n");
  EXPECT_EQ(count(text, "= OpAccessChain %_ptr_PhysicalStorageBuffer_ulong " + address + " %uint_\\d+\n"), 17) << text;
  EXPECT_TRUE(contains(text, "%a16 = OpLoad %ulong ")) << text;
  EXPECT_EQ(count(text, "= OpLoad %ulong %\\w+ Aligned 8\n"), 17) << text;

  const KernelReflection& kernel = lowered.reflection.kernels.at(0);
  ASSERT_TRUE(kernel.argument_buffer);
  EXPECT_EQ(kernel.argument_buffer->offset, 0u);
  EXPECT_EQ(kernel.argument_buffer->size, 136u);
  EXPECT_EQ(kernel.push_constant_size, 8u);
  EXPECT_EQ(kernel.args.at(16).offset, 128u);
}

// A kernel without arguments (or ND-range fields) has no block at all.
TEST(EmitPushConstantBlocks, AKernelWithoutArgumentsGetsNoBlock) {
  const Lowered lowered =
      run_with({}, {"rewrite_entry_points", "lower_kernel_arguments", "emit_push_constant_blocks"}, kernel_module(R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_EQ(count(lowered.text, "PushConstant|Block"), 0) << lowered.text;
  EXPECT_EQ(lowered.reflection.kernels.at(0).push_constant_size, 0u);
}

// ---------------------------------------------------------------------------
// remove_unused_globals

// What nothing uses goes, with its name and decorations: a constant, a
// variable, and a uchar type that only a pointer type nobody uses needed
// (so the module does not ask for shaderInt8), found on a second round.
// What the host sets stays though nothing reads it: a SpecId constant and a
// BuiltIn variable; and so does everything the code uses.
TEST(RemoveUnusedGlobals, UnusedTypesConstantsAndVariablesGoWithTheirNamesAndDecorations) {
  const std::string text = run_alone("remove_unused_globals", kernel_module(R"(
               OpDecorate %spec SpecId 3
               OpDecorate %id BuiltIn LocalInvocationId
               OpDecorate %unused_variable Volatile
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
  %uchar_ptr = OpTypePointer Function %uchar
     %uint_7 = OpConstant %uint 7
     %uint_1 = OpConstant %uint 1
       %spec = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
     %in_ptr = OpTypePointer Input %v3uint
         %id = OpVariable %in_ptr Input
 %global_ptr = OpTypePointer CrossWorkgroup %uint
%unused_variable = OpVariable %global_ptr CrossWorkgroup
         %fn = OpTypeFunction %uint
          %f = OpFunction %uint None %fn
      %entry = OpLabel
               OpReturnValue %uint_1
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "uchar|uint_7|unused_variable|Volatile|global_ptr"), 0) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %spec SpecId 3\n")) << text;
  EXPECT_TRUE(contains(text, "%spec = OpSpecConstant %uint 1\n")) << text;
  EXPECT_TRUE(contains(text, "OpDecorate %id BuiltIn LocalInvocationId\n")) << text;
  EXPECT_TRUE(contains(text, "%id = OpVariable %in_ptr Input\n")) << text;
  EXPECT_TRUE(contains(text, "%uint_1 = OpConstant %uint 1\n")) << text;
  EXPECT_TRUE(contains(text, "%fn = OpTypeFunction %uint\n")) << text;
}

// An id decoration (OpDecorateId, here the Kernel-only AlignmentId) keeps
// its operand alive in a way the pass does not read: refused as an internal
// error naming the pass that removes it, never a module with a dangling id.
TEST(RemoveUnusedGlobals, AnIdDecorationIsRefusedNotMisread) {
  const std::string error = error_of({"remove_unused_globals"}, kernel_module(R"(
               OpDecorateId %p AlignmentId %uint_16
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
    %uint_16 = OpConstant %uint 16
 %global_ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %global_ptr
          %f = OpFunction %void None %fn
          %p = OpFunctionParameter %global_ptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(error, "strip_kernel_decorations must run first")) << error;
}

// ---------------------------------------------------------------------------
// declare_vulkan_module

// A kernel as the passes before leave it: a GLCompute entry point reading
// a builtin through an Input variable, a uchar buffer through a
// PhysicalStorageBuffer pointer, 64-bit arithmetic.
const std::string kLoweredKernel = R"(
               OpCapability Int64
               OpCapability Int8
               OpExtension "SPV_KHR_no_integer_wrap_decoration"
               OpEntryPoint GLCompute %k "k"
               OpExecutionMode %k LocalSize 1 1 1
               OpDecorate %id BuiltIn LocalInvocationId
               OpDecorate %unread BuiltIn NumWorkgroups
               OpDecorate %uchar_ptr ArrayStride 1
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uchar = OpTypeInt 8 0
     %v3uint = OpTypeVector %uint 3
     %in_ptr = OpTypePointer Input %v3uint
         %id = OpVariable %in_ptr Input
     %unread = OpVariable %in_ptr Input
  %uchar_ptr = OpTypePointer PhysicalStorageBuffer %uchar
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
      %local = OpLoad %v3uint %id
         %l0 = OpCompositeExtract %uint %local 0
       %wide = OpUConvert %ulong %l0
    %address = OpConvertUToPtr %uchar_ptr %wide
       %byte = OpLoad %uchar %address Aligned 1
               OpReturn
               OpFunctionEnd
)";

// The Kernel capabilities and extensions go; Shader, the capability of each
// integer width left, physical addresses and 8-bit storage for the buffer,
// and the Vulkan memory model come, with their extensions and device
// features; the entry point lists the Input variable it reads and not the
// one it does not.
TEST(DeclareVulkanModule, TheKernelHeaderBecomesAVulkanOneWithWhatTheTypesNeed) {
  const Lowered lowered = run_with({}, {"declare_vulkan_module"}, kernel_module(kLoweredKernel));
  const std::string& text = lowered.text;
  EXPECT_EQ(count(text, "OpCapability (Kernel|Addresses|Linkage)\n|no_integer_wrap"), 0) << text;
  for (const char* capability : {"Shader", "Int64", "Int8", "PhysicalStorageBufferAddresses", "StorageBuffer8BitAccess",
                                 "VulkanMemoryModel"})
    EXPECT_TRUE(contains(text, std::string("OpCapability ") + capability + "\n")) << capability << "\n" << text;
  EXPECT_EQ(count(text, "OpCapability Int16|OpCapability Float"), 0) << text;
  for (const char* extension :
       {"SPV_KHR_physical_storage_buffer", "SPV_KHR_8bit_storage", "SPV_KHR_vulkan_memory_model"})
    EXPECT_TRUE(contains(text, std::string("OpExtension \"") + extension + "\"\n")) << extension << "\n" << text;
  EXPECT_TRUE(contains(text, "OpMemoryModel PhysicalStorageBuffer64 Vulkan\n")) << text;
  EXPECT_TRUE(contains(text, "OpEntryPoint GLCompute %k \"k\" %id\n")) << text;

  const ModuleFeatures& features = lowered.reflection.features;
  EXPECT_TRUE(features.buffer_device_address);
  EXPECT_TRUE(features.shader_int64);
  EXPECT_TRUE(features.shader_int8);
  EXPECT_TRUE(features.storage_buffer_8bit);
  EXPECT_TRUE(features.vulkan_memory_model);
  EXPECT_FALSE(features.shader_int16);
  EXPECT_FALSE(features.storage_buffer_16bit);
}

// Under the GLSL450 memory model (LoweringOptions::memory_model) and with
// no pointer to global memory, the module is Logical GLSL450 and asks for
// neither physical addresses nor the Vulkan memory model.
TEST(DeclareVulkanModule, WithoutGlobalPointersUnderGLSL450TheModuleIsLogicalGLSL450) {
  LoweringOptions options;
  options.memory_model = MemoryModel::GLSL450;
  const Lowered lowered = run_with(options, {"declare_vulkan_module"}, kernel_module(R"(
               OpEntryPoint GLCompute %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  const std::string& text = lowered.text;
  EXPECT_TRUE(contains(text, "OpMemoryModel Logical GLSL450\n")) << text;
  EXPECT_EQ(count(text, "OpCapability"), 1) << text;
  EXPECT_TRUE(contains(text, "OpCapability Shader\n")) << text;
  EXPECT_EQ(count(text, "OpExtension"), 0) << text;
  EXPECT_FALSE(lowered.reflection.features.buffer_device_address);
  EXPECT_FALSE(lowered.reflection.features.vulkan_memory_model);
}

// `__global half*` only copied as bits (vload_half's way: a load whose every
// use is a bitcast to ushort): no half value is computed, so the half type
// becomes the ushort one (one declaration, the earlier, stays), the bitcast
// a copy, and the module needs 16-bit storage but not shaderFloat16.
// Adding two halves computes one: Float16 then stays.
TEST(DeclareVulkanModule, HalvesOnlyMovedAsBitsAreUshortsAndNeedNoFloat16) {
  const std::string kernel = R"(
               OpCapability Int16
               OpCapability Float16Buffer
               OpEntryPoint GLCompute %k "k"
       %void = OpTypeVoid
       %half = OpTypeFloat 16
     %ushort = OpTypeInt 16 0
   %half_ptr = OpTypePointer PhysicalStorageBuffer %half
 %ushort_ptr = OpTypePointer PhysicalStorageBuffer %ushort
         %fn = OpTypeFunction %void %half_ptr %ushort_ptr
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %half_ptr
        %out = OpFunctionParameter %ushort_ptr
      %entry = OpLabel
      %value = OpLoad %half %in Aligned 2
       %bits = OpBitcast %ushort %value
               OpStore %out %bits Aligned 2
               OpReturn
               OpFunctionEnd
)";
  const Lowered lowered = run_with({}, {"declare_vulkan_module"}, kernel_module(kernel));
  const std::string& text = lowered.text;
  EXPECT_EQ(count(text, "OpTypeFloat 16|OpCapability Float16"), 0) << text;
  EXPECT_EQ(count(text, "OpTypeInt 16 0\n"), 1) << text;
  EXPECT_TRUE(contains(text, "%half = OpTypeInt 16 0\n")) << text;
  EXPECT_TRUE(contains(text, "%half_ptr = OpTypePointer PhysicalStorageBuffer %half\n")) << text;
  EXPECT_TRUE(contains(text, "%ushort_ptr = OpTypePointer PhysicalStorageBuffer %half\n")) << text;
  EXPECT_TRUE(contains(text, "%bits = OpCopyObject %half %value\n")) << text;
  EXPECT_TRUE(contains(text, "OpCapability StorageBuffer16BitAccess\n")) << text;
  EXPECT_FALSE(lowered.reflection.features.shader_float16);
  EXPECT_TRUE(lowered.reflection.features.storage_buffer_16bit);

  const std::string computed = kernel_module(R"(
               OpCapability Int16
               OpCapability Float16
               OpEntryPoint GLCompute %k "k"
       %void = OpTypeVoid
       %half = OpTypeFloat 16
   %half_ptr = OpTypePointer PhysicalStorageBuffer %half
         %fn = OpTypeFunction %void %half_ptr
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %half_ptr
      %entry = OpLabel
      %value = OpLoad %half %in Aligned 2
        %sum = OpFAdd %half %value %value
               OpStore %in %sum Aligned 2
               OpReturn
               OpFunctionEnd
)");
  const Lowered with_half = run_with({}, {"declare_vulkan_module"}, computed);
  EXPECT_TRUE(contains(with_half.text, "%half = OpTypeFloat 16\n")) << with_half.text;
  EXPECT_TRUE(contains(with_half.text, "OpCapability Float16\n")) << with_half.text;
  EXPECT_TRUE(with_half.reflection.features.shader_float16);
}

}  // namespace
}  // namespace vkcl
