// Programs: OpenCL C source, SPIR-V, vkcl binaries, or the link of compiled
// objects and libraries, for some of their context's devices. A build
// compiles for each device (its features decide the module: memory model,
// argument passing) and loads the module into the device's runtime
// (vkcl::Program). clCompileProgram makes a compiled object per device
// instead (LLVM bitcode, from the compile worker), and clLinkProgram a new
// program of the objects and libraries it is given: an executable, or with
// -create-library a library. Everything is compiled in a child process
// (vkcl/compile_worker.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "build_options.h"
#include "context.h"
#include "object.h"
#include "program_binary.h"
#include "vkcl/program.h"
#include "vulkan_module.h"

namespace vkcl::opencl {

// One device's build, compile or link of a program.
struct ProgramBuild {
  cl_build_status status = CL_BUILD_NONE;
  std::string options;  // as given
  std::string log;
  cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  BuildOptions parsed;
  std::string object;   // a compiled object's or library's bitcode
  ProgramInput input;   // what an executable was compiled from
  std::optional<VulkanModule> module;
  std::shared_ptr<vkcl::Program> runtime;  // the loaded module
};

class Program final : public Object {
 public:
  enum class Origin { Source, IL, Binary, Link };

  // From source, for every device of the context.
  Program(Ref<Context> context, std::string source);
  // From SPIR-V (checked by the caller: il.h), for every device of the context.
  Program(Ref<Context> context, std::vector<uint32_t> il);
  // From binaries, one per device listed (decoded: the executables are
  // loaded by build()).
  Program(Ref<Context> context, std::vector<ContextDevice*> devices, std::vector<std::vector<unsigned char>> binaries);
  // clLinkProgram's: for `devices`, linked by link().
  Program(Ref<Context> context, std::vector<ContextDevice*> devices);

  _cl_program handle = make_handle(this);
  Context& context() const { return *context_; }
  Origin origin() const { return origin_; }
  const std::string& source() const { return source_; }
  const std::vector<uint32_t>& il() const { return il_; }
  const std::vector<ContextDevice*>& devices() const { return devices_; }
  bool from_binary() const { return origin_ == Origin::Binary; }
  bool has_device(const ContextDevice& device) const;

  // Builds for `devices` (all of the program's when empty): CL_SUCCESS,
  // CL_BUILD_PROGRAM_FAILURE (the log says why), CL_INVALID_BINARY,
  // CL_INVALID_BUILD_OPTIONS, or CL_INVALID_OPERATION for a program that
  // clLinkProgram made.
  cl_int build(std::vector<ContextDevice*> devices, std::string_view options);
  // clCompileProgram: a compiled object for each of `devices` (all when
  // empty), from the source or the IL, with `headers` #include-able.
  // CL_SUCCESS, CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS, or
  // CL_INVALID_OPERATION for a program with neither source nor IL.
  cl_int compile(std::vector<ContextDevice*> devices, std::string_view options, std::vector<InputHeader> headers);
  // clLinkProgram, on a program made for it: for each of its devices, the
  // link of `inputs`' objects and libraries for that device, when every
  // input has one (program_link.cpp checks that), into an executable or
  // (-create-library) a library. CL_SUCCESS or CL_LINK_PROGRAM_FAILURE.
  cl_int link(const std::vector<Program*>& inputs, std::string_view options);

  // clSetProgramSpecializationConstant's value (a program from IL),
  // checked against the module's: CL_INVALID_SPEC_ID, CL_INVALID_VALUE.
  void set_spec_constant(uint32_t id, size_t size, const void* value);

  // A copy of one device's build state (under the lock).
  ProgramBuild build_of(const ContextDevice& device) const;
  // What an enqueue needs of it, without copying its module, objects and
  // inputs: the runtime's program (null when there is no executable for
  // the device) and the options it was built with.
  std::shared_ptr<vkcl::Program> runtime_of(const ContextDevice& device) const;
  BuildOptions options_of(const ContextDevice& device) const;
  // The first device's build that succeeded with an executable; null when none did.
  const ProgramBuild* any_executable() const;
  // CL_PROGRAM_BINARIES' bytes for one device; empty when it has no build.
  std::vector<unsigned char> binary(const ContextDevice& device) const;

  // Kernels made from the program: while there are any, it may not be
  // built again (CL_INVALID_OPERATION).
  std::atomic<uint32_t> kernel_count{0};

 private:
  ~Program() override = default;
  size_t slot(const ContextDevice& device) const;
  std::vector<SpecConstant> spec_constants() const;

  // A build, compile or link in progress, for as long as it lives: another
  // at once, or one while kernels exist, is CL_INVALID_OPERATION.
  class Building {
   public:
    explicit Building(Program& program);
    ~Building();
    Building(const Building&) = delete;
    Building& operator=(const Building&) = delete;

   private:
    Program& program_;
  };

  // Runs `step` for each of `devices`, each device's state CL_BUILD_IN_PROGRESS
  // meanwhile; true when no step's build failed.
  template <typename Step>
  bool for_each_device(const std::vector<ContextDevice*>& devices, Step&& step);
  void build_one(ContextDevice& device, const BuildOptions& parsed, ProgramBuild& build);
  void compile_one(ContextDevice& device, const std::vector<InputHeader>& headers, ProgramBuild& build);

  Ref<Context> context_;
  Origin origin_;
  std::string source_;
  std::vector<uint32_t> il_;
  std::vector<ContextDevice*> devices_;
  std::vector<std::vector<unsigned char>> binaries_;  // Origin::Binary: one per device
  mutable std::mutex mutex_;
  bool building_ = false;
  std::vector<ProgramBuild> builds_;  // one per device, in devices_' order
  std::map<uint32_t, uint64_t> spec_values_;  // Origin::IL: set by clSetProgramSpecializationConstant
};

// Loads `module`, compiled from `input` with `options`, on `device`: the
// runtime's program, which compiles `input` again with buffer addresses
// when a kernel needs it (vkcl::load_program). Throws as load_program does.
std::shared_ptr<vkcl::Program> load_executable(ContextDevice& device, const VulkanModule& module,
                                               const CompileOptions& options, const ProgramInput& input);

// Compiles `input` for a device with `features`, with `options` and the
// device's choices (compile_options_for), in one of `workers`. Throws
// CompileError; `warnings`, when given, gets the compiler's warnings.
VulkanModule compile_input(CompileWorkers& workers, const ModuleFeatures& features, const ProgramInput& input,
                           const CompileOptions& options, std::string* warnings = nullptr);

// What diagnostics call a program's source: "program.cl:3:5: error: ...",
// and its SPIR-V.
inline constexpr std::string_view kSourceName = "program.cl";
inline constexpr std::string_view kILName = "program.spv";

template <typename Step>
bool Program::for_each_device(const std::vector<ContextDevice*>& devices, Step&& step) {
  bool all = true;
  for (ContextDevice* d : devices) {
    ProgramBuild build;
    build.status = CL_BUILD_IN_PROGRESS;
    {
      std::lock_guard lock(mutex_);
      builds_[slot(*d)].status = CL_BUILD_IN_PROGRESS;
    }
    try {
      step(*d, build);
    } catch (...) {
      std::lock_guard lock(mutex_);
      builds_[slot(*d)].status = CL_BUILD_ERROR;
      throw;
    }
    all &= build.status != CL_BUILD_ERROR;
    std::lock_guard lock(mutex_);
    builds_[slot(*d)] = std::move(build);
  }
  return all;
}

}  // namespace vkcl::opencl
