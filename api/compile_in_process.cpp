#include "compile_module.h"

#include "compiler.h"

namespace vkcl::detail {

VulkanModule compile_module(std::string_view source, std::string_view file_name, const CompileOptions& options) {
  return compile_opencl(source, file_name, options).module;
}

}  // namespace vkcl::detail
