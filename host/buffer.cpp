#include "vkcl/buffer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

#include "internal.h"
#include "submission.h"
#include "vkcl/device.h"

namespace vkcl {

const char* to_string(Memory memory) {
  switch (memory) {
    case Memory::Auto: return "auto";
    case Memory::DeviceLocal: return "device-local";
    case Memory::HostVisible: return "host-visible";
  }
  return "?";
}

namespace detail {
namespace {

// A staging buffer bigger than this is filled and drained in chunks, so that
// reading a huge buffer does not need as much host-visible memory again.
constexpr size_t kStagingChunk = size_t(64) << 20;
// fill_pattern's source block: the pattern repeated to about this size, then
// copied region by region over the destination.
constexpr size_t kFillBlock = size_t(1) << 20;
constexpr size_t kMaxPattern = 65536;
// OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN: the size of long16/double16.
constexpr size_t kLargestBuiltinType = 128;

std::string bytes_text(uint64_t bytes) {
  char text[32];
  if (bytes >= (uint64_t(1) << 30))
    std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(uint64_t(1) << 30));
  else
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
  return text;
}

std::string heap_text(const VkPhysicalDeviceMemoryProperties& memory, uint32_t heap) {
  const VkMemoryHeap& h = memory.memoryHeaps[heap];
  return "heap " + std::to_string(heap) + " (" + bytes_text(h.size) +
         ((h.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? ", device-local)" : ", system memory)");
}

// Memory types allowed by `allowed` that have all of `wanted` and none of
// `unwanted`, in the device's order (which the spec sorts best first).
std::vector<uint32_t> memory_types(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed,
                                   VkMemoryPropertyFlags wanted, VkMemoryPropertyFlags unwanted = 0) {
  std::vector<uint32_t> types;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((allowed & (1u << i)) && (flags & wanted) == wanted && !(flags & unwanted)) types.push_back(i);
  }
  return types;
}

void append_unique(std::vector<uint32_t>& to, const std::vector<uint32_t>& from) {
  for (uint32_t t : from)
    if (std::find(to.begin(), to.end(), t) == to.end()) to.push_back(t);
}

constexpr VkMemoryPropertyFlags kHostCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

Memory resolve(const DeviceState& dev, Memory wanted) {
  if (wanted != Memory::Auto) return wanted;
  VkPhysicalDeviceType type = dev.properties.deviceType;
  bool all_heaps_device_local = true;
  for (uint32_t i = 0; i < dev.memory.memoryHeapCount; ++i)
    if (!(dev.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) all_heaps_device_local = false;
  bool unified = type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU || type == VK_PHYSICAL_DEVICE_TYPE_CPU ||
                 all_heaps_device_local;
  return unified ? Memory::HostVisible : Memory::DeviceLocal;
}

// The memory types to try for `kind`, best first.
std::vector<uint32_t> candidate_types(const DeviceState& dev, uint32_t allowed, Memory kind, bool staging) {
  constexpr VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  std::vector<uint32_t> types;
  if (staging) {
    // The host reads staging memory back: cached reads are far faster than
    // write-combined ones. Device-local staging would defeat its purpose.
    append_unique(types, memory_types(dev.memory, allowed, kHostCoherent | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, local));
    append_unique(types, memory_types(dev.memory, allowed, kHostCoherent, local));
    append_unique(types, memory_types(dev.memory, allowed, kHostCoherent));
  } else if (kind == Memory::DeviceLocal) {
    // Not host-visible first: on a discrete GPU without resizable BAR the
    // host-visible device-local heap is a 256 MiB window kept for uploads.
    append_unique(types, memory_types(dev.memory, allowed, local, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
    append_unique(types, memory_types(dev.memory, allowed, local));
  } else {
    // Device-local too where offered (resizable BAR, unified memory); that
    // heap may be small, so allocations that fail there fall back.
    append_unique(types, memory_types(dev.memory, allowed, kHostCoherent | local));
    append_unique(types, memory_types(dev.memory, allowed, kHostCoherent));
  }
  return types;
}

VkDeviceAddress buffer_address(const DeviceState& dev, VkBuffer buffer) {
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  info.buffer = buffer;
  // Core 1.2 and VK_KHR_buffer_device_address share the entry point; volk
  // loads whichever the device has under its own name.
  auto get_address = dev.vk.vkGetBufferDeviceAddress ? dev.vk.vkGetBufferDeviceAddress : dev.vk.vkGetBufferDeviceAddressKHR;
  return get_address(dev.device, &info);
}

// A new allocation. Staging buffers are host-visible transfer sources and
// destinations without a device address.
std::shared_ptr<BufferState> allocate(const std::shared_ptr<DeviceState>& dev, size_t bytes, Memory kind, bool staging) {
  auto state = std::make_shared<BufferState>();
  state->device = dev;
  state->size = bytes;
  state->kind = staging ? Memory::HostVisible : kind;
  const auto& vk = dev->vk;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (!staging) info.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vk.vkCreateBuffer(dev->device, &info, nullptr, &state->buffer), "vkCreateBuffer");

  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(dev->device, state->buffer, &requirements);
  std::vector<uint32_t> types = candidate_types(*dev, requirements.memoryTypeBits, state->kind, staging);
  const char* what = staging ? "host-visible staging" : to_string(state->kind);
  if (types.empty())
    throw Error(std::string("Buffer: ") + dev->properties.deviceName + " has no " + what +
                " memory type for storage buffers");

  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, staging ? nullptr : &flags};
  allocate.allocationSize = requirements.size;
  VkResult result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  std::string tried;
  for (uint32_t type : types) {
    allocate.memoryTypeIndex = type;
    result = vk.vkAllocateMemory(dev->device, &allocate, nullptr, &state->memory);
    if (result == VK_SUCCESS) {
      state->heap = dev->memory.memoryTypes[type].heapIndex;
      break;
    }
    // Out of memory in one heap is worth trying the next; anything else is not.
    if (result != VK_ERROR_OUT_OF_DEVICE_MEMORY && result != VK_ERROR_OUT_OF_HOST_MEMORY) break;
    // Several memory types may share a heap: name each heap once.
    std::string heap = heap_text(dev->memory, dev->memory.memoryTypes[type].heapIndex) + ": " + vkcl::to_string(result);
    if (tried.find(heap) == std::string::npos) tried += (tried.empty() ? "" : ", ") + heap;
  }
  if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
    throw Error("Buffer: cannot allocate " + std::to_string(bytes) + " bytes (" + bytes_text(bytes) + ") of " + what +
                " memory on " + dev->properties.deviceName + ": " + tried, result);
  check(result, "vkAllocateMemory (" + std::to_string(requirements.size) + " bytes of " + what + " memory)");
  check(vk.vkBindBufferMemory(dev->device, state->buffer, state->memory, 0), "vkBindBufferMemory");
  if (state->kind == Memory::HostVisible) {
    void* mapped = nullptr;
    check(vk.vkMapMemory(dev->device, state->memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    state->mapped = static_cast<std::byte*>(mapped);
  }
  if (!staging) state->address = buffer_address(*dev, state->buffer);
  return state;
}

// Throws unless [offset, offset + bytes) lies inside `b`.
void check_range(const BufferState& b, size_t offset, size_t bytes, const char* call, const char* which = "") {
  if (offset > b.size || bytes > b.size - offset)
    throw Error(std::string("Buffer::") + call + ": " + which + "bytes [" + std::to_string(offset) + ", " +
                std::to_string(uint64_t(offset) + bytes) + ") are outside the " + which + "buffer of " +
                std::to_string(b.size) + " bytes (offset " + std::to_string(offset) + ", size " + std::to_string(bytes) +
                ")");
}

// `size` with `whole` resolved against `offset`, checked nonzero and in range.
size_t checked_size(const BufferState& b, size_t offset, size_t size, const char* call, const char* which = "") {
  if (offset >= b.size)
    throw Error(std::string("Buffer::") + call + ": " + which + "offset " + std::to_string(offset) +
                " is not inside the " + which + "buffer of " + std::to_string(b.size) + " bytes");
  if (size == Buffer::whole) size = b.size - offset;
  if (size == 0) throw Error(std::string("Buffer::") + call + ": " + which + "size must not be 0");
  check_range(b, offset, size, call, which);
  return size;
}

void global_barrier(const VolkDeviceTable& vk, VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src, dst};
  vk.vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// Records transfer commands into a one-time command buffer, submits it on the
// device's queue and waits up to the device's timeout. On a timeout the
// submission is left pending, and the buffers it uses are retired
// (DeviceState::retire) when their owners drop them, as for Device::run.
void run_transfer(DeviceState& dev, const std::string& what, const std::function<void(VkCommandBuffer)>& record) {
  dev.check_usable();
  reap_pending(dev);
  const VolkDeviceTable& vk = dev.vk;
  struct Owned {
    DeviceState& dev;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    ~Owned() { dev.recycle_submission_objects(cb, fence); }
  } owned{dev};
  dev.take_submission_objects(owned.cb, owned.fence);

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vk.vkBeginCommandBuffer(owned.cb, &begin), "vkBeginCommandBuffer");
  // Kernels and transfers submitted earlier may have written these bytes (or
  // still read them); their writes must be visible to the transfer. A fence
  // wait orders execution only.
  global_barrier(vk, owned.cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  record(owned.cb);
  // And the transfer's writes visible to whatever comes next: kernels (whose
  // own leading barrier covers only compute writes), transfers, the host.
  global_barrier(vk, owned.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT);
  check(vk.vkEndCommandBuffer(owned.cb), "vkEndCommandBuffer");

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &owned.cb;
  VkResult result = vk.vkQueueSubmit(dev.queue, 1, &submit, owned.fence);
  if (result == VK_ERROR_DEVICE_LOST) dev.lost = true;
  check(result, "vkQueueSubmit (" + what + ")");

  const auto timeout_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(dev.timeout).count();
  result = vk.vkWaitForFences(dev.device, 1, &owned.fence, VK_TRUE, static_cast<uint64_t>(timeout_ns));
  if (result == VK_TIMEOUT) {
    dev.pending.push_back({owned.cb, owned.fence});
    dev.note_timeout(owned.fence, what);
    owned.cb = VK_NULL_HANDLE;
    owned.fence = VK_NULL_HANDLE;
    throw Error(what + " did not finish within " + std::to_string(dev.timeout.count()) +
                    " ms (vkWaitForFences returned VK_TIMEOUT); work submitted before it may never end" +
                    behind_earlier_timeouts(dev, dev.pending.back().fence),
                VK_TIMEOUT);
  }
  if (result == VK_ERROR_DEVICE_LOST) {
    dev.lost = true;
    throw Error("the device was lost during " + what + " (vkWaitForFences returned VK_ERROR_DEVICE_LOST)",
                VK_ERROR_DEVICE_LOST);
  }
  check(result, "vkWaitForFences (" + what + ")");
  dev.check_validation(what);
}

// A staging buffer of at least `bytes` for one transfer, a spare one where
// the device has one big enough, and back among the spares once the transfer
// is done. One whose transfer failed (a timeout may leave it running) is
// retired instead, like any buffer a pending submission may use.
class StagingLease {
 public:
  StagingLease(const std::shared_ptr<DeviceState>& dev, size_t bytes) : dev_(*dev) {
    if (std::optional<StagingBuffer> spare = take_smallest_fitting(dev_.spare_staging_buffers, bytes)) {
      staging_ = *spare;
      return;
    }
    // A power of two from 64 KiB (up to the chunk size): a few sizes serve
    // every later transfer.
    size_t size = kMinStaging;
    while (size < bytes) size *= 2;
    auto made = allocate(dev, std::min(size, std::max(bytes, kStagingChunk)), Memory::HostVisible, /*staging=*/true);
    staging_ = {made->buffer, made->memory, made->mapped, made->size};
    made->buffer = VK_NULL_HANDLE;  // now the lease's
    made->memory = VK_NULL_HANDLE;
  }
  StagingLease(const StagingLease&) = delete;
  StagingLease& operator=(const StagingLease&) = delete;
  ~StagingLease() {
    if (done_) {
      auto& spares = dev_.spare_staging_buffers;
      // Keep the biggest few: one transfer at a time is the usual case.
      spares.push_back(staging_);
      std::sort(spares.begin(), spares.end(), [](auto& a, auto& b) { return a.size > b.size; });
      while (spares.size() > kSpareStaging) {
        dev_.destroy(spares.back());
        spares.pop_back();
      }
      return;
    }
    dev_.retire([&dev = dev_, staging = staging_] { dev.destroy(staging); });
  }
  const StagingBuffer& operator*() const { return staging_; }
  const StagingBuffer* operator->() const { return &staging_; }
  // The transfers through it have finished.
  void finished() { done_ = true; }

 private:
  static constexpr size_t kMinStaging = size_t(64) << 10;
  static constexpr size_t kSpareStaging = 2;
  DeviceState& dev_;
  StagingBuffer staging_;
  bool done_ = false;
};

// Host <-> device-local through a staging buffer, a chunk at a time.
void staged_transfer(const std::shared_ptr<BufferState>& self, std::byte* host, size_t offset, size_t bytes,
                     bool to_device) {
  DeviceState& dev = *self->device;
  const std::string what = to_device ? "Buffer::write (staging upload)" : "Buffer::read (staging download)";
  StagingLease staging(self->device, std::min(bytes, kStagingChunk));
  for (size_t done = 0; done < bytes;) {
    size_t chunk = std::min<size_t>(bytes - done, staging->size);
    if (to_device) std::memcpy(staging->mapped, host + done, chunk);
    VkBufferCopy region{0, self->offset + offset + done, chunk};
    if (!to_device) std::swap(region.srcOffset, region.dstOffset);
    VkBuffer src = to_device ? staging->buffer : self->buffer, dst = to_device ? self->buffer : staging->buffer;
    run_transfer(dev, what,
                 [&](VkCommandBuffer cb) { dev.vk.vkCmdCopyBuffer(cb, src, dst, 1, &region); });
    if (!to_device) std::memcpy(host + done, staging->mapped, chunk);
    done += chunk;
  }
  staging.finished();
}

}  // namespace

BufferState::~BufferState() {
  if (root) return;  // a view owns nothing
  // Through retire: a submission left running may still use the memory.
  DeviceState& dev = *device;
  dev.retire([&dev, buffer = buffer, memory = memory] {
    if (buffer) dev.vk.vkDestroyBuffer(dev.device, buffer, nullptr);
    if (memory) dev.vk.vkFreeMemory(dev.device, memory, nullptr);
  });
}

}  // namespace detail

Buffer::Buffer(Device& device, size_t bytes, BufferOptions options) {
  auto dev = device.state_;
  dev->check_usable();
  if (bytes == 0) throw Error("Buffer: size must not be 0");
  if (bytes > dev->max_allocation_size)
    throw Error("Buffer: size " + std::to_string(bytes) + " bytes exceeds the device's maxMemoryAllocationSize of " +
                std::to_string(dev->max_allocation_size));
  if (!dev->features.buffer_device_address)
    throw Error(std::string("Buffer: ") + dev->properties.deviceName +
                " lacks buffer_device_address, which vkcl needs to pass buffers to kernels");
  state_ = detail::allocate(dev, bytes, detail::resolve(*dev, options.memory), /*staging=*/false);
  dev->check_validation("buffer creation");
}

Buffer::Buffer(std::shared_ptr<detail::BufferState> state) : state_(std::move(state)) {}
Buffer::Buffer(Buffer&&) noexcept = default;
Buffer& Buffer::operator=(Buffer&&) noexcept = default;
Buffer::~Buffer() = default;

size_t Buffer::size() const { return state_->size; }
VkDeviceAddress Buffer::address() const { return state_->address; }
Memory Buffer::memory() const { return state_->kind; }
size_t Buffer::offset() const { return state_->offset; }
bool Buffer::is_view() const { return state_->root != nullptr; }

size_t Buffer::view_alignment(const Device& device) {
  return std::max<size_t>(detail::kLargestBuiltinType, device.properties().limits.minStorageBufferOffsetAlignment);
}

Buffer Buffer::view(size_t offset, size_t size) const {
  const detail::BufferState& b = *state_;
  size = detail::checked_size(b, offset, size, "view");
  size_t alignment = std::max<size_t>(detail::kLargestBuiltinType,
                                      b.device->properties.limits.minStorageBufferOffsetAlignment);
  if (offset % alignment != 0)
    throw Error("Buffer::view: offset " + std::to_string(offset) + " is not a multiple of " +
                std::to_string(alignment) + " (Buffer::view_alignment: the largest OpenCL C built-in type, and at least "
                "minStorageBufferOffsetAlignment = " +
                std::to_string(b.device->properties.limits.minStorageBufferOffsetAlignment) + ")");
  auto v = std::make_shared<detail::BufferState>(b);  // same device, buffer, kind, heap
  v->root = b.allocation(state_);
  v->offset = b.offset + offset;
  v->size = size;
  v->address = b.address + offset;
  v->mapped = b.mapped ? b.mapped + offset : nullptr;
  return Buffer(std::move(v));
}

void Buffer::write(std::span<const std::byte> bytes, size_t offset) {
  detail::check_range(*state_, offset, bytes.size(), "write");
  if (bytes.empty()) return;
  state_->device->check_usable();
  if (state_->mapped)
    std::memcpy(state_->mapped + offset, bytes.data(), bytes.size());
  else
    detail::staged_transfer(state_, const_cast<std::byte*>(bytes.data()), offset, bytes.size(), /*to_device=*/true);
}

void Buffer::read(std::span<std::byte> bytes, size_t offset) const {
  detail::check_range(*state_, offset, bytes.size(), "read");
  if (bytes.empty()) return;
  state_->device->check_usable();
  if (state_->mapped)
    std::memcpy(bytes.data(), state_->mapped + offset, bytes.size());
  else
    detail::staged_transfer(state_, bytes.data(), offset, bytes.size(), /*to_device=*/false);
}

void Buffer::fill_pattern(std::span<const std::byte> pattern, size_t offset, size_t size) {
  const detail::BufferState& b = *state_;
  if (pattern.empty() || pattern.size() > detail::kMaxPattern)
    throw Error("Buffer::fill: the pattern has " + std::to_string(pattern.size()) + " bytes; it must have 1 to " +
                std::to_string(detail::kMaxPattern));
  size = detail::checked_size(b, offset, size, "fill");
  if (size % pattern.size() != 0)
    throw Error("Buffer::fill: size " + std::to_string(size) + " is not a multiple of the pattern's " +
                std::to_string(pattern.size()) + " bytes");
  detail::DeviceState& dev = *b.device;
  const size_t at = b.offset + offset;

  // vkCmdFillBuffer writes 32-bit words at 4-byte aligned offsets: patterns
  // of 1, 2 or 4 bytes on such ranges need no source buffer at all.
  if ((pattern.size() == 1 || pattern.size() == 2 || pattern.size() == 4) && at % 4 == 0 && size % 4 == 0) {
    uint32_t word = 0;
    for (size_t i = 0; i < 4; ++i) reinterpret_cast<std::byte*>(&word)[i] = pattern[i % pattern.size()];
    detail::run_transfer(dev, "Buffer::fill", [&](VkCommandBuffer cb) {
      dev.vk.vkCmdFillBuffer(cb, b.buffer, at, size, word);
    });
    return;
  }
  // Any other pattern or alignment: a block of repeated patterns, copied
  // over the range region by region (vkCmdCopyBuffer has no alignment rules).
  size_t block = std::min(size, std::max<size_t>(1, detail::kFillBlock / pattern.size()) * pattern.size());
  detail::StagingLease source(b.device, block);
  for (size_t i = 0; i < block; i += pattern.size()) std::memcpy(source->mapped + i, pattern.data(), pattern.size());
  std::vector<VkBufferCopy> regions;
  for (size_t done = 0; done < size; done += block) regions.push_back({0, at + done, std::min(block, size - done)});
  detail::run_transfer(dev, "Buffer::fill", [&](VkCommandBuffer cb) {
    dev.vk.vkCmdCopyBuffer(cb, source->buffer, b.buffer, static_cast<uint32_t>(regions.size()), regions.data());
  });
  source.finished();
}

void Buffer::copy(const Buffer& from, Buffer& to, size_t from_offset, size_t to_offset, size_t size) {
  const detail::BufferState &src = *from.state_, &dst = *to.state_;
  if (src.device != dst.device) throw Error("Buffer::copy: the buffers belong to different Devices");
  if (size == 0) throw Error("Buffer::copy: size must not be 0");
  detail::check_range(src, from_offset, size, "copy", "source ");
  detail::check_range(dst, to_offset, size, "copy", "destination ");
  const size_t src_at = src.offset + from_offset, dst_at = dst.offset + to_offset;
  // Vulkan forbids overlapping regions in one copy (and OpenCL reports
  // CL_MEM_COPY_OVERLAP): the result would depend on the copy's order.
  if (src.buffer == dst.buffer && src_at < dst_at + size && dst_at < src_at + size)
    throw Error("Buffer::copy: source bytes [" + std::to_string(src_at) + ", " + std::to_string(src_at + size) +
                ") and destination bytes [" + std::to_string(dst_at) + ", " + std::to_string(dst_at + size) +
                ") of the same allocation overlap");
  detail::DeviceState& dev = *src.device;
  VkBufferCopy region{src_at, dst_at, size};
  detail::run_transfer(dev, "Buffer::copy",
                       [&](VkCommandBuffer cb) { dev.vk.vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region); });
}

void Buffer::copy(const Buffer& from, Buffer& to) {
  if (to.size() < from.size())
    throw Error("Buffer::copy: the destination has " + std::to_string(to.size()) + " bytes, fewer than the source's " +
                std::to_string(from.size()));
  copy(from, to, 0, 0, from.size());
}

}  // namespace vkcl
