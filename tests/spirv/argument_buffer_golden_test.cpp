// Argument buffers (spirv/emit_push_constant_blocks.cpp): a kernel whose
// arguments and ND-range fields would take more than Vulkan's guaranteed 128
// bytes of push constants reads its arguments through an 8-byte
// PhysicalStorageBuffer pointer at push-constant offset 0, to a Block struct
// whose members are NonWritable and Restrict, at the offsets the arguments
// had; the reflection says `argument_buffer 0 <size>`. Kernels that fit keep
// their arguments in the push constants. By-value arguments of 8- and 16-bit
// components are 32-bit words in either place. Every module is checked against the
// Vulkan environment (spirv-val for Vulkan 1.1, 1.2 and 1.3 and the rules
// newer than it) at -O2 and -O0, under both memory models.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "barrier_inspection.h"
#include "compiler.h"
#include "reflection.h"
#include "vulkan_environment.h"

namespace vkcl::testing {
namespace {

struct Compiled {
  std::string text;  // friendly-name disassembly
  ModuleReflection reflection;
  std::string reflection_text;
};

Compiled compile(const std::string& source, bool optimize = true, MemoryModel model = MemoryModel::Vulkan) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  options.optimize = optimize;
  options.memory_model = model;
  // The subject is where arguments and addresses go: pointers keep theirs
  // (storage-buffer arguments: storage_buffer_golden_test).
  options.max_storage_buffers = 0;
  VulkanModule module = compile_opencl(source, "arguments.cl", options).module;
  for (const std::string& problem : vulkan_environment_violations(module.words, model)) ADD_FAILURE() << problem;
  return {disassemble(module.words), module.reflection, serialize(module.reflection)};
}

bool contains(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return size_t(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

// `pointers` global int pointers a0, a1, ... and an int n, each pointer read
// and written; get_global_id reads two ND-range fields (32 bytes): the
// enqueued local size and the global id base.
std::string kernel_with_pointers(int pointers) {
  std::string params, body;
  for (int p = 0; p < pointers; ++p) {
    params += "__global int* a" + std::to_string(p) + ", ";
    body += "  a" + std::to_string(p) + "[i] += " + std::to_string(p + 1) + " * n;\n";
  }
  return "__kernel void k(" + params + "int n) {\n  size_t i = get_global_id(0);\n" + body + "}\n";
}

constexpr const char* kBigStruct = R"CL(
typedef struct { int v[38]; long l; } Big;  // 160 bytes
__kernel void big(__global long* out, Big b, int k) {
  size_t i = get_global_id(0);
  out[i] = b.v[(i + k) % 38] + b.l + b.v[3];
}
)CL";

constexpr const char* kMixed = R"CL(
__kernel void mixed(__global float* o, char c, short s, float3 v3, float16 v16, double d, long16 l16,
                    uchar4 u4, __local float* scratch, __constant int* cc) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = c + s + v3.y + v16.s9 + (float)d + (float)l16.sf + u4.z + cc[1];
  barrier(CLK_LOCAL_MEM_FENCE);
  o[i] = scratch[get_local_id(0)] + get_work_dim() + get_global_size(0) + get_num_groups(0) + get_global_offset(0) +
         get_group_id(0);
}
)CL";

