#include "vkcl/kernel.h"

#include <cstring>

#include "internal.h"
#include "vkcl/buffer.h"

namespace vkcl {

Kernel::Kernel(std::shared_ptr<detail::ProgramState> program, uint32_t kernel_index)
    : program_(std::move(program)), kernel_index_(kernel_index) {
  const KernelReflection& k = reflection();
  arguments_.assign(k.argument_buffer ? k.argument_buffer->size : detail::ProgramState::push_range_size(k), std::byte{0});
  args_.resize(k.args.size());
}

const std::string& Kernel::name() const { return reflection().name; }
const KernelReflection& Kernel::reflection() const { return program_->reflection.kernels[kernel_index_]; }

uint32_t Kernel::arg_index(std::string_view arg_name) const {
  if (const KernelArg* a = reflection().find_arg(arg_name)) return a->index;
  std::string names;
  for (const KernelArg& a : reflection().args) names += (names.empty() ? "" : ", ") + (a.name.empty() ? "-" : a.name);
  throw Error("kernel '" + name() + "' has no argument named '" + std::string(arg_name) + "'; its arguments: " +
              (names.empty() ? "(none)" : names));
}

std::string Kernel::describe_arg(uint32_t index) const {
  const KernelArg& a = reflection().args[index];
  return "kernel '" + name() + "' argument " + std::to_string(index) + (a.name.empty() ? "" : " (" + a.name + ")");
}

const KernelArg& Kernel::arg(uint32_t index) const {
  const auto& args = reflection().args;
  if (index >= args.size())
    throw Error("kernel '" + name() + "' has " + std::to_string(args.size()) + " argument(s); there is no argument " +
                std::to_string(index));
  return args[index];
}

void Kernel::set_arg(uint32_t index, const Buffer& buffer, size_t offset) {
  const KernelArg& a = arg(index);
  if (a.kind != ArgKind::GlobalPointer && a.kind != ArgKind::ConstantPointer)
    throw Error(describe_arg(index) + " is a " + std::string(to_string(a.kind)) + ", not a global or constant pointer");
  const auto& b = *buffer.state_;
  if (b.device != program_->device) throw Error(describe_arg(index) + ": the buffer belongs to another Device");
  if (offset >= b.size)
    throw Error(describe_arg(index) + ": offset " + std::to_string(offset) + " is not inside the buffer of " +
                std::to_string(b.size) + " bytes");
  const VkPhysicalDeviceLimits& limits = b.device->properties.limits;
  const uint64_t range = b.size - offset;
  bool needs_address = false;
  if (a.binding) {  // a storage-buffer descriptor (spirv/bind_storage_buffers.cpp)
    const bool misaligned = offset % limits.minStorageBufferOffsetAlignment != 0;
    const bool too_long = range > limits.maxStorageBufferRange;
    // What a binding cannot take, the program's module with addresses can, where it has one (Program).
    needs_address = (misaligned || too_long) && program_->by_address_module;
    if (misaligned && !needs_address)
      throw Error(describe_arg(index) + ": offset " + std::to_string(offset) +
                  " is not a multiple of minStorageBufferOffsetAlignment = " +
                  std::to_string(limits.minStorageBufferOffsetAlignment) + ", which the argument's storage buffer needs");
    if (too_long && !needs_address)
      throw Error(describe_arg(index) + ": " + std::to_string(range) + " bytes from offset " + std::to_string(offset) +
                  " exceed maxStorageBufferRange = " + std::to_string(limits.maxStorageBufferRange) +
                  " bytes of one storage buffer");
  } else {
    VkDeviceAddress address = b.address + offset;
    std::memcpy(arguments_.data() + a.offset, &address, sizeof address);
  }
  // The allocation, not the handle: a view passed as a temporary
  // (set_arg(0, buffer.view(256, 64))) stays valid while its buffer lives.
  args_[index] = {true, b.allocation(buffer.state_), b.offset + offset, 0, range, {}, needs_address};
}

void Kernel::set_null_arg(uint32_t index) {
  const KernelArg& a = arg(index);
  if (a.kind != ArgKind::GlobalPointer && a.kind != ArgKind::ConstantPointer)
    throw Error(describe_arg(index) + " is a " + std::string(to_string(a.kind)) + ", not a global or constant pointer");
  if (a.binding && !program_->by_address_module)
    throw Error(describe_arg(index) + " is a storage buffer, which cannot be NULL, and the program has no module "
                "that passes it by address");
  if (!a.binding) std::memset(arguments_.data() + a.offset, 0, sizeof(VkDeviceAddress));
  ArgValue value;
  value.set = true;
  value.needs_address = a.binding.has_value();
  value.null = true;
  args_[index] = std::move(value);
}

void Kernel::set_arg_bytes(uint32_t index, std::span<const std::byte> bytes) {
  const KernelArg& a = arg(index);
  if (a.kind != ArgKind::Scalar)
    throw Error(describe_arg(index) + " is a " + std::string(to_string(a.kind)) + "; pass " +
                (a.kind == ArgKind::LocalPointer ? "a size with set_local_arg" : "a Buffer"));
  if (bytes.size() != a.size)
    throw Error(describe_arg(index) + " takes " + std::to_string(a.size) + " bytes; the value given has " +
                std::to_string(bytes.size()));
  std::memcpy(arguments_.data() + a.offset, bytes.data(), bytes.size());
  args_[index] = {true, {}, 0, 0, 0, std::vector<std::byte>(bytes.begin(), bytes.end())};
}

void Kernel::set_local_arg(uint32_t index, size_t bytes) {
  const KernelArg& a = arg(index);
  if (a.kind != ArgKind::LocalPointer)
    throw Error(describe_arg(index) + " is a " + std::string(to_string(a.kind)) + ", not a __local pointer");
  if (bytes == 0 || bytes % a.element_size != 0)
    throw Error(describe_arg(index) + ": " + std::to_string(bytes) + " bytes of __local memory is not a nonzero multiple of its element size " +
                std::to_string(a.element_size));
  uint64_t length = bytes / a.element_size;
  if (length > UINT32_MAX) throw Error(describe_arg(index) + ": " + std::to_string(bytes) + " bytes of __local memory is far too many");
  args_[index] = {true, {}, 0, static_cast<uint32_t>(length)};
}

std::vector<std::byte> Kernel::arguments_for(const KernelReflection& k) const {
  std::vector<std::byte> bytes(k.argument_buffer ? k.argument_buffer->size : detail::ProgramState::push_range_size(k));
  for (const KernelArg& a : k.args) {
    const ArgValue& value = args_[a.index];
    if (a.kind == ArgKind::Scalar) {
      std::memcpy(bytes.data() + a.offset, value.bytes.data(), std::min<size_t>(value.bytes.size(), a.size));
    } else if (a.kind != ArgKind::LocalPointer && !a.binding) {
      // (A buffer destroyed since set_arg leaves 0 here; enqueue refuses it.)
      if (auto buffer = value.buffer.lock()) {
        const VkDeviceAddress address = buffer->address + (value.offset - buffer->offset);
        std::memcpy(bytes.data() + a.offset, &address, sizeof address);
      }
    }
  }
  return bytes;
}

}  // namespace vkcl
