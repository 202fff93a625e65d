// The transforms clc runs on the linked and optimized LLVM module so that the
// translator and the SPIR-V lowering can take it: link_builtins runs them in
// this order, after LLVM's pipelines and before its checks. One list, as
// spirv/pass_registry.def is for the SPIR-V passes, so that `clc-opt` can run
// any of them alone on .ll text, and each can be tested alone (tests/clc).
//
// Why functions rather than new-pass-manager passes: they report the
// program's errors as CompileError exceptions that name file:line:col, and an
// exception must not cross LLVM's own frames (LLVM is built with
// -fno-exceptions: no cleanup would run there, and the pass manager's state
// would be left half-updated). So they run between LLVM's pipelines, each on
// the whole module.
#pragma once

#include <span>
#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

struct LlvmTransform {
  std::string_view name;  // its file in tools/clc/
  // `file_name` names the input in the errors it throws (CompileError).
  void (*run)(llvm::Module& module, std::string_view file_name);
};

// Every transform, in the order clc runs them.
std::span<const LlvmTransform> llvm_transforms();

// The transform named `name`, or nullptr.
const LlvmTransform* find_llvm_transform(std::string_view name);

}  // namespace vkcl
