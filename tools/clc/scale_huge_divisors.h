// scale_huge_divisors: x / y in single precision keeps its OpenCL accuracy
// (2.5 ulp) when |y| > 2^126.
//
// Drivers divide as x * (1 / y); where 1 / y is a subnormal (|y| > 2^126)
// and the device flushes single-precision subnormals (NVIDIA's Vulkan
// driver does), the quotient comes out 0: the CTS's math_brute_force
// `divide` and `half_divide` failed on the H100 with 0 for 2^114 / 2^127.
// So, on the optimized module before the translator, every float `fdiv`
// (scalar or vector) becomes
//   huge = |y| > 2^126;  x / y  with x and y each times 0.25 where huge
// Scaling y by 1/4 is exact there, and x * 1/4 loses bits only below 2^-124,
// where the true quotient (below 2^-250) rounds to 0 anyway. An fdiv that
// may use a reciprocal (the `arcp` flag: -cl-fast-relaxed-math,
// native_divide's own lowering) is left alone, as is one whose divisor is a
// constant no larger than 2^126 in magnitude. half_divide is x / y
// (builtins/math/special.cl), so it goes through here too.
#pragma once

namespace llvm {
class Module;
}

namespace vkcl {

void scale_huge_divisors(llvm::Module& module);

}  // namespace vkcl
