// Inputs that once crashed vkcl_lower_fuzzer (or hung it), kept as
// regressions: each Kernel SPIR-V file under regressions/ must lower to a
// module or fail with a CompileError, like any input, in the normal suite.
// The file format is the fuzzer's: whole words, then an optional option byte.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compile_error.h"
#include "lower_to_vulkan.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> regression_files() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(VKCL_LOWERING_REGRESSIONS_DIR))
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class LoweringRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(LoweringRegression, IsAModuleOrACompileError) {
  std::ifstream in(fs::path(VKCL_LOWERING_REGRESSIONS_DIR) / GetParam(), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
  vkcl::LoweringOptions options;
  if (bytes.size() % 4 != 0) {
    const auto choice = static_cast<uint8_t>(bytes[bytes.size() - bytes.size() % 4]);
    options.memory_model = (choice & 1) ? vkcl::MemoryModel::GLSL450 : vkcl::MemoryModel::Vulkan;
    options.device_scope_available = (choice & 2) == 0;
    options.optimize = (choice & 4) == 0;
  }
  try {
    vkcl::lower_to_vulkan(words, options);
  } catch (const vkcl::CompileError& error) {
    const std::string text = error.what();
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(text.find("internal error: vkcl produced SPIR-V that is invalid"), std::string::npos)
        << "a malformed input must be refused before lowering, not produce an invalid module:\n"
        << text.substr(0, 2000);
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not a CompileError: " << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, LoweringRegression, ::testing::ValuesIn(regression_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
