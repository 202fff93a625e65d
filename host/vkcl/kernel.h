// One kernel of a Program with its arguments, ready for Device::run or CommandList::enqueue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reflection.h"

namespace vkcl {

class Buffer;
namespace detail {
struct BufferState;
struct ProgramState;
}

// Copyable: a copy has its own argument values. Arguments are checked
// against the reflection when set; run() and CommandList::enqueue() check
// that all are set and that every buffer still exists.
class Kernel {
 public:
  const std::string& name() const;
  const KernelReflection& reflection() const;
  // Throws Error when the kernel has no argument of that name.
  uint32_t arg_index(std::string_view arg_name) const;

  // Global or constant pointer: the buffer's address plus `offset` bytes,
  // which must be inside the buffer and aligned as the pointee requires (the
  // reflection does not record the pointee, so only the range is checked).
  // `buffer` may be a view (Buffer::view), even a temporary one: the
  // argument holds the allocation, as weakly as it holds any buffer.
  void set_arg(uint32_t index, const Buffer& buffer, size_t offset = 0);
  // Scalar (or struct passed by value): sizeof(T) must be the reflected size.
  template <typename T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<std::remove_cvref_t<T>, Buffer>)
  void set_arg(uint32_t index, const T& value) {
    set_arg_bytes(index, std::as_bytes(std::span(&value, 1)));
  }
  void set_arg_bytes(uint32_t index, std::span<const std::byte> bytes);
  // __local pointer: `bytes` must be a nonzero multiple of the element size.
  void set_local_arg(uint32_t index, size_t bytes);
  // Global or constant pointer: NULL (OpenCL's clSetKernelArg with a NULL
  // buffer). A storage-buffer argument cannot be null, so the kernel then
  // runs from the program's module that passes pointers by address; without
  // one (Program's by_address), this throws Error.
  void set_null_arg(uint32_t index);

  void set_arg(std::string_view arg_name, const Buffer& buffer, size_t offset = 0) {
    set_arg(arg_index(arg_name), buffer, offset);
  }
  template <typename T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<std::remove_cvref_t<T>, Buffer>)
  void set_arg(std::string_view arg_name, const T& value) {
    set_arg_bytes(arg_index(arg_name), std::as_bytes(std::span(&value, 1)));
  }
  void set_local_arg(std::string_view arg_name, size_t bytes) { set_local_arg(arg_index(arg_name), bytes); }

 private:
  struct ArgValue {
    bool set = false;
    std::weak_ptr<detail::BufferState> buffer;  // weak: a destroyed buffer is an error at run(), not a fault
    uint64_t offset = 0;
    uint32_t local_length = 0;  // elements, for __local pointers
    uint64_t range = 0;         // bytes from `offset` to the end of the buffer or view
    std::vector<std::byte> bytes;  // a scalar's value
    // A storage-buffer argument the device cannot bind: the kernel runs from
    // the program's module that passes pointers by address (Program).
    bool needs_address = false;
    bool null = false;  // a NULL pointer (set_null_arg)
  };
  Kernel(std::shared_ptr<detail::ProgramState> program, uint32_t kernel_index);
  std::string describe_arg(uint32_t index) const;
  // The argument bytes for `k`, the same kernel in another module of the program.
  std::vector<std::byte> arguments_for(const KernelReflection& k) const;
  const KernelArg& arg(uint32_t index) const;

  std::shared_ptr<detail::ProgramState> program_;
  uint32_t kernel_index_ = 0;
  // Argument bytes at their reflected offsets: the push-constant block (whose
  // ND-range fields are filled per dispatch), or the argument buffer's
  // contents when the kernel has one (copied into it at each submit).
  std::vector<std::byte> arguments_;
  std::vector<ArgValue> args_;
  friend class Program;
  friend class CommandList;  // enqueue() snapshots the argument values
};

}  // namespace vkcl
