#include "compile_module.h"

#include "compiler.h"

namespace vkcl::detail {

VulkanModule compile_module(std::string_view source, std::string_view file_name, const CompileOptions& options,
                            std::span<const InputHeader> headers, std::string& warnings) {
  CompileResult result = compile_opencl(source, file_name, options, headers);
  warnings += result.warnings;
  return std::move(result.module);
}

}  // namespace vkcl::detail