TEST(ArgumentBufferGolden, SixteenPointersGoThroughAPointerToANonWritableBlock) {
  for (MemoryModel model : {MemoryModel::Vulkan, MemoryModel::GLSL450})
    for (bool optimize : {true, false}) {
      SCOPED_TRACE(std::string(optimize ? "-O2" : "-O0") + (model == MemoryModel::Vulkan ? " vulkan" : " glsl450"));
      Compiled c = compile(kernel_with_pointers(16), optimize, model);
      // The push-constant block: the pointer first, then the ND-range fields.
      EXPECT_TRUE(contains(c.text, "%k_push_constants = OpTypeStruct %_ptr_PhysicalStorageBuffer_k_arguments %v4uint "
                                   "%v4uint\n"))
          << c.text;
      EXPECT_TRUE(contains(c.text, "OpMemberDecorate %k_push_constants 0 Offset 0\n")) << c.text;
      EXPECT_TRUE(contains(c.text, "%_ptr_PhysicalStorageBuffer_k_arguments = OpTypePointer PhysicalStorageBuffer "
                                   "%k_arguments\n"))
          << c.text;
      // The arguments: a Block, every member at its offset, NonWritable and Restrict.
      EXPECT_TRUE(contains(c.text, "OpDecorate %k_arguments Block\n")) << c.text;
      EXPECT_EQ(count(c.text, "OpMemberDecorate %k_arguments \\d+ NonWritable\n"), 17u) << c.text;
      EXPECT_EQ(count(c.text, "OpMemberDecorate %k_arguments \\d+ Restrict\n"), 17u) << c.text;
      EXPECT_TRUE(contains(c.text, "OpMemberDecorate %k_arguments 15 Offset 120\n")) << c.text;
      EXPECT_TRUE(contains(c.text, "OpMemberDecorate %k_arguments 16 Offset 128\n")) << c.text;
      // Read through the pointer, loaded from the push constants once.
      EXPECT_EQ(count(c.text, "OpAccessChain %_ptr_PushConstant__ptr_PhysicalStorageBuffer_k_arguments "), 1u) << c.text;
      EXPECT_TRUE(contains(c.text, "= OpLoad %_ptr_PhysicalStorageBuffer_uint %\\w+ Aligned 8\n")) << c.text;
      EXPECT_TRUE(contains(c.text, "%n = OpLoad %uint %\\w+ Aligned 4\n")) << c.text;
      EXPECT_FALSE(contains(c.text, "OpStore %\\w+ %\\w+ .*k_arguments")) << c.text;

      const KernelReflection& k = c.reflection.kernels.at(0);
      ASSERT_TRUE(k.argument_buffer.has_value()) << c.reflection_text;
      EXPECT_EQ(k.argument_buffer->offset, 0u);
      EXPECT_EQ(k.argument_buffer->size, 132u);
      EXPECT_EQ(k.push_constant_size, 48u);
      for (uint32_t a = 0; a < 16; ++a) EXPECT_EQ(k.args.at(a).offset, 8 * a);
      EXPECT_EQ(k.args.at(16).offset, 128u);
      EXPECT_NE(c.reflection_text.find("push_constant_size 48\nargument_buffer 0 132\n"), std::string::npos)
          << c.reflection_text;
      // The ND-range fields after the pointer.
      EXPECT_EQ(k.ndrange_offset(NDRangeField::EnqueuedLocalSize), 16u);
      EXPECT_EQ(k.ndrange_offset(NDRangeField::GlobalIdBase), 32u);
      EXPECT_EQ(k.ndrange.size(), 2u) << c.reflection_text;
    }
}

// 11 pointers and n (92 bytes, the ND-range fields from 96) are exactly 128
// bytes: they stay. 12 and n (100 bytes, the fields from 112) would be 144:
// they move.
TEST(ArgumentBufferGolden, OnlyKernelsBeyond128BytesGetOne) {
  Compiled fits = compile(kernel_with_pointers(11));
  EXPECT_FALSE(fits.reflection.kernels.at(0).argument_buffer.has_value()) << fits.reflection_text;
  EXPECT_EQ(fits.reflection_text.find("argument_buffer"), std::string::npos) << fits.reflection_text;
  EXPECT_EQ(fits.reflection.kernels.at(0).push_constant_size, 128u);
  EXPECT_EQ(fits.reflection.kernels.at(0).args.at(11).offset, 88u);  // n
  EXPECT_EQ(fits.reflection.kernels.at(0).ndrange_offset(NDRangeField::GlobalIdBase), 112u);
  EXPECT_FALSE(contains(fits.text, "k_arguments")) << fits.text;
  EXPECT_FALSE(contains(fits.text, "NonWritable")) << fits.text;
  EXPECT_TRUE(contains(fits.text, "%k_push_constants = OpTypeStruct( %_ptr_PhysicalStorageBuffer_uint){11} %uint "
                                  "%v4uint %v4uint\n"))
      << fits.text;

  Compiled moves = compile(kernel_with_pointers(12));
  ASSERT_TRUE(moves.reflection.kernels.at(0).argument_buffer.has_value()) << moves.reflection_text;
  EXPECT_EQ(moves.reflection.kernels.at(0).argument_buffer->size, 100u);
  EXPECT_EQ(moves.reflection.kernels.at(0).push_constant_size, 48u);
}

