// Storage for kernel arguments, reached by the kernel through its device address.
#pragma once

#include <cstddef>
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

// A storage buffer with a device address, in host-visible coherent memory
// (device-local as well where the device offers that), mapped for its whole
// life. The host may read and write it whenever no run() is in flight, which
// is always, since run() waits.
class Buffer {
 public:
  Buffer(Device& device, size_t bytes);
  Buffer(Buffer&&) noexcept;
  Buffer& operator=(Buffer&&) noexcept;
  ~Buffer();

  size_t size() const;
  VkDeviceAddress address() const;

  // Offsets in bytes; the range must lie inside the buffer.
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
  void fill(std::byte value);

 private:
  std::shared_ptr<detail::BufferState> state_;
  friend class Kernel;
};

}  // namespace vkcl
