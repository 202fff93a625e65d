#include "link_modules.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "compile_error.h"

namespace vkcl {
namespace {

// The linker reports a clash through the context's diagnostic handler, whose
// default prints it and, for an error, exits the process; this one keeps
// the text instead, for as long as it lives.
class CollectedDiagnostics {
 public:
  explicit CollectedDiagnostics(llvm::LLVMContext& context) : context_(context) {
    saved_ = context.getDiagnosticHandlerCallBack();
    saved_context_ = context.getDiagnosticContext();
    context.setDiagnosticHandlerCallBack(&CollectedDiagnostics::handle, this);
  }
  ~CollectedDiagnostics() { context_.setDiagnosticHandlerCallBack(saved_, saved_context_); }
  CollectedDiagnostics(const CollectedDiagnostics&) = delete;
  CollectedDiagnostics& operator=(const CollectedDiagnostics&) = delete;

  const std::string& errors() const { return errors_; }

 private:
  static void handle(const llvm::DiagnosticInfo& info, void* self) {
    if (info.getSeverity() != llvm::DS_Error) return;  // a data layout mismatch, say: not the user's concern
    auto* collected = static_cast<CollectedDiagnostics*>(self);
    llvm::raw_string_ostream out(collected->errors_);
    llvm::DiagnosticPrinterRawOStream printer(out);
    info.print(printer);
    out << '\n';
  }

  llvm::LLVMContext& context_;
  llvm::DiagnosticHandler::DiagnosticHandlerTy saved_ = nullptr;
  void* saved_context_ = nullptr;
  std::string errors_;
};

// (major, minor) of a version node !{i32 1, i32 2}; (0, 0) for anything else.
std::pair<uint64_t, uint64_t> version_of(const llvm::MDNode* node) {
  if (node == nullptr || node->getNumOperands() != 2) return {0, 0};
  const auto* major = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(0).get());
  const auto* minor = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(1).get());
  if (major == nullptr || minor == nullptr) return {0, 0};
  return {major->getZExtValue(), minor->getZExtValue()};
}

// Each object brought its own operands to these named nodes.
void merge_module_metadata(llvm::Module& module) {
  for (const char* name : {"opencl.ocl.version", "opencl.spir.version"}) {
    llvm::NamedMDNode* node = module.getNamedMetadata(name);
    if (node == nullptr || node->getNumOperands() < 2) continue;
    llvm::MDNode* highest = node->getOperand(0);
    for (llvm::MDNode* operand : node->operands())
      if (version_of(operand) > version_of(highest)) highest = operand;
    node->clearOperands();
    node->addOperand(highest);
  }
  for (const char* name : {"llvm.ident", "opencl.used.extensions", "opencl.used.optional.core.features",
                           "opencl.compiler.options"}) {
    llvm::NamedMDNode* node = module.getNamedMetadata(name);
    if (node == nullptr || node->getNumOperands() < 2) continue;
    std::vector<llvm::MDNode*> unique;  // nodes are uniqued: equal ones are one pointer
    for (llvm::MDNode* operand : node->operands())
      if (std::find(unique.begin(), unique.end(), operand) == unique.end()) unique.push_back(operand);
    node->clearOperands();
    for (llvm::MDNode* operand : unique) node->addOperand(operand);
  }
}

std::unique_ptr<llvm::Module> read_object(const std::string& bytes, size_t index, llvm::LLVMContext& context,
                                          std::string_view file_name) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(bytes.data(), bytes.size()), "object " + std::to_string(index));
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(buffer, context);
  if (!module) {
    throw CompileError(std::string(file_name) + ": error: input " + std::to_string(index + 1) +
                       " is not a compiled object or library of this compiler: " +
                       llvm::toString(module.takeError()) + "\n");
  }
  return std::move(*module);
}

}  // namespace

std::unique_ptr<llvm::Module> link_modules(std::span<const std::string> objects, llvm::LLVMContext& context,
                                           std::string_view file_name) {
  if (objects.empty()) throw CompileError(std::string(file_name) + ": error: nothing to link\n");
  std::unique_ptr<llvm::Module> linked = read_object(objects[0], 0, context, file_name);
  CollectedDiagnostics diagnostics(context);
  for (size_t i = 1; i < objects.size(); ++i) {
    std::unique_ptr<llvm::Module> object = read_object(objects[i], i, context, file_name);
    // Objects from SPIR-V name the target their own way ("spir64-unknown-unknown").
    object->setTargetTriple(linked->getTargetTriple());
    object->setDataLayout(linked->getDataLayout());
    if (llvm::Linker::linkModules(*linked, std::move(object))) {
      std::string errors = diagnostics.errors();
      if (errors.empty()) errors = "the objects could not be linked\n";
      throw CompileError(std::string(file_name) + ": error: " + errors);
    }
  }
  merge_module_metadata(*linked);
  return linked;
}

std::string write_bitcode(const llvm::Module& module) {
  std::string bytes;
  llvm::raw_string_ostream out(bytes);
  llvm::WriteBitcodeToFile(module, out);
  out.flush();
  return bytes;
}

}  // namespace vkcl
