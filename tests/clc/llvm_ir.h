// LLVM IR in the tests of clc's LLVM-level passes: text parsed as clc's
// modules are (typed pointers), and LLVM's interpreter to run a function
// before and after a pass.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/ExecutionEngine.h>
#include <llvm/ExecutionEngine/Interpreter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

namespace vkcl::testing {

// `text` as a module of `context` (which must have typed pointers, as clc's
// context has); a test failure naming the line when it does not parse.
inline std::unique_ptr<llvm::Module> parse_ir(const std::string& text, llvm::LLVMContext& context) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, diagnostic, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    diagnostic.print("test.ll", stream);
    ADD_FAILURE() << stream.str();
  }
  return module;
}

// "" when `module` verifies, else the verifier's complaint.
inline std::string verify_ir(const llvm::Module& module) {
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  return llvm::verifyModule(module, &stream) ? stream.str() : "";
}

inline std::string print_ir(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return stream.str();
}

// LLVM's interpreter over `module`.
inline std::unique_ptr<llvm::ExecutionEngine> interpreter(std::unique_ptr<llvm::Module> module) {
  LLVMLinkInInterpreter();
  std::string error;
  std::unique_ptr<llvm::ExecutionEngine> engine(
      llvm::EngineBuilder(std::move(module)).setEngineKind(llvm::EngineKind::Interpreter).setErrorStr(&error).create());
  EXPECT_NE(engine, nullptr) << error;
  return engine;
}

}  // namespace vkcl::testing
