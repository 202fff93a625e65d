// Helpers for the tests of one lowering pass at a time on SPIR-V assembly
// (pass_assembly_*_test.cpp): build a Kernel module from a few lines of
// assembly, run only the named passes on it, and read the disassembly back
// with the names the test wrote. Shared so that each group of passes can
// have its own test file.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "compile_error.h"
#include "lower_to_vulkan.h"

namespace vkcl::test {

// `body` (decorations, types, constants and functions) after a Kernel
// module's header, with an OpName for every result id it defines, so that
// the disassembly shows the ids by the names written here.
inline std::string kernel_module(const std::string& body) {
  std::string names;
  const std::regex definition(R"(%(\w+) = )");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), definition); it != std::sregex_iterator(); ++it)
    names += "OpName %" + (*it)[1].str() + " \"" + (*it)[1].str() + "\"\n";
  return "OpCapability Kernel\nOpCapability Addresses\nOpCapability Linkage\nOpMemoryModel Physical64 OpenCL\n" + names + body;
}

// `passes` alone, in order, on the module spirv-as makes of `assembly` (SPIR-V
// 1.4, as the translator writes); the result as text with friendly names.
inline std::string run_passes(const std::vector<std::string>& passes, const std::string& assembly) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& at, const char* text) {
    messages += "line " + std::to_string(at.line) + ": " + text + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(assembly, &words)) {
    ADD_FAILURE() << "the test's assembly does not assemble:\n" << messages;
    return {};
  }
  const VulkanModule lowered = run_lowering_passes(words, {}, passes);
  std::string text;
  EXPECT_TRUE(tools.Disassemble(lowered.words, &text,
                                SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  return text;
}

inline std::string run_alone(std::string_view pass, const std::string& assembly) {
  return run_passes({std::string(pass)}, assembly);
}

// How many times `pattern` (a regex) matches in `text`.
inline int count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return int(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

// The ids (each with its %) that `pattern`'s groups capture in `text`; ""
// for each, and a failure, where it does not match.
inline std::vector<std::string> captured_ids(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  std::smatch match;
  if (!std::regex_search(text, match, re)) {
    ADD_FAILURE() << "no match for " << pattern << " in:\n" << text;
    return std::vector<std::string>(re.mark_count());
  }
  std::vector<std::string> ids;
  for (size_t group = 1; group < match.size(); ++group) ids.push_back(match[group].str());
  return ids;
}

// The id that `pattern`'s one group captures in `text`.
inline std::string captured(const std::string& text, const std::string& pattern) {
  return captured_ids(text, pattern).at(0);
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The message of the CompileError that `passes` throw on `assembly`; "" (and
// a failure) where they throw none.
inline std::string error_of(const std::vector<std::string>& passes, const std::string& assembly) {
  try {
    run_passes(passes, assembly);
  } catch (const CompileError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

// run_passes with `options` (run_passes uses the defaults: the Vulkan memory
// model, Device scope available), keeping the reflection, where the passes
// record the device features a module needs.
struct Lowered {
  std::string text;
  ModuleReflection reflection;
};

inline Lowered run_with(const LoweringOptions& options, const std::vector<std::string>& passes,
                        const std::string& assembly) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  std::vector<uint32_t> words;
  if (!tools.Assemble(assembly, &words)) {
    ADD_FAILURE() << "the test's assembly does not assemble";
    return {};
  }
  VulkanModule lowered = run_lowering_passes(words, options, passes);
  Lowered result;
  EXPECT_TRUE(tools.Disassemble(lowered.words, &result.text,
                                SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  result.reflection = std::move(lowered.reflection);
  return result;
}

}  // namespace vkcl::test
