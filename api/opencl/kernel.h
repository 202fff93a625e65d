// Kernels: one kernel of a built program, its argument values (set by
// clSetKernelArg, kept here until an enqueue fixes them) and the runtime's
// kernel on each device the program was built for.
#pragma once

#include <mutex>
#include <optional>
#include <vector>

#include "memory.h"
#include "object.h"
#include "program.h"
#include "vkcl/kernel.h"

namespace vkcl::opencl {

struct KernelArgValue {
  bool set = false;
  // A buffer argument; null for a NULL buffer. Not a reference: a kernel
  // does not keep its arguments alive (the CTS's
  // retain_mem_object_set_kernel_arg releases the buffer and waits for its
  // destructor callback while the kernel still names it); an enqueue takes
  // its own references.
  Memory* memory = nullptr;
  size_t local_bytes = 0;       // a __local argument
  std::vector<std::byte> bytes;  // a scalar or struct
};

class Kernel final : public Object {
 public:
  // Throws ClError{CL_INVALID_KERNEL_NAME} when no build has it.
  Kernel(Ref<Program> program, std::string_view name);
  Kernel(const Kernel& other);  // clCloneKernel: the same arguments

  _cl_kernel handle = make_handle(this);
  Program& program() const { return *program_; }
  Context& context() const { return program_->context(); }
  const KernelReflection& reflection() const { return reflection_; }

  // clSetKernelArg's checks and the value.
  void set_arg(cl_uint index, size_t size, const void* value);
  std::vector<KernelArgValue> args() const;
  // The runtime's kernel on `device` with the arguments as they are now;
  // null when the program has no build for the device. The caller holds
  // `device.lock`.
  std::optional<vkcl::Kernel> runtime_kernel(const ContextDevice& device) const;
  // The program's build options for `device` (-cl-uniform-work-group-size, ...).
  BuildOptions build_options(const ContextDevice& device) const;
  // clGetKernelArgInfo may answer: the program was built from OpenCL C
  // source (or linked from it) with -cl-kernel-arg-info, as the
  // specification asks; and CL_KERNEL_ATTRIBUTES is not empty only for a
  // kernel from OpenCL C source.
  bool arg_info_available() const { return arg_info_available_; }
  bool from_source() const { return from_source_; }

 private:
  ~Kernel() override;

  Ref<Program> program_;
  KernelReflection reflection_;
  bool from_source_ = false;
  bool arg_info_available_ = false;
  mutable std::mutex mutex_;
  std::vector<KernelArgValue> args_;
};

// CL_KERNEL_WORK_GROUP_SIZE: reqd_work_group_size's product where the
// kernel has one, else the device's largest work-group.
size_t max_work_group_size(const Kernel& k, const ContextDevice& d);

}  // namespace vkcl::opencl
