// The CL objects that applications create and release (contexts, queues,
// memory, programs, kernels, events): their handles, their two reference
// counts, and how an entry point turns a handle back into its object.
//
// Two counts, as the specification asks. The application's count
// (clRetain*/clRelease*, CL_*_REFERENCE_COUNT) says when the handle dies;
// vkcl's own references (a queue's context, a command's buffers, an event's
// context) keep the object alive after that for as long as work needs it,
// so that releasing a buffer with a kernel still reading it is safe and the
// buffer's destructor callbacks run once the memory is really gone. The
// application's references hold one of vkcl's between them.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

#include "icd.h"

namespace vkcl::opencl {

// What kind of object a handle is, read before the object is trusted:
// applications pass a handle of one kind where another is expected, and the
// CTS checks that this is an error, not a crash.
enum class Kind : uint32_t {
  context = 0x7c1c0001,
  queue,
  memory,
  program,
  kernel,
  event,
};

class Object {
 public:
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // The application's count (clRetain*, clRelease*).
  void retain_api() { api_refs_.fetch_add(1, std::memory_order_relaxed); }
  // Returns false when the count was already 0 (a release too many). With
  // `destroy` false, the last release leaves the object be (Platform::exiting).
  bool release_api(bool destroy = true) {
    cl_uint n = api_refs_.load(std::memory_order_relaxed);
    do {
      if (n == 0) return false;
    } while (!api_refs_.compare_exchange_weak(n, n - 1, std::memory_order_acq_rel));
    if (n == 1 && destroy) {
      on_api_release();
      release();
    }
    return true;
  }
  cl_uint api_reference_count() const { return api_refs_.load(std::memory_order_relaxed); }

  // vkcl's own references (Ref<T>).
  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

 protected:
  Object() = default;
  virtual ~Object() = default;
  // Called when the application's count reaches 0, before vkcl's share of
  // the references goes (a queue flushes itself here).
  virtual void on_api_release() {}

 private:
  std::atomic<cl_uint> api_refs_{1};
  std::atomic<uint32_t> refs_{1};  // 1: the application's references, together
};

// An owning reference to an Object of type T.
template <typename T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  // Adopts a reference the caller already holds (a new object's first).
  static Ref adopt(T* object) {
    Ref r;
    r.object_ = object;
    return r;
  }
  explicit Ref(T* object) : object_(object) {
    if (object_) object_->retain();
  }
  Ref(const Ref& other) : Ref(other.object_) {}
  Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  template <typename U>
    requires std::is_convertible_v<U*, T*>
  Ref(const Ref<U>& other) : Ref(other.get()) {}
  Ref& operator=(Ref other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() {
    if (object_) object_->release();
  }
  T* get() const { return object_; }
  T* operator->() const { return object_; }
  T& operator*() const { return *object_; }
  explicit operator bool() const { return object_ != nullptr; }
  bool operator==(const Ref& other) const { return object_ == other.object_; }

 private:
  T* object_ = nullptr;
};

// A handle as every vkcl CL object's begins: the ICD dispatch table first,
// where the loader reads it, then the kind, then the object.
template <typename T>
struct HandleFields {
  const cl_icd_dispatch* dispatch;
  Kind kind;
  T* object;
};

}  // namespace vkcl::opencl

namespace vkcl::opencl {
class Context;
class Queue;
class Memory;
class Program;
class Kernel;
class Event;
}  // namespace vkcl::opencl

// The handle types cl.h declares as pointers to these incomplete structs.
struct _cl_context : vkcl::opencl::HandleFields<vkcl::opencl::Context> {};
struct _cl_command_queue : vkcl::opencl::HandleFields<vkcl::opencl::Queue> {};
struct _cl_mem : vkcl::opencl::HandleFields<vkcl::opencl::Memory> {};
struct _cl_program : vkcl::opencl::HandleFields<vkcl::opencl::Program> {};
struct _cl_kernel : vkcl::opencl::HandleFields<vkcl::opencl::Kernel> {};
struct _cl_event : vkcl::opencl::HandleFields<vkcl::opencl::Event> {};

namespace vkcl::opencl {

template <typename T>
struct HandleOf;
template <> struct HandleOf<Context> { using type = _cl_context; static constexpr Kind kind = Kind::context; };
template <> struct HandleOf<Queue> { using type = _cl_command_queue; static constexpr Kind kind = Kind::queue; };
template <> struct HandleOf<Memory> { using type = _cl_mem; static constexpr Kind kind = Kind::memory; };
template <> struct HandleOf<Program> { using type = _cl_program; static constexpr Kind kind = Kind::program; };
template <> struct HandleOf<Kernel> { using type = _cl_kernel; static constexpr Kind kind = Kind::kernel; };
template <> struct HandleOf<Event> { using type = _cl_event; static constexpr Kind kind = Kind::event; };

// The handle an object T gives out; an Object of kind T has one member
// `handle` of this type.
template <typename T>
typename HandleOf<T>::type make_handle(T* object) {
  typename HandleOf<T>::type h;
  h.dispatch = &kDispatch;
  h.kind = HandleOf<T>::kind;
  h.object = object;
  return h;
}

// The object behind a handle, or null when the handle is null or not a
// vkcl object of kind T (the caller returns CL_INVALID_<KIND>).
template <typename T>
T* lookup(typename HandleOf<T>::type* handle) {
  if (handle == nullptr || handle->dispatch != &kDispatch || handle->kind != HandleOf<T>::kind) return nullptr;
  // Released by the application, though vkcl may still hold it for work in flight.
  if (handle->object->api_reference_count() == 0) return nullptr;
  return handle->object;
}

// clRetain* / clRelease* for any object kind.
template <typename T>
cl_int retain_handle(typename HandleOf<T>::type* handle, cl_int invalid) {
  T* object = lookup<T>(handle);
  if (!object) return invalid;
  object->retain_api();
  return CL_SUCCESS;
}
// After exit has begun, a release only counts (Platform::exiting says why).
bool process_is_exiting();
template <typename T>
cl_int release_handle(typename HandleOf<T>::type* handle, cl_int invalid) {
  T* object = lookup<T>(handle);
  if (!object || !object->release_api(!process_is_exiting())) return invalid;
  return CL_SUCCESS;
}

}  // namespace vkcl::opencl
