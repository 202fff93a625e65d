// Storage for kernel arguments, reached by the kernel through its device address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include <volk.h>

namespace vkcl {

class Device;
namespace detail {
struct BufferState;
}

// Where a Buffer's bytes live, and so how the host reaches them.
enum class Memory {
  // HostVisible on devices whose memory is the host's anyway (integrated
  // GPUs, CPU devices such as lavapipe, any device whose every heap is
  // device-local), where a staging copy would be pure overhead; DeviceLocal
  // on the rest (discrete GPUs), where kernels read their own memory far
  // faster than the host's across the bus.
  Auto,
  // Device-local memory that the host never maps, even where the device
  // could: read() and write() go through a staging buffer and a transfer on
  // the device's queue, waiting up to Device::timeout().
  DeviceLocal,
  // Host-visible coherent memory, mapped for the buffer's life
  // (device-local as well where the device offers that, falling back to
  // system memory when that heap is full): read() and write() are memcpy,
  // which never wait on the queue, so they work while a kernel runs, e.g.
  // to set a flag that a running kernel polls with an atomic load (Vulkan
  // guarantees such a write reaches the device only at the next submission;
  // in practice coherent memory carries it there as it is made).
  HostVisible,
};
const char* to_string(Memory memory);

struct BufferOptions {
  Memory memory = Memory::Auto;
};

// A storage buffer with a device address, or a view of part of one.
//
// Every operation is synchronous: read, write, fill and copy return when the
// bytes are where they were asked to be (fill and copy run on the device's
// queue, and wait up to Device::timeout()). Sizes and offsets are bytes;
// `whole` as a size means "to the end of the buffer". A bad size, offset or
// alignment throws an Error that names the argument and the limit.
class Buffer {
 public:
  static constexpr size_t whole = SIZE_MAX;

  // `bytes` must be nonzero and at most the device's maxMemoryAllocationSize.
  // Running out of memory is an Error naming the size and the heap(s) tried.
  Buffer(Device& device, size_t bytes, BufferOptions options = {});
  Buffer(Buffer&&) noexcept;
  Buffer& operator=(Buffer&&) noexcept;
  ~Buffer();

  size_t size() const;
  VkDeviceAddress address() const;
  // The kind of memory it got (never Auto); a view reports its allocation's.
  Memory memory() const;
  // Views: the offset into the allocation they look into; 0 for a buffer.
  size_t offset() const;
  bool is_view() const;

  // A Buffer that is bytes [offset, offset + size) of this one: a kernel
  // argument like any Buffer (its address is this one's plus offset), and
  // read, write, fill and copy stay inside it. It shares the allocation,
  // which lives as long as any buffer or view of it. `offset` must be a
  // multiple of view_alignment(), `size` nonzero and inside this buffer.
  Buffer view(size_t offset, size_t size = whole) const;
  // The alignment a view's offset needs: OpenCL C kernels may access a
  // pointer argument with any built-in type up to long16/double16, and clc
  // marks such accesses Aligned to the type's size, so a view must start
  // where the buffer itself could (OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  // at least minStorageBufferOffsetAlignment too. 128 on lavapipe.
  static size_t view_alignment(const Device& device);

  // The range must lie inside the buffer; 0 bytes is a no-op.
  void write(std::span<const std::byte> bytes, size_t offset = 0);
  void read(std::span<std::byte> bytes, size_t offset = 0) const;

  template <typename T>
    requires std::is_trivially_copyable_v<T>
  void write(const std::vector<T>& values, size_t offset = 0) {
    write(std::as_bytes(std::span(values)), offset);
  }
  template <typename T>
    requires std::is_trivially_copyable_v<T>
  std::vector<T> read(size_t count, size_t offset = 0) const {
    std::vector<T> values(count);
    read(std::as_writable_bytes(std::span(values)), offset);
    return values;
  }

  // Fills bytes [offset, offset + size) with copies of `pattern` on the
  // device, the first starting at `offset`. The pattern must have 1 to 65536
  // bytes, and size (nonzero) must be a whole number of patterns.
  void fill_pattern(std::span<const std::byte> pattern, size_t offset = 0, size_t size = whole);
  // fill(std::byte{0}), fill(1.0f), fill(uint16_t(7), 64, 128): the value's bytes as the pattern.
  template <typename T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<std::remove_cvref_t<T>, Buffer>)
  void fill(const T& value, size_t offset = 0, size_t size = whole) {
    fill_pattern(std::as_bytes(std::span(&value, 1)), offset, size);
  }

  // Copies `size` bytes (nonzero) from `from` at `from_offset` to `to` at
  // `to_offset` on the device (OpenCL's clEnqueueCopyBuffer). Both ranges must
  // lie inside their buffers, the buffers must belong to one Device, and the
  // ranges must not overlap when both are in one allocation.
  static void copy(const Buffer& from, Buffer& to, size_t from_offset, size_t to_offset, size_t size);
  // All of `from` to the start of `to`, which must be at least as large.
  static void copy(const Buffer& from, Buffer& to);

 private:
  explicit Buffer(std::shared_ptr<detail::BufferState> state);
  std::shared_ptr<detail::BufferState> state_;
  friend class Kernel;
  friend class CommandList;
};

}  // namespace vkcl
