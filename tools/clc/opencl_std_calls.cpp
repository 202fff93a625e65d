#include "opencl_std_calls.h"

#include <cctype>
#include <optional>
#include <string_view>

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>

#include "lower_opencl_std.h"
#include "source_locations.h"

namespace vkcl {
namespace {

// vload2, vload_half4, vloada_half3, vstore_half_rtz, vstorea_half8_rtp ...
// as OpenCL.std spells them: vloadn, vload_halfn, vloada_halfn,
// vstore_half_r, vstorea_halfn_r. Empty for other names.
std::string vector_load_store_name(std::string_view name) {
  for (std::string_view stem : {"vloada", "vstorea", "vload", "vstore"}) {
    if (!name.starts_with(stem)) continue;
    std::string_view rest = name.substr(stem.size());
    const bool aligned = stem.ends_with('a');
    const bool half = rest.starts_with("_half");
    if (half) rest.remove_prefix(5);
    size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    const bool rounding = rest.substr(digits).starts_with("_r");
    if (!half) return digits > 0 && !aligned ? std::string(stem) + "n" : std::string();
    return std::string(stem) + "_half" + (aligned || digits > 0 ? "n" : "") + (rounding ? "_r" : "");
  }
  return {};
}

// The prefix the translator gives a name OpenCL.std lacks, from the type of
// the last parameter in the mangled name (after trailing "S_" substitutions,
// which repeat an earlier type): "u_", "s_", "f", or none.
std::string_view last_parameter_prefix(std::string_view mangled) {
  while (mangled.ends_with("S_")) mangled.remove_suffix(2);
  if (mangled.ends_with("Dh")) return "f";
  if (mangled.empty()) return {};
  switch (mangled.back()) {
    case 'f': case 'd': return "f";
    case 'h': case 't': case 'j': case 'm': return "u_";
    case 'c': case 'a': case 's': case 'i': case 'l': return "s_";
    default: return {};
  }
}

std::optional<uint32_t> opencl_std_instruction(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return std::nullopt;  // OpenCL C builtins are overloaded, hence mangled
  std::string_view name = base_name(mangled);
  // What builtins/ calls by the translator's own names (__spirv_ocl_native_sqrt).
  if (name.starts_with("__spirv_ocl_")) return spirv::opencl_std_opcode(name.substr(12));
  if (std::string vector_name = vector_load_store_name(name); !vector_name.empty())
    return spirv::opencl_std_opcode(vector_name);
  if (std::optional<uint32_t> opcode = spirv::opencl_std_opcode(name)) return opcode;
  const std::string_view prefix = last_parameter_prefix(mangled);
  if (prefix.empty()) return std::nullopt;
  return spirv::opencl_std_opcode(std::string(prefix) + std::string(name));
}

spirv::OpenCLStdElement element_of(llvm::Type* type) {
  spirv::OpenCLStdElement element;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    element.components = vector->getNumElements();
    type = vector->getElementType();
  }
  if (type->isFloatingPointTy()) {
    element.kind = spirv::OpenCLStdElement::Kind::kFloat;
    element.width = type->getPrimitiveSizeInBits();
  } else if (type->isIntegerTy()) {
    element.kind = spirv::OpenCLStdElement::Kind::kInteger;
    element.width = type->getIntegerBitWidth();
  }
  return element;
}

}  // namespace

std::string opencl_std_call_problem(const llvm::CallBase& call) {
  const llvm::Function* callee = call.getCalledFunction();
  if (callee == nullptr || !callee->isDeclaration() || callee->isIntrinsic()) return {};
  const llvm::StringRef mangled = callee->getName();
  const std::optional<uint32_t> opcode = opencl_std_instruction(std::string_view(mangled.data(), mangled.size()));
  if (!opcode) return {};
  // The result's type, as the instruction's; the stores have none, and the
  // value they store says more than nothing.
  llvm::Type* type = call.getType();
  if (type->isVoidTy() && call.arg_size() > 0) type = call.getArgOperand(0)->getType();
  return spirv::opencl_std_lowering_problem(*opcode, element_of(type));
}

}  // namespace vkcl
