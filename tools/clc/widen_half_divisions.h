// widen_half_divisions: x / y on half (cl_khr_fp16) within OpenCL's 1 ulp.
//
// OpenCL wants half division within 1 ulp (the CTS's math_brute_force
// `divide` half_ulps); Vulkan promises 16-bit OpFDiv only 2.5 ulp, and only
// for divisors in [2^-14, 2^14]. So, on the optimized module before the
// translator, every half `fdiv` (scalar or vector) becomes
//   fptrunc(fpext(x) / fpext(y))
// Every half is a float, the float quotient is within 2.5 float ulp (2^-12
// of a half ulp) and its divisor at most 65504, far from where
// scale_huge_divisors acts, so one rounding to half leaves it within
// 0.5 + 2^-12 half ulp; infinities, NaNs, zeros and their signs are the
// float division's, which are IEEE's. An fdiv that may use a reciprocal (the
// `arcp` flag, -cl-fast-relaxed-math) is left alone. Runs after
// legalize_vectors (vectors of at most 4 halves); nothing after it may fold
// the conversions back into a half division (no LLVM optimization follows).
#pragma once

namespace llvm {
class Module;
}

namespace vkcl {

void widen_half_divisions(llvm::Module& module);

}  // namespace vkcl
