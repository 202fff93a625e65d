// spirv-lower: runs vkcl's Kernel-to-Vulkan lowering, or some of its passes,
// on a module file: for debugging one pass, as spirv-opt does for SPIRV-Tools.
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "compile_error.h"
#include "lower_to_vulkan.h"

namespace {

constexpr const char* kUsage = R"(usage: spirv-lower [options] <kernel.spv> <out.spv>

Lowers Kernel SPIR-V (as SPIRV-LLVM-Translator writes it; clc
--emit-kernel-spirv) to Vulkan SPIR-V, as clc does, and writes <out.spv> and
<out.spv>.reflection.

  --passes=A,B,...   run only these lowering passes, in this order, and write
                     the module as they leave it: no validation, no optimizer
  --print-after=P    disassemble the module to stderr after pass P (a name,
                     or "all")
  --no-optimize      skip the SPIRV-Tools optimizer (the validator still runs)
  --list-passes      print every pass's name, in the order of the lowering
  --help             this text
Exit status: 0; 1 when the lowering fails; 2 for a usage error.
)";

std::vector<std::string> split(std::string_view list) {
  std::vector<std::string> items;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    items.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return items;
}

int usage_error(const std::string& message) {
  std::cerr << "spirv-lower: " << message << " (spirv-lower --help)\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files, passes;
  std::string print_after;
  bool only_some = false;
  vkcl::LoweringOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--list-passes") {
      for (std::string_view name : vkcl::lowering_pass_names()) std::cout << name << '\n';
      return 0;
    } else if (arg.starts_with("--passes=")) {
      passes = split(arg.substr(std::strlen("--passes=")));
      only_some = true;
    } else if (arg.starts_with("--print-after=")) {
      print_after = arg.substr(std::strlen("--print-after="));
    } else if (arg == "--no-optimize") {
      options.optimize = false;
    } else if (arg.starts_with("-")) {
      return usage_error("unknown option '" + std::string(arg) + "'");
    } else {
      files.emplace_back(arg);
    }
  }
  if (files.size() != 2) return usage_error("give one input and one output file");

  std::ifstream in(files[0], std::ios::binary);
  if (!in) {
    std::cerr << "spirv-lower: error: cannot open '" << files[0] << "'\n";
    return 1;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  if (bytes.empty() || bytes.size() % 4 != 0) {
    std::cerr << "spirv-lower: error: '" << files[0] << "' is not a SPIR-V module (" << bytes.size() << " bytes)\n";
    return 1;
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);

  const vkcl::AfterPass after_pass = [&](std::string_view pass, std::span<const uint32_t> module) {
    if (print_after != "all" && print_after != pass) return;
    std::string text;
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_5);
    tools.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
    if (!tools.Disassemble(module.data(), module.size(), &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES))
      text = "(the module does not disassemble)\n";
    std::cerr << "; after " << pass << "\n" << text;
  };
  try {
    vkcl::VulkanModule module = only_some ? vkcl::run_lowering_passes(words, options, passes, after_pass)
                                          : vkcl::lower_to_vulkan(words, options, after_pass);
    std::ofstream(files[1], std::ios::binary)
        .write(reinterpret_cast<const char*>(module.words.data()), std::streamsize(module.words.size() * 4));
    std::ofstream(files[1] + ".reflection") << vkcl::serialize(module.reflection);
  } catch (const vkcl::CompileError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
}
