// LLVM IR in the tests of clc's LLVM-level passes: text parsed as clc's
// modules are (typed pointers), and LLVM's interpreter to run a function
// before and after a pass.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/ExecutionEngine.h>
#include <llvm/ExecutionEngine/GenericValue.h>
#include <llvm/IR/InstIterator.h>
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

// How many instructions of `module`, and operands of its instructions, `is` holds for.
template <typename Predicate>
int count_values(const llvm::Module& module, Predicate is) {
  int n = 0;
  for (const llvm::Function& function : module)
    for (const llvm::Instruction& instruction : llvm::instructions(function)) {
      n += is(static_cast<const llvm::Value*>(&instruction)) ? 1 : 0;
      for (const llvm::Use& operand : instruction.operands()) n += is(operand.get()) ? 1 : 0;
    }
  return n;
}

// Every function named in `names` (each i32 -> i32) gives the same result
// in `after` as in `before` for every argument; at most five failures shown per function.
inline void expect_same_results(llvm::ExecutionEngine& before, llvm::ExecutionEngine& after,
                                const std::vector<std::string>& names, const std::vector<int32_t>& arguments,
                                const char* what) {
  for (const std::string& name : names) {
    int failures = 0;
    for (int32_t x : arguments) {
      llvm::GenericValue argument;
      argument.IntVal = llvm::APInt(32, uint64_t(uint32_t(x)));
      const int64_t want = before.runFunction(before.FindFunctionNamed(name), {argument}).IntVal.getSExtValue();
      const int64_t got = after.runFunction(after.FindFunctionNamed(name), {argument}).IntVal.getSExtValue();
      if (got != want && ++failures <= 5)
        ADD_FAILURE() << "@" << name << "(" << x << ") " << what << " gives " << got << ", the original " << want;
    }
  }
}

}  // namespace vkcl::testing
