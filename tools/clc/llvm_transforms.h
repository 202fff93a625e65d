// The transforms clc runs on the linked and optimized LLVM module so that the
// translator and the SPIR-V lowering can take it: prepare_for_translation runs them in
// this order, after LLVM's pipelines and before its checks. One list, as
// spirv/pass_registry.def is for the SPIR-V passes, so that `clc-opt` can run
// any of them alone on .ll text, and each can be tested alone (tests/clc).
//
// Each runs as a new-pass-manager module pass (run_llvm_transforms), in a
// pipeline of its own after LLVM's. They report the program's errors as
// CompileError exceptions that name file:line:col, and an exception must not
// cross LLVM's own frames (LLVM is built with -fno-exceptions: no cleanup
// would run there, and the pass manager's state would be left half-updated).
// So each pass catches what its transform throws before it returns to the
// pass manager, the passes after a failure do nothing, and
// run_llvm_transforms throws the failure once the pipeline has returned: the
// program's error as it was, anything else as an internal error that names
// the transform.
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

// Runs `transforms`, in order, as one pipeline of new-pass-manager passes
// (above); throws CompileError for the first that failed.
void run_llvm_transforms(llvm::Module& module, std::span<const LlvmTransform* const> transforms,
                         std::string_view file_name);

}  // namespace vkcl
