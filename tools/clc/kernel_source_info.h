// What the source says of each kernel that the reflection reports and the
// SPIR-V does not carry: argument type names, type and access qualifiers
// (clGetKernelArgInfo's CL_KERNEL_ARG_TYPE_NAME, _TYPE_QUALIFIER,
// _ACCESS_QUALIFIER) and the attribute string (CL_KERNEL_ATTRIBUTES).
//
// Read from the kernel_arg_type, kernel_arg_type_qual and
// kernel_arg_access_qual metadata clang attaches to every kernel (and
// SPIRV-LLVM-Translator's reader makes up from a SPIR-V module's types), and
// the reqd_work_group_size, work_group_size_hint, vec_type_hint and
// intel_reqd_sub_group_size metadata of its attributes. Read before
// prepare_for_translation, whose cloning and inlining may drop metadata, and
// added to the reflection after the lowering, by kernel name and argument
// index. A kernel without the metadata keeps empty type names.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "reflection.h"

namespace llvm {
class Module;
}

namespace vkcl {

struct KernelSourceInfo {
  // Only type_name, type_qualifiers and access are set; one per argument.
  std::vector<KernelArg> args;
  std::string attributes;
};

// By kernel name: every kernel the module defines.
std::map<std::string, KernelSourceInfo> read_kernel_source_info(const llvm::Module& module);

// Sets each reflected kernel's argument types and attributes from `info`.
void add_kernel_source_info(const std::map<std::string, KernelSourceInfo>& info, ModuleReflection& reflection);

}  // namespace vkcl
