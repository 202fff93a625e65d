#include "vkcl/buffer.h"

#include <cstring>

#include "internal.h"
#include "vkcl/device.h"

namespace vkcl {
namespace detail {
namespace {

std::optional<uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed,
                                         VkMemoryPropertyFlags wanted) {
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  return std::nullopt;
}

void check_range(const BufferState& b, size_t offset, size_t bytes, const char* what) {
  if (offset > b.size || bytes > b.size - offset)
    throw Error(std::string("Buffer::") + what + ": bytes [" + std::to_string(offset) + ", " +
                std::to_string(offset + bytes) + ") are outside the buffer of " + std::to_string(b.size) + " bytes");
}

}  // namespace

BufferState::~BufferState() {
  const auto& vk = device->vk;
  if (buffer) vk.vkDestroyBuffer(device->device, buffer, nullptr);
  if (memory) vk.vkFreeMemory(device->device, memory, nullptr);
}

}  // namespace detail

Buffer::Buffer(Device& device, size_t bytes) {
  auto dev = device.state_;
  dev->check_usable();
  if (bytes == 0) throw Error("Buffer: size must not be 0");
  if (bytes > dev->max_allocation_size)
    throw Error("Buffer: " + std::to_string(bytes) + " bytes exceed the device's maxMemoryAllocationSize of " +
                std::to_string(dev->max_allocation_size));

  if (!dev->features.buffer_device_address)
    throw Error(std::string("Buffer: ") + dev->properties.deviceName +
                " lacks buffer_device_address, which vkcl needs to pass buffers to kernels");

  auto state = std::make_shared<detail::BufferState>();
  state->device = dev;
  state->size = bytes;
  const auto& vk = dev->vk;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  detail::check(vk.vkCreateBuffer(dev->device, &info, nullptr, &state->buffer), "vkCreateBuffer");

  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(dev->device, state->buffer, &requirements);
  constexpr VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  // Device-local and host-visible first (resizable BAR, unified memory); its
  // heap may be small, so an allocation that fails there falls back.
  std::vector<uint32_t> types;
  if (auto t = detail::find_memory_type(dev->memory, requirements.memoryTypeBits, host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
    types.push_back(*t);
  if (auto t = detail::find_memory_type(dev->memory, requirements.memoryTypeBits, host); t && (types.empty() || *t != types[0]))
    types.push_back(*t);
  if (types.empty()) throw Error("Buffer: the device has no host-visible coherent memory type for storage buffers");

  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
  allocate.allocationSize = requirements.size;
  VkResult result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t type : types) {
    allocate.memoryTypeIndex = type;
    result = vk.vkAllocateMemory(dev->device, &allocate, nullptr, &state->memory);
    if (result == VK_SUCCESS) break;
  }
  detail::check(result, "vkAllocateMemory (" + std::to_string(requirements.size) + " bytes)");
  detail::check(vk.vkBindBufferMemory(dev->device, state->buffer, state->memory, 0), "vkBindBufferMemory");
  void* mapped = nullptr;
  detail::check(vk.vkMapMemory(dev->device, state->memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
  state->mapped = static_cast<std::byte*>(mapped);

  VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address.buffer = state->buffer;
  // Core 1.2 and VK_KHR_buffer_device_address share the entry point; volk
  // loads whichever the device has under its own name.
  auto get_address = vk.vkGetBufferDeviceAddress ? vk.vkGetBufferDeviceAddress : vk.vkGetBufferDeviceAddressKHR;
  state->address = get_address(dev->device, &address);
  dev->check_validation("buffer creation");
  state_ = std::move(state);
}

Buffer::Buffer(Buffer&&) noexcept = default;
Buffer& Buffer::operator=(Buffer&&) noexcept = default;
Buffer::~Buffer() = default;

size_t Buffer::size() const { return state_->size; }
VkDeviceAddress Buffer::address() const { return state_->address; }

void Buffer::write(std::span<const std::byte> bytes, size_t offset) {
  detail::check_range(*state_, offset, bytes.size(), "write");
  if (!bytes.empty()) std::memcpy(state_->mapped + offset, bytes.data(), bytes.size());
}

void Buffer::read(std::span<std::byte> bytes, size_t offset) const {
  detail::check_range(*state_, offset, bytes.size(), "read");
  if (!bytes.empty()) std::memcpy(bytes.data(), state_->mapped + offset, bytes.size());
}

void Buffer::fill(std::byte value) { std::memset(state_->mapped, static_cast<int>(value), state_->size); }

}  // namespace vkcl
