// libFuzzer target for the Kernel-to-Vulkan lowering on its own
// (lower_to_vulkan, spirv/lower_to_vulkan.h): Kernel SPIR-V words in, a
// validated Vulkan module or a CompileError out.
//
// The input's whole words are the module; a trailing partial word, when
// there is one, picks the options from its first byte (bit 0: the GLSL450
// memory model, bit 1: queue-family device scope, bit 2: no SPIRV-Tools
// optimization). A finding is a crash or sanitizer report, an exception
// that is not a CompileError, or a hang (libFuzzer's -timeout). Seed corpus:
// `clc --emit-kernel-spirv` of every kernel under shaders/ (README.md beside this file).
#include <cstdint>
#include <cstring>
#include <vector>

#include "compile_error.h"
#include "lower_to_vulkan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  vkcl::LoweringOptions options;
  if (size % 4 != 0) {
    const uint8_t choice = data[size - size % 4];
    options.memory_model = (choice & 1) ? vkcl::MemoryModel::GLSL450 : vkcl::MemoryModel::Vulkan;
    options.device_scope_available = (choice & 2) == 0;
    options.optimize = (choice & 4) == 0;
  }
  try {
    vkcl::lower_to_vulkan(words, options);
  } catch (const vkcl::CompileError&) {
  }
  return 0;
}
