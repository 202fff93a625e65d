// Buffers and sub-buffers: creation with every flag, their allocations on
// the context's devices, coherence between those, maps' host memory, info
// queries and destructor callbacks.
#include "memory.h"

#include <algorithm>
#include <cstring>

#include "entry_points.h"
#include "errors.h"
#include "info.h"

namespace vkcl::opencl {

Memory::Memory(Ref<Context> context, cl_mem_flags flags, size_t size, void* host_ptr,
               std::vector<cl_mem_properties> properties)
    : context_(std::move(context)), flags_(flags), size_(size), properties_(std::move(properties)) {
  if (flags & CL_MEM_USE_HOST_PTR) host_ptr_ = host_ptr;
  storage_ = std::make_shared<Storage>();
  const size_t devices = context_->device_count();
  storage_->allocations.resize(devices);
  storage_->current.assign(devices, true);
  for (size_t i = 0; i < devices; ++i) {
    ContextDevice& d = context_->device(i);
    std::lock_guard lock(d.lock);
    try {
      storage_->allocations[i].emplace(d.runtime, size);
      // A new allocation's bytes are undefined; CL's too, unless copied from
      // the host, but zeros make a bug that reads them repeatable.
      if (host_ptr && (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)))
        storage_->allocations[i]->write(std::span(static_cast<const std::byte*>(host_ptr), size));
    } catch (const vkcl::Error& e) {
      throw ClError{code_of(e, CL_MEM_OBJECT_ALLOCATION_FAILURE), e.what()};
    }
  }
}

Memory::Memory(Memory& parent, cl_mem_flags flags, size_t origin, size_t size)
    : context_(&parent.context()),
      parent_(&parent),
      flags_(flags),
      size_(size),
      origin_(origin),
      host_ptr_(parent.host_ptr_ ? static_cast<std::byte*>(parent.host_ptr_) + origin : nullptr),
      storage_(parent.storage_) {}

Memory::~Memory() {
  // In reverse order of registration, once the memory is gone (the
  // allocations go with the last of the buffer and its sub-buffers).
  auto callbacks = std::move(destructor_callbacks_);
  storage_.reset();
  for (auto it = callbacks.rbegin(); it != callbacks.rend(); ++it) it->first(&handle, it->second);
}

void* Memory::host_ptr() const { return host_ptr_; }

cl_uint Memory::map_count() const {
  std::lock_guard lock(mutex_);
  return static_cast<cl_uint>(mappings_.size());
}

bool Memory::overlaps(const Memory& other, size_t offset, size_t other_offset, size_t size) const {
  if (storage_ != other.storage_) return false;
  const size_t a = origin_ + offset, b = other.origin_ + other_offset;
  return a < b + size && b < a + size;
}

void Memory::make_current(ContextDevice& device) {
  Storage& s = *storage_;
  const size_t to = context_->index_of(device);
  size_t from;
  {
    std::lock_guard lock(s.mutex);
    if (s.current[to]) return;
    from = std::find(s.current.begin(), s.current.end(), true) - s.current.begin();
  }
  // Through the host, one device's lock at a time: a worker of the other
  // device may be waiting for this one's.
  const size_t whole = s.allocations[to]->size();
  std::vector<std::byte> bytes(whole);
  {
    ContextDevice& source = context_->device(from);
    std::lock_guard lock(source.lock);
    s.allocations[from]->read(bytes);
  }
  {
    std::lock_guard lock(device.lock);
    s.allocations[to]->write(bytes);
  }
  std::lock_guard lock(s.mutex);
  s.current[to] = true;
}

vkcl::Buffer& Memory::allocation(ContextDevice& device) { return *storage_->allocations[context_->index_of(device)]; }

void Memory::written_on(ContextDevice& device) {
  Storage& s = *storage_;
  if (s.current.size() == 1) return;
  std::lock_guard lock(s.mutex);
  std::fill(s.current.begin(), s.current.end(), false);
  s.current[context_->index_of(device)] = true;
}

std::byte* Memory::map_pointer(size_t offset) {
  if (host_ptr_) return static_cast<std::byte*>(host_ptr_) + offset;
  Storage& s = *storage_;
  std::lock_guard lock(s.mutex);
  if (!s.host) s.host = std::make_unique<std::byte[]>(s.allocations.front()->size());
  return s.host.get() + origin_ + offset;
}

void Memory::add_mapping(const Mapping& mapping) {
  std::lock_guard lock(mutex_);
  mappings_.push_back(mapping);
}

std::optional<Memory::Mapping> Memory::take_mapping(void* pointer) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(mappings_.begin(), mappings_.end(), [&](const Mapping& m) { return m.pointer == pointer; });
  if (it == mappings_.end()) return std::nullopt;
  Mapping m = *it;
  mappings_.erase(it);
  return m;
}

void Memory::add_destructor_callback(DestructorCallback callback, void* user_data) {
  std::lock_guard lock(mutex_);
  destructor_callbacks_.emplace_back(callback, user_data);
}

// Entry points.

namespace {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kBufferFlags = kAccessFlags | kHostAccessFlags | kHostPtrFlags;

bool at_most_one(cl_mem_flags flags) { return (flags & (flags - 1)) == 0; }

void check_flags(cl_mem_flags flags) {
  require(!(flags & ~kBufferFlags), CL_INVALID_VALUE, "unknown memory flags");
  require(at_most_one(flags & kAccessFlags), CL_INVALID_VALUE, "more than one of READ_WRITE, WRITE_ONLY, READ_ONLY");
  require(at_most_one(flags & kHostAccessFlags), CL_INVALID_VALUE, "more than one host access flag");
  require(!((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))), CL_INVALID_VALUE,
          "CL_MEM_USE_HOST_PTR with ALLOC_HOST_PTR or COPY_HOST_PTR");
}

