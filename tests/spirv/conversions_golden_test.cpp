// Golden tests for the explicit conversions (OpenCL C 3.0 §6.4.3): what
// lower_saturating_conversions and lower_rounding_modes emit for each kind
// of convert_<type>[_sat][_rte|_rtz|_rtp|_rtn], and the kernels whose
// optimized IR had integers of widths SPIR-V has no type for
// (legalize_integer_widths in clc). Each input kernel stands beside the
// instructions (regular expressions over the friendly-name disassembly at
// -O0, where the lowering's code is as it emitted it) its module must
// contain, and what no module may contain at -O0 or -O2: the Kernel-only
// OpSatConvertSToU/UToS, and the SaturatedConversion and FPRoundingMode
// decorations that Vulkan drivers ignore. Every module is validated for
// Vulkan 1.1, 1.2 and 1.3. Results on a device: tests/host/conversions_test.cpp.
#include <gtest/gtest.h>

#include <regex>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "barrier_inspection.h"
#include "compiler.h"
#include "module.h"

namespace vkcl::testing {
namespace {

std::string compile(const std::string& source, bool optimize) {
  CompileOptions options;
  options.max_storage_buffers = 0;  // these expectations follow addresses (storage buffers: storage_buffer_golden_test)
  options.cl_std = OpenCLStd::CL1_2;
  options.optimize = optimize;
  VulkanModule module = compile_opencl(source, "conversions.cl", options).module;
  for (spv_target_env env : {SPV_ENV_VULKAN_1_1, SPV_ENV_VULKAN_1_2, SPV_ENV_VULKAN_1_3}) {
    spvtools::SpirvTools tools(env);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
      messages += std::string(m) + "\n";
    });
    EXPECT_TRUE(tools.Validate(module.words)) << spvTargetEnvDescription(env) << ":\n" << messages;
  }
  return disassemble(module.words);
}

