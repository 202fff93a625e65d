// SPIR-V programs' header and specialization constants, as far as the ICD
// reads them (program_il.cpp): everything else about the module is the
// compiler's, which reads it with SPIRV-LLVM-Translator in a compile worker.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace vkcl::opencl {

// SPIR-V 1.0 to 1.3, and so CL_DEVICE_IL_VERSION. SPIRV-LLVM-Translator
// 15's reader takes modules of version 1.4 (its MaximumVersion) but not all
// of 1.4's instructions: OpCopyLogical, OpPtrDiff, OpDecorateString and
// others stop it ("Not implemented"; the CTS's spirv_new spirv14_* tests),
// so 1.4 is not claimed.
inline constexpr uint32_t kMaxILMinorVersion = 3;

// "SPIR-V_1.0 SPIR-V_1.1 ...": CL_DEVICE_IL_VERSION.
std::string il_version_names();

// clCreateProgramWithIL's `il` as words: throws ClError{CL_INVALID_VALUE}
// when it is NULL, empty, not a whole number of words, not a SPIR-V header
// in this machine's byte order, or of a version the compiler does not take.
std::vector<uint32_t> checked_il(const void* il, size_t length);

struct SpecConstantType {
  uint32_t size = 0;  // bytes clSetProgramSpecializationConstant takes (a bool: 1, a cl_uchar)
  bool is_bool = false;
};

// The scalar specialization constants (OpSpecConstant, OpSpecConstantTrue,
// OpSpecConstantFalse decorated SpecId) by SpecId.
std::map<uint32_t, SpecConstantType> spec_constant_types(std::span<const uint32_t> words);

}  // namespace vkcl::opencl
