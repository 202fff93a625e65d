#include "compile_module.h"
#include "vkcl/error.h"

namespace vkcl::detail {

VulkanModule compile_module(std::string_view, std::string_view file_name, const CompileOptions&,
                            std::span<const InputHeader>, std::string&) {
  throw Error("cannot build '" + std::string(file_name) +
              "': this vkcl was built without the compiler (VKCL_WITH_COMPILER=OFF) and VKCL_MODULE_CACHE holds no "
              "module for it; run the same program once where vkcl has the compiler, with the same VKCL_MODULE_CACHE, "
              "or compile in a child process (CompileIn::ChildProcess) with a vkcl-compile-worker from such a build");
}

}  // namespace vkcl::detail
