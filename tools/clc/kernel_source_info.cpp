#include "kernel_source_info.h"

#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace vkcl {
namespace {

// Operand `i` of a function's metadata node `kind` as a string; empty when absent.
std::string string_operand(const llvm::Function& function, llvm::StringRef kind, unsigned i) {
  const llvm::MDNode* node = function.getMetadata(kind);
  if (node == nullptr || i >= node->getNumOperands()) return {};
  if (const auto* text = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i).get()))
    return text->getString().str();
  return {};
}

uint32_t type_qualifiers(const std::string& text) {
  // clang writes them space-separated: "restrict const", "volatile", "pipe".
  uint32_t bits = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find(' ', start), text.size());
    const std::string_view word = std::string_view(text).substr(start, end - start);
    if (word == "const") bits |= kArgTypeConst;
    if (word == "restrict") bits |= kArgTypeRestrict;
    if (word == "volatile") bits |= kArgTypeVolatile;
    if (word == "pipe") bits |= kArgTypePipe;
    start = end + 1;
  }
  return bits;
}

ArgAccess access_qualifier(const std::string& text) {
  if (text == "read_only") return ArgAccess::ReadOnly;
  if (text == "write_only") return ArgAccess::WriteOnly;
  if (text == "read_write") return ArgAccess::ReadWrite;
  return ArgAccess::None;
}

// "x,y,z" of a node of three integers; empty when it is not one.
std::string three_sizes(const llvm::MDNode* node) {
  if (node == nullptr || node->getNumOperands() != 3) return {};
  std::string text;
  for (const llvm::MDOperand& operand : node->operands()) {
    const auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(operand.get());
    if (value == nullptr) return {};
    text += (text.empty() ? "" : ",") + std::to_string(value->getZExtValue());
  }
  return text;
}

// OpenCL C's name of a vec_type_hint type: "uint4", "float", "half8".
std::string opencl_type_name(llvm::Type* type, bool is_signed) {
  std::string suffix;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    suffix = std::to_string(vector->getNumElements());
    type = vector->getElementType();
  }
  std::string scalar;
  if (type->isHalfTy()) scalar = "half";
  else if (type->isFloatTy()) scalar = "float";
  else if (type->isDoubleTy()) scalar = "double";
  else if (type->isIntegerTy(8)) scalar = "char";
  else if (type->isIntegerTy(16)) scalar = "short";
  else if (type->isIntegerTy(32)) scalar = "int";
  else if (type->isIntegerTy(64)) scalar = "long";
  else return {};
  if (type->isIntegerTy() && !is_signed) scalar = "u" + scalar;
  return scalar + suffix;
}

// "vec_type_hint(uint4)" from !{<4 x i32> undef, i32 0} (the second operand: signed).
std::string vec_type_hint(const llvm::MDNode* node) {
  if (node == nullptr || node->getNumOperands() < 2) return {};
  const auto* value = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(node->getOperand(0).get());
  const auto* is_signed = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(1).get());
  if (value == nullptr || is_signed == nullptr) return {};
  const std::string name = opencl_type_name(value->getType(), !is_signed->isZero());
  return name.empty() ? std::string() : "vec_type_hint(" + name + ")";
}

// The attributes in OpenCL C's spelling, in one order whatever the source's.
std::string attributes_of(const llvm::Function& kernel) {
  std::vector<std::string> list;
  if (std::string sizes = three_sizes(kernel.getMetadata("reqd_work_group_size")); !sizes.empty())
    list.push_back("reqd_work_group_size(" + sizes + ")");
  if (std::string sizes = three_sizes(kernel.getMetadata("work_group_size_hint")); !sizes.empty())
    list.push_back("work_group_size_hint(" + sizes + ")");
  if (std::string hint = vec_type_hint(kernel.getMetadata("vec_type_hint")); !hint.empty()) list.push_back(hint);
  if (const llvm::MDNode* node = kernel.getMetadata("intel_reqd_sub_group_size"); node && node->getNumOperands() == 1)
    if (const auto* size = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(0).get()))
      list.push_back("intel_reqd_sub_group_size(" + std::to_string(size->getZExtValue()) + ")");
  std::string text;
  for (const std::string& attribute : list) text += (text.empty() ? "" : " ") + attribute;
  return text;
}

}  // namespace

std::map<std::string, KernelSourceInfo> read_kernel_source_info(const llvm::Module& module) {
  std::map<std::string, KernelSourceInfo> info;
  for (const llvm::Function& function : module) {
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL || function.isDeclaration()) continue;
    KernelSourceInfo& kernel = info[function.getName().str()];
    kernel.args.resize(function.arg_size());
    for (unsigned i = 0; i < function.arg_size(); ++i) {
      KernelArg& arg = kernel.args[i];
      arg.index = i;
      arg.type_name = string_operand(function, "kernel_arg_type", i);
      arg.type_qualifiers = type_qualifiers(string_operand(function, "kernel_arg_type_qual", i));
      arg.access = access_qualifier(string_operand(function, "kernel_arg_access_qual", i));
    }
    kernel.attributes = attributes_of(function);
  }
  return info;
}

void add_kernel_source_info(const std::map<std::string, KernelSourceInfo>& info, ModuleReflection& reflection) {
  for (KernelReflection& kernel : reflection.kernels) {
    auto found = info.find(kernel.name);
    if (found == info.end()) continue;
    kernel.attributes = found->second.attributes;
    for (KernelArg& arg : kernel.args) {
      if (arg.index >= found->second.args.size()) continue;
      const KernelArg& source = found->second.args[arg.index];
      arg.type_name = source.type_name;
      arg.type_qualifiers = source.type_qualifiers;
      arg.access = source.access;
    }
  }
}

}  // namespace vkcl
