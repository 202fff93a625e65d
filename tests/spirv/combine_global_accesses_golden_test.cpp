// Combined global accesses (spirv/combine_global_accesses.cpp): neighbouring
// loads and stores of global memory in one block become one access of 4, 8
// or 16 bytes, and never across what could observe the difference. Each case
// shows the source and what the module must (or must not) hold; every module
// is checked against the Vulkan environment. The differential test runs the
// corpus kernels these patterns come from (type_vec16_char, type_vec8_float,
// addr_pointer_cast_bytes, type_struct_nested, ...) and compares their outputs.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "barrier_inspection.h"
#include "compiler.h"
#include "vulkan_environment.h"

namespace vkcl::testing {
namespace {

std::string compile(const std::string& source, MemoryModel model = MemoryModel::Vulkan, bool optimize = true) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL1_2;
  options.memory_model = model;
  options.optimize = optimize;
  VulkanModule module = compile_opencl(source, "accesses.cl", options).module;
  for (const std::string& problem : vulkan_environment_violations(module.words, model)) ADD_FAILURE() << problem;
  return disassemble(module.words);
}

size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return size_t(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

// Global loads and stores (not of pointers or of the push constants).
constexpr const char* kGlobalLoad = R"(OpLoad %(\w+) %\w+ Aligned)";
constexpr const char* kGlobalStore = R"(OpStore %\w+ %\w+ Aligned)";

// Bitcasts of a value to its own type: spirv-val accepts them, NVIDIA's
// compiler (580.159.04) crashes on one between pointers.
std::vector<std::string> identity_bitcasts(const std::string& text) {
  std::map<std::string, std::string> type_of;
  const std::regex definition(R"((%\w+) = Op\w+ (%\w+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), definition); it != std::sregex_iterator(); ++it)
    type_of[(*it)[1]] = (*it)[2];
  std::vector<std::string> found;
  const std::regex bitcast(R"((%\w+) = OpBitcast (%\w+) (%\w+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), bitcast); it != std::sregex_iterator(); ++it)
    if (type_of[(*it)[3]] == (*it)[2].str()) found.push_back((*it)[0]);
  return found;
}

#define EXPECT_COUNT(text, pattern, n) EXPECT_EQ(count(text, pattern), size_t(n)) << "/" << (pattern) << "/ in:\n" << (text)

TEST(CombineGlobalAccesses, Char16IsOneLoadAndOneStoreOf16Bytes) {
  for (bool optimize : {true, false}) {
    const std::string text = compile(R"(
      __kernel void k(__global const char16* in, __global char16* out) {
        size_t i = get_global_id(0);
        out[i] = in[i] + (char16)(1);
      })", MemoryModel::Vulkan, optimize);
    EXPECT_COUNT(text, kGlobalLoad, 1);
    EXPECT_COUNT(text, R"(OpLoad %v4uint %\w+ Aligned\|NonPrivatePointer 16)", 1);
    EXPECT_COUNT(text, kGlobalStore, 1);
    EXPECT_COUNT(text, R"(OpStore %\w+ %\w+ Aligned\|NonPrivatePointer 16)", 1);
  }
}

TEST(CombineGlobalAccesses, Float8IsTwo16ByteHalves) {
  const std::string text = compile(R"(
    __kernel void k(__global const float8* in, __global float8* out) {
      size_t i = get_global_id(0);
      out[i] = in[i] * 2.0f;
    })");
  EXPECT_COUNT(text, R"(OpLoad %v4uint %\w+ Aligned\|NonPrivatePointer 16)", 2);
  EXPECT_COUNT(text, kGlobalLoad, 2);
  EXPECT_COUNT(text, kGlobalStore, 2);
}

TEST(CombineGlobalAccesses, BytesOfAWordAreOneWordLoad) {
  const std::string text = compile(R"(
    __kernel void k(__global uint* words, __global uint* out) {
      size_t i = get_global_id(0);
      __global uchar* b = (__global uchar*)(words + i);
      out[i] = (uint)b[0] << 24 | (uint)b[1] << 16 | (uint)b[2] << 8 | b[3];
    })");
  EXPECT_COUNT(text, R"(OpLoad %uint %\w+ Aligned\|NonPrivatePointer 4)", 1);
  EXPECT_COUNT(text, R"(OpLoad %uchar)", 0);
  // The word's pointer is the argument's own element: no cast to its own type.
  EXPECT_TRUE(identity_bitcasts(text).empty()) << identity_bitcasts(text).front() << " in:\n" << text;
}

TEST(CombineGlobalAccesses, StructCopyThroughARunTimeIndexIsOneAccess) {
  const std::string text = compile(R"(
    typedef struct { int a, b, c, d; } __attribute__((aligned(16))) Quad;
    __kernel void k(__global const Quad* in, __global Quad* out) {
      int i = get_global_id(0);
      Quad q = in[i];
      q.b += q.a;
      out[i] = q;
    })");
  EXPECT_COUNT(text, kGlobalLoad, 1);
  EXPECT_COUNT(text, kGlobalStore, 1);
}

TEST(CombineGlobalAccesses, StoresPutTogetherFromBytes) {
  const std::string text = compile(R"(
    __kernel void k(__global const float4* in, __global uchar* out) {
      size_t i = get_global_id(0);
      float4 p = in[i];
      out[4 * i] = convert_uchar_sat(p.x);
      out[4 * i + 1] = convert_uchar_sat(p.y);
      out[4 * i + 2] = convert_uchar_sat(p.z);
      out[4 * i + 3] = convert_uchar_sat(p.w);
    })");
  // Nothing says 4 * i bytes from `out` is word-aligned: the bytes stay bytes.
  EXPECT_COUNT(text, R"(OpStore %\w+ %\w+ Aligned\|NonPrivatePointer 1)", 4);
  const std::string aligned = compile(R"(
    typedef struct { uchar r, g, b, a; } __attribute__((aligned(4))) Rgba;
    __kernel void k(__global const float4* in, __global Rgba* out) {
      size_t i = get_global_id(0);
      float4 p = in[i];
      out[i].r = convert_uchar_sat(p.x);
      out[i].g = convert_uchar_sat(p.y);
      out[i].b = convert_uchar_sat(p.z);
      out[i].a = convert_uchar_sat(p.w);
    })");
  EXPECT_COUNT(aligned, kGlobalStore, 1);
  EXPECT_COUNT(aligned, R"(OpStore %\w+ %\w+ Aligned\|NonPrivatePointer 4)", 1);
}

// Constant bytes make constant words (the CTS's buffer_read_char: a char8
// filled with one value). Built from a bitcast of a constant uchar4, the
// word was folded by SPIRV-Tools 2023.1 into an invalid OpConstant.
TEST(CombineGlobalAccesses, ConstantBytesAreOneConstantWord) {
  const std::string text = compile(R"(
    __kernel void k(__global char8* dst) {
      dst[get_global_id(0)] = (char)'w';
    })");
  EXPECT_COUNT(text, kGlobalStore, 1);
  EXPECT_COUNT(text, R"(OpConstant %uint 2004318071)", 1);  // 0x77777777
}

TEST(CombineGlobalAccesses, LoadsDoNotMoveAboveAStoreThatMayAlias) {
  const std::string text = compile(R"(
    __kernel void k(__global const int2* in, __global int* out) {
      size_t i = get_global_id(0);
      __global const int* p = (__global const int*)(in + i);
      int a = p[0];
      out[i] = a;       // out may be in: p[1] must be read after this store
      out[i + 1] = p[1];
    })");
  EXPECT_COUNT(text, R"(OpLoad %v2uint)", 0);
  EXPECT_COUNT(text, kGlobalLoad, 2);
}

TEST(CombineGlobalAccesses, StoresDoNotMoveBelowALoadThatMayAlias) {
  const std::string text = compile(R"(
    __kernel void k(__global int2* out, __global const int* in) {
      size_t i = get_global_id(0);
      __global int* p = (__global int*)(out + i);
      p[0] = 1;
      p[1] = in[i];  // in may be out: the load must see p[0] = 1
    })");
  EXPECT_COUNT(text, kGlobalStore, 2);
}

TEST(CombineGlobalAccesses, VolatileAccessesAndBarriersSeparate) {
  const std::string text = compile(R"(
    __kernel void k(volatile __global int4* in, __global int4* out) {
      size_t i = get_global_id(0);
      volatile __global int* p = (volatile __global int*)(in + i);
      out[i] = (int4)(p[0], p[1], p[2], p[3]);
    })");
  EXPECT_COUNT(text, R"(OpLoad %uint %\w+ Volatile)", 4);
  const std::string fenced = compile(R"(
    __kernel void k(__global const int2* in, __global int* out) {
      size_t i = get_global_id(0);
      __global const int* p = (__global const int*)(in + i);
      int a = p[0];
      barrier(CLK_GLOBAL_MEM_FENCE);
      out[i] = a + p[1];
    })");
  EXPECT_COUNT(fenced, R"(OpLoad %v2uint)", 0);
}

TEST(CombineGlobalAccesses, Glsl450ModulesGetNoNonPrivatePointer) {
  const std::string text = compile(R"(
    __kernel void k(__global const char16* in, __global char16* out) {
      size_t i = get_global_id(0);
      out[i] = in[i] ^ (char16)(5);
    })", MemoryModel::GLSL450);
  EXPECT_COUNT(text, R"(OpLoad %v4uint %\w+ Aligned 16)", 1);
  EXPECT_COUNT(text, R"(OpStore %\w+ %\w+ Aligned 16)", 1);
}

}  // namespace
}  // namespace vkcl::testing