cl_mem make_buffer(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags, size_t size,
                   void* host_ptr) {
  Context& c = get<Context>(context, CL_INVALID_CONTEXT);
  std::vector<cl_mem_properties> list;
  if (properties) {
    // No buffer property is supported (cl_khr_external_memory and the like).
    require(properties[0] == 0, CL_INVALID_PROPERTY, "unknown memory property");
    list.push_back(0);
  }
  check_flags(flags);
  const bool needs_host_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  require(needs_host_ptr == (host_ptr != nullptr), CL_INVALID_HOST_PTR,
          "host_ptr must be given exactly with USE_HOST_PTR or COPY_HOST_PTR");
  require(size != 0, CL_INVALID_BUFFER_SIZE, "size is 0");
  for (size_t i = 0; i < c.device_count(); ++i)
    require(size <= c.device(i).device->vulkan.max_allocation_size, CL_INVALID_BUFFER_SIZE,
            "size is above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  auto* memory = new Memory(Ref<Context>(&c), flags, size, host_ptr, std::move(list));
  return &memory->handle;
}

}  // namespace

cl_mem CL_API_CALL create_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                 cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] { return make_buffer(context, nullptr, flags, size, host_ptr); });
}

cl_mem CL_API_CALL create_buffer_with_properties(cl_context context, const cl_mem_properties* properties,
                                                 cl_mem_flags flags, size_t size, void* host_ptr,
                                                 cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] { return make_buffer(context, properties, flags, size, host_ptr); });
}

cl_mem CL_API_CALL create_sub_buffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    Memory& parent = get<Memory>(buffer, CL_INVALID_MEM_OBJECT);
    require(!parent.parent(), CL_INVALID_MEM_OBJECT, "a sub-buffer of a sub-buffer");
    check_flags(flags);
    require(!(flags & kHostPtrFlags), CL_INVALID_VALUE, "host pointer flags on a sub-buffer");
    const cl_mem_flags p = parent.flags();
    // Access: inherited when not given, and no more than the parent's.
    if (!(flags & kAccessFlags)) flags |= p & kAccessFlags;
    require(!((p & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))), CL_INVALID_VALUE,
            "the parent is write-only");
    require(!((p & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))), CL_INVALID_VALUE,
            "the parent is read-only");
    if (!(flags & kHostAccessFlags)) flags |= p & kHostAccessFlags;
    require(!((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)), CL_INVALID_VALUE,
            "the parent is host write-only");
    require(!((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)), CL_INVALID_VALUE,
            "the parent is host read-only");
    require(!((p & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))),
            CL_INVALID_VALUE, "the parent has no host access");
    flags |= p & kHostPtrFlags;
    require(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE, "not CL_BUFFER_CREATE_TYPE_REGION");
    require(buffer_create_info, CL_INVALID_VALUE, "buffer_create_info is NULL");
    const auto& region = *static_cast<const cl_buffer_region*>(buffer_create_info);
    require(region.size != 0, CL_INVALID_BUFFER_SIZE, "the region's size is 0");
    require(region.origin <= parent.size() && region.size <= parent.size() - region.origin, CL_INVALID_VALUE,
            "the region is outside the buffer");
    bool aligned = false;
    for (size_t i = 0; i < parent.context().device_count(); ++i)
      aligned |= region.origin % vkcl::Buffer::view_alignment(parent.context().device(i).runtime) == 0;
    require(aligned, CL_MISALIGNED_SUB_BUFFER_OFFSET, "origin is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN");
    auto* memory = new Memory(parent, flags, region.origin, region.size);
    return &memory->handle;
  });
}

cl_int CL_API_CALL retain_mem_object(cl_mem memobj) { return retain_handle<Memory>(memobj, CL_INVALID_MEM_OBJECT); }
cl_int CL_API_CALL release_mem_object(cl_mem memobj) { return release_handle<Memory>(memobj, CL_INVALID_MEM_OBJECT); }

cl_int CL_API_CALL set_mem_object_destructor_callback(cl_mem memobj, Memory::DestructorCallback pfn_notify,
                                                      void* user_data) {
  return guard([&] {
    Memory& m = get<Memory>(memobj, CL_INVALID_MEM_OBJECT);
    require(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    m.add_destructor_callback(pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL get_mem_object_info(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                       void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Memory& m = get<Memory>(memobj, CL_INVALID_MEM_OBJECT);
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_MEM_TYPE: value = of<cl_mem_object_type>(CL_MEM_OBJECT_BUFFER); break;
      case CL_MEM_FLAGS: value = of<cl_mem_flags>(m.flags()); break;
      case CL_MEM_SIZE: value = of<size_t>(m.size()); break;
      case CL_MEM_HOST_PTR: value = of<void*>(m.host_ptr()); break;
      case CL_MEM_MAP_COUNT: value = of<cl_uint>(m.map_count()); break;
      case CL_MEM_REFERENCE_COUNT: value = of<cl_uint>(m.api_reference_count()); break;
      case CL_MEM_CONTEXT: value = of<cl_context>(&m.context().handle); break;
      case CL_MEM_ASSOCIATED_MEMOBJECT: value = of<cl_mem>(m.parent() ? &m.parent()->handle : nullptr); break;
      case CL_MEM_OFFSET: value = of<size_t>(m.origin()); break;
      case CL_MEM_USES_SVM_POINTER: value = of<cl_bool>(CL_FALSE); break;
      case CL_MEM_PROPERTIES: value = array_of(m.properties()); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

}  // namespace vkcl::opencl
