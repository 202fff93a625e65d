// A module written by clc: SPIR-V plus its reflection, checked against a device.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reflection.h"

namespace vkcl {

class Device;
class Kernel;
namespace detail {
struct DeviceState;
struct ProgramState;
}

class Program {
 public:
  // Reads `spv` and `spv` + ".reflection".
  Program(Device& device, const std::filesystem::path& spv);
  Program(Device& device, std::span<const uint32_t> words, ModuleReflection reflection);

  // A module and its reflection, as clc writes them.
  struct Module {
    std::vector<uint32_t> words;
    ModuleReflection reflection;
  };
  // `by_address` gives the same program compiled with every pointer argument
  // passed by address (clc --max-storage-buffers=0). A kernel given a buffer
  // that its storage-buffer argument cannot bind (more than
  // maxStorageBufferRange bytes from the offset, or an offset that is not a
  // multiple of minStorageBufferOffsetAlignment) runs from that module
  // instead, which `by_address` builds the first time it is needed. Without
  // it (the constructors above), such a set_arg throws Error.
  Program(Device& device, std::span<const uint32_t> words, ModuleReflection reflection,
          std::function<Module()> by_address);
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  const ModuleReflection& reflection() const;
  // One line per pipeline built so far ("kernel 'k' 256x1x1: <executable>:
  // Register Count = 24, ..."), when the Device captures the driver's
  // statistics (DeviceOptions::pipeline_statistics); empty otherwise.
  const std::vector<std::string>& pipeline_statistics() const;
  // Throws Error when the module has no such kernel or the device cannot
  // hold its push constants. The Kernel keeps the program's Vulkan objects
  // alive on its own.
  Kernel kernel(std::string_view name) const;

 private:
  std::shared_ptr<detail::ProgramState> state_;
};

}  // namespace vkcl
