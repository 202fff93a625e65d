// Storage-buffer arguments (spirv/bind_storage_buffers.cpp): a __global or
// __constant pointer argument that is only a base of accesses becomes a
// descriptor-bound storage buffer (set 0, binding in argument order among the
// bound ones); one that escapes keeps its buffer device address. Each case
// shows the source and the lines that must (or must not) be in the module or
// its reflection, and every module is checked against the Vulkan
// environment (spirv-val for Vulkan 1.1, 1.2, 1.3 and the newer rules).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "barrier_inspection.h"
#include "compiler.h"
#include "reflection.h"
#include "vulkan_environment.h"

namespace vkcl::testing {
namespace {

struct Compiled {
  std::string text;        // friendly-name disassembly
  std::string reflection;  // the text format
};

Compiled compile(const std::string& source, uint32_t max_storage_buffers = 32,
                 MemoryModel model = MemoryModel::Vulkan, bool optimize = true) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  options.memory_model = model;
  options.optimize = optimize;
  options.max_storage_buffers = max_storage_buffers;
  VulkanModule module = compile_opencl(source, "buffers.cl", options).module;
  for (const std::string& problem : vulkan_environment_violations(module.words, model)) ADD_FAILURE() << problem;
  return {disassemble(module.words), serialize(module.reflection)};
}

bool contains(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

#define EXPECT_HAS(text, pattern) EXPECT_TRUE(contains(text, pattern)) << "expected /" << (pattern) << "/ in:\n" << (text)
#define EXPECT_HAS_NOT(text, pattern) \
  EXPECT_FALSE(contains(text, pattern)) << "did not expect /" << (pattern) << "/ in:\n" << (text)

TEST(StorageBufferArguments, AccessedPointersAreBoundInArgumentOrder) {
  const Compiled c = compile(R"(
    __kernel void k(__global const float* in, float scale, __global float* out) {
      size_t i = get_global_id(0);
      out[i] = in[i] * scale;
    })");
  EXPECT_HAS(c.reflection, "arg 0 in global_pointer storage_buffer 0\n");
  EXPECT_HAS(c.reflection, "arg 1 scale scalar 0 4\n");
  EXPECT_HAS(c.reflection, "arg 2 out global_pointer storage_buffer 1\n");
  EXPECT_HAS(c.reflection, "feature push_descriptor\n");
  EXPECT_HAS_NOT(c.reflection, "feature buffer_device_address");
  EXPECT_HAS(c.text, "OpDecorate %in DescriptorSet 0");
  EXPECT_HAS(c.text, "OpDecorate %in Binding 0");
  EXPECT_HAS(c.text, "OpDecorate %out Binding 1");
  EXPECT_HAS(c.text, "%in = OpVariable %_ptr_StorageBuffer_\\w+ StorageBuffer");
  EXPECT_HAS_NOT(c.text, "PhysicalStorageBuffer");
  // The element index is 32 bits: no 64-bit arithmetic is left for it.
  EXPECT_HAS(c.text, "OpAccessChain %_ptr_StorageBuffer_float %in %uint_0 %\\w+");
  EXPECT_HAS_NOT(c.text, "OpCapability Int64\n");
}

TEST(StorageBufferArguments, ReadOnlyIsNonWritableAndAliasingFollowsRestrict) {
  // Without restrict, a read-only input may alias the output it is written through.
  const Compiled plain = compile(R"(
    __kernel void k(__global const float* in, __global float* out) { out[get_global_id(0)] = in[get_global_id(0)]; })");
  EXPECT_HAS(plain.text, "OpMemberDecorate %\\w+ 0 NonWritable");
  EXPECT_HAS(plain.text, "OpDecorate %in Aliased");
  EXPECT_HAS(plain.text, "OpDecorate %out Aliased");
  const Compiled restricted = compile(R"(
    __kernel void k(__global const float* restrict in, __global float* restrict out) {
      out[get_global_id(0)] = in[get_global_id(0)];
    })");
  EXPECT_HAS(restricted.text, "OpMemberDecorate %\\w+ 0 NonWritable");
  EXPECT_HAS_NOT(restricted.text, "Aliased");
  // Two inputs that are only read need no Aliased: nothing writes either.
  const Compiled readers = compile(R"(
    __kernel void k(__global const int* a, __global const int* b, int n) { if (a[n] == b[n]) return; })");
  EXPECT_HAS_NOT(readers.text, "Aliased");
}

TEST(StorageBufferArguments, OneViewPerAccessedTypeSharingTheBinding) {
  // A struct copied whole is accessed leaf by leaf; the int member is
  // written, so the views of s (float, int, float4) alias each other.
  const Compiled c = compile(R"(
    typedef struct { float x; int k; float4 v; } S;
    __kernel void k(__global S* s, __global float* out, __global float4* out4) {
      int i = get_global_id(0);
      S t = s[i];
      out[i] = t.x + t.k;
      out4[i] = t.v;
      s[i].k = 7;
    })");
  EXPECT_HAS(c.reflection, "arg 0 s global_pointer storage_buffer 0\n");
  const std::regex binding0("OpDecorate %\\w+ Binding 0");
  const auto views = std::distance(std::sregex_iterator(c.text.begin(), c.text.end(), binding0), std::sregex_iterator());
  EXPECT_EQ(views, 3) << c.text;
  EXPECT_HAS(c.text, "OpDecorate %s Aliased");
  EXPECT_HAS(c.text, "OpTypeRuntimeArray %v4float");
}

TEST(StorageBufferArguments, CastsPhisAndSelectsOfOneArgumentAreOffsets) {
  const Compiled c = compile(R"(
    __kernel void bytes(__global uchar* b, __global int* o) {
      int i = get_global_id(0);
      __global int* w = (__global int*)(b + 4 * i);
      o[i] = w[0] + w[1];
    }
    __kernel void walk(__global const float* in, __global float* out, int n) {
      __global const float* p = in + get_global_id(0);
      float s = 0;
      for (int j = 0; j < n; ++j) { s += *p; p += 3; }
      __global float* q = (get_global_id(0) & 1) ? out : out + 1;
      q[get_global_id(0)] = s;
    })");
  EXPECT_HAS(c.reflection, "kernel bytes\n(.*\n)*arg 0 b global_pointer storage_buffer 0\n");
  EXPECT_HAS(c.reflection, "kernel walk\n(.*\n)*arg 0 in global_pointer storage_buffer 0\n");
  EXPECT_HAS(c.reflection, "arg 1 out global_pointer storage_buffer 1\n");
  EXPECT_HAS_NOT(c.text, "PhysicalStorageBuffer");
}

TEST(StorageBufferArguments, EscapingPointersKeepTheirAddresses) {
  const Compiled c = compile(R"(
    __kernel void stored(__global int* a, __global ulong* table) { table[0] = (ulong)a; }
    __attribute__((noinline)) void helper(__global int* p) { p[0] = 1; }
    __kernel void passed(__global int* a) { helper(a); }
    __kernel void compared(__global int* a, __global int* b, __global int* out) { out[0] = a == b; })");
  EXPECT_HAS(c.reflection, "kernel stored\n(.*\n)*arg 0 a global_pointer 0 8\narg 1 table global_pointer storage_buffer 0\n");
  EXPECT_HAS(c.reflection, "kernel passed\n(.*\n)*arg 0 a global_pointer 0 8\n");
  EXPECT_HAS(c.reflection, "kernel compared\n(.*\n)*arg 0 a global_pointer 0 8\narg 1 b global_pointer 8 8\n");
  EXPECT_HAS(c.reflection, "feature buffer_device_address\n");
}

// The SPIR-V optimizer removes a loop that polls a storage buffer through
// Volatile loads: a volatile int is read with relaxed atomic loads instead,
// and its loop stays; a volatile float keeps its address.
TEST(StorageBufferArguments, VolatileIntegersPollThroughAtomicsOthersKeepTheirAddresses) {
  const Compiled c = compile(R"(
    __kernel void polled(volatile __global int* flag, __global int* out) { while (*flag == 0) {} out[0] = 1; }
    __kernel void floats(volatile __global float* flag, __global int* out) { while (*flag == 0.0f) {} out[0] = 1; })");
  EXPECT_HAS(c.reflection, "kernel polled\n(.*\n)*arg 0 flag global_pointer storage_buffer 0\narg 1 out global_pointer storage_buffer 1\n");
  EXPECT_HAS(c.reflection, "kernel floats\n(.*\n)*arg 0 flag global_pointer 0 8\narg 1 out global_pointer storage_buffer 0\n");
  EXPECT_HAS(c.text, "OpAtomicLoad %uint %\\w+ %uint_1 %uint_0");
  const std::regex loop("OpLoopMerge");
  EXPECT_EQ(std::distance(std::sregex_iterator(c.text.begin(), c.text.end(), loop), std::sregex_iterator()), 2) << c.text;
}

TEST(StorageBufferArguments, TheLimitLeavesLaterArgumentsTheirAddresses) {
  const std::string source = R"(
    __kernel void k(__global int* a, __global int* b, __global int* c) { a[0] = b[0] + c[0]; })";
  const Compiled one = compile(source, 1);
  EXPECT_HAS(one.reflection, "arg 0 a global_pointer storage_buffer 0\narg 1 b global_pointer 0 8\narg 2 c global_pointer 8 8\n");
  const Compiled none = compile(source, 0);
  EXPECT_HAS_NOT(none.reflection, "storage_buffer");
  EXPECT_HAS_NOT(none.reflection, "push_descriptor");
}

TEST(StorageBufferArguments, SmallTypesAtomicsAndMemoryModels) {
  const std::string source = R"(
    __kernel void k(__global uchar* bytes, __global int* counter, __global short* halves) {
      size_t i = get_global_id(0);
      bytes[i] = (uchar)i;
      halves[i] = (short)atomic_inc(counter);
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    })";
  const Compiled vulkan = compile(source);
  EXPECT_HAS(vulkan.text, "OpCapability StorageBuffer8BitAccess");
  EXPECT_HAS(vulkan.text, "OpCapability StorageBuffer16BitAccess");
  EXPECT_HAS(vulkan.text, "OpAtomicIIncrement %uint %\\w+ %uint_1 %uint_0");
  EXPECT_HAS(vulkan.text, "OpStore %\\w+ %\\w+ NonPrivatePointer");
  // GLSL450: the fence orders the buffers' accesses only when they are Coherent.
  const Compiled glsl = compile(source, 32, MemoryModel::GLSL450);
  EXPECT_HAS(glsl.text, "OpDecorate %bytes Coherent");
  EXPECT_HAS(glsl.text, "OpDecorate %halves Coherent");
}

TEST(StorageBufferArguments, UnoptimizedModulesAreValidToo) {
  const Compiled c = compile(R"(
    __kernel void k(__global const float4* in, __global float* out) {
      size_t i = get_global_id(0);
      out[i] = in[i].y + vload4(0, (__global const float*)in).w;
    })", 32, MemoryModel::Vulkan, false);
  EXPECT_HAS(c.reflection, "arg 1 out global_pointer storage_buffer 1\n");
}

}  // namespace
}  // namespace vkcl::testing
