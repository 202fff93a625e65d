// What a program is compiled with: the OpenCL C version, -D and -I, and the
// choices a device makes (memory model, argument passing); the headers it
// may #include that are not files (InputHeader); and the values of a SPIR-V
// program's specialization constants (SpecConstant). Part of the
// contract library (vkcl::contract), so that what joins the compiler and the
// runtime (vkcl/source_program.h) can name them in a build without the
// compiler.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vulkan_module.h"

namespace vkcl {

enum class OpenCLStd { CL1_2, CL2_0, CL3_0 };

struct CompileOptions {
  OpenCLStd cl_std = OpenCLStd::CL1_2;  // clang's default for .cl files
  std::vector<std::string> defines;       // "NAME" or "NAME=VALUE", as for -D
  std::vector<std::string> include_dirs;  // as for -I, searched in order
  // OpenCL build options that clang takes as they are (-cl-mad-enable,
  // -cl-fast-relaxed-math, -cl-uniform-work-group-size, -w, -Werror, ...):
  // what passes them on (the OpenCL API's build options, clc's command
  // line) checks each against the options it knows.
  std::vector<std::string> frontend_options;
  bool optimize = true;                   // -O2 (default); false: -O0
  MemoryModel memory_model = MemoryModel::Vulkan;
  // Under the Vulkan memory model, memory_scope_device becomes Device scope
  // (needs vulkanMemoryModelDeviceScope) or, when false, QueueFamily scope.
  bool vulkan_device_scope = true;
  // false: stop after the translator; CompileResult::module stays empty.
  bool lower = true;
  // -cl-denorms-are-zero: the program allows subnormal floats and doubles to
  // be flushed to zero. The module is the same; its reflection says so
  // (ModuleReflection::denorms_are_zero), and the runtime then does not ask
  // the device to preserve subnormals (host/preserve_denormals.h).
  bool denorms_are_zero = false;
  // LoweringOptions::max_storage_buffers: how many pointer arguments of a
  // kernel may become storage-buffer descriptors (0: addresses only). Unset:
  // 0, addresses. build_program chooses per device where it is unset: as many
  // as the device binds on lavapipe, 0 on GPUs, or VKCL_STORAGE_BUFFER_ARGUMENTS
  // (docs/performance.md, "Argument passing").
  std::optional<uint32_t> max_storage_buffers;

  bool operator==(const CompileOptions&) const = default;
};

// A header that a program #includes by name though it is no file on disk:
// OpenCL's clCompileProgram passes them (input_headers, header_include_names).
// The compiler makes each one #include-able as "name" and <name>, found
// before the -I directories (tools/clc/frontend.cpp).
struct InputHeader {
  std::string name;  // relative, as the #include writes it: "util.h", "inc/util.h"
  std::string text;

  bool operator==(const InputHeader&) const = default;
};

// A specialization constant's value for a program from SPIR-V
// (clSetProgramSpecializationConstant): the bits of the value, zero-extended
// to 64 (a bool is 0 or 1), for the OpSpecConstant* decorated SpecId `id`.
struct SpecConstant {
  uint32_t id = 0;
  uint64_t value = 0;

  bool operator==(const SpecConstant&) const = default;
};

}  // namespace vkcl