// A by-value struct of 160 bytes: its words in the argument buffer, read
// through the pointer (a run-time index, so copied to a private variable).
TEST(ArgumentBufferGolden, LargeStructByValue) {
  for (bool optimize : {true, false}) {
    SCOPED_TRACE(optimize ? "-O2" : "-O0");
    Compiled c = compile(kBigStruct, optimize);
    const KernelReflection& k = c.reflection.kernels.at(0);
    ASSERT_TRUE(k.argument_buffer.has_value()) << c.reflection_text;
    EXPECT_EQ(k.argument_buffer->size, 172u);
    EXPECT_NE(c.reflection_text.find("arg 1 b scalar 8 160\n"), std::string::npos) << c.reflection_text;
    EXPECT_NE(c.reflection_text.find("arg 2 k scalar 168 4\n"), std::string::npos) << c.reflection_text;
    EXPECT_TRUE(contains(c.text, "%big_arguments = OpTypeStruct %_ptr_PhysicalStorageBuffer_ulong %_arr_uint_uint_40 "
                                 "%uint\n"))
        << c.text;
    EXPECT_TRUE(contains(c.text, "= OpLoad %_arr_uint_uint_40 %\\w+ Aligned 8\n")) << c.text;
  }
}

// Narrow scalars (words), 3- and 16-component vectors, long16 (128-byte
// alignment), double, a __constant pointer and a __local pointer (a
// specialization constant, never in the argument buffer), with every
// ND-range field: valid, each load Aligned to its argument's alignment.
TEST(ArgumentBufferGolden, EveryKindOfArgument) {
  for (MemoryModel model : {MemoryModel::Vulkan, MemoryModel::GLSL450})
    for (bool optimize : {true, false}) {
      SCOPED_TRACE(std::string(optimize ? "-O2" : "-O0") + (model == MemoryModel::Vulkan ? " vulkan" : " glsl450"));
      Compiled c = compile(kMixed, optimize, model);
      const KernelReflection& k = c.reflection.kernels.at(0);
      ASSERT_TRUE(k.argument_buffer.has_value()) << c.reflection_text;
      EXPECT_EQ(k.argument_buffer->size, 400u);
      EXPECT_EQ(k.push_constant_size, 128u);
      EXPECT_EQ(k.ndrange.size(), 7u);
      EXPECT_NE(c.reflection_text.find("arg 6 l16 scalar 256 128\n"), std::string::npos) << c.reflection_text;
      EXPECT_NE(c.reflection_text.find("arg 8 scratch local_pointer 3 4\n"), std::string::npos) << c.reflection_text;
      EXPECT_TRUE(contains(c.text, "%l16 = OpLoad %\\w+ %\\w+ Aligned 128\n")) << c.text;
      EXPECT_TRUE(contains(c.text, "%v3 = OpLoad %v3float %\\w+ Aligned 16\n")) << c.text;
      EXPECT_TRUE(contains(c.text, "%v16 = OpLoad %\\w+ %\\w+ Aligned 64\n")) << c.text;
    }
}

// By-value arguments of 8- and 16-bit components (spirv/lower_kernel_arguments.cpp):
// 32-bit words in the block (uint, uvecN), rebuilt after the load, so that no
// module needs StoragePushConstant8/16 (storagePushConstant8/16, which many
// devices lack) or, in an argument buffer, 8/16-bit storage because of them.
// kNarrow's arguments and ND-range fields take 112 bytes (push constants);
// kNarrowInBuffer adds a ulong8 (an argument buffer).
constexpr const char* kNarrowArguments =
    "char2 a, uchar3 b, uchar4 c, char8 d, uchar16 e, short f, short2 g, short3 h, ushort4 i, half2 j";
