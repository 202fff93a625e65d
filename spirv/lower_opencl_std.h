// What lower_opencl_std lowers, asked before translation: clc reports a call
// of a builtin that would become an OpenCL.std instruction without a Vulkan
// lowering at the call's file:line:col while the LLVM module still has debug
// locations, instead of the pass's error, which can name only the file.
// The pass decides with these same functions, so the two never disagree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vkcl::spirv {

// The element type of an OpenCL.std instruction's result, or, for the
// stores, which have none, of the value stored.
struct OpenCLStdElement {
  enum class Kind { kNone, kFloat, kInteger } kind = Kind::kNone;
  uint32_t width = 0;       // bits of one component
  uint32_t components = 1;  // 1 for a scalar
};

// The OpenCL.std instruction `name` as the SPIR-V grammar spells it
// ("s_abs", "fmax_common", "vload_halfn"), if there is one.
std::optional<uint32_t> opencl_std_opcode(std::string_view name);

// Empty when lower_opencl_std lowers OpenCL.std instruction `opcode` on
// `element`; else the error (without location), naming the OpenCL C
// builtin: "the OpenCL C builtin 'exp' on half is not supported: ...".
std::string opencl_std_lowering_problem(uint32_t opcode, const OpenCLStdElement& element);

}  // namespace vkcl::spirv
