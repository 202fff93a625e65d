// Calls of OpenCL C builtins that SPIRV-LLVM-Translator turns into OpenCL.std
// extended instructions, judged before translation: check_calls (in
// prepare_for_translation.cpp) reports one that spirv/lower_opencl_std cannot lower at
// the call's file:line:col, while the module still has debug locations. The
// pass itself would see only an instruction with no location.
//
// The instruction is found as the translator's OCLToSPIRV finds it: the
// vector load and store families by their "n" and "_r" forms (vstore_half4_rtz
// is vstore_halfn_r), a name OpenCL.std has itself (exp, half_sin, clz), else
// the name with the prefix its last parameter's type gives (u_ or s_ for an
// integer, f for floating point: max(float) is fmax, abs(int) is s_abs). A
// call this does not map reaches the lowering, which still rejects what it
// cannot lower, without a location.
#pragma once

#include <string>

namespace llvm {
class CallBase;
}

namespace vkcl {

// Empty when the call (to a function without a body) is no OpenCL.std
// instruction or one lower_opencl_std lowers; else the error, without
// location: "the OpenCL C builtin 'exp' on half is not supported: ...".
std::string opencl_std_call_problem(const llvm::CallBase& call);

}  // namespace vkcl