constexpr const char* kNarrowSum =
    "a.x + 3 * a.y + 5 * b.z + 7 * c.w + 11 * d.s7 + 13 * e.sf + 17 * f + 19 * g.y + 23 * h.z + 29 * i.w";

std::string narrow_kernel(bool in_buffer) {
  return std::string("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global uint* out, ") +
         kNarrowArguments + (in_buffer ? ", ulong8 pad" : "") + ") {\n  out[get_global_id(0)] = " + kNarrowSum +
         " + as_uint(j)" + (in_buffer ? " + (uint)pad.s5" : "") + ";\n}\n";
}

// The members of the struct named `name` in the disassembly.
std::vector<std::string> struct_members(const std::string& text, const std::string& name) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex("%" + name + " = OpTypeStruct([^\n]*)\n"))) return {};
  std::vector<std::string> members;
  const std::string list = match[1];
  const std::regex member("%\\w+");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), member); it != std::sregex_iterator(); ++it)
    members.push_back(it->str());
  return members;
}

void expect_only_words_and_pointers(const std::string& text, const std::string& name, size_t members) {
  const std::vector<std::string> found = struct_members(text, name);
  EXPECT_EQ(found.size(), members) << name << "\n" << text;
  const std::regex word("%(uint|v[234]uint|_arr_u(int|long)_uint_\\d+(_\\d+)?|_ptr_PhysicalStorageBuffer_\\w+)");
  for (const std::string& member : found) EXPECT_TRUE(std::regex_match(member, word)) << name << ": " << member;
}

void expect_no_narrow_argument_storage(const Compiled& c) {
  EXPECT_FALSE(contains(c.text, "OpTypePointer (PushConstant|PhysicalStorageBuffer) %\\w*(char|short|half)\\b")) << c.text;
  for (const char* capability : {"StoragePushConstant8", "StoragePushConstant16", "StorageBuffer8BitAccess",
                                 "StorageBuffer16BitAccess", "UniformAndStorageBuffer8BitAccess",
                                 "StorageUniform16"})
    EXPECT_FALSE(contains(c.text, std::string("OpCapability ") + capability + "\n")) << capability;
  EXPECT_FALSE(contains(c.text, "SPV_KHR_(8|16)bit_storage")) << c.text;
  EXPECT_FALSE(c.reflection.features.storage_buffer_8bit) << c.reflection_text;
  EXPECT_FALSE(c.reflection.features.storage_buffer_16bit) << c.reflection_text;
  // The arithmetic on them still needs 8- and 16-bit integers; the half2 is only bitcast.
  EXPECT_TRUE(contains(c.text, "OpCapability Int8\n")) << c.text;
  EXPECT_TRUE(contains(c.text, "OpCapability Int16\n")) << c.text;
  EXPECT_FALSE(contains(c.text, "OpCapability Float16\n")) << c.text;
  EXPECT_FALSE(c.reflection.features.shader_float16) << c.reflection_text;
  // The host's layout: OpenCL's sizes, 2-byte values in a word of their own.
  EXPECT_NE(c.reflection_text.find("arg 1 a scalar 8 2\narg 2 b scalar 12 4\narg 3 c scalar 16 4\n"
                                   "arg 4 d scalar 24 8\narg 5 e scalar 32 16\narg 6 f scalar 48 2\n"
                                   "arg 7 g scalar 52 4\narg 8 h scalar 56 8\narg 9 i scalar 64 8\n"
                                   "arg 10 j scalar 72 4\n"),
            std::string::npos)
      << c.reflection_text;
}

