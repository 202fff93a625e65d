// Golden and validity tests for the OpenCL C language features of issue 4
// that the lowering once refused: each input kernel beside the instructions
// (as regular expressions over the friendly-name disassembly) its module must
// and must not contain, the reflection lines it must have, and the error
// each construct that remains unsupported gives. Every module is also
// validated here for Vulkan 1.1, 1.2 and 1.3 (clc validates too, fail closed;
// this keeps the contract visible).
//
//   pointers chosen at run time    one merged Workgroup/Function variable and
//                                  integer index phis/selects; never a pointer
//                                  phi, never VariablePointers
//   program-scope __constant       a Private variable with an OpConstantComposite
//                                  initializer, indexed at run time
//   by-value structs and unions    uint[n] words in the push-constant block
//   structs in global memory       Offset/ArrayStride at OpenCL's layout, 8/16-bit
//                                  storage capabilities and features
//   8/16-component vectors         no such vector type, no Vector16
//   async copies                   a barrier, no OpGroupAsyncCopy/OpTypeEvent
//   sub-group collectives          OpGroupNonUniform* with the right group
//                                  operation, capability and reflection feature
//   signed remainders              OpUMod of magnitudes, never OpSRem/OpSMod
#include <gtest/gtest.h>

#include <regex>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "barrier_inspection.h"
#include "compiler.h"
#include "lower_to_vulkan.h"
#include "module.h"
#include "reflection.h"

namespace vkcl::testing {
namespace {

struct Compiled {
  std::string text;        // friendly-name disassembly
  std::string reflection;  // serialized
};

Compiled compile(const std::string& source, bool optimize = true, OpenCLStd std = OpenCLStd::CL2_0) {
  CompileOptions options;
  options.max_storage_buffers = 0;  // these expectations follow addresses (storage buffers: storage_buffer_golden_test)
  options.cl_std = std;
  options.optimize = optimize;
  VulkanModule module = compile_opencl(source, "language.cl", options).module;
  for (spv_target_env env : {SPV_ENV_VULKAN_1_1, SPV_ENV_VULKAN_1_2, SPV_ENV_VULKAN_1_3}) {
    spvtools::SpirvTools tools(env);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
      messages += std::string(m) + "\n";
    });
    EXPECT_TRUE(tools.Validate(module.words)) << spvTargetEnvDescription(env) << ":\n" << messages;
  }
  return {disassemble(module.words), serialize(module.reflection)};
}

