// A device that flushes float subnormals to zero, emulated on one that does
// not (lavapipe), for tests of code that must stay right on such devices.
//
// Why: NVIDIA's Vulkan driver (the H100's, 580) flushes fp32 subnormals in
// every float instruction, operands and results, and reports
// shaderDenormPreserveFloat32 = false, so vkcl cannot turn it off. OpenCL
// allows that for float (no CL_FP_DENORM; OpenCL C 3.0 §7.5.3 says what the
// functions may then return), but builtins written for preserved subnormals
// can then give neither the right result nor the flushed input's (logb of a
// subnormal scaled up by a float multiplication, `x == 0` true for a
// subnormal x, ...). Here, where subnormals are preserved, such bugs would
// never show.
//
// What: every 32-bit floating-point arithmetic instruction, comparison and
// conversion of a Vulkan module (OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem,
// OpFMod, OpFNegate, OpVectorTimesScalar, OpDot, OpFOrd* and OpFUnord*,
// OpFConvert, OpConvertFToS/U and every GLSL.std.450 instruction) gets each
// float operand and its float result replaced by the value with a subnormal
// flushed to a zero of the same sign, computed in integers on the bits
// (bitcast, and, compare, select), so the module computes what a flushing
// device computes, and OpFDiv becomes a multiplication by the flushed
// reciprocal, as NVIDIA divides (Vulkan specifies OpFDiv only for divisors
// in [2^-126, 2^126]: x / 2^127 may be 0). More than NVIDIA flushes,
// perhaps (its Floor keeps a subnormal operand, for one): code that is right
// here is right there.
// Loads, stores, selects, phis, bitcasts and composite instructions move
// bits and are left alone, as are integer-to-float conversions (their
// results are never subnormal).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vkcl::test {

// `words` (a valid Vulkan SPIR-V module) as a flushing device runs it.
std::vector<uint32_t> emulate_float_flush_to_zero(std::span<const uint32_t> words);

}  // namespace vkcl::test