// The values rebuilt from their words (-O0 keeps the parameters' names on them).
void expect_rebuilt(const std::string& text) {
  for (const char* pattern : {
           "%\\w+ = OpBitcast %v4uchar %\\w+\n *%a = OpVectorShuffle %v2uchar %(\\w+) %\\1 0 1\n",
           "%\\w+ = OpBitcast %v4uchar %\\w+\n *%b = OpVectorShuffle %v3uchar %(\\w+) %\\1 0 1 2\n",
           "= OpLoad %uint %\\w+(?: Aligned 4)?\n *%c = OpBitcast %v4uchar %\\w+\n",
           "%d = OpCompositeConstruct %\\w+( %\\w+){8}\n",
           "%e = OpCompositeConstruct %\\w+( %\\w+){16}\n",
           "= OpLoad %uint %\\w+(?: Aligned 4)?\n *%f = OpUConvert %ushort %\\w+\n",
           "= OpLoad %uint %\\w+(?: Aligned 4)?\n *%g = OpBitcast %v2ushort %\\w+\n",
           "= OpLoad %v2uint %\\w+(?: Aligned 8)?\n *%\\w+ = OpBitcast %v4ushort %\\w+\n *%h = OpVectorShuffle %v3ushort %(\\w+) %\\1 0 1 2\n",
           "= OpLoad %v2uint %\\w+(?: Aligned 8)?\n *%i = OpBitcast %v4ushort %\\w+\n",
       })
    EXPECT_TRUE(contains(text, pattern)) << pattern << "\n" << text;
  EXPECT_EQ(count(text, "OpBitcast %v4uchar"), 2u + 2u + 4u + 1u) << text;  // a, b, c; d's and e's words
}

TEST(ArgumentBufferGolden, NarrowVectorsAreWordsInThePushConstants) {
  for (MemoryModel model : {MemoryModel::Vulkan, MemoryModel::GLSL450})
    for (bool optimize : {true, false}) {
      SCOPED_TRACE(std::string(optimize ? "-O2" : "-O0") + (model == MemoryModel::Vulkan ? " vulkan" : " glsl450"));
      Compiled c = compile(narrow_kernel(false), optimize, model);
      const KernelReflection& k = c.reflection.kernels.at(0);
      EXPECT_FALSE(k.argument_buffer.has_value()) << c.reflection_text;
      EXPECT_EQ(k.push_constant_size, 112u);
      EXPECT_TRUE(contains(c.text, "%k_push_constants = OpTypeStruct %_ptr_PhysicalStorageBuffer_uint %uint %uint "
                                   "%uint %v2uint %v4uint %uint %uint %v2uint %v2uint %uint %v4uint %v4uint\n"))
          << c.text;
      expect_only_words_and_pointers(c.text, "k_push_constants", 13);
      for (auto [member, offset] : {std::pair{1, 8}, {2, 12}, {3, 16}, {4, 24}, {5, 32}, {6, 48}, {7, 52}, {8, 56},
                                    {9, 64}, {10, 72}})
        EXPECT_TRUE(contains(c.text, "OpMemberDecorate %k_push_constants " + std::to_string(member) + " Offset " +
                                         std::to_string(offset) + "\n"))
            << member;
      expect_no_narrow_argument_storage(c);
      if (!optimize) expect_rebuilt(c.text);
    }
}

TEST(ArgumentBufferGolden, NarrowVectorsAreWordsInTheArgumentBuffer) {
  for (MemoryModel model : {MemoryModel::Vulkan, MemoryModel::GLSL450})
    for (bool optimize : {true, false}) {
      SCOPED_TRACE(std::string(optimize ? "-O2" : "-O0") + (model == MemoryModel::Vulkan ? " vulkan" : " glsl450"));
      Compiled c = compile(narrow_kernel(true), optimize, model);
      const KernelReflection& k = c.reflection.kernels.at(0);
      ASSERT_TRUE(k.argument_buffer.has_value()) << c.reflection_text;
      EXPECT_EQ(k.argument_buffer->size, 192u);
      EXPECT_NE(c.reflection_text.find("arg 11 pad scalar 128 64\n"), std::string::npos) << c.reflection_text;
      expect_only_words_and_pointers(c.text, "k_push_constants", 3);
      expect_only_words_and_pointers(c.text, "k_arguments", 12);
      EXPECT_TRUE(contains(c.text, "%k_arguments = OpTypeStruct %_ptr_PhysicalStorageBuffer_uint %uint %uint %uint "
                                   "%v2uint %v4uint %uint %uint %v2uint %v2uint %uint %_arr_ulong_\\w+\n"))
          << c.text;
      EXPECT_TRUE(contains(c.text, "= OpLoad %v4uint %\\w+ Aligned 16\n")) << c.text;  // e
      EXPECT_TRUE(contains(c.text, "= OpLoad %v2uint %\\w+ Aligned 8\n")) << c.text;   // d, h, i
      expect_no_narrow_argument_storage(c);
      if (!optimize) expect_rebuilt(c.text);
    }
}

