// Programs built from OpenCL C source for one device (library vkcl::host_compiler).
//
// The compiler is told what the device supports: the Vulkan memory model
// where the device has vulkanMemoryModel (with Device scope only where it
// also has vulkanMemoryModelDeviceScope, else QueueFamily), GLSL450
// otherwise. A module built offline by clc carries its choice in its
// reflection, and Program refuses it on a device that lacks the feature.
#pragma once

#include <string_view>

#include "compiler.h"
#include "reflection.h"
#include "vkcl/program.h"

namespace vkcl {

class Device;

// `options` with the memory-model choices set for a device with `device_features`.
CompileOptions compile_options_for(const ModuleFeatures& device_features, CompileOptions options = {});

// Compiles `source` (named `file_name` in diagnostics) for `device` and loads
// it. Throws CompileError for the source, Error for the device.
Program build_program(Device& device, std::string_view source, std::string_view file_name,
                      CompileOptions options = {});

}  // namespace vkcl
