// The dispatch entries of what the ICD does not implement yet (contexts,
// queues, memory, programs, kernels, events, images, samplers, SVM, GL and
// EGL sharing): each returns CL_INVALID_OPERATION, through *errcode_ret for
// the functions that return an object, and a null object. An entry is never
// left null: ocl-icd calls through the table without checking, so a null
// entry would be a crash in the application rather than an error.
#pragma once

#include <tuple>
#include <type_traits>

#include "icd.h"

namespace vkcl::opencl {

template <typename Function>
struct NotYet;

template <typename R, typename... A>
struct NotYet<R(CL_API_CALL*)(A...)> {
  static R CL_API_CALL call(A... args) {
    ((void)args, ...);
    if constexpr (std::is_same_v<R, cl_int>) {
      return CL_INVALID_OPERATION;
    } else if constexpr (std::is_void_v<R>) {
      return;  // clSVMFree: nothing to report through
    } else {
      // Functions that return an object take cl_int* errcode_ret last.
      if constexpr (sizeof...(A) > 0) {
        using Last = std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>;
        if constexpr (std::is_same_v<Last, cl_int*>) {
          cl_int* errcode_ret = std::get<sizeof...(A) - 1>(std::tuple<A...>(args...));
          if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
        }
      }
      return R{};
    }
  }
};

// Entries of other operating systems' sharing extensions (Direct3D, DX9),
// which cl_icd.h declares as void* here: null.
template <>
struct NotYet<void*> {
  static constexpr void* call = nullptr;
};

}  // namespace vkcl::opencl