// Half vectors computed on (Float16, the words rebuilt through ushort), and
// the widest: short16 (uvec8, an array of 8 words once lower_long_vectors ran)
// and half8, in both places (84 bytes without ND-range fields; a long16 more
// makes an argument buffer).
TEST(ArgumentBufferGolden, HalfVectorsAndSixteenShortsAreWords) {
  for (bool in_buffer : {false, true})
    for (bool optimize : {true, false}) {
      SCOPED_TRACE(std::string(optimize ? "-O2" : "-O0") + (in_buffer ? " argument buffer" : " push constants"));
      const std::string source =
          std::string("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      "__kernel void k(__global float* out, half2 j, half3 h3, short16 s, half8 h8, half h") +
          (in_buffer ? ", long16 pad" : "") +
          ") {\n  out[0] = j.x + j.y + h3.z + s.sf + s.s0 + h8.s7 + h8.s0 + h" +
          (in_buffer ? " + pad.s3" : "") + ";\n}\n";
      Compiled c = compile(source, optimize);
      const KernelReflection& k = c.reflection.kernels.at(0);
      EXPECT_EQ(k.argument_buffer.has_value(), in_buffer) << c.reflection_text;
      EXPECT_NE(c.reflection_text.find("arg 1 j scalar 8 4\narg 2 h3 scalar 16 8\narg 3 s scalar 32 32\n"
                                       "arg 4 h8 scalar 64 16\narg 5 h scalar 80 2\n"),
                std::string::npos)
          << c.reflection_text;
      const std::string block = in_buffer ? "k_arguments" : "k_push_constants";
      const std::vector<std::string> members = struct_members(c.text, block);
      ASSERT_GE(members.size(), 6u) << c.text;
      EXPECT_EQ(members[1], "%uint");
      EXPECT_EQ(members[2], "%v2uint");
      EXPECT_TRUE(std::regex_match(members[3], std::regex("%_arr_uint_uint_8(_\\d+)?"))) << members[3];
      EXPECT_EQ(members[4], "%v4uint");
      EXPECT_EQ(members[5], "%uint");
      EXPECT_FALSE(contains(c.text, "OpTypePointer (PushConstant|PhysicalStorageBuffer) %\\w*(char|short|half)\\b"))
          << c.text;
      EXPECT_FALSE(contains(c.text, "OpCapability (StoragePushConstant|StorageBuffer)(8|16)")) << c.text;
      EXPECT_FALSE(c.reflection.features.storage_buffer_16bit) << c.reflection_text;
      EXPECT_TRUE(contains(c.text, "OpCapability Float16\n")) << c.text;
      if (!optimize) {
        EXPECT_TRUE(contains(c.text, "%\\w+ = OpBitcast %v2ushort %\\w+\n *%j = OpBitcast %v2half %\\w+\n")) << c.text;
        EXPECT_TRUE(contains(c.text, "%\\w+ = OpVectorShuffle %v3ushort %(\\w+) %\\1 0 1 2\n *%h3 = OpBitcast %v3half "))
            << c.text;
        EXPECT_TRUE(contains(c.text, "%\\w+ = OpUConvert %ushort %\\w+\n *%h = OpBitcast %half %\\w+\n")) << c.text;
      }
    }
}

TEST(ArgumentBufferGolden, MoreThan64KiBOfArgumentsIsAnError) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  options.max_storage_buffers = 0;  // the pointer's 8 bytes count
  try {
    compile_opencl("typedef struct { int v[16400]; } Huge;\n"
                   "__kernel void huge(__global int* o, Huge h) { o[0] = h.v[get_global_id(0)]; }\n",
                   "huge.cl", options);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'huge': its arguments take 65608 bytes; vkcl passes at most 65536"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace vkcl::testing
