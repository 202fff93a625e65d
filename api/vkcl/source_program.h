// Programs built from OpenCL C source for one device (library vkcl::from_source,
// which joins the compiler to the runtime: api/CMakeLists.txt).
//
// The compiler is told what the device supports: the Vulkan memory model
// where the device has vulkanMemoryModel (with Device scope only where it
// also has vulkanMemoryModelDeviceScope, else QueueFamily), GLSL450
// otherwise. A module built offline by clc carries its choice in its
// reflection, and Program refuses it on a device that lacks the feature.
//
// The compiler runs in the caller's process or, with CompileIn::ChildProcess,
// in a child process per compile (vkcl/compile_worker.h): what a library
// that loads into other people's programs uses, the OpenCL ICD.
//
// VKCL_MODULE_CACHE=<dir> keeps every module build_program compiles in <dir>
// (<key>.spv and <key>.spv.reflection) and reuses it when asked for the same
// again, wherever the compiler runs. The key is a hash of the source, its
// file name, the compile options, the input headers (BuildSettings), the
// files it #includes (found beside it and in the -I directories, then what
// those include) and the compiler's own sources (builtins, spirv/,
// tools/clc/: cmake/compiler_identity.cmake); not of the clang, LLVM and
// translator packages. A build configured with -DVKCL_WITH_COMPILER=OFF has
// no compiler (no LLVM): there build_program in this process only finds
// modules in that directory, so kernels compiled here can run on a machine
// without our toolchain built from the same tree.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compile_error.h"
#include "compile_options.h"
#include "reflection.h"
#include "vulkan_module.h"
#include "vkcl/program.h"

namespace vkcl {

class CompileWorkers;
class Device;

// Where compile_module_for and build_program run the compiler.
enum class CompileIn {
  // compile_opencl in the caller's process (vkcl/compiler.h), as clc,
  // vkcl-run and the tests do: the fastest, but one compile at a time, with
  // the compiler's process-wide exit() and std::cerr interposition and crash
  // handlers in the process, and a crash the compiler does not recover from
  // ends it.
  ThisProcess,
  // In vkcl-compile-worker processes (vkcl/compile_worker.h): any number of
  // threads at once, nothing of the compiler in the caller's process, and a
  // crash is a CompileError. Costs a process start per compile unless
  // BuildSettings::workers keeps them warm (docs/opencl.md, "Compiling in a
  // child process").
  ChildProcess,
};

// What compile_module_for and build_program take besides the source and its options.
struct BuildSettings {
  CompileIn compile_in = CompileIn::ThisProcess;
  // With CompileIn::ChildProcess: workers kept running between builds
  // (vkcl/compile_worker.h); without, a worker per compile.
  CompileWorkers* workers = nullptr;
  // #include-able by name (clCompileProgram's input headers; compiler.h).
  std::vector<InputHeader> headers;
  // Where the compiler's warnings go, when given; a module from
  // VKCL_MODULE_CACHE comes without them.
  std::string* warnings = nullptr;
};

// `options` with the memory-model choices set for a device with `device_features`.
CompileOptions compile_options_for(const ModuleFeatures& device_features, CompileOptions options = {});

// The module compile_options_for(device_features, options) gives, through
// VKCL_MODULE_CACHE when it is set. Throws as build_program does.
VulkanModule compile_module_for(const ModuleFeatures& device_features, std::string_view source,
                                std::string_view file_name, CompileOptions options = {},
                                const BuildSettings& settings = {});

// The options build_program compiles with for `device`: compile_options_for
// its features, and where `options` leaves it open, how pointer arguments are
// passed there (docs/performance.md, "Argument passing").
CompileOptions compile_options_for(const Device& device, CompileOptions options = {});

// build_program's second half: loads `module`, compiled with `options`
// (compile_options_for(device, ...)). Where it binds pointer arguments as
// storage buffers, `recompile` gives the same program with `options` but
// addresses, for the kernels whose buffers a binding cannot take (Program's
// by_address); it is called at most once, when first needed.
Program load_program(Device& device, VulkanModule module, const CompileOptions& options,
                     std::function<VulkanModule(const CompileOptions&)> recompile);

// Compiles `source` (named `file_name` in diagnostics) for `device` and loads
// it. Throws CompileError for the source, Error for the device, and Error
// when this build has no compiler, compiles in this process and
// VKCL_MODULE_CACHE holds no such module.
Program build_program(Device& device, std::string_view source, std::string_view file_name,
                      CompileOptions options = {}, const BuildSettings& settings = {});

// The name build_program gives the module in VKCL_MODULE_CACHE (16 hex digits).
std::string module_cache_key(std::string_view source, std::string_view file_name, const CompileOptions& options,
                             std::span<const InputHeader> headers = {});

}  // namespace vkcl