bool contains(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

struct Golden {
  const char* name;
  std::string source;
  std::vector<std::string> expected;   // at -O0
  std::vector<std::string> forbidden;  // at -O0 and -O2, besides kNeverInVulkan
};

void PrintTo(const Golden& g, std::ostream* os) { *os << g.name; }

const std::vector<std::string> kNeverInVulkan = {"OpSatConvert", "SaturatedConversion", "FPRoundingMode"};

class ConversionsGolden : public ::testing::TestWithParam<Golden> {};

TEST_P(ConversionsGolden, EmitsTheExpectedInstructions) {
  const Golden& g = GetParam();
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "-O2" : "-O0");
    const std::string text = compile(g.source, optimize);
    if (!optimize) {
      for (const std::string& e : g.expected) EXPECT_TRUE(contains(text, e)) << "expected /" << e << "/ in:\n" << text;
    }
    for (const std::vector<std::string>* list : {&g.forbidden, &kNeverInVulkan})
      for (const std::string& f : *list) EXPECT_FALSE(contains(text, f)) << "unexpected /" << f << "/ in:\n" << text;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Conversions, ConversionsGolden,
    ::testing::Values(
        // Signed to unsigned, narrower (OpSatConvertSToU from the translator):
        // both bounds compared in the source type, then truncated.
        Golden{"SatSignedToNarrowerUnsigned",
               R"(__kernel void k(__global const int4* in, __global uchar4* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_uchar4_sat(in[i]);
                  })",
               {"OpSLessThan %v4bool %\\w+ %\\w+", "OpSGreaterThan %v4bool %\\w+ %\\w+", "OpUConvert %v4uchar"},
               {}},
        // Unsigned to signed of the same width (OpSatConvertUToS): only the maximum.
        Golden{"SatUnsignedToSigned",
               R"(__kernel void k(__global const uint* in, __global int* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_int_sat(in[i]);
                  })",
               {"OpUGreaterThan %bool %\\w+ %uint_2147483647", "OpSelect %uint %\\w+ %uint_2147483647"},
               {"OpSLessThan", "OpUConvert %uint"}},
        // Signed to signed, narrower (OpSConvert + SaturatedConversion); wider is only extended.
        Golden{"SatSignedNarrowingAndWidening",
               R"(__kernel void k(__global const long* in, __global int* out, __global const char* c, __global long* wide) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_int_sat(in[i]);
                    wide[i] = convert_long_sat(c[i]);
                  })",
               {"OpSLessThan %bool %\\w+ %ulong_18446744071562067968", "OpSGreaterThan %bool %\\w+ %ulong_2147483647",
                "OpUConvert %uint", "OpSConvert %ulong"},
               {}},
        // Float to int with _sat: NaN on the bits, clamped to the floats
        // inside the range, and above 2^31 - 128 (the last float below 2^31) INT_MAX.
        Golden{"SatFloatToInt",
               R"(__kernel void k(__global const float* in, __global int* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_int_sat(in[i]);
                  })",
               {"OpBitwiseAnd %uint %\\w+ %uint_2147483647", "OpUGreaterThan %bool %\\w+ %uint_2139095040",
                "OpSelect %float %\\w+ %float_0 %\\w+", "OpFOrdLessThan %bool %\\w+ %float_n2_14748365e_09",
                "OpFOrdGreaterThan %bool %\\w+ %float_2_14748352e_09", "OpConvertFToS %uint",
                "OpSelect %uint %\\w+ %uint_2147483647 %\\w+"},
               {}},
        // Float to uchar with _sat: every bound exact in float, no selects after the conversion.
        Golden{"SatFloatToUchar",
               R"(__kernel void k(__global const float* in, __global uchar* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_uchar_sat(in[i]);
                  })",
               {"OpFOrdLessThan %bool %\\w+ %float_0", "OpFOrdGreaterThan %bool %\\w+ %float_255",
                "OpConvertFToU %uchar"},
               {"OpSelect %uchar"}},
        // Float to integer with a rounding mode: rounded first, exactly; _rtz is the conversion's own.
        Golden{"RoundingFloatToInt",
               R"(__kernel void k(__global const float* in, __global int* out) {
                    const size_t i = get_global_id(0);
                    out[4 * i] = convert_int_rte(in[i]);
                    out[4 * i + 1] = convert_int_rtp(in[i]);
                    out[4 * i + 2] = convert_int_sat_rtn(in[i]);
                    out[4 * i + 3] = convert_int_rtz(in[i]);
                  })",
               {"OpExtInst %float %\\w+ RoundEven", "OpExtInst %float %\\w+ Ceil", "OpExtInst %float %\\w+ Floor"},
               {"Trunc"}},
        // Integer to float with a directed mode: converted, converted back,
        // compared, and moved one ulp on the bits.
        Golden{"RoundingIntToFloat",
               R"(__kernel void k(__global const int* in, __global float* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_float_rtz(in[i]);
                  })",
               {"OpConvertSToF %float", "OpFOrdGreaterThanEqual %bool %\\w+ %float_2_14748365e_09",
                "OpConvertFToS %uint", "OpSGreaterThan %bool", "OpSLessThan %bool", "OpBitcast %uint",
                "OpIAdd %uint %\\w+ %uint_4294967295", "OpBitcast %float"},
               {}},
        // Unsigned long to float, up: the step is always +1.
        Golden{"RoundingUlongToFloatUp",
               R"(__kernel void k(__global const ulong* in, __global float* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_float_rtp(in[i]);
                  })",
               {"OpConvertUToF %float", "OpConvertFToU %ulong", "OpULessThan %bool", "OpIAdd %uint %\\w+ %uint_1"},
               {"OpSLessThan"}},
        // Double to float with a directed mode: compared back in double, the
        // float widened by integer instructions on its bits (two words
        // bitcast to a double), never by OpFConvert, which NVIDIA's driver
        // flushed for a subnormal float (the CTS's conversions on the H100).
        Golden{"RoundingDoubleToFloat",
               R"(#pragma OPENCL EXTENSION cl_khr_fp64 : enable
                  __kernel void k(__global const double* in, __global float* out) {
                    const size_t i = get_global_id(0);
                    out[i] = convert_float_rtn(in[i]);
                  })",
               {"OpFConvert %float", "FindUMsb", "OpCompositeConstruct %v2uint", "OpBitcast %double",
                "OpFOrdGreaterThan %bool", "OpIAdd %uint"},
               {"OpFConvert %double"}},
        // Exact conversions and _rte: the decoration only goes.
        Golden{"ExactConversionsKeepTheirInstruction",
               R"(#pragma OPENCL EXTENSION cl_khr_fp64 : enable
                  __kernel void k(__global const short* s, __global const int* in, __global const float* f,
                                  __global float* out, __global double* d, __global long* l) {
                    const size_t i = get_global_id(0);
                    out[2 * i] = convert_float_rtz(s[i]);
                    out[2 * i + 1] = convert_float_rte(in[i]);
                    d[2 * i] = convert_double_rtp(in[i]);
                    d[2 * i + 1] = convert_double_rtn(f[i]);
                    l[i] = convert_long_rtp(in[i]);
                  })",
               {"OpConvertSToF %float", "OpConvertSToF %double", "OpFConvert %double", "OpSConvert %ulong"},
               {"OpIAdd %uint %\\w+ %uint_(1|4294967295)\\b", "OpBitcast %float"}},
        // switch on v & 7, on v >> 27, on v & 0x1fffff and on (long)v &
        // 0x1ffffffff: clang -O2 makes them switches on i3, i5, i21 and i33.
        Golden{"SwitchesOnNarrowedIntegers",
               R"(__kernel void k(__global const int* in, __global int* out) {
                    const int i = get_global_id(0);
                    const int v = in[i];
                    int acc = 0;
                    switch (v & 7) { case 0: acc = 11; break; case 3: acc = 7; break; case 5: acc = -2;
                                     case 6: acc += 9; break; default: acc = v; }
                    switch ((uint)v >> 27) { case 0: acc ^= 1; break; case 17: acc ^= 2; break; case 31: acc ^= 4; break; }
                    switch (v & 0x1fffff) { case 0: acc += 5; break; case 0x1fffff: acc += 6; break; case 12345: acc += 8; break; }
                    switch ((long)v & 0x1ffffffffl) { case 0: acc += 50; break; case 0x1ffffffffl: acc += 60; break;
                                                      case 0x100000000l: acc += 70; break; }
                    out[i] = acc;
                  })",
               {"OpBranchConditional"},
               {"OpTypeInt (3|5|21|33) "}}));

