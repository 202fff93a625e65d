// Programs: OpenCL C source or a vkcl binary, built for some of their
// context's devices. A build compiles the source for each device (its
// features decide the module: memory model, argument passing) and loads the
// module into the device's runtime (vkcl::Program); a binary holds the
// source as well as the module, so that a kernel whose buffer a storage
// binding cannot take can run from the module compiled with addresses.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "build_options.h"
#include "context.h"
#include "object.h"
#include "vkcl/program.h"
#include "vulkan_module.h"

namespace vkcl::opencl {

// One device's build of a program.
struct ProgramBuild {
  cl_build_status status = CL_BUILD_NONE;
  std::string options;  // as given
  std::string log;
  cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  BuildOptions parsed;
  std::optional<VulkanModule> module;
  std::shared_ptr<vkcl::Program> runtime;  // the loaded module
};

class Program final : public Object {
 public:
  // From source, for every device of the context.
  Program(Ref<Context> context, std::string source);
  // From binaries, one per device listed (not yet checked: build() does).
  Program(Ref<Context> context, std::vector<ContextDevice*> devices, std::vector<std::vector<unsigned char>> binaries);

  _cl_program handle = make_handle(this);
  Context& context() const { return *context_; }
  const std::string& source() const { return source_; }
  const std::vector<ContextDevice*>& devices() const { return devices_; }
  bool from_binary() const { return from_binary_; }

  // Builds for `devices` (all of the program's when empty): CL_SUCCESS,
  // CL_BUILD_PROGRAM_FAILURE (the log says why), CL_INVALID_BINARY, or
  // CL_INVALID_BUILD_OPTIONS.
  cl_int build(std::vector<ContextDevice*> devices, std::string_view options);

  // A copy of one device's build state (under the lock).
  ProgramBuild build_of(const ContextDevice& device) const;
  // The first device's build that succeeded; null when none did.
  const ProgramBuild* any_executable() const;
  // CL_PROGRAM_BINARIES' bytes for one device; empty when it has no build.
  std::vector<unsigned char> binary(const ContextDevice& device) const;

  // Kernels made from the program: while there are any, it may not be
  // built again (CL_INVALID_OPERATION).
  std::atomic<uint32_t> kernel_count{0};

 private:
  ~Program() override = default;
  size_t slot(const ContextDevice& device) const;
  void build_one(ContextDevice& device, const BuildOptions& parsed, ProgramBuild& build);

  Ref<Context> context_;
  std::string source_;
  bool from_binary_ = false;
  std::vector<ContextDevice*> devices_;
  std::vector<std::vector<unsigned char>> binaries_;  // from_binary_: one per device
  mutable std::mutex mutex_;
  bool building_ = false;
  std::vector<ProgramBuild> builds_;  // one per device, in devices_' order
};

// The vkcl program binary: magic, then length-prefixed fields (the source,
// the build options, the module's words, its reflection).
std::vector<unsigned char> encode_binary(std::string_view source, std::string_view options, const VulkanModule& module);
struct DecodedBinary {
  std::string source, options;
  VulkanModule module;
};
// nullopt when `bytes` is not such a binary.
std::optional<DecodedBinary> decode_binary(std::span<const unsigned char> bytes);

}  // namespace vkcl::opencl
