// How entry points fail: one error style for the whole ICD. Inside, a
// failure is an exception (ClError with the specification's code, or what
// the runtime and the standard library throw); at the API boundary guard()
// turns it into the cl_int the application reads. No exception crosses
// into the application or the loader.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "object.h"
#include "vkcl/error.h"

namespace vkcl::opencl {

// An error code the specification lists for the call, with why (for the
// context's notify callback and for tests).
struct ClError {
  cl_int code;
  std::string why;
};

// The code for what the runtime threw: running out of device memory is
// CL_MEM_OBJECT_ALLOCATION_FAILURE where memory was being allocated (the
// caller says), out of host memory is CL_OUT_OF_HOST_MEMORY, and anything
// else the device could not do is CL_OUT_OF_RESOURCES.
inline cl_int code_of(const vkcl::Error& e, cl_int out_of_device_memory = CL_OUT_OF_RESOURCES) {
  switch (e.result()) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return CL_OUT_OF_HOST_MEMORY;
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return out_of_device_memory;
    default: return CL_OUT_OF_RESOURCES;
  }
}

// The code of the exception being handled.
inline cl_int current_error_code() {
  try {
    throw;
  } catch (const ClError& e) {
    return e.code;
  } catch (const vkcl::Error& e) {
    return code_of(e);
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

// The text of the exception being handled, for a context's pfn_notify.
inline std::string current_error_message() {
  try {
    throw;
  } catch (const ClError& e) {
    return e.why;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

// Runs an entry point's body, which returns CL_SUCCESS or throws.
template <typename Body>
cl_int guard(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return current_error_code();
  }
}

// The same for an entry point that returns an object and reports through
// errcode_ret: null and the code on failure.
template <typename Body>
auto guard_object(cl_int* errcode_ret, Body&& body) noexcept -> decltype(body()) {
  try {
    auto object = body();
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return object;
  } catch (...) {
    if (errcode_ret) *errcode_ret = current_error_code();
    return nullptr;
  }
}

// Throws ClError{code} unless `condition` holds.
inline void require(bool condition, cl_int code, const char* why = "") {
  if (!condition) throw ClError{code, why};
}

// The object behind a handle of kind T, or ClError{invalid}.
template <typename T>
T& get(typename HandleOf<T>::type* handle, cl_int invalid) {
  T* object = lookup<T>(handle);
  if (!object) throw ClError{invalid, "not a valid handle"};
  return *object;
}

}  // namespace vkcl::opencl