// The message of the CompileError `source` gives ("" when it compiles).
std::string error_of(const std::string& source, bool optimize = true) {
  try {
    CompileOptions options;
    options.max_storage_buffers = 0;  // these expectations follow addresses (storage buffers: storage_buffer_golden_test)
    options.cl_std = OpenCLStd::CL2_0;
    options.optimize = optimize;
    compile_opencl(source, "language.cl", options);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

// One golden case: the source, patterns that must occur, patterns that must not.
struct Golden {
  const char* name;
  std::string source;
  std::vector<std::string> expected;
  std::vector<std::string> forbidden;
  std::vector<std::string> reflection;  // lines of the reflection text
};

void PrintTo(const Golden& g, std::ostream* os) { *os << g.name; }

class LanguageGolden : public ::testing::TestWithParam<Golden> {};

TEST_P(LanguageGolden, EmitsTheExpectedInstructions) {
  const Golden& g = GetParam();
  for (bool optimize : {true, false}) {
    SCOPED_TRACE(optimize ? "-O2" : "-O0");
    Compiled c = compile(g.source, optimize);
    for (const std::string& e : g.expected) EXPECT_TRUE(contains(c.text, e)) << "expected /" << e << "/ in:\n" << c.text;
    for (const std::string& f : g.forbidden) EXPECT_FALSE(contains(c.text, f)) << "unexpected /" << f << "/ in:\n" << c.text;
    for (const std::string& r : g.reflection)
      EXPECT_NE(c.reflection.find(r + "\n"), std::string::npos) << "expected '" << r << "' in:\n" << c.reflection;
  }
}

// Never in a Vulkan module from these inputs.
const std::vector<std::string> kNoPointerChoice = {"OpPhi %_ptr_(Workgroup|Function|Private)",
                                                   "OpSelect %_ptr_(Workgroup|Function|Private)",
                                                   "VariablePointers"};

INSTANTIATE_TEST_SUITE_P(
    Language, LanguageGolden,
    ::testing::Values(
        // 0. Signed remainders: Vulkan leaves OpSRem/OpSMod undefined for
        // negative operands (lower_signed_remainders).
        Golden{"SignedRemainderIsAnUnsignedRemainderOfMagnitudes",
               R"(__kernel void k(__global int* i, __global long* l, __global char4* c, int d) {
                    const size_t g = get_global_id(0);
                    i[g] = i[g] % d;
                    l[g] = l[g] % -1000;
                    c[g] = c[g] % (char4)(3, -3, 5, -5);
                  })",
               {"OpUMod %uint ", "OpUMod %ulong ", "OpUMod %v4uchar "},
               {"OpSRem", "OpSMod"},
               {}},
        // 1. Pointers chosen at run time.
        Golden{"PingPongLocalArrays",
               R"(__kernel void k(__global float* out, int steps) {
                    __local float a[64], b[64];
                    const int l = get_local_id(0);
                    a[l] = l;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    __local float *src = a, *dst = b;
                    for (int s = 0; s < steps; ++s) {
                      dst[l] = src[l] + src[(l + 1) % 64];
                      barrier(CLK_LOCAL_MEM_FENCE);
                      __local float* t = src; src = dst; dst = t;
                    }
                    out[get_global_id(0)] = src[l];
                  })",
               {R"(%\w+ = OpVariable %_ptr_Workgroup__arr_float_uint_128 Workgroup)", R"(OpPhi %(ulong|uint))"},
               kNoPointerChoice,
               {"static_local_memory 512"}},
        Golden{"PingPongLocalArguments",
               R"(__kernel void k(__global int* out, __local int* x, __local int* y, int n) {
                    const int l = get_local_id(0);
                    x[l] = l;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    __local int *src = x, *dst = y;
                    for (int s = 1; s < n; s *= 2) {
                      dst[l] = src[l] + (l >= s ? src[l - s] : 0);
                      barrier(CLK_LOCAL_MEM_FENCE);
                      __local int* t = src; src = dst; dst = t;
                    }
                    out[get_global_id(0)] = src[l];
                  })",
               // The merged length: the two specialization constants added.
               {R"(OpSpecConstantOp %uint IAdd)", R"(OpDecorate %\w+ SpecId 3)", R"(OpDecorate %\w+ SpecId 4)"},
               kNoPointerChoice,
               {"arg 1 x local_pointer 3 4", "arg 2 y local_pointer 4 4"}},
        Golden{"PrivateArraysChosenBySelect",
               R"(__kernel void k(__global const int* in, __global int* out) {
                    int a[8], b[8];
                    for (int i = 0; i < 8; ++i) { a[i] = in[i]; b[i] = in[i + 8]; }
                    int* p = in[16] > 0 ? a : b;
                    out[get_global_id(0)] = p[in[17] & 7];
                  })",
               {R"(OpVariable %_ptr_Function__arr_uint_uint_16 Function)"},
               kNoPointerChoice,
               {}},
        // 2. Program-scope __constant arrays and initialized private arrays.
        Golden{"ProgramScopeConstantArray",
               R"(__constant float weights[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
                  __kernel void k(__global const float* in, __global float* out, int taps) {
                    float s = 0;
                    for (int t = 0; t < taps; ++t) s += weights[t] * in[get_global_id(0) + t];
                    out[get_global_id(0)] = s;
                  })",
               // (Private, or Function where SPIRV-Tools' optimizer moves a variable one function uses)
               {R"(OpConstantComposite %_arr_float_\w+ %float_0_1)",
                R"(OpVariable %_ptr_(Private|Function)__arr_float_\w+ (Private|Function) %\w+)",
                R"(OpAccessChain %_ptr_(Private|Function)_float)"},
               {"UniformConstant", "OpCopyMemorySized"},
               {}},
        Golden{"PrivateArrayWithInitializer",
               R"(__kernel void k(__global const int* idx, __global int* out) {
                    int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
                    table[idx[1] & 7] += idx[2];
                    out[get_global_id(0)] = table[idx[get_global_id(0)] & 7];
                  })",
               {R"(OpConstantComposite %_arr_uint_\w+ %uint_3 %uint_1 %uint_4)"},
               {"UniformConstant", "OpCopyMemorySized", R"(OpBitcast %_ptr_Function)"},
               {}},
        // 3. Structs and unions.
        Golden{"StructByValue",
               R"(typedef struct { float scale; int offset; float2 shift; char tag; } Params;
                  __kernel void k(__global float* data, Params p) {
                    int i = get_global_id(0);
                    data[i] = data[i] * p.scale + p.offset + p.shift.y + p.tag;
                  })",
               {R"(OpTypePointer PushConstant %_arr_uint_uint_6)", R"(OpDecorate %_arr_uint_uint_6 ArrayStride 4)"},
               {R"(OpTypePointer PushConstant %uchar)", R"(OpTypePointer PushConstant %struct)", "StoragePushConstant8"},
               {"arg 1 p scalar 8 24"}},
        Golden{"UnionByValue",
               R"(typedef union { uint4 words; float f[4]; ulong halves[2]; } Bits;
                  __kernel void k(__global uint* out, Bits b) {
                    out[0] = as_uint(b.f[2]) + b.words.w + (uint)(b.halves[0] >> 32);
                  })",
               {R"(OpTypePointer PushConstant %_arr_uint_uint_4)"},
               {R"(OpBitcast %_ptr_Function)"},
               {"arg 1 b scalar 16 16"}},
        Golden{"StructByValueWithRunTimeIndex",
               R"(typedef struct { float w[6]; int n; } Weights;
                  __kernel void k(__global const float* in, __global float* out, Weights w) {
                    float s = 0;
                    for (int t = 0; t < w.n; ++t) s += w.w[t] * in[get_global_id(0) + t];
                    out[get_global_id(0)] = s;
                  })",
               {R"(OpTypePointer PushConstant %_arr_uint_uint_7)"},
               {},
               {"arg 2 w scalar 16 28"}},
        Golden{"NarrowScalarArguments",
               R"(__kernel void k(__global int* out, char c, short s, uchar u) { out[0] = c + s + u; })",
               {R"(OpUConvert %uchar)", R"(OpUConvert %ushort)"},
               {R"(OpTypePointer PushConstant %uchar)", R"(OpTypePointer PushConstant %ushort)"},
               {"arg 1 c scalar 8 1", "arg 2 s scalar 12 2", "arg 3 u scalar 16 1"}},
        Golden{"StructsInGlobalMemory",
               R"(typedef struct { int a; char b; float3 c; short d; } Rec;
                  typedef struct { Rec r; ulong tag; uchar flags[3]; } Outer;
                  __kernel void k(__global Outer* o, __global float* out) {
                    int i = get_global_id(0);
                    out[i] = o[i].r.a + o[i].r.b + o[i].r.c.z + o[i].r.d + o[i].flags[2];
                    o[i].tag = i;
                  })",
               {R"(OpMemberDecorate %struct_Rec 0 Offset 0)", R"(OpMemberDecorate %struct_Rec 1 Offset 4)",
                R"(OpMemberDecorate %struct_Rec 2 Offset 16)", R"(OpMemberDecorate %struct_Rec 3 Offset 32)",
                R"(OpMemberDecorate %struct_Outer 1 Offset 48)", R"(OpMemberDecorate %struct_Outer 2 Offset 56)",
                R"(OpDecorate %_arr_uchar_\w+ ArrayStride 1)", "OpCapability StorageBuffer8BitAccess",
                "OpCapability StorageBuffer16BitAccess", R"(OpExtension "SPV_KHR_8bit_storage")"},
               {},
               {"feature storage_buffer_8bit", "feature storage_buffer_16bit"}},
        // 4. Vectors of 8 and 16 components.
        Golden{"SixteenComponentVectors",
               R"(__kernel void k(__global const float* in, __global float* out, float8 bias, uint lane) {
                    float16 x = vload16(get_global_id(0), in);
                    float16 y = shuffle(x, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)) * x;
                    int8 n = convert_int8(x.lo) + as_int8(x.hi);
                    y.lo += convert_float8(n) + bias;
                    y.s3 = x[lane & 15];
                    vstore16(y, get_global_id(0), out);
                  })",
               {R"(OpTypeArray %float %uint_8)"},
               {R"(OpTypeVector %\w+ (8|16)\b)", "Vector16"},
               {"arg 2 bias scalar 32 32"}},
        Golden{"LongVectorsInLocalMemory",
               R"(__kernel void k(__global const int* in, __global int* out) {
                    __local int16 tile[8];
                    tile[get_local_id(0)] = vload16(get_global_id(0), in);
                    barrier(CLK_LOCAL_MEM_FENCE);
                    vstore16(tile[7 - get_local_id(0)] * 3, get_global_id(0), out);
                  })",
               {R"(OpTypeArray %uint %uint_16)", R"(OpVariable %_ptr_Workgroup__arr__arr_uint_uint_16_\w+ Workgroup)"},
               {R"(OpTypeVector %\w+ (8|16)\b)", "Vector16"},
               {}},
        // 5. Async copies.
        Golden{"AsyncWorkGroupCopy",
               R"(__kernel void k(__global const float4* in, __global float4* out) {
                    __local float4 tile[64];
                    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
                    wait_group_events(1, &e);
                    e = async_work_group_strided_copy(out + get_group_id(0), tile, 64, 3, 0);
                    wait_group_events(1, &e);
                    prefetch(in, 64);
                  })",
               {R"(OpControlBarrier %uint_2 %uint_2 %uint_\d+)"},
               {"OpGroupAsyncCopy", "OpGroupWaitEvents", "OpTypeEvent"},
               {}},
        // 6. Sub-group collectives.
        Golden{"SubGroupCollectives",
               R"(__kernel void k(__global const int* in, __global int* out, uint lane) {
                    int x = in[get_global_id(0)];
                    out[get_global_id(0)] = sub_group_reduce_add(x) + sub_group_scan_exclusive_min(x) +
                        sub_group_scan_inclusive_max((uint)x) + sub_group_broadcast(x, 2) +
                        sub_group_broadcast(x, lane) + sub_group_all(x > 0) + sub_group_any(x < 0) +
                        (int)sub_group_reduce_add((float)x);
                  })",
               {R"(OpGroupNonUniformIAdd %uint %uint_3 Reduce)", R"(OpGroupNonUniformSMin %uint %uint_3 ExclusiveScan)",
                R"(OpGroupNonUniformUMax %uint %uint_3 InclusiveScan)",
                R"(OpGroupNonUniformBroadcast %uint %uint_3 %\w+ %uint_2)", R"(OpGroupNonUniformShuffle %uint %uint_3)",
                R"(OpGroupNonUniformAll %bool %uint_3)", R"(OpGroupNonUniformAny %bool %uint_3)",
                R"(OpGroupNonUniformFAdd %float %uint_3 Reduce)", "OpCapability GroupNonUniformArithmetic",
                "OpCapability GroupNonUniformVote", "OpCapability GroupNonUniformBallot",
                "OpCapability GroupNonUniformShuffle"},
               {"OpGroupIAdd", "OpGroupBroadcast", "OpGroupAll", "GroupNonUniformClustered"},
               {"feature subgroup_basic", "feature subgroup_vote", "feature subgroup_arithmetic",
                "feature subgroup_ballot", "feature subgroup_shuffle"}},
        Golden{"SubGroupExtensions",
               R"(__kernel void k(__global const long* in, __global long* out, __global uint4* masks) {
                    long x = in[get_global_id(0)];
                    out[get_global_id(0)] = sub_group_non_uniform_scan_exclusive_mul(x) +
                        sub_group_shuffle_xor(x, 1u) + sub_group_shuffle_down(x, 1u) + sub_group_elect() +
                        sub_group_clustered_reduce_or(x, 4u) + sub_group_non_uniform_all_equal(x);
                    masks[get_global_id(0)] = sub_group_ballot(x > 0) & get_sub_group_lt_mask();
                  })",
               {R"(OpGroupNonUniformIMul %ulong %uint_3 ExclusiveScan)", R"(OpGroupNonUniformShuffleXor %ulong)",
                R"(OpGroupNonUniformShuffleDown %ulong)", R"(OpGroupNonUniformElect %bool %uint_3)",
                R"(OpGroupNonUniformBitwiseOr %ulong %uint_3 ClusteredReduce %\w+ %uint_4)",
                R"(OpGroupNonUniformAllEqual %bool %uint_3)", R"(OpGroupNonUniformBallot %v4uint %uint_3)"},
               {},
               {"feature subgroup_shuffle_relative", "feature subgroup_clustered", "feature subgroup_extended_types"}},
        // intel_reqd_sub_group_size: the translator's SubgroupSize mode (and its
        // SubgroupDispatch capability) has no Vulkan counterpart; the size goes
        // to the reflection, and the host requires it at pipeline creation.
        Golden{"IntelRequiredSubGroupSize",
               R"(__kernel __attribute__((intel_reqd_sub_group_size(16))) void k(__global uint* out) {
                    out[get_global_id(0)] = get_max_sub_group_size() + get_sub_group_size();
                  })",
               {R"(OpExecutionMode %k LocalSize 1 1 1)", R"(OpDecorate %\w+ BuiltIn SubgroupSize)"},
               {"SubgroupDispatch", R"(OpExecutionMode %k SubgroupSize)", R"(OpExecutionMode %k SubgroupsPerWorkgroup)"},
               {"static_local_memory 0\nreqd_sub_group_size 16", "feature subgroup_basic"}},
        Golden{"NoRequiredSubGroupSize",
               R"(__kernel void k(__global uint* out) { out[get_global_id(0)] = get_max_sub_group_size(); })",
               {R"(OpDecorate %\w+ BuiltIn SubgroupSize)"},
               {"SubgroupDispatch"},
               {"static_local_memory 0\nndrange enqueued_local_size 16"}}),
    [](const ::testing::TestParamInfo<Golden>& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// What stays unsupported: a CompileError naming the construct, never an
// invalid module.

struct ErrorCase {
  const char* name;
  std::string source;
  std::vector<std::string> words;  // each must occur in the message
};

void PrintTo(const ErrorCase& e, std::ostream* os) { *os << e.name; }

class LanguageErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(LanguageErrors, AreCompileErrors) {
  const ErrorCase& c = GetParam();
  for (bool optimize : {true, false}) {
    const std::string message = error_of(c.source, optimize);
    ASSERT_FALSE(message.empty()) << c.name << (optimize ? " -O2" : " -O0") << " compiled";
    for (const std::string& w : c.words) EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' in: " << message;
    EXPECT_EQ(message.find("internal"), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Language, LanguageErrors,
    ::testing::Values(
        ErrorCase{"ChoiceBetweenDifferentTypes",
                  R"(__kernel void k(__global int* out, int c) {
                       __local int x[4];
                       __local int2 y[2];
                       x[get_local_id(0) & 3] = 1; y[get_local_id(0) & 1] = 2;
                       barrier(CLK_LOCAL_MEM_FENCE);
                       __local int* p = c ? x : (__local int*)&y[1];
                       out[0] = p[get_local_id(0) & 1];
                     })",
                  {"chosen at run time", "different types"}},
        ErrorCase{"ChoiceBetweenStructMembers",
                  R"(typedef struct { int a[4]; int b[4]; } S;
                     __kernel void k(__global int* out, int c) {
                       __local S s;
                       s.a[get_local_id(0) & 3] = 1; s.b[get_local_id(0) & 3] = 2;
                       barrier(CLK_LOCAL_MEM_FENCE);
                       __local int* p = c ? s.a : s.b;
                       out[0] = p[get_local_id(0) & 3];
                     })",
                  {"chosen at run time", "different members of a struct"}},
        ErrorCase{"ConstantPointerToTableOrArgument",
                  R"(__constant int table[4] = {1, 2, 3, 4};
                     __kernel void k(__constant int* arg, __global int* out, int c) {
                       __constant int* p = c ? table : arg;
                       out[get_global_id(0)] = p[get_global_id(0) & 3];
                     })",
                  {"program-scope __constant", "kernel argument"}},
        ErrorCase{"PackedStructInGlobalMemory",
                  R"(typedef struct __attribute__((packed)) { char c; int i; } P;
                     __kernel void k(__global P* p, __global int* out) { out[0] = p[get_global_id(0)].i; })",
                  {"packed struct"}},
        // (Half math has no library definitions; vload_half16 was the example
        // until builtins/vload_store_half.cl defined it.)
        ErrorCase{"ClusteredReduceWithRunTimeClusterSize",
                  R"(__kernel void k(__global int* out, uint size) {
                       out[get_global_id(0)] = sub_group_clustered_reduce_add(out[get_global_id(0)], size);
                     })",
                  {"cluster size", "compile-time constant"}}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

