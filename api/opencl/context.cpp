// Contexts: clCreateContext(FromType), their properties, info, reference
// counting and destructor callbacks.
#include "context.h"

#include <algorithm>
#include <chrono>

#include "entry_points.h"
#include "errors.h"
#include "info.h"

namespace vkcl::opencl {
namespace {

// A CL command has no time limit, so neither has a wait of the runtime's:
// a day stands for none (the runtime needs a finite one).
constexpr std::chrono::milliseconds kNoTimeout = std::chrono::hours(24);

vkcl::Device open_runtime_device(const Device& device) {
  DeviceOptions options;
  options.selector = std::to_string(device.vulkan.index);
  options.timeout = kNoTimeout;
  return vkcl::Device::create(options);
}

// The properties as given (with their terminating 0), checked: only
// CL_CONTEXT_PLATFORM (which must be vkcl's) and CL_CONTEXT_INTEROP_USER_SYNC,
// each at most once.
std::vector<cl_context_properties> checked_properties(const cl_context_properties* properties) {
  std::vector<cl_context_properties> list;
  if (!properties) return list;
  bool platform_seen = false, sync_seen = false;
  for (const cl_context_properties* p = properties; *p; p += 2) {
    switch (p[0]) {
      case CL_CONTEXT_PLATFORM:
        require(!platform_seen, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
        platform_seen = true;
        require(Platform::get().owns(reinterpret_cast<cl_platform_id>(p[1])), CL_INVALID_PLATFORM,
                "CL_CONTEXT_PLATFORM is not vkcl's platform");
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        require(!sync_seen, CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
        require(p[1] == CL_TRUE || p[1] == CL_FALSE, CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC is not a cl_bool");
        sync_seen = true;
        break;
      default: throw ClError{CL_INVALID_PROPERTY, "unknown context property"};
    }
    list.insert(list.end(), {p[0], p[1]});
  }
  list.push_back(0);
  return list;
}

cl_context make_context(std::vector<const Device*> devices, const cl_context_properties* properties,
                        Context::Notify notify, void* user_data) {
  require(notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
  auto checked = checked_properties(properties);
  for (const Device* d : devices) require(d->available, CL_DEVICE_NOT_AVAILABLE, "device not available");
  try {
    auto* context = new Context(std::move(devices), std::move(checked), notify, user_data);
    return &context->handle;
  } catch (const vkcl::Error& e) {
    // The error code alone does not say which Vulkan call failed; pfn_notify
    // is the only channel to the application that the API has.
    if (notify) notify(e.what(), nullptr, 0, user_data);
    throw ClError{e.result() == VK_ERROR_OUT_OF_HOST_MEMORY ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES, e.what()};
  }
}

}  // namespace

Context::Context(std::vector<const Device*> devices, std::vector<cl_context_properties> properties, Notify notify,
                 void* user_data)
    : properties_(std::move(properties)), notify_(notify), user_data_(user_data) {
  auto workers = std::make_shared<CompileWorkers>();
  for (const Device* d : devices)
    devices_.push_back(std::unique_ptr<ContextDevice>(new ContextDevice{d, open_runtime_device(*d), {}, workers}));
}

Context::~Context() {
  // In reverse order of registration (clSetContextDestructorCallback).
  for (auto it = destructor_callbacks_.rbegin(); it != destructor_callbacks_.rend(); ++it) it->first(&handle, it->second);
}

ContextDevice* Context::find(const Device* device) const {
  for (const auto& d : devices_)
    if (d->device == device) return d.get();
  return nullptr;
}

ContextDevice* Context::find(cl_device_id device) const {
  const Device* d = Platform::get().find(device);
  return d ? find(d) : nullptr;
}

size_t Context::index_of(const ContextDevice& device) const {
  for (size_t i = 0; i < devices_.size(); ++i)
    if (devices_[i].get() == &device) return i;
  return devices_.size();
}

void Context::notify(const char* message) const {
  if (notify_) notify_(message, nullptr, 0, user_data_);
}

void Context::add_destructor_callback(DestructorCallback callback, void* user_data) {
  std::lock_guard lock(callbacks_lock_);
  destructor_callbacks_.emplace_back(callback, user_data);
}

cl_context CL_API_CALL create_context(const cl_context_properties* properties, cl_uint num_devices,
                                      const cl_device_id* devices, Context::Notify pfn_notify, void* user_data,
                                      cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    require(devices && num_devices, CL_INVALID_VALUE, "no devices");
    std::vector<const Device*> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
      const Device* d = Platform::get().find(devices[i]);
      require(d, CL_INVALID_DEVICE, "not a vkcl device");
      // A device listed twice is one device of the context.
      if (std::find(list.begin(), list.end(), d) == list.end()) list.push_back(d);
    }
    return make_context(std::move(list), properties, pfn_notify, user_data);
  });
}

cl_context CL_API_CALL create_context_from_type(const cl_context_properties* properties, cl_device_type device_type,
                                                Context::Notify pfn_notify, void* user_data, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    cl_uint count = 0;
    cl_int found = get_device_ids(nullptr, device_type, 0, nullptr, &count);
    require(found == CL_SUCCESS, found, "no device of that type");
    std::vector<cl_device_id> ids(count);
    get_device_ids(nullptr, device_type, count, ids.data(), nullptr);
    std::vector<const Device*> list;
    for (cl_device_id id : ids) list.push_back(Platform::get().find(id));
    return make_context(std::move(list), properties, pfn_notify, user_data);
  });
}

cl_int CL_API_CALL retain_context(cl_context context) { return retain_handle<Context>(context, CL_INVALID_CONTEXT); }
cl_int CL_API_CALL release_context(cl_context context) { return release_handle<Context>(context, CL_INVALID_CONTEXT); }

cl_int CL_API_CALL get_context_info(cl_context context, cl_context_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_CONTEXT_REFERENCE_COUNT: value = of<cl_uint>(c.api_reference_count()); break;
      case CL_CONTEXT_NUM_DEVICES: value = of<cl_uint>(static_cast<cl_uint>(c.device_count())); break;
      case CL_CONTEXT_DEVICES: {
        std::vector<cl_device_id> ids;
        for (size_t i = 0; i < c.device_count(); ++i) ids.push_back(const_cast<cl_device_id>(&c.device(i).device->handle));
        value = array_of(ids);
        break;
      }
      case CL_CONTEXT_PROPERTIES: value = array_of(c.properties()); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL set_context_destructor_callback(cl_context context, Context::DestructorCallback pfn_notify,
                                                   void* user_data) {
  return guard([&] {
    Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    require(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    c.add_destructor_callback(pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

}  // namespace vkcl::opencl
