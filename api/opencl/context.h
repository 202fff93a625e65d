// A context: the devices it was made for, each with the runtime's device
// (vkcl::Device, a VkDevice of its own) that its queues, buffers and
// programs use.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "object.h"
#include "vkcl/compile_worker.h"
#include "vkcl/device.h"

namespace vkcl::opencl {

// One device of a context. The runtime's Device is not thread-safe (one
// thread at a time), so every call into it, from any queue's worker or any
// API thread of this context, holds `lock`.
struct ContextDevice {
  const Device* device;  // the platform's
  vkcl::Device runtime;
  std::mutex lock;
  // The context's compile workers, kept running between builds (one set for
  // all its devices; they compile for any): a process start per build cost
  // the CTS more than its compiles.
  std::shared_ptr<CompileWorkers> compile_workers;
};

class Context final : public Object {
 public:
  using Notify = void(CL_CALLBACK*)(const char* errinfo, const void* private_info, size_t cb, void* user_data);
  using DestructorCallback = void(CL_CALLBACK*)(cl_context context, void* user_data);

  // Throws vkcl::Error when a device's VkDevice cannot be created.
  Context(std::vector<const Device*> devices, std::vector<cl_context_properties> properties, Notify notify,
          void* user_data);

  _cl_context handle = make_handle(this);
  const std::vector<cl_context_properties>& properties() const { return properties_; }
  size_t device_count() const { return devices_.size(); }
  ContextDevice& device(size_t i) const { return *devices_[i]; }
  // The context's entry for a platform device; null when it is not one of this context's.
  ContextDevice* find(const Device* device) const;
  ContextDevice* find(cl_device_id device) const;
  // The position of `device` among the context's devices (for per-device state).
  size_t index_of(const ContextDevice& device) const;

  // Reports an error to the application's pfn_notify, if it gave one.
  void notify(const char* message) const;
  void add_destructor_callback(DestructorCallback callback, void* user_data);

 private:
  ~Context() override;

  std::vector<std::unique_ptr<ContextDevice>> devices_;
  std::vector<cl_context_properties> properties_;
  Notify notify_;
  void* user_data_;
  std::mutex callbacks_lock_;
  std::vector<std::pair<DestructorCallback, void*>> destructor_callbacks_;
};

}  // namespace vkcl::opencl
