// clGet*Info's answers: a value as bytes, and the copy out that every query
// shares (param_value_size checks, param_value_size_ret).
#pragma once

#include <cstddef>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "icd.h"

namespace vkcl::opencl {

// The bytes of one answer.
struct InfoValue {
  std::vector<std::byte> bytes;
};

// A scalar (cl_uint, size_t, cl_bool, a bitfield, a handle) of the type T
// the specification gives the query.
template <typename T>
InfoValue of(T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  InfoValue v;
  v.bytes.resize(sizeof(T));
  std::memcpy(v.bytes.data(), &value, sizeof(T));
  return v;
}

// An array of T (possibly empty: param_value_size_ret is then 0).
template <typename T>
InfoValue array_of(const std::vector<T>& values) {
  InfoValue v;
  v.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(v.bytes.data(), values.data(), v.bytes.size());
  return v;
}

// A string, with its terminating NUL.
inline InfoValue text(std::string_view s) {
  InfoValue v;
  v.bytes.resize(s.size() + 1);
  std::memcpy(v.bytes.data(), s.data(), s.size());
  return v;
}

// Copies an answer out as every clGet*Info does. param_value_size_ret gets
// the answer's size whenever it is given, even when param_value_size is too
// small (CL_INVALID_VALUE): the size is right either way.
inline cl_int copy_out(const InfoValue& value, size_t param_value_size, void* param_value,
                       size_t* param_value_size_ret) {
  if (param_value_size_ret) *param_value_size_ret = value.bytes.size();
  if (param_value) {
    if (param_value_size < value.bytes.size()) return CL_INVALID_VALUE;
    if (!value.bytes.empty()) std::memcpy(param_value, value.bytes.data(), value.bytes.size());
  }
  return CL_SUCCESS;
}

// The same for a query that may be unknown (nullopt): CL_INVALID_VALUE.
inline cl_int copy_out(const std::optional<InfoValue>& value, size_t param_value_size, void* param_value,
                       size_t* param_value_size_ret) {
  if (!value) return CL_INVALID_VALUE;
  return copy_out(*value, param_value_size, param_value, param_value_size_ret);
}

}  // namespace vkcl::opencl
