// Shared by the GPU tests: one Device for the whole binary (creating a Vulkan
// instance with validation costs more than most tests), and the paths of the
// test shaders built next to the binary.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "vkcl/host.h"

namespace vkcl::test {

inline Device& device() {
  static Device d = [] {
    Device created = Device::create();
    std::printf("vkcl device: %s\n", created.describe().c_str());
    return created;
  }();
  return d;
}

#ifdef VKCL_TEST_SHADER_DIR  // tests that load prebuilt modules
inline std::filesystem::path shader(const char* name) {
  return std::filesystem::path(VKCL_TEST_SHADER_DIR) / (std::string(name) + ".spv");
}
#endif

// Runs `body`, expects an Error, and expects each of `words` in its message.
template <typename Body>
void expect_error(Body&& body, std::initializer_list<std::string_view> words) {
  try {
    body();
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& e) {
    std::string message = e.what();
    for (std::string_view w : words)
      EXPECT_NE(message.find(w), std::string::npos) << "expected '" << w << "' in: " << message;
  }
}

inline std::vector<uint32_t> read_words(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace vkcl::test
