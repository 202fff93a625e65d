// spirv-lower: runs vkcl's Kernel-to-Vulkan lowering on a module file.
// Usage: spirv-lower <kernel.spv> <out.spv>   (also writes <out.spv>.reflection)
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

#include "compile_error.h"
#include "lower_to_vulkan.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: spirv-lower <kernel.spv> <out.spv>\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "spirv-lower: error: cannot open '" << argv[1] << "'\n";
    return 1;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  try {
    vkcl::VulkanModule module = vkcl::lower_to_vulkan(words, {});
    std::ofstream(argv[2], std::ios::binary)
        .write(reinterpret_cast<const char*>(module.words.data()), std::streamsize(module.words.size() * 4));
    std::ofstream(std::string(argv[2]) + ".reflection") << vkcl::serialize(module.reflection);
  } catch (const vkcl::CompileError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
}
