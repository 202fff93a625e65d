#include "compile_module.h"
#include "vkcl/error.h"

namespace vkcl::detail {

VulkanModule compile_module(std::string_view, std::string_view file_name, const CompileOptions&,
                            std::span<const InputHeader>, std::string&) {
  throw Error("cannot compile '" + std::string(file_name) +
              "' in this process: this library compiles in a child process only (CompileIn::ChildProcess)");
}

}  // namespace vkcl::detail