// Clang never emits OpSMod (C's % is OpSRem), but a Kernel module may hold
// one: the translator's module for `a % b` with the opcode changed must lower
// to OpUMod and validate, with no OpSMod left.
TEST(SignedRemainders, KernelModuleOpSModIsLowered) {
  CompileOptions options;
  options.max_storage_buffers = 0;  // these expectations follow addresses (storage buffers: storage_buffer_golden_test)
  options.cl_std = OpenCLStd::CL1_2;
  options.lower = false;
  std::vector<uint32_t> words =
      compile_opencl("__kernel void k(__global int* a, __global int* b) { a[get_global_id(0)] %= b[0]; }",
                     "smod.cl", options)
          .kernel_spirv;
  size_t swapped = 0;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16)
    if ((words[at] & 0xffff) == uint32_t(spv::Op::OpSRem)) {
      words[at] = (words[at] & 0xffff0000u) | uint32_t(spv::Op::OpSMod);
      ++swapped;
    }
  ASSERT_EQ(swapped, 1u);
  for (bool optimize : {true, false}) {
    LoweringOptions lowering;
    lowering.optimize = optimize;
    const std::string text = disassemble(lower_to_vulkan(words, lowering).words);
    EXPECT_FALSE(contains(text, "OpSMod|OpSRem")) << text;
    EXPECT_TRUE(contains(text, "OpUMod %uint ")) << text;
  }
}

}  // namespace
}  // namespace vkcl::testing
