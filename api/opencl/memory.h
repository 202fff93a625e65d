// Memory objects: buffers and sub-buffers.
//
// A buffer's bytes live in one runtime Buffer (vkcl::Buffer: device-local
// with staging on discrete GPUs, the host's memory on CPU devices and
// integrated GPUs) per device of its context. With several devices, each
// allocation is a copy, and the buffer remembers which copies hold the
// latest contents: a command on a device whose copy is stale first brings
// the contents over (through the host), and a command that may write makes
// its device's copy the only current one. A sub-buffer is a range of its
// parent's allocations.
//
// Mapping copies between an allocation and host memory that stays put for
// the buffer's life (the application's host_ptr for CL_MEM_USE_HOST_PTR, as
// the specification requires, else memory of vkcl's), so that every map of
// one range returns one pointer.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "context.h"
#include "object.h"
#include "vkcl/buffer.h"

namespace vkcl::opencl {

class Memory final : public Object {
 public:
  using DestructorCallback = void(CL_CALLBACK*)(cl_mem memobj, void* user_data);

  // A buffer (flags checked by the caller); `host_ptr` as given.
  Memory(Ref<Context> context, cl_mem_flags flags, size_t size, void* host_ptr,
         std::vector<cl_mem_properties> properties);
  // A sub-buffer of `parent` (a buffer, not a sub-buffer).
  Memory(Memory& parent, cl_mem_flags flags, size_t origin, size_t size);

  _cl_mem handle = make_handle(this);
  Context& context() const { return *context_; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  // Where the sub-buffer starts in its parent; 0 for a buffer.
  size_t origin() const { return origin_; }
  Memory* parent() const { return parent_.get(); }
  // CL_MEM_HOST_PTR: the application's host_ptr (CL_MEM_USE_HOST_PTR only),
  // offset by the origin for a sub-buffer.
  void* host_ptr() const;
  const std::vector<cl_mem_properties>& properties() const { return properties_; }
  cl_uint map_count() const;

  // Whether [offset, offset + size) of this object (not its parent) and of
  // `other` share bytes of one allocation.
  bool overlaps(const Memory& other, size_t offset, size_t other_offset, size_t size) const;

  // For commands, on the queue's worker thread, without `device.lock` held:
  // brings the latest contents to `device`'s allocation when they are on
  // another device's (taking each device's lock in turn, never two at once).
  void make_current(ContextDevice& device);
  // With `device.lock` held: the allocation on `device` and where this
  // object starts in it.
  vkcl::Buffer& allocation(ContextDevice& device);
  size_t offset_in_allocation() const { return origin_; }
  // After a command on `device` that may have written this object.
  void written_on(ContextDevice& device);

  // Maps: where [offset, offset + size) of this object is in host memory.
  std::byte* map_pointer(size_t offset);
  struct Mapping {
    std::byte* pointer;
    size_t offset, size;
    cl_map_flags flags;
  };
  void add_mapping(const Mapping& mapping);
  // Removes and returns the mapping at `pointer`; nullopt when none is.
  std::optional<Mapping> take_mapping(void* pointer);

  void add_destructor_callback(DestructorCallback callback, void* user_data);

 private:
  ~Memory() override;

  // What a buffer and its sub-buffers share: the allocations and the map
  // memory.
  struct Storage {
    std::vector<std::optional<vkcl::Buffer>> allocations;  // one per context device
    std::vector<bool> current;                             // which hold the latest contents
    std::mutex mutex;                                      // guards `current` and `host`
    std::unique_ptr<std::byte[]> host;                     // map memory, when not host_ptr
  };

  Ref<Context> context_;
  Ref<Memory> parent_;
  cl_mem_flags flags_;
  size_t size_, origin_ = 0;
  void* host_ptr_ = nullptr;
  std::vector<cl_mem_properties> properties_;
  std::shared_ptr<Storage> storage_;
  mutable std::mutex mutex_;  // maps and callbacks
  std::vector<Mapping> mappings_;
  std::vector<std::pair<DestructorCallback, void*>> destructor_callbacks_;
};

}  // namespace vkcl::opencl