// A narrowing to half with a directed mode is corrected by comparing the
// rounded half, back in the wide type, with the operand. That back-conversion
// must not be an OpFConvert of the half: a driver may fold
// OpFConvert(OpFConvert(x)) to x (NVIDIA's behaved so), and then nothing is
// ever corrected, which a device that keeps the round trip (lavapipe) cannot
// show. So no module may convert a half to a wider float at all, and the
// rounded half must reach the comparison through its bits (OpBitcast).
TEST(ConversionsGolden, NarrowingToHalfIsNotComparedThroughAFloatConversionOfTheHalf) {
  const std::string source = R"(#pragma OPENCL EXTENSION cl_khr_fp16 : enable
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    __kernel void k(__global const float* f, __global const float4* f4, __global const double* d,
                    __global half* out, __global half4* out4) {
      const size_t i = get_global_id(0);
      out[3 * i] = convert_half_rtz(f[i]);
      out[3 * i + 1] = convert_half_rtp(f[i]);
      out[3 * i + 2] = convert_half_rtn(d[i]);
      out4[i] = convert_half4_rtz(f4[i]);
    })";
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "-O2" : "-O0");
    CompileOptions options;
    options.max_storage_buffers = 0;  // these expectations follow addresses (storage buffers: storage_buffer_golden_test)
    options.cl_std = OpenCLStd::CL1_2;
    options.optimize = optimize;
    const std::vector<uint32_t> words = compile_opencl(source, "conversions.cl", options).module.words;
    spirv::Module m = spirv::Module::parse(words);
    std::unordered_set<uint32_t> half_types;
    for (const spirv::Instruction& g : m.globals) {
      if (g.opcode == spv::Op::OpTypeFloat && g.word(0) == 16) half_types.insert(g.result_id);
      if (g.opcode == spv::Op::OpTypeVector && half_types.count(g.word(0))) half_types.insert(g.result_id);
    }
    std::unordered_map<uint32_t, uint32_t> type_of;
    std::unordered_set<uint32_t> narrowed;  // results of OpFConvert to half
    int bitcasts_of_narrowed = 0;
    for (const spirv::Function& f : m.functions)
      for (const spirv::Instruction& i : f.code)
        if (i.result_id && i.type_id) type_of[i.result_id] = i.type_id;
    for (const spirv::Function& f : m.functions) {
      for (const spirv::Instruction& i : f.code) {
        if (i.opcode == spv::Op::OpFConvert && half_types.count(i.type_id)) narrowed.insert(i.result_id);
        if (i.opcode == spv::Op::OpBitcast && narrowed.count(i.word(0))) ++bitcasts_of_narrowed;
        if (i.opcode == spv::Op::OpFConvert && !half_types.count(i.type_id)) {
          const auto operand_type = type_of.find(i.word(0));
          EXPECT_FALSE(narrowed.count(i.word(0)) ||
                       (operand_type != type_of.end() && half_types.count(operand_type->second)))
              << "an OpFConvert of a half (%" << i.word(0) << ") to %" << i.type_id
              << ", which a driver may fold with the narrowing, in:\n" << disassemble(words);
        }
      }
    }
    if (!optimize) {  // at -O2 the optimizer may merge the two narrowings of f[i]
      EXPECT_EQ(narrowed.size(), 4u) << disassemble(words);
      // Each narrowing's result is read as bits: for the comparison and for the one-ulp step.
      EXPECT_EQ(bitcasts_of_narrowed, 8) << disassemble(words);
    } else {
      EXPECT_GE(narrowed.size(), 1u) << disassemble(words);
    }
  }
}

}  // namespace
}  // namespace vkcl::testing
