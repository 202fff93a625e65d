// clc-opt: clc's LLVM-level transforms (llvm_transforms.h) on LLVM IR text,
// one at a time or in any order, as new-pass-manager passes, as `opt` runs LLVM's: for debugging
// a transform, or writing its test, without the rest of the compiler.
//
//   clc-opt --list-passes
//   clc-opt [--passes=a,b,...] input.ll [-o output.ll]
//
// Without --passes, all of them in clc's order. The module is parsed with
// typed pointers, as clc's modules are; the result must verify. Exit status 0;
// 1 for a transform's error (printed as clc prints errors) or a module that
// does not parse or verify; 2 for a bad command line.
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include "compile_error.h"
#include "llvm_transforms.h"

namespace {

constexpr const char* kUsage =
    "usage: clc-opt --list-passes\n"
    "       clc-opt [--passes=a,b,...] input.ll [-o output.ll]\n";

int run(int argc, char** argv) {
  std::string input, output = "-";
  std::vector<const vkcl::LlvmTransform*> chosen;
  bool passes_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--list-passes") {
      for (const vkcl::LlvmTransform& t : vkcl::llvm_transforms()) std::cout << t.name << '\n';
      return 0;
    }
    if (arg.rfind("--passes=", 0) == 0) {
      passes_given = true;
      std::istringstream names(arg.substr(9));
      for (std::string name; std::getline(names, name, ',');) {
        const vkcl::LlvmTransform* t = vkcl::find_llvm_transform(name);
        if (t == nullptr) {
          std::cerr << "clc-opt: no transform is named '" << name << "' (clc-opt --list-passes)\n";
          return 2;
        }
        chosen.push_back(t);
      }
    } else if (arg == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (!arg.empty() && arg[0] != '-' && input.empty()) {
      input = arg;
    } else {
      std::cerr << "clc-opt: unexpected argument '" << arg << "'\n" << kUsage;
      return 2;
    }
  }
  if (input.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  if (!passes_given)
    for (const vkcl::LlvmTransform& t : vkcl::llvm_transforms()) chosen.push_back(&t);

  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyFile(input, diagnostic, context);
  if (!module) {
    diagnostic.print("clc-opt", llvm::errs());
    return 1;
  }
  try {
    vkcl::run_llvm_transforms(*module, chosen, input);
  } catch (const vkcl::CompileError& error) {
    std::cerr << error.what();
    return 1;
  }
  std::string problems;
  llvm::raw_string_ostream problems_stream(problems);
  if (llvm::verifyModule(*module, &problems_stream)) {
    std::cerr << "clc-opt: the module does not verify after the transforms:\n" << problems_stream.str();
    return 1;
  }
  std::error_code error;
  llvm::raw_fd_ostream out(output, error, llvm::sys::fs::OF_Text);
  if (error) {
    std::cerr << "clc-opt: cannot write '" << output << "': " << error.message() << '\n';
    return 1;
  }
  module->print(out, nullptr);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return run(argc, argv); }
