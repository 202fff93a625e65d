#include "vkcl/source_program.h"

#include "vkcl/device.h"

namespace vkcl {

CompileOptions compile_options_for(const ModuleFeatures& device_features, CompileOptions options) {
  options.memory_model = device_features.vulkan_memory_model ? MemoryModel::Vulkan : MemoryModel::GLSL450;
  options.vulkan_device_scope = device_features.vulkan_memory_model_device_scope;
  return options;
}

Program build_program(Device& device, std::string_view source, std::string_view file_name, CompileOptions options) {
  CompileResult compiled = compile_opencl(source, file_name, compile_options_for(device.features(), std::move(options)));
  return Program(device, compiled.module.words, std::move(compiled.module.reflection));
}

}  // namespace vkcl
